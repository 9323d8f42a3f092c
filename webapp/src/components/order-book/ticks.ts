/**
 * The order book's grouping choices: the pair's tick size and its multiples by 10, 100, … —
 * computed by moving the decimal point in the string, never through floating point.
 *
 * @module
 */

/** How many grouping choices the order book offers. */
export const TICK_CHOICES = 5;

function digitsAndScale(value: string): { digits: string; scale: number } | null {
  const match = /^(\d*)(?:\.(\d*))?$/.exec(value.trim());
  if (!match) return null;
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  const digits = `${match[1] ?? ''}${fraction}`.replace(/^0+/, '');
  if (!digits) return null;
  return { digits, scale: fraction.length };
}

function fromDigits(digits: string, scale: number): string {
  if (scale <= 0) return digits + '0'.repeat(-scale);
  const padded = digits.padStart(scale + 1, '0');
  const int = padded.slice(0, padded.length - scale);
  const frac = padded.slice(padded.length - scale).replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}

/** `tickSize`, ×10, ×100, … (`count` values); empty for a tick that is not a positive decimal. */
export function tickChoices(tickSize: string, count = TICK_CHOICES): string[] {
  const parsed = digitsAndScale(tickSize);
  if (!parsed) return [];
  return Array.from({ length: count }, (_, power) => fromDigits(parsed.digits, parsed.scale - power));
}

/** The number of decimals of a decimal string (`"0.010"` → 2, `"10"` → 0). */
export function decimalsOf(value: string): number {
  return digitsAndScale(value)?.scale ?? 0;
}
