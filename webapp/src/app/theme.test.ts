import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { slotRecipes as defaultSlotRecipes } from '@chakra-ui/react/theme';
import { describe, expect, it } from 'vitest';
import { slotRecipes, system } from './theme';

/** Every .ts/.tsx file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The names imported from '@chakra-ui/react' anywhere in src. */
function chakraImports(): Set<string> {
  const names = new Set<string>();
  for (const file of sources(join(__dirname, '..'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'@chakra-ui\/react'/g)) {
      for (const part of match[1]!.split(',')) {
        const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!.trim();
        if (name) names.add(name);
      }
    }
  }
  return names;
}

describe('the Chakra system', () => {
  it('has the slot recipe of every Chakra component the app imports', () => {
    const imported = chakraImports();
    expect(imported.has('Table')).toBe(true);
    const missing = [...imported]
      .map((name) => name.charAt(0).toLowerCase() + name.slice(1))
      .filter((key) => key in defaultSlotRecipes && !(key in slotRecipes));
    expect(missing).toEqual([]);
  });

  it('keeps the brand palette and the chosen recipes', () => {
    expect(system.token('colors.brand.500')).toBe('#f76c15');
    expect(Object.keys(slotRecipes)).toContain('toast');
    expect(Object.keys(slotRecipes)).not.toContain('datePicker');
  });
});
