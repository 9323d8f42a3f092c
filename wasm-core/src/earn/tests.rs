//! The schedule's rules on worked examples, and its invariants by property tests.

use proptest::prelude::*;
use rust_decimal::Decimal;

use super::*;

const DAY: i64 = MS_PER_DAY;
/// 2026-01-30 15:20 UTC.
const SUBSCRIBED: i64 = 1_769_786_400_000;

fn dec(text: &str) -> Decimal {
    text.parse().unwrap()
}

fn terms(principal: &str, rate: &str, basis: RateBasis, days: u32) -> Terms {
    Terms {
        principal: dec(principal),
        rate: dec(rate),
        rate_basis: basis,
        subscribed_at: SUBSCRIBED,
        days,
        flexible: false,
        keep_rewards_on_early_redemption: false,
    }
}

#[test]
fn accrual_starts_the_next_day_and_is_paid_the_day_after() {
    let schedule = earn_schedule(&terms("1000", "0.001", RateBasis::Daily, 3), None).unwrap();
    let d = day_start(SUBSCRIBED);
    assert_eq!(schedule.value_date, d + DAY);
    assert_eq!(schedule.first_payout_date, d + 2 * DAY);
    assert_eq!(schedule.last_accrual_date, d + 3 * DAY);
    assert_eq!(schedule.delivery_date, Some(d + 4 * DAY));
    assert_eq!(schedule.days[0].accrual_date, d + DAY);
    assert_eq!(schedule.days[2].pay_date, d + 4 * DAY);
    assert_eq!(schedule.estimated_daily, dec("1"));
    assert_eq!(schedule.total_reward, dec("3"));
    assert_eq!(schedule.residue, Decimal::ZERO);
}

#[test]
fn rewards_round_down_and_carry_the_residue() {
    // 1 × 0.000000015 a day: 1.5 units of 1e-8; paid 1, 2, 1, 2 …
    let schedule = earn_schedule(&terms("1", "0.000000015", RateBasis::Daily, 4), None).unwrap();
    let rewards: Vec<_> = schedule.days.iter().map(|d| d.reward).collect();
    assert_eq!(
        rewards,
        [
            dec("0.00000001"),
            dec("0.00000002"),
            dec("0.00000001"),
            dec("0.00000002")
        ]
    );
    assert_eq!(schedule.days[0].residue, dec("0.000000005"));
    assert_eq!(schedule.days[1].residue, Decimal::ZERO);
    assert_eq!(schedule.total_reward, dec("0.00000006"));
}

#[test]
fn an_annual_rate_divides_by_365_without_rounding_first() {
    // 365 × 0.1 / 365 = 0.1 a day exactly.
    let schedule = earn_schedule(&terms("365", "0.1", RateBasis::Apr, 30), None).unwrap();
    assert_eq!(schedule.estimated_daily, dec("0.1"));
    assert_eq!(schedule.total_reward, dec("3"));
    // 100 × 0.05 / 365 = 0.01369863013… a day.
    let schedule = earn_schedule(&terms("100", "0.05", RateBasis::Apr, 365), None).unwrap();
    assert_eq!(schedule.estimated_daily, dec("0.01369863"));
    assert_eq!(schedule.total_reward, dec("5"));
    assert_eq!(schedule.residue, Decimal::ZERO);
}

#[test]
fn early_redemption_deducts_the_paid_rewards_or_keeps_them() {
    let locked = terms("1000", "0.001", RateBasis::Daily, 30);
    let d = day_start(SUBSCRIBED);
    // The same day: nothing paid.
    let r = earn_schedule(&locked, Some(SUBSCRIBED + 1))
        .unwrap()
        .redemption
        .unwrap();
    assert_eq!((r.early, r.paid_days, r.returned), (true, 0, dec("1000")));
    // D+1 accrues, nothing is paid before D+2.
    let r = earn_schedule(&locked, Some(d + 2 * DAY - 1))
        .unwrap()
        .redemption
        .unwrap();
    assert_eq!((r.paid_days, r.returned), (0, dec("1000")));
    // At D+5 00:00 four days are paid: 4 deducted.
    let r = earn_schedule(&locked, Some(d + 5 * DAY))
        .unwrap()
        .redemption
        .unwrap();
    assert_eq!(
        (r.paid_days, r.rewards_paid, r.deduction, r.returned),
        (4, dec("4"), dec("4"), dec("996"))
    );
    let keep = Terms {
        keep_rewards_on_early_redemption: true,
        ..locked.clone()
    };
    let r = earn_schedule(&keep, Some(d + 5 * DAY))
        .unwrap()
        .redemption
        .unwrap();
    assert_eq!((r.deduction, r.returned), (Decimal::ZERO, dec("1000")));
    // At delivery it is no longer early.
    let r = earn_schedule(&locked, Some(d + 31 * DAY))
        .unwrap()
        .redemption
        .unwrap();
    assert_eq!((r.early, r.paid_days, r.returned), (false, 30, dec("1000")));
}

#[test]
fn a_flexible_position_has_no_delivery_and_keeps_its_rewards() {
    let flexible = Terms {
        flexible: true,
        ..terms("500", "0.0002", RateBasis::Daily, 10)
    };
    let schedule = earn_schedule(&flexible, Some(day_start(SUBSCRIBED) + 5 * DAY)).unwrap();
    assert_eq!(schedule.delivery_date, None);
    let r = schedule.redemption.unwrap();
    assert_eq!((r.early, r.paid_days, r.returned), (false, 4, dec("500")));
}

#[test]
fn bad_terms_are_errors() {
    let code = |t: Terms| earn_schedule(&t, None).unwrap_err().code();
    assert_eq!(code(terms("0", "0.1", RateBasis::Daily, 1)), "not_positive");
    assert_eq!(code(terms("1", "-0.1", RateBasis::Daily, 1)), "negative");
    assert_eq!(
        code(terms("1", "0.1", RateBasis::Daily, 0)),
        "integer_out_of_range"
    );
    assert_eq!(
        code(terms("1", "0.1", RateBasis::Daily, 3651)),
        "integer_out_of_range"
    );
    assert_eq!(
        code(terms(
            "0.000000000000000001",
            "0.00000000001",
            RateBasis::Daily,
            1
        )),
        "decimal_out_of_range"
    );
    assert_eq!(
        code(terms(
            "79000000000000000000000000000",
            "2",
            RateBasis::Daily,
            1
        )),
        "calculation_overflow"
    );
}

fn amount() -> impl Strategy<Value = Decimal> {
    (1_i64..=1_000_000_000_000, 0_u32..=8).prop_map(|(units, scale)| Decimal::new(units, scale))
}

fn rate() -> impl Strategy<Value = Decimal> {
    (0_i64..=5_000_000, 4_u32..=10).prop_map(|(units, scale)| Decimal::new(units, scale))
}

fn any_terms() -> impl Strategy<Value = Terms> {
    (
        amount(),
        rate(),
        prop_oneof![Just(RateBasis::Daily), Just(RateBasis::Apr)],
        0_i64..=4_102_444_800_000,
        1_u32..=400,
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(principal, rate, rate_basis, subscribed_at, days, flexible, keep)| Terms {
                principal,
                rate,
                rate_basis,
                subscribed_at,
                days,
                flexible,
                keep_rewards_on_early_redemption: keep,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Paid rewards plus the residue are the exact accrual, every day; rewards are never negative,
    /// have 8 decimals at most, and what is paid only grows.
    #[test]
    fn paid_plus_residue_is_the_exact_accrual(terms in any_terms()) {
        let schedule = earn_schedule(&terms, None).unwrap();
        prop_assert_eq!(schedule.days.len(), terms.days as usize);
        let unit = Decimal::new(1, REWARD_DECIMALS);
        let mut sum = Decimal::ZERO;
        for day in &schedule.days {
            prop_assert!(day.reward >= Decimal::ZERO);
            prop_assert!(day.reward.normalize().scale() <= REWARD_DECIMALS);
            sum += day.reward;
            prop_assert_eq!(sum, day.paid_total);
            prop_assert!(day.residue >= Decimal::ZERO && day.residue < unit);
            let numerator = terms.principal * terms.rate * Decimal::from(day.day);
            match terms.rate_basis {
                // Exact: paid + residue = principal × rate × days.
                RateBasis::Daily => prop_assert_eq!(day.paid_total + day.residue, numerator),
                // paid ≤ exact < paid + 1e-8, compared on integers (× 365).
                RateBasis::Apr => {
                    prop_assert!(day.paid_total * Decimal::from(365) <= numerator);
                    prop_assert!((day.paid_total + unit) * Decimal::from(365) > numerator);
                }
            }
        }
        prop_assert_eq!(sum, schedule.total_reward);
    }

    /// Redemption returns the principal less what the rule deducts, never below zero, and never
    /// more as time passes for a locked position whose rewards are deducted.
    #[test]
    fn redemption_is_bounded_and_monotone(terms in any_terms(), a in 0_i64..=500, b in 0_i64..=500) {
        let (a, b) = (a.min(b), a.max(b));
        let at = |offset: i64| terms.subscribed_at + offset * MS_PER_DAY / 2;
        let first = earn_schedule(&terms, Some(at(a))).unwrap().redemption.unwrap();
        let later = earn_schedule(&terms, Some(at(b))).unwrap().redemption.unwrap();
        prop_assert!(first.returned >= Decimal::ZERO && first.returned <= terms.principal);
        prop_assert_eq!(first.returned + first.deduction, terms.principal);
        prop_assert!(later.paid_days >= first.paid_days);
        prop_assert!(later.rewards_paid >= first.rewards_paid);
        if later.early {
            prop_assert!(later.returned <= first.returned);
        }
    }
}

#[test]
fn paid_through_is_the_schedules_running_total() {
    let t = terms("1234.5", "0.000123", RateBasis::Apr, 40);
    let schedule = earn_schedule(&t, None).unwrap();
    assert_eq!(paid_through(&t, 0).unwrap(), Decimal::ZERO);
    for day in &schedule.days {
        assert_eq!(paid_through(&t, day.day).unwrap(), day.paid_total);
    }
}
