//! How a trading fee is split between the platform's fee account and the asset security fund; the
//! spot and futures settlements both post it this way.

use rust_decimal::{Decimal, RoundingStrategy};

/// The security fund's share of `fee` at `percent`, rounded down to 8 decimals (the platform's
/// fee account keeps the rest, so the two always add up to the fee).
pub fn security_fund_share(fee: Decimal, percent: Decimal) -> Decimal {
    (fee * percent / Decimal::ONE_HUNDRED)
        .round_dp_with_strategy(8, RoundingStrategy::ToZero)
        .normalize()
}

#[cfg(test)]
mod tests {
    use rust_decimal_macros::dec;

    use super::*;

    #[test]
    fn the_fund_share_rounds_down_and_the_rest_goes_to_fees() {
        assert_eq!(
            security_fund_share(dec!(0.00000019), dec!(10)),
            dec!(0.00000001)
        );
        assert_eq!(security_fund_share(dec!(0.00000009), dec!(10)), dec!(0));
    }
}
