//! HTTP of conversion (swap): `POST /api/texchange/getExchangeQuote` (a quote valid for 10 s, priced
//! from the book) and `POST /api/texchange/currencyExchange` (accept it). The rules are in
//! [`super::conversion`].

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::{Object, OpenApi, Tags};
use rust_decimal::Decimal;
use sea_orm::DatabaseConnection;
use serde::Deserialize;

use super::conversion::{self, QUOTE_TTL_MS, Quote};
use super::conversion_pricing::ConversionBooks;
use super::ledger::{AccountRef, Outcome, Posted};
use super::service;
use crate::clock::now_ms;
use crate::config::Config;
use crate::http::{DecimalText, JsonBody, MemberResponse};
use crate::i18n::Msg;
use crate::kyc::files::LinkKey;
use crate::market::MarketHub;
use crate::refusal::Refusal;
use crate::user::Satoken;

#[derive(Tags)]
enum ApiTags {
    /// Conversion between assets at the book's price.
    Exchange,
}

/// The conversion calls.
pub struct ConversionApi;

/// What the user wants to convert.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ExchangeQuoteRequest {
    /// Asset given (`usdt`), any case.
    #[oai(validator(min_length = 1, max_length = 16))]
    pub from: String,
    /// Asset received (`btc`), any case.
    #[oai(validator(min_length = 1, max_length = 16))]
    pub to: String,
    /// Amount of `from`, a decimal string (at most 8 decimals, above zero).
    #[oai(validator(max_length = 40))]
    pub amount: DecimalText,
}

/// A price for a conversion, firm until `expiresAt`.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ExchangeQuote {
    /// The signed quote; send it to `currencyExchange` to accept.
    pub quote_id: String,
    /// Asset given.
    pub from: String,
    /// Asset received.
    pub to: String,
    /// Amount given.
    pub amount: Decimal,
    /// Units of `to` per unit of `from`: `receive / amount` to 12 significant digits.
    pub rate: Decimal,
    /// Amount received: what the amount would execute at in the order book, less the spread,
    /// rounded down to 8 decimals.
    pub receive: Decimal,
    /// What the conversion is worth in USDT (counted against the daily limit).
    pub value_usdt: Decimal,
    /// The house's spread already taken from `receive`, a fraction (`0.001` is 0.1 %).
    pub spread: Decimal,
    /// What the user may still convert today after this conversion, in USDT (UTC days).
    pub daily_left_usdt: Decimal,
    /// The smallest conversion, in USDT.
    pub min_usdt: Decimal,
    /// The largest single conversion, in USDT.
    pub max_usdt: Decimal,
    /// Unix milliseconds after which the quote can no longer be accepted.
    pub expires_at: i64,
    /// How long a quote lives, in milliseconds.
    pub ttl_ms: i64,
}

/// Accepting a quote.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CurrencyExchangeRequest {
    /// The `quoteId` of a quote.
    #[oai(validator(min_length = 1, max_length = 400))]
    pub quote_id: String,
}

/// A done conversion.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ExchangeResult {
    /// The journal entry.
    pub entry_id: i64,
    /// Asset given.
    pub from: String,
    /// Asset received.
    pub to: String,
    /// Amount given.
    pub amount: Decimal,
    /// Amount received.
    pub receive: Decimal,
    /// The rate applied.
    pub rate: Decimal,
    /// The funding balance of `from` afterwards.
    pub from_balance: Decimal,
    /// The funding balance of `to` afterwards.
    pub to_balance: Decimal,
}

fn exchange_result(quote: &Quote, posted: &Posted) -> ExchangeResult {
    let balance = |asset: &str| {
        posted
            .balances
            .get(&(AccountRef::funding(quote.user_id), asset.to_owned()))
            .copied()
            .unwrap_or_default()
    };
    ExchangeResult {
        entry_id: posted.entry_id,
        from: quote.from.clone(),
        to: quote.to.clone(),
        amount: quote.amount,
        receive: quote.receive,
        rate: quote.rate,
        from_balance: balance(&quote.from),
        to_balance: balance(&quote.to),
    }
}

#[OpenApi(tag = "ApiTags::Exchange")]
impl ConversionApi {
    /// A firm price to convert `amount` of `from` into `to`, valid for 10 seconds: what the amount
    /// would execute at in the order book, less the house's spread. Refused with 503
    /// `price_unavailable` while a pair has no recent book, and with 400 when the amount is worth
    /// less than the minimum or more than the maximum, would pass the daily limit, or is deeper
    /// than the book or the market maker's holdings.
    #[oai(
        path = "/api/texchange/getExchangeQuote",
        method = "post",
        operation_id = "getExchangeQuote"
    )]
    async fn get_exchange_quote(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(hub): Data<&Arc<MarketHub>>,
        Data(link_key): Data<&LinkKey>,
        Data(config): Data<&Arc<Config>>,
        auth: Satoken,
        body: JsonBody<ExchangeQuoteRequest>,
    ) -> MemberResponse<ExchangeQuote> {
        let body = body.0;
        let result = async {
            let from = service::asset(db, &body.from, "from").await?;
            let to = service::asset(db, &body.to, "to").await?;
            let amount = service::amount(&body.amount, "amount")?;
            let books = ConversionBooks::live(db, hub).await?;
            let terms = &config.convert;
            let (quote, daily_left_usdt) =
                conversion::offer(db, &books, terms, auth.0.id(), &from, &to, amount, now_ms())
                    .await?;
            Ok::<_, Refusal>(ExchangeQuote {
                quote_id: quote.token(link_key),
                from: quote.from,
                to: quote.to,
                amount: quote.amount,
                rate: quote.rate,
                receive: quote.receive,
                value_usdt: quote.value_usdt,
                spread: terms.spread.normalize(),
                daily_left_usdt: daily_left_usdt.normalize(),
                min_usdt: terms.min_usdt.normalize(),
                max_usdt: terms.max_usdt.normalize(),
                expires_at: quote.expires_at,
                ttl_ms: QUOTE_TTL_MS,
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Accepts a quote: converts from the user's funding account at the quoted rate. Accepting the
    /// same quote again answers the first result and converts nothing; an expired quote is 409
    /// `quote_expired`; 'Insufficient balance' when the funding account holds too little; 400 when
    /// it would pass the daily limit (counted at acceptance, atomically) or the market maker no
    /// longer holds what the quote pays.
    #[oai(
        path = "/api/texchange/currencyExchange",
        method = "post",
        operation_id = "currencyExchange"
    )]
    async fn currency_exchange(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(link_key): Data<&LinkKey>,
        Data(config): Data<&Arc<Config>>,
        auth: Satoken,
        body: JsonBody<CurrencyExchangeRequest>,
    ) -> MemberResponse<ExchangeResult> {
        let result = async {
            let (quote, outcome) = conversion::accept(
                db,
                link_key,
                &config.convert,
                auth.0.id(),
                &body.0.quote_id,
                now_ms(),
                |quote, posted| super::api::stored(&exchange_result(quote, posted)),
            )
            .await?;
            match outcome {
                Outcome::Posted(posted) => Ok(exchange_result(&quote, &posted)),
                Outcome::Replayed { response, .. } => super::api::replayed(&response),
            }
        }
        .await;
        MemberResponse::of(result, Msg::Exchanged)
    }
}
