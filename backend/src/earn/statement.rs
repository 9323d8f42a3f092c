//! A position's statement: every line of its life on the ledger — the subscription, each accrual
//! day's reward (day, amount, rate version), the maturity or early redemption with its deduction —
//! in order, each with the journal entry that posted it and the running totals, so that at the
//! end `principal + rewards − deduction = cameBack` (what reached the funding account: every
//! reward and what the close returned).
//!
//! Lines are numbered from 0: the subscription, then day 1, 2, … (one `earn_payout` row each, a
//! zero reward included, with no entry), then the close once there is one; a page is a slice of
//! them. The rewards before a page are `paid_through` of the day before its first — the figure
//! the daily job posted and `backend earn-replay` checks against every stored row — so a page
//! costs one bounded query whatever the position's age.

use poem_openapi::{Enum, Object};
use rust_decimal::Decimal;
use sea_orm::{
    ColumnTrait, DatabaseConnection, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder,
    QuerySelect,
};
use serde::{Deserialize, Serialize};

use super::redeem::find_own;
use super::terms::{self, decimal};
use crate::clock::DAY_MS;
use crate::entity::earn_payout;
use crate::paging::Paging;
use crate::refusal::Refusal;

/// What a statement line records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize, Deserialize)]
#[oai(rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum LineKind {
    /// The principal moved from the funding to the earn account.
    Subscription,
    /// One accrual day's reward paid to the funding account.
    Reward,
    /// The principal returned at maturity.
    Maturity,
    /// An early redemption: the principal less the deduction returned.
    Redemption,
}

/// One line of a statement, with the totals through it.
#[derive(Debug, Clone, Object, Serialize, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct StatementLine {
    /// Its number in the statement, from 0 (the subscription).
    pub seq: u64,
    /// What it records.
    pub kind: LineKind,
    /// When it took effect, epoch ms: subscribed, the reward's pay date (00:00 UTC after its
    /// accrual day), closed.
    pub time: i64,
    /// A reward's accrual day, from 1.
    pub day: Option<i64>,
    /// A reward's accrual date (00:00 UTC of that day), epoch ms.
    pub accrual_date: Option<i64>,
    /// A reward's rate version (the one the position was sold at).
    pub rate_version_id: Option<i64>,
    /// The amount of the line: the principal subscribed, the reward, or what the close returned.
    pub amount: Decimal,
    /// Its asset.
    pub coin: String,
    /// What the close's rule deducted (redemption; zero otherwise).
    pub deduction: Decimal,
    /// The journal entry that posted it (absent for a zero reward, which posts nothing).
    pub entry_id: Option<i64>,
    /// Principal subscribed, through this line.
    pub principal_total: Decimal,
    /// Rewards paid, through this line.
    pub rewards_total: Decimal,
    /// Deducted, through this line.
    pub deduction_total: Decimal,
    /// What reached the funding account, through this line: rewards and what the close returned.
    pub came_back_total: Decimal,
}

/// A page of a position's statement.
#[derive(Debug, Clone, Object, Serialize, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct Statement {
    /// The position.
    pub position_id: i64,
    /// Its product.
    pub product_id: i64,
    /// The asset staked.
    pub coin: String,
    /// The asset rewards are paid in (when it differs from `coin`, the identity holds per asset).
    pub reward_coin: String,
    /// `in_progress`, `completed` or `redeemed`.
    pub status: String,
    /// The principal.
    pub principal: Decimal,
    /// Every reward paid so far.
    pub rewards: Decimal,
    /// What the close deducted (zero while open).
    pub deduction: Decimal,
    /// Everything that reached the funding account: every reward and what the close returned;
    /// once closed, `principal + rewards − deduction`.
    pub came_back: Decimal,
    /// Lines in the whole statement.
    pub total: u64,
    /// This page (from 1).
    pub page: u64,
    /// Page size.
    pub page_size: u64,
    /// The lines of this page, in order.
    pub lines: Vec<StatementLine>,
}

/// Page `paging` of the statement of position `id` of `user_id` (`earn_position_not_found` for
/// another's).
pub async fn statement(
    db: &DatabaseConnection,
    user_id: i64,
    id: i64,
    paging: Paging,
) -> Result<Statement, Refusal> {
    let position = find_own(db, user_id, id).await?;
    let terms = terms::of_position(&position);
    let principal = decimal(&position.principal);
    let rewards = terms::paid_through(&terms, position.paid_days as u32)?;
    let deduction = position
        .deduction
        .as_deref()
        .map(decimal)
        .unwrap_or_default();
    let returned = position.returned.as_deref().map(decimal);
    let close = position.close_entry_id.is_some() || returned.is_some();
    let days = earn_payout::Entity::find()
        .filter(earn_payout::Column::PositionId.eq(position.id))
        .count(db)
        .await?;
    let total = 1 + days + u64::from(close);

    let first = paging.offset();
    let last = (first + paging.page_size).min(total);
    let mut lines = Vec::new();
    if first < last {
        // Lines 1..=days are the days, in order.
        let first_day = first.max(1);
        let last_day = last.min(days + 1);
        let rows = if first_day < last_day {
            earn_payout::Entity::find()
                .filter(earn_payout::Column::PositionId.eq(position.id))
                .order_by_asc(earn_payout::Column::Day)
                .offset(first_day - 1)
                .limit(last_day - first_day)
                .all(db)
                .await?
        } else {
            Vec::new()
        };
        let before = if first == 0 {
            Decimal::ZERO
        } else {
            let day_before = rows.first().map_or(days as i64, |row| row.day - 1).max(0);
            terms::paid_through(&terms, day_before as u32)?
        };
        let mut running = Running {
            principal,
            rewards: before,
            deduction: Decimal::ZERO,
            came_back: before,
        };
        if first == 0 {
            lines.push(running.line(
                0,
                LineKind::Subscription,
                position.subscribed_at,
                principal,
                &position.asset,
                Some(position.subscribe_entry_id),
            ));
        }
        for (index, row) in rows.iter().enumerate() {
            let reward = decimal(&row.reward);
            running.rewards += reward;
            running.came_back += reward;
            let mut line = running.line(
                first_day + index as u64,
                LineKind::Reward,
                row.pay_date,
                reward,
                &row.asset,
                row.entry_id,
            );
            line.day = Some(row.day);
            line.accrual_date = Some(row.pay_date - DAY_MS);
            line.rate_version_id = Some(position.rate_version_id);
            lines.push(line);
        }
        if close && last == total {
            let returned = returned.unwrap_or_default();
            running.deduction = deduction;
            running.came_back += returned;
            let kind = if position.status == "redeemed" {
                LineKind::Redemption
            } else {
                LineKind::Maturity
            };
            let mut line = running.line(
                total - 1,
                kind,
                position.closed_at.unwrap_or_default(),
                returned,
                &position.asset,
                position.close_entry_id,
            );
            line.deduction = deduction;
            lines.push(line);
        }
    }
    Ok(Statement {
        position_id: position.id,
        product_id: position.product_id,
        coin: position.asset.clone(),
        reward_coin: position.reward_asset.clone(),
        status: position.status.clone(),
        principal,
        rewards,
        deduction,
        came_back: rewards + returned.unwrap_or_default(),
        total,
        page: paging.page,
        page_size: paging.page_size,
        lines,
    })
}

/// The totals through the line being written.
struct Running {
    principal: Decimal,
    rewards: Decimal,
    deduction: Decimal,
    came_back: Decimal,
}

impl Running {
    fn line(
        &self,
        seq: u64,
        kind: LineKind,
        time: i64,
        amount: Decimal,
        coin: &str,
        entry_id: Option<i64>,
    ) -> StatementLine {
        StatementLine {
            seq,
            kind,
            time,
            day: None,
            accrual_date: None,
            rate_version_id: None,
            amount: amount.normalize(),
            coin: coin.to_owned(),
            deduction: Decimal::ZERO,
            entry_id,
            principal_total: self.principal.normalize(),
            rewards_total: self.rewards.normalize(),
            deduction_total: self.deduction.normalize(),
            came_back_total: self.came_back.normalize(),
        }
    }
}
