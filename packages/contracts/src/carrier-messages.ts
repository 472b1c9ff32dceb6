/**
 * Messages of the carrier accounts and the carriers' answers, in both languages; `messages.ts` merges
 * them into the one catalogue.
 */
export const carrierZhCN = {
  'validation.baseUrl': '{{field}}须为 http:// 或 https:// 开头的地址',
  'carrier.credentials': '承运商拒绝了凭证:请检查客户端 ID、密钥或 API 密钥是否正确、是否已启用',
  'carrier.unreachable': '无法连接承运商服务:请检查服务地址和网络',
  'carrier.timeout': '承运商在 {{seconds}} 秒内没有应答,请稍后重试或调大超时时间',
  'carrier.refused': '承运商拒绝了请求:{{detail}}',
  'carrier.malformed': '承运商的应答无法识别,请联系平台管理员',
  'carrier.unavailable': '承运商服务暂不可用,请稍后重试',
  'carrier.connected': '连接成功,承运商接受了凭证',
  'carrier.keyMissing': '服务器未配置承运商凭证的加密密钥(CARRIER_CREDENTIALS_KEY),无法保存凭证',
  'carrier.credentialsUnreadable': '该账号的凭证无法解密(加密密钥已更换?),请重新填写凭证',
  'carrierAccount.created': '承运商账号已添加',
  'carrierAccount.saved': '承运商账号已保存',
  'carrierAccount.deleted': '承运商账号已删除',
  'carrierAccount.credentialsKind': '凭证与账号类型不符:{{kind}} 账号需要 {{fields}}',
  'carrierAccount.labelTaken': '已有同名的承运商账号',
  'carrierAccount.inUse': '该承运商账号正被 {{uses}} 使用,请先为它们更换账号',
  'carrierAccount.urlPrivate': '{{field}}不能指向内网或本机地址(由平台管理员配置 CARRIER_ALLOW_PRIVATE 开启)',
  'carrierAccount.noWebhook': '只有 Karrio 账号有轨迹 Webhook',
  'carrierAccount.webhookFailed': 'Karrio 未能处理轨迹 Webhook:{{reason}}',
  'carrier.webhookUnsigned': 'Webhook 签名无效:请求未用该承运商账号的 Webhook 密钥签名',
  'carrier.webhookMalformed': 'Webhook 内容无法识别:{{detail}}',
};

export const carrierEnUS: Record<keyof typeof carrierZhCN, string> = {
  'validation.baseUrl': '{{field}} must be an address starting with http:// or https://',
  'carrier.credentials':
    'The carrier refused the credentials: check the client id and secret or the API key, and that they are enabled',
  'carrier.unreachable': 'The carrier could not be reached: check the address and the network',
  'carrier.timeout': 'The carrier did not answer within {{seconds}} s; try again later or allow more time',
  'carrier.refused': 'The carrier refused the request: {{detail}}',
  'carrier.malformed': 'The carrier answered in a form the portal does not understand; tell the operator',
  'carrier.unavailable': 'The carrier is unavailable at the moment; please try again later',
  'carrier.connected': 'Connected: the carrier accepted the credentials',
  'carrier.keyMissing':
    'The server has no key to encrypt carrier credentials with (CARRIER_CREDENTIALS_KEY); they cannot be saved',
  'carrier.credentialsUnreadable':
    "This account's credentials cannot be decrypted (was the key changed?); enter them again",
  'carrierAccount.created': 'Carrier account added',
  'carrierAccount.saved': 'Carrier account saved',
  'carrierAccount.deleted': 'Carrier account deleted',
  'carrierAccount.credentialsKind':
    'The credentials do not match the account: a {{kind}} account needs {{fields}}',
  'carrierAccount.labelTaken': 'A carrier account with this name already exists',
  'carrierAccount.inUse': 'This carrier account serves {{uses}}; give them another account first',
  'carrierAccount.urlPrivate':
    '{{field}} may not point to a private or local address (the platform operator can allow it with CARRIER_ALLOW_PRIVATE)',
  'carrierAccount.noWebhook': 'Only Karrio accounts have a tracking webhook',
  'carrierAccount.webhookFailed': 'Karrio did not handle the tracking webhook: {{reason}}',
  'carrier.webhookUnsigned':
    "Bad webhook signature: the request is not signed with this carrier account's webhook secret",
  'carrier.webhookMalformed': 'The webhook could not be read: {{detail}}',
};
