/**
 * The 14 interface languages, each named in its own language (endonyms are data, not translations).
 *
 * @module
 */

/** Language codes in display order; `en` is the default. */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'ja', name: '日本語' },
  { code: 'ko', name: '한국어' },
  { code: 'zh-CN', name: '简体中文' },
  { code: 'zh-TW', name: '繁體中文' },
  { code: 'pt', name: 'Português' },
  { code: 'vi', name: 'Tiếng Việt' },
  { code: 'th', name: 'ไทย' },
  { code: 'es', name: 'Español' },
  { code: 'fr', name: 'Français' },
  { code: 'ru', name: 'Русский' },
  { code: 'de', name: 'Deutsch' },
  { code: 'it', name: 'Italiano' },
  { code: 'lt', name: 'Lietuvių' },
] as const;

/** One supported language code. */
export type LanguageCode = (typeof LANGUAGES)[number]['code'];

/** The default language. */
export const DEFAULT_LANGUAGE: LanguageCode = 'en';

/** Maps any tag (`de-DE`, `zh_hant`, `EN`) to a supported code, or `null`. */
export function toLanguageCode(tag: string | null | undefined): LanguageCode | null {
  if (!tag) return null;
  const normalized = tag.trim().replace(/_/g, '-').toLowerCase();
  const exact = LANGUAGES.find((l) => l.code.toLowerCase() === normalized);
  if (exact) return exact.code;
  if (normalized.startsWith('zh')) {
    return /hant|tw|hk|mo/.test(normalized) ? 'zh-TW' : 'zh-CN';
  }
  const base = normalized.split('-')[0];
  return LANGUAGES.find((l) => l.code === base)?.code ?? null;
}
