/**
 * Server and form messages of the express line, in both languages; `messages.ts` merges them into
 * the one catalogue. Kept apart so the express modules add theirs without crowding the rest.
 */
export const expressZhCN = {
  'express.transitOrder': '最长时效不能小于最短时效',
  'express.girthUnderLength': '最大长度加围长不能小于最大长度',
  'express.zip3': '请填写三位邮编(如 900)',
  'express.country': '国家须为两位国家代码(如 CA)',
  'express.zoneName': '分区只能包含字母、数字、下划线和横线',
  'express.rangeOrder': '区间的结束不能小于开始',
  'express.zoneDestination': '目的地须填写三位邮编区间(国内)或国家代码(国际),二者只填其一',
  'express.zoneTwice': '分区不能重复',
  'express.pricePerZone': '每行价格个数须与分区个数一致',
  'express.bracketOrder': '重量段须从小到大排列且不重复',
  'expressQuote.notPriced': '报价尚未计算价格,请先获取报价',
  'expressQuote.channelNotQuoted': '该渠道不在本次报价结果中',
  'expressQuote.refusal.overweight': '包裹超过该渠道的重量上限',
  'expressQuote.refusal.oversize': '包裹超过该渠道的尺寸上限',
  'expressQuote.refusal.no_zone': '该渠道不覆盖此起止地',
  'expressQuote.refusal.no_price': '该渠道没有此分区和重量的价格',
  'expressQuote.refusal.wrong_scope': '该渠道不服务此目的国家',
  'expressQuote.refusal.no_carrier': '该渠道的承运接口暂不可用',
  'express.addressUnknownZip': '找不到该邮编,请检查',
  'express.addressStateMismatch': '邮编 {{zipcode}} 属于 {{state}} 州,与所填州不符',
  'express.addressCityMismatch': '邮编 {{zipcode}} 对应的城市是 {{city}},与所填城市不符',
} as const;

export const expressEnUS: Record<keyof typeof expressZhCN, string> = {
  'express.transitOrder': 'The longest transit time cannot be shorter than the shortest',
  'express.girthUnderLength': 'The largest length plus girth cannot be less than the largest length',
  'express.zip3': 'Enter a three-digit ZIP prefix such as 900',
  'express.country': 'Use a two-letter country code such as CA',
  'express.zoneName': 'A zone may hold letters, digits, underscores and dashes only',
  'express.rangeOrder': 'The end of a range cannot come before its start',
  'express.zoneDestination':
    'Give the destination either as a ZIP3 range (domestic) or as a country code (international), not both',
  'express.zoneTwice': 'A zone appears twice',
  'express.pricePerZone': 'Each row needs one price per zone',
  'express.bracketOrder': 'Weight brackets must rise and not repeat',
  'expressQuote.notPriced': 'The quote has no prices yet; get the rates first',
  'expressQuote.channelNotQuoted': 'This channel is not among the quote’s results',
  'expressQuote.refusal.overweight': 'A parcel is heavier than this channel takes',
  'expressQuote.refusal.oversize': 'A parcel is larger than this channel takes',
  'expressQuote.refusal.no_zone': 'This channel does not serve this origin and destination',
  'expressQuote.refusal.no_price': 'This channel has no price for this zone and weight',
  'expressQuote.refusal.wrong_scope': 'This channel does not serve this destination country',
  'expressQuote.refusal.no_carrier': 'This channel’s carrier connection is not available',
  'express.addressUnknownZip': 'This ZIP code is not known; please check it',
  'express.addressStateMismatch': 'ZIP code {{zipcode}} is in {{state}}, not the state given',
  'express.addressCityMismatch': 'ZIP code {{zipcode}} is for {{city}}, not the city given',
};
