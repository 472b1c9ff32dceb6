import { defineMessages } from '../../i18n/define.ts';

export const accountMessages = defineMessages(
  {
    'ledger.line': '业务线',
    'ledger.line.truck': '卡车',
    'ledger.line.express': '快递',
    'ledger.keywordTip': '客户名称、联系人或邮箱',
    'ledger.operator': '操作人',
    'ledger.note': '备注',
    'ledger.empty.details': '该条件下没有账户变动',
    'ledger.empty.log': '该条件下没有账户事件(冻结、解冻、授信调整、手工调账、充值审核)',
    'ledger.empty.deductions': '该条件下没有补扣记录',
    'ledger.showAll': '显示全部',
    'ledger.noMoneyFor': '{{reference}} 没有资金变动(如被驳回的充值)。',
    'ledger.openLog': '在账户日志中查看',
    'balance.empty': '每个客户都有卡车与快递两个账户;新增客户后,各账户的余额、授信与冻结金额会汇总在这里',
    'balance.emptyAction': '去新增客户',
  },
  {
    'ledger.line': 'Line',
    'ledger.line.truck': 'Truck',
    'ledger.line.express': 'Express',
    'ledger.keywordTip': 'Customer name, contact or e-mail',
    'ledger.operator': 'Operator',
    'ledger.note': 'Note',
    'ledger.empty.details': 'No account movements match these filters',
    'ledger.empty.log':
      'No account events (freezes, unfreezes, credit limits, adjustments, recharge reviews) match these filters',
    'ledger.empty.deductions': 'No supplementary deductions match these filters',
    'ledger.showAll': 'Show all',
    'ledger.noMoneyFor': 'No money moved for {{reference}} (a rejected recharge, for example).',
    'ledger.openLog': 'See it in the account log',
    'balance.empty':
      'Each customer has a truck and an express account; once customers are added, their balances, credit and frozen amounts add up here',
    'balance.emptyAction': 'Add a customer',
  },
);
