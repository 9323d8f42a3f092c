//! HTTP of USDT-M futures (spec section 7): `contract/order/submit`, `order/list`,
//! `order/canCelOrder`, `contract/position/list`, `position/stopOrder` (take profit and stop loss),
//! `contract/loss/list`, `loss/sett`, `loss/cancel`; and the designed extras
//! `contract/position/margin` (add or remove isolated margin), `contract/position/leverage` (the
//! leverage and margin mode of new orders), `contract/position/history` (closed positions, paged),
//! `contract/funding/list` (the user's funding payments)
//! and the public `contract/coin/fundingInfo` (rate, countdown, mark and index) and
//! `contract/coin/rules` (tiers, fees and funding settings). Money-moving calls
//! take an optional `Idempotency-Key`.

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::{
    Enum, Object, OpenApi, Tags,
    param::{Header, Query},
};
use rust_decimal::Decimal;
use sea_orm::DatabaseConnection;
use serde::{Deserialize, Serialize};
use wasm_core::margin::MarginDirection;

use super::engine::{Answer, Command, OrderSpec, StopSpec};
use super::service;
use super::views::{
    ClosedPosition, ContractRules, FundingInfo, FuturesOrder, FuturesOrderType, FuturesPosition,
    FuturesSetting, FuturesStopOrder, MarginModeView, OrderSide, PositionSide,
};
use crate::funds::api::replayed;
use crate::futures::FuturesRegistry;
use crate::http::{DecimalText, JsonBody, LookupResponse, MemberResponse, WholeText};
use crate::i18n::Msg;
use crate::paging::Paging;
use crate::user::Satoken;

#[derive(Tags)]
enum ApiTags {
    /// USDT-M perpetual futures: orders, positions, stop orders, margin, funding.
    Futures,
}

/// The futures calls.
pub struct FuturesApi;

/// A new futures order.
#[derive(Debug, Object, Deserialize, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct FuturesOrderRequest {
    /// Pair (`btcusdt`), any case.
    #[oai(validator(min_length = 1, max_length = 32))]
    pub symbol: String,
    /// Buy (long) or sell (short).
    pub side: OrderSide,
    /// Market or limit.
    pub order_type: FuturesOrderType,
    /// Limit price, on the symbol's tick (limit orders).
    #[oai(validator(max_length = 40))]
    pub price: Option<DecimalText>,
    /// Quantity in the base asset, on the symbol's step (not with `closePosition`).
    #[oai(validator(max_length = 40))]
    pub quantity: Option<DecimalText>,
    /// Leverage of what the order opens (the user's setting when absent; an open position keeps
    /// its own). Refused above the maximum of the tier the resulting notional falls into.
    #[oai(validator(max_length = 8))]
    pub leverage: Option<WholeText>,
    /// Margin mode of what the order opens (the user's setting when absent).
    pub margin_mode: Option<MarginModeView>,
    /// Only reduce the position (never open or flip it).
    pub reduce_only: Option<bool>,
    /// Close the whole position (the side must be the opposite of the position's).
    pub close_position: Option<bool>,
}

/// A page of futures orders, newest first.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct FuturesOrderPage {
    /// Orders matching the query.
    pub total: u64,
    /// This page (from 1).
    pub page: u64,
    /// Page size.
    pub page_size: u64,
    /// The orders.
    pub records: Vec<FuturesOrder>,
}

/// A page of the position history, the latest closed first.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ClosedPositionPage {
    /// Closed and liquidated positions matching the query.
    pub total: u64,
    /// This page (from 1).
    pub page: u64,
    /// Page size.
    pub page_size: u64,
    /// The positions.
    pub records: Vec<ClosedPosition>,
}

/// Open or finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Enum)]
#[oai(rename = "FuturesScope", rename_all = "lowercase")]
pub enum Scope {
    /// Open orders, open positions, waiting stop orders.
    #[default]
    Current,
    /// Finished ones.
    History,
}

/// Take-profit and stop-loss prices of a position; an absent price clears it.
#[derive(Debug, Object, Deserialize, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct TpSlRequest {
    /// Pair (`btcusdt`).
    #[oai(validator(min_length = 1, max_length = 32))]
    pub symbol: String,
    /// Take profit: above the mark for a long, below it for a short.
    #[oai(validator(max_length = 40))]
    pub take_profit_price: Option<DecimalText>,
    /// Stop loss: below the mark for a long, above it for a short.
    #[oai(validator(max_length = 40))]
    pub stop_loss_price: Option<DecimalText>,
}

/// A stop order on the mark price.
#[derive(Debug, Object, Deserialize, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct StopRequest {
    /// Pair (`btcusdt`).
    #[oai(validator(min_length = 1, max_length = 32))]
    pub symbol: String,
    /// The mark price that fires it (not the mark now).
    #[oai(validator(max_length = 40))]
    pub trigger_price: DecimalText,
    /// Quantity to close at market; the whole position when absent.
    #[oai(validator(max_length = 40))]
    pub quantity: Option<DecimalText>,
    /// The side of the position it closes (the open position's when absent).
    pub position_side: Option<PositionSide>,
}

/// Add or remove.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum MarginChange {
    /// From the trading wallet into the position.
    Add,
    /// From the position back to the trading wallet.
    Remove,
}

/// A change of an isolated position's margin.
#[derive(Debug, Object, Deserialize, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MarginRequest {
    /// Pair (`btcusdt`).
    #[oai(validator(min_length = 1, max_length = 32))]
    pub symbol: String,
    /// Add or remove.
    pub direction: MarginChange,
    /// USDT.
    #[oai(validator(max_length = 40))]
    pub amount: DecimalText,
}

/// The leverage and margin mode of new orders in a symbol; absent fields stay as they are (an
/// empty change reads the setting).
#[derive(Debug, Object, Deserialize, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct LeverageRequest {
    /// Pair (`btcusdt`).
    #[oai(validator(min_length = 1, max_length = 32))]
    pub symbol: String,
    /// A whole leverage from 1 to the symbol's maximum.
    #[oai(validator(max_length = 8))]
    pub leverage: Option<WholeText>,
    /// Isolated or cross (refused while a position or an order is open in the symbol).
    pub margin_mode: Option<MarginModeView>,
}

/// One funding payment of a position.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct FundingPayment {
    /// Record id.
    pub id: i64,
    /// Pair.
    pub symbol: String,
    /// The position.
    pub position_id: i64,
    /// `long` or `short`.
    pub side: String,
    /// Size at the funding.
    pub size: Decimal,
    /// Mark price at the funding.
    pub mark_price: Decimal,
    /// The rate (fraction).
    pub rate: Decimal,
    /// Paid (positive) or received (negative), USDT.
    pub payment: Decimal,
    /// Unix milliseconds.
    pub funding_time: i64,
}

fn dec(text: &str) -> Decimal {
    wasm_core::money::parse_decimal(text).unwrap_or_default()
}

#[OpenApi(tag = "ApiTags::Futures")]
impl FuturesApi {
    /// Places a futures order: market (filled at once against the book's ladder, volume-weighted)
    /// or limit (rests, holding its margin and fee, and fills at its price when the mark reaches
    /// it); reduce-only or closing the whole position. Refused, with nothing changed: leverage
    /// above the tier's maximum, a size above the largest the available balance opens (wasm-core's
    /// `max_open_size`), an insufficient balance.
    #[oai(
        path = "/api/contract/order/submit",
        method = "post",
        operation_id = "submitFuturesOrder"
    )]
    async fn submit(
        &self,
        Data(futures): Data<&Arc<FuturesRegistry>>,
        auth: Satoken,
        /// Makes a retry safe: the same key and body answer like the first request and place nothing.
        #[oai(name = "Idempotency-Key")]
        idempotency_key: Header<Option<String>>,
        body: JsonBody<FuturesOrderRequest>,
    ) -> MemberResponse<FuturesOrder> {
        let body = body.0;
        let user_id = auth.0.id();
        let result = async {
            let idempotency = crate::funds::service::idempotency(
                user_id,
                idempotency_key.0.as_deref(),
                "submitFuturesOrder",
                &body,
            )?;
            let symbol = service::symbol(&body.symbol);
            let rules = futures.rules(&symbol)?;
            let price = match body.order_type {
                FuturesOrderType::Limit => Some(service::required(
                    service::price(&rules, body.price.as_deref(), "price")?,
                    "price",
                )?),
                FuturesOrderType::Market => None,
            };
            let close_position = body.close_position.unwrap_or(false);
            let quantity = service::quantity(&rules, body.quantity.as_deref(), "quantity")?;
            if !close_position {
                service::required(quantity, "quantity")?;
            }
            let leverage = service::decimal_field(
                body.leverage.as_deref(),
                "leverage",
                Some((Decimal::ONE, false)),
            )?;
            let spec = OrderSpec {
                side: body.side,
                order_type: body.order_type,
                price,
                quantity,
                leverage,
                mode: body.margin_mode.map(Into::into),
                reduce_only: body.reduce_only.unwrap_or(false),
                close_position,
            };
            match service::submit(futures, &symbol, user_id, spec, idempotency).await? {
                Answer::Done(order) => Ok(order),
                Answer::Replayed(first) => replayed(&first),
            }
        }
        .await;
        MemberResponse::of(result, Msg::OrderPlaced)
    }

    /// The user's futures orders, newest first: open ones (`scope=current`) or filled and
    /// cancelled ones (`scope=history`).
    #[oai(
        path = "/api/contract/order/list",
        method = "post",
        operation_id = "listFuturesOrders"
    )]
    async fn order_list(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// Open or finished orders.
        scope: Query<Option<Scope>>,
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
    ) -> MemberResponse<FuturesOrderPage> {
        let Paging { page, page_size } = Paging::new(page.0, page_size.0);
        let result = service::orders(
            db,
            auth.0.id(),
            scope.0.unwrap_or_default() == Scope::Current,
            symbol.0.as_deref(),
            page,
            page_size,
        )
        .await
        .map(|(total, records)| FuturesOrderPage {
            total,
            page,
            page_size,
            records,
        });
        MemberResponse::of(result, Msg::Success)
    }

    /// Cancels a resting futures order of the user; its hold returns to the trading wallet.
    #[oai(
        path = "/api/contract/order/canCelOrder",
        method = "post",
        operation_id = "cancelFuturesOrder"
    )]
    async fn cancel_order(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(futures): Data<&Arc<FuturesRegistry>>,
        auth: Satoken,
        /// The order.
        id: Query<i64>,
    ) -> MemberResponse<FuturesOrder> {
        let user_id = auth.0.id();
        let result = async {
            let symbol = service::order_symbol(db, user_id, id.0).await?;
            futures
                .ask(&symbol, |reply| Command::Cancel {
                    user_id,
                    order_id: id.0,
                    reply,
                })
                .await
        }
        .await;
        MemberResponse::of(result, Msg::OrderCancelled)
    }

    /// The user's positions: open ones with their figures at the mark price (`scope=current`;
    /// the liquidation price is wasm-core's) or closed and liquidated ones (`scope=history`).
    #[oai(
        path = "/api/contract/position/list",
        method = "post",
        operation_id = "listFuturesPositions"
    )]
    async fn position_list(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(futures): Data<&Arc<FuturesRegistry>>,
        auth: Satoken,
        /// Open or finished positions.
        scope: Query<Option<Scope>>,
        /// Only this pair.
        symbol: Query<Option<String>>,
    ) -> MemberResponse<Vec<FuturesPosition>> {
        let result = service::positions(
            db,
            futures,
            auth.0.id(),
            scope.0.unwrap_or_default() == Scope::Current,
            symbol.0.as_deref(),
        )
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// The user's position history: closed and liquidated positions with their entry and average
    /// exit prices, size, realised PnL, fees and funding, the latest closed first, paged.
    #[oai(
        path = "/api/contract/position/history",
        method = "post",
        operation_id = "listFuturesPositionHistory"
    )]
    async fn position_history(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
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
    ) -> MemberResponse<ClosedPositionPage> {
        let Paging { page, page_size } = Paging::new(page.0, page_size.0);
        let result =
            service::position_history(db, auth.0.id(), symbol.0.as_deref(), page, page_size)
                .await
                .map(|(total, records)| ClosedPositionPage {
                    total,
                    page,
                    page_size,
                    records,
                });
        MemberResponse::of(result, Msg::Success)
    }

    /// Sets the take-profit and stop-loss prices of the user's position (an absent price clears
    /// it). They fire on the mark price and close the whole position at market. A price on the
    /// wrong side of the mark is refused.
    #[oai(
        path = "/api/contract/position/stopOrder",
        method = "post",
        operation_id = "setFuturesTpSl"
    )]
    async fn stop_order(
        &self,
        Data(futures): Data<&Arc<FuturesRegistry>>,
        auth: Satoken,
        body: JsonBody<TpSlRequest>,
    ) -> MemberResponse<FuturesPosition> {
        let user_id = auth.0.id();
        let result = async {
            let body = body.0;
            let symbol = service::symbol(&body.symbol);
            let rules = futures.rules(&symbol)?;
            let take_profit =
                service::price(&rules, body.take_profit_price.as_deref(), "takeProfitPrice")?;
            let stop_loss =
                service::price(&rules, body.stop_loss_price.as_deref(), "stopLossPrice")?;
            futures
                .ask(&symbol, |reply| Command::SetTpSl {
                    user_id,
                    take_profit,
                    stop_loss,
                    reply,
                })
                .await
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// The user's stop orders, newest first: waiting ones (`scope=current`) or triggered and
    /// cancelled ones (`scope=history`).
    #[oai(
        path = "/api/contract/loss/list",
        method = "post",
        operation_id = "listFuturesStops"
    )]
    async fn loss_list(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// Waiting or finished.
        scope: Query<Option<Scope>>,
        /// Only this pair.
        symbol: Query<Option<String>>,
    ) -> MemberResponse<Vec<FuturesStopOrder>> {
        let result = service::stops(
            db,
            auth.0.id(),
            scope.0.unwrap_or_default() == Scope::Current,
            symbol.0.as_deref(),
        )
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Places a stop order: when the mark price reaches the trigger (from the side it is on now),
    /// the quantity (or the whole position) closes at market.
    #[oai(
        path = "/api/contract/loss/sett",
        method = "post",
        operation_id = "setFuturesStop"
    )]
    async fn loss_sett(
        &self,
        Data(futures): Data<&Arc<FuturesRegistry>>,
        auth: Satoken,
        /// Makes a retry safe: the same key and body answer like the first request and place nothing.
        #[oai(name = "Idempotency-Key")]
        idempotency_key: Header<Option<String>>,
        body: JsonBody<StopRequest>,
    ) -> MemberResponse<FuturesStopOrder> {
        let user_id = auth.0.id();
        let body = body.0;
        let result = async {
            let idempotency = crate::funds::service::idempotency(
                user_id,
                idempotency_key.0.as_deref(),
                "setFuturesStop",
                &body,
            )?;
            let symbol = service::symbol(&body.symbol);
            let rules = futures.rules(&symbol)?;
            let spec = StopSpec {
                position_side: body.position_side.map(Into::into),
                trigger_price: service::required(
                    service::price(&rules, Some(&body.trigger_price), "triggerPrice")?,
                    "triggerPrice",
                )?,
                quantity: service::quantity(&rules, body.quantity.as_deref(), "quantity")?,
            };
            match service::set_stop(futures, &symbol, user_id, spec, idempotency).await? {
                Answer::Done(stop) => Ok(stop),
                Answer::Replayed(first) => replayed(&first),
            }
        }
        .await;
        MemberResponse::of(result, Msg::OrderPlaced)
    }

    /// Cancels a waiting stop order of the user.
    #[oai(
        path = "/api/contract/loss/cancel",
        method = "post",
        operation_id = "cancelFuturesStop"
    )]
    async fn loss_cancel(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(futures): Data<&Arc<FuturesRegistry>>,
        auth: Satoken,
        /// The stop order.
        id: Query<i64>,
    ) -> MemberResponse<FuturesStopOrder> {
        let user_id = auth.0.id();
        let result = async {
            let symbol = service::stop_symbol(db, user_id, id.0).await?;
            futures
                .ask(&symbol, |reply| Command::CancelStop {
                    user_id,
                    stop_id: id.0,
                    reply,
                })
                .await
        }
        .await;
        MemberResponse::of(result, Msg::OrderCancelled)
    }

    /// Adds margin to or removes margin from the user's isolated position (wasm-core's
    /// `margin_adjustment`): a removal above what keeps the initial margin at the mark covered is
    /// refused; the answer carries the new liquidation price.
    #[oai(
        path = "/api/contract/position/margin",
        method = "post",
        operation_id = "adjustFuturesMargin"
    )]
    async fn adjust_margin(
        &self,
        Data(futures): Data<&Arc<FuturesRegistry>>,
        auth: Satoken,
        /// Makes a retry safe: the same key and body answer like the first request and move nothing.
        #[oai(name = "Idempotency-Key")]
        idempotency_key: Header<Option<String>>,
        body: JsonBody<MarginRequest>,
    ) -> MemberResponse<FuturesPosition> {
        let user_id = auth.0.id();
        let body = body.0;
        let result = async {
            let idempotency = crate::funds::service::idempotency(
                user_id,
                idempotency_key.0.as_deref(),
                "adjustFuturesMargin",
                &body,
            )?;
            let symbol = service::symbol(&body.symbol);
            futures.rules(&symbol)?;
            let amount = service::required(
                service::decimal_field(Some(&body.amount), "amount", None)?,
                "amount",
            )?;
            let direction = match body.direction {
                MarginChange::Add => MarginDirection::Add,
                MarginChange::Remove => MarginDirection::Remove,
            };
            let answer = futures
                .ask(&symbol, |reply| Command::AdjustMargin {
                    user_id,
                    direction,
                    amount,
                    idempotency,
                    reply,
                })
                .await?;
            match answer {
                Answer::Done(position) => Ok(position),
                Answer::Replayed(first) => replayed(&first),
            }
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Reads or changes the leverage and margin mode of the user's new orders in a symbol. A
    /// leverage above the symbol's maximum is refused; so is a mode change while a position or an
    /// order is open there (an open position keeps its own leverage and mode).
    #[oai(
        path = "/api/contract/position/leverage",
        method = "post",
        operation_id = "setFuturesLeverage"
    )]
    async fn leverage(
        &self,
        Data(futures): Data<&Arc<FuturesRegistry>>,
        auth: Satoken,
        body: JsonBody<LeverageRequest>,
    ) -> MemberResponse<FuturesSetting> {
        let user_id = auth.0.id();
        let result = async {
            let body = body.0;
            let symbol = service::symbol(&body.symbol);
            futures.rules(&symbol)?;
            let leverage = service::decimal_field(
                body.leverage.as_deref(),
                "leverage",
                Some((Decimal::ONE, false)),
            )?;
            let mode = body.margin_mode.map(Into::into);
            if leverage.is_none() && mode.is_none() {
                return futures
                    .ask(&symbol, |reply| Command::Setting { user_id, reply })
                    .await;
            }
            futures
                .ask(&symbol, |reply| Command::SetLeverage {
                    user_id,
                    leverage,
                    mode,
                    reply,
                })
                .await
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// The user's funding payments, newest first (up to 200).
    #[oai(
        path = "/api/contract/funding/list",
        method = "post",
        operation_id = "listFuturesFundings"
    )]
    async fn funding_list(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// Only this pair.
        symbol: Query<Option<String>>,
    ) -> MemberResponse<Vec<FundingPayment>> {
        let result = service::fundings(db, auth.0.id(), symbol.0.as_deref())
            .await
            .map(|rows| {
                rows.into_iter()
                    .map(|row| FundingPayment {
                        id: row.id,
                        symbol: row.symbol,
                        position_id: row.position_id,
                        side: row.side,
                        size: dec(&row.size),
                        mark_price: dec(&row.mark_price),
                        rate: dec(&row.rate),
                        payment: dec(&row.payment),
                        funding_time: row.funding_time,
                    })
                    .collect()
            });
        MemberResponse::of(result, Msg::Success)
    }

    /// The funding of a symbol now: the rate the next funding applies if the premium stays, the
    /// last rate, the next funding time and its countdown, the mark and index prices.
    #[oai(
        path = "/api/contract/coin/fundingInfo",
        method = "get",
        operation_id = "getFuturesFundingInfo"
    )]
    async fn funding_info(
        &self,
        Data(futures): Data<&Arc<FuturesRegistry>>,
        /// Pair (`btcusdt`), any case.
        #[oai(validator(min_length = 1, max_length = 64))]
        symbol: Query<String>,
    ) -> LookupResponse<FundingInfo> {
        let symbol = service::symbol(&symbol.0);
        let result = match futures.rules(&symbol) {
            Ok(_) => futures
                .funding_info(&symbol)
                .await
                .ok_or_else(|| super::registry::unavailable(&symbol)),
            Err(refusal) => Err(refusal),
        };
        LookupResponse::of(result)
    }

    /// The rules of a USDT-M perpetual: its maintenance margin tiers, fee rates and funding
    /// settings, as the server applies them (the order form's preview computes with these).
    #[oai(
        path = "/api/contract/coin/rules",
        method = "get",
        operation_id = "getContractRules"
    )]
    async fn contract_rules(
        &self,
        Data(futures): Data<&Arc<FuturesRegistry>>,
        /// Pair (`btcusdt`), any case.
        #[oai(validator(min_length = 1, max_length = 64))]
        symbol: Query<String>,
    ) -> LookupResponse<ContractRules> {
        let symbol = service::symbol(&symbol.0);
        LookupResponse::of(futures.contract_rules(&symbol))
    }
}
