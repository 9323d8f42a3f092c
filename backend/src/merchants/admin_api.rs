//! HTTP of the operator's merchant calls: `GET /api/admin/merchants` (applications, optionally of
//! one status), `POST /api/admin/merchants/decide` (approve with a rate, or reject with a reason;
//! one operator wins a race, the other gets 409) and `POST /api/admin/merchants/rate` (change an
//! approved merchant's rate). Operators only (403 otherwise).

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::{Object, OpenApi, Tags, param::Query};
use rust_decimal::Decimal;
use sea_orm::DatabaseConnection;
use serde::Deserialize;

use super::api::MerchantRecord;
use super::service::{self, Decision};
use crate::clock::now_ms;
use crate::config::Config;
use crate::http::{JsonBody, MemberResponse};
use crate::i18n::Msg;
use crate::paging::Paging;
use crate::refusal::Refusal;
use crate::user::Satoken;
use crate::user::roles::require_operator;

#[derive(Tags)]
enum ApiTags {
    /// Operator calls: merchant applications.
    AdminMerchant,
}

/// The operator's merchant calls.
pub struct AdminMerchantsApi;

/// An operator's decision on an application.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MerchantDecision {
    /// The applicant.
    pub user_id: i64,
    /// Approve (true) or reject (false).
    pub approve: bool,
    /// Why it is rejected (required when rejecting; the user sees it).
    pub reason: Option<String>,
    /// The merchant's generation-1 rebate rate, 0 to below 1 (the configured default when absent).
    pub rebate_rate: Option<Decimal>,
}

/// A new rate for an approved merchant.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MerchantRate {
    /// The merchant.
    pub user_id: i64,
    /// Its generation-1 rebate rate, 0 to below 1.
    pub rebate_rate: Decimal,
}

/// A page of applications.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct MerchantPage {
    /// Applications over all pages.
    pub total: u64,
    /// This page, most recently changed first.
    pub records: Vec<MerchantRecord>,
}

#[OpenApi(tag = "ApiTags::AdminMerchant")]
impl AdminMerchantsApi {
    /// Merchant applications, most recently changed first, optionally of one status (`pending`,
    /// `approved`, `rejected`).
    #[oai(
        path = "/api/admin/merchants",
        method = "get",
        operation_id = "adminListMerchants"
    )]
    async fn list(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// Only this status.
        status: Query<Option<String>>,
        /// Page, 1 to 1,000,000 (default 1).
        #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
        page: Query<Option<u64>>,
        /// Applications per page, 1 to 100 (default 20).
        #[oai(
            name = "pageSize",
            validator(minimum(value = "1"), maximum(value = "100"))
        )]
        page_size: Query<Option<u64>>,
    ) -> MemberResponse<MerchantPage> {
        let result = async {
            require_operator(&auth.0.user)?;
            let (total, rows) =
                service::list(db, status.0.as_deref(), Paging::new(page.0, page_size.0)).await?;
            Ok::<_, Refusal>(MerchantPage {
                total,
                records: rows.into_iter().map(MerchantRecord::of).collect(),
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Approves (`is_merchant` = 2, with a rate) or rejects (with a reason) a pending application;
    /// one that was decided already, even a moment ago by another operator, is `merchant_decided`
    /// (409).
    #[oai(
        path = "/api/admin/merchants/decide",
        method = "post",
        operation_id = "adminDecideMerchant"
    )]
    async fn decide(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        auth: Satoken,
        body: JsonBody<MerchantDecision>,
    ) -> MemberResponse<MerchantRecord> {
        let body = body.0;
        let result = async {
            require_operator(&auth.0.user)?;
            let decision = Decision {
                user_id: body.user_id,
                approve: body.approve,
                reason: body.reason,
                rebate_rate: body.rebate_rate,
            };
            let row = service::decide(
                db,
                auth.0.user.id,
                &decision,
                config.tiers.merchant_default_rate,
                now_ms(),
            )
            .await?;
            Ok::<_, Refusal>(MerchantRecord::of(row))
        }
        .await;
        MemberResponse::of(result, Msg::Reviewed)
    }

    /// Changes an approved merchant's generation-1 rate (from the next rebate batch on).
    #[oai(
        path = "/api/admin/merchants/rate",
        method = "post",
        operation_id = "adminSetMerchantRate"
    )]
    async fn set_rate(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        body: JsonBody<MerchantRate>,
    ) -> MemberResponse<MerchantRecord> {
        let body = body.0;
        let result = async {
            require_operator(&auth.0.user)?;
            let row = service::set_rate(db, body.user_id, body.rebate_rate, now_ms()).await?;
            Ok::<_, Refusal>(MerchantRecord::of(row))
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }
}
