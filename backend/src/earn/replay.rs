//! `backend earn-replay`: every stored payout recomputed from its position's terms and the rate
//! version the position was sold at, with wasm-core's schedule, and every closed position's return
//! checked; any difference is listed (the command then exits with status 1).

use rust_decimal::Decimal;
use sea_orm::{
    ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
};

use super::terms::{self, decimal};
use crate::entity::{earn_payout, earn_position, earn_rate_version};

/// Positions read per statement.
const PAGE: u64 = 10_000;

/// A stored figure that the rule does not reproduce.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The position.
    pub position_id: i64,
    /// What differs.
    pub problem: String,
}

/// Recomputes every position's payouts and return; empty when every stored figure is reproduced.
pub async fn replay(db: &impl ConnectionTrait) -> Result<Vec<Mismatch>, DbErr> {
    let versions: std::collections::HashMap<i64, earn_rate_version::Model> =
        earn_rate_version::Entity::find()
            .all(db)
            .await?
            .into_iter()
            .map(|v| (v.id, v))
            .collect();
    let mut mismatches = Vec::new();
    let mut after = 0;
    loop {
        let positions = earn_position::Entity::find()
            .filter(earn_position::Column::Id.gt(after))
            .order_by_asc(earn_position::Column::Id)
            .limit(PAGE)
            .all(db)
            .await?;
        let Some(last) = positions.last() else {
            return Ok(mismatches);
        };
        after = last.id;
        let ids: Vec<i64> = positions.iter().map(|p| p.id).collect();
        let mut payouts: std::collections::HashMap<i64, Vec<earn_payout::Model>> =
            std::collections::HashMap::new();
        for payout in earn_payout::Entity::find()
            .filter(earn_payout::Column::PositionId.is_in(ids))
            .order_by_asc(earn_payout::Column::PositionId)
            .order_by_asc(earn_payout::Column::Day)
            .all(db)
            .await?
        {
            payouts.entry(payout.position_id).or_default().push(payout);
        }
        for position in positions {
            let paid = payouts.remove(&position.id).unwrap_or_default();
            check(&position, &versions, &paid, &mut mismatches);
        }
    }
}

fn check(
    position: &earn_position::Model,
    versions: &std::collections::HashMap<i64, earn_rate_version::Model>,
    paid: &[earn_payout::Model],
    mismatches: &mut Vec<Mismatch>,
) {
    let mut problem = |text: String| {
        mismatches.push(Mismatch {
            position_id: position.id,
            problem: text,
        })
    };
    match versions.get(&position.rate_version_id) {
        Some(version)
            if decimal(&version.rate) == decimal(&position.rate)
                && version.rate_basis == position.rate_basis => {}
        _ => problem(format!(
            "its rate {} {} is not its rate version {}",
            position.rate, position.rate_basis, position.rate_version_id
        )),
    }
    let terms = terms::of_position(position);
    if paid.len() != position.paid_days as usize {
        problem(format!(
            "{} days paid, {} payout rows",
            position.paid_days,
            paid.len()
        ));
    }
    let mut before = Decimal::ZERO;
    for (index, payout) in paid.iter().enumerate() {
        let day = index as u32 + 1;
        let Ok(total) = terms::paid_through(&terms, day) else {
            problem(format!("day {day} cannot be computed"));
            return;
        };
        let expected = total - before;
        before = total;
        if payout.day != i64::from(day)
            || decimal(&payout.reward) != expected
            || payout.pay_date != position.value_date + i64::from(day) * crate::clock::DAY_MS
        {
            problem(format!(
                "day {}: {} paid on {}, the rule gives {} on day {day}",
                payout.day, payout.reward, payout.pay_date, expected
            ));
        }
    }
    let principal = decimal(&position.principal);
    let returned = position.returned.as_deref().map(decimal);
    match position.status.as_str() {
        "completed" if returned != Some(principal) => {
            problem(format!("completed returning {returned:?}, not {principal}"))
        }
        "redeemed" => {
            let deduction = if terms.keep_rewards_on_early_redemption {
                Decimal::ZERO
            } else {
                before.min(principal)
            };
            if returned != Some(principal - deduction)
                || position.deduction.as_deref().map(decimal) != Some(deduction)
            {
                problem(format!(
                    "redeemed returning {returned:?} less {:?}, the rule gives {} less {deduction}",
                    position.deduction,
                    principal - deduction
                ));
            }
        }
        _ => {}
    }
}
