//! A position's terms as wasm-core's `earn_schedule` takes them, and the figures a position shows
//! now — all from that one function, so the preview, the job, the redemption and the replay agree.

use rust_decimal::Decimal;
use wasm_core::earn::{self, MAX_DAYS, RateBasis, Schedule, Terms};

use crate::entity::{earn_position, earn_product};
use crate::i18n::Msg;
use crate::refusal::{Refusal, RefusalKind};

/// Decimals of a subscription amount (and of the quota units).
pub const AMOUNT_DECIMALS: u32 = 8;
/// One unit of the quota counters: 10⁻⁸.
pub const UNITS_PER_COIN: i64 = 100_000_000;

/// The stored rate basis.
pub fn rate_basis(text: &str) -> RateBasis {
    match text {
        "apr" => RateBasis::Apr,
        _ => RateBasis::Daily,
    }
}

/// The stored name of a rate basis.
pub fn rate_basis_name(basis: RateBasis) -> &'static str {
    match basis {
        RateBasis::Daily => "daily",
        RateBasis::Apr => "apr",
    }
}

/// A stored decimal (written by this module, so always readable).
pub fn decimal(text: &str) -> Decimal {
    wasm_core::money::parse_decimal(text).unwrap_or_default()
}

/// `amount` in quota units (10⁻⁸), or `None` when it has more decimals or does not fit.
pub fn units(amount: Decimal) -> Option<i64> {
    if amount.scale() > AMOUNT_DECIMALS {
        return None;
    }
    (amount * Decimal::from(UNITS_PER_COIN))
        .normalize()
        .try_into()
        .ok()
}

/// Quota units as an amount.
pub fn amount_of_units(units: i64) -> Decimal {
    Decimal::new(units, AMOUNT_DECIMALS).normalize()
}

/// The days a schedule covers: the cycle, or for a flexible position the days paid so far plus
/// the next (at least the product's cycle), within wasm-core's bound.
fn days(lock_days: i64, flexible: bool, paid_days: i64) -> u32 {
    let days = if flexible {
        lock_days.max(paid_days + 1)
    } else {
        lock_days
    };
    days.clamp(1, i64::from(MAX_DAYS)) as u32
}

/// The terms of a stored position.
pub fn of_position(position: &earn_position::Model) -> Terms {
    Terms {
        principal: decimal(&position.principal),
        rate: decimal(&position.rate),
        rate_basis: rate_basis(&position.rate_basis),
        subscribed_at: position.subscribed_at,
        days: days(position.lock_days, position.flexible, position.paid_days),
        flexible: position.flexible,
        keep_rewards_on_early_redemption: position.flexible || position.early_redemption == "keep",
    }
}

/// The terms of subscribing `amount` to `product` at `now`.
pub fn of_product(product: &earn_product::Model, amount: Decimal, now: i64) -> Terms {
    Terms {
        principal: amount,
        rate: decimal(&product.rate),
        rate_basis: rate_basis(&product.rate_basis),
        subscribed_at: now,
        days: days(product.lock_days, product.flexible, 0),
        flexible: product.flexible,
        keep_rewards_on_early_redemption: product.flexible || product.early_redemption == "keep",
    }
}

/// The schedule of `terms` and what redeeming at `at` returns.
pub fn schedule(terms: &Terms, at: Option<i64>) -> Result<Schedule, Refusal> {
    earn::earn_schedule(terms, at).map_err(core_refusal)
}

/// Every reward paid through day `day` of `terms` (the schedule's running total).
pub fn paid_through(terms: &Terms, day: u32) -> Result<Decimal, Refusal> {
    earn::paid_through(terms, day).map_err(core_refusal)
}

/// The time a redemption of `position` is figured at: now, but never past the moment before its
/// first unpaid day is due, so that the rewards the rule counts are exactly those the ledger paid
/// (a day the job has not paid yet is forfeited either way).
pub fn redemption_time(position: &earn_position::Model, now: i64) -> i64 {
    now.min(position.next_pay_date - 1)
        .max(position.subscribed_at)
}

/// A wasm-core failure on a position's terms: the amount's rule, or the amount refused as out of
/// range (a product's terms are checked when the operator saves them).
fn core_refusal(error: wasm_core::CoreError) -> Refusal {
    match error {
        wasm_core::CoreError::Invalid(violation) => Refusal::rule("amount", &violation),
        _ => Refusal::new(RefusalKind::Invalid, Msg::InvalidField).with_field("amount"),
    }
}
