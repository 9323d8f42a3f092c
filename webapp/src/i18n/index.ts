//! i18next setup: English is bundled, the other 13 locales load on demand. The chosen language is
//! kept in local storage (`coin_web-lang`) and mirrored to `<html lang>`.

import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readStored, writeStored } from '../lib/storage';
import en from './en.json';
import { DEFAULT_LANGUAGE, type LanguageCode, toLanguageCode } from './languages';

/** Storage key (under `coin_web-`) of the chosen language. */
export const LANGUAGE_STORAGE_KEY = 'lang';

type Bundle = typeof en;
const loaders = import.meta.glob<Bundle>(['./*.json', '!./en.json'], { import: 'default' });

async function ensureBundle(code: LanguageCode): Promise<void> {
  if (i18n.hasResourceBundle(code, 'translation')) return;
  const load = loaders[`./${code}.json`];
  if (!load) throw new Error(`No translations for ${code}`);
  i18n.addResourceBundle(code, 'translation', await load());
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
      supportedLngs: [...new Set([DEFAULT_LANGUAGE, ...Object.keys(loaders).map((p) => p.slice(2, -5))])],
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
