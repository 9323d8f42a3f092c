//! The kline history cache: closed candles kept in memory so that a history page of `5m` … `1M`
//! reads only the minutes of its newest bucket from the database instead of every minute it covers
//! (a `1h` page of 500 read 30,060 rows before; warm, it reads at most 60).
//!
//! **What is kept.** Closed *base* candles per (pair, base interval, base offset), each with the
//! number of stored minutes it holds: `5m` candles serve `5m`, `15m` and `30m`; `1h` candles serve
//! `1h` … `1M`. A longer candle at a UTC offset is exactly the union of the base candles at that
//! offset modulo the base length (every `1d`, `1w` and `1M` boundary at `+05:45` is an hour
//! boundary at `+00:45`), so the 38 time zones of the webapp share a handful of series
//! (`offsetMinutes` 345, −15 and 765 all use the `1h` series at 45) and every longer interval is
//! summed from them on each request: at most 50,000 minutes' worth, about 830 hourly candles for a
//! page of days, weeks or months, some tens of microseconds.
//!
//! **Never stale.** A base bucket is cached only when a stored minute opens after it: the market
//! source stores a minute when it closes (and at shutdown the one still growing, which it stores
//! again when it closes), always newer than every stored minute, so the minutes under such a
//! bucket never change again. The newest minute's bucket and a bucket cut by `endTime` are rolled
//! up from their minutes on every request (at most 60 rows). Candles are never deleted
//! (retention prunes ticks only); pruning them would have to drop the series it reaches into. A
//! restart starts with an empty cache, which is filled again on demand; pairs listed at runtime
//! get their series on their first request, and their backfill is stored oldest first, so a
//! request during it sees a shorter history, never a wrong one.
//!
//! **The same answers.** A page is the walk, newest first, over the fresh base candles and then the
//! cached ones, summing base candles into `interval` candles until it has `limit` of them; it
//! counts the stored minutes it passes and stops where [`candles::history`] stops reading
//! ([`candles::minutes_read`]), leaving the candle the cut falls in to the next page, so the pages
//! and `hasMore` are those of [`candles::history`], the rollup of the minutes at request time
//! (tested over HTTP for every interval, several offsets, pages and limits, cold and warm, and
//! after new minutes are stored). Sums of decimals are exact and every candle is normalised as
//! wasm-core's rollup does, so the decimal strings are the same. `1m` pages are not cached: they
//! read their own 501 rows.
//!
//! **Series.** Each series covers one contiguous span of base buckets (all closed, each present
//! when it has minutes). The newest page extends it forward by the buckets closed since the last
//! request; paging back with `endTime` extends it backward, reading the stored minutes before it
//! as [`candles::history`] reads them; a request far outside the span (more than
//! [`MAX_GAP_MINUTES`] away) is answered from a series of its own, used once and dropped. Fills run
//! under the series' lock, so concurrent requests of a cold series read the minutes once.
//!
//! **Bound.** At most [`MAX_CANDLES_PER_SERIES`] candles a series (its oldest go first) and
//! [`MAX_CACHED_CANDLES`] in all (whole series go, least recently used first), each 120 bytes
//! ([`CACHED_CANDLE_BYTES`]): about 16 MB, up to twice that with the queues' spare capacity. While
//! a request runs, its series may hold one page's reading more (at most 50,060 candles); a series
//! evicted while a request is using it is freed when that request ends.
//!
//! **Why memory, not a table.** The rollups are cheap once the minutes are not read again; a table
//! would need one row per interval and time zone (or the same summing from a base table), writes
//! on every closed bucket from the market source, a migration, and the same care about the
//! growing bucket; memory needs none of that, and a restart costs one cold page per series.
//!
//! **Where it lives.** One cache per running server, made at start and handed to the handlers that read it, so that
//! several apps in one process (the HTTP tests) never share candles.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rust_decimal::Decimal;
use sea_orm::DatabaseConnection;
use wasm_core::kline::{self, Candle, Interval};

use crate::market::candles::{self, CandleError, KlinePage};

/// The most base candles cached in all.
pub const MAX_CACHED_CANDLES: usize = 131_072;
/// The most base candles one series keeps: 682 days of hours, 56 days of 5 minutes.
pub const MAX_CANDLES_PER_SERIES: usize = 16_384;
/// How far (in minutes) a request may lie outside a series' span for the series to be extended
/// to it; farther requests get a series of their own.
pub const MAX_GAP_MINUTES: i64 = 50_000;
/// The memory of one cached candle.
pub const CACHED_CANDLE_BYTES: usize = std::mem::size_of::<BaseCandle>();

const MINUTE_MS: i64 = 60_000;

/// The kline history of one running exchange, with the closed base candles it has read.
pub struct KlineCache {
    registry: Mutex<Registry>,
    max_cached: usize,
    max_per_series: usize,
    /// Stored minutes read so far, fresh ones and fills.
    minutes_loaded: AtomicU64,
}

/// A closed base candle and the number of stored minutes under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BaseCandle {
    /// The candle, as wasm-core's rollup gives it.
    pub candle: Candle,
    /// How many stored 1m candles it sums.
    pub minutes: u32,
}

/// Which series a request uses: the pair, the base interval and the offset modulo its length.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct SeriesKey {
    symbol: String,
    base: Interval,
    offset_minutes: i32,
}

impl KlineCache {
    /// An empty cache with the default bounds.
    pub fn new() -> Self {
        Self::with_bounds(MAX_CACHED_CANDLES, MAX_CANDLES_PER_SERIES)
    }

    /// An empty cache holding at most `max_cached` candles, `max_per_series` a series.
    pub fn with_bounds(max_cached: usize, max_per_series: usize) -> Self {
        Self {
            registry: Mutex::new(Registry::default()),
            max_cached,
            max_per_series: max_per_series.min(max_cached),
            minutes_loaded: AtomicU64::new(0),
        }
    }

    /// How many candles are cached (as of the last request that finished).
    pub fn cached_candles(&self) -> usize {
        self.lock_registry().total
    }

    /// How many series are cached.
    pub fn series_count(&self) -> usize {
        self.lock_registry().entries.len()
    }

    /// How many stored minutes the cache has read from the database so far (pages of `1m`,
    /// which it does not cache, not included).
    pub fn minutes_loaded(&self) -> u64 {
        self.minutes_loaded.load(Ordering::Relaxed)
    }

    /// Exactly [`candles::history`]: up to `limit` candles of `interval` opening before `end_ms`
    /// at the UTC offset `offset_minutes`, oldest first, and whether older ones exist; for `5m`
    /// and longer from the cached base candles and the minutes of the newest bucket.
    pub async fn history(
        &self,
        db: &DatabaseConnection,
        symbol: &str,
        interval: Interval,
        end_ms: Option<i64>,
        limit: u32,
        offset_minutes: i32,
    ) -> Result<KlinePage, CandleError> {
        let Some(base) = base_of(interval) else {
            return candles::history(db, symbol, interval, end_ms, limit, offset_minutes).await;
        };
        if limit == 0 {
            return Ok(KlinePage::empty());
        }
        let key = SeriesKey {
            symbol: symbol.to_owned(),
            base,
            offset_minutes: offset_minutes.rem_euclid(base_minutes(base) as i32),
        };
        let Some(newest) = candles::newest_minute(db, symbol).await? else {
            return Ok(KlinePage::empty());
        };
        // Base buckets before `upper` are closed and wholly before `end_ms`; the minutes from
        // `upper` on are read now.
        let upper = match end_ms {
            Some(end) if end <= newest => bucket_open(base, end, key.offset_minutes)?,
            _ => bucket_open(base, newest, key.offset_minutes)?,
        };
        let fresh = if end_ms == Some(upper) {
            Vec::new()
        } else {
            let minutes = candles::load_between(db, symbol, upper, end_ms).await?;
            self.count_loaded(minutes.len());
            roll_up_counted(&minutes, base, key.offset_minutes)?
        };
        let mut walk = Walk::new(interval, offset_minutes, limit);
        for candle in fresh.iter().rev() {
            if walk.push(candle)? {
                return Ok(walk.page());
            }
        }
        let series = self.touch(&key);
        let mut cached = series.lock().await;
        let mut detached = Series::default();
        let mut loaded = 0;
        let result = async {
            let used = if cached.reach(db, &key, upper, &mut loaded).await? {
                &mut *cached
            } else {
                detached.reach(db, &key, upper, &mut loaded).await?;
                &mut detached
            };
            used.walk(db, &key, upper, &mut walk, &mut loaded).await
        }
        .await;
        self.count_loaded(loaded);
        cached.trim_to(self.max_per_series, base);
        self.settle(&key, &series, cached.candles.len());
        result?;
        Ok(walk.page())
    }

    fn count_loaded(&self, minutes: usize) {
        self.minutes_loaded
            .fetch_add(minutes as u64, Ordering::Relaxed);
    }

    fn lock_registry(&self) -> std::sync::MutexGuard<'_, Registry> {
        self.registry.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The series of `key`, made when missing, marked as just used.
    fn touch(&self, key: &SeriesKey) -> Arc<tokio::sync::Mutex<Series>> {
        self.lock_registry().touch(key)
    }

    /// Records that the series of `key` now holds `len` candles and evicts others beyond the bound.
    fn settle(&self, key: &SeriesKey, series: &Arc<tokio::sync::Mutex<Series>>, len: usize) {
        self.lock_registry()
            .settle(key, series, len, self.max_cached);
    }
}

impl Default for KlineCache {
    fn default() -> Self {
        Self::new()
    }
}

/// The series and their sizes, in order of use.
#[derive(Default)]
struct Registry {
    entries: HashMap<SeriesKey, Entry>,
    /// The sum of the entries' `len`.
    total: usize,
    /// Counts uses, to find the least recently used series.
    clock: u64,
}

struct Entry {
    series: Arc<tokio::sync::Mutex<Series>>,
    /// Candles held, as of the last request that finished.
    len: usize,
    last_used: u64,
}

impl Registry {
    fn touch(&mut self, key: &SeriesKey) -> Arc<tokio::sync::Mutex<Series>> {
        self.clock += 1;
        let now = self.clock;
        let entry = self.entries.entry(key.clone()).or_insert_with(|| Entry {
            series: Arc::default(),
            len: 0,
            last_used: now,
        });
        entry.last_used = now;
        entry.series.clone()
    }

    fn settle(
        &mut self,
        key: &SeriesKey,
        series: &Arc<tokio::sync::Mutex<Series>>,
        len: usize,
        max_cached: usize,
    ) {
        match self.entries.get_mut(key) {
            // A series evicted meanwhile is no longer counted.
            Some(entry) if Arc::ptr_eq(&entry.series, series) => {
                self.total = self.total - entry.len + len;
                entry.len = len;
            }
            _ => return,
        }
        while self.total > max_cached {
            let Some(oldest) = self
                .entries
                .iter()
                .filter(|(other, _)| *other != key)
                .min_by_key(|(_, entry)| entry.last_used)
                .map(|(other, _)| other.clone())
            else {
                return;
            };
            if let Some(entry) = self.entries.remove(&oldest) {
                self.total -= entry.len;
            }
        }
    }
}

/// The closed base candles of one pair, base interval and offset over one span of time.
#[derive(Default)]
struct Series {
    /// Whether the span has been placed.
    placed: bool,
    /// The span `[from, to)`: every base bucket opening in it is closed, and is in `candles` when
    /// it has stored minutes.
    from: i64,
    to: i64,
    /// No minute is stored before `from`.
    start_reached: bool,
    /// Oldest first.
    candles: VecDeque<BaseCandle>,
}

impl Series {
    /// Makes the span reach `upper` (a base bucket opening, every bucket before it closed):
    /// placed there when new, extended to it when within [`MAX_GAP_MINUTES`], moved there when
    /// behind by more. Returns `false` when `upper` lies farther before the span than that, for a
    /// series of its own to answer.
    async fn reach(
        &mut self,
        db: &DatabaseConnection,
        key: &SeriesKey,
        upper: i64,
        loaded: &mut usize,
    ) -> Result<bool, CandleError> {
        let max_gap = MAX_GAP_MINUTES * MINUTE_MS;
        if !self.placed || upper - self.to > max_gap {
            *self = Series {
                placed: true,
                from: upper,
                to: upper,
                start_reached: false,
                candles: VecDeque::new(),
            };
        } else if upper > self.to {
            let minutes = candles::load_between(db, &key.symbol, self.to, Some(upper)).await?;
            *loaded += minutes.len();
            self.candles
                .extend(roll_up_counted(&minutes, key.base, key.offset_minutes)?);
            self.to = upper;
        } else if upper < self.from && !self.start_reached {
            if self.from - upper > max_gap {
                return Ok(false);
            }
            let minutes = candles::load_between(db, &key.symbol, upper, Some(self.from)).await?;
            *loaded += minutes.len();
            self.prepend(roll_up_counted(&minutes, key.base, key.offset_minutes)?);
            self.from = upper;
        }
        Ok(true)
    }

    /// Feeds `walk` the candles opening before `upper`, newest first, reading older minutes
    /// when the span ends before the walk does.
    async fn walk(
        &mut self,
        db: &DatabaseConnection,
        key: &SeriesKey,
        upper: i64,
        walk: &mut Walk,
        loaded: &mut usize,
    ) -> Result<(), CandleError> {
        let mut next = self.candles.partition_point(|c| c.candle.open_time < upper);
        loop {
            while next > 0 {
                next -= 1;
                if walk.push(&self.candles[next])? {
                    return Ok(());
                }
            }
            if self.start_reached {
                walk.finish();
                return Ok(());
            }
            next = self
                .extend_back(db, key, walk.minutes_wanted(), loaded)
                .await?;
        }
    }

    /// Reads the newest `wanted` minutes before the span (plus one base bucket's worth, so that
    /// at least one whole bucket comes of it) and adds their buckets, the earliest of which may
    /// be cut and is left out; returns how many candles were added.
    async fn extend_back(
        &mut self,
        db: &DatabaseConnection,
        key: &SeriesKey,
        wanted: u64,
        loaded: &mut usize,
    ) -> Result<usize, CandleError> {
        let count = wanted + base_minutes(key.base) as u64;
        let minutes = candles::load_before(db, &key.symbol, Some(self.from), count).await?;
        *loaded += minutes.len();
        let mut older = roll_up_counted(&minutes, key.base, key.offset_minutes)?;
        if (minutes.len() as u64) < count {
            self.start_reached = true;
            if let Some(first) = older.first() {
                self.from = first.candle.open_time;
            }
        } else if !older.is_empty() {
            let cut = older.remove(0);
            self.from = cut.candle.open_time + base_ms(key.base);
        }
        let added = older.len();
        self.prepend(older);
        Ok(added)
    }

    fn prepend(&mut self, older: Vec<BaseCandle>) {
        for candle in older.into_iter().rev() {
            self.candles.push_front(candle);
        }
    }

    /// Drops the oldest candles beyond `max` (the span then starts after the last one dropped).
    fn trim_to(&mut self, max: usize, base: Interval) {
        if self.candles.len() <= max {
            return;
        }
        let mut dropped = None;
        while self.candles.len() > max {
            dropped = self.candles.pop_front();
        }
        if let Some(last) = dropped {
            self.from = last.candle.open_time + base_ms(base);
            self.start_reached = false;
        }
        // A long walk may have grown the queue; keep at most twice what it holds.
        if self.candles.capacity() > 2 * self.candles.len().max(1024) {
            self.candles.shrink_to_fit();
        }
    }
}

/// One page being put together from base candles, newest first, the way [`candles::history`]
/// cuts it.
struct Walk {
    interval: Interval,
    offset_minutes: i32,
    limit: usize,
    /// The stored minutes [`candles::history`] reads for this page.
    minutes_read: u64,
    minutes_seen: u64,
    /// The candle being summed (its open time and the sum of its base candles so far).
    current: Option<Candle>,
    /// Finished candles, newest first.
    done: Vec<Candle>,
    has_more: bool,
}

impl Walk {
    fn new(interval: Interval, offset_minutes: i32, limit: u32) -> Self {
        Self {
            interval,
            offset_minutes,
            limit: limit as usize,
            minutes_read: candles::minutes_read(interval, limit),
            minutes_seen: 0,
            current: None,
            done: Vec::new(),
            has_more: false,
        }
    }

    /// Adds the next older base candle; `true` when the page is complete.
    fn push(&mut self, older: &BaseCandle) -> Result<bool, CandleError> {
        let open_time = bucket_open(self.interval, older.candle.open_time, self.offset_minutes)?;
        match &mut self.current {
            Some(current) if current.open_time == open_time => add_older(current, &older.candle)?,
            _ => {
                if let Some(finished) = self.current.take() {
                    self.done.push(normalized(finished));
                    if self.done.len() == self.limit {
                        self.has_more = true;
                        return Ok(true);
                    }
                }
                self.current = Some(Candle {
                    open_time,
                    ..older.candle
                });
            }
        }
        self.minutes_seen += u64::from(older.minutes);
        if self.minutes_seen >= self.minutes_read {
            // The uncached read ends inside this candle: it is left to the next page.
            self.current = None;
            self.has_more = !self.done.is_empty();
            return Ok(true);
        }
        Ok(false)
    }

    /// No older minutes are stored.
    fn finish(&mut self) {
        if let Some(finished) = self.current.take() {
            self.done.push(normalized(finished));
        }
        self.has_more = false;
    }

    /// How many more minutes the page could need.
    fn minutes_wanted(&self) -> u64 {
        let candles_left = (self.limit + 1 - self.done.len()) as u64;
        let per_candle = self
            .interval
            .fixed_ms()
            .map_or(31 * 1440, |ms| ms / MINUTE_MS) as u64;
        (self.minutes_read - self.minutes_seen).min(candles_left * per_candle)
    }

    fn page(mut self) -> KlinePage {
        self.done.reverse();
        KlinePage {
            candles: self.done,
            has_more: self.has_more,
        }
    }
}

/// The interval whose closed candles serve `interval`; `None` for `1m`.
fn base_of(interval: Interval) -> Option<Interval> {
    match interval {
        Interval::OneMinute => None,
        Interval::FiveMinutes | Interval::FifteenMinutes | Interval::ThirtyMinutes => {
            Some(Interval::FiveMinutes)
        }
        _ => Some(Interval::OneHour),
    }
}

fn base_minutes(base: Interval) -> i64 {
    base_ms(base) / MINUTE_MS
}

fn base_ms(base: Interval) -> i64 {
    // Base intervals have a fixed length.
    base.fixed_ms().unwrap_or(MINUTE_MS)
}

fn bucket_open(interval: Interval, time_ms: i64, offset_minutes: i32) -> Result<i64, CandleError> {
    interval
        .bucket(time_ms, offset_minutes)
        .map(|bucket| bucket.open_time)
        .map_err(|error| CandleError::Corrupt(format!("{error:?}")))
}

/// wasm-core's rollup of `minutes` to `base`, each candle with the number of minutes under it.
fn roll_up_counted(
    minutes: &[Candle],
    base: Interval,
    offset_minutes: i32,
) -> Result<Vec<BaseCandle>, CandleError> {
    let rolled = kline::rollup(minutes, base, offset_minutes)
        .map_err(|error| CandleError::Corrupt(format!("{error:?}")))?;
    let mut counted = Vec::with_capacity(rolled.len());
    let mut minute = 0;
    for (index, candle) in rolled.iter().enumerate() {
        let next_open = rolled.get(index + 1).map_or(i64::MAX, |c| c.open_time);
        let first = minute;
        while minute < minutes.len() && minutes[minute].open_time < next_open {
            minute += 1;
        }
        counted.push(BaseCandle {
            candle: *candle,
            minutes: u32::try_from(minute - first).unwrap_or(u32::MAX),
        });
    }
    Ok(counted)
}

/// Adds the base candle before `sum`'s first one to it: the rollup's sums, taken newest first.
fn add_older(sum: &mut Candle, older: &Candle) -> Result<(), CandleError> {
    let overflow = || CandleError::Corrupt(format!("volumes overflow at {}", older.open_time));
    let add = |a: Decimal, b: Decimal| a.checked_add(b).ok_or_else(overflow);
    sum.open = older.open;
    sum.high = sum.high.max(older.high);
    sum.low = sum.low.min(older.low);
    sum.base_volume = add(sum.base_volume, older.base_volume)?;
    sum.quote_volume = add(sum.quote_volume, older.quote_volume)?;
    sum.trade_count = sum
        .trade_count
        .checked_add(older.trade_count)
        .ok_or_else(overflow)?;
    Ok(())
}

/// `candle` with every decimal in its shortest form, as wasm-core's rollup returns candles.
fn normalized(mut candle: Candle) -> Candle {
    for value in [
        &mut candle.open,
        &mut candle.high,
        &mut candle.low,
        &mut candle.close,
        &mut candle.base_volume,
        &mut candle.quote_volume,
    ] {
        *value = value.normalize();
    }
    candle
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR_MS: i64 = 3_600_000;
    /// 2024-01-15 03:41 UTC: neither an hour nor a day opens there.
    const FIRST_MINUTE: i64 = 1_705_290_060_000;

    fn key(symbol: &str) -> SeriesKey {
        SeriesKey {
            symbol: symbol.to_owned(),
            base: Interval::OneHour,
            offset_minutes: 0,
        }
    }

    fn hour(open_time: i64) -> BaseCandle {
        let one = Decimal::ONE;
        BaseCandle {
            candle: Candle {
                open_time,
                open: one,
                high: one,
                low: one,
                close: one,
                base_volume: one,
                quote_volume: one,
                trade_count: 1,
            },
            minutes: 60,
        }
    }

    /// `count` stored minutes from [`FIRST_MINUTE`], some missing (every 97th, a day, a sparse
    /// day), with decimals that carry trailing zeros.
    fn minutes(count: usize) -> Vec<Candle> {
        let price = |i: usize| Decimal::new(10_000 + (i * 7919 % 1000) as i64, 2);
        (0..count)
            .filter(|&i| i % 97 != 0 && !(1440..2880).contains(&i))
            .filter(|&i| !(2880..4320).contains(&i) || i % 17 == 0)
            .map(|i| {
                let (open, close) = (price(i), price(i + 1));
                Candle {
                    open_time: FIRST_MINUTE + i as i64 * MINUTE_MS,
                    open,
                    high: open.max(close) + Decimal::new(10, 2),
                    low: open.min(close) - Decimal::new(5, 2),
                    close,
                    base_volume: Decimal::new((i % 13 + 1) as i64 * 1000, 6),
                    quote_volume: Decimal::new((i % 29 + 1) as i64 * 12_500, 4),
                    trade_count: (i % 5 + 1) as u64,
                }
            })
            .collect()
    }

    #[test]
    fn the_least_recently_used_series_go_first_beyond_the_bound() {
        let mut registry = Registry::default();
        let (a, b, c, d) = (key("a"), key("b"), key("c"), key("d"));
        for key in [&a, &b, &c] {
            let series = registry.touch(key);
            registry.settle(key, &series, 100, 350);
        }
        assert_eq!(registry.total, 300);
        // `a` is used again, so `b` is now the least recently used.
        let series = registry.touch(&a);
        registry.settle(&a, &series, 120, 350);
        let series = registry.touch(&d);
        registry.settle(&d, &series, 100, 350);
        assert!(registry.total <= 350, "{} cached", registry.total);
        assert!(!registry.entries.contains_key(&b));
        assert!(registry.entries.contains_key(&a) && registry.entries.contains_key(&c));
        assert_eq!(registry.total, 320);
        // A series evicted while in use is not counted when its request ends.
        let evicted = registry.touch(&b);
        registry.entries.remove(&b);
        registry.settle(&b, &evicted, 500, 350);
        assert_eq!(registry.total, 320);
        // The series just used is never evicted for its own size.
        let series = registry.touch(&c);
        registry.settle(&c, &series, 340, 350);
        assert_eq!(registry.entries.keys().collect::<Vec<_>>(), vec![&c]);
        assert_eq!(registry.total, 340);
    }

    #[test]
    fn a_cached_candle_takes_the_documented_memory() {
        assert_eq!(CACHED_CANDLE_BYTES, 120);
        const { assert!(MAX_CACHED_CANDLES * CACHED_CANDLE_BYTES <= 16 << 20) };
    }

    #[test]
    fn a_series_beyond_its_bound_keeps_its_newest_candles() {
        let mut series = Series {
            placed: true,
            from: 0,
            to: 10 * HOUR_MS,
            start_reached: true,
            candles: (0..10).map(|h| hour(h * HOUR_MS)).collect(),
        };
        series.trim_to(4, Interval::OneHour);
        assert_eq!(series.candles.len(), 4);
        assert_eq!(series.candles[0].candle.open_time, 6 * HOUR_MS);
        assert_eq!((series.from, series.to), (6 * HOUR_MS, 10 * HOUR_MS));
        assert!(!series.start_reached, "older minutes exist again");
        series.trim_to(4, Interval::OneHour);
        assert_eq!(series.from, 6 * HOUR_MS, "nothing more to drop");
    }

    #[test]
    fn rolled_up_candles_know_their_minutes() {
        let stored = minutes(200);
        let counted = roll_up_counted(&stored, Interval::OneHour, 0).unwrap();
        assert_eq!(
            counted.iter().map(|c| c.minutes as usize).sum::<usize>(),
            stored.len()
        );
        // 03:41–03:59 is 19 minutes; minute 0 (every 97th) is missing.
        assert_eq!(counted[0].minutes, 18);
    }

    #[tokio::test]
    async fn a_small_cache_stays_within_its_bounds_and_answers_like_the_rollup() {
        let (_dir, _, db) = crate::db::temp_database().await;
        let stored = minutes(6 * 1440);
        for symbol in ["aaausdt", "bbbusdt"] {
            candles::save(&db, symbol, &stored).await.unwrap();
        }
        let newest = stored.last().unwrap().open_time;
        let cache = KlineCache::with_bounds(150, 100);
        let requests = [
            (Interval::OneHour, None, 30, 0),
            (Interval::OneHour, None, 120, 0),
            (Interval::OneDay, None, 500, 345),
            (Interval::FifteenMinutes, Some(newest - 7 * HOUR_MS), 50, 0),
            (
                Interval::FourHours,
                Some(newest - 31 * HOUR_MS - 17),
                10,
                -570,
            ),
            (Interval::OneWeek, None, 3, 480),
            (Interval::OneMonth, None, 2, 0),
            (
                Interval::FiveMinutes,
                Some(FIRST_MINUTE + 3000 * MINUTE_MS),
                40,
                7,
            ),
        ];
        for round in 0..2 {
            for symbol in ["aaausdt", "bbbusdt"] {
                for &(interval, end, limit, offset) in &requests {
                    let cached = cache
                        .history(&db, symbol, interval, end, limit, offset)
                        .await
                        .unwrap();
                    let uncached = candles::history(&db, symbol, interval, end, limit, offset)
                        .await
                        .unwrap();
                    assert_eq!(
                        cached, uncached,
                        "round {round}, {symbol} {interval} end {end:?} limit {limit} offset {offset}"
                    );
                    assert!(cache.cached_candles() <= 150, "{}", cache.cached_candles());
                }
            }
        }
        assert!(cache.series_count() >= 1);

        // Warm, the newest page of hours reads only the minutes of the newest hour.
        let cache = KlineCache::new();
        let cold = cache
            .history(&db, "aaausdt", Interval::OneHour, None, 120, 0)
            .await
            .unwrap();
        let read = cache.minutes_loaded();
        assert!(read > 5000, "{read} minutes read cold");
        let warm = cache
            .history(&db, "aaausdt", Interval::OneHour, None, 120, 0)
            .await
            .unwrap();
        assert_eq!(warm, cold);
        assert!(cache.minutes_loaded() - read <= 60);
        assert!(cache.cached_candles() >= 119, "the closed hours");
    }
}
