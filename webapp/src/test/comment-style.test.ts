/**
 * TypeScript is documented with TSDoc (architecture principle 10): Rust's doc comments (`//!` for a
 * module, `///` for an item) mean nothing here, so none may come back into `src/` or the config
 * files. A file's own doc is a TSDoc block at its top with the `@module` tag.
 *
 * @module
 */

import { describe, expect, it } from 'vitest';

/** The text of every TypeScript file of the webapp's own (src/ without the generated client, and the config files), by path. */
const SOURCES = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../api/generated/**', '../../*.config.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** `path:line: text` of each line that starts (after indentation) with a Rust doc comment. */
function rustDocLines([path, text]: [string, string]): string[] {
  return text.split('\n').flatMap((line, i) => {
    const code = line.trimStart();
    // `/// <reference … />` is a TypeScript directive, not a doc comment.
    const rustDoc = code.startsWith('//!') || (code.startsWith('///') && !code.startsWith('/// <'));
    return rustDoc ? [`${path}:${i + 1}: ${code}`] : [];
  });
}

describe('comment style', () => {
  it('reads the sources', () => {
    const paths = Object.keys(SOURCES);
    expect(paths.length).toBeGreaterThan(100);
    expect(paths).toContain('../lib/live.ts');
    expect(paths).toContain('../../vite.config.ts');
    expect(paths.some((path) => path.includes('/api/generated/'))).toBe(false);
  });

  it('has no Rust doc comments (`//!`, `///`) in TypeScript', () => {
    expect(Object.entries(SOURCES).flatMap(rustDocLines)).toEqual([]);
  });
});
