import { describe, expect, it } from 'vitest';
import { AREAS } from './areas';
import { LANGUAGES } from './languages';

const files = import.meta.glob<Record<string, unknown>>(['./*.json', './*/*.json'], { eager: true, import: 'default' });

/** Each language's messages, merged from its base file and its feature-area files. */
const locales: Record<string, Record<string, unknown>> = {};
for (const [path, messages] of Object.entries(files)) {
  const code = path.slice(path.lastIndexOf('/') + 1, -5);
  locales[`./${code}.json`] = { ...locales[`./${code}.json`], ...messages };
}

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

const reference = flatten(locales['./en.json']);

describe('locales', () => {
  it('has exactly one file per language of the switcher, in the base folder and in every area', () => {
    const areas = new Set(Object.keys(files).map((path) => path.split('/').slice(1, -1).join('/')));
    for (const area of areas) {
      const prefix = area ? `./${area}/` : './';
      const codes = Object.keys(files)
        .filter((path) => path.startsWith(prefix) && !path.slice(prefix.length).includes('/'))
        .map((path) => path.slice(prefix.length, -5))
        .sort();
      expect(codes, `area '${area}'`).toEqual(LANGUAGES.map((l) => l.code).sort());
    }
  });

  it('lists every area folder in areas.ts (what screens can ask for)', () => {
    const folders = [...new Set(Object.keys(files).map((path) => path.split('/').slice(1, -1).join('/')))].filter(Boolean).sort();
    expect([...AREAS].sort()).toEqual(folders);
  });

  it('gives every feature-area file the area as its only top-level key', () => {
    for (const [path, messages] of Object.entries(files)) {
      const area = path.split('/').slice(1, -1).join('/');
      if (area) expect(Object.keys(messages), path).toEqual([area]);
    }
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
