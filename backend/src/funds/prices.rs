//! What each asset is worth in USDT right now, from the live tickers of its USDT pair: the rates
//! behind conversion quotes and the valuation of balances in USDT and BTC.
//!
//! A rate is only as good as its ticker: each carries the time of its last tick, and a conversion
//! refuses a rate older than [`MAX_QUOTE_AGE_MS`] rather than trade on a stale price.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use sea_orm::{DatabaseConnection, EntityTrait};

use super::service::QUOTE_ASSET;
use crate::entity::coin;
use crate::refusal::Refusal;

use crate::market::MarketHub;

/// The oldest ticker a conversion quote may be priced from.
pub const MAX_QUOTE_AGE_MS: i64 = 60_000;
/// Decimals of a valuation in USDT.
pub const USDT_DECIMALS: u32 = 2;
/// Decimals of a valuation in BTC.
pub const BTC_DECIMALS: u32 = 8;

/// The USDT price of one asset and when it was last traded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    /// Price of one unit in USDT.
    pub usdt: Decimal,
    /// Time of the last tick, unix milliseconds (`None` for USDT itself, which is always 1).
    pub ts: Option<i64>,
}

/// Every priced asset's rate in USDT (USDT itself is 1).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rates {
    by_asset: BTreeMap<String, Rate>,
}

impl Rates {
    /// The live rates: USDT, and each listed coin of a USDT pair with a ticker.
    pub async fn live(db: &DatabaseConnection, hub: &MarketHub) -> Result<Self, Refusal> {
        let mut by_asset = BTreeMap::from([(
            QUOTE_ASSET.to_owned(),
            Rate {
                usdt: Decimal::ONE,
                ts: None,
            },
        )]);
        for listed in coin::Entity::find().all(db).await? {
            if listed.base_coin != QUOTE_ASSET {
                continue;
            }
            if let Some(ticker) = hub.ticker(&listed.symbol)
                && ticker.close > Decimal::ZERO
            {
                by_asset.insert(
                    listed.coin.clone(),
                    Rate {
                        usdt: ticker.close,
                        ts: Some(ticker.ts),
                    },
                );
            }
        }
        Ok(Self { by_asset })
    }

    /// Rates from a table (tests and replays).
    pub fn from_table(by_asset: BTreeMap<String, Rate>) -> Self {
        Self { by_asset }
    }

    /// The rate of `asset`, if it has one.
    pub fn get(&self, asset: &str) -> Option<Rate> {
        self.by_asset.get(asset).copied()
    }

    /// Every asset's rate, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, Rate)> {
        self.by_asset
            .iter()
            .map(|(asset, rate)| (asset.as_str(), *rate))
    }

    /// `amount` of `asset` in USDT (full precision); zero for an unpriced asset.
    pub fn usdt_value(&self, asset: &str, amount: Decimal) -> Decimal {
        self.get(asset)
            .map_or(Decimal::ZERO, |rate| amount * rate.usdt)
    }

    /// A USDT amount in BTC (full precision); zero while BTC has no price.
    pub fn in_btc(&self, usdt: Decimal) -> Decimal {
        match self.get("btc") {
            Some(btc) if !btc.usdt.is_zero() => usdt / btc.usdt,
            _ => Decimal::ZERO,
        }
    }
}

/// A valuation in USDT and BTC, rounded for display (down, so a total is never overstated).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Valuation {
    /// In USDT, 2 decimals.
    pub usdt: Decimal,
    /// In BTC, 8 decimals.
    pub btc: Decimal,
}

impl Valuation {
    /// The valuation of a full-precision USDT amount.
    pub fn of_usdt(rates: &Rates, usdt: Decimal) -> Self {
        Self {
            usdt: round_down(usdt, USDT_DECIMALS),
            btc: round_down(rates.in_btc(usdt), BTC_DECIMALS),
        }
    }
}

/// `value` cut to `decimals` decimals towards zero, without trailing zeros.
pub fn round_down(value: Decimal, decimals: u32) -> Decimal {
    value
        .round_dp_with_strategy(decimals, rust_decimal::RoundingStrategy::ToZero)
        .normalize()
}

#[cfg(test)]
mod tests {
    use rust_decimal_macros::dec;

    use super::*;

    fn rates() -> Rates {
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
                    usdt: dec!(80000),
                    ts: Some(1),
                },
            ),
            (
                "eth".to_owned(),
                Rate {
                    usdt: dec!(3000),
                    ts: Some(1),
                },
            ),
        ]))
    }

    #[test]
    fn values_assets_in_usdt_and_btc() {
        let rates = rates();
        assert_eq!(rates.usdt_value("eth", dec!(2)), dec!(6000));
        assert_eq!(rates.usdt_value("doge", dec!(2)), dec!(0));
        let valuation = Valuation::of_usdt(&rates, dec!(6000.123));
        assert_eq!(valuation.usdt, dec!(6000.12));
        assert_eq!(valuation.btc, dec!(0.07500153));
    }

    #[test]
    fn without_a_btc_price_the_btc_value_is_zero() {
        let rates = Rates::from_table(BTreeMap::new());
        assert_eq!(Valuation::of_usdt(&rates, dec!(10)).btc, dec!(0));
    }
}
