//! HTTP of the operator's earn products (`/api/admin/earn/…`, operator role only, 403
//! otherwise): list, create, update (a changed rate adds a rate version), schedule, pause, resume,
//! end, and run the daily payouts now. The rules are in [`crate::earn::products`] and
//! [`crate::earn::payout`].

use std::collections::BTreeMap;
use std::sync::Arc;

use poem::web::Data;
use poem_openapi::{Object, OpenApi, Tags, param::Path};
use rust_decimal::Decimal;
use sea_orm::DatabaseConnection;
use serde::Deserialize;
use wasm_core::earn::RateBasis;

use crate::earn::EarnEngine;
use crate::earn::api::ProductPage;
use crate::earn::payout::Run;
use crate::earn::products::{
    self, Action, Column, EarlyRedemption, Filter, Kind, Order, Spec, Tab,
};
use crate::earn::views::ProductView;
use crate::http::{JsonBody, MemberResponse};
use crate::i18n::{Msg, current_lang};
use crate::paging::Paging;
use crate::refusal::Refusal;
use crate::user::Satoken;
use crate::user::roles::require_operator;

#[derive(Tags)]
enum ApiTags {
    /// Operator calls: earn products.
    AdminEarn,
}

/// The operator's earn calls.
pub struct AdminEarnApi;

/// A rate's basis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poem_openapi::Enum, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum RateBasisInput {
    /// A daily rate.
    Daily,
    /// An annual percentage rate (a fraction), divided by 365 a day.
    Apr,
}

/// A product as the operator describes it.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProductInput {
    /// Kind.
    pub kind: Kind,
    /// A wealth product's tab (required for wealth, absent otherwise); `member` is VIP only.
    pub tab: Option<Tab>,
    /// The asset staked (`usdt`).
    #[oai(validator(min_length = 1, max_length = 16))]
    pub asset: String,
    /// The asset rewards are paid in (DeFi only may differ; then no `deduct` rule).
    #[oai(validator(min_length = 1, max_length = 16))]
    pub reward_asset: Option<String>,
    /// Names by language code; English required, 80 characters at most.
    pub names: BTreeMap<String, String>,
    /// The rate, a fraction from 0 to 1, at most 10 decimals.
    pub rate: Decimal,
    /// Daily or APR.
    pub rate_basis: RateBasisInput,
    /// The cycle in days, 1 to 3650.
    pub lock_days: u32,
    /// No maturity.
    #[serde(default)]
    #[oai(default)]
    pub flexible: bool,
    /// Early redemption of a locked product.
    pub early_redemption: EarlyRedemption,
    /// Smallest subscription, at most 8 decimals.
    pub min_amount: Decimal,
    /// Largest subscription.
    pub max_amount: Decimal,
    /// The quota.
    pub total_quota: Decimal,
    /// Most one user may buy in all (absent: no limit).
    pub per_user_quota: Option<Decimal>,
    /// Most subscriptions per user (absent: no limit).
    pub max_subscriptions: Option<u32>,
    /// Subscriptions open at, epoch ms.
    pub start_at: i64,
    /// Subscriptions close at, epoch ms.
    pub end_at: i64,
}

impl ProductInput {
    fn spec(self) -> Spec {
        Spec {
            kind: self.kind,
            tab: self.tab,
            asset: self.asset,
            reward_asset: self.reward_asset,
            names: self.names,
            rate: self.rate,
            rate_basis: match self.rate_basis {
                RateBasisInput::Daily => RateBasis::Daily,
                RateBasisInput::Apr => RateBasis::Apr,
            },
            lock_days: self.lock_days,
            flexible: self.flexible,
            early_redemption: self.early_redemption,
            min_amount: self.min_amount,
            max_amount: self.max_amount,
            total_quota: self.total_quota,
            per_user_quota: self.per_user_quota,
            max_subscriptions: self.max_subscriptions,
            start_at: self.start_at,
            end_at: self.end_at,
        }
    }
}

/// New subscription dates.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScheduleInput {
    /// Opens at, epoch ms.
    pub start_at: i64,
    /// Closes at, epoch ms (after the start).
    pub end_at: i64,
}

/// Which products an operator lists.
#[derive(Debug, Default, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AdminProductListRequest {
    /// Only this kind.
    pub kind: Option<Kind>,
    /// Only this tab.
    pub tab: Option<Tab>,
    /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
    #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
    pub page: Option<u64>,
    /// Page size, 1 to 100 (default 20).
    #[oai(validator(minimum(value = "1"), maximum(value = "100")))]
    pub page_size: Option<u64>,
}

/// What a run of the daily payouts did.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct PayoutRun {
    /// Whether this instance held the job's lease (false: another one runs it).
    pub held_lease: bool,
    /// Batches committed.
    pub batches: u64,
    /// Positions paid.
    pub positions: u64,
    /// Accrual days paid.
    pub payouts: u64,
    /// Positions matured.
    pub matured: u64,
}

impl From<Run> for PayoutRun {
    fn from(run: Run) -> Self {
        Self {
            held_lease: run.held_lease,
            batches: run.batches as u64,
            positions: run.positions as u64,
            payouts: run.payouts as u64,
            matured: run.matured as u64,
        }
    }
}

#[OpenApi(tag = "ApiTags::AdminEarn")]
impl AdminEarnApi {
    /// Every product, whatever its state, newest first.
    #[oai(
        path = "/api/admin/earn/products",
        method = "post",
        operation_id = "adminListEarnProducts"
    )]
    async fn list(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(earn): Data<&Arc<EarnEngine>>,
        auth: Satoken,
        body: JsonBody<Option<AdminProductListRequest>>,
    ) -> MemberResponse<ProductPage> {
        let body = body.0.unwrap_or_default();
        let result = async {
            require_operator(&auth.0.user)?;
            let paging = Paging::new(body.page, body.page_size);
            let filter = Filter {
                kind: body.kind,
                tab: body.tab,
                offered_only: false,
            };
            let (total, rows) = products::list(
                db,
                &filter,
                Column::Id,
                Order::Desc,
                paging.page,
                paging.page_size,
            )
            .await?;
            let now = earn.clock().now_ms();
            Ok::<_, Refusal>(ProductPage {
                total,
                page: paging.page,
                page_size: paging.page_size,
                records: rows
                    .iter()
                    .map(|p| ProductView::of(p, now, current_lang()))
                    .collect(),
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Creates a product (scheduled: it opens at its start).
    #[oai(
        path = "/api/admin/earn/product/create",
        method = "post",
        operation_id = "adminCreateEarnProduct"
    )]
    async fn create(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(earn): Data<&Arc<EarnEngine>>,
        auth: Satoken,
        body: JsonBody<ProductInput>,
    ) -> MemberResponse<ProductView> {
        let result = async {
            require_operator(&auth.0.user)?;
            let now = earn.clock().now_ms();
            let product = products::create(db, &body.0.spec(), auth.0.id(), now).await?;
            Ok(ProductView::of(&product, now, current_lang()))
        }
        .await;
        MemberResponse::of(result, Msg::EarnProductSaved)
    }

    /// Replaces a product's description; a changed rate becomes a new rate version that only new
    /// subscriptions take.
    #[oai(
        path = "/api/admin/earn/product/:id/update",
        method = "post",
        operation_id = "adminUpdateEarnProduct"
    )]
    async fn update(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(earn): Data<&Arc<EarnEngine>>,
        auth: Satoken,
        /// Product id.
        id: Path<i64>,
        body: JsonBody<ProductInput>,
    ) -> MemberResponse<ProductView> {
        let result = async {
            require_operator(&auth.0.user)?;
            let now = earn.clock().now_ms();
            let product = products::update(db, id.0, &body.0.spec(), auth.0.id(), now).await?;
            Ok(ProductView::of(&product, now, current_lang()))
        }
        .await;
        MemberResponse::of(result, Msg::EarnProductSaved)
    }

    /// Sets a product's subscription dates.
    #[oai(
        path = "/api/admin/earn/product/:id/schedule",
        method = "post",
        operation_id = "adminScheduleEarnProduct"
    )]
    async fn schedule(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(earn): Data<&Arc<EarnEngine>>,
        auth: Satoken,
        /// Product id.
        id: Path<i64>,
        body: JsonBody<ScheduleInput>,
    ) -> MemberResponse<ProductView> {
        let action = Action::Schedule {
            start_at: body.0.start_at,
            end_at: body.0.end_at,
        };
        act(db, earn, &auth, id.0, action).await
    }

    /// Pauses subscriptions (running positions go on).
    #[oai(
        path = "/api/admin/earn/product/:id/pause",
        method = "post",
        operation_id = "adminPauseEarnProduct"
    )]
    async fn pause(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(earn): Data<&Arc<EarnEngine>>,
        auth: Satoken,
        /// Product id.
        id: Path<i64>,
    ) -> MemberResponse<ProductView> {
        act(db, earn, &auth, id.0, Action::Pause).await
    }

    /// Resumes paused subscriptions.
    #[oai(
        path = "/api/admin/earn/product/:id/resume",
        method = "post",
        operation_id = "adminResumeEarnProduct"
    )]
    async fn resume(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(earn): Data<&Arc<EarnEngine>>,
        auth: Satoken,
        /// Product id.
        id: Path<i64>,
    ) -> MemberResponse<ProductView> {
        act(db, earn, &auth, id.0, Action::Resume).await
    }

    /// Ends subscriptions for good (running positions go on to maturity).
    #[oai(
        path = "/api/admin/earn/product/:id/end",
        method = "post",
        operation_id = "adminEndEarnProduct"
    )]
    async fn end(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(earn): Data<&Arc<EarnEngine>>,
        auth: Satoken,
        /// Product id.
        id: Path<i64>,
    ) -> MemberResponse<ProductView> {
        act(db, earn, &auth, id.0, Action::End).await
    }

    /// Runs the daily payouts now (what each instance does every 30 seconds): every accrual day
    /// due is paid once and matured principals return.
    #[oai(
        path = "/api/admin/earn/run",
        method = "post",
        operation_id = "adminRunEarnPayouts"
    )]
    async fn run(
        &self,
        Data(earn): Data<&Arc<EarnEngine>>,
        auth: Satoken,
    ) -> MemberResponse<PayoutRun> {
        let result = async {
            require_operator(&auth.0.user)?;
            Ok(earn.run_due().await?.into())
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }
}

async fn act(
    db: &DatabaseConnection,
    earn: &EarnEngine,
    auth: &Satoken,
    id: i64,
    action: Action,
) -> MemberResponse<ProductView> {
    let result = async {
        require_operator(&auth.0.user)?;
        let now = earn.clock().now_ms();
        let product = products::act(db, id, action, now).await?;
        Ok(ProductView::of(&product, now, current_lang()))
    }
    .await;
    MemberResponse::of(result, Msg::EarnProductSaved)
}
