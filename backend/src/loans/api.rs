//! HTTP of crypto loans for users: the `t_repay_type` dictionary (`POST
//! /api/common/type/t_repay_type`), the loan rules' live figures (`GET /api/loan/rules`), the
//! products offered to the caller (`GET /api/loan/products`), applying (`POST /api/loan/apply`),
//! the caller's applications and loans by state (`GET /api/loan/applications`, `GET
//! /api/loan/list`), a loan's detail (`GET /api/loan/{id}`), a repayment's preview and the
//! repayment itself (`POST /api/loan/{id}/repay/preview`, `POST /api/loan/{id}/repay`, with an
//! optional `Idempotency-Key`) and the credit score with its factors (`GET /api/loan/credit`). The
//! rules are in the sibling modules; the operators' calls are `crate::admin::loans_api`.

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::{
    OpenApi, Tags,
    param::{Header, Path, Query},
};
use sea_orm::DatabaseConnection;

use super::apply::{self, Application, Documents};
use super::repay::{self, Mode};
use super::views::{
    CreditFactorView, CreditScoreView, DocumentsFrom, HistoryView, LoanApplicationPage,
    LoanApplicationView, LoanApplyRequest, LoanDetail, LoanOffer, LoanPage, LoanProductView,
    LoanRules, LoanView, RepayMode, RepayPreview, RepayPreviewRequest, RepayRequest, RepayResult,
    RepayWayOption,
};
use super::{LoanEvents, LoanStatus, credit, products, queries};
use crate::clock::Clock;
use crate::config::Config;
use crate::entity::loan_application;
use crate::funds::api::replayed;
use crate::funds::ledger::{self, AccountRef};
use crate::http::{JsonBody, MemberResponse, PublicResponse};
use crate::i18n::{Msg, current_lang, t};
use crate::kyc::files::{LinkKey, sign_link};
use crate::paging::Paging;
use crate::refusal::Refusal;
use crate::user::Satoken;

#[derive(Tags)]
enum ApiTags {
    /// Crypto loans: products, applications, loans, repayment, credit score.
    Loans,
}

/// The users' loan calls.
pub struct LoansApi;

/// Which applications `applications` lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poem_openapi::Enum)]
#[oai(rename_all = "lowercase")]
pub enum ApplicationFilter {
    /// Waiting for review.
    Pending,
    /// Approved.
    Approved,
    /// Rejected.
    Rejected,
}

/// Which loans `list` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poem_openapi::Enum)]
#[oai(rename_all = "lowercase")]
pub enum LoanFilter {
    /// Running, nothing overdue.
    Active,
    /// With an instalment overdue.
    Overdue,
    /// Repaid.
    Settled,
}

/// The signed links of `row`'s three images.
pub fn document_urls(row: &loan_application::Model, key: &[u8; 32], now: i64) -> Vec<String> {
    [row.front_file_id, row.back_file_id, row.hold_file_id]
        .into_iter()
        .map(|id| sign_link(key, id, now).url)
        .collect()
}

fn way_name(way: wasm_core::loan::RepayWay) -> Msg {
    match way {
        wasm_core::loan::RepayWay::Maturity => Msg::RepayWayMaturity,
        wasm_core::loan::RepayWay::InterestDaily => Msg::RepayWayInterestDaily,
        wasm_core::loan::RepayWay::EqualInstalments => Msg::RepayWayEqualInstalments,
    }
}

fn mode_of(mode: RepayMode, count: Option<u32>) -> Mode {
    match mode {
        RepayMode::Full => Mode::Full,
        RepayMode::Instalments => Mode::Next(count.unwrap_or(1)),
    }
}

#[OpenApi(tag = "ApiTags::Loans")]
impl LoansApi {
    /// The `t_repay_type` dictionary: the three repayment ways with their names in the request's
    /// language. Public.
    #[oai(
        path = "/api/common/type/t_repay_type",
        method = "post",
        operation_id = "getRepayTypes"
    )]
    async fn repay_types(&self) -> PublicResponse<Vec<RepayWayOption>> {
        use wasm_core::loan::RepayWay;
        let ways = [
            RepayWay::Maturity,
            RepayWay::InterestDaily,
            RepayWay::EqualInstalments,
        ];
        PublicResponse::of(
            Ok(ways
                .into_iter()
                .map(|way| RepayWayOption {
                    value: way.as_str().to_owned(),
                    name: t(way_name(way), &[]),
                })
                .collect()),
            Msg::Success,
        )
    }

    /// The live figures of the loan rules page (`/rule/index?modelType=10`): every product
    /// offered with its rates, grace days and requirements, the reminder lead and the credit
    /// model. Public.
    #[oai(
        path = "/api/loan/rules",
        method = "get",
        operation_id = "getLoanRules"
    )]
    async fn rules(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
    ) -> PublicResponse<LoanRules> {
        let result = async {
            let lang = current_lang();
            let model = credit::score(&credit::Facts::default());
            Ok::<_, Refusal>(LoanRules {
                products: products::list(db, true)
                    .await?
                    .iter()
                    .map(|p| LoanProductView::of(p, lang))
                    .collect(),
                remind_days_before: config.loans.remind_days_before,
                credit_model: model
                    .factors
                    .into_iter()
                    .map(|f| CreditFactorView {
                        key: f.key.to_owned(),
                        value: 0,
                        points: f.points,
                    })
                    .collect(),
            })
        }
        .await;
        PublicResponse::of(result, Msg::Success)
    }

    /// The products offered, each with the most the caller may borrow now (the maximum lowered
    /// by their credit score) and why they may not apply, if they may not.
    #[oai(
        path = "/api/loan/products",
        method = "get",
        operation_id = "getLoanProducts"
    )]
    async fn products(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(clock): Data<&Clock>,
        auth: Satoken,
    ) -> MemberResponse<Vec<LoanOffer>> {
        let result = async {
            let score = credit::refresh(db, &auth.0.user, clock.now_ms()).await?;
            let lang = current_lang();
            Ok::<_, Refusal>(
                queries::offers(db, &auth.0.user, &score)
                    .await?
                    .into_iter()
                    .map(|offer| LoanOffer {
                        product: LoanProductView::of(&offer.product, lang),
                        your_max_amount: offer.limit.to_string(),
                        eligible: offer.blockers.is_empty(),
                        blockers: offer.blockers.iter().map(|b| (*b).to_owned()).collect(),
                    })
                    .collect(),
            )
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Applies for a loan: amount within the product's limits (the maximum lowered by the credit
    /// score), a cycle and way offered, the identity level and score the product asks, the three
    /// identity images (the caller's own image uploads, or the advanced identity's with
    /// `documents=kyc`) and the rules accepted. One pending application per product.
    #[oai(
        path = "/api/loan/apply",
        method = "post",
        operation_id = "applyForLoan"
    )]
    async fn apply(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(clock): Data<&Clock>,
        Data(link_key): Data<&LinkKey>,
        auth: Satoken,
        body: JsonBody<LoanApplyRequest>,
    ) -> MemberResponse<LoanApplicationView> {
        let body = body.0;
        let result = async {
            let documents = match body.documents {
                DocumentsFrom::Upload => Documents::Upload {
                    front: body.front_file_id,
                    back: body.back_file_id,
                    hold: body.hold_file_id,
                },
                DocumentsFrom::Kyc => Documents::Kyc,
            };
            let now = clock.now_ms();
            let row = apply::apply(
                db,
                &auth.0.user,
                &Application {
                    product_id: body.product_id,
                    amount: body.amount.clone(),
                    cycle_days: body.cycle_days,
                    repay_way: body.repay_way.clone(),
                    documents,
                    accept_rules: body.accept_rules,
                },
                now,
            )
            .await?;
            let urls = document_urls(&row, link_key, crate::clock::now_ms());
            Ok::<_, Refusal>(LoanApplicationView::of(&row, urls))
        }
        .await;
        MemberResponse::of(result, Msg::LoanApplied)
    }

    /// The caller's applications, newest first, optionally of one status.
    #[oai(
        path = "/api/loan/applications",
        method = "get",
        operation_id = "getMyLoanApplications"
    )]
    async fn applications(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(link_key): Data<&LinkKey>,
        auth: Satoken,
        /// Only this status; all when absent.
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
    ) -> MemberResponse<LoanApplicationPage> {
        let result = async {
            let paging = Paging::new(page.0, page_size.0);
            let status = status.0.map(|s| match s {
                ApplicationFilter::Pending => "pending",
                ApplicationFilter::Approved => "approved",
                ApplicationFilter::Rejected => "rejected",
            });
            let (total, rows) =
                queries::applications(db, Some(auth.0.id()), status, paging).await?;
            let now = crate::clock::now_ms();
            Ok::<_, Refusal>(LoanApplicationPage {
                total,
                page: paging.page,
                page_size: paging.page_size,
                records: rows
                    .iter()
                    .map(|row| LoanApplicationView::of(row, document_urls(row, link_key, now)))
                    .collect(),
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// The caller's loans, newest first, optionally of one status.
    #[oai(path = "/api/loan/list", method = "get", operation_id = "getMyLoans")]
    async fn list(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// Only this status; all when absent.
        status: Query<Option<LoanFilter>>,
        /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
        #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
        page: Query<Option<u64>>,
        /// Rows per page, 1 to 100 (default 20).
        #[oai(
            name = "pageSize",
            validator(minimum(value = "1"), maximum(value = "100"))
        )]
        page_size: Query<Option<u64>>,
    ) -> MemberResponse<LoanPage> {
        let result = async {
            let paging = Paging::new(page.0, page_size.0);
            let status = status.0.map(|s| match s {
                LoanFilter::Active => LoanStatus::Active,
                LoanFilter::Overdue => LoanStatus::Overdue,
                LoanFilter::Settled => LoanStatus::Settled,
            });
            let (total, rows) = queries::loans(db, auth.0.id(), status, paging).await?;
            Ok::<_, Refusal>(LoanPage {
                total,
                page: paging.page,
                page_size: paging.page_size,
                records: rows
                    .iter()
                    .map(|(row, unpaid)| LoanView::of(row, unpaid))
                    .collect(),
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// The caller's credit score now, with every factor's points (docs/api.md has the model).
    #[oai(
        path = "/api/loan/credit",
        method = "get",
        operation_id = "getCreditScore"
    )]
    async fn credit(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(clock): Data<&Clock>,
        auth: Satoken,
    ) -> MemberResponse<CreditScoreView> {
        let result = credit::refresh(db, &auth.0.user, clock.now_ms())
            .await
            .map(|scored| CreditScoreView::of(&scored));
        MemberResponse::of(result, Msg::Success)
    }

    /// One of the caller's loans: its terms, the schedule with what is paid and overdue and each
    /// unpaid instalment's penalty now, its application with links to the documents, its history
    /// and what repaying everything costs now.
    #[oai(path = "/api/loan/:id", method = "get", operation_id = "getLoanDetail")]
    async fn detail(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(clock): Data<&Clock>,
        Data(link_key): Data<&LinkKey>,
        auth: Satoken,
        /// The loan.
        id: Path<i64>,
    ) -> MemberResponse<LoanDetail> {
        let result = async {
            let now = clock.now_ms();
            let found = queries::detail(db, Some(auth.0.id()), id.0).await?;
            let unpaid: Vec<_> = found
                .instalments
                .iter()
                .filter(|i| i.status != super::PAID)
                .cloned()
                .collect();
            let repay_in_full = if unpaid.is_empty() {
                None
            } else {
                let figures = repay::figures(&found.loan, &unpaid, Mode::Full, now)?;
                let available = ledger::balance(
                    db,
                    AccountRef::funding(found.loan.user_id),
                    &found.loan.coin,
                )
                .await?;
                Some(RepayPreview::of(found.loan.id, &figures, available))
            };
            Ok::<_, Refusal>(LoanDetail {
                instalments: queries::instalment_views(&found.loan, &found.instalments, now)?,
                application: LoanApplicationView::of(
                    &found.application,
                    document_urls(&found.application, link_key, crate::clock::now_ms()),
                ),
                history: found
                    .history
                    .iter()
                    .map(|h| HistoryView::of(h, found.loan.user_id))
                    .collect(),
                loan: LoanView::of(&found.loan, &unpaid),
                repay_in_full,
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// What repaying the loan costs now: everything (`full`: what is due with its penalty, the
    /// rest at the early-repayment figure — no fee, no penalty) or the next `count` instalments
    /// with their penalties. The figure to name in `repay`.
    #[oai(
        path = "/api/loan/:id/repay/preview",
        method = "post",
        operation_id = "previewLoanRepayment"
    )]
    async fn repay_preview(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(clock): Data<&Clock>,
        auth: Satoken,
        /// The loan.
        id: Path<i64>,
        body: JsonBody<RepayPreviewRequest>,
    ) -> MemberResponse<RepayPreview> {
        let result = async {
            let (row, rows) = repay::owned(db, auth.0.id(), id.0).await?;
            let figures = repay::figures(
                &row,
                &rows,
                mode_of(body.0.mode, body.0.count),
                clock.now_ms(),
            )?;
            let available =
                ledger::balance(db, AccountRef::funding(row.user_id), &row.coin).await?;
            Ok::<_, Refusal>(RepayPreview::of(row.id, &figures, available))
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Repays the loan from the funding bucket: `amount` must be exactly what it costs now (the
    /// preview's figure). One journal entry: the principal back to the lending pool, interest and
    /// penalty to fee income. Refused, with nothing moved: a settled loan, more than owed, a
    /// changed figure, a balance short of it.
    #[oai(
        path = "/api/loan/:id/repay",
        method = "post",
        operation_id = "repayLoan"
    )]
    // A handler takes one argument per extractor: each dependency, header, path and body.
    #[allow(clippy::too_many_arguments)]
    async fn repay(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(clock): Data<&Clock>,
        Data(events): Data<&LoanEvents>,
        Data(config): Data<&Arc<Config>>,
        auth: Satoken,
        /// The loan.
        id: Path<i64>,
        /// Makes a retry safe: the same key and body answer like the first request and move
        /// nothing.
        #[oai(name = "Idempotency-Key")]
        idempotency_key: Header<Option<String>>,
        body: JsonBody<RepayRequest>,
    ) -> MemberResponse<RepayResult> {
        let body = body.0;
        let user_id = auth.0.id();
        let result = async {
            let idempotency = crate::funds::service::idempotency(
                user_id,
                idempotency_key.0.as_deref(),
                "repayLoan",
                &(id.0, &body),
            )?;
            let amount = crate::number::decimal(&body.amount, "amount")?;
            let loan_id = id.0;
            let respond = move |figures: &repay::Figures, status: &'static str| {
                serde_json::to_string(&RepayResult {
                    loan_id,
                    status: status.to_owned(),
                    amount: figures.amount.to_string(),
                    principal: figures.principal.to_string(),
                    interest: figures.interest.to_string(),
                    penalty: figures.penalty.to_string(),
                })
                .unwrap_or_default()
            };
            let answer = repay::repay(
                db,
                events,
                &config.loans,
                user_id,
                loan_id,
                mode_of(body.mode, body.count),
                amount,
                idempotency.as_ref(),
                clock.now_ms(),
                &respond,
            )
            .await?;
            replayed(&answer)
        }
        .await;
        MemberResponse::of(result, Msg::LoanRepaid)
    }
}
