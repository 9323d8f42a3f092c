//! The built-in market simulator: the embedded default market source.
//!
//! Per pair, a seeded and therefore reproducible price process with what real markets show:
//! volatility clustering (GARCH(1,1) on the per-tick return, its long-run variance set by the
//! pair's daily volatility), occasional jumps (about one a day, a fifth of a daily move), prices
//! on the pair's tick size, and trades of log-normal size at a rate comparable to a liquid venue.
//!
//! The random process works in `f64` (it draws returns, it holds no money); every price it
//! produces is a `Decimal` rounded to the tick size, and everything stored or sent is that decimal.
//!
//! At start the last 24 hours are filled minute by minute from the same process, ending at the
//! last stored price (or the pair's reference price on a new installation), so the 24h figures
//! are meaningful at once; from then on every tick is stored in `market_tick` and published.

use std::{collections::VecDeque, sync::Arc, time::Duration};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_decimal::{Decimal, RoundingStrategy};
use sea_orm::{
    ActiveValue::{NotSet, Set},
    ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder,
};
use tokio::sync::watch;

use wasm_core::{
    CoreError,
    kline::{Candle, RollingDay},
};

use crate::clock::now_ms;
use crate::entity::{coin, market_tick};
use crate::market::book::{BookDiff, BookSnapshot, SimBook};
use crate::market::candles;
use crate::market::hub::{Detail, Side, Trade};
use crate::market::live_kline::{self, LiveKlines};
use crate::market::{Listing, MarketHub, Ticker};

const MINUTE_MS: i64 = 60_000;
const DAY_MINUTES: usize = 1440;
const DAY_MS: f64 = 86_400_000.0;
/// How far the mark price may stray from the index (0.5 %).
const MARK_BAND: Decimal = Decimal::from_parts(5, 0, 0, false, 3);
/// Mixed into the seed of the order books' random streams.
const BOOK_SEED: u64 = 0x6b6f_6f62;
/// How often the running simulator looks for pairs listed by an operator (`backend add-coin`).
pub const LISTING_POLL: Duration = Duration::from_secs(2);
/// GARCH(1,1) reaction to the last shock.
const GARCH_ALPHA: f64 = 0.08;
/// GARCH(1,1) persistence of the variance.
const GARCH_BETA: f64 = 0.90;
/// Expected jumps per day.
const JUMPS_PER_DAY: f64 = 1.0;
/// Standard deviation of a jump, as a share of the daily volatility.
const JUMP_SCALE: f64 = 0.2;
/// Trades per second on a pair.
const TRADES_PER_SECOND: f64 = 6.0;
/// Median trade size in the quote asset.
const MEDIAN_TRADE_QUOTE: f64 = 350.0;
/// Spread of trade sizes (σ of their logarithm).
const TRADE_SIZE_SIGMA: f64 = 1.1;

/// What a pair's process starts from.
#[derive(Debug, Clone)]
pub struct PairSpec {
    /// The coin id of the listing.
    pub coin_id: i32,
    /// Pair id.
    pub symbol: String,
    /// Price the process starts from.
    pub start_price: Decimal,
    /// Smallest price increment.
    pub tick_size: Decimal,
    /// Smallest quantity increment.
    pub step_size: Decimal,
    /// Daily volatility as a fraction.
    pub daily_volatility: f64,
    /// Sequence number of the last stored tick (0 if none).
    pub last_seq: i64,
    /// The stored 1m candles of the last 24 hours, oldest first (empty on a new installation).
    pub recent_candles: Vec<Candle>,
    /// The closed minutes of every interval's current bucket, folded (from the stored candles).
    pub live_klines: LiveKlines,
}

/// What one tick produced.
#[derive(Debug, Clone, PartialEq)]
pub struct Tick {
    /// The 1m candle this tick closed, when it opened a new minute.
    pub closed: Option<Candle>,
    /// Position in the pair's series.
    pub seq: i64,
    /// Last price.
    pub price: Decimal,
    /// Base volume traded during the tick.
    pub volume: Decimal,
    /// Number of trades during the tick.
    pub trade_count: u32,
    /// Time, epoch milliseconds.
    pub ts_ms: i64,
    /// The trades of the tick, oldest first (their quantities sum to `volume`).
    pub trades: Vec<Trade>,
    /// How the order book changed.
    pub book: BookDiff,
    /// The candles of longer intervals that the closed minute completed.
    pub completed: Vec<(wasm_core::kline::Interval, Candle)>,
}

/// One pair's price process and its rolling 24-hour window.
pub struct PairProcess {
    spec: PairSpec,
    rng: ChaCha8Rng,
    price: Decimal,
    variance: f64,
    long_run_variance: f64,
    last_shock: f64,
    tick_days: f64,
    seq: i64,
    /// The 1m candles of the last 24 hours (and the live minute), oldest first.
    bars: VecDeque<Candle>,
    /// The 24-hour statistics of `bars`, summed once a minute and then only the live minute.
    day: RollingDay,
    /// The simulated order book around the price.
    book: SimBook,
    /// The book's own random stream, so the price path does not depend on the book.
    book_rng: ChaCha8Rng,
    /// The id of the last trade.
    last_trade_id: u64,
    /// The live candle of every interval.
    klines: LiveKlines,
}

impl PairProcess {
    /// A process for `spec`, seeded from `seed` and the pair, stepping every `tick_ms`.
    pub fn new(spec: PairSpec, seed: u64, tick_ms: u64) -> Self {
        let tick_days = tick_ms.max(1) as f64 / DAY_MS;
        let long_run_variance = spec.daily_volatility.powi(2) * tick_days;
        let rng = ChaCha8Rng::seed_from_u64(mix_seed(seed, &spec.symbol, spec.last_seq));
        let book_rng =
            ChaCha8Rng::seed_from_u64(mix_seed(seed ^ BOOK_SEED, &spec.symbol, spec.last_seq));
        let bars = spec.recent_candles.iter().copied().collect();
        Self {
            klines: spec.live_klines.clone(),
            book: SimBook::new(spec.start_price, spec.tick_size, spec.step_size),
            book_rng,
            // Trade ids continue from the tick sequence (at most 1024 trades a tick).
            last_trade_id: (spec.last_seq.max(0) as u64) << 10,
            price: spec.start_price,
            seq: spec.last_seq,
            rng,
            variance: long_run_variance,
            long_run_variance,
            last_shock: 0.0,
            tick_days,
            bars,
            day: RollingDay::new(),
            spec,
        }
    }

    /// Whether the process already holds candles (stored ones, or a backfill).
    pub fn has_history(&self) -> bool {
        !self.bars.is_empty()
    }

    /// Fills the 24 hours before `now_ms` minute by minute so that they end at the current price.
    pub fn backfill(&mut self, now_ms: i64) {
        let minute_days = 1.0 / DAY_MINUTES as f64;
        let minute_variance = self.spec.daily_volatility.powi(2) * minute_days;
        let mut log_prices = Vec::with_capacity(DAY_MINUTES + 1);
        let mut log_price = 0.0;
        let mut variance = minute_variance;
        let mut shock: f64 = 0.0;
        log_prices.push(log_price);
        for _ in 0..DAY_MINUTES {
            variance = minute_variance * (1.0 - GARCH_ALPHA - GARCH_BETA)
                + GARCH_ALPHA * shock.powi(2)
                + GARCH_BETA * variance;
            shock = variance.sqrt() * standard_normal(&mut self.rng);
            log_price += shock + self.jump(minute_days);
            log_prices.push(log_price);
        }
        // Shift the path so that it ends exactly where the live series continues.
        let end = *log_prices.last().unwrap_or(&0.0);
        let first_minute = now_ms - now_ms.rem_euclid(MINUTE_MS) - DAY_MINUTES as i64 * MINUTE_MS;
        self.bars.clear();
        self.day = RollingDay::new();
        for minute in 0..DAY_MINUTES {
            let open = self.price_at(log_prices[minute] - end);
            let close = self.price_at(log_prices[minute + 1] - end);
            let (base_volume, quote_volume) = self.minute_volume(close);
            self.bars.push_back(Candle {
                open_time: first_minute + minute as i64 * MINUTE_MS,
                open,
                high: open.max(close),
                low: open.min(close),
                close,
                base_volume,
                quote_volume,
                trade_count: poisson(&mut self.rng, TRADES_PER_SECOND * 60.0).into(),
            });
        }
    }

    /// Advances the process by one tick at `now_ms`.
    pub fn step(&mut self, now_ms: i64) -> Tick {
        self.variance = self.long_run_variance * (1.0 - GARCH_ALPHA - GARCH_BETA)
            + GARCH_ALPHA * self.last_shock.powi(2)
            + GARCH_BETA * self.variance;
        self.last_shock = self.variance.sqrt() * standard_normal(&mut self.rng);
        let log_return = self.last_shock + self.jump(self.tick_days);
        let next = self.price_at(log_return);
        let previous = self.price;
        // A pair never trades at zero: the floor is one tick.
        self.price = next.max(self.spec.tick_size);
        let count = poisson(&mut self.rng, TRADES_PER_SECOND * self.tick_days * 86_400.0).min(1000);
        self.seq += 1;
        let trades = self.trades(count, previous, now_ms);
        let volume: Decimal = trades.iter().map(|t| t.quantity).sum();
        let quote_volume: Decimal = trades
            .iter()
            .map(|t| t.quantity * t.price)
            .sum::<Decimal>()
            .round_dp(8);
        let closed = self.record(now_ms, volume, quote_volume, count);
        let completed = closed
            .as_ref()
            .map(|minute| self.klines.close_minute(minute))
            .unwrap_or_default();
        let book = self.book.update(self.price, now_ms, &mut self.book_rng);
        Tick {
            closed,
            seq: self.seq,
            price: self.price,
            volume,
            trade_count: count,
            ts_ms: now_ms,
            trades,
            book,
            completed,
        }
    }

    /// The live candle of every interval (empty before the first tick).
    pub fn live_klines(&self) -> Vec<(wasm_core::kline::Interval, Candle)> {
        self.live_candle()
            .map(|live| self.klines.current(&live))
            .unwrap_or_default()
    }

    /// Mark and index prices and the top of the book now.
    pub fn detail(&self, ts: i64) -> Detail {
        let book = self.book.snapshot();
        let best_bid = book.bids.first().map(|l| l.price);
        let best_ask = book.asks.first().map(|l| l.price);
        let index = self.price;
        let band = (index * MARK_BAND).round_dp(12);
        let mid = match (best_bid, best_ask) {
            (Some(bid), Some(ask)) => (bid + ask) / Decimal::TWO,
            _ => index,
        };
        let mark = round_to_step(mid.clamp(index - band, index + band), self.spec.tick_size);
        Detail {
            last_price: self.price,
            index_price: index,
            mark_price: mark,
            best_bid,
            best_ask,
            ts,
        }
    }

    /// The book as of the last step.
    pub fn book(&self) -> BookSnapshot {
        self.book.snapshot()
    }

    /// `count` trades walking from `from` to the new price (the last one at it), each with a
    /// log-normal size; a trade above the one before is a buy, below a sell, level a coin toss.
    fn trades(&mut self, count: u32, from: Decimal, ts: i64) -> Vec<Trade> {
        let mut trades = Vec::with_capacity(count as usize);
        let mut last = from;
        for i in 1..=count {
            let share = Decimal::from(i) / Decimal::from(count);
            let price = round_to_step(from + (self.price - from) * share, self.spec.tick_size)
                .max(self.spec.tick_size);
            let quote =
                MEDIAN_TRADE_QUOTE * (TRADE_SIZE_SIGMA * standard_normal(&mut self.rng)).exp();
            let quantity = round_to_step(
                Decimal::try_from(quote).unwrap_or_default() / price,
                self.spec.step_size,
            )
            .max(self.spec.step_size);
            let side = match price.cmp(&last) {
                std::cmp::Ordering::Greater => Side::Buy,
                std::cmp::Ordering::Less => Side::Sell,
                std::cmp::Ordering::Equal if self.rng.random::<bool>() => Side::Buy,
                std::cmp::Ordering::Equal => Side::Sell,
            };
            last = price;
            self.last_trade_id += 1;
            trades.push(Trade {
                id: self.last_trade_id,
                price,
                quantity,
                side,
                ts,
            });
        }
        trades
    }

    /// The 24-hour ticker as of the last step, computed from the 1m candles by wasm-core's
    /// `RollingDay` (the same result as its `rolling_24h`, which the webapp uses; the closed
    /// minutes are summed once a minute instead of every tick).
    pub fn ticker(&mut self, now_ms: i64) -> Result<Ticker, CoreError> {
        let day = self.day.update(self.bars.make_contiguous(), now_ms)?;
        Ok(match day {
            Some(day) => Ticker {
                close: self.price,
                open: day.open_price,
                high: day.high_price,
                low: day.low_price,
                volume: day.base_asset_volume,
                quote_volume: day.quote_asset_volume.round_dp(2),
                trade_count: day.total_number_of_trades,
                ts: now_ms,
            },
            None => Ticker {
                close: self.price,
                open: self.price,
                high: self.price,
                low: self.price,
                volume: Decimal::ZERO,
                quote_volume: Decimal::ZERO,
                trade_count: 0,
                ts: now_ms,
            },
        })
    }

    /// Publishes the pair's ticker to `hub`; a window the core refuses is logged, not published.
    fn publish_ticker(&mut self, hub: &MarketHub, now_ms: i64) {
        match self.ticker(now_ms) {
            Ok(ticker) => hub.publish_ticker(&self.spec.symbol, ticker),
            Err(error) => tracing::error!(symbol = %self.spec.symbol, ?error, "24h window refused"),
        }
    }

    /// The pair's id.
    pub fn symbol(&self) -> &str {
        &self.spec.symbol
    }

    /// Adds the tick to its minute's candle; returns the previous minute's candle when this tick
    /// opens a new minute.
    fn record(
        &mut self,
        now_ms: i64,
        volume: Decimal,
        quote_volume: Decimal,
        trades: u32,
    ) -> Option<Candle> {
        let minute = now_ms - now_ms.rem_euclid(MINUTE_MS);
        let closed = self
            .bars
            .back()
            .filter(|bar| bar.open_time < minute)
            .copied();
        match self.bars.back_mut() {
            Some(bar) if bar.open_time == minute => {
                bar.high = bar.high.max(self.price);
                bar.low = bar.low.min(self.price);
                bar.close = self.price;
                bar.base_volume += volume;
                bar.quote_volume += quote_volume;
                bar.trade_count += u64::from(trades);
            }
            _ => self.bars.push_back(Candle {
                open_time: minute,
                open: self.price,
                high: self.price,
                low: self.price,
                close: self.price,
                base_volume: volume,
                quote_volume,
                trade_count: u64::from(trades),
            }),
        }
        let window_start = minute - DAY_MINUTES as i64 * MINUTE_MS;
        while self
            .bars
            .front()
            .is_some_and(|bar| bar.open_time <= window_start)
        {
            self.bars.pop_front();
        }
        closed
    }

    /// The candle of the current minute, still growing.
    pub fn live_candle(&self) -> Option<Candle> {
        self.bars.back().copied()
    }

    /// A jump return over `days`, usually zero.
    fn jump(&mut self, days: f64) -> f64 {
        if self.rng.random::<f64>() < JUMPS_PER_DAY * days {
            JUMP_SCALE * self.spec.daily_volatility * standard_normal(&mut self.rng)
        } else {
            0.0
        }
    }

    /// The current price moved by `log_return`, on the tick size.
    fn price_at(&self, log_return: f64) -> Decimal {
        let factor = Decimal::try_from(log_return.exp()).unwrap_or(Decimal::ONE);
        round_to_step(self.price * factor, self.spec.tick_size).max(self.spec.tick_size)
    }

    /// Base and quote volume of a whole minute at `price`, drawn at once: the expected turnover
    /// of a minute of log-normal trades, with a log-normal spread across minutes.
    fn minute_volume(&mut self, price: Decimal) -> (Decimal, Decimal) {
        let mean_trade_quote = MEDIAN_TRADE_QUOTE * (TRADE_SIZE_SIGMA.powi(2) / 2.0).exp();
        let quote = TRADES_PER_SECOND
            * 60.0
            * mean_trade_quote
            * (0.35 * standard_normal(&mut self.rng)).exp();
        let volume = round_to_step(
            Decimal::try_from(quote).unwrap_or_default() / price,
            self.spec.step_size,
        );
        (volume, (volume * price).round_dp(8))
    }
}

/// `value` rounded to the nearest multiple of `step`.
pub fn round_to_step(value: Decimal, step: Decimal) -> Decimal {
    if step <= Decimal::ZERO {
        return value;
    }
    ((value / step).round_dp_with_strategy(0, RoundingStrategy::MidpointNearestEven) * step)
        .normalize()
}

fn mix_seed(seed: u64, symbol: &str, last_seq: i64) -> u64 {
    // FNV-1a over the symbol, so every pair has its own stream from one configured seed.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in symbol.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    seed ^ hash ^ (last_seq as u64).rotate_left(32)
}

/// A standard normal draw (Box–Muller).
fn standard_normal(rng: &mut ChaCha8Rng) -> f64 {
    let u1: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
    let u2: f64 = rng.random();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// A Poisson draw with mean `lambda` (Knuth; the means used here are small).
fn poisson(rng: &mut ChaCha8Rng, lambda: f64) -> u32 {
    if lambda > 60.0 {
        // Normal approximation for large means (minute bars of the backfill).
        let draw = lambda + lambda.sqrt() * standard_normal(rng);
        return draw.round().max(0.0) as u32;
    }
    let limit = (-lambda).exp();
    let mut product: f64 = rng.random();
    let mut count = 0;
    while product > limit {
        product *= rng.random::<f64>();
        count += 1;
    }
    count
}

/// Reads the listed pairs and where each series stopped.
pub async fn load_pairs(db: &DatabaseConnection) -> Result<Vec<PairSpec>, sea_orm::DbErr> {
    let coins = coin::Entity::find()
        .order_by_asc(coin::Column::Sort)
        .all(db)
        .await?;
    let mut pairs = Vec::with_capacity(coins.len());
    for coin in coins {
        if let Some(spec) = pair_spec(db, coin).await? {
            pairs.push(spec);
        }
    }
    Ok(pairs)
}

/// What the process of `coin` starts from: its last stored tick and day of candles.
async fn pair_spec(
    db: &DatabaseConnection,
    coin: coin::Model,
) -> Result<Option<PairSpec>, sea_orm::DbErr> {
    let last = market_tick::Entity::find()
        .filter(market_tick::Column::Symbol.eq(&coin.symbol))
        .order_by_desc(market_tick::Column::Seq)
        .one(db)
        .await?;
    let parse = |value: &str| wasm_core::money::parse_decimal(value).ok();
    let (Some(reference), Some(tick_size), Some(step_size)) = (
        parse(&coin.reference_price),
        parse(&coin.tick_size),
        parse(&coin.step_size),
    ) else {
        tracing::error!(symbol = %coin.symbol, "pair has unreadable decimals; not simulated");
        return Ok(None);
    };
    let start_price = last
        .as_ref()
        .and_then(|tick| parse(&tick.price))
        .unwrap_or(reference);
    let now = now_ms();
    let day_ago = now - DAY_MINUTES as i64 * MINUTE_MS;
    let since = live_kline::history_start(now).min(day_ago);
    let (live_klines, recent_candles) = match candles::load_since(db, &coin.symbol, since).await {
        Ok(stored) => {
            // The newest stored minute may be the one that was growing at the last stop; it is
            // continued, so only the minutes before it are closed.
            let closed = stored.len().saturating_sub(1);
            let klines = LiveKlines::from_minutes(&stored[..closed]);
            let recent = stored
                .into_iter()
                .filter(|c| c.open_time >= day_ago)
                .collect();
            (klines, recent)
        }
        Err(candles::CandleError::Db(error)) => return Err(error),
        Err(error) => {
            tracing::error!(symbol = %coin.symbol, %error, "stored candles ignored");
            (LiveKlines::default(), Vec::new())
        }
    };
    Ok(Some(PairSpec {
        recent_candles,
        live_klines,
        coin_id: coin.id,
        symbol: coin.symbol,
        start_price,
        tick_size,
        step_size,
        daily_volatility: coin.daily_volatility.parse().unwrap_or(0.03),
        last_seq: last.map_or(0, |tick| tick.seq),
    }))
}

/// Takes the simulated book of a pair every tick in place of the hub: the spot registry, whose
/// house market maker quotes it and which publishes the real book instead.
pub trait QuoteSink: Send + Sync {
    /// The simulated `book` and last `price` of `symbol`; `true` when the sink publishes the pair's
    /// depth itself (the simulator then does not).
    fn quote(&self, symbol: &str, book: &BookSnapshot, price: Decimal) -> bool;
}

/// The running simulator: one process per pair.
pub struct Simulator {
    processes: Vec<PairProcess>,
    seed: u64,
    tick_ms: u64,
    /// The highest coin id quoted; listings above it are new.
    last_coin_id: i32,
    /// Where the simulated books go when a real book replaces them.
    quote_sink: Option<Arc<dyn QuoteSink>>,
    /// The turn the spot markets take to write, taken for the ticks' writes too (on an SQLite
    /// file, see [`Simulator::with_write_turn`]).
    write_turn: Option<Arc<tokio::sync::Mutex<()>>>,
    /// The lease checked before every tick (cluster mode, see [`Simulator::with_lease`]).
    lease: Option<Arc<dyn crate::lease::Lease>>,
}

/// Why [`Simulator::run`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The server is stopping.
    Shutdown,
    /// This instance no longer holds the simulator's lease: another one simulates now.
    LostLease,
}

impl Simulator {
    /// Builds every pair's process and publishes the first tickers, so the hub has prices before
    /// the server accepts its first request. A pair without stored candles of the last day gets
    /// them from a backfill, which is stored so the history starts a day back.
    pub async fn start(
        pairs: Vec<PairSpec>,
        seed: u64,
        tick_ms: u64,
        hub: &MarketHub,
        db: &DatabaseConnection,
    ) -> Result<Self, sea_orm::DbErr> {
        let mut simulator = Self {
            processes: Vec::with_capacity(pairs.len()),
            seed,
            tick_ms,
            last_coin_id: 0,
            quote_sink: None,
            write_turn: None,
            lease: None,
        };
        for spec in pairs {
            simulator.add(spec, hub, db).await?;
        }
        Ok(simulator)
    }

    /// Hands every tick's simulated book to `sink` (the spot registry).
    pub fn with_quote_sink(mut self, sink: Arc<dyn QuoteSink>) -> Self {
        self.quote_sink = Some(sink);
        self
    }

    /// Stores every tick while holding `turn`, the spot markets' write turn. On an SQLite file
    /// the markets write back to back under heavy trading, and a write of another connection
    /// waits in SQLite's busy handler, which retries after sleeps of up to 100 ms and only wins
    /// when it happens to try between two of their transactions: the ticks, stored before they
    /// are published, went out up to 2.5 s late. The turn is first come, first served, so a
    /// tick waits one market batch at most.
    pub fn with_write_turn(mut self, turn: Arc<tokio::sync::Mutex<()>>) -> Self {
        self.write_turn = Some(turn);
        self
    }

    /// Takes or renews `lease` before every tick and stops ([`Ended::LostLease`]) as soon as this
    /// instance does not hold it, without writing anything more (cluster mode).
    pub fn with_lease(mut self, lease: Arc<dyn crate::lease::Lease>) -> Self {
        self.lease = Some(lease);
        self
    }

    /// Starts quoting the pair of `spec`: a day of history (stored, or backfilled and stored),
    /// then its first ticker.
    async fn add(
        &mut self,
        spec: PairSpec,
        hub: &MarketHub,
        db: &DatabaseConnection,
    ) -> Result<(), sea_orm::DbErr> {
        let now = now_ms();
        self.last_coin_id = self.last_coin_id.max(spec.coin_id);
        let mut process = PairProcess::new(spec, self.seed, self.tick_ms);
        if !process.has_history() {
            process.backfill(now);
            let history: Vec<Candle> = process.bars.iter().copied().collect();
            candles::save(db, process.symbol(), &history).await?;
            process.klines = LiveKlines::from_minutes(&history);
        }
        let first = process
            .book
            .update(process.price, now, &mut process.book_rng);
        hub.publish_book(process.symbol(), process.book(), &first);
        hub.publish_detail(process.symbol(), process.detail(now));
        process.publish_ticker(hub, now);
        self.processes.push(process);
        Ok(())
    }

    /// Starts quoting every pair listed since the last look and announces each on the notice
    /// channel.
    async fn pick_up_listings(
        &mut self,
        hub: &MarketHub,
        db: &DatabaseConnection,
    ) -> Result<(), sea_orm::DbErr> {
        let new = coin::Entity::find()
            .filter(coin::Column::Id.gt(self.last_coin_id))
            .order_by_asc(coin::Column::Id)
            .all(db)
            .await?;
        for coin in new {
            let listing = Listing {
                id: coin.id,
                coin: coin.coin.clone(),
                symbol: coin.symbol.clone(),
                show_symbol: coin.show_symbol.clone(),
                logo: coin.logo.clone(),
                price: Decimal::ZERO,
                listed_at: coin.created_at,
            };
            self.last_coin_id = self.last_coin_id.max(coin.id);
            let Some(spec) = pair_spec(db, coin).await? else {
                continue;
            };
            let price = spec.start_price;
            self.add(spec, hub, db).await?;
            tracing::info!(symbol = %listing.symbol, "new pair listed");
            hub.publish_listing(&Listing { price, ..listing });
        }
        Ok(())
    }

    /// Runs until `shutdown` changes (or, with a lease, until this instance loses it): every
    /// `tick_ms`, steps every pair, stores the ticks in one insert, then publishes the tickers.
    pub async fn run(
        mut self,
        db: DatabaseConnection,
        hub: Arc<MarketHub>,
        mut shutdown: watch::Receiver<bool>,
    ) -> Ended {
        tracing::info!(
            pairs = self.processes.len(),
            tick_ms = self.tick_ms,
            "market simulator started"
        );
        let mut interval = tokio::time::interval(Duration::from_millis(self.tick_ms.max(1)));
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut listings = tokio::time::interval(LISTING_POLL);
        listings.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = interval.tick() => {
                    if !crate::lease::holds(self.lease.as_ref(), "market simulator").await {
                        tracing::warn!("market simulator lease lost: another instance simulates");
                        return Ended::LostLease;
                    }
                    self.tick(&db, &hub).await;
                }
                _ = listings.tick() => {
                    if let Err(error) = self.pick_up_listings(&hub, &db).await {
                        tracing::error!(%error, "reading new listings failed");
                    }
                }
                _ = shutdown.changed() => break,
            }
        }
        // The growing minute is kept too, so a restart continues it.
        for process in &self.processes {
            if let Some(live) = process.live_candle()
                && let Err(error) = candles::save(&db, process.symbol(), &[live]).await
            {
                tracing::error!(%error, "storing the live candle failed");
            }
        }
        tracing::info!("market simulator stopped");
        Ended::Shutdown
    }

    async fn tick(&mut self, db: &DatabaseConnection, hub: &MarketHub) {
        let now = now_ms();
        let ticks: Vec<(String, Tick)> = self
            .processes
            .iter_mut()
            .map(|process| (process.symbol().to_owned(), process.step(now)))
            .collect();
        if ticks.is_empty() {
            return;
        }
        // Stored before they are published: a seconds contract opens at the newest stored tick,
        // which must never be older than the price its user has seen.
        let turn = match &self.write_turn {
            Some(turn) => Some(turn.lock().await),
            None => None,
        };
        let rows = ticks.iter().map(|(symbol, tick)| market_tick::ActiveModel {
            id: NotSet,
            symbol: Set(symbol.clone()),
            seq: Set(tick.seq),
            price: Set(tick.price.to_string()),
            volume: Set(tick.volume.to_string()),
            trade_count: Set(tick.trade_count as i32),
            ts_ms: Set(tick.ts_ms),
        });
        if let Err(error) = market_tick::Entity::insert_many(rows).exec(db).await {
            tracing::error!(%error, "storing market ticks failed");
        }
        for (symbol, tick) in &ticks {
            if let Some(closed) = &tick.closed
                && let Err(error) = candles::save(db, symbol, std::slice::from_ref(closed)).await
            {
                tracing::error!(%error, %symbol, "storing a closed candle failed");
            }
        }
        drop(turn);
        // The whole tick goes out as one batch (and one of candles): every client takes it with
        // one receive and writes it with one write. It waits for the spot markets' books of this
        // tick (quoted below), so that they join it instead of waking every client again, pair by
        // pair: until the last has come, a few milliseconds, or the gather window at most.
        let mut publication = hub.publication();
        let mut quoted = 0;
        for (process, (symbol, tick)) in self.processes.iter_mut().zip(&ticks) {
            match process.ticker(now) {
                Ok(ticker) => publication.ticker(symbol, ticker),
                Err(error) => tracing::error!(%symbol, ?error, "24h window refused"),
            }
            let book = process.book();
            let taken = self
                .quote_sink
                .as_ref()
                .is_some_and(|sink| sink.quote(symbol, &book, tick.price));
            if taken {
                quoted += 1;
            } else {
                publication.book(symbol, book, &tick.book);
            }
            publication.trades(symbol, &tick.trades);
            publication.detail(symbol, process.detail(now));
            publication.klines(symbol, process.live_klines(), &tick.completed);
        }
        publication.simple_data(now);
        publication.send_with_books(quoted);
    }
}

#[cfg(test)]
mod tests {
    use rust_decimal_macros::dec;
    use wasm_core::kline;

    use super::*;

    fn spec() -> PairSpec {
        PairSpec {
            coin_id: 1,
            symbol: "btcusdt".into(),
            start_price: dec!(96512.40),
            tick_size: dec!(0.01),
            step_size: dec!(0.00001),
            daily_volatility: 0.028,
            last_seq: 0,
            recent_candles: Vec::new(),
            live_klines: LiveKlines::default(),
        }
    }

    const T0: i64 = 1_763_700_000_000;

    #[tokio::test]
    async fn a_tick_is_stored_and_published_only_with_the_write_turn() {
        use sea_orm::PaginatorTrait;

        let (_dir, _, db) = crate::db::temp_database().await;
        let hub = MarketHub::new();
        let turn = Arc::new(tokio::sync::Mutex::new(()));
        let mut simulator = Simulator::start(vec![spec()], 7, 1000, &hub, &db)
            .await
            .unwrap()
            .with_write_turn(turn.clone());
        let mut published = hub.subscribe();
        let stored = || market_tick::Entity::find().count(&db);
        let before = stored().await.unwrap();

        let held = turn.lock().await;
        let tick = simulator.tick(&db, &hub);
        tokio::pin!(tick);
        // A market holds the turn: the tick neither writes nor goes out (given time it would
        // have done both, a few milliseconds).
        assert!(
            tokio::time::timeout(Duration::from_millis(300), tick.as_mut())
                .await
                .is_err()
        );
        assert_eq!(stored().await.unwrap(), before);
        assert!(published.try_recv().is_err());

        drop(held);
        tick.await;
        assert_eq!(stored().await.unwrap(), before + 1);
        let batch = published.try_recv().unwrap();
        assert!(batch.iter().any(|event| event.channel == "ticker"));
        // The turn is given back.
        assert!(turn.try_lock().is_ok());
    }

    #[test]
    fn the_same_seed_gives_the_same_series() {
        let run = |seed| {
            let mut process = PairProcess::new(spec(), seed, 1000);
            process.backfill(T0);
            (0..200)
                .map(|i| process.step(T0 + i * 1000).price)
                .collect::<Vec<_>>()
        };
        assert_eq!(run(7), run(7));
        assert_ne!(run(7), run(8));
    }

    #[test]
    fn prices_stay_on_the_tick_and_positive() {
        let mut process = PairProcess::new(spec(), 1, 1000);
        process.backfill(T0);
        for i in 0..2000 {
            let tick = process.step(T0 + i * 1000);
            assert!(tick.price > Decimal::ZERO);
            assert_eq!(tick.price, round_to_step(tick.price, dec!(0.01)));
            assert_eq!(tick.seq, i + 1);
        }
    }

    #[test]
    fn the_backfill_ends_at_the_start_price_and_spans_a_day() {
        let mut process = PairProcess::new(spec(), 3, 1000);
        process.backfill(T0);
        let ticker = process.ticker(T0).unwrap();
        assert_eq!(ticker.close, dec!(96512.40));
        assert_eq!(process.bars.len(), DAY_MINUTES);
        assert!(ticker.high >= ticker.close && ticker.low <= ticker.close);
        assert!(ticker.volume > Decimal::ZERO);
        // A day of 2.8% volatility moves a few percent, not half the price.
        let change = ticker.change_percent().unwrap().abs();
        assert!(change < dec!(25), "24h change {change}% is not realistic");
    }

    #[test]
    fn the_window_keeps_only_the_last_day() {
        let mut process = PairProcess::new(spec(), 5, 60_000);
        process.backfill(T0);
        for i in 1..=120 {
            process.step(T0 + i * MINUTE_MS);
        }
        assert!(process.bars.len() <= DAY_MINUTES + 1);
        let oldest = process.bars.front().unwrap().open_time;
        assert!(oldest >= T0 + 120 * MINUTE_MS - (DAY_MINUTES as i64 + 1) * MINUTE_MS);
    }

    #[test]
    fn the_ticker_summed_once_a_minute_equals_the_whole_window_summed() {
        let mut process = PairProcess::new(spec(), 7, 250);
        process.backfill(T0);
        // Ticks within minutes and across them, with the oldest minutes leaving the window.
        for i in 1..=600 {
            let now = T0 + i * 250;
            process.step(now);
            let ticker = process.ticker(now).unwrap();
            let whole = kline::rolling_24h(process.bars.make_contiguous(), now)
                .unwrap()
                .unwrap();
            assert_eq!(
                (ticker.open, ticker.high, ticker.low, ticker.volume),
                (
                    whole.open_price,
                    whole.high_price,
                    whole.low_price,
                    whole.base_asset_volume
                )
            );
            assert_eq!(ticker.quote_volume, whole.quote_asset_volume.round_dp(2));
            assert_eq!(ticker.trade_count, whole.total_number_of_trades);
        }
    }

    #[test]
    fn volatility_clusters() {
        // Squared returns are positively autocorrelated under GARCH. A rare jump would dominate
        // every squared return, so the largest 0.1% are left out of the statistic.
        let mut process = PairProcess::new(spec(), 11, 1000);
        let mut previous = process.step(T0).price;
        let mut squared = Vec::new();
        for i in 1..20_000 {
            let price = process.step(T0 + i * 1000).price;
            let r = ((price / previous) - Decimal::ONE)
                .to_string()
                .parse::<f64>()
                .unwrap();
            squared.push(r * r);
            previous = price;
        }
        let mut sorted = squared.clone();
        sorted.sort_by(f64::total_cmp);
        let cap = sorted[sorted.len() * 999 / 1000];
        let squared: Vec<f64> = squared.into_iter().map(|v| v.min(cap)).collect();
        let mean = squared.iter().sum::<f64>() / squared.len() as f64;
        let (mut num, mut den) = (0.0, 0.0);
        for pair in squared.windows(2) {
            num += (pair[0] - mean) * (pair[1] - mean);
        }
        for value in &squared {
            den += (value - mean).powi(2);
        }
        assert!(
            num / den > 0.02,
            "lag-1 autocorrelation of squared returns {}",
            num / den
        );
    }

    #[test]
    fn rounding_to_a_step() {
        assert_eq!(round_to_step(dec!(1.23456), dec!(0.01)), dec!(1.23));
        assert_eq!(round_to_step(dec!(1.235), dec!(0.01)), dec!(1.24));
        assert_eq!(round_to_step(dec!(17), dec!(5)), dec!(15));
        assert_eq!(round_to_step(dec!(1.5), Decimal::ZERO), dec!(1.5));
    }
}
