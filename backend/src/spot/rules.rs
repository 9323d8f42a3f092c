//! A pair's trading rules and the engine's integer units: prices in ticks, quantities in lots
//! (steps) and quote amounts in notional units (tick × step). Every order reaching the engine is
//! an exact multiple of its pair's tick and step, so converting back and forth loses nothing.

use rust_decimal::Decimal;

use crate::entity::coin;

/// The rules of one spot pair (from the `coin` table and `[trading]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairRules {
    /// Pair, lower case (`btcusdt`).
    pub symbol: String,
    /// Base asset (`btc`).
    pub base: String,
    /// Quote asset (`usdt`).
    pub quote: String,
    /// Smallest price increment.
    pub tick: Decimal,
    /// Smallest quantity increment.
    pub step: Decimal,
    /// Smallest order value in the quote asset.
    pub min_notional: Decimal,
    /// Fee rate of a resting order that is taken.
    pub maker_fee: Decimal,
    /// Fee rate of an order that takes.
    pub taker_fee: Decimal,
}

impl PairRules {
    /// The rules of a listed pair, or `None` when its stored tick, step or minimum is unusable.
    pub fn of(coin: &coin::Model, maker_fee: Decimal, taker_fee: Decimal) -> Option<Self> {
        let parse = |text: &str| wasm_core::money::parse_decimal(text).ok();
        let tick = parse(&coin.tick_size).filter(|d| d.is_sign_positive() && !d.is_zero())?;
        let step = parse(&coin.step_size).filter(|d| d.is_sign_positive() && !d.is_zero())?;
        let min_notional = parse(&coin.min_notional).filter(|d| !d.is_sign_negative())?;
        Some(Self {
            symbol: coin.symbol.clone(),
            base: coin.coin.clone(),
            quote: coin.base_coin.clone(),
            tick: tick.normalize(),
            step: step.normalize(),
            min_notional,
            maker_fee,
            taker_fee,
        })
    }

    /// `price` in ticks, when it is a positive multiple of the tick that fits.
    pub fn ticks(&self, price: Decimal) -> Option<u64> {
        units(price, self.tick)
    }

    /// `quantity` in lots, when it is a positive multiple of the step that fits.
    pub fn lots(&self, quantity: Decimal) -> Option<u64> {
        units(quantity, self.step)
    }

    /// `price` in whole ticks, rounded down (an outside price that is off the grid).
    pub fn ticks_floor(&self, price: Decimal) -> Option<u64> {
        floor_units(price, self.tick)
    }

    /// `quantity` in whole lots, rounded down (a simulated size that is off the grid).
    pub fn lots_floor(&self, quantity: Decimal) -> Option<u64> {
        floor_units(quantity, self.step)
    }

    /// The price of `ticks`.
    pub fn price(&self, ticks: u64) -> Decimal {
        (Decimal::from(ticks) * self.tick).normalize()
    }

    /// The quantity of `lots`.
    pub fn quantity(&self, lots: u64) -> Decimal {
        (Decimal::from(lots) * self.step).normalize()
    }

    /// The quote amount of notional `units` (tick × step each).
    pub fn amount(&self, units: u128) -> Decimal {
        // Beyond u64 units (never reached by a real balance) saturates.
        u64::try_from(units)
            .ok()
            .and_then(|units| Decimal::from(units).checked_mul(self.tick * self.step))
            .unwrap_or(Decimal::MAX)
            .normalize()
    }

    /// `amount` of the quote asset in notional units, rounded down (a market buy spends at most it).
    pub fn notional_units(&self, amount: Decimal) -> u128 {
        amount
            .checked_div(self.tick * self.step)
            .map(|units| units.trunc())
            .and_then(|units| u128::try_from(units).ok())
            .unwrap_or(0)
    }
}

fn floor_units(value: Decimal, unit: Decimal) -> Option<u64> {
    let count = value.checked_div(unit)?.trunc();
    u64::try_from(count).ok().filter(|count| *count > 0)
}

fn units(value: Decimal, unit: Decimal) -> Option<u64> {
    if value.is_sign_negative() || value.is_zero() {
        return None;
    }
    let count = value.checked_div(unit)?;
    if !count.fract().is_zero() {
        return None;
    }
    u64::try_from(count).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    fn rules() -> PairRules {
        PairRules {
            symbol: "btcusdt".into(),
            base: "btc".into(),
            quote: "usdt".into(),
            tick: dec!(0.01),
            step: dec!(0.00001),
            min_notional: dec!(5),
            maker_fee: dec!(0.001),
            taker_fee: dec!(0.001),
        }
    }

    #[test]
    fn prices_and_quantities_convert_exactly_both_ways() {
        let rules = rules();
        assert_eq!(rules.ticks(dec!(65000.25)), Some(6_500_025));
        assert_eq!(rules.price(6_500_025), dec!(65000.25));
        assert_eq!(rules.lots(dec!(0.01234)), Some(1234));
        assert_eq!(rules.quantity(1234), dec!(0.01234));
        assert_eq!(rules.amount(6_500_025u128 * 1234), dec!(802.1030850));
    }

    #[test]
    fn off_grid_zero_and_negative_values_have_no_units() {
        let rules = rules();
        assert_eq!(rules.ticks(dec!(65000.255)), None);
        assert_eq!(rules.lots(dec!(0.000001)), None);
        assert_eq!(rules.ticks(Decimal::ZERO), None);
        assert_eq!(rules.lots(dec!(-1)), None);
    }

    #[test]
    fn a_quote_amount_rounds_down_to_notional_units() {
        let rules = rules();
        assert_eq!(rules.notional_units(dec!(100)), 1_000_000_000);
        assert_eq!(rules.notional_units(dec!(0.00000009)), 0);
    }
}
