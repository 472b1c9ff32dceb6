import { z } from 'zod';

export {
  dayField,
  idField,
  instantField,
  isSafeText,
  MAX_ID,
  MAX_INT4,
  queryId,
  queryInt,
  storableText,
  str,
} from './fields.ts';

import type { Language } from './api.ts';
// The base string and number schemas live in their own module, which imports nothing of ours, so a
// module that validation.ts imports may build on them too.
import { str } from './fields.ts';
import { isMessageKey, type MessageKey, translate } from './messages.ts';

/** Field labels used in validation messages; a field without a label is named by its path. */
export const fieldLabels: Record<string, Record<Language, string>> = {
  email: { 'zh-CN': '邮箱', 'en-US': 'E-mail' },
  password: { 'zh-CN': '密码', 'en-US': 'Password' },
  confirmPassword: { 'zh-CN': '确认密码', 'en-US': 'Confirm password' },
  oldPassword: { 'zh-CN': '原密码', 'en-US': 'Current password' },
  code: { 'zh-CN': '验证码', 'en-US': 'Code' },
  // The catalogue pages (truck products, express products and channels) name things by their code.
  'catalogue:code': { 'zh-CN': '代码', 'en-US': 'Code' },
  // The webhooks page: `url` is where deliveries go, not an uploaded file.
  'webhook:url': { 'zh-CN': 'Webhook 地址', 'en-US': 'Webhook URL' },
  'webhook:events': { 'zh-CN': '订阅事件', 'en-US': 'Events' },
  // The express address book: `name` is the person on the label, `kind` what the address is for.
  'expressAddress:name': { 'zh-CN': '姓名', 'en-US': 'Name' },
  'expressAddress:company': { 'zh-CN': '公司', 'en-US': 'Company' },
  'expressAddress:kind': { 'zh-CN': '地址类型', 'en-US': 'Address type' },
  'expressAddress:isDefault': { 'zh-CN': '默认地址', 'en-US': 'Default address' },
  // The carrier accounts page.
  'carrierAccount:kind': { 'zh-CN': '承运商', 'en-US': 'Carrier' },
  'carrierAccount:label': { 'zh-CN': '账号名称', 'en-US': 'Account name' },
  'carrierAccount:accountNumber': { 'zh-CN': 'UPS 账号', 'en-US': 'UPS account number' },
  'carrierAccount:enabled': { 'zh-CN': '启用', 'en-US': 'Enabled' },
  label: { 'zh-CN': '名称', 'en-US': 'Label' },
  environment: { 'zh-CN': '环境', 'en-US': 'Environment' },
  baseUrl: { 'zh-CN': '服务地址', 'en-US': 'Service address' },
  timeoutMs: { 'zh-CN': '超时(毫秒)', 'en-US': 'Timeout (ms)' },
  credentials: { 'zh-CN': '凭证', 'en-US': 'Credentials' },
  clientId: { 'zh-CN': '客户端 ID', 'en-US': 'Client ID' },
  clientSecret: { 'zh-CN': '客户端密钥', 'en-US': 'Client secret' },
  apiKey: { 'zh-CN': 'API 密钥', 'en-US': 'API key' },
  carrierAccountId: { 'zh-CN': '承运商账号', 'en-US': 'Carrier account' },
  format: { 'zh-CN': '格式', 'en-US': 'Format' },
  carrierService: { 'zh-CN': '承运商服务代码', 'en-US': 'Carrier service code' },
  carrierLabelFormat: { 'zh-CN': '面单格式', 'en-US': 'Label format' },
  token: { 'zh-CN': '令牌', 'en-US': 'Token' },
  locale: { 'zh-CN': '语言', 'en-US': 'Language' },
  name: { 'zh-CN': '名称', 'en-US': 'Name' },
  surname: { 'zh-CN': '姓氏', 'en-US': 'Surname' },
  phone: { 'zh-CN': '电话', 'en-US': 'Phone' },
  wechat: { 'zh-CN': '微信', 'en-US': 'WeChat' },
  company: { 'zh-CN': '公司名称', 'en-US': 'Corporate name' },
  address1: { 'zh-CN': '地址 1', 'en-US': 'Address 1' },
  address2: { 'zh-CN': '地址 2', 'en-US': 'Address 2' },
  zipcode: { 'zh-CN': '邮编', 'en-US': 'ZIP code' },
  city: { 'zh-CN': '城市', 'en-US': 'City' },
  state: { 'zh-CN': '州/省', 'en-US': 'State' },
  country: { 'zh-CN': '国家', 'en-US': 'Country' },
  licenseUrl: { 'zh-CN': '营业执照', 'en-US': 'Licence' },
  invitationCode: { 'zh-CN': '邀请码', 'en-US': 'Invitation code' },
  business: { 'zh-CN': '业务类型', 'en-US': 'Business' },
  monthlyVolume: { 'zh-CN': '月均发货量', 'en-US': 'Average monthly volume' },
  goodsTypes: { 'zh-CN': '主要货物类型', 'en-US': 'Main goods types' },
  transportMethods: { 'zh-CN': '常用运输方式', 'en-US': 'Common transport methods' },
  preferredLocations: { 'zh-CN': '常用发货地', 'en-US': 'Preferred shipping locations' },
  siteName: { 'zh-CN': '站点名称', 'en-US': 'Site name' },
  userIds: { 'zh-CN': '账户', 'en-US': 'Accounts' },
  buttonColor: { 'zh-CN': '按钮颜色', 'en-US': 'Button colour' },
  copyright: { 'zh-CN': '版权信息', 'en-US': 'Copyright' },
  filingNumber: { 'zh-CN': '备案号', 'en-US': 'Filing number' },
  filingHosts: { 'zh-CN': '显示备案号的域名', 'en-US': 'Hosts showing the filing number' },
  roleName: { 'zh-CN': '角色名称', 'en-US': 'Role name' },
  roleIds: { 'zh-CN': '角色', 'en-US': 'Roles' },
  page: { 'zh-CN': '页码', 'en-US': 'Page' },
  limit: { 'zh-CN': '每页条数', 'en-US': 'Page size' },
  id: { 'zh-CN': '编号', 'en-US': 'ID' },
  file: { 'zh-CN': '文件', 'en-US': 'File' },
  'address.name': { 'zh-CN': '地址名称', 'en-US': 'Address name' },
  'pickup.name': { 'zh-CN': '地址名称', 'en-US': 'Address name' },
  'delivery.name': { 'zh-CN': '地址名称', 'en-US': 'Address name' },
  contact: { 'zh-CN': '联系人', 'en-US': 'Contact' },
  dialCode: { 'zh-CN': '区号', 'en-US': 'Dial code' },
  windowStart: { 'zh-CN': '提货开始时间', 'en-US': 'Window start' },
  windowEnd: { 'zh-CN': '提货结束时间', 'en-US': 'Window end' },
  addressType: { 'zh-CN': '地址类型', 'en-US': 'Address type' },
  fbaCode: { 'zh-CN': 'FBA 仓库代码', 'en-US': 'FBA code' },
  isDefaultPickup: { 'zh-CN': '默认提货地址', 'en-US': 'Default pickup address' },
  orderNo: { 'zh-CN': '订单号', 'en-US': 'Order number' },
  waybillNo: { 'zh-CN': '运单号', 'en-US': 'Waybill number' },
  amount: { 'zh-CN': '金额', 'en-US': 'Amount' },
  declared: { 'zh-CN': '申报值', 'en-US': 'Declared' },
  actual: { 'zh-CN': '实际值', 'en-US': 'Found' },
  description: { 'zh-CN': '说明', 'en-US': 'Description' },
  proofUrl: { 'zh-CN': '凭证文件', 'en-US': 'Proof file' },
  proofUrls: { 'zh-CN': '凭证文件', 'en-US': 'Proof files' },
  category: { 'zh-CN': '工单类别', 'en-US': 'Category' },
  transactionItem: { 'zh-CN': '交易项目', 'en-US': 'Transaction item' },
  billId: { 'zh-CN': '异常账单', 'en-US': 'Bounce bill' },
  consumptionType: { 'zh-CN': '消费类型', 'en-US': 'Consumption type' },
  resultAmount: { 'zh-CN': '处理金额', 'en-US': 'Amount' },
  remark: { 'zh-CN': '处理说明', 'en-US': 'Remark' },
  reason: { 'zh-CN': '原因', 'en-US': 'Reason' },
  requestKey: { 'zh-CN': '请求编号', 'en-US': 'Request key' },
  body: { 'zh-CN': '内容', 'en-US': 'Message' },
  attachments: { 'zh-CN': '附件', 'en-US': 'Attachments' },
  organisationId: { 'zh-CN': '所属机构', 'en-US': 'Organisation' },
  key: { 'zh-CN': '文件', 'en-US': 'File key' },
  address_id: { 'zh-CN': '发货地址', 'en-US': 'Shipping address' },
  accessorialFees: { 'zh-CN': '附加服务费', 'en-US': 'Accessorial fees' },
  accessorials: { 'zh-CN': '附加服务', 'en-US': 'Accessorials' },
  accountId: { 'zh-CN': '账户', 'en-US': 'Account' },
  accountName: { 'zh-CN': '账户名', 'en-US': 'Account name' },
  accountNameEn: { 'zh-CN': '账户英文名', 'en-US': 'Account name (English)' },
  accountNumber: { 'zh-CN': '账号', 'en-US': 'Account number' },
  action: { 'zh-CN': '操作', 'en-US': 'Action' },
  avatarUrl: { 'zh-CN': '头像', 'en-US': 'Avatar' },
  bankName: { 'zh-CN': '银行名称', 'en-US': 'Bank name' },
  bankNameEn: { 'zh-CN': '银行英文名称', 'en-US': 'Bank name (English)' },
  buttonKeys: { 'zh-CN': '按钮权限', 'en-US': 'Button permissions' },
  carrier: { 'zh-CN': '承运商', 'en-US': 'Carrier' },
  carrierInfo: { 'zh-CN': '承运信息', 'en-US': 'Carrier details' },
  contactEmail: { 'zh-CN': '联系人邮箱', 'en-US': 'Contact e-mail' },
  contactName: { 'zh-CN': '联系人', 'en-US': 'Contact name' },
  contactPhone: { 'zh-CN': '联系电话', 'en-US': 'Contact phone' },
  copyrightEn: { 'zh-CN': '英文版权信息', 'en-US': 'Copyright (English)' },
  creditLimit: { 'zh-CN': '信用额度', 'en-US': 'Credit limit' },
  creditedAmount: { 'zh-CN': '入账金额', 'en-US': 'Credited amount' },
  currency: { 'zh-CN': '币种', 'en-US': 'Currency' },
  customerOrderNo: { 'zh-CN': '客户单号', 'en-US': 'Customer order number' },
  deductible: { 'zh-CN': '免赔额', 'en-US': 'Deductible' },
  defaultCurrency: { 'zh-CN': '默认币种', 'en-US': 'Default currency' },
  defaultInsurance: { 'zh-CN': '默认购买保险', 'en-US': 'Insure by default' },
  defaultLine: { 'zh-CN': '默认业务线', 'en-US': 'Default business line' },
  defaultPickupAddressId: { 'zh-CN': '默认提货地址', 'en-US': 'Default pickup address' },
  delivery: { 'zh-CN': '收货地址', 'en-US': 'Delivery address' },
  pickup: { 'zh-CN': '提货地址', 'en-US': 'Pickup address' },
  saveToBook: { 'zh-CN': '保存到地址簿', 'en-US': 'Save to address book' },
  deliveryDate: { 'zh-CN': '送达日期', 'en-US': 'Delivery date' },
  descriptionEn: { 'zh-CN': '英文说明', 'en-US': 'Description (English)' },
  destination: { 'zh-CN': '目的地', 'en-US': 'Destination' },
  origin: { 'zh-CN': '起运地', 'en-US': 'Origin' },
  enabled: { 'zh-CN': '启用状态', 'en-US': 'Enabled' },
  expiresInDays: { 'zh-CN': '有效天数', 'en-US': 'Valid for (days)' },
  extraNote: { 'zh-CN': '其他备注', 'en-US': 'Other notes' },
  faviconUrl: { 'zh-CN': '网站图标', 'en-US': 'Favicon' },
  fee: { 'zh-CN': '手续费', 'en-US': 'Fee' },
  fileUrl: { 'zh-CN': '发票文件', 'en-US': 'Invoice file' },
  from: { 'zh-CN': '开始日期', 'en-US': 'From' },
  to: { 'zh-CN': '结束日期', 'en-US': 'To' },
  ftl: { 'zh-CN': '整车运价', 'en-US': 'FTL terms' },
  ltl: { 'zh-CN': '零担运价', 'en-US': 'LTL terms' },
  flatRate: { 'zh-CN': '一口价', 'en-US': 'Flat rate' },
  fuelPercent: { 'zh-CN': '燃油附加费率', 'en-US': 'Fuel surcharge %' },
  maxWeight: { 'zh-CN': '最大重量', 'en-US': 'Maximum weight' },
  miles: { 'zh-CN': '里程', 'en-US': 'Miles' },
  minimumCharge: { 'zh-CN': '最低收费', 'en-US': 'Minimum charge' },
  ratePerMile: { 'zh-CN': '每英里运价', 'en-US': 'Rate per mile' },
  fuel: { 'zh-CN': '燃油附加费', 'en-US': 'Fuel surcharge' },
  ids: { 'zh-CN': '所选记录', 'en-US': 'Selected records' },
  insurance: { 'zh-CN': '保险', 'en-US': 'Insurance' },
  included: { 'zh-CN': '购买保险', 'en-US': 'Insured' },
  insuredValue: { 'zh-CN': '保险价值', 'en-US': 'Insured value' },
  insuranceRatePercent: { 'zh-CN': '保险费率', 'en-US': 'Insurance rate %' },
  invoiceNumber: { 'zh-CN': '发票号码', 'en-US': 'Invoice number' },
  isDefault: { 'zh-CN': '默认', 'en-US': 'Default' },
  keyword: { 'zh-CN': '关键字', 'en-US': 'Keyword' },
  kind: { 'zh-CN': '客户类别', 'en-US': 'Customer kind' },
  line: { 'zh-CN': '业务线', 'en-US': 'Business line' },
  linehaul: { 'zh-CN': '干线运费', 'en-US': 'Linehaul' },
  lines: { 'zh-CN': '货物明细', 'en-US': 'Goods lines' },
  dangerous: { 'zh-CN': '危险品信息', 'en-US': 'Dangerous goods' },
  emergencyContact: { 'zh-CN': '紧急联系人', 'en-US': 'Emergency contact' },
  emergencyPhone: { 'zh-CN': '紧急联系电话', 'en-US': 'Emergency phone' },
  hazardClass: { 'zh-CN': '危险品类别', 'en-US': 'Hazard class' },
  quantity: { 'zh-CN': '数量', 'en-US': 'Quantity' },
  toxic: { 'zh-CN': '有毒', 'en-US': 'Toxic' },
  unNumber: { 'zh-CN': 'UN 编号', 'en-US': 'UN number' },
  freightClass: { 'zh-CN': '货物等级', 'en-US': 'Freight class' },
  goodsValue: { 'zh-CN': '货值', 'en-US': 'Goods value' },
  height: { 'zh-CN': '高', 'en-US': 'Height' },
  length: { 'zh-CN': '长', 'en-US': 'Length' },
  width: { 'zh-CN': '宽', 'en-US': 'Width' },
  nmfc: { 'zh-CN': 'NMFC 编码', 'en-US': 'NMFC code' },
  palletCount: { 'zh-CN': '托盘数', 'en-US': 'Pallet count' },
  palletType: { 'zh-CN': '托盘类型', 'en-US': 'Pallet type' },
  sku: { 'zh-CN': 'SKU', 'en-US': 'SKU' },
  stackable: { 'zh-CN': '可堆叠', 'en-US': 'Stackable' },
  totalWeight: { 'zh-CN': '总重量', 'en-US': 'Total weight' },
  unit: { 'zh-CN': '单位', 'en-US': 'Unit' },
  breaks: { 'zh-CN': '重量分段', 'en-US': 'Weight breaks' },
  discountPercent: { 'zh-CN': '折扣率', 'en-US': 'Discount %' },
  rates: { 'zh-CN': '运价', 'en-US': 'Rates' },
  logoCollapsedUrl: { 'zh-CN': '收起时的标志', 'en-US': 'Collapsed logo' },
  logoUrl: { 'zh-CN': '标志', 'en-US': 'Logo' },
  markupFixed: { 'zh-CN': '固定加价', 'en-US': 'Fixed markup' },
  markupPercent: { 'zh-CN': '加价比例', 'en-US': 'Markup %' },
  menuIds: { 'zh-CN': '菜单权限', 'en-US': 'Menu permissions' },
  method: { 'zh-CN': '付款方式', 'en-US': 'Payment method' },
  minimumPremium: { 'zh-CN': '最低保费', 'en-US': 'Minimum premium' },
  mode: { 'zh-CN': '运输方式', 'en-US': 'Mode' },
  nameEn: { 'zh-CN': '英文名称', 'en-US': 'English name' },
  note: { 'zh-CN': '备注', 'en-US': 'Note' },
  orderId: { 'zh-CN': '订单', 'en-US': 'Order' },
  orderType: { 'zh-CN': '订单类型', 'en-US': 'Order type' },
  organisationIds: { 'zh-CN': '适用机构', 'en-US': 'Organisations' },
  param: { 'zh-CN': '登录数据', 'en-US': 'Sign-in data' },
  parentId: { 'zh-CN': '上级机构', 'en-US': 'Parent organisation' },
  pay: { 'zh-CN': '立即支付', 'en-US': 'Pay now' },
  payerCardNumber: { 'zh-CN': '付款卡号', 'en-US': 'Payer card number' },
  payerName: { 'zh-CN': '付款人', 'en-US': 'Payer name' },
  periodFrom: { 'zh-CN': '开票起始日期', 'en-US': 'Period from' },
  periodTo: { 'zh-CN': '开票截止日期', 'en-US': 'Period to' },
  productId: { 'zh-CN': '产品', 'en-US': 'Product' },
  productKey: { 'zh-CN': '产品', 'en-US': 'Product' },
  originZip: { 'zh-CN': '始发邮编', 'en-US': 'Origin ZIP' },
  destinationZip: { 'zh-CN': '目的邮编', 'en-US': 'Destination ZIP' },
  destinationCountry: { 'zh-CN': '目的国家', 'en-US': 'Destination country' },
  levels: { 'zh-CN': '加价设置', 'en-US': 'Markups' },
  hiddenChannelIds: { 'zh-CN': '隐藏的渠道', 'en-US': 'Hidden channels' },
  purpose: { 'zh-CN': '用途', 'en-US': 'Purpose' },
  quoteDate: { 'zh-CN': '报价日期', 'en-US': 'Quote date' },
  quoteId: { 'zh-CN': '报价', 'en-US': 'Quote' },
  receivingAccountId: { 'zh-CN': '收款账户', 'en-US': 'Receiving account' },
  receivingNote: { 'zh-CN': '收货备注', 'en-US': 'Receiving note' },
  reference: { 'zh-CN': '单号', 'en-US': 'Reference' },
  result: { 'zh-CN': '结果', 'en-US': 'Result' },
  roleId: { 'zh-CN': '角色', 'en-US': 'Role' },
  screenshotUrl: { 'zh-CN': '付款截图', 'en-US': 'Payment screenshot' },
  serial: { 'zh-CN': '流水号', 'en-US': 'Serial number' },
  serviceLevel: { 'zh-CN': '服务等级', 'en-US': 'Service level' },
  shippingNote: { 'zh-CN': '发货备注', 'en-US': 'Shipping note' },
  siteNameEn: { 'zh-CN': '英文站点名称', 'en-US': 'Site name (English)' },
  sn: { 'zh-CN': '工单号', 'en-US': 'Work order number' },
  status: { 'zh-CN': '状态', 'en-US': 'Status' },
  taskId: { 'zh-CN': '询价任务', 'en-US': 'Quotation task' },
  taxNumber: { 'zh-CN': '税号', 'en-US': 'Tax number' },
  title: { 'zh-CN': '发票抬头', 'en-US': 'Invoice title' },
  transitDaysMax: { 'zh-CN': '最长时效(天)', 'en-US': 'Transit days (max)' },
  transitDaysMin: { 'zh-CN': '最短时效(天)', 'en-US': 'Transit days (min)' },
  type: { 'zh-CN': '类型', 'en-US': 'Type' },
  url: { 'zh-CN': '文件', 'en-US': 'File' },
  user: { 'zh-CN': '首个登录账号', 'en-US': 'First sign-in account' },
  validDays: { 'zh-CN': '有效天数', 'en-US': 'Valid for (days)' },
  // Express products, channels, zone charts and price tables.
  service: { 'zh-CN': '服务', 'en-US': 'Service' },
  scope: { 'zh-CN': '服务范围', 'en-US': 'Scope' },
  unitSystem: { 'zh-CN': '计量单位', 'en-US': 'Units' },
  dimDivisor: { 'zh-CN': '材积除数', 'en-US': 'Dimensional divisor' },
  maxLength: { 'zh-CN': '最大长度', 'en-US': 'Maximum length' },
  maxLengthGirth: { 'zh-CN': '最大长度加围长', 'en-US': 'Maximum length plus girth' },
  surcharges: { 'zh-CN': '附加费', 'en-US': 'Surcharges' },
  'surcharges.fuelPercent': { 'zh-CN': '燃油附加费率', 'en-US': 'Fuel surcharge %' },
  'surcharges.residential': { 'zh-CN': '住宅地址附加费', 'en-US': 'Residential surcharge' },
  'surcharges.signature': { 'zh-CN': '签名服务费', 'en-US': 'Signature fee' },
  'surcharges.additionalHandling': { 'zh-CN': '额外处理费', 'en-US': 'Additional handling' },
  'surcharges.additionalHandling.fee': { 'zh-CN': '额外处理费金额', 'en-US': 'Additional handling fee' },
  'surcharges.additionalHandling.longest': {
    'zh-CN': '额外处理最长边',
    'en-US': 'Additional handling longest side',
  },
  'surcharges.additionalHandling.secondLongest': {
    'zh-CN': '额外处理次长边',
    'en-US': 'Additional handling second-longest side',
  },
  'surcharges.additionalHandling.weight': { 'zh-CN': '额外处理重量', 'en-US': 'Additional handling weight' },
  'surcharges.largePackage': { 'zh-CN': '大件附加费', 'en-US': 'Large package' },
  'surcharges.largePackage.fee': { 'zh-CN': '大件附加费金额', 'en-US': 'Large package fee' },
  'surcharges.largePackage.longest': { 'zh-CN': '大件最长边', 'en-US': 'Large package longest side' },
  'surcharges.largePackage.lengthGirth': {
    'zh-CN': '大件长度加围长',
    'en-US': 'Large package length plus girth',
  },
  'surcharges.largePackage.minBillable': {
    'zh-CN': '大件最低计费重',
    'en-US': 'Large package minimum billable weight',
  },
  'surcharges.declaredValue': { 'zh-CN': '保价', 'en-US': 'Declared value' },
  'surcharges.declaredValue.free': { 'zh-CN': '免费保价额', 'en-US': 'Declared value free up to' },
  'surcharges.declaredValue.per100': { 'zh-CN': '每 100 保价费', 'en-US': 'Declared value fee per 100' },
  'surcharges.declaredValue.minimum': { 'zh-CN': '最低保价费', 'en-US': 'Declared value minimum fee' },
  channelId: { 'zh-CN': '渠道', 'en-US': 'Channel' },
  originFrom: { 'zh-CN': '起始邮编前三位(起)', 'en-US': 'Origin ZIP3 from' },
  originTo: { 'zh-CN': '起始邮编前三位(止)', 'en-US': 'Origin ZIP3 to' },
  destFrom: { 'zh-CN': '目的邮编前三位(起)', 'en-US': 'Destination ZIP3 from' },
  destTo: { 'zh-CN': '目的邮编前三位(止)', 'en-US': 'Destination ZIP3 to' },
  zone: { 'zh-CN': '分区', 'en-US': 'Zone' },
  zones: { 'zh-CN': '分区', 'en-US': 'Zones' },
  brackets: { 'zh-CN': '重量段', 'en-US': 'Weight brackets' },
  'brackets.weight': { 'zh-CN': '重量上限', 'en-US': 'Weight up to' },
  'brackets.prices': { 'zh-CN': '重量段价格', 'en-US': 'Bracket prices' },
  additional: { 'zh-CN': '续重', 'en-US': 'Additional' },
  'additional.unit': { 'zh-CN': '续重单位', 'en-US': 'Additional unit' },
  'additional.prices': { 'zh-CN': '续重价格', 'en-US': 'Additional prices' },
  'cubic.prices': { 'zh-CN': '立方档价格', 'en-US': 'Cubic tier prices' },
  minimums: { 'zh-CN': '最低收费', 'en-US': 'Minimums' },
  zips: { 'zh-CN': '邮编', 'en-US': 'ZIP codes' },
  // Express quotes and waybills.
  sender: { 'zh-CN': '发件人', 'en-US': 'Sender' },
  recipient: { 'zh-CN': '收件人', 'en-US': 'Recipient' },
  residential: { 'zh-CN': '住宅地址', 'en-US': 'Residential address' },
  parcels: { 'zh-CN': '包裹', 'en-US': 'Parcels' },
  parcel: { 'zh-CN': '包裹', 'en-US': 'Parcel' },
  weight: { 'zh-CN': '重量', 'en-US': 'Weight' },
  declaredValue: { 'zh-CN': '申报价值', 'en-US': 'Declared value' },
  signature: { 'zh-CN': '签名服务', 'en-US': 'Signature' },
  // Customs of an international parcel.
  customs: { 'zh-CN': '报关信息', 'en-US': 'Customs' },
  'customs.contentsType': { 'zh-CN': '内容类型', 'en-US': 'Type of contents' },
  'customs.items': { 'zh-CN': '报关物品', 'en-US': 'Customs items' },
  'customs.items.description': { 'zh-CN': '物品描述', 'en-US': 'Item description' },
  'customs.items.quantity': { 'zh-CN': '物品数量', 'en-US': 'Item quantity' },
  'customs.items.weight': { 'zh-CN': '单件重量', 'en-US': 'Unit weight' },
  hsCode: { 'zh-CN': 'HS 编码', 'en-US': 'HS code' },
  originCountry: { 'zh-CN': '原产国', 'en-US': 'Country of origin' },
  unitValue: { 'zh-CN': '单价', 'en-US': 'Unit value' },
  incoterm: { 'zh-CN': '贸易条款', 'en-US': 'Incoterm' },
  senderTaxId: { 'zh-CN': '寄件人税号', 'en-US': "Sender's tax id" },
  receiverTaxId: { 'zh-CN': '收件人税号', 'en-US': "Receiver's tax id" },
  waybillId: { 'zh-CN': '运单', 'en-US': 'Waybill' },
  at: { 'zh-CN': '时间', 'en-US': 'Time' },
  location: { 'zh-CN': '地点', 'en-US': 'Location' },
  returnAddressId: { 'zh-CN': '退货地址', 'en-US': 'Return address' },
  scopes: { 'zh-CN': '允许的接口', 'en-US': 'Allowed calls' },
  // Webhooks: what an endpoint hears, and whose deliveries a list shows.
  events: { 'zh-CN': '订阅事件', 'en-US': 'Events' },
  endpointId: { 'zh-CN': 'Webhook 地址', 'en-US': 'Webhook endpoint' },
  // Data reports.
  period: { 'zh-CN': '统计周期', 'en-US': 'Period' },
  dimension: { 'zh-CN': '分组方式', 'en-US': 'Group by' },
  // Tenants (scope `tenant`), ads and feature updates (scope `changelog`).
  'tenant:code': { 'zh-CN': '租户代码', 'en-US': 'Tenant code' },
  'tenant:name': { 'zh-CN': '租户名称', 'en-US': 'Tenant name' },
  'tenant:nameEn': { 'zh-CN': '英文名称', 'en-US': 'English name' },
  hosts: { 'zh-CN': '域名', 'en-US': 'Hosts' },
  adminEmail: { 'zh-CN': '管理员邮箱', 'en-US': 'Administrator e-mail' },
  ads: { 'zh-CN': '广告', 'en-US': 'Ads' },
  'ads.title': { 'zh-CN': '广告标题', 'en-US': 'Ad title' },
  'ads.url': { 'zh-CN': '广告链接', 'en-US': 'Ad link' },
  'changelog:title': { 'zh-CN': '标题', 'en-US': 'Title' },
  'changelog:body': { 'zh-CN': '内容', 'en-US': 'Content' },
  publishedAt: { 'zh-CN': '发布时间', 'en-US': 'Published at' },
  // Notices and announcements (`notice` scope: the announcement editor's wording).
  content: { 'zh-CN': '内容', 'en-US': 'Content' },
  read: { 'zh-CN': '阅读状态', 'en-US': 'Read' },
  popTheme: { 'zh-CN': '弹窗样式', 'en-US': 'Pop-up style' },
  audience: { 'zh-CN': '接收范围', 'en-US': 'Audience' },
  identities: { 'zh-CN': '接收身份', 'en-US': 'Identities' },
  includeSubtree: { 'zh-CN': '含下级机构', 'en-US': 'Including sub-organisations' },
  startsAt: { 'zh-CN': '开始时间', 'en-US': 'Starts at' },
  endsAt: { 'zh-CN': '结束时间', 'en-US': 'Ends at' },
  // A channel's rating rules (/channelPrice).
  dimRounding: { 'zh-CN': '尺寸取整', 'en-US': 'Side rounding' },
  dimThreshold: { 'zh-CN': '体积重起算体积', 'en-US': 'Dimensional weight above' },
  underOneUnit: { 'zh-CN': '不足一磅的计费', 'en-US': 'Under one unit' },
  step: { 'zh-CN': '进位', 'en-US': 'Step' },
  beyondLastWeight: { 'zh-CN': '超出最大重量段', 'en-US': 'Past the last weight' },
  cubic: { 'zh-CN': '立方计价', 'en-US': 'Cubic tiers' },
  roundDown: { 'zh-CN': '尺寸舍去到', 'en-US': 'Sides rounded down to' },
  maxLongest: { 'zh-CN': '最长边上限', 'en-US': 'Longest side up to' },
  tier: { 'zh-CN': '立方档', 'en-US': 'Cubic tier' },
  surchargeRules: { 'zh-CN': '附加费规则', 'en-US': 'Surcharge rules' },
  trigger: { 'zh-CN': '触发条件', 'en-US': 'Trigger' },
  over: { 'zh-CN': '超过', 'en-US': 'Over' },
  values: { 'zh-CN': '取值', 'en-US': 'Values' },
  feeByZone: { 'zh-CN': '分区费用', 'en-US': 'Fee by zone' },
  group: { 'zh-CN': '互斥组', 'en-US': 'Group' },
  replaces: { 'zh-CN': '取代的组', 'en-US': 'Replaces groups' },
  minBillable: { 'zh-CN': '最低计费重', 'en-US': 'Minimum billable weight' },
  percent: { 'zh-CN': '百分比', 'en-US': 'Percentage' },
  effectiveFrom: { 'zh-CN': '生效日期', 'en-US': 'Effective from' },
  packaging: { 'zh-CN': '包装', 'en-US': 'Packaging' },
  shipDate: { 'zh-CN': '发货日期', 'en-US': 'Ship date' },
  'notice:title': { 'zh-CN': '标题', 'en-US': 'Title' },
  'notice:type': { 'zh-CN': '弹出方式', 'en-US': 'Pop-up type' },
  'notice:organisationId': { 'zh-CN': '接收机构', 'en-US': 'Organisation' },
};

/**
 * The field named when the whole body is wrong (not an object, not JSON). Its messages say what is
 * wrong with the body itself, so they never borrow the label of a field called `body`.
 */
export const BODY_FIELD = 'body';
const bodyLabel: Record<Language, string> = { 'zh-CN': '请求内容', 'en-US': 'Request body' };

/**
 * The label of a field path (`pickup.zipcode`, `lines.0.weight`): the full path, else the path without
 * list positions, else its last name. Never empty: an unlabelled field is named by its path.
 */
export function fieldLabel(path: string, language: Language, scope?: string): string {
  if (path === '') return bodyLabel[language];
  const named = path
    .split('.')
    .filter((part) => !/^\d+$/.test(part))
    .join('.');
  const last = named.split('.').pop() ?? named;
  // A route may word a field its own way (`code` is a product's code on the catalogue pages, not the
  // sign-in code): its scope's labels are looked up first.
  const keys = scope
    ? [`${scope}:${path}`, `${scope}:${named}`, `${scope}:${last}`, path, named, last]
    : [path, named, last];
  for (const key of keys) {
    const label = fieldLabels[key]?.[language];
    if (label) return label;
  }
  return path;
}

/**
 * A field's message in the caller's language, always naming the field: messages written with
 * `{{field}}` name it themselves; any other is prefixed with the field's label.
 */
export function fieldMessage(
  field: string,
  key: MessageKey,
  language: Language,
  params: Record<string, string | number> = {},
  scope?: string,
): string {
  const label = fieldLabel(field, language, scope);
  const text = translate(language, key, { field: label, ...params });
  if (text.toLowerCase().includes(label.toLowerCase())) return text;
  return language === 'zh-CN' ? `${label}:${text}` : `${label}: ${text}`;
}

export interface FieldError {
  field: string;
  message: string;
}

/** Turns zod issues into one translated message per field, for a 400 answer or a form. */
export function localizeIssues(
  issues: readonly z.core.$ZodIssue[],
  language: Language,
  scope?: string,
): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const issue of flattenUnions(issues)) {
    if (issue.path.length === 0) {
      // The body as a whole: not an object where one is expected.
      if (seen.has(BODY_FIELD)) continue;
      seen.add(BODY_FIELD);
      out.push({ field: BODY_FIELD, message: translate(language, 'validation.bodyNotObject') });
      continue;
    }
    const field = issue.path.map(String).join('.');
    if (seen.has(field)) continue;
    seen.add(field);
    out.push({ field, message: localizeIssue(issue, field, language, scope) });
  }
  return out;
}

/**
 * A value matching none of a union's shapes is reported against the shape it came closest to (the
 * fewest issues), so the caller hears which fields to fix rather than "not valid".
 */
function flattenUnions(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  const out: z.core.$ZodIssue[] = [];
  for (const issue of issues) {
    if (issue.code !== 'invalid_union' || !Array.isArray(issue.errors) || issue.errors.length === 0) {
      out.push(issue);
      continue;
    }
    const closest = issue.errors.reduce((best, branch) => (branch.length < best.length ? branch : best));
    if (closest.length === 0) {
      out.push(issue);
      continue;
    }
    for (const inner of flattenUnions(closest))
      out.push({ ...inner, path: [...issue.path, ...inner.path] } as z.core.$ZodIssue);
  }
  return out;
}

function localizeIssue(issue: z.core.$ZodIssue, field: string, language: Language, scope?: string): string {
  const t = (key: MessageKey, extra: Record<string, string | number> = {}) =>
    fieldMessage(field, key, language, extra, scope);
  if (isMessageKey(issue.message)) return t(issue.message);
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined || issue.input === null
        ? t('validation.required')
        : t('validation.invalid');
    case 'too_small':
      if (issue.origin === 'string')
        return Number(issue.minimum) <= 1
          ? t('validation.required')
          : t('validation.minLength', { min: Number(issue.minimum) });
      if (issue.origin === 'array' && Number(issue.minimum) <= 1) return t('validation.required');
      return t('validation.min', { min: Number(issue.minimum) });
    case 'too_big':
      if (issue.origin === 'string') return t('validation.maxLength', { max: Number(issue.maximum) });
      return t('validation.max', { max: Number(issue.maximum) });
    case 'invalid_format':
      return issue.format === 'email' ? t('validation.email') : t('validation.invalid');
    default:
      return t('validation.invalid');
  }
}

/* Reusable field rules of SPEC section 5. */
export const emailField = str()
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'validation.email' }).max(254));
export const passwordField = str().min(6, { error: 'validation.passwordMin' }).max(128);
/** The browser sends a SHA-256 hex digest of the password (SPEC section 3: "sent hashed"). */
export const hashedPasswordField = str().regex(/^[a-f0-9]{64}$/, { error: 'validation.invalid' });
export const codeField = str().regex(/^\d{6}$/, { error: 'validation.code' });
// Phone numbers: see phone.ts, kept apart so the numbering plans load only with the forms that take one.
export const zipField = str().regex(/^\d{5}$/, { error: 'validation.zip' });
export const englishField = str()
  .max(500)
  .regex(/^[A-Za-z0-9 .,#&'()\-/]*$/, { error: 'validation.englishOnly' });
export const linkField = str()
  .max(500)
  .regex(/^(https?:|mailto:|tel:)/i, { error: 'validation.url' });
export const colorField = str().regex(/^#[0-9a-fA-F]{6}$/, { error: 'validation.color' });
export const moneyField = str().regex(/^\d{1,13}(\.\d{1,2})?$/, { error: 'validation.money' });
