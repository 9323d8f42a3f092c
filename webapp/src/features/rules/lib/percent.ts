/**
 * Fee rates as percentages, on the decimal string itself (money never goes through floating point):
 * `0.001` → `0.1`.
 *
 * @module
 */

/** A fraction as a percentage (`0.001` → `0.1`, `0.02` → `2`); `null` for a value that is no decimal. */
export function fractionToPercent(fraction: string): string | null {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(fraction.trim());
  if (!match) return null;
  const digits = (match[2] ?? '').padEnd(2, '0');
  const whole = `${match[1]}${digits.slice(0, 2)}`.replace(/^0+(?=\d)/, '');
  const rest = digits.slice(2).replace(/0+$/, '');
  return rest ? `${whole}.${rest}` : whole;
}
