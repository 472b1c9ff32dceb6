/**
 * A feature's own strings in both languages. The English table must carry exactly the Chinese
 * table's keys, so the typecheck catches a string left untranslated.
 */
export function defineMessages<const Z extends Record<string, string>>(
  zh: Z,
  en: Record<keyof Z, string>,
): { 'zh-CN': Record<string, string>; 'en-US': Record<string, string> } {
  return { 'zh-CN': zh, 'en-US': en };
}
