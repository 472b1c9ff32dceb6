import { defineMessages } from '../../i18n/define.ts';

export const rechargeMessages = defineMessages(
  {
    'recharge.keywordTipStaff': '客户名称、邮箱、流水号或付款人',
    'recharge.emptyReview': '客户提交的充值申请在这里等待审核;审核过的可在充值管理中查看',
    'recharge.emptyManagement': '客户在“充值”页提交的充值申请及其审核结果显示在这里',
    'recharge.emptyAction': '去充值',
    'receiving.title': '收款账户',
    'receiving.currency': '币种',
    'receiving.add': '新增收款账户',
    'receiving.edit': '编辑收款账户',
    'receiving.empty': '还没有收款账户,客户充值前需要至少一个启用的账户',
    'receiving.bankEn': '英文银行名称',
    'receiving.bankEnTip': '英文界面显示;留空则显示银行名称',
    'receiving.accountNameEn': '英文户名',
    'receiving.accountNameEnTip': '英文界面显示;留空则显示户名',
    'receiving.deleteConfirm':
      '确定删除收款账户 {{number}}({{bank}})吗?已有充值记录的账户不能删除,可改为停用。',
  },
  {
    'recharge.keywordTipStaff': 'Customer name, e-mail, serial or payer',
    'recharge.emptyReview':
      'Recharges that customers submit wait here for review; reviewed ones are under the recharge list',
    'recharge.emptyManagement': 'Recharges submitted on the Recharge page show here with their review',
    'recharge.emptyAction': 'Recharge',
    'receiving.title': 'Receiving accounts',
    'receiving.currency': 'Currency',
    'receiving.add': 'Add a receiving account',
    'receiving.edit': 'Edit the receiving account',
    'receiving.empty': 'No receiving accounts yet: customers need at least one enabled account to recharge',
    'receiving.bankEn': 'Bank name in English',
    'receiving.bankEnTip': 'Shown on the English interface; left empty, the bank name shows there too',
    'receiving.accountNameEn': 'Account name in English',
    'receiving.accountNameEnTip':
      'Shown on the English interface; left empty, the account name shows there too',
    'receiving.deleteConfirm':
      'Delete receiving account {{number}} ({{bank}})? An account recharges were paid into cannot be deleted; disable it instead.',
  },
);
