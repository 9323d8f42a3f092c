//! What a conversion pays: the amount walked through the order book as a market order of that size
//! would execute — asks to buy, bids to sell, level by level — less the house's spread. A cross
//! conversion (neither side USDT) sells into one pair's bids and buys from the other's asks. The
//! same amount therefore gets a worse price as it grows, an amount deeper than the book is
//! refused, and a round trip loses both the book's spread and the house's twice.
//!
//! Pure: the books are given ([`ConversionBooks`]); the live ones come from the market hub.

use std::collections::BTreeMap;
use std::sync::Arc;

use rust_decimal::Decimal;
use sea_orm::{DatabaseConnection, EntityTrait};

use super::prices::{MAX_QUOTE_AGE_MS, round_down};
use super::service::{AMOUNT_DECIMALS, QUOTE_ASSET};
use crate::entity::coin;
use crate::i18n::Msg;
use crate::market::MarketHub;
use crate::market::book::{BookSnapshot, Level};
use crate::refusal::{Refusal, RefusalKind};

/// The order book of each asset's USDT pair, by asset.
#[derive(Debug, Clone, Default)]
pub struct ConversionBooks {
    by_asset: BTreeMap<String, Arc<BookSnapshot>>,
}

impl ConversionBooks {
    /// The live books of every listed USDT pair.
    pub async fn live(db: &DatabaseConnection, hub: &MarketHub) -> Result<Self, Refusal> {
        let mut by_asset = BTreeMap::new();
        for listed in coin::Entity::find().all(db).await? {
            if listed.base_coin != QUOTE_ASSET {
                continue;
            }
            if let Some(book) = hub.book(&listed.symbol) {
                by_asset.insert(listed.coin.clone(), book);
            }
        }
        Ok(Self { by_asset })
    }

    /// Books from a table (tests).
    pub fn from_table(by_asset: BTreeMap<String, Arc<BookSnapshot>>) -> Self {
        Self { by_asset }
    }

    /// The book of `asset`'s USDT pair, if it has a fresh one at `now_ms`.
    fn fresh(&self, asset: &str, now_ms: i64) -> Result<&BookSnapshot, Refusal> {
        self.by_asset
            .get(asset)
            .map(Arc::as_ref)
            .filter(|book| now_ms - book.ts <= MAX_QUOTE_AGE_MS)
            .ok_or_else(|| {
                Refusal::new(RefusalKind::Unavailable, Msg::PriceUnavailable)
                    .with_param("coin", asset.to_ascii_uppercase())
            })
    }
}

/// A conversion priced from the book.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Priced {
    /// Amount of `to` received: what the book pays, less the spread, rounded down to 8 decimals.
    pub receive: Decimal,
    /// What the conversion is worth in USDT (the amount itself when it is USDT, else what selling
    /// it into the book brings): the figure the size limits count.
    pub value_usdt: Decimal,
}

/// Prices `amount` of `from` in `to` from `books` at `now_ms`, keeping `spread` (a fraction of
/// the amount received) for the house. `from` and `to` differ.
///
/// Refused with `price_unavailable` (503) when a pair has no fresh book, and `convert_liquidity`
/// when the book is not deep enough for the amount.
pub fn price(
    books: &ConversionBooks,
    from: &str,
    to: &str,
    amount: Decimal,
    spread: Decimal,
    now_ms: i64,
) -> Result<Priced, Refusal> {
    let value_usdt = if from == QUOTE_ASSET {
        amount
    } else {
        sell_into(&books.fresh(from, now_ms)?.bids, amount).ok_or_else(too_deep)?
    };
    let gross = if to == QUOTE_ASSET {
        value_usdt
    } else {
        buy_from(&books.fresh(to, now_ms)?.asks, value_usdt).ok_or_else(too_deep)?
    };
    Ok(Priced {
        receive: round_down(gross * (Decimal::ONE - spread), AMOUNT_DECIMALS),
        value_usdt,
    })
}

/// The refusal of an amount deeper than the book (or than the house holds).
pub fn too_deep() -> Refusal {
    Refusal::new(RefusalKind::Invalid, Msg::ConvertLiquidity).with_field("amount")
}

/// What selling `quantity` of the base asset into `bids` (best first) brings in the quote asset;
/// `None` when the bids hold less than `quantity`.
pub fn sell_into(bids: &[Level], quantity: Decimal) -> Option<Decimal> {
    let mut left = quantity;
    let mut proceeds = Decimal::ZERO;
    for level in bids {
        let taken = left.min(level.quantity);
        proceeds += taken * level.price;
        left -= taken;
        if left.is_zero() {
            return Some(proceeds);
        }
    }
    None
}

/// How much of the base asset spending `funds` of the quote asset on `asks` (best first) buys;
/// `None` when the asks cost less than `funds` in all.
pub fn buy_from(asks: &[Level], funds: Decimal) -> Option<Decimal> {
    let mut left = funds;
    let mut bought = Decimal::ZERO;
    for level in asks.iter().filter(|level| level.price > Decimal::ZERO) {
        let cost = level.quantity * level.price;
        if cost >= left {
            return Some(bought + left / level.price);
        }
        bought += level.quantity;
        left -= cost;
    }
    None
}

#[cfg(test)]
mod tests {
    use rust_decimal_macros::dec;

    use super::*;

    const NOW: i64 = 1_800_000_000_000;

    fn level(price: Decimal, quantity: Decimal) -> Level {
        Level { price, quantity }
    }

    fn books() -> ConversionBooks {
        let book = |bids, asks| {
            Arc::new(BookSnapshot {
                seq: 1,
                bids,
                asks,
                ts: NOW,
            })
        };
        ConversionBooks::from_table(BTreeMap::from([
            (
                "btc".to_owned(),
                book(
                    vec![level(dec!(99990), dec!(0.5)), level(dec!(99980), dec!(1))],
                    vec![level(dec!(100010), dec!(0.5)), level(dec!(100020), dec!(1))],
                ),
            ),
            (
                "eth".to_owned(),
                book(
                    vec![level(dec!(2999), dec!(10))],
                    vec![level(dec!(3001), dec!(10))],
                ),
            ),
        ]))
    }

    #[test]
    fn a_purchase_walks_the_asks_and_keeps_the_spread() {
        // 50,005 USDT takes the first ask whole: exactly 0.5 BTC before the spread.
        let priced = price(&books(), "usdt", "btc", dec!(50005), dec!(0.001), NOW).unwrap();
        assert_eq!(priced.value_usdt, dec!(50005));
        assert_eq!(priced.receive, dec!(0.4995));
        // 100,015 USDT reaches the second level: 0.5 + 50,010 / 100,020 = 1 BTC.
        let deeper = price(&books(), "usdt", "btc", dec!(100015), dec!(0), NOW).unwrap();
        assert_eq!(deeper.receive, dec!(1));
    }

    #[test]
    fn a_sale_walks_the_bids() {
        let priced = price(&books(), "btc", "usdt", dec!(1), dec!(0.001), NOW).unwrap();
        // 0.5 × 99,990 + 0.5 × 99,980.
        assert_eq!(priced.value_usdt, dec!(99985));
        assert_eq!(priced.receive, dec!(99885.015));
    }

    #[test]
    fn a_cross_conversion_sells_one_book_and_buys_the_other() {
        let priced = price(&books(), "btc", "eth", dec!(0.1), dec!(0), NOW).unwrap();
        assert_eq!(priced.value_usdt, dec!(9999));
        assert_eq!(priced.receive, round_down(dec!(9999) / dec!(3001), 8));
    }

    #[test]
    fn a_round_trip_always_loses() {
        let there = price(&books(), "usdt", "btc", dec!(1000), dec!(0.001), NOW).unwrap();
        let back = price(&books(), "btc", "usdt", there.receive, dec!(0.001), NOW).unwrap();
        assert!(back.receive < dec!(1000), "{back:?}");
        let zero_spread = price(&books(), "usdt", "btc", dec!(1000), dec!(0), NOW).unwrap();
        let back = price(&books(), "btc", "usdt", zero_spread.receive, dec!(0), NOW).unwrap();
        assert!(back.receive < dec!(1000), "the book's own spread: {back:?}");
    }

    #[test]
    fn amounts_deeper_than_the_book_and_stale_books_are_refused() {
        let deep = price(&books(), "btc", "usdt", dec!(1.6), dec!(0), NOW).unwrap_err();
        assert_eq!(deep.msg, Msg::ConvertLiquidity);
        let deep = price(&books(), "usdt", "btc", dec!(200000), dec!(0), NOW).unwrap_err();
        assert_eq!(deep.msg, Msg::ConvertLiquidity);
        let stale = price(
            &books(),
            "btc",
            "usdt",
            dec!(0.1),
            dec!(0),
            NOW + MAX_QUOTE_AGE_MS + 1,
        )
        .unwrap_err();
        assert_eq!(stale.kind, RefusalKind::Unavailable);
        let unlisted = price(&books(), "usdt", "doge", dec!(1), dec!(0), NOW).unwrap_err();
        assert_eq!(unlisted.kind, RefusalKind::Unavailable);
    }
}
