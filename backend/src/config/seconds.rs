//! Seconds (flash) contracts' settings (`[seconds]` in the file): the switch, the payout and the
//! periods offered with their stake limits.

use rust_decimal::Decimal;
use serde::Deserialize;

use super::decimal;

/// Seconds (flash) contracts (`[seconds]` in the file).
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SecondsConfig {
    /// Offers the product; `false` switches it off for this deployment (every seconds call then
    /// answers `seconds_disabled`; open orders still settle).
    pub enabled: bool,
    /// The periods offered, in the order the picker shows them (`[[seconds.periods]]`); a file
    /// that sets them replaces the whole default list.
    pub periods: Vec<SecondsPeriod>,
}

/// One period of seconds contracts.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SecondsPeriod {
    /// Length from acceptance to expiry, in seconds (1 to 86400).
    pub seconds: u32,
    /// Profit of a right call as a fraction of the stake (`0.85`), at least 0.
    pub payout_rate: Decimal,
    /// Smallest stake, USDT, a whole number above zero.
    pub min_stake: Decimal,
    /// Largest stake, USDT, a whole number not below `min_stake`.
    pub max_stake: Decimal,
}

impl Default for SecondsConfig {
    fn default() -> Self {
        let period = |seconds, rate: &str| SecondsPeriod {
            seconds,
            payout_rate: decimal(rate),
            min_stake: Decimal::new(10, 0),
            max_stake: Decimal::new(50_000, 0),
        };
        Self {
            enabled: true,
            periods: vec![
                period(30, "0.80"),
                period(60, "0.85"),
                period(120, "0.90"),
                period(300, "0.95"),
            ],
        }
    }
}

impl SecondsConfig {
    /// Reads `EXCHANGE_SECONDS_PERIODS`: comma-separated `seconds:payout_rate:min_stake:max_stake`
    /// (`5:0.85:10:50000,60:0.85:10:50000`).
    pub(super) fn parse_periods(value: &str) -> Option<Vec<SecondsPeriod>> {
        value
            .split(',')
            .filter(|part| !part.trim().is_empty())
            .map(|part| {
                let mut fields = part.trim().split(':');
                let period = SecondsPeriod {
                    seconds: fields.next()?.trim().parse().ok()?,
                    payout_rate: fields.next()?.trim().parse().ok()?,
                    min_stake: fields.next()?.trim().parse().ok()?,
                    max_stake: fields.next()?.trim().parse().ok()?,
                };
                fields.next().is_none().then_some(period)
            })
            .collect()
    }

    /// Checks every period: 1 to 86400 seconds, each listed once, a rate of at least 0 with at
    /// most 8 decimals, whole stakes with `0 < min_stake <= max_stake`.
    pub(super) fn check(&self) -> Result<(), String> {
        let mut seen = std::collections::BTreeSet::new();
        for period in &self.periods {
            let name = format!("the {} s period", period.seconds);
            if !(1..=86_400).contains(&period.seconds) {
                return Err(format!("{name}: seconds must be 1 to 86400"));
            }
            if !seen.insert(period.seconds) {
                return Err(format!("{name} is listed twice"));
            }
            if period.payout_rate.is_sign_negative() || period.payout_rate.normalize().scale() > 8 {
                return Err(format!(
                    "{name}: payout_rate must be at least 0 with at most 8 decimals"
                ));
            }
            if !period.min_stake.fract().is_zero()
                || !period.max_stake.fract().is_zero()
                || period.min_stake <= Decimal::ZERO
                || period.max_stake < period.min_stake
            {
                return Err(format!(
                    "{name}: stakes must be whole numbers with 0 < min_stake <= max_stake"
                ));
            }
        }
        Ok(())
    }

    /// The period of `seconds`, if offered.
    pub fn period(&self, seconds: u32) -> Option<&SecondsPeriod> {
        self.periods.iter().find(|p| p.seconds == seconds)
    }
}
