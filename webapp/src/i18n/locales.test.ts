import { describe, expect, it } from 'vitest';
import en from './en.json';
import { LANGUAGES } from './languages';

const locales = import.meta.glob<Record<string, unknown>>('./*.json', { eager: true, import: 'default' });

/** `{a: {b: 'x'}}` → `{'a.b': 'x'}`; non-string leaves are kept as they are, to be reported. */
function flatten(value: unknown, prefix = '', out: Record<string, unknown> = {}): Record<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) flatten(child, prefix ? `${prefix}.${key}` : key, out);
  } else {
    out[prefix] = value;
  }
  return out;
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? '').sort();
}

const reference = flatten(en);

describe('locales', () => {
  it('has exactly one file per language of the switcher', () => {
    const files = Object.keys(locales).map((path) => path.slice(2, -5)).sort();
    expect(files).toEqual(LANGUAGES.map((l) => l.code).sort());
    expect(files).toHaveLength(14);
  });

  it('en.json has only non-empty strings', () => {
    expect(Object.keys(reference).length).toBeGreaterThan(100);
    for (const [key, value] of Object.entries(reference)) {
      expect(typeof value === 'string' && value.trim() !== '', `en: ${key}`).toBe(true);
    }
  });

  for (const [path, messages] of Object.entries(locales)) {
    const code = path.slice(2, -5);
    if (code === 'en') continue;

    it(`${code}: same keys as en, every value a non-empty string with the same placeholders`, () => {
      const flat = flatten(messages);
      const missing = Object.keys(reference).filter((key) => !(key in flat));
      const extra = Object.keys(flat).filter((key) => !(key in reference));
      expect(missing, `${code} misses keys`).toEqual([]);
      expect(extra, `${code} has keys en does not have`).toEqual([]);
      for (const [key, value] of Object.entries(flat)) {
        expect(typeof value === 'string' && value.trim() !== '', `${code}: ${key} is empty`).toBe(true);
        expect(placeholders(value as string), `${code}: ${key} placeholders`).toEqual(placeholders(reference[key] as string));
      }
    });
  }
});
