// The fastest plain-JavaScript kline aggregation we could write, for the benchmark only (the product
// uses the wasm core). It takes the input of the wasm export `aggregateTradesPacked` (one
// Float64Array, [time₀, price₀, qty₀, …], prices and sizes as whole numbers of 10^-scale) and returns
// exactly its candles: the same objects, key order and normalized decimal strings. It is what a
// TypeScript version would compile to (type annotations only), so it runs as plain ESM.
//
// It does the same work as the wasm path: it checks whole numbers, positive prices and sizes, the
// time range and the order (sorting stably when needed), and its volumes are exact. JavaScript has
// no 64-bit integers, so the exact price × size sum uses split doubles: the size is split at 2^26,
// both partial products stay below 2^52 while the price is below 2^26 (670,000.00 at 2 decimals)
// and the size below 2^52, and three accumulators carry into each other before passing 2^53.
// Outside that range it falls back to BigInt (exact, much slower).

const MAX_EPOCH_MS = 8_640_000_000_000_000;
const TWO_26 = 67_108_864;
const INV_TWO_26 = 1 / TWO_26;
const TWO_52 = 4_503_599_627_370_496;
const TWO_26N = 67_108_864n;
const TWO_52N = 4_503_599_627_370_496n;
const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const FIXED = {
  '1m': MIN, '5m': 5 * MIN, '15m': 15 * MIN, '30m': 30 * MIN,
  '1h': HOUR, '2h': 2 * HOUR, '4h': 4 * HOUR, '1d': DAY, '1w': 7 * DAY,
};

/** A whole number of 10^-scale as a normalized decimal string: (6500012, 2) → "65000.12". */
function decimal(digits, scale) {
  if (scale === 0) return digits;
  const padded = digits.length > scale ? digits : '0'.repeat(scale - digits.length + 1) + digits;
  let end = padded.length;
  const point = end - scale;
  while (end > point && padded.charCodeAt(end - 1) === 48) end--;
  return end === point ? padded.slice(0, point) : `${padded.slice(0, point)}.${padded.slice(point, end)}`;
}

/** The bucket [open, close] of a time: local-clock buckets at a fixed offset, weeks from Monday. */
function bucket(time, interval, offsetMs) {
  const local = time + offsetMs;
  const len = FIXED[interval];
  if (len !== undefined) {
    // 1970-01-05 (day 4) was a Monday.
    const anchor = interval === '1w' ? 4 * DAY : 0;
    const rem = (((local - anchor) % len) + len) % len;
    const start = local - rem;
    return [start - offsetMs, start + len - offsetMs - 1];
  }
  const day = new Date(local);
  const year = day.getUTCFullYear();
  const month = day.getUTCMonth();
  return [Date.UTC(year, month, 1) - offsetMs, Date.UTC(year, month + 1, 1) - offsetMs - 1];
}

function candle(openTime, open, high, low, close, baseLo, baseHi, qLo, qMid, qHi, count, ps, qs) {
  const base = baseHi === 0 ? String(baseLo) : (BigInt(baseHi) * TWO_26N + BigInt(baseLo)).toString();
  const quote = qHi === 0 && qMid < TWO_26
    ? String(qMid * TWO_26 + qLo)
    : (BigInt(qHi) * TWO_52N + BigInt(qMid) * TWO_26N + BigInt(qLo)).toString();
  return {
    openTime,
    open: decimal(String(open), ps),
    high: decimal(String(high), ps),
    low: decimal(String(low), ps),
    close: decimal(String(close), ps),
    baseVolume: decimal(base, qs),
    quoteVolume: decimal(quote, ps + qs),
    tradeCount: count,
  };
}

function check(records, priceScale, qtyScale, offsetMinutes) {
  if (records.length % 3 !== 0) throw new Error('three numbers per trade');
  checkArguments(priceScale, qtyScale, offsetMinutes);
}

function checkArguments(priceScale, qtyScale, offsetMinutes) {
  for (const s of [priceScale, qtyScale]) {
    if (!Number.isInteger(s) || s < 0 || s > 28) throw new Error('scale out of range');
  }
  if (!Number.isInteger(offsetMinutes) || Math.abs(offsetMinutes) > 1080) throw new Error('offset out of range');
}

/** Returns the candles, or null when the values leave the split-double range (→ BigInt path). */
function fast(records, ps, qs, interval, offsetMs) {
  const candles = [];
  const n = records.length;
  if (n === 0) return candles;
  let prev = records[0];
  let [openTime, closeTime] = bucket(prev, interval, offsetMs);
  closeTime = Math.min(closeTime, MAX_EPOCH_MS);
  let open = records[1];
  let high = open;
  let low = open;
  let close = open;
  let baseLo = 0;
  let baseHi = 0;
  let qLo = 0;
  let qMid = 0;
  let qHi = 0;
  let count = 0;
  let bad = false;
  let maxPrice = 0;
  let maxQty = 0;
  for (let i = 0; i < n; i += 3) {
    const t = records[i];
    const p = records[i + 1];
    const q = records[i + 2];
    if (t < prev) return 'unsorted';
    prev = t;
    // Whole numbers above zero (NaN fails every comparison).
    bad = bad || !(p > 0 && q > 0 && Math.floor(p) === p && Math.floor(q) === q && Math.floor(t) === t);
    if (p > maxPrice) maxPrice = p;
    if (q > maxQty) maxQty = q;
    if (t > closeTime) {
      if (t > MAX_EPOCH_MS || t < -MAX_EPOCH_MS) throw new Error('time out of range');
      candles.push(candle(openTime, open, high, low, close, baseLo, baseHi, qLo, qMid, qHi, count, ps, qs));
      [openTime, closeTime] = bucket(t, interval, offsetMs);
      closeTime = Math.min(closeTime, MAX_EPOCH_MS);
      open = p; high = p; low = p;
      baseLo = 0; baseHi = 0; qLo = 0; qMid = 0; qHi = 0; count = 0;
    }
    if (p > high) high = p;
    if (p < low) low = p;
    close = p;
    count++;
    baseLo += q;
    const qh = Math.floor(q * INV_TWO_26);
    qLo += p * (q - qh * TWO_26);
    qMid += p * qh;
    if (baseLo >= TWO_52 || qLo >= TWO_52 || qMid >= TWO_52) {
      let c = Math.floor(baseLo * INV_TWO_26);
      baseLo -= c * TWO_26;
      baseHi += c;
      c = Math.floor(qLo * INV_TWO_26);
      qLo -= c * TWO_26;
      qMid += c;
      c = Math.floor(qMid * INV_TWO_26);
      qMid -= c * TWO_26;
      qHi += c;
    }
  }
  if (records[0] < -MAX_EPOCH_MS) throw new Error('time out of range');
  if (bad) throw new Error('prices and sizes must be whole numbers above zero');
  if (maxPrice >= TWO_26 || maxQty >= TWO_52) return null;
  candles.push(candle(openTime, open, high, low, close, baseLo, baseHi, qLo, qMid, qHi, count, ps, qs));
  return candles;
}

/** Exact and slow: BigInt sums, for values beyond the split-double range. */
function slow(records, ps, qs, interval, offsetMs) {
  const candles = [];
  let current = null;
  for (let i = 0; i < records.length; i += 3) {
    const t = records[i];
    const p = records[i + 1];
    const q = records[i + 2];
    if (current === null || t > current.closeTime) {
      if (current !== null) candles.push(current);
      const [openTime, closeTime] = bucket(t, interval, offsetMs);
      current = { openTime, closeTime, open: p, high: p, low: p, close: p, base: 0n, quote: 0n, count: 0 };
    }
    if (p > current.high) current.high = p;
    if (p < current.low) current.low = p;
    current.close = p;
    current.base += BigInt(q);
    current.quote += BigInt(p) * BigInt(q);
    current.count++;
  }
  if (current !== null) candles.push(current);
  return candles.map((c) => ({
    openTime: c.openTime,
    open: decimal(String(c.open), ps),
    high: decimal(String(c.high), ps),
    low: decimal(String(c.low), ps),
    close: decimal(String(c.close), ps),
    baseVolume: decimal(c.base.toString(), qs),
    quoteVolume: decimal(c.quote.toString(), ps + qs),
    tradeCount: c.count,
  }));
}

function stableSorted(records) {
  const n = records.length / 3;
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => records[3 * a] - records[3 * b] || a - b);
  const sorted = new Float64Array(records.length);
  order.forEach((from, to) => sorted.set(records.subarray(3 * from, 3 * from + 3), 3 * to));
  return sorted;
}

/** The candles of `records` at `interval` ("1m" … "1M") and the UTC offset `offsetMinutes`. */
export function aggregateTradesJs(records, priceScale, qtyScale, interval, offsetMinutes) {
  check(records, priceScale, qtyScale, offsetMinutes);
  if (interval === '1month') interval = '1M';
  if (FIXED[interval] === undefined && interval !== '1M') throw new Error(`unknown interval ${interval}`);
  const offsetMs = offsetMinutes * MIN;
  let result = fast(records, priceScale, qtyScale, interval, offsetMs);
  if (result === 'unsorted') {
    records = stableSorted(records);
    result = fast(records, priceScale, qtyScale, interval, offsetMs);
  }
  return result ?? slow(records, priceScale, qtyScale, interval, offsetMs);
}

// --- The numeric result of the wasm class KlineBuffer (wasm_core::kline::FixedCandle's layout):
// ten numbers per candle, [openTime, open, high, low, close, tradeCount, baseHi, baseLo, quoteHi,
// quoteLo], prices in units of 10^-priceScale, each volume an exact integer hi × 2^48 + lo in units of
// 10^-qtyScale (base) and 10^-(priceScale + qtyScale) (quote), below 2^96.

export const FIXED_CANDLE_FIELDS = 10;
const TWO_22 = 4_194_304;
const TWO_48 = 281_474_976_710_656;
const TWO_48N = 281_474_976_710_656n;
const TWO_96N = 1n << 96n;

/** Writes one candle's ten numbers at `at`; the volumes' three 26-bit limbs are regrouped exactly. */
function writeFixed(out, at, openTime, open, high, low, close, baseLo, baseHi, qLo, qMid, qHi, count) {
  // Normalize the limbs (each below 2^26 but the top one), then split at 2^48 = 2^26 × 2^22.
  let c = Math.floor(baseLo * INV_TWO_26);
  baseLo -= c * TWO_26;
  baseHi += c;
  c = Math.floor(qLo * INV_TWO_26);
  qLo -= c * TWO_26;
  qMid += c;
  c = Math.floor(qMid * INV_TWO_26);
  qMid -= c * TWO_26;
  qHi += c;
  const baseTop = Math.floor(baseHi / TWO_22);
  const quoteTop = Math.floor(qMid / TWO_22);
  const quoteHi = qHi * 16 + quoteTop;
  if (baseTop >= TWO_48 || quoteHi >= TWO_48) throw new Error('volume overflow');
  out[at] = openTime;
  out[at + 1] = open;
  out[at + 2] = high;
  out[at + 3] = low;
  out[at + 4] = close;
  out[at + 5] = count;
  out[at + 6] = baseTop;
  out[at + 7] = (baseHi - baseTop * TWO_22) * TWO_26 + baseLo;
  out[at + 8] = quoteHi;
  out[at + 9] = (qMid - quoteTop * TWO_22) * TWO_26 + qLo;
}

/** The fast loop of `fast` above with the numeric output: the same checks, exact volumes. */
function fastFixed(records, interval, offsetMs) {
  const n = records.length;
  let out = new Float64Array(FIXED_CANDLE_FIELDS * 1024);
  let len = 0;
  if (n === 0) return out.subarray(0, 0);
  let prev = records[0];
  let [openTime, closeTime] = bucket(prev, interval, offsetMs);
  closeTime = Math.min(closeTime, MAX_EPOCH_MS);
  let open = records[1];
  let high = open;
  let low = open;
  let close = open;
  let baseLo = 0;
  let baseHi = 0;
  let qLo = 0;
  let qMid = 0;
  let qHi = 0;
  let count = 0;
  let bad = false;
  let maxPrice = 0;
  let maxQty = 0;
  for (let i = 0; i < n; i += 3) {
    const t = records[i];
    const p = records[i + 1];
    const q = records[i + 2];
    if (t < prev) return 'unsorted';
    prev = t;
    bad = bad || !(p > 0 && q > 0 && Math.floor(p) === p && Math.floor(q) === q && Math.floor(t) === t);
    if (p > maxPrice) maxPrice = p;
    if (q > maxQty) maxQty = q;
    if (t > closeTime) {
      if (t > MAX_EPOCH_MS || t < -MAX_EPOCH_MS) throw new Error('time out of range');
      if (len === out.length) {
        const grown = new Float64Array(2 * out.length);
        grown.set(out);
        out = grown;
      }
      writeFixed(out, len, openTime, open, high, low, close, baseLo, baseHi, qLo, qMid, qHi, count);
      len += FIXED_CANDLE_FIELDS;
      [openTime, closeTime] = bucket(t, interval, offsetMs);
      closeTime = Math.min(closeTime, MAX_EPOCH_MS);
      open = p; high = p; low = p;
      baseLo = 0; baseHi = 0; qLo = 0; qMid = 0; qHi = 0; count = 0;
    }
    if (p > high) high = p;
    if (p < low) low = p;
    close = p;
    count++;
    baseLo += q;
    const qh = Math.floor(q * INV_TWO_26);
    qLo += p * (q - qh * TWO_26);
    qMid += p * qh;
    if (baseLo >= TWO_52 || qLo >= TWO_52 || qMid >= TWO_52) {
      let c = Math.floor(baseLo * INV_TWO_26);
      baseLo -= c * TWO_26;
      baseHi += c;
      c = Math.floor(qLo * INV_TWO_26);
      qLo -= c * TWO_26;
      qMid += c;
      c = Math.floor(qMid * INV_TWO_26);
      qMid -= c * TWO_26;
      qHi += c;
    }
  }
  if (records[0] < -MAX_EPOCH_MS) throw new Error('time out of range');
  if (bad) throw new Error('prices and sizes must be whole numbers above zero');
  if (maxPrice >= TWO_26 || maxQty >= TWO_52) return null;
  if (len === out.length) {
    const grown = new Float64Array(out.length + FIXED_CANDLE_FIELDS);
    grown.set(out);
    out = grown;
  }
  writeFixed(out, len, openTime, open, high, low, close, baseLo, baseHi, qLo, qMid, qHi, count);
  return out.subarray(0, len + FIXED_CANDLE_FIELDS);
}

/** The numeric candles of `slow`'s BigInt sums (values beyond the split-double range). */
function slowFixed(records, interval, offsetMs) {
  const candles = [];
  let current = null;
  for (let i = 0; i < records.length; i += 3) {
    const t = records[i];
    const p = records[i + 1];
    const q = records[i + 2];
    if (current === null || t > current.closeTime) {
      if (current !== null) candles.push(current);
      const [openTime, closeTime] = bucket(t, interval, offsetMs);
      current = { openTime, closeTime, open: p, high: p, low: p, close: p, base: 0n, quote: 0n, count: 0 };
    }
    if (p > current.high) current.high = p;
    if (p < current.low) current.low = p;
    current.close = p;
    current.base += BigInt(q);
    current.quote += BigInt(p) * BigInt(q);
    current.count++;
  }
  if (current !== null) candles.push(current);
  const out = new Float64Array(FIXED_CANDLE_FIELDS * candles.length);
  candles.forEach((c, i) => {
    if (c.base >= TWO_96N || c.quote >= TWO_96N) throw new Error('volume overflow');
    out.set([c.openTime, c.open, c.high, c.low, c.close, c.count,
      Number(c.base / TWO_48N), Number(c.base % TWO_48N), Number(c.quote / TWO_48N), Number(c.quote % TWO_48N)],
    FIXED_CANDLE_FIELDS * i);
  });
  return out;
}

/**
 * KlineBuffer.aggregate in plain JavaScript: the same records in, the same ten numbers per candle
 * out (a Float64Array), the same checks as `aggregateTradesJs`.
 */
export function aggregateTradesFixedJs(records, priceScale, qtyScale, interval, offsetMinutes) {
  check(records, priceScale, qtyScale, offsetMinutes);
  if (interval === '1month') interval = '1M';
  if (FIXED[interval] === undefined && interval !== '1M') throw new Error(`unknown interval ${interval}`);
  const offsetMs = offsetMinutes * MIN;
  let result = fastFixed(records, interval, offsetMs);
  if (result === 'unsorted') {
    records = stableSorted(records);
    result = fastFixed(records, interval, offsetMs);
  }
  return result ?? slowFixed(records, interval, offsetMs);
}

/**
 * The candle objects of `aggregateTradesPacked` from numeric candles (exact: the volumes through
 * BigInt), to compare both outputs; not timed.
 */
export function candlesFromFixed(fixed, priceScale, qtyScale) {
  const candles = [];
  const volume = (hi, lo, scale) => decimal((BigInt(hi) * TWO_48N + BigInt(lo)).toString(), scale);
  for (let i = 0; i < fixed.length; i += FIXED_CANDLE_FIELDS) {
    candles.push({
      openTime: fixed[i],
      open: decimal(String(fixed[i + 1]), priceScale),
      high: decimal(String(fixed[i + 2]), priceScale),
      low: decimal(String(fixed[i + 3]), priceScale),
      close: decimal(String(fixed[i + 4]), priceScale),
      baseVolume: volume(fixed[i + 6], fixed[i + 7], qtyScale),
      quoteVolume: volume(fixed[i + 8], fixed[i + 9], priceScale + qtyScale),
      tradeCount: fixed[i + 5],
    });
  }
  return candles;
}

// --- The integer input of KlineBuffer.aggregateIntegers: three little-endian int64 per trade
// [time, price, qty] (24 bytes, as in wasm memory), read here as 32-bit words, six per trade: the
// fastest way we found for plain JavaScript to read int64 (a BigInt64Array makes a BigInt per
// element). Each value is (lo >>> 0) + hi × 2^32 from one Int32Array, exact below 2^53 (the range
// the checks allow; beyond it the double still compares out of range). Tried and no faster: a
// Uint32Array for the low words beside an Int32Array for the high ones, and skipping the
// multiplication when a high word is 0. (Node's code for each is bimodal from one process to the
// next: 1.4 or 2.8 ms for 200k trades.)

const TWO_32 = 4_294_967_296;
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** `fastFixed` on 32-bit words: the same sums, the checks of integers (range, above zero, order). */
function fastFixedWords(w, n, interval, offsetMs) {
  let out = new Float64Array(FIXED_CANDLE_FIELDS * 1024);
  let len = 0;
  if (n === 0) return out.subarray(0, 0);
  let prev = w[1] * TWO_32 + (w[0] >>> 0);
  let [openTime, closeTime] = bucket(prev, interval, offsetMs);
  closeTime = Math.min(closeTime, MAX_EPOCH_MS);
  let open = w[3] * TWO_32 + (w[2] >>> 0);
  let high = open;
  let low = open;
  let close = open;
  let baseLo = 0;
  let baseHi = 0;
  let qLo = 0;
  let qMid = 0;
  let qHi = 0;
  let count = 0;
  let minPrice = open;
  let maxPrice = open;
  let minQty = MAX_SAFE;
  let maxQty = 0;
  const end = 6 * n;
  for (let i = 0; i < end; i += 6) {
    const t = w[i + 1] * TWO_32 + (w[i] >>> 0);
    const p = w[i + 3] * TWO_32 + (w[i + 2] >>> 0);
    const q = w[i + 5] * TWO_32 + (w[i + 4] >>> 0);
    if (t < prev) return 'unsorted';
    prev = t;
    if (q < minQty) minQty = q;
    if (q > maxQty) maxQty = q;
    if (t > closeTime) {
      if (t > MAX_EPOCH_MS || t < -MAX_EPOCH_MS) throw new Error('time out of range');
      if (len === out.length) {
        const grown = new Float64Array(2 * out.length);
        grown.set(out);
        out = grown;
      }
      writeFixed(out, len, openTime, open, high, low, close, baseLo, baseHi, qLo, qMid, qHi, count);
      len += FIXED_CANDLE_FIELDS;
      [openTime, closeTime] = bucket(t, interval, offsetMs);
      closeTime = Math.min(closeTime, MAX_EPOCH_MS);
      if (high > maxPrice) maxPrice = high;
      if (low < minPrice) minPrice = low;
      open = p; high = p; low = p;
      baseLo = 0; baseHi = 0; qLo = 0; qMid = 0; qHi = 0; count = 0;
    }
    if (p > high) high = p;
    if (p < low) low = p;
    close = p;
    count++;
    baseLo += q;
    const qh = Math.floor(q * INV_TWO_26);
    qLo += p * (q - qh * TWO_26);
    qMid += p * qh;
    if (baseLo >= TWO_52 || qLo >= TWO_52 || qMid >= TWO_52) {
      let c = Math.floor(baseLo * INV_TWO_26);
      baseLo -= c * TWO_26;
      baseHi += c;
      c = Math.floor(qLo * INV_TWO_26);
      qLo -= c * TWO_26;
      qMid += c;
      c = Math.floor(qMid * INV_TWO_26);
      qMid -= c * TWO_26;
      qHi += c;
    }
  }
  if (high > maxPrice) maxPrice = high;
  if (low < minPrice) minPrice = low;
  if (w[1] * TWO_32 + (w[0] >>> 0) < -MAX_EPOCH_MS) throw new Error('time out of range');
  if (minPrice <= 0 || minQty <= 0 || maxPrice > MAX_SAFE || maxQty > MAX_SAFE) {
    throw new Error('prices and sizes must be integers from 1 to 2^53 - 1');
  }
  if (maxPrice >= TWO_26 || maxQty >= TWO_52) return null;
  if (len === out.length) {
    const grown = new Float64Array(out.length + FIXED_CANDLE_FIELDS);
    grown.set(out);
    out = grown;
  }
  writeFixed(out, len, openTime, open, high, low, close, baseLo, baseHi, qLo, qMid, qHi, count);
  return out.subarray(0, len + FIXED_CANDLE_FIELDS);
}

/** The first `n` trades of the words as `[time, price, qty, …]` doubles (exact in range). */
function wordsToRecords(w, n) {
  const records = new Float64Array(3 * n);
  for (let i = 0; i < 3 * n; i++) {
    records[i] = w[2 * i + 1] * TWO_32 + (w[2 * i] >>> 0);
    if (Math.abs(records[i]) > MAX_SAFE) throw new Error('integers from -(2^53 - 1) to 2^53 - 1');
  }
  return records;
}

/**
 * KlineBuffer.aggregateIntegers in plain JavaScript: the first `n` trades of the int64 words in
 * `buffer` from `byteOffset` (the bytes of wasm memory that `tradeIntegers()` views), the same ten
 * numbers per candle out, reading them through an Int32Array over the same bytes.
 */
export function aggregateTradesIntegersJs(buffer, byteOffset, n, priceScale, qtyScale, interval, offsetMinutes) {
  const words = new Int32Array(buffer, byteOffset, 6 * n);
  checkArguments(priceScale, qtyScale, offsetMinutes);
  if (interval === '1month') interval = '1M';
  if (FIXED[interval] === undefined && interval !== '1M') throw new Error(`unknown interval ${interval}`);
  const offsetMs = offsetMinutes * MIN;
  const result = fastFixedWords(words, n, interval, offsetMs);
  if (result !== 'unsorted' && result !== null) return result;
  // Unsorted or beyond the split-double range: the number path on the same values.
  return aggregateTradesFixedJs(wordsToRecords(words, n), priceScale, qtyScale, interval, offsetMinutes);
}
