//! HTTP of seconds (flash) contracts: `GET /api/seconds/config` (what is offered),
//! `POST /api/seconds/order/submit` (a bet, with an optional `Idempotency-Key`) and
//! `POST /api/seconds/order/list` (open bets with their countdown, settled ones with their
//! settlement inputs). The rules are in `service.rs`; settlement in `engine.rs`.

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::{
    Object, OpenApi, Tags,
    param::{Header, Query},
    payload::Json,
};
use sea_orm::DatabaseConnection;
use serde::{Deserialize, Serialize};

use super::service::{self, NewOrder, STAKE_COIN, Submitted};
use super::settle::{Direction, RULE};
use super::views::SecondsOrder;
use crate::config::Config;
use crate::funds::api::replayed;
use crate::http::{Envelope, JsonBody, MemberResponse, WholeText};
use crate::i18n::Msg;
use crate::paging::Paging;
use crate::refusal::Refusal;
use crate::seconds::SecondsEngine;
use crate::user::Satoken;

#[derive(Tags)]
enum ApiTags {
    /// Seconds (flash) contracts: up/down calls settled at expiry from the stored ticks.
    SecondsContracts,
}

/// The seconds contract calls.
pub struct SecondsApi;

/// One period offered.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SecondsPeriodView {
    /// Seconds from acceptance to expiry.
    pub seconds: u32,
    /// Profit of a right call as a fraction of the stake (`0.85`).
    pub payout_rate: String,
    /// Smallest stake, USDT.
    pub min_stake: String,
    /// Largest stake, USDT.
    pub max_stake: String,
}

/// A pair offered for seconds contracts.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SecondsSymbol {
    /// Pair id, lower case (`btcusdt`).
    pub symbol: String,
    /// Display name (`BTC/USDT`).
    pub show_symbol: String,
}

/// What this deployment offers.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SecondsOffer {
    /// Whether the product is offered; when false every other seconds call answers
    /// `seconds_disabled` and `periods` and `symbols` are empty.
    pub enabled: bool,
    /// The asset of stakes and payouts (`usdt`), taken from and paid to the funding account.
    pub stake_coin: String,
    /// The periods, in display order.
    pub periods: Vec<SecondsPeriodView>,
    /// The pairs offered.
    pub symbols: Vec<SecondsSymbol>,
    /// The settlement rule (`last_tick_at_or_before_expiry`, see the rules page).
    pub rule: String,
}

/// Outcomes of `GET /api/seconds/config`.
#[derive(poem_openapi::ApiResponse)]
pub enum SecondsConfigResponse {
    /// What is offered; when switched off, `enabled` is false and `msg` says so.
    #[oai(status = 200)]
    Ok(Json<Envelope<SecondsOffer>>),
    /// The pairs could not be read.
    #[oai(status = 500)]
    InternalError(Json<crate::http::ErrorEnvelope>),
}

/// A new seconds contract.
#[derive(Debug, Object, Deserialize, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SecondsOrderRequest {
    /// Pair (`btcusdt`), any case.
    #[oai(validator(min_length = 1, max_length = 32))]
    pub symbol: String,
    /// The call: `up` (higher at expiry) or `down`.
    pub direction: Direction,
    /// One of the offered periods, in seconds.
    pub period_seconds: u32,
    /// The stake in USDT: a whole number within the period's limits, as a string.
    #[oai(validator(max_length = 40))]
    pub quantity: WholeText,
}

/// Which orders `list` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, poem_openapi::Enum)]
#[oai(rename_all = "lowercase")]
pub enum SecondsScope {
    /// Open orders, their countdown running.
    #[default]
    Open,
    /// Settled orders.
    History,
}

/// A page of seconds orders, newest first.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SecondsOrderPage {
    /// Orders matching the query.
    pub total: u64,
    /// This page (from 1).
    pub page: u64,
    /// Page size.
    pub page_size: u64,
    /// The orders.
    pub records: Vec<SecondsOrder>,
}

#[OpenApi(tag = "ApiTags::SecondsContracts")]
impl SecondsApi {
    /// What this deployment offers: whether seconds contracts are on, the periods with their
    /// payout rate and stake limits, the pairs, the settlement rule. Public.
    #[oai(
        path = "/api/seconds/config",
        method = "get",
        operation_id = "getSecondsConfig"
    )]
    async fn config(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
    ) -> SecondsConfigResponse {
        let config = &config.seconds;
        let result = async {
            let symbols = if config.enabled {
                service::offered_pairs(db).await?
            } else {
                Vec::new()
            };
            Ok::<_, Refusal>(SecondsOffer {
                enabled: config.enabled,
                stake_coin: STAKE_COIN.into(),
                periods: if config.enabled {
                    config
                        .periods
                        .iter()
                        .map(|p| SecondsPeriodView {
                            seconds: p.seconds,
                            payout_rate: p.payout_rate.normalize().to_string(),
                            min_stake: p.min_stake.normalize().to_string(),
                            max_stake: p.max_stake.normalize().to_string(),
                        })
                        .collect()
                } else {
                    Vec::new()
                },
                symbols: symbols
                    .into_iter()
                    .map(|c| SecondsSymbol {
                        symbol: c.symbol,
                        show_symbol: c.show_symbol,
                    })
                    .collect(),
                rule: RULE.into(),
            })
        }
        .await;
        match result {
            Ok(offer) => {
                let msg = if offer.enabled {
                    Msg::Success
                } else {
                    Msg::SecondsDisabled
                };
                SecondsConfigResponse::Ok(Json(Envelope::ok_with(offer, msg)))
            }
            Err(error) => {
                SecondsConfigResponse::InternalError(Json(crate::http::envelope_of(&error)))
            }
        }
    }

    /// Places a seconds contract: the stake (USDT) leaves the funding account at once, the
    /// opening price is the pair's newest stored tick and the expiry is fixed now. Refused, with
    /// nothing changed, when the product is off, the pair or period is not offered, the stake is
    /// not a whole number within the period's limits or above the balance.
    #[oai(
        path = "/api/seconds/order/submit",
        method = "post",
        operation_id = "submitSecondsOrder"
    )]
    async fn submit(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(seconds): Data<&Arc<SecondsEngine>>,
        auth: Satoken,
        /// Makes a retry safe: the same key and body answer like the first request and place nothing.
        #[oai(name = "Idempotency-Key")]
        idempotency_key: Header<Option<String>>,
        body: JsonBody<SecondsOrderRequest>,
    ) -> MemberResponse<SecondsOrder> {
        let body = body.0;
        let user_id = auth.0.id();
        let result = async {
            service::check_enabled(&config.seconds)?;
            let idempotency = crate::funds::service::idempotency(
                user_id,
                idempotency_key.0.as_deref(),
                "submitSecondsOrder",
                &body,
            )?;
            let order = NewOrder {
                user_id,
                symbol: body.symbol.clone(),
                direction: body.direction,
                period_seconds: body.period_seconds,
                quantity: body.quantity.to_string(),
            };
            match service::submit(db, &config.seconds, &order, idempotency.as_ref()).await? {
                Submitted::Created(row) => {
                    let view = SecondsOrder::of(&row, crate::clock::now_ms());
                    seconds.accepted(*row);
                    Ok(view)
                }
                Submitted::Replayed(first) => replayed(&first),
            }
        }
        .await;
        MemberResponse::of(result, Msg::SecondsOrderPlaced)
    }

    /// The user's seconds contracts, newest first: open ones (`scope=open`, with the seconds
    /// left) or settled ones (`scope=history`, with the settlement tick, result and profit).
    #[oai(
        path = "/api/seconds/order/list",
        method = "post",
        operation_id = "listSecondsOrders"
    )]
    // A handler takes one argument per extractor: each dependency, header, path and body.
    #[allow(clippy::too_many_arguments)]
    async fn list(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        auth: Satoken,
        /// Open or settled orders.
        scope: Query<Option<SecondsScope>>,
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
    ) -> MemberResponse<SecondsOrderPage> {
        let result = async {
            service::check_enabled(&config.seconds)?;
            let Paging { page, page_size } = Paging::new(page.0, page_size.0);
            let (total, records) = service::orders(
                db,
                auth.0.id(),
                scope.0.unwrap_or_default() == SecondsScope::Open,
                symbol.0.as_deref(),
                page,
                page_size,
            )
            .await?;
            Ok(SecondsOrderPage {
                total,
                page,
                page_size,
                records,
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }
}
