/** Country list for addresses and phone dial codes (SPEC section 3 "Country list entry"). */
export interface Country {
  /** ISO 3166-1 alpha-2. */
  short: string;
  name: string;
  en: string;
  tel: string;
}

export const COUNTRIES: readonly Country[] = [
  { short: 'US', name: '美国', en: 'United States', tel: '1' },
  { short: 'CA', name: '加拿大', en: 'Canada', tel: '1' },
  { short: 'MX', name: '墨西哥', en: 'Mexico', tel: '52' },
  { short: 'CN', name: '中国', en: 'China', tel: '86' },
  { short: 'HK', name: '中国香港', en: 'Hong Kong, China', tel: '852' },
  { short: 'TW', name: '中国台湾', en: 'Taiwan, China', tel: '886' },
  { short: 'JP', name: '日本', en: 'Japan', tel: '81' },
  { short: 'KR', name: '韩国', en: 'South Korea', tel: '82' },
  { short: 'SG', name: '新加坡', en: 'Singapore', tel: '65' },
  { short: 'MY', name: '马来西亚', en: 'Malaysia', tel: '60' },
  { short: 'TH', name: '泰国', en: 'Thailand', tel: '66' },
  { short: 'VN', name: '越南', en: 'Vietnam', tel: '84' },
  { short: 'PH', name: '菲律宾', en: 'Philippines', tel: '63' },
  { short: 'ID', name: '印度尼西亚', en: 'Indonesia', tel: '62' },
  { short: 'IN', name: '印度', en: 'India', tel: '91' },
  { short: 'AU', name: '澳大利亚', en: 'Australia', tel: '61' },
  { short: 'NZ', name: '新西兰', en: 'New Zealand', tel: '64' },
  { short: 'GB', name: '英国', en: 'United Kingdom', tel: '44' },
  { short: 'DE', name: '德国', en: 'Germany', tel: '49' },
  { short: 'FR', name: '法国', en: 'France', tel: '33' },
  { short: 'IT', name: '意大利', en: 'Italy', tel: '39' },
  { short: 'ES', name: '西班牙', en: 'Spain', tel: '34' },
  { short: 'NL', name: '荷兰', en: 'Netherlands', tel: '31' },
  { short: 'BE', name: '比利时', en: 'Belgium', tel: '32' },
  { short: 'PL', name: '波兰', en: 'Poland', tel: '48' },
  { short: 'SE', name: '瑞典', en: 'Sweden', tel: '46' },
  { short: 'CH', name: '瑞士', en: 'Switzerland', tel: '41' },
  { short: 'IE', name: '爱尔兰', en: 'Ireland', tel: '353' },
  { short: 'PT', name: '葡萄牙', en: 'Portugal', tel: '351' },
  { short: 'TR', name: '土耳其', en: 'Turkey', tel: '90' },
  { short: 'AE', name: '阿联酋', en: 'United Arab Emirates', tel: '971' },
  { short: 'SA', name: '沙特阿拉伯', en: 'Saudi Arabia', tel: '966' },
  { short: 'IL', name: '以色列', en: 'Israel', tel: '972' },
  { short: 'ZA', name: '南非', en: 'South Africa', tel: '27' },
  { short: 'EG', name: '埃及', en: 'Egypt', tel: '20' },
  { short: 'BR', name: '巴西', en: 'Brazil', tel: '55' },
  { short: 'AR', name: '阿根廷', en: 'Argentina', tel: '54' },
  { short: 'CL', name: '智利', en: 'Chile', tel: '56' },
  { short: 'CO', name: '哥伦比亚', en: 'Colombia', tel: '57' },
  { short: 'PE', name: '秘鲁', en: 'Peru', tel: '51' },
  { short: 'RU', name: '俄罗斯', en: 'Russia', tel: '7' },
  { short: '', name: '其他', en: 'Other', tel: '' },
];

/** SPEC section 9: the default dial code. */
export const DEFAULT_DIAL_CODE = '1';
