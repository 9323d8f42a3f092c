//! Conversion (swap) between two assets at the live price, by request for quote:
//!
//! 1. `POST /api/texchange/getExchangeQuote` prices `amount` of `from` in `to` from the live
//!    tickers and answers a quote valid for [`QUOTE_TTL_MS`]. The quote is a signed token
//!    (HMAC-SHA256 under the server's link key) that carries every term — user, assets, amount,
//!    rate, amount received, expiry — so nothing is stored until it is accepted and a forged or
//!    altered quote is refused.
//! 2. `POST /api/texchange/currencyExchange` accepts the quote before it expires: one journal entry
//!    moves `amount` of `from` from the user's funding account to the market maker and `receive` of
//!    `to` back. The quote's nonce is the entry's idempotency key, so accepting the same quote twice
//!    converts once and answers the first result again (even after it expired).
//!
//! The amount received is rounded down to [`AMOUNT_DECIMALS`]; the rate is the ratio of the two
//! USDT prices to 12 significant digits. No fee is charged.

use hmac::{Hmac, KeyInit, Mac};
use rust_decimal::Decimal;
use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter};
use sha2::Sha256;

use super::ledger::{self, AccountRef, House, Idempotency, NewEntry, Outcome, Posted, Posting};
use super::prices::{MAX_QUOTE_AGE_MS, Rates, round_down};
use super::service::{AMOUNT_DECIMALS, ledger_error};
use crate::entity::idempotency_record;
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
    /// Amount of `to` received (`amount × rate`, rounded down).
    pub receive: Decimal,
    /// Unix milliseconds after which it can no longer be accepted.
    pub expires_at: i64,
    /// 128 random bits, hex: the quote's identity.
    pub nonce: String,
}

impl Quote {
    fn payload(&self) -> String {
        format!(
            "q1:{}:{}:{}:{}:{}:{}:{}:{}",
            self.user_id,
            self.from,
            self.to,
            self.amount,
            self.rate,
            self.receive,
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
        if parts.next()? != "q1" {
            return None;
        }
        let quote = Quote {
            user_id: parts.next()?.parse().ok()?,
            from: parts.next()?.to_owned(),
            to: parts.next()?.to_owned(),
            amount: parts.next()?.parse().ok()?,
            rate: parts.next()?.parse().ok()?,
            receive: parts.next()?.parse().ok()?,
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

/// Prices `amount` of `from` in `to` for `user_id` at `now_ms`. `from` and `to` are known assets.
///
/// Fails with `same_coin` when they are equal, `price_unavailable` (503) when either has no price
/// or its last tick is older than [`MAX_QUOTE_AGE_MS`], and `amount_too_small` when the amount
/// received would round to nothing.
pub fn quote(
    rates: &Rates,
    user_id: i64,
    from: &str,
    to: &str,
    amount: Decimal,
    now_ms: i64,
) -> Result<Quote, Refusal> {
    if from == to {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::SameCoin).with_field("to"));
    }
    let fresh_price = |asset: &str| {
        rates
            .get(asset)
            .filter(|rate| rate.ts.is_none_or(|ts| now_ms - ts <= MAX_QUOTE_AGE_MS))
            .map(|rate| rate.usdt)
            .ok_or_else(|| {
                Refusal::new(RefusalKind::Unavailable, Msg::PriceUnavailable)
                    .with_param("coin", asset.to_ascii_uppercase())
            })
    };
    let (from_usdt, to_usdt) = (fresh_price(from)?, fresh_price(to)?);
    let rate = (from_usdt / to_usdt)
        .round_sf(RATE_DIGITS)
        .unwrap_or_default()
        .normalize();
    let receive = round_down(amount * rate, AMOUNT_DECIMALS);
    if receive <= Decimal::ZERO {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::AmountTooSmall).with_field("amount"));
    }
    let mut nonce = [0u8; 16];
    rand::fill(&mut nonce[..]);
    Ok(Quote {
        user_id,
        from: from.to_owned(),
        to: to.to_owned(),
        amount,
        rate,
        receive,
        expires_at: now_ms + QUOTE_TTL_MS,
        nonce: data_encoding::HEXLOWER.encode(&nonce),
    })
}

/// Accepts the quote `token` for `user_id` at `now_ms`: one entry, once per quote.
///
/// A token that is forged, altered or made for someone else is `invalid_quote`; an expired one is
/// `quote_expired` (409) unless it was accepted before, in which case the first answer is replayed.
pub async fn accept(
    db: &DatabaseConnection,
    key: &[u8; 32],
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
        kind: "exchange".into(),
        reference: format!("quote:{}", quote.nonce),
        user_id: Some(user_id),
        actor_id: Some(user_id),
        memo: format!(
            "{} {} → {} {}",
            quote.amount,
            quote.from.to_ascii_uppercase(),
            quote.receive,
            quote.to.to_ascii_uppercase()
        ),
        postings,
    };
    let outcome = ledger::post_once(
        db,
        &entry,
        Some(&idempotency),
        |posted| respond(&quote, posted),
        ledger::no_extra,
    )
    .await
    .map_err(|e| ledger_error(e, "amount"))?;
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

    use rust_decimal_macros::dec;

    use super::*;
    use crate::funds::prices::Rate;

    const KEY: [u8; 32] = [7; 32];
    const NOW: i64 = 1_800_000_000_000;

    fn rates(btc_ts: i64) -> Rates {
        Rates::from_table(BTreeMap::from([
            (
                "usdt".to_owned(),
                Rate {
                    usdt: dec!(1),
                    ts: None,
                },
            ),
            (
                "btc".to_owned(),
                Rate {
                    usdt: dec!(97000),
                    ts: Some(btc_ts),
                },
            ),
            (
                "eth".to_owned(),
                Rate {
                    usdt: dec!(3000),
                    ts: Some(NOW),
                },
            ),
        ]))
    }

    #[test]
    fn quotes_price_at_the_live_rate_and_round_the_amount_received_down() {
        let quote = quote(&rates(NOW), 1, "usdt", "btc", dec!(100), NOW).unwrap();
        assert_eq!(quote.rate, dec!(0.0000103092783505));
        assert_eq!(quote.receive, dec!(0.00103092));
        assert_eq!(quote.expires_at, NOW + QUOTE_TTL_MS);
        let cross = super::quote(&rates(NOW), 1, "btc", "eth", dec!(0.5), NOW).unwrap();
        assert_eq!(cross.rate, dec!(32.3333333333));
        assert_eq!(cross.receive, dec!(16.16666666));
    }

    #[test]
    fn refuses_the_same_coin_stale_prices_and_dust() {
        let same = quote(&rates(NOW), 1, "btc", "btc", dec!(1), NOW).unwrap_err();
        assert_eq!(same.kind, RefusalKind::Invalid);
        let stale = quote(
            &rates(NOW - MAX_QUOTE_AGE_MS - 1),
            1,
            "btc",
            "usdt",
            dec!(1),
            NOW,
        )
        .unwrap_err();
        assert_eq!(stale.kind, RefusalKind::Unavailable);
        let unpriced = quote(&rates(NOW), 1, "doge", "usdt", dec!(1), NOW).unwrap_err();
        assert_eq!(unpriced.kind, RefusalKind::Unavailable);
        let dust = quote(&rates(NOW), 1, "usdt", "btc", dec!(0.00000001), NOW).unwrap_err();
        assert_eq!(dust.field.as_deref(), Some("amount"));
    }

    #[test]
    fn tokens_carry_every_term_and_refuse_any_change() {
        let quote = quote(&rates(NOW), 42, "eth", "usdt", dec!(1.5), NOW).unwrap();
        let token = quote.token(&KEY);
        assert_eq!(Quote::from_token(&KEY, &token), Some(quote.clone()));
        assert_eq!(Quote::from_token(&[8; 32], &token), None);
        let altered = token.replacen(":1.5:", ":15:", 1);
        assert_ne!(altered, token);
        assert_eq!(Quote::from_token(&KEY, &altered), None);
        assert_eq!(Quote::from_token(&KEY, "q1:garbage"), None);
        assert_eq!(Quote::from_token(&KEY, ""), None);
    }
}
