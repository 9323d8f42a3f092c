//! HTTP of the operators' loan calls (operator role only; anyone else gets 403): the products
//! (`GET`/`POST /api/admin/loans/products`, `POST /api/admin/loans/products/{id}`), the review
//! queue with each applicant's documents, credit score and loan history (`GET
//! /api/admin/loans/applications`), the decision (`POST /api/admin/loans/applications/{id}/review`)
//! and the house lending pool (`GET /api/admin/loans/pool`, `POST /api/admin/loans/pool/fund`). The
//! rules live in `crate::loans`.

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::{
    Object, OpenApi, Tags,
    param::{Path, Query},
};
use sea_orm::{DatabaseConnection, EntityTrait};
use serde::Deserialize;

use crate::clock::Clock;
use crate::config::Config;
use crate::entity::user;
use crate::http::{JsonBody, MemberResponse};
use crate::i18n::Msg;
use crate::kyc::files::LinkKey;
use crate::loans::api::{ApplicationFilter, document_urls};
use crate::loans::products::{self, ProductForm};
use crate::loans::review::{self, Decision};
use crate::loans::views::{
    AdminLoanProduct, CreditScoreView, HistoryView, LoanApplicationView, LoanProductForm,
};
use crate::loans::{LoanEvents, credit, queries};
use crate::paging::Paging;
use crate::refusal::Refusal;
use crate::user::Satoken;
use crate::user::roles::require_operator;

#[derive(Tags)]
enum ApiTags {
    /// Operator calls: loan products, application review, the lending pool.
    AdminLoans,
}

/// The operators' loan calls.
pub struct AdminLoansApi;

/// An applicant's loan history.
#[derive(Debug, Object)]
pub struct ApplicantRecord {
    /// Loans taken.
    pub loans: u64,
    /// Of those, settled.
    pub settled: u64,
    /// Of those, overdue now.
    pub overdue: u64,
    /// Applications rejected.
    pub rejected: u64,
}

/// An application as an operator reviews it.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct AdminLoanApplication {
    /// The application, with signed links (5 minutes) to its three images.
    pub application: LoanApplicationView,
    /// The applicant.
    pub user_id: i64,
    /// The applicant's login e-mail, else phone.
    pub account: String,
    /// The applicant's identity level.
    pub kyc_level: i32,
    /// The applicant's credit score now, with its factors.
    pub credit: CreditScoreView,
    /// The applicant's loan history.
    pub record: ApplicantRecord,
    /// The application's transitions.
    pub history: Vec<HistoryView>,
}

/// A page of applications for review, newest first.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct AdminLoanApplicationPage {
    /// Rows matching.
    pub total: u64,
    /// The rows.
    pub records: Vec<AdminLoanApplication>,
}

/// An operator's decision on an application.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LoanReviewRequest {
    /// `true` approves (pays the principal out of the lending pool), `false` rejects.
    pub approve: bool,
    /// Why it is rejected: required to reject, at most 500 characters; the user sees it.
    #[oai(validator(max_length = 1000))]
    pub reason: Option<String>,
}

/// Money an operator puts into the lending pool.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PoolFundingRequest {
    /// The coin (`usdt`).
    #[oai(validator(min_length = 1, max_length = 16))]
    pub coin: String,
    /// The amount, above zero.
    #[oai(validator(min_length = 1, max_length = 48))]
    pub amount: String,
}

/// The lending pool's balance of one coin.
#[derive(Debug, Object)]
pub struct PoolBalance {
    /// The coin.
    pub coin: String,
    /// What the pool holds (what approvals may pay out).
    pub balance: String,
}

fn form_of(form: &LoanProductForm) -> Result<ProductForm, Refusal> {
    Ok(ProductForm {
        coin: form.coin.clone(),
        scale: form.scale,
        min_amount: crate::number::decimal(&form.min_amount, "minAmount")?,
        max_amount: crate::number::decimal(&form.max_amount, "maxAmount")?,
        cycles: form.cycles.clone(),
        day_rate: crate::number::decimal(&form.day_rate, "dayRate")?,
        repay_ways: form.repay_ways.clone(),
        institution: form.institution.clone(),
        penalty_day_rate: crate::number::decimal(&form.penalty_day_rate, "penaltyDayRate")?,
        grace_days: form.grace_days,
        min_credit_score: form.min_credit_score,
        kyc_level: form.kyc_level,
        names: form.names.clone(),
        enabled: form.enabled,
    })
}

#[OpenApi(tag = "ApiTags::AdminLoans")]
impl AdminLoansApi {
    /// Every loan product, offered or not, oldest first.
    #[oai(
        path = "/api/admin/loans/products",
        method = "get",
        operation_id = "adminListLoanProducts"
    )]
    async fn list_products(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
    ) -> MemberResponse<Vec<AdminLoanProduct>> {
        let result = async {
            require_operator(&auth.0.user)?;
            Ok(products::list(db, false)
                .await?
                .iter()
                .map(AdminLoanProduct::of)
                .collect())
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Creates a loan product (every field checked; the first at fault is named).
    #[oai(
        path = "/api/admin/loans/products",
        method = "post",
        operation_id = "adminCreateLoanProduct"
    )]
    async fn create_product(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        body: JsonBody<LoanProductForm>,
    ) -> MemberResponse<AdminLoanProduct> {
        let result = async {
            require_operator(&auth.0.user)?;
            let row = products::create(db, &form_of(&body.0)?).await?;
            Ok(AdminLoanProduct::of(&row))
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Replaces a product's settings. Applications decided afterwards get the new terms; running
    /// loans keep theirs.
    #[oai(
        path = "/api/admin/loans/products/:id",
        method = "post",
        operation_id = "adminUpdateLoanProduct"
    )]
    async fn update_product(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// The product.
        id: Path<i64>,
        body: JsonBody<LoanProductForm>,
    ) -> MemberResponse<AdminLoanProduct> {
        let result = async {
            require_operator(&auth.0.user)?;
            let row = products::update(db, id.0, &form_of(&body.0)?).await?;
            Ok(AdminLoanProduct::of(&row))
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Applications, newest first (pending ones by default), each with signed links to its
    /// documents, the applicant's credit score now with its factors, their loan history and the
    /// application's transitions.
    #[oai(
        path = "/api/admin/loans/applications",
        method = "get",
        operation_id = "adminListLoanApplications"
    )]
    // A handler takes one argument per extractor: each dependency, header, path and body.
    #[allow(clippy::too_many_arguments)]
    async fn list_applications(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(clock): Data<&Clock>,
        Data(link_key): Data<&LinkKey>,
        auth: Satoken,
        /// Only this status (default `pending`).
        status: Query<Option<ApplicationFilter>>,
        /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
        #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
        page: Query<Option<u64>>,
        /// Rows per page, 1 to 100 (default 20).
        #[oai(
            name = "pageSize",
            validator(minimum(value = "1"), maximum(value = "100"))
        )]
        page_size: Query<Option<u64>>,
    ) -> MemberResponse<AdminLoanApplicationPage> {
        let result = async {
            require_operator(&auth.0.user)?;
            let paging = Paging::new(page.0, page_size.0);
            let status = match status.0.unwrap_or(ApplicationFilter::Pending) {
                ApplicationFilter::Pending => "pending",
                ApplicationFilter::Approved => "approved",
                ApplicationFilter::Rejected => "rejected",
            };
            let (total, rows) = queries::applications(db, None, Some(status), paging).await?;
            let (now, wall) = (clock.now_ms(), crate::clock::now_ms());
            let mut records = Vec::with_capacity(rows.len());
            for row in rows {
                let owner = user::Entity::find_by_id(row.user_id)
                    .one(db)
                    .await?
                    .ok_or_else(|| Refusal::internal("an application without its user"))?;
                let scored = credit::score(&credit::facts(db, &owner, now).await?);
                let record = queries::record_of(db, owner.id).await?;
                let history = queries::history(db, row.id).await?;
                records.push(AdminLoanApplication {
                    application: LoanApplicationView::of(&row, document_urls(&row, link_key, wall)),
                    user_id: owner.id,
                    account: owner
                        .email
                        .clone()
                        .or_else(|| owner.phone.clone())
                        .unwrap_or_default(),
                    kyc_level: owner.kyc_level,
                    credit: CreditScoreView::of(&scored),
                    record: ApplicantRecord {
                        loans: record.loans,
                        settled: record.settled,
                        overdue: record.overdue,
                        rejected: record.rejected,
                    },
                    history: history
                        .iter()
                        .map(|h| HistoryView::of(h, owner.id))
                        .collect(),
                });
            }
            Ok::<_, Refusal>(AdminLoanApplicationPage { total, records })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Approves (the principal from the lending pool to the user's funding bucket in one entry;
    /// the loan and its schedule created with the product's terms now) or rejects (with a reason
    /// the user sees) a pending application. Decided already — before or concurrently — is 409
    /// `loan_already_reviewed` and moves nothing; a pool short of the principal is
    /// `loan_pool_insufficient`.
    #[oai(
        path = "/api/admin/loans/applications/:id/review",
        method = "post",
        operation_id = "adminReviewLoanApplication"
    )]
    // A handler takes one argument per extractor: each dependency, header, path and body.
    #[allow(clippy::too_many_arguments)]
    async fn review(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(clock): Data<&Clock>,
        Data(events): Data<&LoanEvents>,
        Data(config): Data<&Arc<Config>>,
        Data(link_key): Data<&LinkKey>,
        auth: Satoken,
        /// The application.
        id: Path<i64>,
        body: JsonBody<LoanReviewRequest>,
    ) -> MemberResponse<LoanApplicationView> {
        let result = async {
            let decision = Decision {
                id: id.0,
                approve: body.0.approve,
                reason: body.0.reason.clone(),
            };
            let row = review::review(
                db,
                events,
                &config.loans,
                &auth.0.user,
                &decision,
                clock.now_ms(),
            )
            .await?;
            Ok::<_, Refusal>(LoanApplicationView::of(
                &row,
                document_urls(&row, link_key, crate::clock::now_ms()),
            ))
        }
        .await;
        MemberResponse::of(result, Msg::Reviewed)
    }

    /// The lending pool's balance per coin.
    #[oai(
        path = "/api/admin/loans/pool",
        method = "get",
        operation_id = "adminGetLoanPool"
    )]
    async fn pool(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
    ) -> MemberResponse<Vec<PoolBalance>> {
        let result = async {
            require_operator(&auth.0.user)?;
            Ok(review::pool_balances(db)
                .await?
                .into_iter()
                .map(|(coin, balance)| PoolBalance {
                    coin,
                    balance: balance.normalize().to_string(),
                })
                .collect())
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Puts money into the lending pool from outside (the counterpart is deposits in transit,
    /// like a deposit's): one entry `loan_pool_funding`. Answers the pool's new balance.
    #[oai(
        path = "/api/admin/loans/pool/fund",
        method = "post",
        operation_id = "adminFundLoanPool"
    )]
    async fn fund_pool(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        body: JsonBody<PoolFundingRequest>,
    ) -> MemberResponse<PoolBalance> {
        let result = async {
            let amount = crate::number::decimal(&body.0.amount, "amount")?;
            let balance = review::fund_pool(db, &auth.0.user, &body.0.coin, amount).await?;
            Ok::<_, Refusal>(PoolBalance {
                coin: body.0.coin.trim().to_ascii_lowercase(),
                balance: balance.normalize().to_string(),
            })
        }
        .await;
        MemberResponse::of(result, Msg::LoanPoolFunded)
    }
}
