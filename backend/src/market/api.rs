//! HTTP of the market data calls: `POST /api/market/kline` (kline history, paged backwards).

use poem::{http::StatusCode, web::Data};
use poem_openapi::{ApiResponse, Object, OpenApi, Tags, payload::Json};
use rust_decimal::Decimal;
use serde::Deserialize;
use wasm_core::kline::{Candle, Interval};

use crate::app::AppState;
use crate::common::service::is_listed;
use crate::http::{ApiError, Envelope, ErrorEnvelope, JsonBody};
use crate::i18n::Msg;
use crate::market::candles::{self, MAX_PAGE};

#[derive(Tags)]
enum ApiTags {
    /// Market data: kline history.
    Market,
}

/// The market data calls; the shared state comes with each request as `Data<&AppState>`.
pub struct MarketApi;

/// A kline history request. Page backwards by passing the first candle's `openTime` of the
/// previous page as `endTime`.
#[derive(Debug, Clone, Object, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(rename_all = "camelCase")]
pub struct KlineQuery {
    /// Pair id (`btcusdt`), any case.
    #[oai(validator(min_length = 1, max_length = 64))]
    pub symbol: String,
    /// `1m`, `5m`, `15m`, `30m`, `1h`, `2h`, `4h`, `1d`, `1w`, `1M` (or `1month`).
    pub interval: String,
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

/// Outcomes of `getKline`.
#[derive(ApiResponse)]
#[oai(bad_request_handler = "kline_bad_request")]
pub enum KlineResponse {
    /// The candles.
    #[oai(status = 200)]
    Ok(Json<Envelope<KlinePage>>),
    /// The request could not be read, or names an unknown interval: `msg` says which.
    #[oai(status = 400)]
    BadRequest(Json<ErrorEnvelope>),
    /// No listed pair has this symbol.
    #[oai(status = 404)]
    NotFound(Json<ErrorEnvelope>),
    /// The body is larger than 1 MiB.
    #[oai(status = 413)]
    PayloadTooLarge(Json<ErrorEnvelope>),
    /// The body is not declared as JSON.
    #[oai(status = 415)]
    UnsupportedMediaType(Json<ErrorEnvelope>),
    /// The history could not be read.
    #[oai(status = 500)]
    InternalError(Json<ErrorEnvelope>),
}

impl From<ApiError> for KlineResponse {
    fn from(error: ApiError) -> Self {
        let envelope = Json(error.envelope());
        match error.status {
            StatusCode::NOT_FOUND => Self::NotFound(envelope),
            StatusCode::PAYLOAD_TOO_LARGE => Self::PayloadTooLarge(envelope),
            StatusCode::UNSUPPORTED_MEDIA_TYPE => Self::UnsupportedMediaType(envelope),
            status if status.is_server_error() => Self::InternalError(envelope),
            _ => Self::BadRequest(envelope),
        }
    }
}

fn kline_bad_request(error: poem::Error) -> KlineResponse {
    ApiError::from_poem(&error).into()
}

#[OpenApi(tag = "ApiTags::Market")]
impl MarketApi {
    /// Kline history of a pair at any interval, rolled up from the stored 1-minute candles, newest
    /// page first; page backwards with `endTime`.
    #[oai(path = "/api/market/kline", method = "post", operation_id = "getKline")]
    async fn get_kline(
        &self,
        state: Data<&AppState>,
        query: JsonBody<KlineQuery>,
    ) -> KlineResponse {
        match kline(&state, query.0).await {
            Ok(page) => KlineResponse::Ok(Json(Envelope::ok(page))),
            Err(error) => error.into(),
        }
    }
}

async fn kline(state: &AppState, query: KlineQuery) -> Result<KlinePage, ApiError> {
    let interval = Interval::parse(query.interval.trim()).map_err(|_| {
        ApiError::new(StatusCode::BAD_REQUEST, Msg::UnknownInterval)
            .with_field("interval")
            .with_param("interval", query.interval.clone())
    })?;
    let symbol = query.symbol.trim().to_ascii_lowercase();
    if !is_listed(&state.db, &symbol).await? {
        return Err(ApiError::new(StatusCode::NOT_FOUND, Msg::UnknownSymbol)
            .with_field("symbol")
            .with_param("symbol", symbol));
    }
    let page = candles::history(
        &state.db,
        &symbol,
        interval,
        query.end_time,
        query.limit.unwrap_or(500).min(MAX_PAGE),
        query.offset_minutes.unwrap_or(0),
    )
    .await
    .map_err(ApiError::internal)?;
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
