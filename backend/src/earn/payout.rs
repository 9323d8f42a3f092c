//! The daily job: every accrual day due by now is paid, and every locked position whose last day
//! is paid gets its principal back.
//!
//! Positions are taken in id order, [`BATCH`] at a time (`status = in_progress` and
//! `next_pay_date <= now`, read `FOR UPDATE` on PostgreSQL), and each batch commits whole in one
//! transaction through the ledger's [`LedgerBatch`] (multi-row statements): per product, reward
//! asset and accrual day ONE `earn_income` entry — the house's `earn_rewards` account pays, one
//! posting per position on its owner's funding bucket —, per product and delivery day one
//! `earn_maturity` entry (earn → funding), one `earn_payout` row per position and day (unique:
//! a day is paid once; a second run of the same day finds nothing due), and the positions moved on
//! (`paid_days`, `next_pay_date`, `completed`). One entry per product and day rather than per
//! position keeps a million payouts at a million postings and one entry row per product, instead
//! of a million entry rows and a million more house postings; each user's bill still has its own
//! posting with its running balance, and `earn_payout` ties it to the position.
//!
//! A crash loses at most the batch in flight: nothing of it committed, and its positions are
//! still due. Days missed while no instance ran are all paid on the next run, each in its own
//! day's entry. Each batch first takes or renews the job's [`Lease`], so of several instances one
//! pays. Each position paid is announced on its owner's channel (`earnPayout`).

use std::collections::{BTreeMap, BTreeSet};

use rust_decimal::Decimal;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect, sea_query::OnConflict,
};

use super::terms::{self, decimal};
use crate::clock::DAY_MS;
use crate::db::{Writer, WriterTransaction};
use crate::entity::{earn_payout, earn_position};
use crate::funds::bill_detail;
use crate::funds::ledger::batch::{LedgerBatch, NewIds, Writes};
use crate::funds::ledger::{AccountRef, Bucket, House, NewEntry, Posting};
use crate::funds::reports::EARN_INCOME;
use crate::lease::Lease;
use crate::refusal::Refusal;
use crate::user::events::UserEvent;

/// The job's lease name.
pub const JOB: &str = "earn_daily";
/// Positions per batch (one transaction).
pub const BATCH: u64 = 5_000;
/// The kind of a maturity's entry.
pub const MATURITY_KIND: &str = "earn_maturity";

/// What a run did.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Run {
    /// Whether this instance held the lease (false: another instance runs the job).
    pub held_lease: bool,
    /// Batches committed.
    pub batches: usize,
    /// Positions paid.
    pub positions: usize,
    /// Accrual days paid (rows of `earn_payout`).
    pub payouts: usize,
    /// Positions that matured.
    pub matured: usize,
}

/// Pays what is due at `now` (see the module), `batch` positions per transaction, announcing each
/// position paid through `publish`.
pub async fn run_due(
    writer: &Writer,
    lease: &dyn Lease,
    now: i64,
    batch: u64,
    publish: &(dyn Fn(UserEvent) + Sync),
) -> Result<Run, Refusal> {
    let mut run = Run::default();
    let mut after = 0;
    loop {
        if !lease.acquire().await? {
            return Ok(run);
        }
        run.held_lease = true;
        let txn = writer.begin_immediate().await?;
        let due = txn
            .find(
                earn_position::Entity::find()
                    .filter(earn_position::Column::Status.eq("in_progress"))
                    .filter(earn_position::Column::NextPayDate.lte(now))
                    .filter(earn_position::Column::Id.gt(after))
                    .order_by_asc(earn_position::Column::Id)
                    .limit(batch)
                    .lock_exclusive(),
            )
            .await?;
        let Some(last) = due.last() else {
            return Ok(run);
        };
        after = last.id;
        let paid = pay(&txn, due, now).await?;
        txn.commit().await?;
        run.batches += 1;
        run.positions += paid.events.len();
        run.payouts += paid.payouts;
        run.matured += paid.matured;
        for event in paid.events {
            publish(event);
        }
    }
}

/// What one batch paid.
struct Paid {
    payouts: usize,
    matured: usize,
    events: Vec<UserEvent>,
}

/// One day's reward of one position.
struct Day {
    position: usize,
    day: i64,
    pay_date: i64,
    reward: Decimal,
    entry: Option<i64>,
}

/// An entry of the batch: the postings on users' accounts of one product, asset and day.
type Group = (i64, String, i64);

async fn pay(
    txn: &WriterTransaction<'_>,
    mut due: Vec<earn_position::Model>,
    now: i64,
) -> Result<Paid, Refusal> {
    let mut days = Vec::new();
    let mut incomes: BTreeMap<Group, Vec<(i64, Decimal)>> = BTreeMap::new();
    let mut maturities: BTreeMap<Group, Vec<(i64, Decimal)>> = BTreeMap::new();
    let mut matured = Vec::new();
    for (index, position) in due.iter_mut().enumerate() {
        let terms = terms::of_position(position);
        let mut day = position.paid_days as u32 + 1;
        let mut before = terms::paid_through(&terms, day - 1)?;
        loop {
            let pay_date = position.value_date + i64::from(day) * DAY_MS;
            if pay_date > now || (!position.flexible && day > position.lock_days as u32) {
                break;
            }
            let total = terms::paid_through(&terms, day)?;
            let reward = total - before;
            before = total;
            if !reward.is_zero() {
                incomes
                    .entry((
                        position.product_id,
                        position.reward_asset.clone(),
                        pay_date - DAY_MS,
                    ))
                    .or_default()
                    .push((position.user_id, reward));
            }
            days.push(Day {
                position: index,
                day: i64::from(day),
                pay_date,
                reward,
                entry: None,
            });
            day += 1;
        }
        let last = i64::from(day) - 1;
        position.paid_days = last;
        position.next_pay_date = position.value_date + (last + 1) * DAY_MS;
        if !position.flexible && last == position.lock_days {
            let delivery = position.next_pay_date;
            maturities
                .entry((position.product_id, position.asset.clone(), delivery))
                .or_default()
                .push((position.user_id, decimal(&position.principal)));
            position.status = "completed".to_owned();
            position.closed_at = Some(now);
            position.returned = Some(position.principal.clone());
            matured.push(index);
        }
    }

    let mut batch = LedgerBatch::new();
    let mut wanted: BTreeSet<(AccountRef, String)> = BTreeSet::new();
    for ((_, asset, _), paid) in &incomes {
        wanted.insert((AccountRef::House(House::EarnRewards), asset.clone()));
        for (user_id, _) in paid {
            wanted.insert((AccountRef::funding(*user_id), asset.clone()));
        }
    }
    for ((_, asset, _), back) in &maturities {
        for (user_id, _) in back {
            wanted.insert((AccountRef::funding(*user_id), asset.clone()));
            wanted.insert((earn_bucket(*user_id), asset.clone()));
        }
    }
    let wanted: Vec<(AccountRef, &str)> = wanted.iter().map(|(a, s)| (*a, s.as_str())).collect();
    batch.load(txn, &wanted).await?;

    let mut income_entries = BTreeMap::new();
    for ((product_id, asset, accrual_date), paid) in &incomes {
        let total: Decimal = paid.iter().map(|(_, reward)| *reward).sum();
        let mut postings = Vec::with_capacity(paid.len() + 1);
        postings.push(Posting {
            account: AccountRef::House(House::EarnRewards),
            asset: asset.clone(),
            amount: -total,
        });
        postings.extend(paid.iter().map(|(user_id, reward)| Posting {
            account: AccountRef::funding(*user_id),
            asset: asset.clone(),
            amount: *reward,
        }));
        let entry = NewEntry {
            kind: EARN_INCOME.into(),
            reference: format!("earn_product:{product_id}"),
            user_id: None,
            actor_id: None,
            memo: bill_detail::earn_income_memo(*product_id, *accrual_date),
            postings,
        };
        let index = batch.post(txn, &entry).await.map_err(Refusal::internal)?;
        income_entries.insert((*product_id, asset.clone(), *accrual_date), index.0);
    }
    let mut maturity_entries = BTreeMap::new();
    for ((product_id, asset, delivery), back) in &maturities {
        let postings = back
            .iter()
            .flat_map(|(user_id, principal)| {
                Posting::transfer(
                    earn_bucket(*user_id),
                    AccountRef::funding(*user_id),
                    asset,
                    *principal,
                )
            })
            .collect();
        let entry = NewEntry {
            kind: MATURITY_KIND.into(),
            reference: format!("earn_product:{product_id}"),
            user_id: None,
            actor_id: None,
            memo: bill_detail::earn_maturity_memo(*product_id),
            postings,
        };
        let index = batch.post(txn, &entry).await.map_err(Refusal::internal)?;
        maturity_entries.insert((*product_id, asset.clone(), *delivery), index.0);
    }

    let mut ids = NewIds::start(txn, &["journal_entry"]).await?;
    let entry_ids = ids.take(txn, "journal_entry", batch.len()).await?;
    for day in &mut days {
        let position = &due[day.position];
        if !day.reward.is_zero() {
            let key = (
                position.product_id,
                position.reward_asset.clone(),
                day.pay_date - DAY_MS,
            );
            day.entry = income_entries.get(&key).map(|index| entry_ids[*index]);
        }
    }
    for index in &matured {
        let position = &mut due[*index];
        let key = (
            position.product_id,
            position.asset.clone(),
            position.next_pay_date,
        );
        position.close_entry_id = maturity_entries.get(&key).map(|index| entry_ids[*index]);
    }

    let mut writes = Writes::new(txn.backend());
    batch.write(&entry_ids, &mut writes);
    let payouts = days.len();
    let mut paid_by_position: BTreeMap<usize, (Decimal, i64)> = BTreeMap::new();
    writes.insert(
        days.iter()
            .map(|day| {
                let position = &due[day.position];
                let paid = paid_by_position.entry(day.position).or_default();
                paid.0 += day.reward;
                paid.1 = day.day;
                earn_payout::ActiveModel {
                    position_id: Set(position.id),
                    user_id: Set(position.user_id),
                    product_id: Set(position.product_id),
                    day: Set(day.day),
                    pay_date: Set(day.pay_date),
                    asset: Set(position.reward_asset.clone()),
                    reward: Set(day.reward.normalize().to_string()),
                    entry_id: Set(day.entry),
                    created_at: Set(now),
                    ..Default::default()
                }
            })
            .collect(),
    );
    let events = paid_by_position
        .iter()
        .map(|(index, (reward, day))| {
            let position = &due[*index];
            UserEvent::new(
                position.user_id,
                "earnPayout",
                &serde_json::json!({
                    "positionId": position.id,
                    "productId": position.product_id,
                    "coin": position.reward_asset,
                    "reward": reward.normalize().to_string(),
                    "paidDays": day,
                    "status": position.status,
                }),
            )
        })
        .collect();
    let matured_count = matured.len();
    writes.upsert(
        due.into_iter()
            .map(|position| {
                let row: earn_position::ActiveModel = position.into();
                row.reset_all()
            })
            .collect(),
        OnConflict::column(earn_position::Column::Id)
            .update_columns([
                earn_position::Column::PaidDays,
                earn_position::Column::NextPayDate,
                earn_position::Column::Status,
                earn_position::Column::ClosedAt,
                earn_position::Column::CloseEntryId,
                earn_position::Column::Returned,
            ])
            .to_owned(),
    );
    writes.run(txn).await?;
    Ok(Paid {
        payouts,
        matured: matured_count,
        events,
    })
}

fn earn_bucket(user_id: i64) -> AccountRef {
    AccountRef::User {
        user_id,
        bucket: Bucket::Earn,
    }
}
