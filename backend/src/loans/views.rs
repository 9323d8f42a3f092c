//! The shapes the loan calls answer (users' and operators'), built from the rows. Amounts and
//! rates are decimal strings; times are Unix milliseconds.

use std::collections::BTreeMap;

use poem_openapi::{Enum, Object};
use serde::{Deserialize, Serialize};

use super::products::{self, ON};
use super::repay::Figures;
use crate::entity::{loan, loan_application, loan_instalment, loan_product, loan_status_history};
use crate::i18n::Lang;

/// A repayment way of the `t_repay_type` dictionary, named in the reader's language.
#[derive(Debug, Object)]
pub struct RepayWayOption {
    /// `maturity`, `interest_daily` or `equal_instalments`.
    pub value: String,
    /// Its name in the request's language.
    pub name: String,
}

/// A loan product as a user sees it, with what the user's score and identity allow.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct LoanProductView {
    /// Product id.
    pub id: i64,
    /// The coin lent, lower case.
    pub coin: String,
    /// The decimals of amounts.
    pub scale: i32,
    /// The name in the request's language (English when it has none in it).
    pub name: String,
    /// Smallest amount.
    pub min_amount: String,
    /// Largest amount.
    pub max_amount: String,
    /// Cycles offered, in days.
    pub cycles: Vec<u32>,
    /// Interest per loan day, a fraction (`0.0005` = 0.05 %).
    pub day_rate: String,
    /// Repayment ways offered (`t_repay_type` values).
    pub repay_ways: Vec<String>,
    /// The lending institution.
    pub institution: String,
    /// Penalty per day begun after the grace days, a fraction of the amount overdue.
    pub penalty_day_rate: String,
    /// Days after a due time without a penalty.
    pub grace_days: i32,
    /// The lowest credit score that may apply.
    pub min_credit_score: i32,
    /// The identity level required: 0 none, 1 basic, 2 advanced.
    pub kyc_level: i32,
}

impl LoanProductView {
    /// `row` in `lang`.
    pub fn of(row: &loan_product::Model, lang: Lang) -> Self {
        let offer = products::offer(row).ok();
        Self {
            id: row.id,
            coin: row.coin.clone(),
            scale: row.scale,
            name: products::name_in(row, lang),
            min_amount: row.min_amount.clone(),
            max_amount: row.max_amount.clone(),
            cycles: offer.as_ref().map(|o| o.cycles.clone()).unwrap_or_default(),
            day_rate: row.day_rate.clone(),
            repay_ways: row.repay_ways.split(',').map(str::to_owned).collect(),
            institution: row.institution.clone(),
            penalty_day_rate: row.penalty_day_rate.clone(),
            grace_days: row.grace_days,
            min_credit_score: row.min_credit_score,
            kyc_level: row.kyc_level,
        }
    }
}

/// A product offered to the caller, with what they may borrow.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct LoanOffer {
    /// The product.
    pub product: LoanProductView,
    /// The most the caller may borrow now: the maximum lowered by their credit score (full at a
    /// score of 100 and above).
    pub your_max_amount: String,
    /// Whether the caller may apply now.
    pub eligible: bool,
    /// Why not, when not: `kyc_level`, `credit_score`, `pending_application`, `amount_limit`.
    pub blockers: Vec<String>,
}

/// Where the identity images of an application come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Deserialize, Serialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum DocumentsFrom {
    /// Uploaded for this application (`frontFileId`, `backFileId`, `holdFileId`).
    Upload,
    /// The images of the caller's passed advanced identity verification.
    Kyc,
}

/// A loan application.
#[derive(Debug, Object, Deserialize, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LoanApplyRequest {
    /// The product.
    pub product_id: i64,
    /// The amount, a decimal string within the product's limits.
    #[oai(validator(min_length = 1, max_length = 48))]
    pub amount: String,
    /// One of the product's cycles, in days.
    #[oai(validator(minimum(value = "1"), maximum(value = "365")))]
    pub cycle_days: u32,
    /// One of the product's repayment ways.
    #[oai(validator(min_length = 1, max_length = 24))]
    pub repay_way: String,
    /// Where the three identity images come from.
    pub documents: DocumentsFrom,
    /// The document's front (an image from `uploadFile`), with `documents=upload`.
    pub front_file_id: Option<i64>,
    /// The document's back, with `documents=upload`.
    pub back_file_id: Option<i64>,
    /// A photo holding the document, with `documents=upload`.
    pub hold_file_id: Option<i64>,
    /// The loan rules (`/rule/index?modelType=10`) accepted; must be true.
    pub accept_rules: bool,
}

/// An application as its owner (or an operator) sees it.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
pub struct LoanApplicationView {
    /// Application id (the loan's id once approved).
    pub id: i64,
    /// The product.
    pub product_id: i64,
    /// The coin.
    pub coin: String,
    /// The amount asked for.
    pub amount: String,
    /// The cycle in days.
    pub cycle_days: i32,
    /// The repayment way.
    pub repay_way: String,
    /// `pending`, `approved` or `rejected`.
    pub status: String,
    /// The credit score at application.
    pub credit_score: i32,
    /// Why it was rejected.
    pub reason: Option<String>,
    /// The loan an approval created.
    pub loan_id: Option<i64>,
    /// `upload` or `kyc`.
    pub documents_from: String,
    /// Signed links (5 minutes) to the document's front, back and the photo holding it.
    pub document_urls: Vec<String>,
    /// Applied.
    pub created_at: i64,
    /// Decided.
    pub reviewed_at: Option<i64>,
}

impl LoanApplicationView {
    /// `row`, with `urls` the signed links of its three images.
    pub fn of(row: &loan_application::Model, urls: Vec<String>) -> Self {
        Self {
            id: row.id,
            product_id: row.product_id,
            coin: row.coin.clone(),
            amount: row.amount.clone(),
            cycle_days: row.cycle_days,
            repay_way: row.repay_way.clone(),
            status: row.status.clone(),
            credit_score: row.credit_score,
            reason: row.reason.clone(),
            loan_id: row.loan_id,
            documents_from: row.documents_from.clone(),
            document_urls: urls,
            created_at: row.created_at,
            reviewed_at: row.reviewed_at,
        }
    }
}

/// A loan.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
pub struct LoanView {
    /// Loan id (= its application's).
    pub id: i64,
    /// The product.
    pub product_id: i64,
    /// The coin.
    pub coin: String,
    /// The amount lent.
    pub principal: String,
    /// Interest per loan day (frozen at approval).
    pub day_rate: String,
    /// The cycle in days.
    pub cycle_days: i32,
    /// The repayment way.
    pub repay_way: String,
    /// The lending institution.
    pub institution: String,
    /// Penalty per day begun after the grace days (frozen at approval).
    pub penalty_day_rate: String,
    /// Grace days (frozen at approval).
    pub grace_days: i32,
    /// The moment of borrowing.
    pub start_time: i64,
    /// When the last instalment falls due.
    pub end_time: i64,
    /// The schedule's total interest.
    pub total_interest: String,
    /// `active`, `overdue` or `settled`.
    pub status: String,
    /// Principal repaid.
    pub principal_paid: String,
    /// Interest paid.
    pub interest_paid: String,
    /// Penalties paid.
    pub penalty_paid: String,
    /// The next unpaid instalment's due time.
    pub next_due_time: Option<i64>,
    /// The next unpaid instalment's amount (without penalty).
    pub next_due_amount: Option<String>,
    /// Penalties accrued on unpaid instalments as of the sweep's last look.
    pub penalty_accrued: String,
    /// Settled.
    pub settled_at: Option<i64>,
}

impl LoanView {
    /// `row` with its `unpaid` instalments.
    pub fn of(row: &loan::Model, unpaid: &[loan_instalment::Model]) -> Self {
        let accrued: rust_decimal::Decimal = unpaid
            .iter()
            .filter_map(|r| super::decimal(&r.penalty).ok())
            .sum();
        Self {
            id: row.id,
            product_id: row.product_id,
            coin: row.coin.clone(),
            principal: row.principal.clone(),
            day_rate: row.day_rate.clone(),
            cycle_days: row.cycle_days,
            repay_way: row.repay_way.clone(),
            institution: row.institution.clone(),
            penalty_day_rate: row.penalty_day_rate.clone(),
            grace_days: row.grace_days,
            start_time: row.start_time,
            end_time: row.end_time,
            total_interest: row.total_interest.clone(),
            status: row.status.clone(),
            principal_paid: row.principal_paid.clone(),
            interest_paid: row.interest_paid.clone(),
            penalty_paid: row.penalty_paid.clone(),
            next_due_time: unpaid.first().map(|r| r.due_time),
            next_due_amount: unpaid.first().map(|r| r.amount.clone()),
            penalty_accrued: accrued.normalize().to_string(),
            settled_at: row.settled_at,
        }
    }
}

/// One instalment of a loan's schedule.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
pub struct InstalmentView {
    /// 1 for the first.
    pub number: i32,
    /// When it falls due.
    pub due_time: i64,
    /// The principal it repays.
    pub principal: String,
    /// The interest it pays.
    pub interest: String,
    /// `principal + interest`.
    pub amount: String,
    /// `paid`, `pending` (not yet due) or `overdue`.
    pub status: String,
    /// Unpaid: the penalty now (wasm-core's `overdue_penalty`); paid: the penalty charged.
    pub penalty: String,
    /// Days begun since its due time (unpaid ones).
    pub days_overdue: u32,
    /// What paying it took.
    pub paid_amount: Option<String>,
    /// When it was paid.
    pub paid_at: Option<i64>,
}

/// One transition of an application or loan.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
pub struct HistoryView {
    /// The status before (none for the submission).
    pub from_status: Option<String>,
    /// The status after.
    pub to_status: String,
    /// Who: `user`, `operator` or `system` (the due sweep).
    pub actor: String,
    /// Why (a rejection's reason; `early`, `instalments`, `auto`, `due_unpaid`).
    pub reason: Option<String>,
    /// When.
    pub at: i64,
}

impl HistoryView {
    /// `row`, whose user is `owner`.
    pub fn of(row: &loan_status_history::Model, owner: i64) -> Self {
        Self {
            from_status: row.from_status.clone(),
            to_status: row.to_status.clone(),
            actor: match row.actor_id {
                None => "system",
                Some(id) if id == owner => "user",
                Some(_) => "operator",
            }
            .to_owned(),
            reason: row.reason.clone(),
            at: row.at,
        }
    }
}

/// What a repayment costs now.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct RepayPreview {
    /// The loan.
    pub loan_id: i64,
    /// The moment the figures are for (the next call may differ once a loan day begins).
    pub at_time: i64,
    /// `early` (in full before the end) or `instalments`.
    pub stage: String,
    /// Principal repaid.
    pub principal: String,
    /// Interest paid.
    pub interest: String,
    /// Penalty paid.
    pub penalty: String,
    /// The total, taken from funding: name exactly it in `repay`.
    pub amount: String,
    /// The schedule's interest an early repayment does not pay.
    pub interest_saved: String,
    /// Whether the loan is settled by it.
    pub settles: bool,
    /// The instalments it pays.
    pub instalments: Vec<i32>,
    /// The caller's funding balance of the coin.
    pub available: String,
}

impl RepayPreview {
    /// `figures` of loan `loan_id` with `available` in funding.
    pub fn of(loan_id: i64, figures: &Figures, available: rust_decimal::Decimal) -> Self {
        Self {
            loan_id,
            at_time: figures.at,
            stage: figures.stage.to_owned(),
            principal: figures.principal.to_string(),
            interest: figures.interest.to_string(),
            penalty: figures.penalty.to_string(),
            amount: figures.amount.to_string(),
            interest_saved: figures.interest_saved.to_string(),
            settles: figures.settles,
            instalments: figures.shares.iter().map(|s| s.number).collect(),
            available: available.normalize().to_string(),
        }
    }
}

/// How much of a loan to repay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Deserialize, Serialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum RepayMode {
    /// Everything now (early repayment without penalty before the end).
    Full,
    /// The next `count` instalments.
    Instalments,
}

/// A repayment preview's question.
#[derive(Debug, Object, Deserialize, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RepayPreviewRequest {
    /// Everything or the next instalments.
    pub mode: RepayMode,
    /// With `instalments`: how many (default 1).
    #[oai(validator(minimum(value = "1"), maximum(value = "400")))]
    pub count: Option<u32>,
}

/// A repayment.
#[derive(Debug, Object, Deserialize, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RepayRequest {
    /// Everything or the next instalments.
    pub mode: RepayMode,
    /// With `instalments`: how many (default 1).
    #[oai(validator(minimum(value = "1"), maximum(value = "400")))]
    pub count: Option<u32>,
    /// The amount the preview showed: more than it costs is `loan_repay_above_owed`, less
    /// `loan_repay_amount_changed` (a loan day began since; preview again).
    #[oai(validator(min_length = 1, max_length = 48))]
    pub amount: String,
}

/// A repayment made.
#[derive(Debug, Object, Deserialize, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct RepayResult {
    /// The loan.
    pub loan_id: i64,
    /// Its status after the repayment.
    pub status: String,
    /// What was taken from funding.
    pub amount: String,
    /// Principal repaid.
    pub principal: String,
    /// Interest paid.
    pub interest: String,
    /// Penalty paid.
    pub penalty: String,
}

/// A loan with everything its detail screen shows.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
pub struct LoanDetail {
    /// The loan.
    pub loan: LoanView,
    /// Its schedule, paid and unpaid.
    pub instalments: Vec<InstalmentView>,
    /// Its application, with links to the documents.
    pub application: LoanApplicationView,
    /// Every transition, oldest first.
    pub history: Vec<HistoryView>,
    /// What repaying everything costs now (absent once settled).
    pub repay_in_full: Option<RepayPreview>,
}

/// A page of applications, newest first.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct LoanApplicationPage {
    /// Rows matching.
    pub total: u64,
    /// This page (from 1).
    pub page: u64,
    /// Page size.
    pub page_size: u64,
    /// The rows.
    pub records: Vec<LoanApplicationView>,
}

/// A page of loans, newest first.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct LoanPage {
    /// Rows matching.
    pub total: u64,
    /// This page (from 1).
    pub page: u64,
    /// Page size.
    pub page_size: u64,
    /// The rows.
    pub records: Vec<LoanView>,
}

/// One factor of a credit score.
#[derive(Debug, Object)]
pub struct CreditFactorView {
    /// `base`, `kyc_level`, `account_age`, `on_time`, `settled_loans`, `overdue_days`,
    /// `overdue_now` (docs/api.md has the model).
    pub key: String,
    /// The fact it reads.
    pub value: i64,
    /// Its points.
    pub points: i32,
}

/// A credit score with its factors.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct CreditScoreView {
    /// The score, 0 to 150.
    pub score: i32,
    /// The score from which a product's whole maximum may be borrowed.
    pub full_limit_score: i32,
    /// Every factor's part.
    pub factors: Vec<CreditFactorView>,
}

impl CreditScoreView {
    /// `scored` as shown.
    pub fn of(scored: &super::credit::Score) -> Self {
        Self {
            score: scored.score,
            full_limit_score: super::credit::FULL_LIMIT_SCORE,
            factors: scored
                .factors
                .iter()
                .map(|f| CreditFactorView {
                    key: f.key.to_owned(),
                    value: f.value,
                    points: f.points,
                })
                .collect(),
        }
    }
}

/// The live figures of the loan rules page.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct LoanRules {
    /// Every product offered.
    pub products: Vec<LoanProductView>,
    /// Days before a due time that the reminder is sent.
    pub remind_days_before: u32,
    /// The credit score's factors and their points, as the model gives them (`value` 0).
    pub credit_model: Vec<CreditFactorView>,
}

/// A product as an operator sees and fills it in.
#[derive(Debug, Object, Deserialize, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LoanProductForm {
    /// The coin lent.
    #[oai(validator(min_length = 1, max_length = 16))]
    pub coin: String,
    /// The decimals of amounts, 0 to 18.
    #[oai(validator(maximum(value = "18")))]
    pub scale: u32,
    /// Smallest amount.
    #[oai(validator(min_length = 1, max_length = 48))]
    pub min_amount: String,
    /// Largest amount.
    #[oai(validator(min_length = 1, max_length = 48))]
    pub max_amount: String,
    /// Cycles offered, days (1 to 365; multiples of 30 with `equal_instalments`).
    #[oai(validator(max_items = 16))]
    pub cycles: Vec<u32>,
    /// Interest per loan day, above 0 and below 1.
    #[oai(validator(min_length = 1, max_length = 48))]
    pub day_rate: String,
    /// Repayment ways offered (`t_repay_type` values).
    #[oai(validator(max_items = 3))]
    pub repay_ways: Vec<String>,
    /// The lending institution shown to users.
    #[oai(validator(min_length = 1, max_length = 200))]
    pub institution: String,
    /// Penalty per day begun after the grace days, 0 up to 1.
    #[oai(validator(min_length = 1, max_length = 48))]
    pub penalty_day_rate: String,
    /// Days after a due time without a penalty, 0 to 365.
    #[oai(validator(maximum(value = "365")))]
    pub grace_days: u32,
    /// The lowest credit score that may apply, 0 to 1000.
    #[oai(validator(maximum(value = "1000")))]
    pub min_credit_score: u32,
    /// The identity level required: 0, 1 or 2.
    #[oai(validator(maximum(value = "2")))]
    pub kyc_level: u32,
    /// The name per language code (`en` required).
    pub names: BTreeMap<String, String>,
    /// Whether it is offered.
    pub enabled: bool,
}

impl LoanProductForm {
    /// The stored product as the form that would store it.
    pub fn of(row: &loan_product::Model) -> Self {
        let offer = products::offer(row).ok();
        Self {
            coin: row.coin.clone(),
            scale: row.scale as u32,
            min_amount: row.min_amount.clone(),
            max_amount: row.max_amount.clone(),
            cycles: offer.map(|o| o.cycles).unwrap_or_default(),
            day_rate: row.day_rate.clone(),
            repay_ways: row.repay_ways.split(',').map(str::to_owned).collect(),
            institution: row.institution.clone(),
            penalty_day_rate: row.penalty_day_rate.clone(),
            grace_days: row.grace_days as u32,
            min_credit_score: row.min_credit_score as u32,
            kyc_level: row.kyc_level as u32,
            names: products::names(row),
            enabled: row.status == ON,
        }
    }
}

/// A stored product for operators.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct AdminLoanProduct {
    /// Product id.
    pub id: i64,
    /// Its settings.
    pub settings: LoanProductForm,
    /// Created.
    pub created_at: i64,
    /// Last changed.
    pub updated_at: i64,
}

impl AdminLoanProduct {
    /// `row` for operators.
    pub fn of(row: &loan_product::Model) -> Self {
        Self {
            id: row.id,
            settings: LoanProductForm::of(row),
            created_at: row.created_at,
            updated_at: row.updated_at,
        }
    }
}
