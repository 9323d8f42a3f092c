//! The rules of the first funds calls: which assets exist, reading amounts, the fund password, the
//! idempotency key, balances per coin, moving funds between a user's own buckets and transferring
//! them to another user. Every balance change is one ledger entry.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, Condition, DatabaseConnection, EntityTrait,
    PaginatorTrait, QueryFilter, QueryOrder,
};
use wasm_core::validate::{Violation, validate_number_input};

use super::ledger::{
    self, AccountRef, Bucket, Idempotency, LedgerError, NewEntry, Outcome, Posted, Posting,
};
use crate::entity::{coin, fund_transfer, user};
use crate::i18n::Msg;
use crate::refusal::{Refusal, RefusalKind};
use crate::user::password;
use crate::user::rate_limit::{Limit, RateLimiter};
use crate::user::sha256_hex;

/// Most decimals of an amount a user types.
pub const AMOUNT_DECIMALS: u32 = 8;
/// The quote asset every pair is priced in.
pub const QUOTE_ASSET: &str = "usdt";
/// Wrong fund passwords per user in 15 minutes.
pub const FUND_PASSWORD_FAILURES: Limit = Limit::per_secs(5, 900);

/// Every asset of the platform: the quote asset and each listed coin, lower case, sorted.
pub async fn assets(db: &DatabaseConnection) -> Result<Vec<String>, Refusal> {
    let mut assets: Vec<String> = coin::Entity::find()
        .all(db)
        .await?
        .into_iter()
        .map(|c| c.coin)
        .collect();
    assets.push(QUOTE_ASSET.to_owned());
    assets.sort();
    assets.dedup();
    Ok(assets)
}

/// The asset `coin` names (any case), or 400 `unknown_coin` on `field`.
pub async fn asset(db: &DatabaseConnection, coin: &str, field: &str) -> Result<String, Refusal> {
    let wanted = coin.trim().to_ascii_lowercase();
    if assets(db).await?.contains(&wanted) {
        Ok(wanted)
    } else {
        Err(Refusal::new(RefusalKind::Invalid, Msg::UnknownCoin)
            .with_field(field)
            .with_param("coin", coin.trim()))
    }
}

/// A positive amount typed by a user: the strict number form ([`crate::number::decimal`]: digits
/// with at most one inner point, no sign, space or leading zero) with at most [`AMOUNT_DECIMALS`]
/// decimals.
pub fn amount(text: &str, field: &str) -> Result<Decimal, Refusal> {
    let value = crate::number::decimal(text, field)?;
    validate_number_input(text, Some(AMOUNT_DECIMALS)).map_err(|v| Refusal::rule(field, &v))?;
    if value <= Decimal::ZERO {
        return Err(Refusal::rule(field, &Violation::NotAboveZero));
    }
    Ok(value.normalize())
}

/// Checks the fund password of `user` within the failure limit.
pub async fn check_fund_password(
    limiter: &RateLimiter,
    user: &user::Model,
    given: &str,
) -> Result<(), Refusal> {
    let Some(stored) = user.fund_password_hash.clone() else {
        return Err(
            Refusal::new(RefusalKind::Invalid, Msg::FundPasswordNotSet).with_field("fundPassword")
        );
    };
    let key = format!("fundpwd:{}", user.id);
    // Counted before the hash: parallel guesses cannot pass the limit between check and record.
    let attempt = limiter
        .reserve(&[(&key, FUND_PASSWORD_FAILURES)])
        .await
        .map_err(|seconds| {
            Refusal::new(RefusalKind::RateLimited, Msg::TooManyRequests)
                .with_param("seconds", seconds.to_string())
        })?;
    if password::verify_blocking(given.to_owned(), stored).await {
        attempt.succeeded();
        Ok(())
    } else {
        Err(Refusal::new(RefusalKind::Invalid, Msg::WrongFundPassword).with_field("fundPassword"))
    }
}

/// The idempotency of a call: `None` without a key; 400 for a malformed key.
pub fn idempotency(
    user_id: i64,
    key: Option<&str>,
    operation: &'static str,
    body: &impl serde::Serialize,
) -> Result<Option<Idempotency>, Refusal> {
    let Some(key) = key else { return Ok(None) };
    let key = key.trim();
    if key.is_empty() || key.len() > 100 || !key.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(
            Refusal::new(RefusalKind::Invalid, Msg::InvalidIdempotencyKey)
                .with_field("Idempotency-Key"),
        );
    }
    let canonical = serde_json::to_string(body).map_err(Refusal::internal)?;
    Ok(Some(Idempotency {
        user_id,
        key: key.to_owned(),
        operation,
        request_hash: sha256_hex(&[operation.as_bytes(), canonical.as_bytes()]),
    }))
}

/// The API failure of a ledger refusal.
pub fn ledger_error(error: LedgerError, amount_field: &str) -> Refusal {
    match error {
        LedgerError::InsufficientBalance { available, .. } => Refusal::rule(
            amount_field,
            &Violation::InsufficientBalance {
                available: available.normalize(),
            },
        ),
        LedgerError::KeyReused => Refusal::new(RefusalKind::Invalid, Msg::IdempotencyKeyReused)
            .with_field("Idempotency-Key"),
        LedgerError::Contention | LedgerError::LostRace => {
            Refusal::new(RefusalKind::Unavailable, Msg::LedgerBusy)
        }
        LedgerError::Refused(error) => error,
        LedgerError::Db(error) => Refusal::from(error),
        other => Refusal::internal(other),
    }
}

/// A user's balance of one coin in every bucket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CoinBalances {
    /// Asset.
    pub coin: String,
    /// Per bucket.
    pub buckets: BTreeMap<Bucket, Decimal>,
}

impl CoinBalances {
    /// One bucket's amount (zero when empty).
    pub fn get(&self, bucket: Bucket) -> Decimal {
        self.buckets.get(&bucket).copied().unwrap_or_default()
    }
}

/// Every asset of the platform with the user's balance in each bucket (zeros included).
pub async fn user_coins(
    db: &DatabaseConnection,
    user_id: i64,
) -> Result<Vec<CoinBalances>, Refusal> {
    let mut by_coin: BTreeMap<String, CoinBalances> = assets(db)
        .await?
        .into_iter()
        .map(|coin| {
            (
                coin.clone(),
                CoinBalances {
                    coin,
                    buckets: BTreeMap::new(),
                },
            )
        })
        .collect();
    for balance in ledger::balances(db, user_id).await? {
        by_coin
            .entry(balance.asset.clone())
            .or_insert_with(|| CoinBalances {
                coin: balance.asset.clone(),
                buckets: BTreeMap::new(),
            })
            .buckets
            .insert(balance.bucket, balance.amount);
    }
    Ok(by_coin.into_values().collect())
}

/// A move between two of a user's own buckets.
pub struct BucketMove {
    /// The user.
    pub user_id: i64,
    /// Asset.
    pub coin: String,
    /// Amount.
    pub amount: Decimal,
    /// From.
    pub from: Bucket,
    /// To.
    pub to: Bucket,
}

/// What another domain holds of a user's bucket beyond the ledger's balance: the trading bucket's
/// USDT backs the user's cross futures positions. Implemented by the domain that holds the claim
/// and handed to the funds calls by the composition root, so funds does not depend on it.
#[async_trait::async_trait]
pub trait BucketClaims: Send + Sync {
    /// How much of `coin` may leave `user_id`'s `bucket` now, or `None` when nothing holds it.
    async fn transferable(
        &self,
        db: &DatabaseConnection,
        user_id: i64,
        bucket: Bucket,
        coin: &str,
    ) -> Result<Option<Decimal>, Refusal>;
}

/// Moves funds between two of the user's buckets (one entry), once per idempotency key; no more
/// than `claims` lets leave the source bucket.
pub async fn move_between_buckets(
    db: &DatabaseConnection,
    claims: &dyn BucketClaims,
    request: &BucketMove,
    idempotency: Option<&Idempotency>,
    respond: impl Fn(&Posted) -> String,
) -> Result<Outcome, Refusal> {
    if request.from == request.to {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::SameBucket).with_field("to"));
    }
    let transferable = claims
        .transferable(db, request.user_id, request.from, &request.coin)
        .await?;
    if let Some(transferable) = transferable
        && request.amount > transferable
    {
        return Err(Refusal::rule(
            "amount",
            &Violation::InsufficientBalance {
                available: transferable.normalize(),
            },
        ));
    }
    let entry = NewEntry {
        kind: "bucket_transfer".into(),
        reference: format!("user:{}", request.user_id),
        user_id: Some(request.user_id),
        actor_id: Some(request.user_id),
        memo: super::bill_detail::bucket_transfer_memo(request.from.as_str(), request.to.as_str()),
        postings: Posting::transfer(
            AccountRef::User {
                user_id: request.user_id,
                bucket: request.from,
            },
            AccountRef::User {
                user_id: request.user_id,
                bucket: request.to,
            },
            &request.coin,
            request.amount,
        )
        .to_vec(),
    };
    ledger::post_once(db, &entry, idempotency, respond, ledger::no_extra)
        .await
        .map_err(|e| ledger_error(e, "amount"))
}

/// A transfer to another user's funding account.
pub struct UserTransfer {
    /// Sender.
    pub from: user::Model,
    /// Recipient.
    pub to: user::Model,
    /// Asset.
    pub coin: String,
    /// Amount.
    pub amount: Decimal,
}

/// The recipient an account text (e-mail, phone or user id) names; never the sender.
pub async fn recipient(
    db: &DatabaseConnection,
    sender: &user::Model,
    text: &str,
) -> Result<user::Model, Refusal> {
    let text = text.trim();
    let not_found =
        || Refusal::new(RefusalKind::Invalid, Msg::RecipientNotFound).with_field("toAccount");
    let found = if !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && !text.starts_with('0')
        && text.len() < 16
    {
        user::Entity::find_by_id(text.parse::<i64>().map_err(|_| not_found())?)
            .one(db)
            .await?
    } else {
        match crate::user::service::parse_account(text, "toAccount") {
            Ok(account) => account.find(db).await?,
            Err(_) => None,
        }
    };
    let found = found.ok_or_else(not_found)?;
    if found.id == sender.id {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::SelfTransfer).with_field("toAccount"));
    }
    Ok(found)
}

/// Moves funds from the sender's funding account to the recipient's and records the transfer, in
/// one transaction, once per idempotency key.
pub async fn transfer_to_user(
    db: &DatabaseConnection,
    transfer: &UserTransfer,
    idempotency: Option<&Idempotency>,
    respond: impl Fn(&Posted) -> String,
) -> Result<Outcome, Refusal> {
    let entry = NewEntry {
        kind: "user_transfer".into(),
        reference: super::bill_detail::user_transfer_reference(transfer.from.id, transfer.to.id),
        user_id: Some(transfer.from.id),
        actor_id: Some(transfer.from.id),
        memo: super::bill_detail::user_transfer_memo(transfer.from.id, transfer.to.id),
        postings: Posting::transfer(
            AccountRef::funding(transfer.from.id),
            AccountRef::funding(transfer.to.id),
            &transfer.coin,
            transfer.amount,
        )
        .to_vec(),
    };
    ledger::post_once(db, &entry, idempotency, respond, record_transfer)
        .await
        .map_err(|e| ledger_error(e, "amount"))
}

/// Writes the `fund_transfer` row of a user transfer entry (inside its transaction).
fn record_transfer<'t>(
    txn: &'t sea_orm::DatabaseTransaction,
    entry_id: i64,
    entry: &'t NewEntry,
) -> ledger::ExtraFuture<'t> {
    Box::pin(async move {
        let (from, to) = match (&entry.postings[0].account, &entry.postings[1].account) {
            (AccountRef::User { user_id: from, .. }, AccountRef::User { user_id: to, .. }) => {
                (*from, *to)
            }
            _ => {
                return Err(
                    sea_orm::DbErr::Custom("a user transfer moves user funds".into()).into(),
                );
            }
        };
        fund_transfer::ActiveModel {
            from_user_id: Set(from),
            to_user_id: Set(to),
            coin: Set(entry.postings[1].asset.clone()),
            amount: Set(entry.postings[1].amount.to_string()),
            entry_id: Set(entry_id),
            created_at: Set(crate::clock::now_ms()),
            ..Default::default()
        }
        .insert(txn)
        .await?;
        Ok(())
    })
}

/// A page of the user's transfers (sent and received), newest first, and the total.
pub async fn transfers(
    db: &DatabaseConnection,
    user_id: i64,
    page: u64,
    page_size: u64,
) -> Result<(u64, Vec<fund_transfer::Model>), Refusal> {
    let query = fund_transfer::Entity::find()
        .filter(
            Condition::any()
                .add(fund_transfer::Column::FromUserId.eq(user_id))
                .add(fund_transfer::Column::ToUserId.eq(user_id)),
        )
        .order_by_desc(fund_transfer::Column::Id);
    let paginator = query.paginate(db, page_size);
    let total = paginator.num_items().await?;
    let records = paginator.fetch_page(page.saturating_sub(1)).await?;
    Ok((total, records))
}

#[cfg(test)]
mod tests {
    use rust_decimal_macros::dec;

    use super::*;

    #[test]
    fn amounts_follow_the_number_input_rule() {
        assert_eq!(amount("12.5", "amount").unwrap(), dec!(12.5));
        assert_eq!(amount("0.00000001", "amount").unwrap(), dec!(0.00000001));
        // Read strictly: no surrounding space, sign, exponent, leading zero or trailing point.
        for bad in [
            "",
            "abc",
            "-1",
            "1e5",
            "01",
            "1.000000001",
            "0",
            "0.0",
            " 1",
            "1 ",
            "+1",
            "1.",
        ] {
            let error = amount(bad, "amount").unwrap_err();
            assert_eq!(error.field.as_deref(), Some("amount"), "{bad}");
        }
    }

    #[test]
    fn idempotency_keys_are_checked_and_hash_the_body() {
        let body = serde_json::json!({"coin": "usdt", "amount": "1"});
        assert!(idempotency(1, None, "op", &body).unwrap().is_none());
        let a = idempotency(1, Some("key-1"), "op", &body).unwrap().unwrap();
        let b = idempotency(
            1,
            Some("key-1"),
            "op",
            &serde_json::json!({"coin": "usdt", "amount": "2"}),
        )
        .unwrap()
        .unwrap();
        assert_ne!(a.request_hash, b.request_hash);
        assert!(idempotency(1, Some(""), "op", &body).is_err());
        assert!(idempotency(1, Some("has space"), "op", &body).is_err());
        assert!(idempotency(1, Some(&"k".repeat(101)), "op", &body).is_err());
    }
}
