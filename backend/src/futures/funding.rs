//! Funding (pure): the premium of the mark over the index sampled at every mark tick (an interval
//! without a new mark takes the standing mark's), the rate of an interval
//! (`clamp(average premium + interest, −cap, +cap)`), the payment of a position
//! (`side × size × mark × rate`: longs pay shorts when the rate is positive) and the funding times
//! (multiples of the interval since the Unix epoch, so every instance agrees on them).

use rust_decimal::{Decimal, RoundingStrategy};
use wasm_core::margin::Side;

use super::position::amount;

/// Decimals of a funding rate.
pub const RATE_DECIMALS: u32 = 8;

/// The premiums sampled since the last funding.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PremiumSampler {
    sum: Decimal,
    count: u64,
}

impl PremiumSampler {
    /// Adds the premium `(mark − index) / index` of one tick (an index at or below 0 is skipped).
    pub fn sample(&mut self, mark: Decimal, index: Decimal) {
        if index > Decimal::ZERO {
            self.sum += (mark - index) / index;
            self.count += 1;
        }
    }

    /// The average premium, 0 before any sample.
    pub fn average(&self) -> Decimal {
        if self.count == 0 {
            Decimal::ZERO
        } else {
            self.sum / Decimal::from(self.count)
        }
    }

    /// The premium of the interval so far: the average of the samples, or with none the premium
    /// of the mark that has stood through it (`standing`: mark and index; a mark that did not
    /// move for a whole interval was still the price all along), 0 without either.
    pub fn average_or_standing(&self, standing: Option<(Decimal, Decimal)>) -> Decimal {
        match standing {
            Some((mark, index)) if self.count == 0 && index > Decimal::ZERO => {
                (mark - index) / index
            }
            _ => self.average(),
        }
    }

    /// How many ticks were sampled.
    pub fn count(&self) -> u64 {
        self.count
    }
}

/// `clamp(average premium + interest, −cap, cap)`, to [`RATE_DECIMALS`].
pub fn funding_rate(average_premium: Decimal, interest: Decimal, cap: Decimal) -> Decimal {
    let cap = cap.abs();
    (average_premium + interest)
        .clamp(-cap, cap)
        .round_dp_with_strategy(RATE_DECIMALS, RoundingStrategy::MidpointAwayFromZero)
        .normalize()
}

/// What a position pays (positive) or receives (negative) at `rate`: `side × size × mark × rate`.
pub fn funding_payment(side: Side, size: Decimal, mark: Decimal, rate: Decimal) -> Decimal {
    amount(side.sign() * size * mark * rate)
}

/// The first funding time after `now_ms`: the next multiple of `interval_ms` since the epoch.
pub fn next_funding_time(now_ms: i64, interval_ms: i64) -> i64 {
    let interval = interval_ms.max(1);
    (now_ms.div_euclid(interval) + 1) * interval
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    #[test]
    fn the_rate_is_the_average_premium_plus_interest_capped() {
        let mut sampler = PremiumSampler::default();
        sampler.sample(dec!(50050), dec!(50000));
        sampler.sample(dec!(50150), dec!(50000));
        assert_eq!(sampler.average(), dec!(0.002));
        assert_eq!(
            funding_rate(sampler.average(), dec!(0.0001), dec!(0.0075)),
            dec!(0.0021)
        );
        assert_eq!(
            funding_rate(dec!(0.02), dec!(0.0001), dec!(0.0075)),
            dec!(0.0075)
        );
        assert_eq!(
            funding_rate(dec!(-0.02), dec!(0.0001), dec!(0.0075)),
            dec!(-0.0075)
        );
        assert_eq!(
            funding_rate(
                PremiumSampler::default().average(),
                dec!(0.0001),
                dec!(0.0075)
            ),
            dec!(0.0001)
        );
    }

    #[test]
    fn an_interval_without_a_new_mark_takes_the_premium_of_the_standing_one() {
        let standing = Some((dec!(50100), dec!(50000)));
        assert_eq!(
            PremiumSampler::default().average_or_standing(standing),
            dec!(0.002)
        );
        assert_eq!(PremiumSampler::default().average_or_standing(None), dec!(0));
        // Samples, when there are any, decide alone.
        let mut sampler = PremiumSampler::default();
        sampler.sample(dec!(50000), dec!(50000));
        assert_eq!(sampler.average_or_standing(standing), dec!(0));
        // An index at or below 0 gives no premium, as a sample would not.
        assert_eq!(
            PremiumSampler::default().average_or_standing(Some((dec!(1), dec!(0)))),
            dec!(0)
        );
    }

    #[test]
    fn longs_pay_shorts_when_the_rate_is_positive() {
        assert_eq!(
            funding_payment(Side::Long, dec!(2), dec!(50000), dec!(0.0001)),
            dec!(10)
        );
        assert_eq!(
            funding_payment(Side::Short, dec!(2), dec!(50000), dec!(0.0001)),
            dec!(-10)
        );
        assert_eq!(
            funding_payment(Side::Long, dec!(2), dec!(50000), dec!(-0.0001)),
            dec!(-10)
        );
    }

    #[test]
    fn funding_times_are_multiples_of_the_interval() {
        let eight_hours = 8 * 3_600_000;
        assert_eq!(next_funding_time(0, eight_hours), eight_hours);
        assert_eq!(next_funding_time(eight_hours, eight_hours), 2 * eight_hours);
        assert_eq!(next_funding_time(eight_hours - 1, eight_hours), eight_hours);
    }
}
