import { z } from 'zod';
import type { Language } from './api.ts';
import { isMessageKey, type MessageKey, translate } from './messages.ts';
import { isValidPhoneWithoutDialCode } from './phone.ts';

/** Field labels used in validation messages; a field without a label is named by its path. */
export const fieldLabels: Record<string, Record<Language, string>> = {
  email: { 'zh-CN': '邮箱', 'en-US': 'E-mail' },
  password: { 'zh-CN': '密码', 'en-US': 'Password' },
  confirmPassword: { 'zh-CN': '确认密码', 'en-US': 'Confirm password' },
  oldPassword: { 'zh-CN': '原密码', 'en-US': 'Current password' },
  code: { 'zh-CN': '验证码', 'en-US': 'Code' },
  token: { 'zh-CN': '令牌', 'en-US': 'Token' },
  locale: { 'zh-CN': '语言', 'en-US': 'Language' },
  name: { 'zh-CN': '名字', 'en-US': 'First name' },
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
  body: { 'zh-CN': '内容', 'en-US': 'Message' },
  attachments: { 'zh-CN': '附件', 'en-US': 'Attachments' },
  organisationId: { 'zh-CN': '所属机构', 'en-US': 'Organisation' },
};

export function fieldLabel(path: string, language: Language): string {
  const last = path.split('.').pop() ?? path;
  return fieldLabels[path]?.[language] ?? fieldLabels[last]?.[language] ?? path;
}

export interface FieldError {
  field: string;
  message: string;
}

/** Turns zod issues into one translated message per field, for a 400 answer or a form. */
export function localizeIssues(issues: readonly z.core.$ZodIssue[], language: Language): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const issue of issues) {
    const field = issue.path.map(String).join('.') || 'body';
    if (seen.has(field)) continue;
    seen.add(field);
    out.push({ field, message: localizeIssue(issue, field, language) });
  }
  return out;
}

function localizeIssue(issue: z.core.$ZodIssue, field: string, language: Language): string {
  const label = fieldLabel(field, language);
  const t = (key: MessageKey, extra: Record<string, string | number> = {}) =>
    translate(language, key, { field: label, ...extra });
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
export const emailField = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'validation.email' }).max(254));
export const passwordField = z.string().min(6, { error: 'validation.passwordMin' }).max(128);
/** The browser sends a SHA-256 hex digest of the password (SPEC section 3: "sent hashed"). */
export const hashedPasswordField = z.string().regex(/^[a-f0-9]{64}$/, { error: 'validation.invalid' });
export const codeField = z.string().regex(/^\d{6}$/, { error: 'validation.code' });
/** A phone number with no dial code chosen beside it (profile, staff); registration checks by dial code. */
export const phoneField = z
  .string()
  .trim()
  .max(30)
  .refine(isValidPhoneWithoutDialCode, { error: 'validation.phoneInternational' });
export const zipField = z.string().regex(/^\d{5}$/, { error: 'validation.zip' });
export const englishField = z
  .string()
  .regex(/^[A-Za-z0-9 .,#&'()\-/]*$/, { error: 'validation.englishOnly' });
export const linkField = z.string().regex(/^(https?:|mailto:|tel:)/i, { error: 'validation.url' });
export const colorField = z.string().regex(/^#[0-9a-fA-F]{6}$/, { error: 'validation.color' });
export const moneyField = z.string().regex(/^\d{1,13}(\.\d{1,2})?$/, { error: 'validation.money' });
