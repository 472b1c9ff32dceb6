import { messages } from '@freight/contracts/messages';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { STORAGE } from '../lib/storage.ts';
import { enUS } from './en-US.ts';
import { zhCN } from './zh-CN.ts';

export type UiLanguage = 'zh-CN' | 'en-US';

/**
 * The stored choice; written as JSON by the app, but a bare `en-US` (set by hand or a script) counts too.
 * Until the user chooses, the browser's: the first of its languages that is Chinese or English decides,
 * and Chinese when it names neither.
 */
export function storedLanguage(): UiLanguage {
  const raw = localStorage.getItem(STORAGE.language);
  if (raw === 'en-US' || raw === '"en-US"') return 'en-US';
  if (raw === 'zh-CN' || raw === '"zh-CN"') return 'zh-CN';
  const preferred = (navigator.languages ?? [navigator.language]).find((tag) => /^(zh|en)\b/i.test(tag));
  return preferred?.toLowerCase().startsWith('en') ? 'en-US' : 'zh-CN';
}

// Flat keys with dots in them ('error.network'), shared with the server's catalogue. The features'
// own strings come with the signed-in shell (loadFeatureMessages), so the public pages never carry them.
void i18n.use(initReactI18next).init({
  resources: {
    'zh-CN': { translation: Object.assign({}, messages['zh-CN'], zhCN) },
    'en-US': { translation: Object.assign({}, messages['en-US'], enUS) },
  },
  lng: storedLanguage(),
  fallbackLng: 'zh-CN',
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
});

let featureMessages: Promise<void> | undefined;

/** Loads every feature's strings (i18n/features.ts) into both languages, once; the shell waits for it. */
export function loadFeatureMessages(): Promise<void> {
  if (featureMessages) return featureMessages;
  featureMessages = import('./features.ts').then(({ FEATURE_MESSAGES }) => {
    for (const language of ['zh-CN', 'en-US'] as const)
      i18n.addResourceBundle(
        language,
        'translation',
        Object.assign({}, ...FEATURE_MESSAGES.map((m) => m[language])),
        true,
        true,
      );
  });
  // A failed download is tried again the next time the shell asks.
  featureMessages.catch(() => {
    featureMessages = undefined;
  });
  return featureMessages;
}

export default i18n;
