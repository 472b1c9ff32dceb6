import { defineMessages } from '../../i18n/define.ts';

export const accountMessages = defineMessages(
  {
    'ledger.line': '业务线',
    'ledger.line.truck': '卡车',
    'ledger.line.express': '快递',
    'ledger.keywordTip': '客户名称、联系人或邮箱',
    'receiving.title': '收款账户',
    'receiving.currency': '币种',
  },
  {
    'ledger.line': 'Line',
    'ledger.line.truck': 'Truck',
    'ledger.line.express': 'Express',
    'ledger.keywordTip': 'Customer name, contact or e-mail',
    'receiving.title': 'Receiving accounts',
    'receiving.currency': 'Currency',
  },
);
