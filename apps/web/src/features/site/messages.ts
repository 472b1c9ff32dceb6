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
    'site.ads': '顶部广告',
    'site.adsTip': '顶栏下方的广告条每 3 秒轮换一条,点击在新窗口打开链接;没有广告时不显示广告条',
    'site.adsExternal': '已配置外部广告服务(AD_SERVICE_URL),广告条显示其广告;这里的广告在取消该配置后显示',
    'site.adTitle': '广告标题',
    'site.adUrl': '链接(http:// 或 https://)',
    'site.adAdd': '添加广告',
    'site.adUrlInvalid': '链接须以 http:// 或 https:// 开头',
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
    'site.ads': 'Top ads',
    'site.adsTip':
      'The strip under the top bar shows one ad every 3 seconds; a click opens its link in a new tab. Without ads the strip is hidden.',
    'site.adsExternal':
      'An external ad service (AD_SERVICE_URL) is configured: the strip shows its ads; these show once it is removed.',
    'site.adTitle': 'Ad title',
    'site.adUrl': 'Link (http:// or https://)',
    'site.adAdd': 'Add an ad',
    'site.adUrlInvalid': 'The link must start with http:// or https://',
  },
);
