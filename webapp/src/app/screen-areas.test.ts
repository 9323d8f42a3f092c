/**
 * The i18n areas a module loaded on demand waits for (`screen-areas.ts`) cover every area text its
 * code can show, and the code of the first download (`main.tsx` and its static imports) shows base
 * texts only: a screen or widget never renders a raw key because its area was not loaded.
 *
 * Read from the sources: a module's static imports (`import … from './x'`, not `import('./x')`)
 * are followed; an area text is a string starting with `<area>.` (`'trade.orders.cols.pair'`,
 * `` `trade.orders.tabs.${tab}` ``).
 *
 * @module
 */

import { describe, expect, it } from 'vitest';
import { AREAS } from '../i18n/areas';
import { SCREEN_AREAS, type ScreenKey } from './screen-areas';

const sources = import.meta.glob<string>(['/src/**/*.{ts,tsx}', '!/src/**/*.test.{ts,tsx}', '!/src/test/**', '!/src/api/generated/**'], {
  eager: true,
  query: '?raw',
  import: 'default',
});

/** `/src/app/router.tsx` → `app/router`. */
const keyOf = (path: string) => path.replace(/^\/src\//, '').replace(/\.(tsx?)$/, '');
const files = new Map(Object.entries(sources).map(([path, text]) => [keyOf(path), text]));

function resolve(from: string, spec: string): string | undefined {
  const parts = from.split('/').slice(0, -1);
  for (const part of spec.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  const base = parts.join('/').replace(/\.(tsx?)$/, '');
  return [base, `${base}/index`].find((candidate) => files.has(candidate));
}

const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;
const DYNAMIC_IMPORT = /import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;
const AREA_TEXT = new RegExp(`['"\`](${AREAS.join('|')})\\.[A-Za-z$]`, 'g');

/** Every module `start` imports statically, directly or not, itself included. */
function staticGraph(start: string): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const [, spec] of (files.get(key) ?? '').matchAll(STATIC_IMPORT)) {
      const target = resolve(key, spec!);
      if (target) visit(target);
    }
  };
  visit(start);
  return seen;
}

/** The areas whose texts the modules of `graph` use, each with a module using it. */
function areasUsed(graph: Set<string>): Map<string, string> {
  const used = new Map<string, string>();
  for (const key of graph) {
    for (const [, area] of (files.get(key) ?? '').matchAll(AREA_TEXT)) if (!used.has(area!)) used.set(area!, key);
  }
  return used;
}

describe('screen areas', () => {
  it('reads the sources (the check below would pass on nothing otherwise)', () => {
    expect(files.size).toBeGreaterThan(100);
    expect(staticGraph('features/trade/trade-page').size).toBeGreaterThan(20);
    expect([...areasUsed(staticGraph('features/trade/trade-page')).keys()]).toContain('trade');
  });

  it('keeps area texts out of the first download: the entry and its static imports use base texts only', () => {
    expect(Object.fromEntries(areasUsed(staticGraph('main')))).toEqual({});
  });

  for (const key of Object.keys(SCREEN_AREAS) as ScreenKey[]) {
    it(`${key} waits for every area its code uses`, () => {
      expect(files.has(key), `${key} is not a module`).toBe(true);
      const used = areasUsed(staticGraph(key));
      const missing = [...used].filter(([area]) => !(SCREEN_AREAS[key] as readonly string[]).includes(area));
      expect(Object.fromEntries(missing), `areas ${key} uses without waiting for them (area → a module using it)`).toEqual({});
    });
  }

  it('gives every module loaded on demand an entry, passed to its loader', () => {
    const loaders: string[] = [];
    for (const [from, text] of files) {
      for (const statement of text.split(';')) {
        for (const [, spec] of statement.matchAll(DYNAMIC_IMPORT)) {
          const target = resolve(from, spec!);
          if (!target || target.startsWith('i18n/')) continue; // the text files themselves
          loaders.push(target);
          expect(Object.keys(SCREEN_AREAS), `${from} loads ${target} on demand`).toContain(target);
          expect(statement, `${from} loads ${target} without SCREEN_AREAS['${target}']`).toContain(`SCREEN_AREAS['${target}']`);
        }
      }
    }
    expect(loaders.length).toBeGreaterThan(15);
  });
});
