// The node side of `make bench` (scripts/bench.sh): in ONE node process, on the same data, the wasm
// build (wasm-core/pkg-node) against the fastest plain JavaScript we could write (kline-js.mjs),
// each repetition running every case once so that machine noise hits them alike; then the wasm
// order book formatting and liquidation price per call. Prints a table and `RESULT {json}` /
// `CHECK {json}` lines that scripts/bench.sh reads (the CHECK digests must equal the native ones).
//
//   node wasm-core/bench-js/bench.mjs [--quick]
// WASM_CORE_PKG=<dir> measures another nodejs build of the package (to compare two builds).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { PRICE_SCALE, QTY_SCALE, fnv1a, trades } from './data.mjs';
import {
  aggregateTradesFixedJs, aggregateTradesIntegersJs, aggregateTradesJs, candlesFromFixed,
} from './kline-js.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const pkgEntry = join(process.env.WASM_CORE_PKG ?? join(here, '..', 'pkg-node'), 'wasm_core.js');
if (!existsSync(pkgEntry)) {
  console.error(`${pkgEntry} is missing: run scripts/build-wasm.sh first`);
  process.exit(1);
}
const wasm = createRequire(import.meta.url)(pkgEntry);
const quick = process.argv.includes('--quick');

function result(name, n, times, unit = 'ms') {
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const min = sorted[0];
  console.log(`${name.padEnd(34)} ${String(n).padStart(9)} ${median.toFixed(3).padStart(11)} ${min.toFixed(3).padStart(11)} ${unit}`);
  console.log(`RESULT ${JSON.stringify({ name, n, reps: times.length, [`median${unit === 'ms' ? 'Ms' : 'Ns'}`]: median, [`min${unit === 'ms' ? 'Ms' : 'Ns'}`]: min })}`);
}

/** Runs every case once per repetition (after `warmup` rounds) and reports each case's times. */
function sideBySide(cases, n, warmup, reps) {
  for (let i = 0; i < warmup; i++) for (const c of cases) c.run();
  const times = cases.map(() => []);
  for (let r = 0; r < reps; r++) {
    cases.forEach((c, i) => {
      const start = performance.now();
      c.run();
      times[i].push(performance.now() - start);
    });
  }
  cases.forEach((c, i) => result(c.name, n, times[i]));
}

/** Writes `[time, price, qty, …]` numbers into a KlineBuffer's int64 view (not timed). */
function writeIntegers(buffer, records) {
  const view = buffer.tradeIntegers();
  for (let i = 0; i < records.length; i++) view[i] = BigInt(records[i]);
}

/** The JavaScript competitor of `aggregateIntegers` on the bytes a `tradeIntegers()` view covers. */
function integersJs(view, n, interval, offset) {
  return aggregateTradesIntegersJs(view.buffer, view.byteOffset, n, PRICE_SCALE, QTY_SCALE, interval, offset);
}

console.log(`${'node case'.padEnd(34)} ${'trades'.padStart(9)} ${'median'.padStart(11)} ${'min'.padStart(11)}`);

// --- Kline aggregation: wasm vs JavaScript, 1m candles.
// 200k trades (4.8 MB) stay in the caches; 1M and 5M are the issue's sizes.
const sizes = quick ? [200_000] : [200_000, 1_000_000, 5_000_000];
for (const n of sizes) {
  const records = trades(n);
  const fromWasm = wasm.aggregateTradesPacked(records, PRICE_SCALE, QTY_SCALE, '1m', 0);
  const json = JSON.stringify(fromWasm);
  assert.equal(JSON.stringify(aggregateTradesJs(records, PRICE_SCALE, QTY_SCALE, '1m', 0)), json,
    'the JavaScript candles differ from the wasm ones');
  console.log(`CHECK ${JSON.stringify({ n, candles: fromWasm.length, jsonLength: json.length, fnv1a: fnv1a(json) })}`);
  // The lean boundary (KlineBuffer): the trades written straight into wasm memory, numeric candles
  // read back from it; the plain-JavaScript competitor returns the same numbers. Both must decode to
  // exactly the candles above (so to the native digest too).
  let sink = 0;
  const freeLater = [];
  const buffer = typeof wasm.KlineBuffer === 'function' ? new wasm.KlineBuffer(n) : null;
  const fixedCases = [];
  if (buffer !== null) {
    buffer.trades().set(records);
    buffer.aggregate(n, PRICE_SCALE, QTY_SCALE, '1m', 0);
    const fromBuffer = buffer.candles().slice();
    assert.equal(JSON.stringify(candlesFromFixed(fromBuffer, PRICE_SCALE, QTY_SCALE)), json,
      'the KlineBuffer candles differ from the aggregateTradesPacked ones');
    assert.deepEqual(aggregateTradesFixedJs(records, PRICE_SCALE, QTY_SCALE, '1m', 0), fromBuffer,
      'the JavaScript numeric candles differ from the KlineBuffer ones');
    console.log(`CHECK ${JSON.stringify({ n, fixedCandlesEqual: true })}`);
    // The same trades as int64 in a second buffer (written through its BigInt64Array view, untimed).
    if (typeof wasm.KlineBuffer.prototype.aggregateIntegers === 'function') {
      const integers = new wasm.KlineBuffer(n);
      writeIntegers(integers, records);
      integers.aggregateIntegers(n, PRICE_SCALE, QTY_SCALE, '1m', 0);
      assert.deepEqual(integers.candles().slice(), fromBuffer,
        'the KlineBuffer integer candles differ from the number ones');
      const words = () => integers.tradeIntegers();
      assert.deepEqual(integersJs(words(), n, '1m', 0), fromBuffer,
        'the JavaScript candles of integers differ from the KlineBuffer ones');
      console.log(`CHECK ${JSON.stringify({ n, integerCandlesEqual: true })}`);
      fixedCases.push(
        {
          // The int64 trades already in wasm memory: no conversion.
          name: 'wasm.KlineBuffer.aggregateIntegers',
          run: () => {
            const count = integers.aggregateIntegers(n, PRICE_SCALE, QTY_SCALE, '1m', 0);
            const candles = integers.candles();
            sink += count + candles[candles.length - 1];
          },
        },
        {
          // The same bytes of wasm memory read by JavaScript as 32-bit words.
          name: 'js.aggregateTradesIntegersJs',
          run: () => {
            const candles = integersJs(words(), n, '1m', 0);
            sink += candles.length / 10 + candles[candles.length - 1];
          },
        },
      );
      freeLater.push(integers);
    }
    fixedCases.push(
      {
        // The trades are already in wasm memory (written there by whoever produced them).
        name: 'wasm.KlineBuffer.aggregate',
        run: () => {
          const count = buffer.aggregate(n, PRICE_SCALE, QTY_SCALE, '1m', 0);
          const candles = buffer.candles();
          sink += count + candles[candles.length - 1];
        },
      },
      {
        // The same with the trades copied in first, as a caller holding a Float64Array would.
        name: 'wasm.KlineBuffer.copy_and_aggregate',
        run: () => {
          buffer.trades().set(records);
          const count = buffer.aggregate(n, PRICE_SCALE, QTY_SCALE, '1m', 0);
          const candles = buffer.candles();
          sink += count + candles[candles.length - 1];
        },
      },
      {
        name: 'js.aggregateTradesFixedJs',
        run: () => {
          const candles = aggregateTradesFixedJs(records, PRICE_SCALE, QTY_SCALE, '1m', 0);
          sink += candles.length / 10 + candles[candles.length - 1];
        },
      },
    );
  }
  sideBySide([
    ...fixedCases,
    {
      // The JavaScript memory-scan floor: reading every number once (three sums, so that no
      // chain of dependent float additions limits it).
      name: 'node.scan_floor_f64',
      run: () => {
        let a = 0;
        let b = 0;
        let c = 0;
        for (let i = 0; i < records.length; i += 3) {
          a += records[i];
          b += records[i + 1];
          c += records[i + 2];
        }
        sink += a + b + c;
      },
    },
    { name: 'wasm.aggregateTradesPacked', run: () => { sink += wasm.aggregateTradesPacked(records, PRICE_SCALE, QTY_SCALE, '1m', 0).length; } },
    { name: 'js.aggregateTradesJs', run: () => { sink += aggregateTradesJs(records, PRICE_SCALE, QTY_SCALE, '1m', 0).length; } },
  ], n, 3, n <= 1_000_000 ? 21 : 9);
  buffer?.free();
  for (const other of freeLater) other.free();
  if (sink === 0.5) console.log(sink);
}

// Every interval and a few offsets agree too (on fewer trades).
{
  const records = trades(300_000);
  for (const interval of ['1m', '5m', '15m', '30m', '1h', '2h', '4h', '1d', '1w', '1M']) {
    for (const offset of [0, 345, -570]) {
      assert.equal(
        JSON.stringify(aggregateTradesJs(records, PRICE_SCALE, QTY_SCALE, interval, offset)),
        JSON.stringify(wasm.aggregateTradesPacked(records, PRICE_SCALE, QTY_SCALE, interval, offset)),
        `${interval} at ${offset}`,
      );
      if (typeof wasm.KlineBuffer === 'function') {
        const buffer = new wasm.KlineBuffer(records.length / 3);
        buffer.trades().set(records);
        buffer.aggregate(records.length / 3, PRICE_SCALE, QTY_SCALE, interval, offset);
        const fromBuffer = buffer.candles().slice();
        assert.deepEqual(aggregateTradesFixedJs(records, PRICE_SCALE, QTY_SCALE, interval, offset),
          fromBuffer, `KlineBuffer ${interval} at ${offset}`);
        buffer.free();
        if (typeof wasm.KlineBuffer.prototype.aggregateIntegers === 'function') {
          const integers = new wasm.KlineBuffer(records.length / 3);
          writeIntegers(integers, records);
          integers.aggregateIntegers(records.length / 3, PRICE_SCALE, QTY_SCALE, interval, offset);
          assert.deepEqual(integers.candles().slice(), fromBuffer, `aggregateIntegers ${interval} at ${offset}`);
          assert.deepEqual(integersJs(integers.tradeIntegers(), records.length / 3, interval, offset), fromBuffer,
            `aggregateTradesIntegersJs ${interval} at ${offset}`);
          integers.free();
        }
      }
    }
  }
  console.log('CHECK {"allIntervalsEqual":true}');
}

// --- Formatting 1,000 order book rows in one call (500 bids, 500 asks).
if (typeof wasm.formatOrderBook === 'function') {
  const bids = [];
  const asks = [];
  for (let i = 0; i < 500; i++) {
    bids.push([(65_000 - i * 0.5).toFixed(2), (0.001 * ((i * 37) % 997 + 1)).toFixed(5)]);
    asks.push([(65_000.5 + i * 0.5).toFixed(2), (0.001 * ((i * 53) % 991 + 1)).toFixed(5)]);
  }
  const input = { bids, asks, pricePrecision: 2, quantityPrecision: 4 };
  const view = wasm.formatOrderBook(input);
  assert.equal(view.bids.length + view.asks.length, 1000, 'formatOrderBook keeps all 1,000 rows');
  const times = [];
  for (let i = 0; i < 50; i++) wasm.formatOrderBook(input);
  for (let i = 0; i < (quick ? 51 : 201); i++) {
    const start = performance.now();
    wasm.formatOrderBook(input);
    times.push(performance.now() - start);
  }
  result('wasm.formatOrderBook_1000_rows', 1000, times);
  // The variant for the socket's depth message as it arrives (JSON text in, one string per side out).
  if (typeof wasm.formatOrderBookPacked === 'function') {
    const message = JSON.stringify({ e: 'depthUpdate', bids, asks });
    const options = { pricePrecision: 2, quantityPrecision: 4 };
    const packed = wasm.formatOrderBookPacked(message, options);
    assert.equal(packed.bids.split('\n').length + packed.asks.split('\n').length, 1000);
    const packedTimes = [];
    for (let i = 0; i < 50; i++) wasm.formatOrderBookPacked(message, options);
    for (let i = 0; i < (quick ? 51 : 201); i++) {
      const start = performance.now();
      wasm.formatOrderBookPacked(message, options);
      packedTimes.push(performance.now() - start);
    }
    result('wasm.formatOrderBookPacked_1000_rows', 1000, packedTimes);
  }
} else {
  console.log('GAP {"name":"wasm.formatOrderBook","reason":"not exported by the wasm build"}');
}

/** The decimal text of `mantissa × 10^−scale` as the core writes it (no trailing zeros), `null` for 0
 * (liquidationPriceScaled's "no liquidation price"); `mantissa` a positive safe integer. */
function formatScaled(mantissa, scale) {
  if (mantissa === 0) return null;
  const digits = String(mantissa).padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

// --- Liquidation price, per call.
if (typeof wasm.liquidationPrice === 'function') {
  const input = {
    position: { side: 'long', size: '1', entryPrice: '50000', leverage: '10', marginMode: 'isolated', walletBalance: '5000' },
    tiers: [
      { notionalFloor: '0', notionalCap: '50000', maxLeverage: '125', mmr: '0.004', cum: '0' },
      { notionalFloor: '50000', notionalCap: '250000', maxLeverage: '100', mmr: '0.005', cum: '50' },
      { notionalFloor: '250000', notionalCap: '1000000', maxLeverage: '50', mmr: '0.01', cum: '1300' },
      { notionalFloor: '1000000', notionalCap: '10000000', maxLeverage: '20', mmr: '0.025', cum: '16300' },
      { notionalFloor: '10000000', notionalCap: '20000000', maxLeverage: '10', mmr: '0.05', cum: '266300' },
    ],
    tickSize: '0.01',
  };
  assert.equal(wasm.liquidationPrice(input), '45180.72');
  const calls = 2000;
  const times = [];
  for (let i = 0; i < 5 * calls; i++) wasm.liquidationPrice(input);
  for (let r = 0; r < (quick ? 11 : 41); r++) {
    const start = performance.now();
    for (let i = 0; i < calls; i++) wasm.liquidationPrice(input);
    times.push(((performance.now() - start) * 1e6) / calls);
  }
  result('wasm.liquidationPrice_per_call', 1, times, 'ns');

  // The same position through a MarginCalculator built once for the table, side by side (each
  // repetition runs every case once): nine strings, and numbers (liquidationPriceScaled: mantissas
  // and scales in, the price's mantissa out), that last one also with the string a display needs
  // made in JavaScript (formatScaled).
  if (typeof wasm.MarginCalculator === 'function') {
    const calculator = new wasm.MarginCalculator(input.tiers);
    const p = input.position;
    const cases = [
      ['wasm.MarginCalculator.liquidationPrice_per_call', () => calculator.liquidationPrice(p.side, p.size,
        p.entryPrice, p.leverage, p.walletBalance, p.marginMode, undefined, undefined, input.tickSize), '45180.72'],
    ];
    if (typeof calculator.liquidationPriceScaled === 'function') {
      // long 1 at 50000, 10x, isolated 5000, tick 0.01: every decimal as (mantissa, scale).
      const scaled = () => calculator.liquidationPriceScaled(1, false, 1, 0, 50000, 0, 10, 0, 5000, 0,
        undefined, 0, undefined, 0, 1, 2);
      cases.push(['wasm.MarginCalculator.liquidationPriceScaled_per_call', scaled, 4518072]);
      cases.push(['wasm.MarginCalculator.liquidationPriceScaled_formatted_per_call',
        () => formatScaled(scaled(), 2), '45180.72']);

      // 64 different isolated positions, one per call in turn (size 0.001-100 with 3 decimals,
      // entry 100.00-100,000.00, leverage 1-125, margin size × entry / leverage to the cent, tick
      // 0.01; some cross tiers, some re-check), as strings and as numbers; each pair must agree.
      let seed = 0x11d;
      const random = () => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        return seed / 2147483648;
      };
      const mixed = Array.from({ length: 64 }, () => {
        const sizeM = 1 + Math.floor(random() * 100_000);
        const entryM = 10_000 + Math.floor(random() * 9_990_000);
        const leverage = 1 + Math.floor(random() * 125);
        const marginM = Math.round((sizeM * entryM) / leverage / 1000);
        const text = (m, scale) => formatScaled(m, scale) ?? '0';
        return {
          side: random() < 0.5 ? 1 : -1, sizeM, entryM, leverage, marginM,
          strings: [text(sizeM, 3), text(entryM, 2), String(leverage), text(marginM, 2)],
        };
      });
      const stringCall = (m) => calculator.liquidationPrice(m.side === 1 ? 'long' : 'short', m.strings[0],
        m.strings[1], m.strings[2], m.strings[3], 'isolated', undefined, undefined, '0.01');
      const scaledCall = (m) => calculator.liquidationPriceScaled(m.side, false, m.sizeM, 3, m.entryM, 2,
        m.leverage, 0, m.marginM, 2, undefined, 0, undefined, 0, 1, 2);
      for (const m of mixed) assert.equal(formatScaled(scaledCall(m), 2), stringCall(m), JSON.stringify(m));
      let k = 0;
      cases.push(['wasm.MarginCalculator.liquidationPrice_mixed_per_call', () => stringCall(mixed[k++ & 63]),
        undefined]);
      cases.push(['wasm.MarginCalculator.liquidationPriceScaled_mixed_per_call',
        () => scaledCall(mixed[k++ & 63]), undefined]);
    }
    const times = cases.map(() => []);
    for (const [name, call, expected] of cases) {
      if (expected !== undefined) assert.equal(call(), expected, name);
      for (let i = 0; i < 5 * calls; i++) call();
    }
    for (let r = 0; r < (quick ? 11 : 41); r++) {
      cases.forEach(([, call], c) => {
        const start = performance.now();
        for (let i = 0; i < calls; i++) call();
        times[c].push(((performance.now() - start) * 1e6) / calls);
      });
    }
    cases.forEach(([name], c) => result(name, 1, times[c], 'ns'));
    calculator.free();
  }
} else {
  console.log('GAP {"name":"wasm.liquidationPrice","reason":"not exported by the wasm build"}');
}
