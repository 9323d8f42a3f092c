//! The stored 1-minute candles: saving what the market source closes, reading the last day back
//! at start, reading ranges of minutes, and kline history of any interval rolled up from them by
//! wasm-core at request time ([`history`]). `POST /api/market/kline` answers the longer intervals
//! from [`crate::market::kline_cache`], which gives exactly what [`history`] gives.

use std::str::FromStr;

use rust_decimal::Decimal;
use sea_orm::{
    ActiveValue::{NotSet, Set},
    ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
    sea_query::OnConflict,
};
use wasm_core::kline::{self, Candle, Interval};

use crate::entity::market_candle;

/// The most 1m candles one history request reads.
pub const MAX_MINUTES_PER_REQUEST: u64 = 50_000;
/// The most candles one history page holds.
pub const MAX_PAGE: u32 = 1000;

/// Why stored candles could not be used.
#[derive(Debug, thiserror::Error)]
pub enum CandleError {
    /// The database failed.
    #[error(transparent)]
    Db(#[from] sea_orm::DbErr),
    /// A stored value is not a decimal, or wasm-core refused the candles.
    #[error("stored candles are unusable: {0}")]
    Corrupt(String),
}

fn to_row(symbol: &str, candle: &Candle) -> market_candle::ActiveModel {
    market_candle::ActiveModel {
        id: NotSet,
        symbol: Set(symbol.to_owned()),
        open_time: Set(candle.open_time),
        open: Set(candle.open.to_string()),
        high: Set(candle.high.to_string()),
        low: Set(candle.low.to_string()),
        close: Set(candle.close.to_string()),
        base_volume: Set(candle.base_volume.to_string()),
        quote_volume: Set(candle.quote_volume.to_string()),
        trade_count: Set(i64::try_from(candle.trade_count).unwrap_or(i64::MAX)),
    }
}

fn from_row(row: &market_candle::Model) -> Result<Candle, CandleError> {
    let decimal = |value: &str| {
        Decimal::from_str(value)
            .map_err(|_| CandleError::Corrupt(format!("{value:?} at {}", row.open_time)))
    };
    Ok(Candle {
        open_time: row.open_time,
        open: decimal(&row.open)?,
        high: decimal(&row.high)?,
        low: decimal(&row.low)?,
        close: decimal(&row.close)?,
        base_volume: decimal(&row.base_volume)?,
        quote_volume: decimal(&row.quote_volume)?,
        trade_count: u64::try_from(row.trade_count).unwrap_or_default(),
    })
}

/// Saves `candles` of `symbol`, replacing a stored candle of the same minute (the live minute is
/// saved again as it grows, and at shutdown).
pub async fn save(
    db: &DatabaseConnection,
    symbol: &str,
    candles: &[Candle],
) -> Result<(), sea_orm::DbErr> {
    // SQLite allows 32766 bound values per statement; 1000 rows of 10 columns stay well below.
    for chunk in candles.chunks(1000) {
        market_candle::Entity::insert_many(chunk.iter().map(|c| to_row(symbol, c)))
            .on_conflict(
                OnConflict::columns([
                    market_candle::Column::Symbol,
                    market_candle::Column::OpenTime,
                ])
                .update_columns([
                    market_candle::Column::Open,
                    market_candle::Column::High,
                    market_candle::Column::Low,
                    market_candle::Column::Close,
                    market_candle::Column::BaseVolume,
                    market_candle::Column::QuoteVolume,
                    market_candle::Column::TradeCount,
                ])
                .to_owned(),
            )
            .exec(db)
            .await?;
    }
    Ok(())
}

/// The stored 1m candles of `symbol` opening at or after `from_ms`, oldest first.
pub async fn load_since(
    db: &DatabaseConnection,
    symbol: &str,
    from_ms: i64,
) -> Result<Vec<Candle>, CandleError> {
    load_between(db, symbol, from_ms, None).await
}

/// The newest stored minute of `symbol` (its open time), `None` when none is stored. While the
/// market source runs it is the last closed minute; after a restart it may be the minute that was
/// still growing at the stop, stored again when it closes.
pub async fn newest_minute(
    db: &DatabaseConnection,
    symbol: &str,
) -> Result<Option<i64>, sea_orm::DbErr> {
    market_candle::Entity::find()
        .select_only()
        .column(market_candle::Column::OpenTime)
        .filter(market_candle::Column::Symbol.eq(symbol))
        .order_by_desc(market_candle::Column::OpenTime)
        .limit(1)
        .into_tuple()
        .one(db)
        .await
}

/// The stored 1m candles of `symbol` opening at or after `from_ms` and before `before_ms` (no
/// upper bound when `None`), oldest first.
pub async fn load_between(
    db: &DatabaseConnection,
    symbol: &str,
    from_ms: i64,
    before_ms: Option<i64>,
) -> Result<Vec<Candle>, CandleError> {
    let mut query = market_candle::Entity::find()
        .filter(market_candle::Column::Symbol.eq(symbol))
        .filter(market_candle::Column::OpenTime.gte(from_ms));
    if let Some(before) = before_ms {
        query = query.filter(market_candle::Column::OpenTime.lt(before));
    }
    query
        .order_by_asc(market_candle::Column::OpenTime)
        .all(db)
        .await?
        .iter()
        .map(from_row)
        .collect()
}

/// The newest `count` stored 1m candles of `symbol` opening before `before_ms` (all of them when
/// `None`), oldest first.
pub async fn load_before(
    db: &DatabaseConnection,
    symbol: &str,
    before_ms: Option<i64>,
    count: u64,
) -> Result<Vec<Candle>, CandleError> {
    let mut query = market_candle::Entity::find().filter(market_candle::Column::Symbol.eq(symbol));
    if let Some(before) = before_ms {
        query = query.filter(market_candle::Column::OpenTime.lt(before));
    }
    let mut rows = query
        .order_by_desc(market_candle::Column::OpenTime)
        .limit(count)
        .all(db)
        .await?;
    rows.reverse();
    rows.iter().map(from_row).collect()
}

/// One page of kline history, oldest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KlinePage {
    /// The candles.
    pub candles: Vec<Candle>,
    /// Whether older candles exist (ask again with `end` = the first candle's open time).
    pub has_more: bool,
}

impl KlinePage {
    /// A page without candles and nothing older.
    pub fn empty() -> Self {
        Self {
            candles: Vec::new(),
            has_more: false,
        }
    }
}

/// How many stored 1m candles a history page of `limit` `interval` candles reads at most: one
/// candle more than asked (the earliest bucket read may be cut), at most
/// [`MAX_MINUTES_PER_REQUEST`]. A page whose read is cut leaves the bucket the cut falls in to the
/// next page; the cache reproduces the same cut, so both give the same pages.
pub fn minutes_read(interval: Interval, limit: u32) -> u64 {
    // A calendar month has at most 31 days of minutes.
    let minutes_per_candle = interval.fixed_ms().map_or(31 * 1440, |ms| ms / 60_000) as u64;
    ((u64::from(limit) + 1) * minutes_per_candle).min(MAX_MINUTES_PER_REQUEST)
}

/// Up to `limit` closed-or-stored candles of `interval` opening before `end_ms` (all when `None`),
/// rolled up at request time from the stored 1m candles at the UTC offset `offset_minutes`: reads
/// up to [`minutes_read`] rows. The reference the cache is tested against, and the answer for `1m`.
pub async fn history(
    db: &DatabaseConnection,
    symbol: &str,
    interval: Interval,
    end_ms: Option<i64>,
    limit: u32,
    offset_minutes: i32,
) -> Result<KlinePage, CandleError> {
    let fetch = minutes_read(interval, limit);
    let minutes = load_before(db, symbol, end_ms, fetch).await?;
    let cut_short = minutes.len() as u64 == fetch;
    let mut candles = kline::rollup(&minutes, interval, offset_minutes)
        .map_err(|error| CandleError::Corrupt(format!("{error:?}")))?;
    if cut_short && !candles.is_empty() {
        // The earliest bucket may have lost minutes to the read limit: leave it to the next page.
        candles.remove(0);
    }
    let skip = candles.len().saturating_sub(limit as usize);
    candles.drain(..skip);
    let has_more = match candles.first() {
        Some(first) => market_candle::Entity::find()
            .filter(market_candle::Column::Symbol.eq(symbol))
            .filter(market_candle::Column::OpenTime.lt(first.open_time))
            .one(db)
            .await?
            .is_some(),
        None => false,
    };
    Ok(KlinePage { candles, has_more })
}
