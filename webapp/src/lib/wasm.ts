/**
 * The only importer of `wasm-core`, the exchange's Rust compute core compiled to WebAssembly, in
 * two modules (scripts/build-wasm.sh):
 *
 * - `wasm-core`, every export but earn and loan: the wasm-pack bundler build (`../wasm-core/pkg`),
 *   instantiated by vite-plugin-wasm when this module is first imported (a top-level await), so
 *   every export is ready to call synchronously;
 * - `wasm-core-earn-loan` (`../wasm-core/pkg-earn-loan`), the earn schedule and the loan figures:
 *   fetched and instantiated by {@link loadEarnLoanCore} only, which the earn and loan screens await
 *   before they render, so no other page downloads it.
 *
 * In vitest the aliases point at the Node.js builds instead. Errors thrown by the core are
 * `{code, key, params}` payloads; `coreErrorText` translates them.
 *
 * @module
 */

import type { TFunction } from 'i18next';
import * as core from 'wasm-core';
import type {
  BankCardFormInput,
  DepositFormInput,
  IdentityFormInput,
  LiquidationInput,
  MarginAdjustment,
  MarginAdjustmentInput,
  MaxOpenSize,
  MaxOpenSizeInput,
  PasswordChangeInput,
  PnlAtTrigger,
  PnlAtTriggerInput,
  PositionMetrics,
  PositionMetricsInput,
  SecondsInput,
  SecondsPreview,
  SpotOrderFormInput,
  SpotOrderInput,
  SpotOrderPreview,
  TickerRowInput,
  TickerRowView,
  TimeZone,
  ValidationError,
  WithdrawalFormInput,
} from 'wasm-core';

export type {
  BankCardFormInput,
  DepositFormInput,
  IdentityFormInput,
  LiquidationInput,
  MarginAdjustment,
  MarginAdjustmentInput,
  MarginTier,
  MaxOpenSize,
  MaxOpenSizeInput,
  PasswordChangeInput,
  PnlAtTrigger,
  PnlAtTriggerInput,
  Position as FuturesPositionInput,
  PositionMetrics,
  PositionMetricsInput,
  SecondsInput,
  SecondsPreview,
  SpotOrderFormInput,
  SpotOrderInput,
  SpotOrderPreview,
  TickerRowInput,
  TickerRowView,
  TimeZone,
  ValidationError,
  WithdrawalFormInput,
} from 'wasm-core';
import type {
  EarnSchedule,
  EarnTerms,
  LoanEarlyRepayment,
  LoanOverduePenalty,
  LoanRepayWay,
  LoanSchedule,
} from 'wasm-core-earn-loan';

export type {
  EarnRedemption,
  EarnSchedule,
  EarnScheduleDay,
  EarnTerms,
  LoanEarlyRepayment,
  LoanInstalment,
  LoanOverduePenalty,
  LoanRepayWay,
  LoanSchedule,
} from 'wasm-core-earn-loan';

/** What the core throws: a stable code, an i18n key and the values the message interpolates. */
export type CoreError = core.CoreErrorPayload;

/** Whether `error` is a payload thrown by the core. */
export function isCoreError(error: unknown): error is CoreError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as CoreError).code === 'string' &&
    typeof (error as CoreError).key === 'string'
  );
}

/** The user's-language message of a core error (or of anything else thrown). */
export function coreErrorText(t: TFunction, error: unknown): string {
  if (isCoreError(error)) return t(error.key, { ...error.params, defaultValue: t('errors.unknown') });
  return t('errors.unknown');
}

/** `(amount − open) / open × 100` with 2 decimals, or `undefined` unless both are above zero. */
export function priceChangePercent(amount: string, open: string): string | undefined {
  return core.priceChangePercent(amount, open) ?? undefined;
}

/** Runs a formatter on `value`, showing `--` for a missing value or one the core cannot read. */
export function orDash(format: (value: string) => string, value: string | null | undefined): string {
  if (!value) return '--';
  try {
    return format(value);
  } catch {
    return '--';
  }
}

/** `"+1.23%"`, `"-0.50%"`, `"0.00%"`, or `"--"` when the percent is unknown. */
export function formatPercent(percent?: string | null): string {
  return core.formatPercent(percent ?? undefined);
}

/**
 * A market amount (an order book total, a volume, a stake): thousands separators, 2 decimals, midpoint
 * away from zero. The user's own balances use {@link formatBalance}, results {@link formatPnl}.
 */
export function formatAmount(value: string): string {
  return core.formatAmount(value);
}

/**
 * A balance of the user (held, available, frozen, equity, margin, a valuation): thousands separators,
 * `decimals` decimals (2 when absent), truncated toward zero, so it is never shown larger than held:
 * `"298.88579145"` → `"298.88"` on every screen.
 */
export function formatBalance(value: string, decimals?: number | null): string {
  return core.formatBalance(value, decimals ?? undefined);
}

/**
 * A result (profit and loss, a fee, a funding payment): thousands separators, 2 decimals, nearest with
 * ties to the even digit (`"1.005"` → `"1.00"`, `"1.015"` → `"1.02"`). No `+` is added.
 */
export function formatPnl(value: string): string {
  return core.formatPnl(value);
}

/** `"45.60K"`, `"1.23M"`, `"2.10B"`, `"3.00T"`. */
export function formatCompact(value: string): string {
  return core.formatCompact(value);
}

/** A price with `precision` decimals, or decimals by magnitude when it is absent. */
export function formatPrice(value: string, precision?: number | null): string {
  return core.formatPrice(value, precision ?? undefined);
}

/** `MM/DD/YYYY HH:mm:ss` of `epochMs` at the UTC offset `offsetMinutes`. */
export function formatDateTime(epochMs: number, offsetMinutes: number): string {
  return core.formatDateTime(epochMs, offsetMinutes);
}

/** The 38 time zones from UTC−12:00 to UTC+14:00. */
export function timeZones(): TimeZone[] {
  return core.timeZones();
}

/** Formats a whole ticker table in one call (throws a `CoreError` for the first bad row). */
export function formatTickerRows(rows: readonly TickerRowInput[]): TickerRowView[] {
  return core.formatTickerRows([...rows]);
}

/** The violation of `password` against rule A (login), B or C, or `null` when it follows it. */
export function validatePassword(password: string, rule: 'A' | 'B' | 'C'): CoreError | null {
  return core.validatePassword(password, rule);
}

/** Every error of a password form (required, rule, confirmation, new ≠ old), each with its field. */
export function validatePasswordChange(input: PasswordChangeInput): ValidationError[] {
  return core.validatePasswordChange(input);
}

/** The violation of an e-mail address, or `null`. */
export function validateEmail(email: string): CoreError | null {
  return core.validateEmail(email);
}

/** Every error of the identity (basic verification) form, each with its field. */
export function validateIdentityForm(form: IdentityFormInput): ValidationError[] {
  return core.validateIdentityForm(form);
}

/** Every error of the bank card form, each with its field. */
export function validateBankCardForm(form: BankCardFormInput): ValidationError[] {
  return core.validateBankCardForm(form);
}

/** Field → translated message of the first error of each field (for form `invalid` states). */
export function fieldErrors(t: TFunction, errors: readonly ValidationError[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const error of errors) out[error.field] ??= coreErrorText(t, error);
  return out;
}

// --- Market data: klines, order book and trades (issue 5) ---

/** A kline interval (`1month` is `1M`). */
export type KlineInterval = core.KlineInterval;
/** One candle: `openTime` in epoch ms, decimals as strings. */
export type Candle = core.Candle;
/** One trade as the kline functions read it (`qty`, `time`). */
export type KlineTrade = core.KlineTrade;
/** What one trade did to the live candle. */
export type LiveCandleUpdate = core.LiveCandleUpdate;
/** The first and last millisecond of an interval. */
export type KlineBucket = core.KlineBucket;
/** An order book to group and format. */
export type OrderBookInput = core.OrderBookInput;
/** A formatted order book, each side best first (`depth` a percent "0.00" to "100.00"). */
export type OrderBookView = core.OrderBookView;
/** One formatted order book row. */
export type OrderBookRow = core.OrderBookRow;
/** One trade to format. */
export type TradeInput = core.TradeInput;
/** One formatted trade. */
export type TradeView = core.TradeView;

/** Applies one trade to the live candle (`null` when there is none yet): `{closed, live}`. */
export function applyTrade(live: Candle | null, trade: KlineTrade, interval: KlineInterval, offsetMinutes: number): LiveCandleUpdate {
  return core.applyTrade(live, trade, interval, offsetMinutes);
}

/** The interval containing `timeMs` at the UTC offset `offsetMinutes`. */
export function intervalBucket(timeMs: number, interval: KlineInterval, offsetMinutes: number): KlineBucket {
  return core.intervalBucket(timeMs, interval, offsetMinutes);
}

/** Rolls 1m candles (oldest first) up into `interval` candles. */
export function rollupCandles(candles: readonly Candle[], interval: KlineInterval, offsetMinutes: number): Candle[] {
  return core.rollupCandles([...candles], interval, offsetMinutes);
}

/** Groups (to `tick`, optionally) and formats a whole order book in one call. */
export function formatOrderBook(input: OrderBookInput): OrderBookView {
  return core.formatOrderBook(input);
}

/** A quantity with `precision` decimals, or its own decimals when it is absent. */
export function formatQuantity(value: string, precision?: number | null): string {
  return core.formatQuantity(value, precision ?? undefined);
}

/** Formats a list of trades: price, quantity, `HH:mm:ss` at `offsetMinutes`, direction. */
export function formatTrades(
  trades: readonly TradeInput[],
  precisions: { pricePrecision?: number | null; quantityPrecision?: number | null },
  offsetMinutes: number,
): TradeView[] {
  return core.formatTrades([...trades], precisions, offsetMinutes);
}

// --- Account settings: phone numbers, anti-phishing code, one-time codes ---

/** A phone number as `+` and its digits, or why it is not one (exactly one of the two is set). */
export type NormalizedPhone = core.NormalizedPhone;

/** `"+49 (170) 123-45.67"` → `{phone: "+491701234567", error: null}`; 5 to 15 digits, or the violation. */
export function normalizePhone(text: string): NormalizedPhone {
  return core.normalizePhone(text);
}

/** The violation of an anti-phishing code (4 to 20 ASCII letters or digits), or `null`. */
export function validateAntiCode(code: string): CoreError | null {
  return core.validateAntiCode(code);
}

/** The violation of a 6-digit one-time (authenticator) code, or `null`. */
export function validateOtpCode(code: string): CoreError | null {
  return core.validateOtpCode(code);
}

// --- Funds: deposit, withdrawal and transfer forms (issue 6) ---

/** The violation of a typed amount (digits, one point, no leading zero, at most `maxDecimals`), or `null`. */
export function validateNumberInput(value: string, maxDecimals?: number | null): CoreError | null {
  return core.validateNumberInput(value, maxDecimals ?? undefined);
}

/** What a keystroke leaves of an amount: digits and one point, at most `maxDecimals` decimals. */
export function sanitizeNumberInput(value: string, maxDecimals?: number | null): string {
  return core.sanitizeNumberInput(value, maxDecimals ?? undefined);
}

/** The violation of `address` on `network` (`TRC20`, `ERC20`, `BEP20`, `BTC`), or `null`. */
export function validateAddress(network: string, address: string): CoreError | null {
  return core.validateAddress(network, address);
}

/** Every error of the deposit form (coin, amount, screenshot), each with its field. */
export function validateDepositForm(form: DepositFormInput): ValidationError[] {
  return core.validateDepositForm(form);
}

/**
 * Every error of the withdrawal form (network, address for that network, amount within `available`,
 * fund password), each with its field. Throws a `CoreError` only when `available` is not a decimal.
 */
export function validateWithdrawalForm(form: WithdrawalFormInput): ValidationError[] {
  return core.validateWithdrawalForm(form);
}

/** A withdrawal's figures as decimal strings: `amount` leaves the balance, `received` arrives. */
export type WithdrawalQuote = core.WithdrawalQuote;

/**
 * The figures of withdrawing `amount` with the channel's fixed `fee`: `received = amount − fee`.
 * Throws a `CoreError` for a malformed decimal, an amount not above zero or not above the fee.
 */
export function withdrawalQuote(amount: string, fee: string): WithdrawalQuote {
  return core.withdrawalQuote(amount, fee);
}

// --- Spot trading: the order form and its preview ---

/**
 * Every error of a spot order form, each with its field: side and type, prices on the tick size,
 * quantity on the step size, the minimum notional and the balance it pays from (`quoteAmount` is for
 * market buys only). Throws a `CoreError` only when the pair's rules, `lastPrice` or a balance is
 * not a decimal.
 */
export function validateSpotOrder(form: SpotOrderFormInput): ValidationError[] {
  return core.validateSpotOrder(form);
}

/**
 * A spot order as if filled at its price: quantity, amount, fee (in the asset received), what arrives
 * and the balances after; `insufficientBalance` when it spends more than the balance. Throws a
 * `CoreError` for a malformed decimal or when not exactly one of `quantity` and `quoteAmount` is given.
 */
export function spotOrderPreview(input: SpotOrderInput): SpotOrderPreview {
  return core.spotOrderPreview(input);
}

/**
 * The violation of a seconds contract stake (a whole number above zero within `min` and `max`, both
 * decimal strings), or `null`: the rule the server runs on `POST /api/seconds/order/submit`.
 */
export function validateSecondsQuantity(value: string, min?: string | null, max?: string | null): CoreError | null {
  return core.validateSecondsQuantity(value, min ?? undefined, max ?? undefined);
}

/**
 * A seconds contract's figures: the stake, the profit and payout of a right call, the loss of a wrong
 * one and the return of a tie — the function the server settles with. Throws a `CoreError` for a
 * stake that is not a whole number.
 */
export function secondsPreview(input: SecondsInput): SecondsPreview {
  return core.secondsPreview(input);
}

// --- USDT-M futures: the functions the server runs (docs/api.md "USDT-M futures") ---

/**
 * The estimated liquidation price of a one-way position (with the tier re-check at the price found),
 * rounded to `tickSize`, or `null` when it has none (shown as `--`). Throws a `CoreError` for a
 * malformed decimal or tier table.
 */
export function liquidationPrice(input: LiquidationInput): string | null {
  return core.liquidationPrice(input);
}

/** A position's initial and maintenance margin, unrealised PnL, ROE, margin ratio and liquidation price at a mark. */
export function positionMetrics(input: PositionMetricsInput): PositionMetrics {
  return core.positionMetrics(input);
}

/** The largest size an available balance opens at a price and leverage, the opening taker fee included. */
export function maxOpenSize(input: MaxOpenSizeInput): MaxOpenSize {
  return core.maxOpenSize(input);
}

/** PnL and ROE (percent) if a position closed at a take-profit or stop-loss trigger price. */
export function pnlAtTrigger(input: PnlAtTriggerInput): PnlAtTrigger {
  return core.pnlAtTrigger(input);
}

/**
 * An isolated position after adding or removing margin: its new margin and liquidation price, the
 * most that can be removed now, and whether the amount exceeds that (or the available balance).
 */
export function marginAdjustment(input: MarginAdjustmentInput): MarginAdjustment {
  return core.marginAdjustment(input);
}

// --- Earn and loans: the second module (docs/api.md "Earn", "Loans") ---

/** A loan's terms as the loan calculator takes them. */
export interface LoanTermsInput {
  /** The amount lent, a decimal string. */
  principal: string;
  /** Interest per loan day, a fraction (`0.0005` = 0.05 %). */
  dayRate: string;
  /** The cycle in days. */
  cycleDays: number;
  /** The repayment way (`t_repay_type`). */
  repayWay: LoanRepayWay;
  /** The moment of borrowing, milliseconds since the epoch. */
  startTime: number;
  /** The coin's decimals. */
  scale: number;
}

/** The earn and loan exports, once their module has arrived ({@link loadEarnLoanCore}). */
export interface EarnLoanCore {
  /**
   * An earn position's whole schedule — value date (D+1, 00:00 UTC), first payout (D+2), each
   * day's reward rounded down to 8 decimals with the residue carried, the total at maturity, the
   * delivery date — and, with `at`, what redeeming then returns by the product's rule. The function
   * the server posts with. Throws a `CoreError` for a malformed decimal, a principal not above zero
   * or a cycle outside 1–3650 days.
   */
  earnSchedule(terms: EarnTerms, at?: number | null): EarnSchedule;
  /**
   * A loan's whole schedule (each instalment's due time, principal, interest and amount, the total
   * interest) and, with `at`, what repaying everything then costs — wasm-core's `LoanCalculator`,
   * the function the server charges with. Throws a `CoreError` for bad terms.
   */
  loanPreview(terms: LoanTermsInput, at?: number | null): { schedule: LoanSchedule; early: LoanEarlyRepayment | null };
  /** The penalty on `amount` unpaid since `dueTime` as of `atTime` (wasm-core's `overdue_penalty`). */
  loanOverduePenalty(amount: string, penaltyDayRate: string, graceDays: number, dueTime: number, atTime: number, scale: number): LoanOverduePenalty;
}

let earnLoan: Promise<EarnLoanCore> | null = null;

/**
 * Fetches and instantiates the earn and loan module (once; after a failure the next call tries
 * again). The earn and loan screens' modules await it at their top level, so their synchronous
 * previews can call it while rendering.
 */
export function loadEarnLoanCore(): Promise<EarnLoanCore> {
  earnLoan ??= import('wasm-core-earn-loan').then(
    (module): EarnLoanCore => ({
      earnSchedule: (terms, at) => module.earnSchedule(terms, at ?? undefined),
      loanPreview(terms, at) {
        const calculator = new module.LoanCalculator(terms.principal, terms.dayRate, terms.cycleDays, terms.repayWay, terms.startTime, terms.scale);
        try {
          return { schedule: calculator.schedule(), early: at == null ? null : calculator.earlyRepayment(at) };
        } finally {
          calculator.free();
        }
      },
      loanOverduePenalty: (amount, penaltyDayRate, graceDays, dueTime, atTime, scale) =>
        module.loanOverduePenalty(amount, penaltyDayRate, graceDays, dueTime, atTime, scale),
    }),
    (error: unknown) => {
      earnLoan = null;
      throw error;
    },
  );
  return earnLoan;
}
