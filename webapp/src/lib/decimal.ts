/**
 * Ordering of decimal strings without floating point (money never goes through f64 here).
 *
 * @module
 */

function parts(value: string): { negative: boolean; int: string; frac: string } | null {
  const match = /^([+-])?(\d*)(?:\.(\d*))?$/.exec(value.trim().replace(/,/g, ''));
  const digits = match?.[2] ?? '';
  const fraction = match?.[3] ?? '';
  if (!match || (digits === '' && fraction === '')) return null;
  const int = digits.replace(/^0+/, '');
  const frac = fraction.replace(/0+$/, '');
  const zero = int === '' && frac === '';
  return { negative: match[1] === '-' && !zero, int, frac };
}

function compareMagnitude(a: { int: string; frac: string }, b: { int: string; frac: string }): number {
  if (a.int.length !== b.int.length) return a.int.length < b.int.length ? -1 : 1;
  if (a.int !== b.int) return a.int < b.int ? -1 : 1;
  const width = Math.max(a.frac.length, b.frac.length);
  const fa = a.frac.padEnd(width, '0');
  const fb = b.frac.padEnd(width, '0');
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}

/** Compares two decimal strings numerically; unparsable values sort before every number. */
export function compareDecimal(a: string | null | undefined, b: string | null | undefined): number {
  const pa = a == null ? null : parts(a);
  const pb = b == null ? null : parts(b);
  if (!pa || !pb) return pa ? 1 : pb ? -1 : 0;
  if (pa.negative !== pb.negative) return pa.negative ? -1 : 1;
  const magnitude = compareMagnitude(pa, pb);
  return pa.negative ? -magnitude : magnitude;
}
