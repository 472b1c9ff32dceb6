import { defineMessages } from '../../i18n/define.ts';

/**
 * The carrier accounts page's own strings. Field names (carrier, account name, client ID…) are the
 * contract's labels (`carrierAccount:*` in validation.ts), so the form and its errors name a field alike.
 */
export const carrierMessages = defineMessages(
  {
    'carrierAccounts.new': '添加账号',
    'carrierAccounts.editTitle': '编辑承运商账号',
    'carrierAccounts.keywordTip': '账号名称中的文字',
    'carrierAccounts.empty':
      '还没有承运商账号。连接 UPS 或 Karrio 的账号后,门户即可通过它们报价、打印面单和追踪货件。点击“添加账号”开始',
    'carrierAccounts.noMatch': '没有符合条件的承运商账号',
    'carrierAccounts.kind.ups': 'UPS',
    'carrierAccounts.kind.karrio': 'Karrio',
    'carrierAccounts.kindTip': 'UPS 直接连接 UPS;Karrio 通过 Karrio 服务连接多家承运商。保存后不能更改',
    'carrierAccounts.labelTip': '用于区分账号,例如“UPS 洛杉矶仓”',
    'carrierAccounts.environment.production': '正式环境',
    'carrierAccounts.environment.test': '测试环境',
    'carrierAccounts.environment.custom': '自定义地址',
    'carrierAccounts.baseUrlTip': '例如自建的 Karrio 服务或代理,以 http:// 或 https:// 开头',
    'carrierAccounts.timeoutTip': '{{min}} 至 {{max}} 毫秒,默认 {{fallback}}',
    'carrierAccounts.credentialsNew': '凭证加密保存,保存后任何人都无法再查看。',
    'carrierAccounts.credentialsKept':
      '已保存的凭证({{fields}},{{time}} 更新)不会显示。留空即保留原凭证;要更换时请填写全部字段。',
    'carrierAccounts.accountNumberTip': '6 位字母或数字',
    'carrierAccounts.lastTest': '最近连接测试',
    'carrierAccounts.neverTested': '尚未测试',
    'carrierAccounts.testOk': '连接正常',
    'carrierAccounts.testFailed': '连接失败',
    'carrierAccounts.testedAt': '{{time}} · 用时 {{ms}} 毫秒',
    'carrierAccounts.detail': '承运商原文',
    'carrierAccounts.credentialsUpdatedAt': '凭证更新时间',
    'carrierAccounts.test': '测试连接',
    'carrierAccounts.deleteConfirm': '删除承运商账号“{{label}}”?保存的凭证会一并删除,此操作无法撤销。',
    'carrierAccounts.webhook.title': '轨迹推送',
    'carrierAccounts.webhook.on': '已登记',
    'carrierAccounts.webhook.off': '未登记',
    'carrierAccounts.webhook.register': '登记',
    'carrierAccounts.webhook.again': '重新登记',
    'carrierAccounts.webhook.remove': '取消',
    'carrierAccounts.webhook.registerConfirm':
      '在账号“{{label}}”的 Karrio 服务上登记本门户的轨迹 Webhook?Karrio 之后会即时推送包裹轨迹;重新登记会取代之前的登记。',
    'carrierAccounts.webhook.removeConfirm':
      '在 Karrio 取消账号“{{label}}”的轨迹 Webhook?之后轨迹只靠门户定时查询更新。',
    'carrierAccounts.webhook.registered': '已在 Karrio 登记轨迹 Webhook',
    'carrierAccounts.webhook.removed': '已在 Karrio 取消轨迹 Webhook',
  },
  {
    'carrierAccounts.new': 'Add account',
    'carrierAccounts.editTitle': 'Edit carrier account',
    'carrierAccounts.keywordTip': 'Part of the account name',
    'carrierAccounts.empty':
      'No carrier accounts yet. Connect a UPS or Karrio account so the portal can price, label and track shipments through it. Choose "Add account" to start',
    'carrierAccounts.noMatch': 'No carrier account matches the filters',
    'carrierAccounts.kind.ups': 'UPS',
    'carrierAccounts.kind.karrio': 'Karrio',
    'carrierAccounts.kindTip':
      'UPS connects to UPS directly; Karrio reaches many carriers through a Karrio server. It cannot be changed once saved',
    'carrierAccounts.labelTip': 'To tell accounts apart, e.g. "UPS Los Angeles warehouse"',
    'carrierAccounts.environment.production': 'Production',
    'carrierAccounts.environment.test': 'Test service',
    'carrierAccounts.environment.custom': 'Custom address',
    'carrierAccounts.baseUrlTip': 'A self-hosted Karrio server or a proxy, starting with http:// or https://',
    'carrierAccounts.timeoutTip': '{{min}} to {{max}} ms; {{fallback}} by default',
    'carrierAccounts.credentialsNew':
      'Credentials are stored encrypted; once saved, no one can see them again.',
    'carrierAccounts.credentialsKept':
      'The saved credentials ({{fields}}, updated {{time}}) are never shown. Leave these empty to keep them; to replace them, fill in every field.',
    'carrierAccounts.accountNumberTip': '6 letters or digits',
    'carrierAccounts.lastTest': 'Last connection test',
    'carrierAccounts.neverTested': 'Not tested yet',
    'carrierAccounts.testOk': 'Connected',
    'carrierAccounts.testFailed': 'Failed',
    'carrierAccounts.testedAt': '{{time}} · took {{ms}} ms',
    'carrierAccounts.detail': "Carrier's own words",
    'carrierAccounts.credentialsUpdatedAt': 'Credentials updated',
    'carrierAccounts.test': 'Test connection',
    'carrierAccounts.deleteConfirm':
      'Delete the carrier account "{{label}}"? Its saved credentials go with it. This cannot be undone.',
    'carrierAccounts.webhook.title': 'Webhook',
    'carrierAccounts.webhook.on': 'Registered',
    'carrierAccounts.webhook.off': 'Not registered',
    'carrierAccounts.webhook.register': 'Register',
    'carrierAccounts.webhook.again': 'Register again',
    'carrierAccounts.webhook.remove': 'Remove',
    'carrierAccounts.webhook.registerConfirm':
      'Register the portal\'s tracking webhook at the Karrio server of "{{label}}"? Karrio then sends each tracking update as it happens; registering again replaces the earlier one.',
    'carrierAccounts.webhook.removeConfirm':
      'Remove the tracking webhook of "{{label}}" at Karrio? Tracking then comes only from the portal\'s scheduled checks.',
    'carrierAccounts.webhook.registered': 'Tracking webhook registered at Karrio',
    'carrierAccounts.webhook.removed': 'Tracking webhook removed at Karrio',
  },
);
