import { messages } from '@freight/contracts/messages';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE } from '../lib/storage.ts';
import { enUS } from './en-US.ts';
import { FEATURE_MESSAGES } from './features.ts';
import { zhCN } from './zh-CN.ts';

export type UiLanguage = 'zh-CN' | 'en-US';

/** The stored choice; written as JSON by the app, but a bare `en-US` (set by hand or a script) counts too. */
export function storedLanguage(): UiLanguage {
  const raw = localStorage.getItem(STORAGE.language);
  return raw === 'en-US' || raw === '"en-US"' ? 'en-US' : 'zh-CN';
}

// Flat keys with dots in them ('error.network'), shared with the server's catalogue.
void i18n.use(initReactI18next).init({
  resources: {
    'zh-CN': {
      translation: Object.assign({}, messages['zh-CN'], zhCN, ...FEATURE_MESSAGES.map((m) => m['zh-CN'])),
    },
    'en-US': {
      translation: Object.assign({}, messages['en-US'], enUS, ...FEATURE_MESSAGES.map((m) => m['en-US'])),
    },
  },
  lng: storedLanguage(),
  fallbackLng: 'zh-CN',
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
});

export default i18n;
