//! Deposits: the funding channels (per coin and network: the platform's address, minimum deposit,
//! withdrawal fee and minimum withdrawal, from `[funds]` in the configuration), the user's deposit
//! claims with their payment screenshot, and the operator's review that credits them.
//!
//! A claim moves no money: it waits in `review` until an operator passes it — one journal entry,
//! deposits in transit → the user's funding, in the same transaction as the conditional
//! `review → passed` update, so two operators cannot both credit it — or fails it with a reason.
//!
//! The channel lookups, amount rules and review decisions here are shared with
//! [`super::withdrawals`] and the operator calls of [`crate::admin::funds_api`]; the user's calls are in
//! [`super::deposits_api`].

use std::collections::HashMap;

use poem_openapi::Enum;
use rust_decimal::Decimal;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection,
    EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, TransactionTrait,
    sea_query::Expr,
};
use serde::{Deserialize, Serialize};
use wasm_core::validate::Violation;

use super::ledger::{
    self, AccountRef, House, Idempotency, LedgerError, NewEntry, Posting, RunOutcome,
};
use super::service::{self, ledger_error};
use crate::clock::now_ms;
use crate::config::{FundingChannelConfig, FundsConfig};
use crate::entity::{deposit, uploaded_file, user};
use crate::i18n::Msg;
use crate::refusal::{Refusal, RefusalKind};
use crate::user::roles::require_operator;

/// Where a deposit or withdrawal stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum PaymentStatus {
    /// Waiting for an operator.
    Review,
    /// Passed: the money moved.
    Passed,
    /// Failed: see the reason (a withdrawal's amount went back to funding).
    Failed,
}

impl PaymentStatus {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Review => "review",
            Self::Passed => "passed",
            Self::Failed => "failed",
        }
    }

    /// The status of a stored name (`review` for anything unknown, which never happens).
    pub fn from_stored(name: &str) -> Self {
        match name {
            "passed" => Self::Passed,
            "failed" => Self::Failed,
            _ => Self::Review,
        }
    }
}

pub use crate::paging::MAX_PAGE_SIZE;
/// The longest rejection reason, in characters.
pub const MAX_REASON_CHARS: u32 = 500;

/// The channels of `coin` (any case), or `NoFundingChannel` (404 for a path, 400 naming `field`
/// for a body field).
pub fn coin_channels<'a>(
    funds: &'a FundsConfig,
    coin: &str,
    field: Option<&str>,
) -> Result<(String, Vec<&'a FundingChannelConfig>), Refusal> {
    let wanted = coin.trim().to_ascii_lowercase();
    let found = funds.channels_of(&wanted);
    if found.is_empty() {
        let error = match field {
            Some(field) => {
                Refusal::new(RefusalKind::Invalid, Msg::NoFundingChannel).with_field(field)
            }
            None => Refusal::new(RefusalKind::NotFound, Msg::NoFundingChannel),
        };
        return Err(error.with_param("coin", coin.trim().to_ascii_uppercase()));
    }
    Ok((wanted, found))
}

/// The channel of `coin` on `network` (any case): `NoFundingChannel` on `coin`, or the
/// `unsupported_network` rule on `network`.
pub fn channel<'a>(
    funds: &'a FundsConfig,
    coin: &str,
    network: &str,
) -> Result<&'a FundingChannelConfig, Refusal> {
    let (_, channels) = coin_channels(funds, coin, Some("coin"))?;
    let wanted = network.trim().to_ascii_uppercase();
    channels
        .into_iter()
        .find(|c| c.network == wanted)
        .ok_or_else(|| {
            Refusal::rule(
                "network",
                &Violation::UnsupportedNetwork {
                    network: network.trim().to_owned(),
                },
            )
        })
}

/// An amount typed for `channel`: the number-input rule and above zero ([`service::amount`]), at
/// most the channel's decimals, and at least `min`.
pub fn channel_amount(
    channel: &FundingChannelConfig,
    text: &str,
    field: &str,
    min: Decimal,
) -> Result<Decimal, Refusal> {
    let amount = service::amount(text, field)?;
    if amount.scale() > channel.precision {
        return Err(Refusal::rule(
            field,
            &Violation::TooManyDecimals {
                max: channel.precision,
            },
        ));
    }
    if amount < min {
        return Err(Refusal::rule(
            field,
            &Violation::BelowMinimum {
                min: min.normalize(),
            },
        ));
    }
    Ok(amount)
}

/// The upload a screenshot reference names, if it is one of `user_id`'s images. The reference is
/// what the upload call answered: the `fileId` (as text), its `url`
/// (`/api/file/content/{fileId}?…`), or the stored file name. Another user's file answers exactly
/// like a missing one (404 naming `screenshot`); a PDF is 400 `screenshot_not_image`.
pub async fn screenshot(
    db: &impl ConnectionTrait,
    user_id: i64,
    reference: &str,
) -> Result<uploaded_file::Model, Refusal> {
    let not_found = || Refusal::new(RefusalKind::NotFound, Msg::NotFound).with_field("screenshot");
    let reference = reference.trim();
    let by_id = reference
        .strip_prefix("/api/file/content/")
        .map(|rest| rest.split(['?', '#']).next().unwrap_or_default())
        .unwrap_or(reference);
    let mut select =
        uploaded_file::Entity::find().filter(uploaded_file::Column::UserId.eq(user_id));
    select = if !by_id.is_empty() && by_id.len() < 19 && by_id.bytes().all(|b| b.is_ascii_digit()) {
        select.filter(uploaded_file::Column::Id.eq(by_id.parse::<i64>().map_err(|_| not_found())?))
    } else if !reference.is_empty() && reference.len() <= 100 {
        select.filter(uploaded_file::Column::StoredName.eq(reference))
    } else {
        return Err(not_found());
    };
    let file = select.one(db).await?.ok_or_else(not_found)?;
    if !matches!(
        file.content_type.as_str(),
        "image/jpeg" | "image/png" | "image/webp"
    ) {
        return Err(
            Refusal::new(RefusalKind::Invalid, Msg::ScreenshotNotImage).with_field("screenshot")
        );
    }
    Ok(file)
}

/// A checked deposit claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewDeposit {
    /// The claimant.
    pub user_id: i64,
    /// Asset, lower case.
    pub coin: String,
    /// Network, upper case.
    pub network: String,
    /// The platform's address on it.
    pub address: String,
    /// Amount.
    pub amount: Decimal,
    /// The screenshot upload.
    pub screenshot_file_id: i64,
}

/// Stores a claim under review, once per idempotency key (a replay gets the first answer, made by
/// `respond`).
pub async fn submit(
    db: &DatabaseConnection,
    claim: &NewDeposit,
    idempotency: Option<&Idempotency>,
    respond: impl Fn(&deposit::Model) -> String,
) -> Result<RunOutcome<deposit::Model>, Refusal> {
    ledger::run_once(db, idempotency, respond, |txn| {
        let claim = claim.clone();
        Box::pin(async move {
            Ok(deposit::ActiveModel {
                user_id: Set(claim.user_id),
                coin: Set(claim.coin),
                network: Set(claim.network),
                address: Set(claim.address),
                amount: Set(claim.amount.normalize().to_string()),
                screenshot_file_id: Set(claim.screenshot_file_id),
                status: Set(PaymentStatus::Review.as_str().to_owned()),
                reason: Set(None),
                reviewed_by: Set(None),
                reviewed_at: Set(None),
                entry_id: Set(None),
                created_at: Set(now_ms()),
                ..Default::default()
            }
            .insert(txn)
            .await?)
        })
    })
    .await
    .map_err(|e| ledger_error(e, "amount"))
}

/// Which deposits or withdrawals a list shows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListFilter {
    /// Only this user's (always set for a user's own list).
    pub user_id: Option<i64>,
    /// Only this asset (lower case).
    pub coin: Option<String>,
    /// Only this status.
    pub status: Option<PaymentStatus>,
}

/// Page `page` (from 1) of `page_size` (1 to [`MAX_PAGE_SIZE`]) deposits matching `filter`, newest
/// first, and how many match in all.
pub async fn list(
    db: &impl ConnectionTrait,
    filter: &ListFilter,
    page: u64,
    page_size: u64,
) -> Result<(u64, Vec<deposit::Model>), Refusal> {
    let mut select = deposit::Entity::find();
    if let Some(user_id) = filter.user_id {
        select = select.filter(deposit::Column::UserId.eq(user_id));
    }
    if let Some(coin) = &filter.coin {
        select = select.filter(deposit::Column::Coin.eq(coin.trim().to_ascii_lowercase()));
    }
    if let Some(status) = filter.status {
        select = select.filter(deposit::Column::Status.eq(status.as_str()));
    }
    let total = select.clone().count(db).await?;
    let page_size = page_size.clamp(1, MAX_PAGE_SIZE);
    let rows = select
        .order_by_desc(deposit::Column::Id)
        .offset((page.max(1) - 1).saturating_mul(page_size))
        .limit(page_size)
        .all(db)
        .await?;
    Ok((total, rows))
}

/// The login e-mail (else phone) of each of `user_ids`, for the operator's lists.
pub async fn accounts(
    db: &impl ConnectionTrait,
    user_ids: impl IntoIterator<Item = i64>,
) -> Result<HashMap<i64, String>, Refusal> {
    let mut ids: Vec<i64> = user_ids.into_iter().collect();
    ids.sort_unstable();
    ids.dedup();
    Ok(user::Entity::find()
        .filter(user::Column::Id.is_in(ids))
        .all(db)
        .await?
        .into_iter()
        .map(|u| (u.id, u.email.or(u.phone).unwrap_or_default()))
        .collect())
}

/// An operator's decision on a deposit or withdrawal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The deposit's or withdrawal's id.
    pub id: i64,
    /// Pass (`true`) or fail it.
    pub approve: bool,
    /// Why it fails: required to fail it, at most [`MAX_REASON_CHARS`] characters.
    pub reason: Option<String>,
}

/// The reason a decision stores: `None` when it passes; required (non-blank, at most
/// [`MAX_REASON_CHARS`] characters, trimmed) when it fails.
pub fn rejection_reason(decision: &Decision) -> Result<Option<String>, Refusal> {
    if decision.approve {
        return Ok(None);
    }
    let reason = decision
        .reason
        .as_deref()
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .ok_or_else(|| {
            Refusal::new(RefusalKind::Invalid, Msg::RejectReasonRequired).with_field("reason")
        })?;
    if reason.chars().count() > MAX_REASON_CHARS as usize {
        return Err(Refusal::rule(
            "reason",
            &Violation::TooLong {
                max: MAX_REASON_CHARS,
            },
        ));
    }
    Ok(Some(reason.to_owned()))
}

/// 409: reviewed already.
pub fn already_reviewed() -> Refusal {
    Refusal::new(RefusalKind::Conflict, Msg::PaymentAlreadyReviewed)
}

/// Checks that `operator` may decide on a row of `owner_id`: an operator (403 otherwise) and not
/// its owner (403). Whether it is still under review is decided by the conditional update alone,
/// inside the transaction of its entries, so a review that lost a race answers like a late one.
pub fn check_reviewable(operator: &user::Model, owner_id: i64) -> Result<(), Refusal> {
    require_operator(operator)?;
    if owner_id == operator.id {
        return Err(Refusal::new(RefusalKind::Forbidden, Msg::Forbidden));
    }
    Ok(())
}

/// Records `operator`'s decision on a deposit under review: passing credits the amount (one entry,
/// deposits in transit → the user's funding) in the same transaction as the conditional
/// `review → passed` update; failing stores the reason and moves nothing. A deposit reviewed
/// already — before or concurrently — is 409; a missing one 404. Answers the reviewed deposit.
pub async fn review(
    db: &DatabaseConnection,
    operator: &user::Model,
    decision: &Decision,
) -> Result<deposit::Model, Refusal> {
    require_operator(operator)?;
    let reason = rejection_reason(decision)?;
    let not_found = || Refusal::new(RefusalKind::NotFound, Msg::NotFound).with_field("id");
    let row = deposit::Entity::find_by_id(decision.id)
        .one(db)
        .await?
        .ok_or_else(not_found)?;
    check_reviewable(operator, row.user_id)?;
    let now = now_ms();
    let (id, operator_id) = (row.id, operator.id);
    if decision.approve {
        let amount = wasm_core::money::parse_decimal(&row.amount).map_err(Refusal::internal)?;
        let entry = NewEntry {
            kind: "deposit".into(),
            reference: format!("deposit:{id}"),
            user_id: Some(row.user_id),
            actor_id: Some(operator_id),
            memo: crate::funds::bill_detail::deposit_memo(amount, &row.coin, &row.network),
            postings: Posting::transfer(
                AccountRef::House(House::DepositsInTransit),
                AccountRef::funding(row.user_id),
                &row.coin,
                amount,
            )
            .to_vec(),
        };
        let notice = crate::notify::Notice::deposit_credited(
            &amount.normalize().to_string(),
            &row.coin,
            &row.network,
            now,
        );
        let owner = row.user_id;
        ledger::post_once(
            db,
            &entry,
            None,
            |_| String::new(),
            move |txn, entry_id, _| {
                let notice = notice.clone();
                Box::pin(async move {
                    decide(
                        txn,
                        id,
                        PaymentStatus::Passed,
                        None,
                        operator_id,
                        now,
                        Some(entry_id),
                    )
                    .await?;
                    crate::notify::enqueue(txn, owner, notice).await?;
                    Ok(())
                })
            },
        )
        .await
        .map_err(|e| ledger_error(e, "amount"))?;
    } else {
        let txn = db.begin().await?;
        match decide(
            &txn,
            id,
            PaymentStatus::Failed,
            reason,
            operator_id,
            now,
            None,
        )
        .await
        {
            Ok(()) => txn.commit().await?,
            Err(error) => {
                txn.rollback().await.ok();
                return Err(ledger_error(error, "amount"));
            }
        }
    }
    deposit::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(not_found)
}

/// The conditional `review → status` update of deposit `id`; [`LedgerError::Refused`] (409) when
/// it is no longer under review.
async fn decide(
    txn: &sea_orm::DatabaseTransaction,
    id: i64,
    status: PaymentStatus,
    reason: Option<String>,
    operator_id: i64,
    now: i64,
    entry_id: Option<i64>,
) -> Result<(), LedgerError> {
    let updated = deposit::Entity::update_many()
        .col_expr(deposit::Column::Status, Expr::value(status.as_str()))
        .col_expr(deposit::Column::Reason, Expr::value(reason))
        .col_expr(deposit::Column::ReviewedBy, Expr::value(operator_id))
        .col_expr(deposit::Column::ReviewedAt, Expr::value(now))
        .col_expr(deposit::Column::EntryId, Expr::value(entry_id))
        .filter(deposit::Column::Id.eq(id))
        .filter(deposit::Column::Status.eq(PaymentStatus::Review.as_str()))
        .exec(txn)
        .await?;
    if updated.rows_affected == 1 {
        Ok(())
    } else {
        Err(LedgerError::Refused(already_reviewed()))
    }
}
#[cfg(test)]
mod tests {
    use rust_decimal_macros::dec;

    use super::*;

    fn funds() -> FundsConfig {
        let mut funds = FundsConfig::default();
        funds.normalise().unwrap();
        funds
    }

    #[test]
    fn channels_are_found_in_any_case() {
        let funds = funds();
        let found = channel(&funds, "USDT", "trc20").unwrap();
        assert_eq!(
            (found.coin.as_str(), found.network.as_str()),
            ("usdt", "TRC20")
        );
        let error = channel(&funds, "doge", "TRC20").unwrap_err();
        assert_eq!(
            (error.kind, error.msg, error.field.as_deref()),
            (RefusalKind::Invalid, Msg::NoFundingChannel, Some("coin"))
        );
        let error = channel(&funds, "btc", "TRC20").unwrap_err();
        assert_eq!(error.msg, Msg::Rule("unsupported_network"));
        let error = coin_channels(&funds, "doge", None).unwrap_err();
        assert_eq!(error.kind, RefusalKind::NotFound);
        assert_eq!(
            super::super::deposits_api::funding_channels(&funds)
                .coins
                .len(),
            3
        );
    }

    #[test]
    fn amounts_follow_the_channel() {
        let funds = funds();
        let usdt = channel(&funds, "usdt", "TRC20").unwrap();
        assert_eq!(
            channel_amount(usdt, "10.5", "amount", dec!(10)).unwrap(),
            dec!(10.5)
        );
        for (text, code) in [
            ("9.99", "below_minimum"),
            ("10.1234567", "too_many_decimals"),
            ("abc", "invalid_number"),
            ("-10", "invalid_number"),
            ("0", "not_above_zero"),
        ] {
            let error = channel_amount(usdt, text, "amount", dec!(10)).unwrap_err();
            assert_eq!(error.msg, Msg::Rule(code), "{text}");
        }
    }

    #[test]
    fn a_rejection_needs_a_short_reason() {
        let decision = |approve, reason: Option<&str>| Decision {
            id: 1,
            approve,
            reason: reason.map(str::to_owned),
        };
        assert_eq!(rejection_reason(&decision(true, Some("x"))), Ok(None));
        assert_eq!(
            rejection_reason(&decision(false, Some(" no payment "))),
            Ok(Some("no payment".into()))
        );
        assert_eq!(
            rejection_reason(&decision(false, Some("  ")))
                .unwrap_err()
                .msg,
            Msg::RejectReasonRequired
        );
        assert_eq!(
            rejection_reason(&decision(false, Some(&"x".repeat(501))))
                .unwrap_err()
                .msg,
            Msg::Rule("too_long")
        );
    }
}
