/**
 * Every error wasm-core can report (as its JSON vectors show it: `{code, key, params}`) must have a
 * text in the base file of the locales (`en.json`, loaded before any screen: an error can show on
 * any of them, whatever areas it loaded), and that text may only use placeholders the payload fills.
 * The locale test checks that the 13 other languages have every key of English, so checking
 * en.json here is enough.
 *
 * @module
 */

import { describe, expect, it } from 'vitest';
import en from './en.json';

const vectorFiles = import.meta.glob<unknown>('../../../wasm-core/tests/vectors/*.json', {
  eager: true,
  import: 'default',
});

/** key → the names of every param seen with it. */
function collectErrorKeys(value: unknown, found: Map<string, Set<string>>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectErrorKeys(item, found);
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (typeof record.key === 'string' && typeof record.code === 'string' && record.key.startsWith('errors.')) {
      const params = found.get(record.key) ?? new Set<string>();
      if (typeof record.params === 'object' && record.params !== null) {
        for (const name of Object.keys(record.params)) params.add(name);
      }
      found.set(record.key, params);
    }
    for (const child of Object.values(record)) collectErrorKeys(child, found);
  }
}

function lookup(key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], en);
}

describe('wasm-core error keys', () => {
  const found = new Map<string, Set<string>>();
  for (const vectors of Object.values(vectorFiles)) collectErrorKeys(vectors, found);

  it('finds the errors of the vectors', () => {
    expect(Object.keys(vectorFiles).length).toBeGreaterThan(20);
    expect(found.size).toBeGreaterThan(5);
  });

  for (const [key, params] of found) {
    it(`${key} has an English text using only the params it is given`, () => {
      const text = lookup(key);
      expect(typeof text, `en.json lacks ${key}`).toBe('string');
      const used = [...String(text).matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]);
      for (const name of used) expect(params, `${key} uses {{${name}}}`).toContain(name);
    });
  }
});
