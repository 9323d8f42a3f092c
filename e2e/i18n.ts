/**
 * The webapp's own translations (webapp/src/i18n/<lang>.json merged with the feature-area files
 * webapp/src/i18n/<area>/<lang>.json, as the webapp merges them), so the tests look elements up by
 * the exact labels users see in each language instead of hard-coded guesses.
 *
 * @module
 */

import { existsSync, readFileSync, readdirSync } from 'node:fs';

/** Languages the tests switch to. */
export type Lang = 'en' | 'de' | 'ja';

/** The name each language has in the language switcher (webapp/src/i18n/languages.ts). */
export const LANGUAGE_NAMES: Record<Lang, string> = { en: 'English', de: 'Deutsch', ja: '日本語' };

type Bundle = { [key: string]: string | Bundle };

const bundles = new Map<Lang, Bundle>();

const I18N_DIR = new URL('../webapp/src/i18n/', import.meta.url);

function readBundle(file: URL): Bundle {
  return JSON.parse(readFileSync(file, 'utf8')) as Bundle;
}

function bundle(lang: Lang): Bundle {
  let loaded = bundles.get(lang);
  if (!loaded) {
    loaded = readBundle(new URL(`${lang}.json`, I18N_DIR));
    // Each feature area's file has the area as its only top-level key (`auth`, `account`, …).
    for (const entry of readdirSync(I18N_DIR, { withFileTypes: true })) {
      const file = new URL(`${entry.name}/${lang}.json`, I18N_DIR);
      if (entry.isDirectory() && existsSync(file)) Object.assign(loaded, readBundle(file));
    }
    bundles.set(lang, loaded);
  }
  return loaded;
}

/** The text of `key` (dotted, e.g. `home.marketsTitle`) in `lang`, with `{{name}}` params filled in. */
export function t(lang: Lang, key: string, params: Record<string, string | number> = {}): string {
  let node: string | Bundle | undefined = bundle(lang);
  for (const part of key.split('.')) {
    node = typeof node === 'object' ? node[part] : undefined;
  }
  if (typeof node !== 'string') throw new Error(`No string ${key} in the ${lang} messages`);
  return node.replace(/\{\{\s*(\w+)\s*\}\}/g, (_whole, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${lang}.json ${key} needs the parameter ${name}`);
    return String(value);
  });
}

/** Escapes `text` for use inside a regular expression. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A pattern matching `key` in `lang`, anchored at both ends: the `{{params}}` given in `fixed` are
 * filled in literally, every other one becomes a lazy wildcard.
 */
/** The accessible name of a ticker link of `pair` in `lang`: the pair, then each figure after its
 * (visually hidden) label — "BTC/USDT last price 96,541.98 24h change +2.15%". */
export function tickerName(lang: Lang, pair: string): RegExp {
  const label = (key: string) => escapeRegExp(t(lang, key));
  return new RegExp(`^${escapeRegExp(pair)}\\s*${label('ticker.lastPrice')}\\s*\\S+\\s*${label('ticker.change24h')}\\s*\\S+$`);
}

export function tPattern(lang: Lang, key: string, fixed: Record<string, string | number> = {}): RegExp {
  const params = new Proxy(fixed, {
    get: (target, name) => (typeof name === 'string' && name in target ? target[name] : `\u0000${String(name)}\u0000`),
  });
  const source = t(lang, key, params)
    .split(/\u0000\w+\u0000/)
    .map(escapeRegExp)
    .join('.+?');
  return new RegExp(`^${source}$`);
}
