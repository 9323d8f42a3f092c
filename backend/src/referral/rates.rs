//! The arithmetic of a rebate: a fee less the security fund's share, and each generation's share of
//! what is left, rounded down to 8 decimals, capped so that together they never pass the fee after
//! the fund (the residue of rounding and of the cap stays with the platform). Pure.

use rust_decimal::{Decimal, RoundingStrategy};

use crate::funds::fees::security_fund_share;

/// Decimals a rebate keeps (rounded toward zero).
pub const REBATE_SCALE: u32 = 8;

/// A fill's fee as the batch splits it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// The fee after the security fund's share (what rebates are shares of).
    pub fee_after_fund: Decimal,
    /// What each generation earns, in order (generation 1 first), each after the cap.
    pub amounts: Vec<Decimal>,
}

/// Splits `fee` (`security_percent` of it to the fund) between the generations whose rates are
/// `rates` (generation 1 first; an ancestor's agent rate where it has one). Each amount is
/// `fee_after_fund × rate` rounded down to 8 decimals, and at most what the generations before it
/// left of the fee after the fund.
pub fn split(fee: Decimal, security_percent: Decimal, rates: &[Decimal]) -> Split {
    let fee = fee.max(Decimal::ZERO);
    let fee_after_fund = fee - security_fund_share(fee, security_percent);
    let mut left = fee_after_fund;
    let amounts = rates
        .iter()
        .map(|rate| {
            let share = (fee_after_fund * rate.max(&Decimal::ZERO))
                .min(left)
                .round_dp_with_strategy(REBATE_SCALE, RoundingStrategy::ToZero)
                .normalize();
            left -= share;
            share
        })
        .collect();
    Split {
        fee_after_fund: fee_after_fund.normalize(),
        amounts,
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rust_decimal_macros::dec;

    use super::*;

    #[test]
    fn three_generations_take_their_shares_of_the_fee_after_the_fund() {
        // 2.5 USDT fee: 0.25 to the fund, 2.25 left; 20 %, 10 %, 5 % of it.
        let split = split(dec!(2.5), dec!(10), &[dec!(0.2), dec!(0.1), dec!(0.05)]);
        assert_eq!(split.fee_after_fund, dec!(2.25));
        assert_eq!(split.amounts, vec![dec!(0.45), dec!(0.225), dec!(0.1125)]);
    }

    #[test]
    fn shares_round_down_to_eight_decimals() {
        let split = split(dec!(0.00000019), dec!(10), &[dec!(0.2)]);
        // 0.00000001 to the fund; 0.2 × 0.00000018 = 0.000000036 → 0.00000003.
        assert_eq!(split.amounts, vec![dec!(0.00000003)]);
    }

    #[test]
    fn mixed_agent_rates_are_capped_at_the_fee_after_the_fund() {
        let split = split(dec!(1), dec!(10), &[dec!(0.9), dec!(0.9), dec!(0.5)]);
        assert_eq!(split.amounts, vec![dec!(0.81), dec!(0.09), dec!(0)]);
    }

    fn amount() -> impl Strategy<Value = Decimal> {
        (0i64..=1_000_000_000_000, 0u32..=12).prop_map(|(m, s)| Decimal::new(m, s))
    }

    fn rate() -> impl Strategy<Value = Decimal> {
        (0i64..=10_000).prop_map(|m| Decimal::new(m, 4))
    }

    proptest! {
        #[test]
        fn rebates_never_exceed_the_fee(
            fee in amount(),
            percent in (0i64..=100).prop_map(Decimal::from),
            rates in proptest::collection::vec(rate(), 0..=3),
        ) {
            let split = split(fee, percent, &rates);
            let total: Decimal = split.amounts.iter().sum();
            prop_assert!(total <= split.fee_after_fund);
            prop_assert!(split.fee_after_fund <= fee);
            for a in &split.amounts {
                prop_assert!(*a >= Decimal::ZERO);
                prop_assert!(a.scale() <= REBATE_SCALE);
            }
        }
    }
}
