//! The credit score: a documented, explainable model that replaces the constant 100 of old. It
//! gates products (each has a minimum score) and amounts (see [`amount_limit`]); the user sees
//! the score with every factor's points (`GET /api/loan/credit`).
//!
//! The model (all factors add to a base of [`BASE`]; the score is kept within 0 to [`MAX`]):
//!
//! | factor            | points                                                        |
//! |-------------------|---------------------------------------------------------------|
//! | `base`            | 50                                                            |
//! | `kyc_level`       | +10 for basic identity, +25 for advanced                      |
//! | `account_age`     | +1 per 30 days since registration, at most +15                |
//! | `on_time`         | +2 per instalment paid by its due time, at most +30           |
//! | `settled_loans`   | +5 per loan repaid in full, at most +20                       |
//! | `overdue_days`    | −3 per day begun that an instalment was (or is) overdue, at most −90 |
//! | `overdue_now`     | −30 while any loan is overdue                                  |
//!
//! The stored `user.credit_score` (the `creditScore` of `getInfo`) is the score as last computed:
//! on every application, review, repayment, sweep change and credit call.

use rust_decimal::{Decimal, RoundingStrategy};
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, sea_query::Expr};

use super::{LoanStatus, PAID};
use crate::clock::DAY_MS;
use crate::entity::{loan, loan_instalment, user};
use crate::refusal::Refusal;

/// Every score starts here.
pub const BASE: i32 = 50;
/// The highest score.
pub const MAX: i32 = 150;
/// The score at and above which a product's whole maximum amount may be borrowed.
pub const FULL_LIMIT_SCORE: i32 = 100;

/// What the score is computed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Facts {
    /// 0 none, 1 basic, 2 advanced.
    pub kyc_level: i32,
    /// Whole days since registration.
    pub account_age_days: i64,
    /// Instalments paid by their due time.
    pub on_time_instalments: i64,
    /// Loans repaid in full.
    pub settled_loans: i64,
    /// Days begun that instalments were or are overdue, summed.
    pub overdue_days: i64,
    /// Whether a loan is overdue now.
    pub overdue_now: bool,
}

/// One factor's part of the score.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Factor {
    /// The factor (`base`, `kyc_level`, `account_age`, `on_time`, `settled_loans`,
    /// `overdue_days`, `overdue_now`).
    pub key: &'static str,
    /// The fact it reads (a level, days, a count, 0 or 1).
    pub value: i64,
    /// Its points (negative for a penalty).
    pub points: i32,
}

/// A score and how it was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Score {
    /// The sum of the points, within 0 and [`MAX`].
    pub score: i32,
    /// Every factor, in the table's order.
    pub factors: Vec<Factor>,
}

fn capped(count: i64, each: i32, cap: i32) -> i32 {
    let points = count.saturating_mul(i64::from(each));
    if cap >= 0 {
        points.clamp(0, i64::from(cap)) as i32
    } else {
        points.clamp(i64::from(cap), 0) as i32
    }
}

/// The score of `facts` (the model of the module documentation).
pub fn score(facts: &Facts) -> Score {
    let factors = vec![
        Factor {
            key: "base",
            value: 0,
            points: BASE,
        },
        Factor {
            key: "kyc_level",
            value: i64::from(facts.kyc_level),
            points: match facts.kyc_level {
                2.. => 25,
                1 => 10,
                _ => 0,
            },
        },
        Factor {
            key: "account_age",
            value: facts.account_age_days,
            points: capped(facts.account_age_days / 30, 1, 15),
        },
        Factor {
            key: "on_time",
            value: facts.on_time_instalments,
            points: capped(facts.on_time_instalments, 2, 30),
        },
        Factor {
            key: "settled_loans",
            value: facts.settled_loans,
            points: capped(facts.settled_loans, 5, 20),
        },
        Factor {
            key: "overdue_days",
            value: facts.overdue_days,
            points: capped(facts.overdue_days, -3, -90),
        },
        Factor {
            key: "overdue_now",
            value: i64::from(facts.overdue_now),
            points: if facts.overdue_now { -30 } else { 0 },
        },
    ];
    Score {
        score: factors.iter().map(|f| f.points).sum::<i32>().clamp(0, MAX),
        factors,
    }
}

/// The most of a product whose maximum is `max_amount` that a score allows:
/// `max_amount × min(score, 100) / 100`, rounded down to `scale` decimals.
pub fn amount_limit(max_amount: Decimal, score: i32, scale: u32) -> Decimal {
    let share = Decimal::from(score.clamp(0, FULL_LIMIT_SCORE)) / Decimal::from(FULL_LIMIT_SCORE);
    (max_amount * share)
        .round_dp_with_strategy(scale, RoundingStrategy::ToZero)
        .normalize()
}

/// Days begun in `ms` (0 for none).
fn days_begun(ms: i64) -> i64 {
    if ms <= 0 {
        0
    } else {
        (ms + DAY_MS - 1) / DAY_MS
    }
}

/// The facts of `owner` at `now` (the injectable clock's time), from their loans and instalments.
pub async fn facts(
    db: &impl ConnectionTrait,
    owner: &user::Model,
    now: i64,
) -> Result<Facts, Refusal> {
    let loans = loan::Entity::find()
        .filter(loan::Column::UserId.eq(owner.id))
        .all(db)
        .await?;
    let ids: Vec<i64> = loans.iter().map(|l| l.id).collect();
    let instalments = if ids.is_empty() {
        Vec::new()
    } else {
        loan_instalment::Entity::find()
            .filter(loan_instalment::Column::LoanId.is_in(ids))
            .all(db)
            .await?
    };
    let mut facts = Facts {
        kyc_level: owner.kyc_level,
        account_age_days: (now - owner.created_at).max(0) / DAY_MS,
        settled_loans: loans
            .iter()
            .filter(|l| l.status == LoanStatus::Settled.as_str())
            .count() as i64,
        overdue_now: loans
            .iter()
            .any(|l| l.status == LoanStatus::Overdue.as_str()),
        ..Facts::default()
    };
    for row in &instalments {
        match (row.status == PAID, row.paid_at) {
            (true, Some(paid_at)) if paid_at <= row.due_time => facts.on_time_instalments += 1,
            (true, Some(paid_at)) => facts.overdue_days += days_begun(paid_at - row.due_time),
            (false, _) => facts.overdue_days += days_begun(now - row.due_time),
            _ => {}
        }
    }
    Ok(facts)
}

/// `owner`'s score at `now`, stored as their `credit_score`.
pub async fn refresh(
    db: &impl ConnectionTrait,
    owner: &user::Model,
    now: i64,
) -> Result<Score, Refusal> {
    let scored = score(&facts(db, owner, now).await?);
    if scored.score != owner.credit_score {
        user::Entity::update_many()
            .col_expr(user::Column::CreditScore, Expr::value(scored.score))
            .filter(user::Column::Id.eq(owner.id))
            .exec(db)
            .await?;
    }
    Ok(scored)
}

/// User `user_id`'s score at `now`, stored (see [`refresh`]).
pub async fn refresh_by_id(
    db: &impl ConnectionTrait,
    user_id: i64,
    now: i64,
) -> Result<Score, Refusal> {
    let owner = user::Entity::find_by_id(user_id)
        .one(db)
        .await?
        .ok_or_else(|| Refusal::not_found(crate::i18n::Msg::NotFound))?;
    refresh(db, &owner, now).await
}

#[cfg(test)]
mod tests {
    use rust_decimal_macros::dec;

    use super::*;

    #[test]
    fn a_new_account_scores_the_base_and_each_factor_is_capped() {
        assert_eq!(score(&Facts::default()).score, BASE);
        let best = Facts {
            kyc_level: 2,
            account_age_days: 10_000,
            on_time_instalments: 1_000,
            settled_loans: 1_000,
            ..Facts::default()
        };
        assert_eq!(score(&best).score, 50 + 25 + 15 + 30 + 20);
        let worst = Facts {
            overdue_days: 1_000,
            overdue_now: true,
            ..Facts::default()
        };
        assert_eq!(score(&worst).score, 0);
        let some = Facts {
            kyc_level: 1,
            account_age_days: 65,
            on_time_instalments: 3,
            overdue_days: 2,
            ..Facts::default()
        };
        let scored = score(&some);
        assert_eq!(scored.score, 50 + 10 + 2 + 6 - 6);
        assert_eq!(
            scored.factors.iter().map(|f| f.key).collect::<Vec<_>>(),
            [
                "base",
                "kyc_level",
                "account_age",
                "on_time",
                "settled_loans",
                "overdue_days",
                "overdue_now"
            ]
        );
    }

    #[test]
    fn the_amount_limit_grows_with_the_score_up_to_the_maximum() {
        assert_eq!(amount_limit(dec!(1000), 50, 2), dec!(500));
        assert_eq!(amount_limit(dec!(1000), 100, 2), dec!(1000));
        assert_eq!(amount_limit(dec!(1000), 140, 2), dec!(1000));
        assert_eq!(amount_limit(dec!(10), 33, 0), dec!(3));
        assert_eq!(amount_limit(dec!(10), 0, 0), dec!(0));
    }
}
