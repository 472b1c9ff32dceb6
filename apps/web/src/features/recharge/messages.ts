import { defineMessages } from '../../i18n/define.ts';

export const rechargeMessages = defineMessages(
  {
    'recharge.keywordTipStaff': '客户名称、邮箱、流水号或付款人',
    'receiving.title': '收款账户',
    'receiving.currency': '币种',
    'receiving.add': '新增收款账户',
    'receiving.edit': '编辑收款账户',
    'receiving.empty': '还没有收款账户,客户充值前需要至少一个启用的账户',
    'receiving.bankEn': '英文银行名称',
    'receiving.bankEnTip': '英文界面显示;留空则显示银行名称',
    'receiving.deleteConfirm':
      '确定删除收款账户 {{number}}({{bank}})吗?已有充值记录的账户不能删除,可改为停用。',
  },
  {
    'recharge.keywordTipStaff': 'Customer name, e-mail, serial or payer',
    'receiving.title': 'Receiving accounts',
    'receiving.currency': 'Currency',
    'receiving.add': 'Add a receiving account',
    'receiving.edit': 'Edit the receiving account',
    'receiving.empty': 'No receiving accounts yet: customers need at least one enabled account to recharge',
    'receiving.bankEn': 'Bank name in English',
    'receiving.bankEnTip': 'Shown on the English interface; left empty, the bank name shows there too',
    'receiving.deleteConfirm':
      'Delete receiving account {{number}} ({{bank}})? An account recharges were paid into cannot be deleted; disable it instead.',
  },
);
