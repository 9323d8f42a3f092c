/**
 * The few exact decimal operations the order form needs that wasm-core does not offer as such: a
 * share of a balance, a quantity a balance buys at a price, rounded DOWN to the pair's step (a
 * percentage button must never ask for more than the balance). Decimal strings are scaled to
 * BigInt integers: no floating point touches money.
 *
 * @module
 */

interface Scaled {
  /** The value × 10^scale. */
  units: bigint;
  scale: number;
}

/** A non-negative decimal string as an integer and a scale, or `null` when it is not one. */
function parse(value: string | null | undefined): Scaled | null {
  if (value === null || value === undefined) return null;
  const match = /^(\d*)(?:\.(\d*))?$/.exec(value.trim().replace(/,/g, ''));
  if (!match || (match[1] === '' && (match[2] ?? '') === '')) return null;
  const fraction = match[2] ?? '';
  return { units: BigInt(`${match[1] || '0'}${fraction}`), scale: fraction.length };
}

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

/** `units / 10^scale` as a plain decimal string without trailing zeros. */
function render(units: bigint, scale: number): string {
  if (scale <= 0) return (units * pow10(-scale)).toString();
  const digits = units.toString().padStart(scale + 1, '0');
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale).replace(/0+$/, '');
  return frac ? `${int}.${frac}` : int;
}

/** Rescales `value` to `scale` decimals, rounding down. */
function toScale(value: Scaled, scale: number): bigint {
  if (scale >= value.scale) return value.units * pow10(scale - value.scale);
  return value.units / pow10(value.scale - scale);
}

/** Whether `value` is a decimal string above zero. */
export function isPositive(value: string | null | undefined): boolean {
  const parsed = parse(value);
  return parsed !== null && parsed.units > 0n;
}

/** The number of decimals of a step or tick (`"0.0010"` → 3, `"1"` → 0). */
export function decimalsOfStep(step: string): number {
  const parsed = parse(step);
  if (!parsed) return 0;
  return render(parsed.units, parsed.scale).split('.')[1]?.length ?? 0;
}

/** `value` rounded down to a multiple of `step` (`"0"` when it is not a decimal or the step is not above zero). */
export function floorToStep(value: string, step: string): string {
  const v = parse(value);
  const s = parse(step);
  if (!v || !s || s.units === 0n) return '0';
  const scale = Math.max(v.scale, s.scale);
  const units = toScale(v, scale);
  const stepUnits = toScale(s, scale);
  return render((units / stepUnits) * stepUnits, scale);
}

/** `percent`% of `value` (a whole percent, 0–100), exact. */
export function percentOf(value: string, percent: number): string {
  const v = parse(value);
  if (!v || !Number.isInteger(percent) || percent < 0) return '0';
  return render(v.units * BigInt(percent), v.scale + 2);
}

/** How much base `amount` (quote) buys at `price`, rounded down to `step`; `"0"` without a price above zero. */
export function quantityFor(amount: string, price: string, step: string): string {
  const a = parse(amount);
  const p = parse(price);
  const s = parse(step);
  if (!a || !p || !s || p.units === 0n || s.units === 0n) return '0';
  // amount / price / step, all exact: (a.units·10^-a.scale) / (p.units·10^-p.scale) / (s.units·10^-s.scale).
  const numerator = a.units * pow10(p.scale + s.scale);
  const denominator = p.units * s.units * pow10(a.scale);
  const steps = numerator / denominator;
  return render(steps * s.units, s.scale);
}

/** A fraction as a percent (`"0.001"` → `"0.1"`), by moving the decimal point. */
export function fractionToPercent(fraction: string): string {
  const parsed = parse(fraction);
  if (!parsed) return '0';
  return render(parsed.units, parsed.scale - 2);
}

/** A percent as a fraction (`"20"` → `"0.2"`), by moving the decimal point; `null` when it is not a number. */
export function percentToFraction(percent: string): string | null {
  const parsed = parse(percent);
  if (!parsed) return null;
  return render(parsed.units, parsed.scale + 2);
}

/** Whether a decimal string is zero (or unreadable). */
export function isZero(value: string | null | undefined): boolean {
  const parsed = parse(value);
  return parsed === null || parsed.units === 0n;
}

/** The exact sum of decimal strings, signed (`-1.5`); a value that is not a decimal counts as 0. */
export function sumDecimals(values: readonly (string | null | undefined)[]): string {
  const terms = values.flatMap((value) => {
    const text = value?.trim() ?? '';
    const negative = text.startsWith('-');
    const scaled = parse(negative || text.startsWith('+') ? text.slice(1) : text);
    return scaled ? [{ ...scaled, units: negative ? -scaled.units : scaled.units }] : [];
  });
  const scale = Math.max(0, ...terms.map((term) => term.scale));
  const total = terms.reduce((sum, term) => sum + term.units * pow10(scale - term.scale), 0n);
  return total < 0n ? `-${render(-total, scale)}` : render(total, scale);
}
