//! HTTP of spot trading (spec section 7): `currency/order/submit`, `orderList`, `cancelOrder`,
//! the member area's `entrust/getEntrustLogCurrency` (the user's fills) and the public
//! `open/transaction/{symbol}/{limit}` (a pair's latest trades). Orders are checked by wasm-core's
//! `validate_spot_order` — the rule the order form runs on every keystroke — before they reach the
//! pair's market task; submitting takes an optional `Idempotency-Key`.

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::{
    Object, OpenApi, Tags,
    param::{Header, Path, Query},
};
use sea_orm::DatabaseConnection;
use serde::{Deserialize, Serialize};

use super::engine::{Answer, OrderSpec, Submit};
use super::service;
use super::views::{OrderSide, OrderType, SpotFill, SpotOrder, TimeInForce};
use crate::config::Config;
use crate::funds::api::replayed;
use crate::http::{DecimalText, JsonBody, LookupResponse, MemberResponse, check_head};
use crate::i18n::Msg;
use crate::market::MarketHub;
use crate::market::api::{RecentTrades, SymbolLimitQuery, recent_trades};
use crate::paging::Paging;
use crate::refusal::Refusal;
use crate::spot::SpotRegistry;
use crate::user::{Satoken, SatokenCached};

#[derive(Tags)]
enum ApiTags {
    /// Spot orders, their fills and the pairs' latest trades.
    SpotTrading,
}

/// The spot trading calls.
pub struct SpotApi;

/// A new spot order.
#[derive(Debug, Object, Deserialize, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct SpotOrderRequest {
    /// Pair (`btcusdt`), any case.
    #[oai(validator(min_length = 1, max_length = 32))]
    pub symbol: String,
    /// Buy or sell.
    pub side: OrderSide,
    /// Limit, market or stop-limit.
    pub order_type: OrderType,
    /// Limit price (limit and stop-limit), on the pair's tick.
    #[oai(validator(max_length = 40))]
    pub price: Option<DecimalText>,
    /// Base quantity, on the pair's step (every order but a market buy by amount).
    #[oai(validator(max_length = 40))]
    pub quantity: Option<DecimalText>,
    /// Market buys only: the quote amount to spend instead of a quantity.
    #[oai(validator(max_length = 40))]
    pub quote_amount: Option<DecimalText>,
    /// Stop-limit: the last price that places the order.
    #[oai(validator(max_length = 40))]
    pub trigger_price: Option<DecimalText>,
    /// Limit orders: `gtc` (default), `ioc` or `fok`.
    pub time_in_force: Option<TimeInForce>,
    /// Limit GTC orders: refuse instead of taking liquidity.
    #[serde(default)]
    pub post_only: Option<bool>,
}

/// A page of orders, newest first.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SpotOrderPage {
    /// Orders matching the query.
    pub total: u64,
    /// This page (from 1).
    pub page: u64,
    /// Page size.
    pub page_size: u64,
    /// The orders.
    pub records: Vec<SpotOrder>,
}

/// Which fills to read.
#[derive(Debug, Default, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct FillQuery {
    /// Only this pair.
    #[oai(validator(max_length = 32))]
    pub symbol: Option<String>,
    /// Only the user's buys or sells.
    pub side: Option<OrderSide>,
    /// From this time (unix ms, inclusive).
    pub start_time: Option<i64>,
    /// Until this time (unix ms, exclusive).
    pub end_time: Option<i64>,
    /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
    #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
    pub page: Option<u64>,
    /// Page size, 1 to 100 (default 20).
    #[oai(validator(minimum(value = "1"), maximum(value = "100")))]
    pub page_size: Option<u64>,
}

/// A page of the user's fills, newest first.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SpotFillPage {
    /// Fills matching the query.
    pub total: u64,
    /// This page (from 1).
    pub page: u64,
    /// Page size.
    pub page_size: u64,
    /// The fills.
    pub records: Vec<SpotFill>,
}

/// Which orders `orderList` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, poem_openapi::Enum)]
#[oai(rename_all = "lowercase")]
pub enum OrderScope {
    /// Open orders: waiting for a trigger, in the book, partly filled.
    #[default]
    Current,
    /// Finished orders: filled or cancelled.
    History,
}

#[OpenApi(tag = "ApiTags::SpotTrading")]
impl SpotApi {
    /// Places a spot order: limit (GTC, IOC, FOK, post-only), market (by quantity, or a buy by
    /// quote amount) or stop-limit. Its funds are held at once; the answer is the order after
    /// matching (a market order comes back filled, or cancelled with what it executed).
    #[oai(
        path = "/api/currency/order/submit",
        method = "post",
        operation_id = "submitSpotOrder"
    )]
    async fn submit(
        &self,
        Data(spot): Data<&Arc<SpotRegistry>>,
        Data(hub): Data<&Arc<MarketHub>>,
        auth: SatokenCached,
        /// Makes a retry safe: the same key and body answer like the first request and place nothing.
        #[oai(name = "Idempotency-Key")]
        idempotency_key: Header<Option<String>>,
        body: JsonBody<SpotOrderRequest>,
    ) -> MemberResponse<SpotOrder> {
        let body = body.0;
        let user_id = auth.0.id();
        let result = async {
            let idempotency = crate::funds::service::idempotency(
                user_id,
                idempotency_key.0.as_deref(),
                "submitSpotOrder",
                &body,
            )?;
            let symbol = body.symbol.trim().to_ascii_lowercase();
            let rules = service::rules(spot, &symbol)?;
            let order = service::checked_order(hub, &rules, &body)?;
            let answer = spot
                .submit(&symbol, |reply| Submit {
                    user_id,
                    side: body.side,
                    spec: order.spec,
                    time_in_force: order.time_in_force,
                    post_only: order.post_only,
                    idempotency,
                    reply,
                })
                .await?;
            match answer {
                Answer::Order(order) => Ok(*order),
                Answer::Replayed(first) => replayed(&first),
            }
        }
        .await;
        MemberResponse::of(result, Msg::OrderPlaced)
    }

    /// The user's spot orders, newest first: open ones (`scope=current`: waiting for a trigger,
    /// in the book, partly filled) or finished ones (`scope=history`: filled or cancelled).
    #[oai(
        path = "/api/currency/order/orderList",
        method = "post",
        operation_id = "listSpotOrders"
    )]
    async fn order_list(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: SatokenCached,
        /// Open or finished orders.
        scope: Query<Option<OrderScope>>,
        /// Only this pair.
        symbol: Query<Option<String>>,
        /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
        #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
        page: Query<Option<u64>>,
        /// Page size, 1 to 100 (default 20).
        #[oai(
            name = "pageSize",
            validator(minimum(value = "1"), maximum(value = "100"))
        )]
        page_size: Query<Option<u64>>,
    ) -> MemberResponse<SpotOrderPage> {
        let Paging { page, page_size } = Paging::new(page.0, page_size.0);
        let result = service::orders(
            db,
            auth.0.id(),
            scope.0.unwrap_or_default() == OrderScope::Current,
            symbol.0.as_deref(),
            page,
            page_size,
        )
        .await
        .map(|(total, records)| SpotOrderPage {
            total,
            page,
            page_size,
            records,
        });
        MemberResponse::of(result, Msg::Success)
    }

    /// Cancels an open spot order of the user; what it still held is released at once.
    #[oai(
        path = "/api/currency/order/cancelOrder",
        method = "post",
        operation_id = "cancelSpotOrder"
    )]
    async fn cancel_order(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(spot): Data<&Arc<SpotRegistry>>,
        auth: SatokenCached,
        /// The order.
        id: Query<i64>,
    ) -> MemberResponse<SpotOrder> {
        let user_id = auth.0.id();
        let result = async {
            // An open order's pair is known in memory; the database tells the rest apart (an
            // order no longer open, someone else's, none at all).
            let symbol = match spot.open_order_symbol(user_id, id.0) {
                Some(symbol) => symbol.to_string(),
                None => service::symbol_of(db, user_id, id.0).await?,
            };
            spot.cancel(&symbol, user_id, id.0).await
        }
        .await;
        MemberResponse::of(result, Msg::OrderCancelled)
    }

    /// The user's spot fills (trade history), newest first.
    #[oai(
        path = "/api/:head/coin/entrust/getEntrustLogCurrency",
        method = "post",
        operation_id = "getEntrustLogCurrency"
    )]
    async fn entrust_log(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        auth: Satoken,
        /// The configured API head.
        head: Path<String>,
        body: JsonBody<FillQuery>,
    ) -> MemberResponse<SpotFillPage> {
        let result = async {
            check_head(&head, config)?;
            let query = body.0;
            let Paging { page, page_size } = Paging::new(query.page, query.page_size);
            let (total, records) = service::fills(db, auth.0.id(), &query, page, page_size).await?;
            Ok::<_, Refusal>(SpotFillPage {
                total,
                page,
                page_size,
                records,
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// The latest trades of a pair (real fills and the reference market's), newest first.
    #[oai(
        path = "/api/:head/coin/open/transaction/:symbol/:limit",
        method = "get",
        operation_id = "getOpenTransactions"
    )]
    async fn open_transactions(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(hub): Data<&Arc<MarketHub>>,
        /// The configured API head.
        head: Path<String>,
        /// Pair (`btcusdt`), any case.
        symbol: Path<String>,
        /// How many, 1 to 100.
        #[oai(validator(minimum(value = "1"), maximum(value = "100")))]
        limit: Path<u32>,
    ) -> LookupResponse<RecentTrades> {
        let result = async {
            check_head(&head, config)?;
            recent_trades(
                db,
                hub,
                SymbolLimitQuery {
                    symbol: symbol.0,
                    limit: Some(limit.0),
                },
            )
            .await
        }
        .await;
        LookupResponse::of(result)
    }
}

/// An order's decimals after the rules passed.
pub(super) struct CheckedOrder {
    pub spec: OrderSpec,
    pub time_in_force: TimeInForce,
    pub post_only: bool,
}
