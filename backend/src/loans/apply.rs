//! A loan application: every rule checked before anything is stored, then the application and its
//! first history row in one transaction. One pending application per user and product is held by
//! a partial unique index, so of two simultaneous applications exactly one is stored and the other
//! is refused as `loan_application_pending`.

use rust_decimal::Decimal;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter,
    QueryOrder, SqlErr, TransactionTrait,
};
use wasm_core::loan::{LoanTerms, RepayWay, loan_schedule};

use super::products::{self, ON};
use super::{ApplicationStatus, Transition, credit, record};
use crate::entity::{kyc_submission, loan_application, uploaded_file, user};
use crate::i18n::Msg;
use crate::refusal::{Refusal, RefusalKind};

/// Where the three identity images come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Documents {
    /// Uploaded for this application (`uploadFile`): the document's front and back and a photo
    /// holding it; each `None` when missing.
    Upload {
        /// The document's front.
        front: Option<i64>,
        /// The document's back.
        back: Option<i64>,
        /// A photo holding the document.
        hold: Option<i64>,
    },
    /// The images of the user's passed advanced identity verification.
    Kyc,
}

/// What a user applies for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Application {
    /// The product.
    pub product_id: i64,
    /// The amount, as typed.
    pub amount: String,
    /// The cycle, in days.
    pub cycle_days: u32,
    /// The repayment way (`t_repay_type` value).
    pub repay_way: String,
    /// The identity images.
    pub documents: Documents,
    /// Whether the loan rules were accepted.
    pub accept_rules: bool,
}

/// The three images of `documents` for `user_id`, each the user's own image upload.
async fn documents(
    db: &impl sea_orm::ConnectionTrait,
    user_id: i64,
    documents: Documents,
) -> Result<([i64; 3], &'static str), Refusal> {
    let (ids, from) = match documents {
        Documents::Upload { front, back, hold } => {
            let mut ids = [0; 3];
            for (slot, (field, id)) in ids.iter_mut().zip([
                ("frontFileId", front),
                ("backFileId", back),
                ("holdFileId", hold),
            ]) {
                *slot = id
                    .ok_or_else(|| Refusal::invalid(Msg::LoanDocumentRequired).with_field(field))?;
            }
            (ids, "upload")
        }
        Documents::Kyc => {
            let passed = kyc_submission::Entity::find()
                .filter(kyc_submission::Column::UserId.eq(user_id))
                .filter(kyc_submission::Column::Level.eq("advanced"))
                .filter(kyc_submission::Column::Status.eq("passed"))
                .order_by_desc(kyc_submission::Column::Id)
                .one(db)
                .await?;
            let files =
                passed.and_then(|s| Some([s.front_file_id?, s.back_file_id?, s.hold_file_id?]));
            let ids = files.ok_or_else(|| {
                Refusal::invalid(Msg::LoanKycDocumentsMissing).with_field("documents")
            })?;
            (ids, "kyc")
        }
    };
    for (field, id) in ["frontFileId", "backFileId", "holdFileId"]
        .into_iter()
        .zip(ids)
    {
        let file = uploaded_file::Entity::find_by_id(id)
            .filter(uploaded_file::Column::UserId.eq(user_id))
            .one(db)
            .await?
            .ok_or_else(|| Refusal::not_found(Msg::NotFound).with_field(field))?;
        // Uploads are typed by content; a PDF (or anything not a picture) is no photo of a document.
        if !file.content_type.starts_with("image/") {
            return Err(
                Refusal::new(RefusalKind::UnsupportedMedia, Msg::LoanDocumentNotImage)
                    .with_field(field),
            );
        }
    }
    Ok((ids, from))
}

/// Checks `application` of `applicant` at `now` (the injectable clock's time) and stores it
/// pending review. Refused, with nothing stored: a missing or withdrawn product, the rules not
/// accepted, an amount outside the product's limits (its maximum lowered by the credit score, see
/// [`credit::amount_limit`]) or with too many decimals, a cycle or way not offered, an identity
/// level or credit score below the product's, a missing, foreign or non-image document, and a
/// second pending application for the product (`loan_application_pending`, 409).
pub async fn apply(
    db: &DatabaseConnection,
    applicant: &user::Model,
    application: &Application,
    now: i64,
) -> Result<loan_application::Model, Refusal> {
    let product = products::find(db, application.product_id).await?;
    if product.status != ON {
        return Err(Refusal::invalid(Msg::LoanProductClosed).with_field("productId"));
    }
    if !application.accept_rules {
        return Err(Refusal::invalid(Msg::LoanRulesNotAccepted).with_field("acceptRules"));
    }
    let offer = products::offer(&product)?;
    let scale = u32::try_from(product.scale).map_err(Refusal::internal)?;
    let score = credit::refresh(db, applicant, now).await?;
    let limit = credit::amount_limit(offer.max_amount, score.score, scale);
    let out_of_range = || {
        Refusal::invalid(Msg::LoanAmountOutOfRange)
            .with_field("amount")
            .with_param("min", offer.min_amount.normalize().to_string())
            .with_param("max", limit.to_string())
            .with_param("coin", product.coin.to_ascii_uppercase())
    };
    let amount: Decimal = crate::number::decimal(&application.amount, "amount")?;
    if amount.normalize().scale() > scale {
        return Err(Refusal::invalid(Msg::InvalidField).with_field("amount"));
    }
    if amount < offer.min_amount || amount > limit {
        return Err(out_of_range());
    }
    if !offer.cycles.contains(&application.cycle_days) {
        return Err(Refusal::invalid(Msg::LoanCycleNotOffered)
            .with_field("cycleDays")
            .with_param("cycle", application.cycle_days.to_string()));
    }
    let way = application
        .repay_way
        .parse::<RepayWay>()
        .ok()
        .filter(|way| offer.repay_ways.contains(way))
        .ok_or_else(|| Refusal::invalid(Msg::LoanWayNotOffered).with_field("repayWay"))?;
    if applicant.kyc_level < product.kyc_level {
        return Err(Refusal::new(RefusalKind::Forbidden, Msg::LoanKycRequired)
            .with_param("level", product.kyc_level.to_string()));
    }
    if score.score < product.min_credit_score {
        return Err(Refusal::new(RefusalKind::Forbidden, Msg::LoanCreditTooLow)
            .with_param("score", score.score.to_string())
            .with_param("required", product.min_credit_score.to_string()));
    }
    // The schedule must be computable before anyone reviews it (the same call approval makes).
    loan_schedule(&LoanTerms {
        principal: amount,
        day_rate: offer.day_rate,
        cycle_days: application.cycle_days,
        repay_way: way,
        start_time: now,
        scale,
    })
    .map_err(|_| Refusal::invalid(Msg::LoanWayNotOffered).with_field("repayWay"))?;
    let (files, from) = documents(db, applicant.id, application.documents).await?;

    let txn = db.begin().await?;
    let inserted = loan_application::ActiveModel {
        user_id: Set(applicant.id),
        product_id: Set(product.id),
        coin: Set(product.coin.clone()),
        amount: Set(amount.normalize().to_string()),
        cycle_days: Set(application.cycle_days as i32),
        repay_way: Set(way.as_str().to_owned()),
        front_file_id: Set(files[0]),
        back_file_id: Set(files[1]),
        hold_file_id: Set(files[2]),
        documents_from: Set(from.to_owned()),
        rules_accepted: Set(true),
        status: Set(ApplicationStatus::Pending.as_str().to_owned()),
        credit_score: Set(score.score),
        reviewer_id: Set(None),
        reason: Set(None),
        loan_id: Set(None),
        created_at: Set(now),
        reviewed_at: Set(None),
        ..Default::default()
    }
    .insert(&txn)
    .await;
    let row = match inserted {
        Ok(row) => row,
        Err(error) if matches!(error.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
            txn.rollback().await.ok();
            return Err(Refusal::conflict(Msg::LoanApplicationPending).with_field("productId"));
        }
        Err(error) => return Err(error.into()),
    };
    record(
        &txn,
        Transition {
            application_id: row.id,
            loan_id: None,
            from: None,
            to: ApplicationStatus::Pending.as_str(),
            actor_id: Some(applicant.id),
            reason: None,
            at: now,
        },
    )
    .await?;
    txn.commit().await?;
    Ok(row)
}
