/**
 * i18next setup. The chosen language is kept in local storage (`coin_web-lang`) and mirrored to
 * `<html lang>`.
 *
 * A language's messages are `./<code>.json` (shell, markets, errors: what every page needs) merged
 * with one file per feature area, `./<area>/<code>.json`, whose only top-level key is the area
 * (`auth`, `account`, `kyc`, `market`, `funds`, `trade`, …), so feature areas own their texts
 * without touching each other's files.
 *
 * Only English's base file is part of the page's first download. Every other file loads on demand:
 * a language's base file when it is chosen, an area's file when a screen needing it is about to
 * render ({@link loadAreas}, awaited by the screen's loader in `src/app/lazy-screen.ts`, so a
 * screen's first render never shows raw keys), in the current language, and again in any language
 * chosen later. A new area is picked up by the globs below once it is listed in `./areas.ts`. The
 * loaders of the other languages' area files are a chunk of their own (`./area-loaders.ts`),
 * fetched with the first non-English language.
 *
 * @module
 */

import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readStored, writeStored } from '../lib/storage';
import type { Area } from './areas';
import enBase from './en.json';
import { DEFAULT_LANGUAGE, type LanguageCode, toLanguageCode } from './languages';

/** Storage key (under `coin_web-`) of the chosen language. */
export const LANGUAGE_STORAGE_KEY = 'lang';

type Bundle = Record<string, unknown>;
const baseLoaders = import.meta.glob<Bundle>(['./*.json', '!./en.json'], { import: 'default' });
type Loader = () => Promise<Bundle>;
const englishAreaLoaders = import.meta.glob<Bundle>('./*/en.json', { import: 'default' });
/** The other languages' area loaders (`./area-loaders.ts`), fetched once one of them is needed. */
let otherAreaLoaders: Promise<Record<string, Loader>> | undefined;

/** The loader of `area`'s texts in `code`, if there is one. */
async function areaLoader(code: LanguageCode, area: Area): Promise<Loader | undefined> {
  if (code === DEFAULT_LANGUAGE) return englishAreaLoaders[`./${area}/en.json`];
  otherAreaLoaders ??= import('./area-loaders').then(
    (module) => module.otherAreaLoaders,
    (error: unknown) => {
      otherAreaLoaders = undefined;
      throw error;
    },
  );
  return (await otherAreaLoaders)[`./${area}/${code}.json`];
}

/** The areas some screen asked for: loaded in every language the interface switches to. */
const wanted = new Set<Area>();
/** `code/area` → its load in flight, so each file is fetched once. */
const areaLoads = new Map<string, Promise<void>>();

/** Settles once i18next is initialised: texts fetched before (the first screen's) wait for it. */
let markInitialised: () => void = () => {};
const initialised = new Promise<void>((resolve) => (markInitialised = resolve));

/** Languages whose base file is loaded (English is bundled). */
const bases = new Set<LanguageCode>([DEFAULT_LANGUAGE]);

async function ensureBase(code: LanguageCode): Promise<void> {
  if (bases.has(code)) return;
  const load = baseLoaders[`./${code}.json`];
  if (!load) throw new Error(`No translations for ${code}`);
  i18n.addResourceBundle(code, 'translation', await load(), true, true);
  bases.add(code);
}

function ensureArea(code: LanguageCode, area: Area): Promise<void> {
  if (i18n.isInitialized && i18n.getResource(code, 'translation', area) !== undefined) return Promise.resolve();
  const id = `${code}/${area}`;
  let pending = areaLoads.get(id);
  if (!pending) {
    // Settled either way, the entry goes: loaded texts are in i18next, and after a failure the next
    // screen load (a retry of its boundary) fetches the file again.
    pending = areaLoader(code, area)
      .then((load) => {
        if (!load) throw new Error(`No ${area} translations for ${code}`);
        return Promise.all([load(), initialised]);
      })
      .then(([messages]) => {
        i18n.addResourceBundle(code, 'translation', messages, true, true);
      })
      .finally(() => areaLoads.delete(id));
    areaLoads.set(id, pending);
  }
  return pending;
}

/**
 * Loads the texts of `areas` in the current language (and remembers them, so a language chosen
 * later loads them too). Rejects when a file cannot be fetched; the caller's boundary shows its
 * error, whose texts are in the base file.
 */
export async function loadAreas(areas: readonly Area[]): Promise<void> {
  for (const area of areas) wanted.add(area);
  // Before i18next starts (the entry preloads the first screen meanwhile): the language it will start in.
  const code = i18n.isInitialized ? currentLanguage() : initialLanguage();
  await Promise.all(areas.map((area) => ensureArea(code, area)));
}

/** The language the user chose before, else the default. */
export function initialLanguage(): LanguageCode {
  return toLanguageCode(readStored(LANGUAGE_STORAGE_KEY)) ?? DEFAULT_LANGUAGE;
}

/** Initialises i18next in `language` (loading its base file first). */
export async function initI18n(language: LanguageCode = initialLanguage()): Promise<typeof i18n> {
  if (!i18n.isInitialized) {
    await i18n.use(initReactI18next).init({
      resources: { en: { translation: { ...enBase } } },
      lng: DEFAULT_LANGUAGE,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: [DEFAULT_LANGUAGE, ...Object.keys(baseLoaders).map((path) => path.slice(2, -5))],
      interpolation: { escapeValue: false },
      returnNull: false,
    });
    markInitialised();
  }
  await setLanguage(language, { persist: false });
  return i18n;
}

/**
 * Switches the interface language (its base file and the areas screens asked for so far),
 * persists it and updates `<html lang>`. A language that cannot be loaded leaves English.
 */
export async function setLanguage(code: LanguageCode, options: { persist?: boolean } = {}): Promise<void> {
  try {
    await ensureBase(code);
    await Promise.all([...wanted].map((area) => ensureArea(code, area)));
  } catch (error) {
    console.error(error);
    code = DEFAULT_LANGUAGE;
    await Promise.all([...wanted].map((area) => ensureArea(code, area))).catch((reason: unknown) => console.error(reason));
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
