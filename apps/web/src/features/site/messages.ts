import { defineMessages } from '../../i18n/define.ts';

export const siteMessages = defineMessages(
  {
    'site.branding': '站点品牌',
    'site.batchOrder': '批量下单按钮',
    'site.batchOrderHidden': '不显示批量下单按钮的账户',
    'site.batchOrderTip': '这些账户的顶栏不显示卡车和快递批量下单按钮;其余账户照常显示',
    'site.searchAccount': '输入邮箱、姓名或公司搜索账户',
    'site.siteNameEn': '英文站点名称',
    'site.copyrightEn': '英文版权信息',
    'site.englishTip': '英文界面显示;留空则显示中文内容',
  },
  {
    'site.branding': 'Branding',
    'site.batchOrder': 'Batch-order buttons',
    'site.batchOrderHidden': 'Accounts without batch-order buttons',
    'site.batchOrderTip':
      'These accounts do not see the truck and express batch-order buttons in the top bar; every other account does',
    'site.searchAccount': 'Search accounts by e-mail, name or company',
    'site.siteNameEn': 'Site name in English',
    'site.copyrightEn': 'Copyright in English',
    'site.englishTip': 'Shown on the English interface; left empty, the Chinese text shows there too',
  },
);
