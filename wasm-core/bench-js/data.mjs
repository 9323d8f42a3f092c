// The benchmark's synthetic trades, step for step the generator of wasm-core/benches/kline.rs, so the
// node and the native benchmark aggregate the same data (their CHECK digests must agree).
//
// `n` BTC/USDT-like trades from 2024-01-01T00:00Z: 0 to 199 ms apart (about 10 a second, many in the
// same millisecond), the price a random walk of ±1.00 around 65,000.00 (2 decimals), the size mostly
// small and now and then up to 50 BTC (8 decimals). Returned packed as the wasm export takes them:
// one Float64Array, [time₀, price₀, qty₀, time₁, …], prices in cents, sizes in 10⁻⁸ BTC.

export const PRICE_SCALE = 2;
export const QTY_SCALE = 8;

/** mulberry32, as in the Rust benchmark. */
function mulberry32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

export function trades(n) {
  const next = mulberry32(0x5eed);
  const records = new Float64Array(n * 3);
  let time = 1_704_067_200_000;
  let price = 6_500_000;
  for (let i = 0; i < n; i++) {
    time += next() % 200;
    price = Math.min(Math.max(price + (next() % 201) - 100, 1_000_000), 20_000_000);
    let qty = ((next() % 1000) + 1) * ((next() % 1000) + 1) * 10;
    if (next() % 100 === 0) qty *= 500;
    records[3 * i] = time;
    records[3 * i + 1] = price;
    records[3 * i + 2] = qty;
  }
  return records;
}

/** 32-bit FNV-1a of a string's UTF-8 bytes (the candles' JSON is ASCII), as in the Rust benchmark. */
export function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  }
  return hash >>> 0;
}
