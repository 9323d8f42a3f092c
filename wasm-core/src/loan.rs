//! Crypto-loan arithmetic shared by the loan screens and the backend: a loan's repayment schedule,
//! what repaying everything early costs at a given moment, and the penalty of an instalment left
//! unpaid past its due time. The apply and repay screens preview these figures; the server charges
//! exactly them.
//!
//! The rules, in full (the loan rules page states them to users):
//! - **Interest** is simple, at the product's daily rate on the principal outstanding, from the
//!   moment of borrowing. A loan day is 24 hours from that moment; a day begun counts in full.
//! - **Rounding**: amounts are kept at the coin's scale (its decimals); interest and penalties are
//!   rounded down, so nobody is charged above the exact figure.
//! - **Repayment ways** ([`RepayWay`]):
//!   - `maturity`: principal and interest in one instalment at the end of the cycle;
//!   - `interest_daily`: each loan day's interest falls due at its end, the principal with the last;
//!   - `equal_instalments`: 30-day periods (the cycle must be a multiple of 30) with equal payments at
//!     the period rate (daily rate × 30), the payment rounded up to the scale so that the principal is
//!     repaid in time; the last instalment is what is left.
//! - **Early repayment** at a moment before the end: the instalments due by then count as paid; the
//!   rest costs the principal outstanding plus the interest of the loan days begun since the last due
//!   time (at least one day). No fee, no penalty; the schedule's remaining interest above that is saved.
//! - **Overdue**: an unpaid instalment is overdue from its due time. For the product's grace days it
//!   accrues nothing; from then on it accrues the penalty daily rate on the amount overdue for each day
//!   begun.

use rust_decimal::{Decimal, RoundingStrategy};
use serde::Serialize;

use crate::error::CoreError;

/// One loan day in milliseconds.
pub const DAY_MS: i64 = 86_400_000;
/// The length of an `equal_instalments` period, in loan days.
pub const INSTALMENT_PERIOD_DAYS: u32 = 30;
/// The longest cycle a loan may have, in days.
pub const MAX_CYCLE_DAYS: u32 = 365;
/// The most decimals a coin's amounts may have.
pub const MAX_SCALE: u32 = 18;

/// How a loan is repaid (the `t_repay_type` dictionary's values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RepayWay {
    /// Principal and interest in one instalment at the end of the cycle.
    Maturity,
    /// Each loan day's interest at its end; the principal with the last day's interest.
    InterestDaily,
    /// Equal payments every 30 loan days (an annuity at the period rate).
    EqualInstalments,
}

impl RepayWay {
    /// The dictionary value: `maturity`, `interest_daily` or `equal_instalments`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Maturity => "maturity",
            Self::InterestDaily => "interest_daily",
            Self::EqualInstalments => "equal_instalments",
        }
    }
}

impl std::str::FromStr for RepayWay {
    type Err = CoreError;

    /// The way named by its dictionary value; [`CoreError::InvalidArgument`] (`repayWay`) for
    /// anything else.
    fn from_str(value: &str) -> Result<Self, CoreError> {
        [Self::Maturity, Self::InterestDaily, Self::EqualInstalments]
            .into_iter()
            .find(|way| way.as_str() == value)
            .ok_or(CoreError::InvalidArgument { name: "repayWay" })
    }
}

/// A loan's terms: what was borrowed, at what rate, for how long, repaid how, from when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoanTerms {
    /// The amount borrowed, above zero.
    pub principal: Decimal,
    /// The interest per loan day as a fraction of the principal outstanding (`0.0005` = 0.05 %),
    /// from 0 up to 1.
    pub day_rate: Decimal,
    /// The loan's length in days, 1 to 365 (a multiple of 30 for `equal_instalments`).
    pub cycle_days: u32,
    /// How it is repaid.
    pub repay_way: RepayWay,
    /// The moment of borrowing, in milliseconds since the epoch.
    pub start_time: i64,
    /// The coin's decimals, 0 to 18.
    pub scale: u32,
}

/// One instalment of a schedule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Instalment {
    /// 1 for the first.
    pub index: u32,
    /// When it falls due, in milliseconds since the epoch.
    pub due_time: i64,
    /// The principal it repays.
    pub principal: Decimal,
    /// The interest it pays.
    pub interest: Decimal,
    /// `principal + interest`.
    pub amount: Decimal,
    /// The principal still owed once it is paid.
    pub outstanding: Decimal,
}

/// A loan's whole repayment schedule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LoanSchedule {
    /// The instalments in due order.
    pub instalments: Vec<Instalment>,
    /// The interest of every instalment.
    pub total_interest: Decimal,
    /// The principal and the total interest.
    pub total_repay: Decimal,
    /// When the last instalment falls due.
    pub end_time: i64,
}

/// What repaying a loan in full at a moment before its end costs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EarlyRepayment {
    /// The moment of repayment, in milliseconds since the epoch.
    pub at_time: i64,
    /// The instalments due by then, counted as paid.
    pub paid_instalments: u32,
    /// The principal outstanding after those.
    pub principal: Decimal,
    /// The interest of the loan days begun since the last due time (at least one).
    pub interest: Decimal,
    /// `principal + interest`: what repaying now takes.
    pub amount: Decimal,
    /// The remaining instalments' interest that repaying now does not pay.
    pub interest_saved: Decimal,
}

/// The input of [`overdue_penalty`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverdueInput {
    /// The amount overdue (an instalment's amount), not negative.
    pub amount: Decimal,
    /// The penalty per day begun after the grace days, as a fraction of the amount, from 0 up to 1.
    pub penalty_day_rate: Decimal,
    /// The days after the due time without a penalty, 0 to 365.
    pub grace_days: u32,
    /// When the amount fell due, in milliseconds since the epoch.
    pub due_time: i64,
    /// The moment the penalty is computed for.
    pub at_time: i64,
    /// The coin's decimals, 0 to 18.
    pub scale: u32,
}

/// An overdue amount's penalty at a moment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OverduePenalty {
    /// The days begun since the due time (0 when not yet due).
    pub days_overdue: u32,
    /// The days of those charged: the ones after the grace days.
    pub penalty_days: u32,
    /// `amount × penalty day rate × penalty days`, rounded down.
    pub penalty: Decimal,
    /// The amount and its penalty: what settling it takes now.
    pub amount_due: Decimal,
}

/// The repayment schedule of `terms`.
///
/// Fails with [`CoreError::NotPositive`] for a principal not above zero,
/// [`CoreError::FeeRateOutOfRange`] for a daily rate outside 0 up to 1,
/// [`CoreError::IntegerOutOfRange`] for a cycle outside 1–365 days or a scale above 18,
/// [`CoreError::InvalidArgument`] (`cycleDays`) for `equal_instalments` with a cycle that is not a
/// multiple of 30 or (`principal`) a principal with more decimals than the scale, and
/// [`CoreError::CalculationOverflow`] beyond the decimal range.
pub fn loan_schedule(terms: &LoanTerms) -> Result<LoanSchedule, CoreError> {
    check_terms(terms)?;
    let instalments = match terms.repay_way {
        RepayWay::Maturity => {
            let interest = floor(
                mul(
                    mul(terms.principal, terms.day_rate)?,
                    Decimal::from(terms.cycle_days),
                )?,
                terms.scale,
            );
            vec![instalment(
                1,
                due(terms, terms.cycle_days)?,
                terms.principal,
                interest,
                Decimal::ZERO,
            )?]
        }
        RepayWay::InterestDaily => {
            let interest = floor(mul(terms.principal, terms.day_rate)?, terms.scale);
            (1..=terms.cycle_days)
                .map(|day| {
                    let last = day == terms.cycle_days;
                    let principal = if last { terms.principal } else { Decimal::ZERO };
                    let outstanding = terms.principal - principal;
                    instalment(day, due(terms, day)?, principal, interest, outstanding)
                })
                .collect::<Result<_, _>>()?
        }
        RepayWay::EqualInstalments => equal_instalments(terms)?,
    };
    let total_interest = instalments.iter().map(|i| i.interest).sum::<Decimal>();
    Ok(LoanSchedule {
        end_time: due(terms, terms.cycle_days)?,
        total_repay: add(terms.principal, total_interest)?.normalize(),
        total_interest: total_interest.normalize(),
        instalments,
    })
}

/// What repaying the loan of `terms` in full at `at_time` costs (see the module's rules).
///
/// Fails as [`loan_schedule`] does, and with [`CoreError::IntegerOutOfRange`] (`atTime`) for a
/// moment before the start or at or after the end (the last instalment is then due, not early).
pub fn early_repayment(terms: &LoanTerms, at_time: i64) -> Result<EarlyRepayment, CoreError> {
    let schedule = loan_schedule(terms)?;
    if at_time < terms.start_time || at_time >= schedule.end_time {
        return Err(CoreError::IntegerOutOfRange {
            name: "atTime",
            value: at_time.to_string(),
            min: terms.start_time,
            max: schedule.end_time - 1,
        });
    }
    let paid: Vec<&Instalment> = schedule
        .instalments
        .iter()
        .take_while(|i| i.due_time <= at_time)
        .collect();
    let (principal, last_due) = paid
        .last()
        .map_or((terms.principal, terms.start_time), |i| {
            (i.outstanding, i.due_time)
        });
    let days = days_begun(at_time - last_due).max(1);
    let interest = floor(
        mul(mul(principal, terms.day_rate)?, Decimal::from(days))?,
        terms.scale,
    );
    let remaining_interest = schedule.instalments[paid.len()..]
        .iter()
        .map(|i| i.interest)
        .sum::<Decimal>();
    Ok(EarlyRepayment {
        at_time,
        paid_instalments: u32::try_from(paid.len()).map_err(|_| CoreError::CalculationOverflow)?,
        principal: principal.normalize(),
        interest: interest.normalize(),
        amount: add(principal, interest)?.normalize(),
        interest_saved: (remaining_interest - interest)
            .max(Decimal::ZERO)
            .normalize(),
    })
}

/// The penalty of an amount left unpaid past its due time (see the module's rules).
///
/// Fails with [`CoreError::Negative`] for a negative amount, [`CoreError::FeeRateOutOfRange`] for a
/// penalty rate outside 0 up to 1, [`CoreError::IntegerOutOfRange`] for grace days above 365 or a
/// scale above 18, and [`CoreError::CalculationOverflow`] beyond the decimal range.
pub fn overdue_penalty(input: &OverdueInput) -> Result<OverduePenalty, CoreError> {
    if input.amount.is_sign_negative() && !input.amount.is_zero() {
        return Err(CoreError::Negative {
            name: "amount",
            value: input.amount.to_string(),
        });
    }
    check_rate("penaltyDayRate", input.penalty_day_rate)?;
    check_range("graceDays", input.grace_days, 0, MAX_CYCLE_DAYS)?;
    check_range("scale", input.scale, 0, MAX_SCALE)?;
    let days_overdue = u32::try_from(days_begun(input.at_time - input.due_time))
        .map_err(|_| CoreError::CalculationOverflow)?;
    let penalty_days = days_overdue.saturating_sub(input.grace_days);
    let penalty = floor(
        mul(
            mul(input.amount, input.penalty_day_rate)?,
            Decimal::from(penalty_days),
        )?,
        input.scale,
    );
    Ok(OverduePenalty {
        days_overdue,
        penalty_days,
        penalty: penalty.normalize(),
        amount_due: add(input.amount, penalty)?.normalize(),
    })
}

fn equal_instalments(terms: &LoanTerms) -> Result<Vec<Instalment>, CoreError> {
    if !terms.cycle_days.is_multiple_of(INSTALMENT_PERIOD_DAYS) {
        return Err(CoreError::InvalidArgument { name: "cycleDays" });
    }
    let count = terms.cycle_days / INSTALMENT_PERIOD_DAYS;
    let period_rate = mul(terms.day_rate, Decimal::from(INSTALMENT_PERIOD_DAYS))?;
    let payment = ceil(
        annuity_payment(terms.principal, period_rate, count)?,
        terms.scale,
    );
    let mut outstanding = terms.principal;
    (1..=count)
        .map(|index| {
            let interest = floor(mul(outstanding, period_rate)?, terms.scale);
            let principal = if index == count {
                outstanding
            } else {
                (payment - interest).clamp(Decimal::ZERO, outstanding)
            };
            outstanding -= principal;
            instalment(
                index,
                due(terms, index * INSTALMENT_PERIOD_DAYS)?,
                principal,
                interest,
                outstanding,
            )
        })
        .collect()
}

/// `P × i × (1 + i)^n / ((1 + i)^n − 1)`, or `P / n` without interest.
fn annuity_payment(principal: Decimal, rate: Decimal, count: u32) -> Result<Decimal, CoreError> {
    if rate.is_zero() {
        return div(principal, Decimal::from(count));
    }
    let mut growth = Decimal::ONE;
    for _ in 0..count {
        growth = mul(growth, add(Decimal::ONE, rate)?)?;
    }
    div(mul(mul(principal, rate)?, growth)?, growth - Decimal::ONE)
}

fn instalment(
    index: u32,
    due_time: i64,
    principal: Decimal,
    interest: Decimal,
    outstanding: Decimal,
) -> Result<Instalment, CoreError> {
    Ok(Instalment {
        index,
        due_time,
        principal: principal.normalize(),
        interest: interest.normalize(),
        amount: add(principal, interest)?.normalize(),
        outstanding: outstanding.normalize(),
    })
}

fn check_terms(terms: &LoanTerms) -> Result<(), CoreError> {
    check_range("scale", terms.scale, 0, MAX_SCALE)?;
    if terms.principal <= Decimal::ZERO {
        return Err(CoreError::NotPositive {
            name: "principal",
            value: terms.principal.to_string(),
        });
    }
    if terms.principal.normalize().scale() > terms.scale {
        return Err(CoreError::InvalidArgument { name: "principal" });
    }
    check_rate("dayRate", terms.day_rate)?;
    check_range("cycleDays", terms.cycle_days, 1, MAX_CYCLE_DAYS)?;
    due(terms, terms.cycle_days).map(|_| ())
}

fn check_rate(name: &'static str, rate: Decimal) -> Result<(), CoreError> {
    if rate.is_sign_negative() && !rate.is_zero() || rate >= Decimal::ONE {
        return Err(CoreError::FeeRateOutOfRange {
            name,
            value: rate.to_string(),
        });
    }
    Ok(())
}

fn check_range(name: &'static str, value: u32, min: u32, max: u32) -> Result<(), CoreError> {
    if (min..=max).contains(&value) {
        return Ok(());
    }
    Err(CoreError::IntegerOutOfRange {
        name,
        value: value.to_string(),
        min: min.into(),
        max: max.into(),
    })
}

/// The moment `days` loan days after the start.
fn due(terms: &LoanTerms, days: u32) -> Result<i64, CoreError> {
    i64::from(days)
        .checked_mul(DAY_MS)
        .and_then(|offset| terms.start_time.checked_add(offset))
        .ok_or(CoreError::CalculationOverflow)
}

/// The loan days begun in `elapsed` milliseconds (0 for none or a negative span).
fn days_begun(elapsed: i64) -> i64 {
    if elapsed <= 0 {
        0
    } else {
        (elapsed - 1) / DAY_MS + 1
    }
}

fn floor(value: Decimal, scale: u32) -> Decimal {
    value.round_dp_with_strategy(scale, RoundingStrategy::ToZero)
}

fn ceil(value: Decimal, scale: u32) -> Decimal {
    value.round_dp_with_strategy(scale, RoundingStrategy::AwayFromZero)
}

fn add(a: Decimal, b: Decimal) -> Result<Decimal, CoreError> {
    a.checked_add(b).ok_or(CoreError::CalculationOverflow)
}

fn mul(a: Decimal, b: Decimal) -> Result<Decimal, CoreError> {
    a.checked_mul(b).ok_or(CoreError::CalculationOverflow)
}

fn div(a: Decimal, b: Decimal) -> Result<Decimal, CoreError> {
    a.checked_div(b).ok_or(CoreError::CalculationOverflow)
}

#[cfg(test)]
mod tests;
