import { defineMessages } from '../../i18n/define.ts';

export const tenantMessages = defineMessages(
  {
    'tenants.new': '新增租户',
    'tenants.edit': '编辑租户',
    'tenants.code': '租户代码',
    'tenants.codeTip': '小写字母、数字和连字符,创建后不能修改',
    'tenants.name': '租户名称',
    'tenants.nameEn': '英文名称',
    'tenants.nameTip': '也是新站点的初始站点名称,之后由该租户在站点配置中修改',
    'tenants.hosts': '域名',
    'tenants.hostsTip': '输入域名后回车,可填多个;不含端口',
    'tenants.adminEmail': '管理员邮箱',
    'tenants.adminTip': '该邮箱会收到设置密码的链接,设置后即可登录',
    'tenants.platform': '平台',
    'tenants.created': '租户已创建,设置密码的邮件已发送至 {{email}}',
    'tenants.disableConfirm': '停用租户“{{name}}”?该租户的所有域名将显示站点已停用,所有登录会话立即失效。',
    'tenants.enableConfirm': '启用租户“{{name}}”?其域名将恢复访问,用户需要重新登录。',
    'tenants.keywordPlaceholder': '代码、名称或域名',
    'tenants.emptyList':
      '每个租户都是一个独立的站点,有自己的域名、品牌和数据;新增租户后,其管理员会收到设置密码的邮件',
    'tenants.noMatch': '没有符合筛选条件的租户',
  },
  {
    'tenants.new': 'New tenant',
    'tenants.edit': 'Edit tenant',
    'tenants.code': 'Tenant code',
    'tenants.codeTip': 'Lower-case letters, digits and dashes; cannot be changed later',
    'tenants.name': 'Tenant name',
    'tenants.nameEn': 'English name',
    'tenants.nameTip': 'Also the new site’s first site name; the tenant changes it in its site configuration',
    'tenants.hosts': 'Hosts',
    'tenants.hostsTip': 'Type a host name and press Enter; several allowed; no port',
    'tenants.adminEmail': 'Administrator e-mail',
    'tenants.adminTip': 'This address receives a link to set the password, then signs in with it',
    'tenants.platform': 'Platform',
    'tenants.created': 'Tenant created; the set-password mail went to {{email}}',
    'tenants.disableConfirm':
      'Disable the tenant "{{name}}"? Its hosts will say the site is disabled and every session of it ends at once.',
    'tenants.enableConfirm': 'Enable the tenant "{{name}}"? Its hosts answer again; its users sign in anew.',
    'tenants.keywordPlaceholder': 'Code, name or host',
    'tenants.emptyList':
      'Each tenant is a site of its own, with its hosts, branding and data; once one is added, its administrator is mailed a link to set a password',
    'tenants.noMatch': 'No tenant matches these filters',
  },
);
