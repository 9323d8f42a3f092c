//! Earn products (staking or pledge mining, DeFi liquidity mining, wealth products): the whole
//! schedule of one position, computed from its terms by [`earn_schedule`], the one function the
//! subscription preview shows, the server posts and `backend earn-replay` checks.
//!
//! The rules (Binance Simple Earn's, in UTC days):
//!
//! - A subscription at any time of day `D` starts accruing at 00:00 UTC of `D+1` (the value date).
//!   Accrual day `i` (from 1) is `D+i`; its reward is paid at 00:00 UTC of the next day, so the
//!   first payout is on `D+2`. A locked position accrues `days` days (its cycle) and its principal
//!   is delivered with the last payout, on `D+days+1` (the delivery date).
//! - The exact accrual of `k` days is `principal × rate × k` for a daily rate, or
//!   `principal × APR × k / 365` for an annual one. What is paid through day `k` is that amount
//!   rounded down to 8 decimals, so each day's reward is rounded down with the residue carried into
//!   the next day: no reward is ever paid twice or lost, and the residue stays below `0.00000001`.
//! - Early redemption of a locked position at a time `t` returns the principal minus every reward
//!   paid by `t` (Binance's rule), or the whole principal when the product lets the holder keep
//!   the rewards; a reward whose day has accrued but is not paid yet is forfeited. A flexible
//!   position has no maturity: redeeming returns the principal and the rewards paid stay paid.

use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize};

use crate::civil::MS_PER_DAY;
use crate::error::CoreError;
use crate::money::parse_decimal;

/// Decimals of a paid reward.
pub const REWARD_DECIMALS: u32 = 8;
/// The longest cycle (and the longest flexible projection), in days.
pub const MAX_DAYS: u32 = 3650;
/// Days of a year for an annual rate.
pub const DAYS_PER_YEAR: i64 = 365;

/// How a product states its rate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RateBasis {
    /// A daily rate (the spec's `dayRate`): a day's reward is `principal × rate`.
    Daily,
    /// An annual percentage rate as a fraction: a day's reward is `principal × rate / 365`.
    Apr,
}

/// A position's terms: what the schedule is computed from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Terms {
    /// The amount subscribed, above zero.
    #[serde(deserialize_with = "decimal")]
    pub principal: Decimal,
    /// The rate as a fraction (`0.001` is 0.1 %), not negative; per day or per year by `rate_basis`.
    #[serde(deserialize_with = "decimal")]
    pub rate: Decimal,
    /// Whether `rate` is daily or annual.
    pub rate_basis: RateBasis,
    /// When the subscription was accepted, Unix milliseconds.
    pub subscribed_at: i64,
    /// A locked position's cycle in days (1 to [`MAX_DAYS`]); for a flexible one, how many days
    /// to compute.
    pub days: u32,
    /// A flexible position: no maturity, redeemable at any time with its rewards.
    #[serde(default)]
    pub flexible: bool,
    /// The product's own rule for early redemption: keep the rewards paid (true) or have them
    /// deducted from the principal returned (false, Binance's rule).
    #[serde(default)]
    pub keep_rewards_on_early_redemption: bool,
}

/// One accrual day of a schedule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScheduleDay {
    /// The day's number in the position, from 1.
    pub day: u32,
    /// 00:00 UTC of the day accrued, Unix milliseconds.
    pub accrual_date: i64,
    /// 00:00 UTC of the day its reward is paid (the next day).
    pub pay_date: i64,
    /// The reward paid for the day, 8 decimals at most.
    pub reward: Decimal,
    /// Every reward paid through this day.
    pub paid_total: Decimal,
    /// What is accrued but not paid after this day (carried into the next), below `0.00000001`.
    pub residue: Decimal,
}

/// What redeeming at a given time returns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Redemption {
    /// The time asked about, Unix milliseconds.
    pub at: i64,
    /// Whether this is an early redemption (before delivery); false once matured, and always
    /// false for a flexible position, which has no maturity.
    pub early: bool,
    /// Days whose reward is paid by then.
    pub paid_days: u32,
    /// The rewards paid by then.
    pub rewards_paid: Decimal,
    /// What the rule takes back from the principal (zero when the rewards are kept).
    pub deduction: Decimal,
    /// What is returned: the principal less the deduction, never below zero.
    pub returned: Decimal,
}

/// A position's whole schedule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Schedule {
    /// 00:00 UTC of the day after the subscription: accrual starts.
    pub value_date: i64,
    /// 00:00 UTC of the second day after it: the first reward is paid.
    pub first_payout_date: i64,
    /// 00:00 UTC of the last day accrued.
    pub last_accrual_date: i64,
    /// When a locked position's principal comes back with the last reward (`None` when flexible).
    pub delivery_date: Option<i64>,
    /// The exact accrual of one day (for an annual rate, to 28 significant digits).
    pub daily_accrual: Decimal,
    /// One day's accrual rounded down to 8 decimals: the estimated daily reward.
    pub estimated_daily: Decimal,
    /// Every reward of the schedule: what is paid by the delivery date.
    pub total_reward: Decimal,
    /// The exact accrual of every day less `total_reward`: never paid, below `0.00000001`.
    pub residue: Decimal,
    /// The days, in order.
    pub days: Vec<ScheduleDay>,
    /// What redeeming at the time asked about returns, when one was asked about.
    pub redemption: Option<Redemption>,
}

/// 00:00 UTC of the day of `ms`.
pub fn day_start(ms: i64) -> i64 {
    ms.div_euclid(MS_PER_DAY) * MS_PER_DAY
}

/// The schedule of a position with `terms`, and what redeeming at `redeem_at` (Unix
/// milliseconds) would return.
///
/// Fails with [`CoreError::NotPositive`] (`principal`), [`CoreError::Negative`] (`rate`),
/// [`CoreError::IntegerOutOfRange`] (`days` outside 1 to [`MAX_DAYS`], or a time beyond the
/// calendar), [`CoreError::DecimalOutOfRange`] for a principal and rate whose product would need
/// more than 28 decimals, and [`CoreError::CalculationOverflow`] when an amount leaves the
/// decimal range.
pub fn earn_schedule(terms: &Terms, redeem_at: Option<i64>) -> Result<Schedule, CoreError> {
    check(terms)?;
    for (name, value) in [
        ("subscribedAt", Some(terms.subscribed_at)),
        ("at", redeem_at),
    ] {
        if let Some(value) = value
            && !(0..=crate::convert::MAX_EPOCH_MS).contains(&value)
        {
            return Err(CoreError::IntegerOutOfRange {
                name,
                value: value.to_string(),
                min: 0,
                max: crate::convert::MAX_EPOCH_MS,
            });
        }
    }
    let value_date = day_start(terms.subscribed_at) + MS_PER_DAY;
    let mut days = Vec::with_capacity(terms.days as usize);
    let mut paid_before = Decimal::ZERO;
    for day in 1..=terms.days {
        let paid_total = paid(terms, day)?;
        let accrual_date = value_date + i64::from(day - 1) * MS_PER_DAY;
        days.push(ScheduleDay {
            day,
            accrual_date,
            pay_date: accrual_date + MS_PER_DAY,
            reward: (paid_total - paid_before).normalize(),
            paid_total,
            residue: (exact_through(terms, day)? - paid_total).normalize(),
        });
        paid_before = paid_total;
    }
    let total_reward = paid_before;
    let last_accrual_date = value_date + i64::from(terms.days - 1) * MS_PER_DAY;
    let schedule = Schedule {
        value_date,
        first_payout_date: value_date + MS_PER_DAY,
        last_accrual_date,
        delivery_date: (!terms.flexible).then_some(last_accrual_date + MS_PER_DAY),
        daily_accrual: exact_through(terms, 1)?,
        estimated_daily: paid(terms, 1)?,
        total_reward,
        residue: (exact_through(terms, terms.days)? - total_reward).normalize(),
        days,
        redemption: None,
    };
    let redemption = redeem_at.map(|at| redemption(terms, &schedule, at));
    Ok(Schedule {
        redemption,
        ..schedule
    })
}

/// The days of `schedule` paid by `at`.
pub fn paid_days(schedule: &Schedule, at: i64) -> u32 {
    schedule.days.partition_point(|day| day.pay_date <= at) as u32
}

fn redemption(terms: &Terms, schedule: &Schedule, at: i64) -> Redemption {
    let paid_days = paid_days(schedule, at);
    let rewards_paid = match paid_days {
        0 => Decimal::ZERO,
        n => schedule.days[n as usize - 1].paid_total,
    };
    let early = schedule.delivery_date.is_some_and(|delivery| at < delivery);
    let deduction = if early && !terms.keep_rewards_on_early_redemption {
        rewards_paid.min(terms.principal)
    } else {
        Decimal::ZERO
    };
    Redemption {
        at,
        early,
        paid_days,
        rewards_paid,
        deduction: deduction.normalize(),
        returned: (terms.principal - deduction).normalize(),
    }
}

fn check(terms: &Terms) -> Result<(), CoreError> {
    if terms.principal <= Decimal::ZERO {
        return Err(CoreError::NotPositive {
            name: "principal",
            value: terms.principal.to_string(),
        });
    }
    if terms.rate.is_sign_negative() && !terms.rate.is_zero() {
        return Err(CoreError::Negative {
            name: "rate",
            value: terms.rate.to_string(),
        });
    }
    if !(1..=MAX_DAYS).contains(&terms.days) {
        return Err(CoreError::IntegerOutOfRange {
            name: "days",
            value: terms.days.to_string(),
            min: 1,
            max: i64::from(MAX_DAYS),
        });
    }
    // principal × rate × days must be exact: its scale is the sum of theirs.
    if terms.principal.scale() + terms.rate.scale() > 28 {
        return Err(CoreError::DecimalOutOfRange {
            value: terms.rate.to_string(),
        });
    }
    Ok(())
}

/// `principal × rate × days`, exact (the numerator of an annual rate's accrual).
fn numerator(terms: &Terms, days: u32) -> Result<Decimal, CoreError> {
    terms
        .principal
        .checked_mul(terms.rate)
        .and_then(|p| p.checked_mul(Decimal::from(days)))
        .ok_or(CoreError::CalculationOverflow)
}

fn denominator(terms: &Terms) -> i64 {
    match terms.rate_basis {
        RateBasis::Daily => 1,
        RateBasis::Apr => DAYS_PER_YEAR,
    }
}

/// The exact accrual of the first `days` days (an annual rate's to 28 significant digits).
fn exact_through(terms: &Terms, days: u32) -> Result<Decimal, CoreError> {
    let numerator = numerator(terms, days)?;
    Ok(match terms.rate_basis {
        RateBasis::Daily => numerator.normalize(),
        RateBasis::Apr => numerator
            .checked_div(Decimal::from(DAYS_PER_YEAR))
            .ok_or(CoreError::CalculationOverflow)?
            .normalize(),
    })
}

/// Every reward paid through day `days` of a position with `terms` (0 for none): the exact accrual
/// rounded down to 8 decimals, computed on integers so an annual rate's division never rounds
/// first. The schedule's `paid_total` of that day; the backend posts the difference of two days,
/// as the schedule's `reward` is. Fails as [`earn_schedule`] does on bad terms.
pub fn paid_through(terms: &Terms, days: u32) -> Result<Decimal, CoreError> {
    check(terms)?;
    paid(terms, days)
}

fn paid(terms: &Terms, days: u32) -> Result<Decimal, CoreError> {
    let numerator = numerator(terms, days)?;
    let (mantissa, scale) = (numerator.mantissa(), numerator.scale());
    let denominator = i128::from(denominator(terms));
    let units = if scale >= REWARD_DECIMALS {
        mantissa / (10_i128.pow(scale - REWARD_DECIMALS) * denominator)
    } else {
        mantissa * 10_i128.pow(REWARD_DECIMALS - scale) / denominator
    };
    Decimal::try_from_i128_with_scale(units, REWARD_DECIMALS)
        .map(|paid| paid.normalize())
        .map_err(|_| CoreError::CalculationOverflow)
}

fn decimal<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Decimal, D::Error> {
    let text = String::deserialize(deserializer)?;
    parse_decimal(&text).map_err(serde::de::Error::custom)
}

#[cfg(test)]
mod tests;
