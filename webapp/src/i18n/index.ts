/**
 * i18next setup: English is bundled, the other 13 locales load on demand. The chosen language is
 * kept in local storage (`coin_web-lang`) and mirrored to `<html lang>`.
 *
 * A language's messages are `./<code>.json` (shell, markets, errors) merged with one file per
 * feature area, `./<area>/<code>.json`, whose only top-level key is the area (`auth`, `account`,
 * `kyc`, `market`, `funds`, `trade`), so feature areas own their texts without touching each
 * other's files.
 * A new area is picked up by the globs below: adding its 14 files is all it takes.
 *
 * @module
 */

import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readStored, writeStored } from '../lib/storage';
import enBase from './en.json';
import { DEFAULT_LANGUAGE, type LanguageCode, toLanguageCode } from './languages';

/** Storage key (under `coin_web-`) of the chosen language. */
export const LANGUAGE_STORAGE_KEY = 'lang';

/** The English messages (the reference every other language must match key for key). */
export const en: Record<string, unknown> = Object.assign(
  { ...enBase },
  ...Object.values(import.meta.glob<Record<string, unknown>>('./*/en.json', { eager: true, import: 'default' })),
);

type Bundle = Record<string, unknown>;
const loaders = import.meta.glob<Bundle>(['./*.json', './*/*.json', '!./en.json', '!./*/en.json'], { import: 'default' });

/** The file paths of one language: its base file and one per feature area. */
function bundlePaths(code: string): string[] {
  return Object.keys(loaders).filter((path) => path === `./${code}.json` || path.endsWith(`/${code}.json`));
}

async function ensureBundle(code: LanguageCode): Promise<void> {
  if (i18n.hasResourceBundle(code, 'translation')) return;
  const paths = bundlePaths(code);
  if (!paths.includes(`./${code}.json`)) throw new Error(`No translations for ${code}`);
  const parts = await Promise.all(paths.map((path) => loaders[path]!()));
  i18n.addResourceBundle(code, 'translation', Object.assign({}, ...parts));
}

/** The language the user chose before, else the default. */
export function initialLanguage(): LanguageCode {
  return toLanguageCode(readStored(LANGUAGE_STORAGE_KEY)) ?? DEFAULT_LANGUAGE;
}

/** Initialises i18next in `language` (loading its bundle first). */
export async function initI18n(language: LanguageCode = initialLanguage()): Promise<typeof i18n> {
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      resources: { en: { translation: en } },
      lng: DEFAULT_LANGUAGE,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: [...new Set([DEFAULT_LANGUAGE, ...Object.keys(loaders).filter((p) => p.split('/').length === 2).map((p) => p.slice(2, -5))])],
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  }
  await setLanguage(language, { persist: false });
  return i18n;
}

/** Switches the interface language, persists it and updates `<html lang>`. */
export async function setLanguage(code: LanguageCode, options: { persist?: boolean } = {}): Promise<void> {
  try {
    await ensureBundle(code);
  } catch (error) {
    console.error(error);
    code = DEFAULT_LANGUAGE;
  }
  await i18n.changeLanguage(code);
  if (options.persist !== false) writeStored(LANGUAGE_STORAGE_KEY, code);
  document.documentElement.lang = code;
}

/** The current language code (what the `lang` / `language` headers carry). */
export function currentLanguage(): LanguageCode {
  return toLanguageCode(i18n.resolvedLanguage ?? i18n.language) ?? DEFAULT_LANGUAGE;
}

export { i18n };
