//! Conversion (swap) between two assets at the book's price, by request for quote:
//!
//! 1. `POST /api/texchange/getExchangeQuote` prices `amount` of `from` in `to` from the live order
//!    books (what a market order of that size would execute at, less the house's spread:
//!    [`super::conversion_pricing`]) and answers a quote valid for [`QUOTE_TTL_MS`]. The quote is a
//!    signed token (HMAC-SHA256 under the server's link key) that carries every term — user,
//!    assets, amount, rate, amount received, USDT value, expiry — so nothing is stored until it is
//!    accepted and a forged or altered quote is refused.
//! 2. `POST /api/texchange/currencyExchange` accepts the quote before it expires: one journal entry
//!    moves `amount` of `from` from the user's funding account to the market maker and `receive` of
//!    `to` back. The quote's nonce is the entry's idempotency key, so accepting the same quote twice
//!    converts once and answers the first result again (even after it expired).
//!
//! Limits (`[convert]`): each conversion is worth between `min_usdt` and `max_usdt`, and a user's
//! conversions of one UTC day at most `daily_limit_usdt` — counted in `conversion_usage` inside the
//! entry's transaction (a compare-and-swap), so parallel acceptances cannot pass it together. The
//! market maker pays only from what it holds: a conversion entry never takes a house account below
//! zero (the ledger refuses it, [`ledger::HOUSE_PAYS_FROM_INVENTORY`]).
//!
//! The amount received is rounded down to [`super::service::AMOUNT_DECIMALS`]; the rate is `receive / amount` to 12
//! significant digits. The house's only charge is the spread, already in the rate.

use hmac::{Hmac, KeyInit, Mac};
use rust_decimal::Decimal;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection,
    DatabaseTransaction, EntityTrait, QueryFilter, sea_query::Expr,
};
use sha2::Sha256;

use super::conversion_pricing::{self, ConversionBooks, too_deep};
use super::ledger::{
    self, AccountRef, ExtraFuture, House, Idempotency, LedgerError, NewEntry, Outcome, Posted,
    Posting,
};
use super::service::{QUOTE_ASSET, ledger_error};
use crate::clock::DAY_MS;
use crate::config::ConvertConfig;
use crate::entity::{conversion_usage, idempotency_record};
use crate::refusal::{Refusal, RefusalKind};

use crate::i18n::Msg;
use crate::user::sha256_hex;

/// How long a quote may be accepted.
pub const QUOTE_TTL_MS: i64 = 10_000;
/// The idempotency operation of an accepted quote.
const OPERATION: &str = "currencyExchange";
/// Significant digits of a rate.
const RATE_DIGITS: u32 = 12;

/// The terms of a quote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quote {
    /// The user it was made for.
    pub user_id: i64,
    /// Asset given.
    pub from: String,
    /// Asset received.
    pub to: String,
    /// Amount of `from` given.
    pub amount: Decimal,
    /// Units of `to` per unit of `from`.
    pub rate: Decimal,
    /// Amount of `to` received (what the book pays less the spread, rounded down).
    pub receive: Decimal,
    /// What the conversion is worth in USDT, counted against the daily limit.
    pub value_usdt: Decimal,
    /// Unix milliseconds after which it can no longer be accepted.
    pub expires_at: i64,
    /// 128 random bits, hex: the quote's identity.
    pub nonce: String,
}

impl Quote {
    fn payload(&self) -> String {
        format!(
            "q2:{}:{}:{}:{}:{}:{}:{}:{}:{}",
            self.user_id,
            self.from,
            self.to,
            self.amount,
            self.rate,
            self.receive,
            self.value_usdt,
            self.expires_at,
            self.nonce
        )
    }

    /// The signed token the client sends back to accept the quote.
    pub fn token(&self, key: &[u8; 32]) -> String {
        let payload = self.payload();
        let signature = data_encoding::HEXLOWER.encode(&mac(key, &payload).finalize().into_bytes());
        format!("{payload}:{signature}")
    }

    /// The quote a token carries, if its signature is right (constant-time comparison).
    pub fn from_token(key: &[u8; 32], token: &str) -> Option<Quote> {
        let (payload, signature) = token.rsplit_once(':')?;
        let signature = data_encoding::HEXLOWER.decode(signature.as_bytes()).ok()?;
        mac(key, payload).verify_slice(&signature).ok()?;
        let mut parts = payload.split(':');
        if parts.next()? != "q2" {
            return None;
        }
        let quote = Quote {
            user_id: parts.next()?.parse().ok()?,
            from: parts.next()?.to_owned(),
            to: parts.next()?.to_owned(),
            amount: parts.next()?.parse().ok()?,
            rate: parts.next()?.parse().ok()?,
            receive: parts.next()?.parse().ok()?,
            value_usdt: parts.next()?.parse().ok()?,
            expires_at: parts.next()?.parse().ok()?,
            nonce: parts.next()?.to_owned(),
        };
        parts.next().is_none().then_some(quote)
    }

    /// The idempotency of accepting this quote: the nonce is the key.
    fn idempotency(&self, token: &str) -> Idempotency {
        Idempotency {
            user_id: self.user_id,
            key: format!("quote:{}", self.nonce),
            operation: OPERATION,
            request_hash: sha256_hex(&[OPERATION.as_bytes(), token.as_bytes()]),
        }
    }
}

fn mac(key: &[u8; 32], payload: &str) -> Hmac<Sha256> {
    let mut mac =
        <Hmac<Sha256> as KeyInit>::new_from_slice(key).expect("HMAC takes keys of any length");
    mac.update(b"exchange-quote\n");
    mac.update(payload.as_bytes());
    mac
}

/// Prices `amount` of `from` in `to` for `user_id` at `now_ms` from `books`, under `terms`, for a
/// user who converted `used_today` (USDT) today. `from` and `to` are known assets.
///
/// Fails with `same_coin` when they are equal, `price_unavailable` (503) when a pair has no fresh
/// book, `convert_liquidity` when the book is not deep enough, `convert_below_minimum` /
/// `convert_above_maximum` outside the size limits, `convert_daily_limit` past the day's limit,
/// and `amount_too_small` when the amount received would round to nothing.
#[allow(clippy::too_many_arguments)]
pub fn quote(
    books: &ConversionBooks,
    terms: &ConvertConfig,
    used_today: Decimal,
    user_id: i64,
    from: &str,
    to: &str,
    amount: Decimal,
    now_ms: i64,
) -> Result<Quote, Refusal> {
    if from == to {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::SameCoin).with_field("to"));
    }
    if from == QUOTE_ASSET {
        // The value is known before the book is walked: a size past the limits is said as such.
        check_size(terms, amount)?;
    }
    let priced = conversion_pricing::price(books, from, to, amount, terms.spread, now_ms)?;
    check_size(terms, priced.value_usdt)?;
    check_daily(terms, used_today, priced.value_usdt)?;
    if priced.receive <= Decimal::ZERO {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::AmountTooSmall).with_field("amount"));
    }
    let rate = (priced.receive / amount)
        .round_sf(RATE_DIGITS)
        .unwrap_or_default()
        .normalize();
    let mut nonce = [0u8; 16];
    rand::fill(&mut nonce[..]);
    Ok(Quote {
        user_id,
        from: from.to_owned(),
        to: to.to_owned(),
        amount,
        rate,
        receive: priced.receive,
        value_usdt: priced.value_usdt.normalize(),
        expires_at: now_ms + QUOTE_TTL_MS,
        nonce: data_encoding::HEXLOWER.encode(&nonce),
    })
}

/// A quote for `user_id` from the live books, refused as [`quote`] does and also when the market
/// maker does not hold the amount to pay; with what the user may still convert today after it.
#[allow(clippy::too_many_arguments)]
pub async fn offer(
    db: &DatabaseConnection,
    books: &ConversionBooks,
    terms: &ConvertConfig,
    user_id: i64,
    from: &str,
    to: &str,
    amount: Decimal,
    now_ms: i64,
) -> Result<(Quote, Decimal), Refusal> {
    let used = used_on(db, user_id, day_of(now_ms)).await?;
    let quote = quote(books, terms, used, user_id, from, to, amount, now_ms)?;
    let held = ledger::balance(db, AccountRef::House(House::MarketMaker), to).await?;
    if held < quote.receive {
        return Err(too_deep());
    }
    let left = terms.daily_limit_usdt - used - quote.value_usdt;
    Ok((quote, left.max(Decimal::ZERO)))
}

/// What `user_id` may still convert on the UTC day of `now_ms`, in USDT.
pub async fn left_today(
    db: &DatabaseConnection,
    terms: &ConvertConfig,
    user_id: i64,
    now_ms: i64,
) -> Result<Decimal, Refusal> {
    let used = used_on(db, user_id, day_of(now_ms)).await?;
    Ok((terms.daily_limit_usdt - used).max(Decimal::ZERO))
}

fn check_size(terms: &ConvertConfig, value_usdt: Decimal) -> Result<(), Refusal> {
    if value_usdt < terms.min_usdt {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::ConvertBelowMinimum)
            .with_field("amount")
            .with_param("min", terms.min_usdt.normalize().to_string()));
    }
    if value_usdt > terms.max_usdt {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::ConvertAboveMaximum)
            .with_field("amount")
            .with_param("max", terms.max_usdt.normalize().to_string()));
    }
    Ok(())
}

fn check_daily(terms: &ConvertConfig, used: Decimal, value_usdt: Decimal) -> Result<(), Refusal> {
    if used + value_usdt > terms.daily_limit_usdt {
        let left = (terms.daily_limit_usdt - used).max(Decimal::ZERO);
        return Err(Refusal::new(RefusalKind::Invalid, Msg::ConvertDailyLimit)
            .with_field("amount")
            .with_param("limit", terms.daily_limit_usdt.normalize().to_string())
            .with_param(
                "left",
                super::prices::round_down(left, 2).normalize().to_string(),
            ));
    }
    Ok(())
}

/// The UTC day of `now_ms`, as whole days since the epoch.
fn day_of(now_ms: i64) -> i64 {
    now_ms.div_euclid(DAY_MS)
}

/// What `user_id` converted on `day`, in USDT.
async fn used_on(db: &impl ConnectionTrait, user_id: i64, day: i64) -> Result<Decimal, Refusal> {
    Ok(usage_row(db, user_id, day)
        .await?
        .map(|row| parse_used(&row.used_usdt))
        .unwrap_or_default())
}

async fn usage_row(
    db: &impl ConnectionTrait,
    user_id: i64,
    day: i64,
) -> Result<Option<conversion_usage::Model>, sea_orm::DbErr> {
    conversion_usage::Entity::find()
        .filter(conversion_usage::Column::UserId.eq(user_id))
        .filter(conversion_usage::Column::Day.eq(day))
        .one(db)
        .await
}

fn parse_used(text: &str) -> Decimal {
    wasm_core::money::parse_decimal(text).unwrap_or_default()
}

/// Adds `value_usdt` to `user_id`'s conversions of `day` inside the entry's transaction, refusing
/// past the daily limit: a compare-and-swap on the row's version (a lost race retries the entry).
fn count_usage(
    terms: ConvertConfig,
    user_id: i64,
    day: i64,
    value_usdt: Decimal,
) -> impl for<'t> Fn(&'t DatabaseTransaction, i64, &'t NewEntry) -> ExtraFuture<'t> {
    move |txn, _, _| {
        let terms = terms.clone();
        Box::pin(async move {
            let refuse = |refusal| LedgerError::Refused(refusal);
            match usage_row(txn, user_id, day).await? {
                None => {
                    check_daily(&terms, Decimal::ZERO, value_usdt).map_err(refuse)?;
                    // A concurrent first conversion of the day fails the unique index; the
                    // ledger retries the entry, which then finds the row.
                    conversion_usage::ActiveModel {
                        user_id: Set(user_id),
                        day: Set(day),
                        used_usdt: Set(value_usdt.normalize().to_string()),
                        version: Set(0),
                        ..Default::default()
                    }
                    .insert(txn)
                    .await?;
                }
                Some(row) => {
                    let used = parse_used(&row.used_usdt);
                    check_daily(&terms, used, value_usdt).map_err(refuse)?;
                    let swapped = conversion_usage::Entity::update_many()
                        .col_expr(
                            conversion_usage::Column::UsedUsdt,
                            Expr::value((used + value_usdt).normalize().to_string()),
                        )
                        .col_expr(
                            conversion_usage::Column::Version,
                            Expr::value(row.version + 1),
                        )
                        .filter(conversion_usage::Column::Id.eq(row.id))
                        .filter(conversion_usage::Column::Version.eq(row.version))
                        .exec(txn)
                        .await?;
                    if swapped.rows_affected != 1 {
                        return Err(LedgerError::LostRace);
                    }
                }
            }
            Ok(())
        })
    }
}

/// Accepts the quote `token` for `user_id` at `now_ms`: one entry, once per quote, counted against
/// the daily limit of `terms`.
///
/// A token that is forged, altered or made for someone else is `invalid_quote`; an expired one is
/// `quote_expired` (409) unless it was accepted before, in which case the first answer is replayed;
/// `convert_liquidity` when the market maker no longer holds what the quote pays.
pub async fn accept(
    db: &DatabaseConnection,
    key: &[u8; 32],
    terms: &ConvertConfig,
    user_id: i64,
    token: &str,
    now_ms: i64,
    respond: impl Fn(&Quote, &Posted) -> String,
) -> Result<(Quote, Outcome), Refusal> {
    let quote = Quote::from_token(key, token.trim())
        .filter(|quote| quote.user_id == user_id)
        .ok_or_else(|| {
            Refusal::new(RefusalKind::Invalid, Msg::InvalidQuote).with_field("quoteId")
        })?;
    let idempotency = quote.idempotency(token.trim());
    if now_ms > quote.expires_at && !accepted_before(db, &idempotency).await? {
        return Err(Refusal::new(RefusalKind::Conflict, Msg::QuoteExpired).with_field("quoteId"));
    }
    let funding = AccountRef::funding(user_id);
    let maker = AccountRef::House(House::MarketMaker);
    let mut postings = Posting::transfer(funding, maker, &quote.from, quote.amount).to_vec();
    postings.extend(Posting::transfer(maker, funding, &quote.to, quote.receive));
    let entry = NewEntry {
        kind: ledger::EXCHANGE_KIND.into(),
        reference: format!("quote:{}", quote.nonce),
        user_id: Some(user_id),
        actor_id: Some(user_id),
        memo: super::bill_detail::exchange_memo(
            quote.amount,
            &quote.from,
            quote.receive,
            &quote.to,
        ),
        postings,
    };
    let outcome = ledger::post_once(
        db,
        &entry,
        Some(&idempotency),
        |posted| respond(&quote, posted),
        count_usage(terms.clone(), user_id, day_of(now_ms), quote.value_usdt),
    )
    .await
    .map_err(|error| match error {
        LedgerError::InsufficientBalance {
            account: AccountRef::House(_),
            ..
        } => too_deep(),
        other => ledger_error(other, "amount"),
    })?;
    Ok((quote, outcome))
}

async fn accepted_before(
    db: &DatabaseConnection,
    idempotency: &Idempotency,
) -> Result<bool, Refusal> {
    Ok(idempotency_record::Entity::find()
        .filter(idempotency_record::Column::UserId.eq(idempotency.user_id))
        .filter(idempotency_record::Column::Key.eq(&idempotency.key))
        .one(db)
        .await?
        .is_some())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::sync::Arc;

    use rust_decimal_macros::dec;

    use super::*;
    use crate::market::book::{BookSnapshot, Level};

    const KEY: [u8; 32] = [7; 32];
    const NOW: i64 = 1_800_000_000_000;

    fn books() -> ConversionBooks {
        let book = |bid: Decimal, ask: Decimal| {
            Arc::new(BookSnapshot {
                seq: 1,
                bids: vec![Level {
                    price: bid,
                    quantity: dec!(1000),
                }],
                asks: vec![Level {
                    price: ask,
                    quantity: dec!(1000),
                }],
                ts: NOW,
            })
        };
        ConversionBooks::from_table(BTreeMap::from([
            ("btc".to_owned(), book(dec!(96990), dec!(97000))),
            ("eth".to_owned(), book(dec!(2999), dec!(3000))),
        ]))
    }

    fn terms() -> ConvertConfig {
        ConvertConfig {
            spread: dec!(0.001),
            min_usdt: dec!(1),
            max_usdt: dec!(100000),
            daily_limit_usdt: dec!(150000),
        }
    }

    fn quote_of(from: &str, to: &str, amount: Decimal) -> Result<Quote, Refusal> {
        quote(&books(), &terms(), Decimal::ZERO, 1, from, to, amount, NOW)
    }

    #[test]
    fn quotes_price_from_the_book_less_the_spread() {
        let quote = quote_of("usdt", "btc", dec!(100)).unwrap();
        // 100 / 97,000 less 0.1 %, rounded down.
        assert_eq!(quote.receive, dec!(0.00102989));
        assert_eq!(quote.rate, dec!(0.0000102989));
        assert_eq!(quote.value_usdt, dec!(100));
        assert_eq!(quote.expires_at, NOW + QUOTE_TTL_MS);
        let cross = quote_of("btc", "eth", dec!(0.5)).unwrap();
        assert_eq!(cross.value_usdt, dec!(48495));
        assert_eq!(cross.receive, dec!(16.148835));
    }

    #[test]
    fn refuses_the_same_coin_dust_and_sizes_outside_the_limits() {
        let same = quote_of("btc", "btc", dec!(1)).unwrap_err();
        assert_eq!(same.kind, RefusalKind::Invalid);
        let unpriced = quote_of("doge", "usdt", dec!(1)).unwrap_err();
        assert_eq!(unpriced.kind, RefusalKind::Unavailable);
        let small = quote_of("usdt", "btc", dec!(0.5)).unwrap_err();
        assert_eq!(small.msg, Msg::ConvertBelowMinimum);
        let large = quote_of("btc", "usdt", dec!(2)).unwrap_err();
        assert_eq!(large.msg, Msg::ConvertAboveMaximum);
        let over_the_day = quote(
            &books(),
            &terms(),
            dec!(100000),
            1,
            "usdt",
            "btc",
            dec!(60000),
            NOW,
        )
        .unwrap_err();
        assert_eq!(over_the_day.msg, Msg::ConvertDailyLimit);
        assert_eq!(over_the_day.field.as_deref(), Some("amount"));
    }

    #[test]
    fn days_are_utc_days() {
        assert_eq!(day_of(0), 0);
        assert_eq!(day_of(DAY_MS - 1), 0);
        assert_eq!(day_of(DAY_MS), 1);
    }

    #[test]
    fn tokens_carry_every_term_and_refuse_any_change() {
        let quote = quote(
            &books(),
            &terms(),
            Decimal::ZERO,
            42,
            "eth",
            "usdt",
            dec!(1.5),
            NOW,
        )
        .unwrap();
        let token = quote.token(&KEY);
        assert_eq!(Quote::from_token(&KEY, &token), Some(quote.clone()));
        assert_eq!(Quote::from_token(&[8; 32], &token), None);
        let altered = token.replacen(":1.5:", ":15:", 1);
        assert_ne!(altered, token);
        assert_eq!(Quote::from_token(&KEY, &altered), None);
        assert_eq!(Quote::from_token(&KEY, "q2:garbage"), None);
        assert_eq!(Quote::from_token(&KEY, ""), None);
    }
}
