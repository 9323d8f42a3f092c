//! HTTP of the market data calls: kline history (`POST /api/market/kline`), the price info of a
//! pair (`GET /api/contract/coin/currencyPrice`, `POST /api/texchange/getCurrencyPrice`), its 24h
//! statistics (`POST /api/market/ticker24h`), its order book (`POST /api/market/depth`), its
//! recent trades (`POST /api/market/trades`), and a member's favourite markets
//! (`GET`/`POST /api/market/favourites`, `POST /api/market/favourites/merge`).

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::param::Query;
use poem_openapi::{Enum, Object, OpenApi, Tags, payload::Json};
use rust_decimal::Decimal;
use sea_orm::DatabaseConnection;
use serde::Deserialize;
use wasm_core::kline::{Candle, Interval};

use crate::futures::FuturesRegistry;
use crate::http::{Envelope, IntervalText, JsonBody, LookupResponse, MemberResponse};
use crate::i18n::Msg;
use crate::market::MarketHub;
use crate::market::candles::MAX_PAGE;
use crate::market::favourites::{self, MAX_FAVOURITES, MarketKind};
use crate::market::kline_cache::KlineCache;
use crate::market::service::{self, PairQuote};
use crate::refusal::{Refusal, RefusalKind};
use crate::user::Satoken;

#[derive(Tags)]
enum ApiTags {
    /// Market data: kline history, prices, 24h statistics.
    Market,
}

/// The market data calls; each handler receives the dependencies it uses as `Data`.
pub struct MarketApi;

/// A kline history request. Page backwards by passing the first candle's `openTime` of the
/// previous page as `endTime`.
#[derive(Debug, Clone, Object, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct KlineQuery {
    /// Pair id (`btcusdt`), any case.
    #[oai(validator(min_length = 1, max_length = 64))]
    pub symbol: String,
    /// `1m`, `5m`, `15m`, `30m`, `1h`, `2h`, `4h`, `1d`, `1w`, `1M` (or `1month`); anything else is
    /// 400 `unknown_interval`.
    pub interval: IntervalText,
    /// Only candles opening before this time (epoch milliseconds); the newest when absent.
    #[oai(validator(minimum(value = "0")))]
    pub end_time: Option<i64>,
    /// How many candles at most (1 to 1000; 500 when absent).
    #[oai(validator(minimum(value = "1"), maximum(value = "1000")))]
    pub limit: Option<u32>,
    /// UTC offset of the calendar the days, weeks and months follow, in minutes (−720 to 840; 0 when absent).
    #[oai(validator(minimum(value = "-720"), maximum(value = "840")))]
    pub offset_minutes: Option<i32>,
}

/// One candle.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct KlineCandle {
    /// First millisecond of the candle's interval.
    pub open_time: i64,
    /// First price.
    pub open: Decimal,
    /// Highest price.
    pub high: Decimal,
    /// Lowest price.
    pub low: Decimal,
    /// Last price.
    pub close: Decimal,
    /// Base volume.
    pub base_volume: Decimal,
    /// Quote volume.
    pub quote_volume: Decimal,
    /// Number of trades.
    pub trade_count: u64,
}

/// A page of kline history, oldest first.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct KlinePage {
    /// Pair id.
    pub symbol: String,
    /// The interval, as `1m` … `1M`.
    pub interval: String,
    /// The candles, oldest first. The current minute is not included until it closes (the live
    /// candle comes from the market channel).
    pub candles: Vec<KlineCandle>,
    /// Whether older candles exist.
    pub has_more: bool,
}

/// A request naming one pair.
#[derive(Debug, Clone, Object, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SymbolQuery {
    /// Pair id (`btcusdt`), any case.
    #[oai(validator(min_length = 1, max_length = 64))]
    pub symbol: String,
}

/// The price info of a pair (spec section 3). Prices are absent while the market source has
/// produced none.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct PriceInfo {
    /// Pair id.
    pub symbol: String,
    /// Last price.
    pub close: Option<Decimal>,
    /// Price 24 hours ago.
    pub open_price: Option<Decimal>,
    /// `close − openPrice`.
    pub change: Option<Decimal>,
    /// The 24h change in percent (2 decimals), by wasm-core's rule; absent unless both prices are positive.
    pub price_change_percent: Option<Decimal>,
    /// Logo URL of the base coin.
    pub logo: String,
    /// USDT-M perpetuals (`contract/coin/currencyPrice` only): the mark price.
    pub mark_price: Option<Decimal>,
    /// USDT-M perpetuals: the index price.
    pub index_price: Option<Decimal>,
    /// USDT-M perpetuals: the funding rate the next funding applies if the premium stays (fraction).
    pub funding_rate: Option<Decimal>,
    /// USDT-M perpetuals: when the next funding happens, unix milliseconds.
    pub next_funding_time: Option<i64>,
}

/// The rolling 24-hour statistics of a pair (spec section 3), from the 1m candles of the last
/// 1440 minutes by wasm-core's `rolling_24h`.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct Stats24h {
    /// Pair id.
    pub symbol: String,
    /// Last price.
    pub last_price: Decimal,
    /// Price at the start of the window.
    pub open_price: Decimal,
    /// `lastPrice − openPrice`.
    pub price_change: Decimal,
    /// The change in percent (2 decimals); absent unless both prices are positive.
    pub price_change_percent: Option<Decimal>,
    /// Highest price.
    pub high_price: Decimal,
    /// Lowest price.
    pub low_price: Decimal,
    /// Base volume.
    pub base_asset_volume: Decimal,
    /// Quote volume (turnover).
    pub quote_asset_volume: Decimal,
    /// Number of trades.
    pub total_number_of_trades: u64,
    /// Time of the last tick, epoch milliseconds.
    pub ts: i64,
}

/// A request for a pair's order book or recent trades.
#[derive(Debug, Clone, Object, Deserialize)]
#[serde(deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct SymbolLimitQuery {
    /// Pair id (`btcusdt`), any case.
    #[oai(validator(min_length = 1, max_length = 64))]
    pub symbol: String,
    /// Levels per side (depth, 1 to 50; 20 when absent) or trades (1 to 100; 50 when absent).
    #[oai(validator(minimum(value = "1"), maximum(value = "100")))]
    pub limit: Option<u32>,
}

/// A pair's order book: the same content as the market channel's depth snapshot.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct Depth {
    /// Pair id.
    pub symbol: String,
    /// Sequence number of the last diff included; the channel's diffs continue from it.
    pub seq: u64,
    /// Bids, best (highest) first, each `[price, quantity]`.
    pub bids: Vec<Vec<Decimal>>,
    /// Asks, best (lowest) first, each `[price, quantity]`.
    pub asks: Vec<Vec<Decimal>>,
    /// Time of the book, epoch milliseconds.
    pub ts: i64,
}

/// One trade.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct TradeView {
    /// Trade id, increasing per pair.
    pub id: u64,
    /// Price.
    pub price: Decimal,
    /// Quantity in the base asset.
    pub quantity: Decimal,
    /// The taker's side: `buy` or `sell`.
    pub side: String,
    /// Time, epoch milliseconds.
    pub ts: i64,
}

/// Recent trades of a pair, newest first.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct RecentTrades {
    /// Pair id.
    pub symbol: String,
    /// The trades, newest first.
    pub trades: Vec<TradeView>,
}

/// The market list a favourite belongs to: the markets page's tabs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum FavouriteMarket {
    /// A spot pair.
    Spot,
    /// A USDT-M perpetual.
    Contract,
    /// A seconds (flash) contract on a spot pair.
    Flash,
}

impl From<FavouriteMarket> for MarketKind {
    fn from(market: FavouriteMarket) -> Self {
        match market {
            FavouriteMarket::Spot => MarketKind::Spot,
            FavouriteMarket::Contract => MarketKind::Contract,
            FavouriteMarket::Flash => MarketKind::Flash,
        }
    }
}

impl From<MarketKind> for FavouriteMarket {
    fn from(kind: MarketKind) -> Self {
        match kind {
            MarketKind::Spot => FavouriteMarket::Spot,
            MarketKind::Contract => FavouriteMarket::Contract,
            MarketKind::Flash => FavouriteMarket::Flash,
        }
    }
}

/// One favourite market.
#[derive(Debug, Clone, Object, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FavouriteEntry {
    /// The market list (`spot`, `contract`, `flash`).
    pub market: FavouriteMarket,
    /// Pair id (`btcusdt`), any case; answers use lower case.
    #[oai(validator(min_length = 1, max_length = 64))]
    pub symbol: String,
}

/// Adds a market to the favourites or removes it.
#[derive(Debug, Clone, Object, Deserialize)]
#[serde(deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct SetFavouriteRequest {
    /// Pair id (`btcusdt`), any case.
    #[oai(validator(min_length = 1, max_length = 64))]
    pub symbol: String,
    /// The market list; `spot` when absent.
    pub market: Option<FavouriteMarket>,
    /// `true` adds the market, `false` removes it.
    pub favourite: bool,
}

/// Favourites kept elsewhere (the browser, before logging in) to add to the member's list.
#[derive(Debug, Clone, Object, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MergeFavouritesRequest {
    /// The favourites to add (at most 200); pairs no longer listed are skipped.
    #[oai(validator(max_items = 200))]
    pub favourites: Vec<FavouriteEntry>,
}

/// The answer shape of a favourites list.
pub(crate) fn favourite_entries(list: Vec<favourites::Favourite>) -> Vec<FavouriteEntry> {
    list.into_iter()
        .map(|f| FavouriteEntry {
            market: f.market.into(),
            symbol: f.symbol,
        })
        .collect()
}

#[OpenApi(tag = "ApiTags::Market")]
impl MarketApi {
    /// Kline history of a pair at any interval, rolled up from the stored 1-minute candles, newest
    /// page first; page backwards with `endTime`.
    #[oai(path = "/api/market/kline", method = "post", operation_id = "getKline")]
    async fn get_kline(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(hub): Data<&Arc<MarketHub>>,
        Data(kline_cache): Data<&Arc<KlineCache>>,
        query: JsonBody<KlineQuery>,
    ) -> LookupResponse<KlinePage> {
        LookupResponse::of(kline(db, hub, kline_cache, query.0).await)
    }

    /// The price info of a pair: last price, price 24 hours ago, change and change percent; for a
    /// USDT-M perpetual also its mark and index price, funding rate and next funding time.
    #[oai(
        path = "/api/contract/coin/currencyPrice",
        method = "get",
        operation_id = "getContractCurrencyPrice"
    )]
    async fn contract_currency_price(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(hub): Data<&Arc<MarketHub>>,
        Data(futures): Data<&Arc<FuturesRegistry>>,
        /// Pair id (`btcusdt`), any case.
        #[oai(validator(min_length = 1, max_length = 64))]
        symbol: Query<String>,
    ) -> LookupResponse<PriceInfo> {
        let info = match service::quote(db, hub, &symbol.0).await.map(price_info) {
            Ok(info) => info,
            Err(refusal) => return LookupResponse::of(Err(refusal)),
        };
        LookupResponse::of(Ok(match futures.funding_info(&info.symbol).await {
            Some(funding) => PriceInfo {
                mark_price: Some(funding.mark_price),
                index_price: Some(funding.index_price),
                funding_rate: Some(funding.funding_rate),
                next_funding_time: Some(funding.next_funding_time),
                ..info
            },
            None => info,
        }))
    }

    /// The price info of a pair, as the conversion (swap) screen asks for it.
    #[oai(
        path = "/api/texchange/getCurrencyPrice",
        method = "post",
        operation_id = "getCurrencyPrice"
    )]
    async fn currency_price(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(hub): Data<&Arc<MarketHub>>,
        query: JsonBody<SymbolQuery>,
    ) -> LookupResponse<PriceInfo> {
        LookupResponse::of(
            service::quote(db, hub, &query.0.symbol)
                .await
                .map(price_info),
        )
    }

    /// The order book of a pair (up to 50 levels per side), with the sequence number the market
    /// channel's depth diffs continue from.
    #[oai(path = "/api/market/depth", method = "post", operation_id = "getDepth")]
    async fn get_depth(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(hub): Data<&Arc<MarketHub>>,
        query: JsonBody<SymbolLimitQuery>,
    ) -> LookupResponse<Depth> {
        LookupResponse::of(depth(db, hub, query.0).await)
    }

    /// The recent trades of a pair (up to 100), newest first.
    #[oai(
        path = "/api/market/trades",
        method = "post",
        operation_id = "getRecentTrades"
    )]
    async fn get_recent_trades(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(hub): Data<&Arc<MarketHub>>,
        query: JsonBody<SymbolLimitQuery>,
    ) -> LookupResponse<RecentTrades> {
        LookupResponse::of(recent_trades(db, hub, query.0).await)
    }

    /// The rolling 24-hour statistics of a pair.
    #[oai(
        path = "/api/market/ticker24h",
        method = "post",
        operation_id = "getTicker24h"
    )]
    async fn ticker_24h(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(hub): Data<&Arc<MarketHub>>,
        query: JsonBody<SymbolQuery>,
    ) -> LookupResponse<Stats24h> {
        let quote = match service::quote(db, hub, &query.0.symbol).await {
            Ok(quote) => quote,
            Err(error) => return error.into(),
        };
        match quote.ticker {
            Some(ticker) => LookupResponse::Ok(Json(Envelope::ok(Stats24h {
                symbol: quote.coin.symbol,
                last_price: ticker.close,
                open_price: ticker.open,
                price_change: ticker.change(),
                price_change_percent: ticker.change_percent(),
                high_price: ticker.high,
                low_price: ticker.low,
                base_asset_volume: ticker.volume,
                quote_asset_volume: ticker.quote_volume,
                total_number_of_trades: ticker.trade_count,
                ts: ticker.ts,
            }))),
            None => Refusal::new(RefusalKind::NotFound, Msg::UnknownSymbol)
                .with_field("symbol")
                .with_param("symbol", quote.coin.symbol)
                .into(),
        }
    }

    /// The member's favourite markets, in the order they were added.
    #[oai(
        path = "/api/market/favourites",
        method = "get",
        operation_id = "getFavourites"
    )]
    async fn get_favourites(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
    ) -> MemberResponse<Vec<FavouriteEntry>> {
        let result = favourites::list(db, auth.0.id())
            .await
            .map(favourite_entries);
        MemberResponse::of(result, Msg::Success)
    }

    /// Adds a listed market to the member's favourites (`favourite: true`) or removes it
    /// (`false`); answers the whole list. Adding one twice or removing an absent one changes
    /// nothing. At most 200 favourites.
    #[oai(
        path = "/api/market/favourites",
        method = "post",
        operation_id = "setFavourite"
    )]
    async fn set_favourite(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        body: JsonBody<SetFavouriteRequest>,
    ) -> MemberResponse<Vec<FavouriteEntry>> {
        let body = body.0;
        let market = body.market.unwrap_or(FavouriteMarket::Spot).into();
        let result = favourites::set(db, auth.0.id(), market, &body.symbol, body.favourite)
            .await
            .map(favourite_entries);
        MemberResponse::of(result, Msg::Success)
    }

    /// Adds favourites kept before logging in to the member's list (the webapp sends its local
    /// list once, on the first login); answers the whole list.
    #[oai(
        path = "/api/market/favourites/merge",
        method = "post",
        operation_id = "mergeFavourites"
    )]
    async fn merge_favourites(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        body: JsonBody<MergeFavouritesRequest>,
    ) -> MemberResponse<Vec<FavouriteEntry>> {
        let entries: Vec<(MarketKind, String)> = body
            .0
            .favourites
            .into_iter()
            .map(|f| (f.market.into(), f.symbol))
            .collect();
        let result = if entries.len() > MAX_FAVOURITES {
            Err(Refusal::new(RefusalKind::Invalid, Msg::InvalidField).with_field("favourites"))
        } else {
            favourites::merge(db, auth.0.id(), &entries)
                .await
                .map(favourite_entries)
        };
        MemberResponse::of(result, Msg::Success)
    }
}

/// Levels per side of `getDepth` when no limit is given, and the most it returns.
const DEPTH_DEFAULT: u32 = 20;
const DEPTH_MAX: u32 = 50;
/// Trades of `getRecentTrades` when no limit is given.
const TRADES_DEFAULT: u32 = 50;

async fn depth(
    db: &DatabaseConnection,
    hub: &MarketHub,
    query: SymbolLimitQuery,
) -> Result<Depth, Refusal> {
    let symbol = service::quote(db, hub, &query.symbol).await?.coin.symbol;
    let limit = query.limit.unwrap_or(DEPTH_DEFAULT).min(DEPTH_MAX) as usize;
    let book = hub.book(&symbol).ok_or_else(|| {
        Refusal::new(RefusalKind::NotFound, Msg::UnknownSymbol)
            .with_field("symbol")
            .with_param("symbol", symbol.clone())
    })?;
    let book = book.top(limit);
    let levels = |side: &[crate::market::book::Level]| {
        side.iter().map(|l| vec![l.price, l.quantity]).collect()
    };
    Ok(Depth {
        bids: levels(&book.bids),
        asks: levels(&book.asks),
        seq: book.seq,
        ts: book.ts,
        symbol,
    })
}

/// The newest `query.limit` trades of a pair (also the member area's `open/transaction`).
pub(crate) async fn recent_trades(
    db: &DatabaseConnection,
    hub: &MarketHub,
    query: SymbolLimitQuery,
) -> Result<RecentTrades, Refusal> {
    let symbol = service::quote(db, hub, &query.symbol).await?.coin.symbol;
    let limit = query.limit.unwrap_or(TRADES_DEFAULT) as usize;
    let trades = hub
        .recent_trades(&symbol, limit)
        .into_iter()
        .map(|t| TradeView {
            id: t.id,
            price: t.price,
            quantity: t.quantity,
            side: match t.side {
                crate::market::hub::Side::Buy => "buy",
                crate::market::hub::Side::Sell => "sell",
            }
            .to_owned(),
            ts: t.ts,
        })
        .collect();
    Ok(RecentTrades { symbol, trades })
}

fn price_info(quote: PairQuote) -> PriceInfo {
    let ticker = quote.ticker.as_ref();
    PriceInfo {
        symbol: quote.coin.symbol,
        close: ticker.map(|t| t.close),
        open_price: ticker.map(|t| t.open),
        change: ticker.map(|t| t.change()),
        price_change_percent: ticker.and_then(|t| t.change_percent()),
        logo: quote.coin.logo,
        mark_price: None,
        index_price: None,
        funding_rate: None,
        next_funding_time: None,
    }
}

/// The document's pattern of a kline interval (`KlineQuery::interval`).
pub const INTERVAL_PATTERN: &str = "^(1m|5m|15m|30m|1h|2h|4h|1d|1w|1M|1month)$";

/// 400 `unknown_interval` naming `text`.
pub fn unknown_interval(text: &str) -> Refusal {
    Refusal::new(RefusalKind::Invalid, Msg::UnknownInterval)
        .with_field("interval")
        .with_param("interval", text.to_owned())
}

async fn kline(
    db: &DatabaseConnection,
    hub: &MarketHub,
    kline_cache: &KlineCache,
    query: KlineQuery,
) -> Result<KlinePage, Refusal> {
    let interval =
        Interval::parse(&query.interval).map_err(|_| unknown_interval(&query.interval))?;
    let symbol = service::quote(db, hub, &query.symbol).await?.coin.symbol;
    let page = kline_cache
        .history(
            db,
            &symbol,
            interval,
            query.end_time,
            query.limit.unwrap_or(500).min(MAX_PAGE),
            query.offset_minutes.unwrap_or(0),
        )
        .await
        .map_err(Refusal::internal)?;
    Ok(KlinePage {
        symbol,
        interval: interval.as_str().to_owned(),
        candles: page.candles.iter().map(candle).collect(),
        has_more: page.has_more,
    })
}

fn candle(candle: &Candle) -> KlineCandle {
    KlineCandle {
        open_time: candle.open_time,
        open: candle.open,
        high: candle.high,
        low: candle.low,
        close: candle.close,
        base_volume: candle.base_volume,
        quote_volume: candle.quote_volume,
        trade_count: candle.trade_count,
    }
}
