//! HTTP of earn products for users: `POST /api/{type}/list` (the products of a kind — `pledge`,
//! `defi`, `finance` — public, ordered by a column, id descending by default),
//! `POST /api/earn/product/detail`, `POST /api/earn/preview` (the schedule of a subscription),
//! `POST /api/earn/subscribe` and `POST /api/earn/redeem` (with an optional `Idempotency-Key`),
//! `POST /api/earn/redeem/preview`, `POST /api/mingOrder/list` (the user's positions) and
//! `POST /api/earn/statement` (a position's statement). The rules are in the sibling modules.

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::{
    Enum, Object, OpenApi, Tags,
    param::{Header, Path, Query},
};
use rust_decimal::Decimal;
use sea_orm::{
    ColumnTrait, DatabaseConnection, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder,
};
use serde::{Deserialize, Serialize};

use super::EarnEngine;
use super::products::{self, Column, Filter, Kind, Order, Tab};
use super::redeem::{self, Redeemed};
use super::statement::{self, Statement};
use super::subscribe::{self, Subscribed};
use super::views::{PositionView, ProductView, SubscriptionPreview};
use crate::entity::earn_position;
use crate::funds::api::replayed;
use crate::http::{JsonBody, LookupResponse, MemberResponse, PublicResponse};
use crate::i18n::{Msg, current_lang};
use crate::paging::Paging;
use crate::refusal::Refusal;
use crate::user::Satoken;
use crate::user::events::UserEvent;

#[derive(Tags)]
enum ApiTags {
    /// Earn: pledge (staking) mining, DeFi mining, wealth products and the user's positions.
    Earn,
}

/// The earn calls of users.
pub struct EarnApi;

/// Which products `/api/{type}/list` lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Deserialize)]
#[oai(rename_all = "lowercase")]
pub enum ProductListType {
    /// Pledge (staking) mining.
    Pledge,
    /// DeFi liquidity mining.
    Defi,
    /// Wealth products (filter a tab with `tab`).
    Finance,
}

/// A product list query (the generic list query: column and order default to id, descending).
#[derive(Debug, Default, Object, Deserialize, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProductListRequest {
    /// Only this tab (wealth products).
    pub tab: Option<Tab>,
    /// Order by this column (default `id`).
    pub column: Option<Column>,
    /// Ascending or descending (default `desc`).
    pub order: Option<Order>,
    /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
    #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
    pub page: Option<u64>,
    /// Page size, 1 to 100 (default 20).
    #[oai(validator(minimum(value = "1"), maximum(value = "100")))]
    pub page_size: Option<u64>,
}

/// A page of products.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ProductPage {
    /// Products matching.
    pub total: u64,
    /// This page (from 1).
    pub page: u64,
    /// Page size.
    pub page_size: u64,
    /// The products.
    pub records: Vec<ProductView>,
}

/// A subscription (or its preview).
#[derive(Debug, Object, Deserialize, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SubscribeRequest {
    /// The product.
    pub product_id: i64,
    /// The amount of the product's coin, at most 8 decimals, as a string.
    #[oai(validator(max_length = 40))]
    pub amount: String,
}

/// A redemption.
#[derive(Debug, Object, Deserialize, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RedeemRequest {
    /// The position.
    pub id: i64,
}

/// What redeeming a position now returns.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct RedemptionPreview {
    /// The position.
    pub id: i64,
    /// The amount subscribed.
    pub principal: Decimal,
    /// Whether its product allows early redemption.
    pub allowed: bool,
    /// Before maturity.
    pub early: bool,
    /// Days whose reward is paid.
    pub paid_days: u32,
    /// Rewards paid.
    pub rewards_paid: Decimal,
    /// What the product's rule takes back.
    pub deduction: Decimal,
    /// What comes back to the funding account.
    pub returned: Decimal,
    /// `deduct` (principal less paid rewards), `keep` or `forbidden`; `keep` for a flexible one.
    pub rule: String,
}

/// The user's positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Deserialize, Serialize)]
#[oai(rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum PositionStatus {
    /// Accruing.
    InProgress,
    /// Matured: principal returned.
    Completed,
    /// Redeemed early.
    Redeemed,
}

/// A positions query.
#[derive(Debug, Default, Object, Deserialize, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PositionListRequest {
    /// Only this state.
    pub status: Option<PositionStatus>,
    /// Only this product.
    pub product_id: Option<i64>,
    /// Ascending or descending by id (default `desc`).
    pub order: Option<Order>,
    /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
    #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
    pub page: Option<u64>,
    /// Page size, 1 to 100 (default 20).
    #[oai(validator(minimum(value = "1"), maximum(value = "100")))]
    pub page_size: Option<u64>,
}

/// A page of positions.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct PositionPage {
    /// Positions matching.
    pub total: u64,
    /// This page (from 1).
    pub page: u64,
    /// Page size.
    pub page_size: u64,
    /// The positions.
    pub records: Vec<PositionView>,
}

/// A statement query.
#[derive(Debug, Object, Deserialize, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StatementRequest {
    /// The position.
    pub id: i64,
    /// Page, 1 to 1,000,000 (default 1); past the last line, an empty page.
    #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
    pub page: Option<u64>,
    /// Lines per page, 1 to 100 (default 20).
    #[oai(validator(minimum(value = "1"), maximum(value = "100")))]
    pub page_size: Option<u64>,
}

#[OpenApi(tag = "ApiTags::Earn")]
impl EarnApi {
    /// The products of a kind (`pledge`, `defi`, `finance` for wealth products), those not ended
    /// or paused, ordered by `column` (default id) and `order` (default descending). Public.
    #[oai(
        path = "/api/:type/list",
        method = "post",
        operation_id = "listEarnProducts"
    )]
    async fn list(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(earn): Data<&Arc<EarnEngine>>,
        /// `pledge`, `defi` or `finance`.
        #[oai(name = "type")]
        kind: Path<ProductListType>,
        body: JsonBody<Option<ProductListRequest>>,
    ) -> PublicResponse<ProductPage> {
        let body = body.0.unwrap_or_default();
        let result = async {
            let paging = Paging::new(body.page, body.page_size);
            let filter = Filter {
                kind: Some(match kind.0 {
                    ProductListType::Pledge => Kind::Pledge,
                    ProductListType::Defi => Kind::Defi,
                    ProductListType::Finance => Kind::Wealth,
                }),
                tab: body.tab,
                offered_only: true,
            };
            let (total, rows) = products::list(
                db,
                &filter,
                body.column.unwrap_or_default(),
                body.order.unwrap_or_default(),
                paging.page,
                paging.page_size,
            )
            .await?;
            let now = earn.clock().now_ms();
            let lang = current_lang();
            Ok::<_, Refusal>(ProductPage {
                total,
                page: paging.page,
                page_size: paging.page_size,
                records: rows.iter().map(|p| ProductView::of(p, now, lang)).collect(),
            })
        }
        .await;
        PublicResponse::of(result, Msg::Success)
    }

    /// One product, whatever its state. Public.
    #[oai(
        path = "/api/earn/product/detail",
        method = "post",
        operation_id = "getEarnProduct"
    )]
    async fn detail(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(earn): Data<&Arc<EarnEngine>>,
        /// Product id.
        id: Query<i64>,
    ) -> LookupResponse<ProductView> {
        let result = products::find(db, id.0)
            .await
            .map(|p| ProductView::of(&p, earn.clock().now_ms(), current_lang()));
        LookupResponse::of(result)
    }

    /// The schedule subscribing `amount` now would have (value date D+1, first payout D+2, end,
    /// delivery, estimated daily and total reward), after the same checks as the subscription
    /// (open to the user, within the limits); the balance and quota are checked on subscribing.
    #[oai(
        path = "/api/earn/preview",
        method = "post",
        operation_id = "previewEarnSubscription"
    )]
    async fn preview(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(earn): Data<&Arc<EarnEngine>>,
        auth: Satoken,
        body: JsonBody<SubscribeRequest>,
    ) -> MemberResponse<SubscriptionPreview> {
        let result = async {
            let now = earn.clock().now_ms();
            let checked =
                subscribe::check(db, &auth.0.user, body.0.product_id, &body.0.amount, now).await?;
            Ok(SubscriptionPreview::of(
                checked.product.id,
                checked.amount,
                &checked.schedule,
            ))
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Subscribes: the amount moves from the funding to the earn account and the position starts
    /// accruing on the value date. Refused, with nothing changed, below the minimum, above the
    /// maximum, beyond the quota or the user's limits, above the balance, before the start, after
    /// the end, while paused, or (Member Zone) for a user who is not VIP.
    #[oai(
        path = "/api/earn/subscribe",
        method = "post",
        operation_id = "subscribeEarn"
    )]
    async fn subscribe(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(earn): Data<&Arc<EarnEngine>>,
        auth: Satoken,
        /// Makes a retry safe: the same key and body answer like the first request and buy nothing.
        #[oai(name = "Idempotency-Key")]
        idempotency_key: Header<Option<String>>,
        body: JsonBody<SubscribeRequest>,
    ) -> MemberResponse<PositionView> {
        let body = body.0;
        let user_id = auth.0.id();
        let result = async {
            let idempotency = crate::funds::service::idempotency(
                user_id,
                idempotency_key.0.as_deref(),
                "subscribeEarn",
                &body,
            )?;
            let now = earn.clock().now_ms();
            let checked =
                subscribe::check(db, &auth.0.user, body.product_id, &body.amount, now).await?;
            let respond = |row: &earn_position::Model| {
                serde_json::to_string(&PositionView::of(row, now)).unwrap_or_default()
            };
            match subscribe::subscribe(db, user_id, &checked, now, idempotency.as_ref(), respond)
                .await?
            {
                Subscribed::Created(row) => {
                    let view = PositionView::of(&row, now);
                    earn.publish(UserEvent::new(user_id, "earnOrder", &view));
                    Ok(view)
                }
                Subscribed::Replayed(first) => replayed(&first),
            }
        }
        .await;
        MemberResponse::of(result, Msg::EarnSubscribed)
    }

    /// The user's positions, newest first by default, with their figures now (accrual days,
    /// reward so far, next payout, whether and for how much they can be redeemed early).
    #[oai(
        path = "/api/mingOrder/list",
        method = "post",
        operation_id = "listEarnPositions"
    )]
    async fn positions(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(earn): Data<&Arc<EarnEngine>>,
        auth: Satoken,
        body: JsonBody<Option<PositionListRequest>>,
    ) -> MemberResponse<PositionPage> {
        let body = body.0.unwrap_or_default();
        let result = async {
            let paging = Paging::new(body.page, body.page_size);
            let mut query =
                earn_position::Entity::find().filter(earn_position::Column::UserId.eq(auth.0.id()));
            if let Some(status) = body.status {
                let status = match status {
                    PositionStatus::InProgress => "in_progress",
                    PositionStatus::Completed => "completed",
                    PositionStatus::Redeemed => "redeemed",
                };
                query = query.filter(earn_position::Column::Status.eq(status));
            }
            if let Some(product) = body.product_id {
                query = query.filter(earn_position::Column::ProductId.eq(product));
            }
            query = match body.order.unwrap_or_default() {
                Order::Asc => query.order_by_asc(earn_position::Column::Id),
                Order::Desc => query.order_by_desc(earn_position::Column::Id),
            };
            let pages = query.paginate(db, paging.page_size);
            let total = pages.num_items().await?;
            let rows = pages.fetch_page(paging.page - 1).await?;
            let now = earn.clock().now_ms();
            Ok::<_, Refusal>(PositionPage {
                total,
                page: paging.page,
                page_size: paging.page_size,
                records: rows.iter().map(|p| PositionView::of(p, now)).collect(),
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// What redeeming position `id` now would return, by its product's rule (the figures the
    /// redemption then posts).
    #[oai(
        path = "/api/earn/redeem/preview",
        method = "post",
        operation_id = "previewEarnRedemption"
    )]
    async fn redeem_preview(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(earn): Data<&Arc<EarnEngine>>,
        auth: Satoken,
        /// Position id.
        id: Query<i64>,
    ) -> MemberResponse<RedemptionPreview> {
        let result = async {
            let (position, r) =
                redeem::preview(db, auth.0.id(), id.0, earn.clock().now_ms()).await?;
            Ok(RedemptionPreview {
                id: position.id,
                principal: r.returned + r.deduction,
                allowed: redeem::allowed(&position),
                early: r.early,
                paid_days: r.paid_days,
                rewards_paid: r.rewards_paid,
                deduction: r.deduction,
                returned: r.returned,
                rule: if position.flexible {
                    "keep".to_owned()
                } else {
                    position.early_redemption.clone()
                },
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Redeems a position before maturity by its product's rule (a locked product that forbids
    /// it is refused); the principal less any deduction comes back to the funding account.
    #[oai(
        path = "/api/earn/redeem",
        method = "post",
        operation_id = "redeemEarn"
    )]
    async fn redeem(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(earn): Data<&Arc<EarnEngine>>,
        auth: Satoken,
        /// Makes a retry safe: the same key and body answer like the first request.
        #[oai(name = "Idempotency-Key")]
        idempotency_key: Header<Option<String>>,
        body: JsonBody<RedeemRequest>,
    ) -> MemberResponse<PositionView> {
        let body = body.0;
        let user_id = auth.0.id();
        let result = async {
            let idempotency = crate::funds::service::idempotency(
                user_id,
                idempotency_key.0.as_deref(),
                "redeemEarn",
                &body,
            )?;
            let now = earn.clock().now_ms();
            let respond = |row: &earn_position::Model| {
                serde_json::to_string(&PositionView::of(row, now)).unwrap_or_default()
            };
            match redeem::redeem(db, user_id, body.id, now, idempotency.as_ref(), respond).await? {
                Redeemed::Done(row) => {
                    let view = PositionView::of(&row, now);
                    earn.publish(UserEvent::new(user_id, "earnOrder", &view));
                    Ok(view)
                }
                Redeemed::Replayed(first) => replayed(&first),
            }
        }
        .await;
        MemberResponse::of(result, Msg::EarnRedeemed)
    }

    /// The statement of one of the user's positions: the subscription, each day's reward (day,
    /// amount, rate version), the maturity or early redemption with its deduction, in order, each
    /// with its journal entry and the running totals (principal + rewards − deduction = what came
    /// back), a page of lines at a time.
    #[oai(
        path = "/api/earn/statement",
        method = "post",
        operation_id = "getEarnStatement"
    )]
    async fn statement(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        body: JsonBody<StatementRequest>,
    ) -> MemberResponse<Statement> {
        let paging = Paging::new(body.0.page, body.0.page_size);
        let result = statement::statement(db, auth.0.id(), body.0.id, paging).await;
        MemberResponse::of(result, Msg::Success)
    }
}
