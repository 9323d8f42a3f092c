//! Withdrawals: the encrypted request (spec section 7: "the body is the JSON encrypted with a
//! symmetric cipher, sent with a JSON content type"), the hold of its amount, and the operator's
//! review that sends it out or gives it back.
//!
//! **Encryption.** `GET …/assets/getWithdrawalKey` gives the session's AES-256-GCM key: HMAC-SHA256
//! under the server's link key (SHA-256 of `security.link_secret`) of the session's id and token
//! hash, so it is never stored, differs per session, and dies with the session. The browser seals
//! `{coin, network, address, amount, fundPassword, totpCode | securityCode}` with wasm-core's
//! `sealText` (AAD
//! [`WITHDRAWAL_AAD`], a random 12-byte nonce) and posts `{payload}`; the server opens it with the
//! same wasm-core module ([`wasm_core::cipher::open_text`]). The fund password thus never appears
//! in clear in the body, even where TLS ends early (a proxy's logs).
//!
//! **Authorisation.** The fund password, then the user's second factor (the authenticator code
//! when 2FA is on, else the security code e-mailed by `sendMemberEmailCode purpose=security`, see
//! [`crate::security::second_factor`]). The factor is used up in the hold's transaction, after the
//! idempotency key's replay check: a hold that fails leaves it usable, a replay needs no unused
//! one, and wrong guesses count against the user's confirmation limit.
//!
//! **Money.** A checked request holds its amount (fee included) in one entry — funding → frozen —
//! in the same transaction as the `withdrawal` row (insufficient funding refuses both). Passing
//! (a transaction hash required) moves `received` from frozen to withdrawals in transit and the fee
//! from frozen to the house's fees (two entries, one transaction); failing (a reason required)
//! moves the whole amount from frozen back to funding. Each review is a conditional
//! `review → passed|failed` update in the transaction of its entries, so a second review — even a
//! concurrent one — is 409 and moves nothing.

use std::sync::Arc;

use hmac::{Hmac, KeyInit, Mac};
use poem_openapi::Object;
use rust_decimal::Decimal;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection,
    DatabaseTransaction, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect,
    sea_query::Expr,
};
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use wasm_core::CoreError;

use super::bill_detail::{self, Destination};
use super::deposits::{
    Decision, ListFilter, MAX_PAGE_SIZE, PaymentStatus, already_reviewed, channel, channel_amount,
    check_reviewable, rejection_reason,
};
use super::ledger::{
    self, AccountRef, Bucket, House, Idempotency, LedgerError, NewEntry, Posting, RowOutcome,
};
use super::service::{self, ledger_error};
use crate::clock::now_ms;
use crate::config::FundsConfig;
use crate::entity::{user, user_session, withdrawal};
use crate::i18n::Msg;
use crate::refusal::{Refusal, RefusalKind};
use crate::security::second_factor::{self, Codes, Factor};
use crate::user::rate_limit::RateLimiter;
use crate::user::roles::require_operator;

/// The associated data every withdrawal request is sealed with.
pub const WITHDRAWAL_AAD: &str = "assets/withdrawal";
/// The cipher of the withdrawal request, as `getWithdrawalKey` names it.
pub const WITHDRAWAL_ALGORITHM: &str = "AES-256-GCM";
/// The longest transaction hash, in characters.
pub const MAX_TX_HASH_CHARS: usize = 128;

/// The AES-256 key of `session`'s withdrawal requests: HMAC-SHA256 under `link_key` of a label, the
/// session's id and its token hash.
pub fn withdrawal_key(link_key: &[u8; 32], session: &user_session::Model) -> [u8; 32] {
    let mut mac =
        <Hmac<Sha256> as KeyInit>::new_from_slice(link_key).expect("HMAC takes keys of any length");
    mac.update(b"kestrel/withdrawal-key/v1\0");
    mac.update(session.id.to_string().as_bytes());
    mac.update(b"\0");
    mac.update(session.token_hash.as_bytes());
    mac.finalize().into_bytes().into()
}

/// What the browser seals: the withdrawal form.
#[derive(Debug, Clone, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WithdrawalPlaintext {
    /// Asset (`usdt`), any case.
    #[oai(validator(min_length = 1, max_length = 16))]
    pub coin: String,
    /// Network (`TRC20`), any case; one of the coin's channels.
    #[oai(validator(min_length = 1, max_length = 16))]
    pub network: String,
    /// Destination address, valid for the network (with its checksum).
    #[oai(validator(min_length = 1, max_length = 128))]
    pub address: String,
    /// Amount leaving the balance, fee included: a decimal string, at least the channel's minimum
    /// withdrawal, at most its decimals.
    #[oai(validator(max_length = 40))]
    pub amount: String,
    /// The fund password.
    #[oai(validator(min_length = 1, max_length = 128))]
    pub fund_password: String,
    /// The current 6-digit authenticator code: required when 2FA is on.
    #[oai(validator(max_length = 16))]
    pub totp_code: Option<String>,
    /// The 6-digit security code sent to the user's e-mail address (or phone): required when 2FA
    /// is off.
    #[oai(validator(max_length = 16))]
    pub security_code: Option<String>,
}

impl WithdrawalPlaintext {
    /// The second-factor codes the request brings.
    pub fn codes(&self) -> Codes {
        Codes {
            totp_code: self.totp_code.clone(),
            security_code: self.security_code.clone(),
        }
    }
}

/// The part of a request its idempotency fingerprint covers (the password and codes are left out,
/// and the cipher text too: a retry sealed again with a new nonce is the same request).
#[derive(Serialize)]
struct Fingerprint<'a> {
    coin: &'a str,
    network: &'a str,
    address: &'a str,
    amount: &'a str,
}

/// The idempotency of a withdrawal request (see `Fingerprint`).
pub fn idempotency(
    user_id: i64,
    key: Option<&str>,
    request: &WithdrawalPlaintext,
) -> Result<Option<Idempotency>, Refusal> {
    service::idempotency(
        user_id,
        key,
        "submitWithdrawal",
        &Fingerprint {
            coin: &request.coin.trim().to_ascii_lowercase(),
            network: &request.network.trim().to_ascii_uppercase(),
            address: &request.address,
            amount: request.amount.trim(),
        },
    )
}

/// A checked withdrawal, ready to hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewWithdrawal {
    /// The user.
    pub user_id: i64,
    /// Asset, lower case.
    pub coin: String,
    /// Network, upper case.
    pub network: String,
    /// Destination address.
    pub address: String,
    /// What leaves the balance.
    pub amount: Decimal,
    /// The fee.
    pub fee: Decimal,
    /// What arrives.
    pub received: Decimal,
}

/// Checks a request against the configured channels and the user's fund password: the coin and
/// network (a channel), the address (wasm-core's `validate_address` for the network, and none of
/// the platform's own deposit addresses, which would credit nobody), the amount
/// (number rule, the channel's decimals and minimum), `received = amount − fee` (wasm-core's
/// `withdrawal_quote`), then the fund password (rate-limited like every fund-password check) and
/// that the second factor's code is there ([`submit`] uses it).
pub async fn check(
    funds: &FundsConfig,
    limiter: &RateLimiter,
    user: &user::Model,
    request: &WithdrawalPlaintext,
) -> Result<NewWithdrawal, Refusal> {
    let channel = channel(funds, &request.coin, &request.network)?;
    wasm_core::validate::validate_address(&channel.network, &request.address)
        .map_err(|violation| Refusal::rule("address", &violation))?;
    if funds
        .channels
        .iter()
        .any(|own| own.address.eq_ignore_ascii_case(request.address.trim()))
    {
        return Err(
            Refusal::new(RefusalKind::Invalid, Msg::WithdrawToPlatformAddress)
                .with_field("address"),
        );
    }
    let amount = channel_amount(channel, &request.amount, "amount", channel.min_withdraw)?;
    let quote =
        wasm_core::funds::withdrawal_quote(amount, channel.withdraw_fee).map_err(|error| {
            match error {
                CoreError::Invalid(violation) => Refusal::rule("amount", &violation),
                other => Refusal::internal(other),
            }
        })?;
    service::check_fund_password(limiter, user, &request.fund_password).await?;
    request.codes().required(Factor::of(user))?;
    Ok(NewWithdrawal {
        user_id: user.id,
        coin: channel.coin.clone(),
        network: channel.network.clone(),
        address: request.address.clone(),
        amount: quote.amount,
        fee: quote.fee,
        received: quote.received,
    })
}

fn frozen(user_id: i64) -> AccountRef {
    AccountRef::User {
        user_id,
        bucket: Bucket::Frozen,
    }
}

/// The user who withdraws and the second factor that authorises it.
pub struct Authorisation<'a> {
    /// The user (as the session loaded it).
    pub user: &'a user::Model,
    /// The codes of the request.
    pub codes: Codes,
    /// Counts wrong codes against the user's confirmation limit.
    pub limiter: Arc<RateLimiter>,
}

/// Holds the amount (funding → frozen) and stores the withdrawal under review, in one
/// transaction that also uses up the second factor of `authorisation`, once per idempotency key.
/// `respond` makes the answer stored for replays. Answers the new row, or the first answer of a
/// replay.
pub async fn submit(
    db: &DatabaseConnection,
    request: &NewWithdrawal,
    authorisation: Authorisation<'_>,
    idempotency: Option<&Idempotency>,
    respond: impl Fn(&withdrawal::Model) -> String,
) -> Result<Submitted, Refusal> {
    let Authorisation {
        user,
        codes,
        limiter,
    } = authorisation;
    let entry = NewEntry {
        kind: "withdrawal".into(),
        reference: format!("user:{}", request.user_id),
        user_id: Some(request.user_id),
        actor_id: Some(request.user_id),
        memo: bill_detail::withdrawal_hold_memo(
            request.amount,
            Destination {
                coin: &request.coin,
                network: &request.network,
                address: &request.address,
            },
        ),
        postings: Posting::transfer(
            AccountRef::funding(request.user_id),
            frozen(request.user_id),
            &request.coin,
            request.amount,
        )
        .to_vec(),
    };
    let outcome = ledger::post_once_with_row(db, &entry, idempotency, respond, |txn, entry_id| {
        let (request, user) = (request.clone(), user.clone());
        let (codes, limiter) = (codes.clone(), limiter.clone());
        Box::pin(async move {
            // After the idempotency key's replay check: a retry needs no unused code.
            second_factor::prove_limited(txn, &limiter, &user, &codes)
                .await
                .map_err(LedgerError::Refused)?;
            let row = insert_row(txn, &request, entry_id).await?;
            let notice = crate::notify::Notice::withdrawal_submitted(&row);
            crate::notify::enqueue(txn, row.user_id, notice).await?;
            Ok(row)
        })
    })
    .await
    .map_err(|e| ledger_error(e, "amount"))?;
    Ok(match outcome {
        RowOutcome::Created(row) => Submitted::Created(Box::new(row)),
        RowOutcome::Replayed(response) => Submitted::Replayed(response),
    })
}

/// What [`submit`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Submitted {
    /// Held and stored now.
    Created(Box<withdrawal::Model>),
    /// The key was seen with the same request: the first answer.
    Replayed(String),
}

async fn insert_row(
    txn: &DatabaseTransaction,
    request: &NewWithdrawal,
    hold_entry_id: i64,
) -> Result<withdrawal::Model, sea_orm::DbErr> {
    withdrawal::ActiveModel {
        user_id: Set(request.user_id),
        coin: Set(request.coin.clone()),
        network: Set(request.network.clone()),
        address: Set(request.address.clone()),
        amount: Set(request.amount.normalize().to_string()),
        fee: Set(request.fee.normalize().to_string()),
        received: Set(request.received.normalize().to_string()),
        status: Set(PaymentStatus::Review.as_str().to_owned()),
        reason: Set(None),
        tx_hash: Set(None),
        reviewed_by: Set(None),
        reviewed_at: Set(None),
        hold_entry_id: Set(hold_entry_id),
        settle_entry_id: Set(None),
        fee_entry_id: Set(None),
        created_at: Set(now_ms()),
        ..Default::default()
    }
    .insert(txn)
    .await
}

/// Page `page` (from 1) of `page_size` (1 to [`MAX_PAGE_SIZE`]) withdrawals matching `filter`,
/// newest first, and how many match in all.
pub async fn list(
    db: &impl ConnectionTrait,
    filter: &ListFilter,
    page: u64,
    page_size: u64,
) -> Result<(u64, Vec<withdrawal::Model>), Refusal> {
    let mut select = withdrawal::Entity::find();
    if let Some(user_id) = filter.user_id {
        select = select.filter(withdrawal::Column::UserId.eq(user_id));
    }
    if let Some(coin) = &filter.coin {
        select = select.filter(withdrawal::Column::Coin.eq(coin.trim().to_ascii_lowercase()));
    }
    if let Some(status) = filter.status {
        select = select.filter(withdrawal::Column::Status.eq(status.as_str()));
    }
    let total = select.clone().count(db).await?;
    let page_size = page_size.clamp(1, MAX_PAGE_SIZE);
    let rows = select
        .order_by_desc(withdrawal::Column::Id)
        .offset((page.max(1) - 1).saturating_mul(page_size))
        .limit(page_size)
        .all(db)
        .await?;
    Ok((total, rows))
}

/// The transaction hash a passing review stores: required, and of the form of a transaction id
/// on `network` (wasm-core's `Network::accepts_tx_hash`: 64 hex digits, `0x` first on EVM chains);
/// on a network the core does not know, 1 to [`MAX_TX_HASH_CHARS`] visible ASCII characters.
pub fn tx_hash(network: &str, text: Option<&str>) -> Result<String, Refusal> {
    let text = text
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| {
            Refusal::new(RefusalKind::Invalid, Msg::TxHashRequired).with_field("txHash")
        })?;
    let well_formed = match wasm_core::validate::Network::from_name(network) {
        Some(family) => family.accepts_tx_hash(text),
        None => text.len() <= MAX_TX_HASH_CHARS && text.bytes().all(|b| b.is_ascii_graphic()),
    };
    if !well_formed {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::InvalidTxHash)
            .with_field("txHash")
            .with_param("network", network.to_ascii_uppercase()));
    }
    Ok(text.to_owned())
}

fn decimal(text: &str) -> Result<Decimal, Refusal> {
    wasm_core::money::parse_decimal(text).map_err(Refusal::internal)
}

/// Records `operator`'s decision on a withdrawal under review. Passing needs `tx_hash` and posts,
/// in one transaction with the conditional `review → passed` update, frozen → withdrawals in
/// transit (`received`, kind `withdrawal`) and frozen → fees (the fee, kind `fee`); failing needs a
/// reason and posts frozen → funding (the whole amount, kind `withdrawal_refund`). Reviewed
/// already — before or concurrently — is 409 and moves nothing; a missing withdrawal is 404; an
/// operator's own is 403. Answers the reviewed withdrawal.
pub async fn review(
    db: &DatabaseConnection,
    operator: &user::Model,
    decision: &Decision,
    tx_hash_text: Option<&str>,
) -> Result<withdrawal::Model, Refusal> {
    require_operator(operator)?;
    let reason = rejection_reason(decision)?;
    let not_found = || Refusal::new(RefusalKind::NotFound, Msg::NotFound).with_field("id");
    let row = withdrawal::Entity::find_by_id(decision.id)
        .one(db)
        .await?
        .ok_or_else(not_found)?;
    check_reviewable(operator, row.user_id)?;
    if row.status != PaymentStatus::Review.as_str() {
        // Said before the hash is judged; the conditional update below still settles races.
        return Err(already_reviewed());
    }
    let tx_hash = if decision.approve {
        Some(tx_hash(&row.network, tx_hash_text)?)
    } else {
        None
    };
    let (id, user_id, operator_id, now) = (row.id, row.user_id, operator.id, now_ms());
    let coin = row.coin.clone();
    let (amount, fee, received) = (
        decimal(&row.amount)?,
        decimal(&row.fee)?,
        decimal(&row.received)?,
    );
    let entry = |kind: &str, to: AccountRef, value: Decimal, memo: String| NewEntry {
        kind: kind.into(),
        reference: format!("withdrawal:{id}"),
        user_id: Some(user_id),
        actor_id: Some(operator_id),
        memo,
        postings: Posting::transfer(frozen(user_id), to, &coin, value).to_vec(),
    };
    let to = Destination {
        coin: &coin,
        network: &row.network,
        address: &row.address,
    };
    let decided = Decided {
        id,
        operator_id,
        now,
        reason,
        tx_hash,
        row: row.clone(),
    };
    let result = if decision.approve {
        let sent = entry(
            "withdrawal",
            AccountRef::House(House::WithdrawalsInTransit),
            received,
            bill_detail::withdrawal_sent_memo(received, to),
        );
        let fee_entry = (!fee.is_zero()).then(|| {
            entry(
                "fee",
                AccountRef::House(House::Fees),
                fee,
                bill_detail::withdrawal_fee_memo(fee, to),
            )
        });
        ledger::post_once(
            db,
            &sent,
            None,
            |_| String::new(),
            move |txn, entry_id, _| {
                let (decided, fee_entry) = (decided.clone(), fee_entry.clone());
                Box::pin(async move {
                    decided.apply(txn, PaymentStatus::Passed, entry_id).await?;
                    if let Some(fee_entry) = fee_entry {
                        let posted = ledger::post_within(txn, &fee_entry).await?;
                        withdrawal::Entity::update_many()
                            .col_expr(withdrawal::Column::FeeEntryId, Expr::value(posted.entry_id))
                            .filter(withdrawal::Column::Id.eq(decided.id))
                            .exec(txn)
                            .await?;
                    }
                    Ok(())
                })
            },
        )
        .await
    } else {
        let refund = entry(
            "withdrawal_refund",
            AccountRef::funding(user_id),
            amount,
            bill_detail::withdrawal_refund_memo(amount, to),
        );
        ledger::post_once(
            db,
            &refund,
            None,
            |_| String::new(),
            move |txn, entry_id, _| {
                let decided = decided.clone();
                Box::pin(async move { decided.apply(txn, PaymentStatus::Failed, entry_id).await })
            },
        )
        .await
    };
    result.map_err(|e| ledger_error(e, "amount"))?;
    withdrawal::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(not_found)
}

/// The stored part of a decision.
#[derive(Debug, Clone)]
struct Decided {
    id: i64,
    operator_id: i64,
    now: i64,
    reason: Option<String>,
    tx_hash: Option<String>,
    /// The withdrawal as it was under review (its owner gets the notice).
    row: withdrawal::Model,
}

impl Decided {
    /// The conditional `review → status` update; [`LedgerError::Refused`] (409) when the
    /// withdrawal is no longer under review.
    async fn apply(
        &self,
        txn: &DatabaseTransaction,
        status: PaymentStatus,
        settle_entry_id: i64,
    ) -> Result<(), LedgerError> {
        let updated = withdrawal::Entity::update_many()
            .col_expr(withdrawal::Column::Status, Expr::value(status.as_str()))
            .col_expr(withdrawal::Column::Reason, Expr::value(self.reason.clone()))
            .col_expr(
                withdrawal::Column::TxHash,
                Expr::value(self.tx_hash.clone()),
            )
            .col_expr(
                withdrawal::Column::ReviewedBy,
                Expr::value(self.operator_id),
            )
            .col_expr(withdrawal::Column::ReviewedAt, Expr::value(self.now))
            .col_expr(
                withdrawal::Column::SettleEntryId,
                Expr::value(settle_entry_id),
            )
            .filter(withdrawal::Column::Id.eq(self.id))
            .filter(withdrawal::Column::Status.eq(PaymentStatus::Review.as_str()))
            .exec(txn)
            .await?;
        if updated.rows_affected != 1 {
            return Err(LedgerError::Refused(already_reviewed()));
        }
        let notice = match status {
            PaymentStatus::Passed => crate::notify::Notice::withdrawal_sent(
                &self.row,
                self.tx_hash.as_deref().unwrap_or_default(),
            ),
            _ => crate::notify::Notice::withdrawal_rejected(
                &self.row,
                self.reason.as_deref().unwrap_or_default(),
            ),
        };
        crate::notify::enqueue(txn, self.row.user_id, notice).await?;
        Ok(())
    }
}
#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn session(id: i64, token_hash: &str) -> user_session::Model {
        user_session::Model {
            id,
            user_id: 1,
            token_hash: token_hash.into(),
            device_name: String::new(),
            user_agent: String::new(),
            ip: String::new(),
            created_at: 0,
            last_seen_at: 0,
            expires_at: 0,
            reauth_at: None,
            revoked_at: None,
        }
    }

    #[test]
    fn keys_differ_per_session_and_secret() {
        let key = withdrawal_key(&[1; 32], &session(1, "aa"));
        assert_eq!(key, withdrawal_key(&[1; 32], &session(1, "aa")));
        assert_ne!(key, withdrawal_key(&[1; 32], &session(2, "aa")));
        assert_ne!(key, withdrawal_key(&[1; 32], &session(1, "ab")));
        assert_ne!(key, withdrawal_key(&[2; 32], &session(1, "aa")));
    }

    #[test]
    fn tx_hashes_are_required_and_of_the_networks_form() {
        let hex = "ab".repeat(32);
        assert_eq!(tx_hash("TRC20", Some(&format!(" {hex} "))).unwrap(), hex);
        assert_eq!(tx_hash("BTC", Some(&hex)).unwrap(), hex);
        let evm = format!("0x{hex}");
        assert_eq!(tx_hash("ERC20", Some(&evm)).unwrap(), evm);
        assert_eq!(
            tx_hash("ERC20", Some(&hex)).unwrap_err().msg,
            Msg::InvalidTxHash
        );
        assert_eq!(
            tx_hash("TRC20", Some("abc")).unwrap_err().msg,
            Msg::InvalidTxHash
        );
        assert_eq!(tx_hash("TRC20", None).unwrap_err().msg, Msg::TxHashRequired);
        assert_eq!(
            tx_hash("TRC20", Some("  ")).unwrap_err().msg,
            Msg::TxHashRequired
        );
        // A network the core does not know: plain visible text.
        assert_eq!(tx_hash("SOL", Some("5abc")).unwrap(), "5abc");
        assert_eq!(
            tx_hash("SOL", Some("a b")).unwrap_err().msg,
            Msg::InvalidTxHash
        );
        assert_eq!(
            tx_hash("SOL", Some(&"a".repeat(129))).unwrap_err().msg,
            Msg::InvalidTxHash
        );
    }

    #[test]
    fn the_fingerprint_leaves_out_the_password_and_codes() {
        let request = |password: &str, amount: &str| WithdrawalPlaintext {
            coin: "USDT".into(),
            network: "trc20".into(),
            address: "T1".into(),
            amount: amount.into(),
            fund_password: password.into(),
            totp_code: None,
            security_code: Some(password.into()),
        };
        let hash =
            |r: &WithdrawalPlaintext| idempotency(1, Some("k"), r).unwrap().unwrap().request_hash;
        assert_eq!(hash(&request("a", "10")), hash(&request("b", "10")));
        assert_ne!(hash(&request("a", "10")), hash(&request("a", "11")));
    }
}
