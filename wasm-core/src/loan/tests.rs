use proptest::prelude::*;

use super::*;

const START: i64 = 1_767_225_600_000; // 2026-01-01 00:00 UTC

fn dec(text: &str) -> Decimal {
    text.parse().unwrap()
}

fn terms(principal: &str, rate: &str, cycle_days: u32, repay_way: RepayWay) -> LoanTerms {
    LoanTerms {
        principal: dec(principal),
        day_rate: dec(rate),
        cycle_days,
        repay_way,
        start_time: START,
        scale: 8,
    }
}

#[test]
fn maturity_is_one_instalment_of_principal_and_simple_interest() {
    let schedule = loan_schedule(&terms("1000", "0.0005", 30, RepayWay::Maturity)).unwrap();
    assert_eq!(
        schedule.instalments,
        vec![Instalment {
            index: 1,
            due_time: START + 30 * DAY_MS,
            principal: dec("1000"),
            interest: dec("15"),
            amount: dec("1015"),
            outstanding: Decimal::ZERO,
        }]
    );
    assert_eq!(
        (
            schedule.total_interest,
            schedule.total_repay,
            schedule.end_time
        ),
        (dec("15"), dec("1015"), START + 30 * DAY_MS)
    );
}

#[test]
fn interest_daily_pays_each_day_and_the_principal_last() {
    let schedule = loan_schedule(&terms("1000", "0.0005", 7, RepayWay::InterestDaily)).unwrap();
    assert_eq!(schedule.instalments.len(), 7);
    for (day, instalment) in schedule.instalments.iter().enumerate() {
        let day = day as i64 + 1;
        assert_eq!(instalment.due_time, START + day * DAY_MS);
        assert_eq!(instalment.interest, dec("0.5"));
    }
    assert_eq!(schedule.instalments[5].amount, dec("0.5"));
    assert_eq!(schedule.instalments[6].amount, dec("1000.5"));
    assert_eq!(schedule.total_interest, dec("3.5"));
}

#[test]
fn interest_is_rounded_down_to_the_coin_scale() {
    let mut loan = terms("0.12345678", "0.00033333", 7, RepayWay::InterestDaily);
    let schedule = loan_schedule(&loan).unwrap();
    // 0.12345678 × 0.00033333 = 0.0000411515...: 0.00004115 a day.
    assert_eq!(schedule.instalments[0].interest, dec("0.00004115"));
    loan.scale = 2;
    loan.principal = dec("100.01");
    let schedule = loan_schedule(&loan).unwrap();
    assert_eq!(schedule.instalments[0].interest, dec("0.03"));
}

#[test]
fn equal_instalments_are_an_annuity_with_the_rest_last() {
    let schedule = loan_schedule(&terms("1200", "0.001", 90, RepayWay::EqualInstalments)).unwrap();
    let amounts: Vec<Decimal> = schedule.instalments.iter().map(|i| i.amount).collect();
    // 1200 × 0.03 × 1.03³ / (1.03³ − 1) = 424.2363...: rounded up to 424.23643599.
    assert_eq!(amounts[0], dec("424.23643599"));
    assert_eq!(amounts[1], dec("424.23643599"));
    assert!(amounts[2] <= amounts[0]);
    assert_eq!(schedule.instalments[0].interest, dec("36"));
    let principal: Decimal = schedule.instalments.iter().map(|i| i.principal).sum();
    assert_eq!(principal, dec("1200"));
    assert_eq!(schedule.instalments[2].outstanding, Decimal::ZERO);
    assert_eq!(schedule.instalments[2].due_time, START + 90 * DAY_MS);
    assert_eq!(schedule.total_repay, dec("1200") + schedule.total_interest);
}

#[test]
fn equal_instalments_without_interest_split_the_principal() {
    let schedule = loan_schedule(&terms("1000", "0", 90, RepayWay::EqualInstalments)).unwrap();
    let amounts: Vec<String> = schedule
        .instalments
        .iter()
        .map(|i| i.amount.to_string())
        .collect();
    assert_eq!(amounts, ["333.33333334", "333.33333334", "333.33333332"]);
}

#[test]
fn early_repayment_charges_the_days_begun() {
    let loan = terms("1000", "0.0005", 30, RepayWay::Maturity);
    let first_moment = early_repayment(&loan, START).unwrap();
    assert_eq!(
        (first_moment.interest, first_moment.amount),
        (dec("0.5"), dec("1000.5"))
    );
    let later = early_repayment(&loan, START + 10 * DAY_MS + 1).unwrap();
    assert_eq!(later.paid_instalments, 0);
    assert_eq!(
        (
            later.principal,
            later.interest,
            later.amount,
            later.interest_saved
        ),
        (dec("1000"), dec("5.5"), dec("1005.5"), dec("9.5"))
    );
    let whole_days = early_repayment(&loan, START + 10 * DAY_MS).unwrap();
    assert_eq!(whole_days.interest, dec("5"));
}

#[test]
fn early_repayment_counts_instalments_already_due_as_paid() {
    let daily = terms("1000", "0.0005", 7, RepayWay::InterestDaily);
    let early = early_repayment(&daily, START + 3 * DAY_MS + 3_600_000).unwrap();
    assert_eq!(early.paid_instalments, 3);
    assert_eq!(
        (
            early.principal,
            early.interest,
            early.amount,
            early.interest_saved
        ),
        (dec("1000"), dec("0.5"), dec("1000.5"), dec("1.5"))
    );
    let annuity = terms("1200", "0.001", 90, RepayWay::EqualInstalments);
    let schedule = loan_schedule(&annuity).unwrap();
    let early = early_repayment(&annuity, START + 45 * DAY_MS).unwrap();
    assert_eq!(early.paid_instalments, 1);
    assert_eq!(early.principal, schedule.instalments[0].outstanding);
    assert_eq!(
        early.interest,
        floor(early.principal * dec("0.001") * dec("15"), 8)
    );
}

#[test]
fn early_repayment_is_only_before_the_end() {
    let loan = terms("1000", "0.0005", 30, RepayWay::Maturity);
    for at in [START - 1, START + 30 * DAY_MS, START + 31 * DAY_MS] {
        assert_eq!(
            early_repayment(&loan, at).unwrap_err().code(),
            "integer_out_of_range",
            "{at}"
        );
    }
}

#[test]
fn the_penalty_starts_after_the_grace_days() {
    let input = |at_time| OverdueInput {
        amount: dec("1015"),
        penalty_day_rate: dec("0.001"),
        grace_days: 3,
        due_time: START,
        at_time,
        scale: 8,
    };
    let not_due = overdue_penalty(&input(START)).unwrap();
    assert_eq!((not_due.days_overdue, not_due.penalty), (0, Decimal::ZERO));
    let in_grace = overdue_penalty(&input(START + 3 * DAY_MS)).unwrap();
    assert_eq!((in_grace.days_overdue, in_grace.penalty_days), (3, 0));
    assert_eq!(in_grace.amount_due, dec("1015"));
    let late = overdue_penalty(&input(START + 5 * DAY_MS + 1)).unwrap();
    assert_eq!(
        (
            late.days_overdue,
            late.penalty_days,
            late.penalty,
            late.amount_due
        ),
        (6, 3, dec("3.045"), dec("1018.045"))
    );
}

#[test]
fn bad_terms_are_refused() {
    let code = |loan: LoanTerms| loan_schedule(&loan).unwrap_err().code();
    assert_eq!(
        code(terms("0", "0.001", 30, RepayWay::Maturity)),
        "not_positive"
    );
    assert_eq!(
        code(terms("-1", "0.001", 30, RepayWay::Maturity)),
        "not_positive"
    );
    assert_eq!(
        code(terms("1.000000001", "0.001", 30, RepayWay::Maturity)),
        "invalid_argument"
    );
    assert_eq!(
        code(terms("1", "1", 30, RepayWay::Maturity)),
        "fee_rate_out_of_range"
    );
    assert_eq!(
        code(terms("1", "-0.1", 30, RepayWay::Maturity)),
        "fee_rate_out_of_range"
    );
    assert_eq!(
        code(terms("1", "0.001", 0, RepayWay::Maturity)),
        "integer_out_of_range"
    );
    assert_eq!(
        code(terms("1", "0.001", 366, RepayWay::Maturity)),
        "integer_out_of_range"
    );
    assert_eq!(
        code(terms("1", "0.001", 45, RepayWay::EqualInstalments)),
        "invalid_argument"
    );
    let mut loan = terms("1", "0.001", 30, RepayWay::Maturity);
    loan.scale = 19;
    assert_eq!(code(loan), "integer_out_of_range");
    // Trailing zeros beyond the scale are the same number.
    assert!(loan_schedule(&terms("1.0000000000", "0.001", 30, RepayWay::Maturity)).is_ok());
}

#[test]
fn repay_ways_read_their_dictionary_values() {
    for way in [
        RepayWay::Maturity,
        RepayWay::InterestDaily,
        RepayWay::EqualInstalments,
    ] {
        assert_eq!(way.as_str().parse::<RepayWay>(), Ok(way));
    }
    assert_eq!(
        "weekly".parse::<RepayWay>(),
        Err(CoreError::InvalidArgument { name: "repayWay" })
    );
}

fn any_terms() -> impl Strategy<Value = LoanTerms> {
    (
        1u64..=1_000_000_000_000,
        0u32..=100_000,
        prop_oneof![
            (1u32..=365).prop_map(|c| (c, RepayWay::Maturity)),
            (1u32..=60).prop_map(|c| (c, RepayWay::InterestDaily)),
            (1u32..=12).prop_map(|n| (n * 30, RepayWay::EqualInstalments)),
        ],
    )
        .prop_map(|(units, rate_units, (cycle_days, repay_way))| LoanTerms {
            principal: Decimal::new(units as i64, 6),
            day_rate: Decimal::new(i64::from(rate_units), 7),
            cycle_days,
            repay_way,
            start_time: START,
            scale: 8,
        })
}

proptest! {
    #[test]
    fn a_schedule_repays_exactly_the_principal(loan in any_terms()) {
        let schedule = loan_schedule(&loan).unwrap();
        let principal: Decimal = schedule.instalments.iter().map(|i| i.principal).sum();
        prop_assert_eq!(principal, loan.principal);
        prop_assert_eq!(schedule.total_repay, loan.principal + schedule.total_interest);
        prop_assert_eq!(schedule.instalments.last().unwrap().outstanding, Decimal::ZERO);
        let mut outstanding = loan.principal;
        for instalment in &schedule.instalments {
            prop_assert!(instalment.principal >= Decimal::ZERO);
            prop_assert!(instalment.interest >= Decimal::ZERO);
            prop_assert!(instalment.interest.scale() <= 8);
            prop_assert_eq!(instalment.outstanding, outstanding - instalment.principal);
            outstanding = instalment.outstanding;
        }
        if loan.repay_way == RepayWay::EqualInstalments {
            let first = schedule.instalments[0].amount;
            for instalment in &schedule.instalments {
                prop_assert!(instalment.amount <= first);
            }
        }
    }

    #[test]
    fn repaying_early_never_costs_more_than_keeping_the_loan(
        loan in any_terms(),
        offset in 0i64..365 * DAY_MS,
    ) {
        let schedule = loan_schedule(&loan).unwrap();
        let at = START + offset % (schedule.end_time - START);
        let early = early_repayment(&loan, at).unwrap();
        let remaining: Decimal = schedule
            .instalments
            .iter()
            .filter(|i| i.due_time > at)
            .map(|i| i.amount)
            .sum();
        prop_assert!(early.amount <= remaining, "{} > {}", early.amount, remaining);
        prop_assert_eq!(early.amount, early.principal + early.interest);
    }
}
