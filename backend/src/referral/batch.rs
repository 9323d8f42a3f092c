//! The hourly rebate batch. It reads the fills stored since its cursors — spot trades
//! (`spot_trade`, each with both sides' fees) and futures fills (the `futures_fill` journal entries,
//! whose fee is what they post to the fees account and the security fund) — up to the start of the
//! current hour, so a run in the first minutes of an hour pays the hour before. For each fill,
//! payer and generation it records one `referral_rebate` row (the rate used and the amount, or why
//! it was withheld), and it pays all of them in ONE journal entry from the fee income account to
//! each ancestor's funding bucket (one line per ancestor and coin); the rows, the entry and the
//! advanced cursors commit together, so a run that fails leaves nothing and the next one starts
//! where the last commit ended. The order path is untouched: trading never waits for a rebate.
//!
//! Runs once per cluster: an instance runs it only while it holds the lease on the job's row
//! (`crate::lease`); the cursors advance by a compare-and-swap, and a fill, payer and generation is
//! unique, so even two runs at once pay each rebate once. Fills are taken only when they are older
//! than the start of the current hour (and at least [`SETTLE_MS`] old), by which time every fill
//! with a smaller id has committed too, so a cursor never passes a fill not yet visible.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use rust_decimal::Decimal;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection, DbErr, EntityTrait,
    QueryFilter, QueryOrder, QuerySelect, TransactionTrait, sea_query::Expr,
};
use tokio::sync::watch;

use super::qualify::{Qualifier, Rules};
use super::rates::split;
use crate::clock::Clock;
use crate::config::ReferralConfig;
use crate::entity::{
    coin, journal_entry, journal_posting, ledger_account, referral_agent, referral_ancestor,
    referral_job, referral_rebate, spot_trade,
};
use crate::funds::bill_detail;
use crate::funds::ledger::{self, AccountRef, House, LedgerError, NewEntry, Posting};
use crate::lease::Lease;
use crate::refusal::Refusal;

/// One hour in milliseconds: the batch's period.
pub const HOUR_MS: i64 = 3_600_000;
/// A fill is taken only this long after it happened (its transaction has long committed).
pub const SETTLE_MS: i64 = 60_000;
/// The entry kind of a batch's payment.
pub const REBATE_KIND: &str = "referral_rebate";
/// Fills of each kind read per chunk (a run takes as many chunks as it needs to catch up).
const FILLS_PER_CHUNK: u64 = 2_000;
/// The job's name in `job_lease`.
pub const JOB: &str = "referral_rebates";
/// How long a lease holds without renewal.
pub const LEASE_MS: i64 = 5 * 60_000;
/// Attempts of a chunk that keeps losing a balance's compare-and-swap to trading.
const MAX_ATTEMPTS: u32 = 20;

/// What a batch needs to know.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Generation rates when the ancestor is no agent.
    pub rates: [Decimal; 3],
    /// The security fund's percent of every fee.
    pub security_percent: Decimal,
    /// The qualification rules in force.
    pub rules: Rules,
}

impl Settings {
    /// The settings of `[referral]` with the platform's security fund percent.
    pub fn new(config: &ReferralConfig, security_percent: Decimal) -> Self {
        Self {
            rates: config.generation_rates,
            security_percent,
            rules: Rules {
                unverified: config.withhold_unverified,
                same_address: config.withhold_same_address,
            },
        }
    }
}

/// What a run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Fills read (spot trades and futures fills).
    pub fills: usize,
    /// Rebate rows paid.
    pub paid: usize,
    /// Rebate rows withheld.
    pub withheld: usize,
    /// The journal entries posted (one per chunk that paid anything).
    pub entries: Vec<i64>,
}

/// One fee a user paid on a fill.
#[derive(Debug, Clone)]
struct FeeEvent {
    source: &'static str,
    fill_id: i64,
    payer: i64,
    symbol: String,
    coin: String,
    fee: Decimal,
    time: i64,
}

fn dec(text: &str) -> Decimal {
    wasm_core::money::parse_decimal(text).unwrap_or_default()
}

/// The spot fees of the trades after `after` and before `cutoff`, and the last trade id read.
async fn spot_events(
    db: &impl ConnectionTrait,
    after: i64,
    cutoff: i64,
) -> Result<(Vec<FeeEvent>, i64, bool), DbErr> {
    let trades = spot_trade::Entity::find()
        .filter(spot_trade::Column::Id.gt(after))
        .filter(spot_trade::Column::CreatedAt.lt(cutoff))
        .order_by_asc(spot_trade::Column::Id)
        .limit(FILLS_PER_CHUNK)
        .all(db)
        .await?;
    let full = trades.len() as u64 == FILLS_PER_CHUNK;
    let last = trades.last().map_or(after, |t| t.id);
    if trades.is_empty() {
        return Ok((Vec::new(), last, false));
    }
    let pairs: HashMap<String, (String, String)> = coin::Entity::find()
        .all(db)
        .await?
        .into_iter()
        .map(|c| (c.symbol, (c.coin, c.base_coin)))
        .collect();
    let mut events = Vec::new();
    for trade in trades {
        let Some((base, quote)) = pairs.get(&trade.symbol) else {
            continue;
        };
        // Each side pays its fee in the asset it receives.
        let (taker_coin, maker_coin) = if trade.taker_side == "buy" {
            (base, quote)
        } else {
            (quote, base)
        };
        for (payer, coin, fee) in [
            (trade.taker_user_id, taker_coin, &trade.taker_fee),
            (trade.maker_user_id, maker_coin, &trade.maker_fee),
        ] {
            if let Some(payer) = payer {
                events.push(FeeEvent {
                    source: "spot",
                    fill_id: trade.id,
                    payer,
                    symbol: trade.symbol.clone(),
                    coin: coin.clone(),
                    fee: dec(fee),
                    time: trade.created_at,
                });
            }
        }
    }
    Ok((events, last, full))
}

/// The futures fees of the `futures_fill` entries after `after` and before `cutoff`.
async fn futures_events(
    db: &impl ConnectionTrait,
    after: i64,
    cutoff: i64,
) -> Result<(Vec<FeeEvent>, i64, bool), DbErr> {
    let fills = journal_entry::Entity::find()
        .filter(journal_entry::Column::Kind.eq("futures_fill"))
        .filter(journal_entry::Column::Id.gt(after))
        .filter(journal_entry::Column::CreatedAt.lt(cutoff))
        .order_by_asc(journal_entry::Column::Id)
        .limit(FILLS_PER_CHUNK)
        .all(db)
        .await?;
    let full = fills.len() as u64 == FILLS_PER_CHUNK;
    let last = fills.last().map_or(after, |e| e.id);
    if fills.is_empty() {
        return Ok((Vec::new(), last, false));
    }
    let house: Vec<i64> = ledger_account::Entity::find()
        .select_only()
        .column(ledger_account::Column::Id)
        .filter(ledger_account::Column::Owner.eq("house"))
        .filter(
            ledger_account::Column::Bucket
                .is_in([House::Fees.as_str(), House::SecurityFund.as_str()]),
        )
        .into_tuple()
        .all(db)
        .await?;
    let postings = journal_posting::Entity::find()
        .filter(journal_posting::Column::EntryId.is_in(fills.iter().map(|e| e.id)))
        .filter(journal_posting::Column::AccountId.is_in(house))
        .all(db)
        .await?;
    let mut fees: HashMap<i64, (String, Decimal)> = HashMap::new();
    for posting in postings {
        let fee = fees
            .entry(posting.entry_id)
            .or_insert_with(|| (posting.asset.clone(), Decimal::ZERO));
        fee.1 += dec(&posting.amount);
    }
    Ok((
        fills
            .into_iter()
            .filter_map(|entry| {
                let payer = entry.user_id?;
                let (coin, fee) = fees
                    .remove(&entry.id)
                    .unwrap_or_else(|| ("usdt".to_owned(), Decimal::ZERO));
                Some(FeeEvent {
                    source: "futures",
                    fill_id: entry.id,
                    payer,
                    symbol: entry.memo.split(' ').next().unwrap_or_default().to_owned(),
                    coin,
                    fee,
                    time: entry.created_at,
                })
            })
            .collect(),
        last,
        full,
    ))
}

/// The rows and payments of one chunk.
#[derive(Default)]
struct Chunk {
    /// Each row, and whether it is paid (a withheld row gets no entry).
    rows: Vec<(referral_rebate::ActiveModel, bool)>,
    paid: BTreeMap<(i64, String), Decimal>,
    withheld: usize,
}

/// What the batch remembers while it computes a chunk.
#[derive(Default)]
struct Lookups {
    ancestors: HashMap<i64, Vec<(i32, i64)>>,
    agents: HashMap<i64, Option<[Decimal; 3]>>,
    merchants: HashMap<i64, Option<Decimal>>,
    qualifier: Qualifier,
}

impl Lookups {
    async fn ancestors(
        &mut self,
        db: &impl ConnectionTrait,
        user_id: i64,
    ) -> Result<Vec<(i32, i64)>, DbErr> {
        if let Some(found) = self.ancestors.get(&user_id) {
            return Ok(found.clone());
        }
        let found: Vec<(i32, i64)> = referral_ancestor::Entity::find()
            .filter(referral_ancestor::Column::UserId.eq(user_id))
            .order_by_asc(referral_ancestor::Column::Generation)
            .all(db)
            .await?
            .into_iter()
            .map(|a| (a.generation, a.ancestor_id))
            .collect();
        self.ancestors.insert(user_id, found.clone());
        Ok(found)
    }

    async fn agent_rates(
        &mut self,
        db: &impl ConnectionTrait,
        user_id: i64,
    ) -> Result<Option<[Decimal; 3]>, DbErr> {
        if let Some(found) = self.agents.get(&user_id) {
            return Ok(*found);
        }
        let found = referral_agent::Entity::find_by_id(user_id)
            .one(db)
            .await?
            .map(|a| [dec(&a.gen1_rate), dec(&a.gen2_rate), dec(&a.gen3_rate)]);
        self.agents.insert(user_id, found);
        Ok(found)
    }

    async fn merchant_rate(
        &mut self,
        db: &impl ConnectionTrait,
        user_id: i64,
    ) -> Result<Option<Decimal>, DbErr> {
        if let Some(found) = self.merchants.get(&user_id) {
            return Ok(*found);
        }
        let found = crate::merchants::service::rate_of(db, user_id).await?;
        self.merchants.insert(user_id, found);
        Ok(found)
    }
}

async fn compute(
    db: &impl ConnectionTrait,
    settings: &Settings,
    lookups: &mut Lookups,
    events: &[FeeEvent],
    now: i64,
) -> Result<Chunk, DbErr> {
    let mut chunk = Chunk::default();
    for event in events {
        let ancestors = lookups.ancestors(db, event.payer).await?;
        if ancestors.is_empty() {
            continue;
        }
        let mut rates = Vec::with_capacity(ancestors.len());
        for (generation, ancestor) in &ancestors {
            let index = (*generation - 1).clamp(0, 2) as usize;
            let rate = match lookups.agent_rates(db, *ancestor).await? {
                Some(own) => own[index],
                // A merchant's own rate replaces generation 1's where it is no agent.
                None if index == 0 => lookups
                    .merchant_rate(db, *ancestor)
                    .await?
                    .unwrap_or(settings.rates[0]),
                None => settings.rates[index],
            };
            rates.push(rate);
        }
        let shares = split(event.fee, settings.security_percent, &rates);
        for (((generation, ancestor), rate), amount) in
            ancestors.iter().zip(&rates).zip(&shares.amounts)
        {
            let withheld = lookups
                .qualifier
                .withheld(
                    db,
                    settings.rules,
                    event.payer,
                    *ancestor,
                    event.fee.is_zero(),
                )
                .await?;
            let amount = if withheld.is_some() {
                chunk.withheld += 1;
                Decimal::ZERO
            } else {
                *amount
            };
            if !amount.is_zero() {
                *chunk
                    .paid
                    .entry((*ancestor, event.coin.clone()))
                    .or_default() += amount;
            }
            chunk.rows.push((
                referral_rebate::ActiveModel {
                    source: Set(event.source.to_owned()),
                    fill_id: Set(event.fill_id),
                    payer_id: Set(event.payer),
                    beneficiary_id: Set(*ancestor),
                    generation: Set(*generation),
                    symbol: Set(event.symbol.chars().take(32).collect()),
                    coin: Set(event.coin.clone()),
                    fee: Set(event.fee.normalize().to_string()),
                    fee_after_fund: Set(shares.fee_after_fund.to_string()),
                    rate: Set(rate.normalize().to_string()),
                    amount: Set(amount.normalize().to_string()),
                    withheld_reason: Set(withheld.map(|w| w.as_str().to_owned())),
                    entry_id: Set(None),
                    fill_time: Set(event.time),
                    created_at: Set(now),
                    ..Default::default()
                },
                withheld.is_none(),
            ));
        }
    }
    Ok(chunk)
}

/// Pays the rebates of every fill before the start of `now`'s hour not paid yet, in chunks of at
/// most `FILLS_PER_CHUNK` fills of each kind, each chunk one entry. `now` is the clock's time.
pub async fn run_batch(
    db: &DatabaseConnection,
    settings: &Settings,
    now: i64,
) -> Result<Report, Refusal> {
    let cutoff = Ord::min(now - now.rem_euclid(HOUR_MS), now - SETTLE_MS);
    let mut report = Report::default();
    let mut lookups = Lookups::default();
    loop {
        let Some(job) = referral_job::Entity::find_by_id(1).one(db).await? else {
            return Err(Refusal::internal("the referral_job row is missing"));
        };
        let (spot, spot_to, spot_full) = spot_events(db, job.spot_cursor, cutoff).await?;
        let (futures, futures_to, futures_full) =
            futures_events(db, job.futures_cursor, cutoff).await?;
        if spot_to == job.spot_cursor && futures_to == job.futures_cursor {
            return Ok(report);
        }
        let events: Vec<FeeEvent> = spot.into_iter().chain(futures).collect();
        let chunk = compute(db, settings, &mut lookups, &events, now).await?;
        let Some(entry_id) =
            commit_chunk(db, &job, spot_to, futures_to, &chunk, cutoff, now).await?
        else {
            // Another run advanced the cursors first: it paid these fills.
            return Ok(report);
        };
        report.fills += events
            .iter()
            .map(|e| (e.source, e.fill_id))
            .collect::<std::collections::BTreeSet<_>>()
            .len();
        report.withheld += chunk.withheld;
        report.paid += chunk.rows.len() - chunk.withheld;
        report.entries.extend(entry_id);
        if !spot_full && !futures_full {
            return Ok(report);
        }
    }
}

/// How one attempt at committing a chunk ended.
enum Attempt {
    /// Committed, with the entry posted (if anything was paid).
    Committed(Option<i64>),
    /// Another run moved the cursors first: nothing was written.
    CursorsMoved,
    /// A balance's compare-and-swap lost to trading: rolled back, to try again.
    Yielded,
}

/// Most time the batch waits for a row lock on PostgreSQL before it gives up the attempt: trading
/// locks the fee income account for each of its batches, and a wait in the other order would be
/// a deadlock that PostgreSQL breaks only after a second, perhaps by aborting trading's batch.
/// The rebate batch yields instead and tries again.
const LOCK_WAIT: &str = "200ms";

/// One attempt at committing a chunk, in a transaction of its own (see [`commit_chunk`]).
async fn attempt_chunk(
    db: &DatabaseConnection,
    job: &referral_job::Model,
    spot_to: i64,
    futures_to: i64,
    chunk: &Chunk,
    entry: &NewEntry,
    now: i64,
) -> Result<Attempt, LedgerError> {
    let txn = db.begin().await?;
    crate::db::limit_lock_wait(&txn, LOCK_WAIT).await?;
    // The cursors first: the write that takes the database's lock, so what follows reads the
    // balances as they are now.
    let moved = referral_job::Entity::update_many()
        .col_expr(referral_job::Column::SpotCursor, Expr::value(spot_to))
        .col_expr(referral_job::Column::FuturesCursor, Expr::value(futures_to))
        .col_expr(referral_job::Column::LastRunAt, Expr::value(now))
        .filter(referral_job::Column::Id.eq(1))
        .filter(referral_job::Column::SpotCursor.eq(job.spot_cursor))
        .filter(referral_job::Column::FuturesCursor.eq(job.futures_cursor))
        .exec(&txn)
        .await?;
    if moved.rows_affected != 1 {
        return Ok(Attempt::CursorsMoved);
    }
    // The rows before the postings, which lock the fee income account (that every fill also
    // moves) until the commit: trading waits for the postings, not for thousands of rows.
    let entry_id = if entry.postings.is_empty() {
        crate::db::insert_in_chunks(&txn, rows_with(chunk, None)).await?;
        None
    } else {
        match ledger::post_within_with(&txn, entry, &write_rows(chunk)).await {
            Ok(posted) => Some(posted.entry_id),
            Err(LedgerError::LostRace) => return Ok(Attempt::Yielded),
            Err(error) => return Err(error),
        }
    };
    txn.commit().await?;
    Ok(Attempt::Committed(entry_id))
}

/// A chunk's rows, the paid ones carrying `entry_id`.
fn rows_with(chunk: &Chunk, entry_id: Option<i64>) -> Vec<referral_rebate::ActiveModel> {
    chunk
        .rows
        .iter()
        .cloned()
        .map(|(mut row, paid)| {
            if paid {
                row.entry_id = Set(entry_id);
            }
            row
        })
        .collect()
}

/// The [`ledger::Extra`] that writes a chunk's rows inside its entry's transaction.
fn write_rows(
    chunk: &Chunk,
) -> impl for<'t> Fn(&'t sea_orm::DatabaseTransaction, i64, &'t NewEntry) -> ledger::ExtraFuture<'t> + '_
{
    move |txn, entry_id, _| {
        let rows = rows_with(chunk, Some(entry_id));
        Box::pin(async move {
            crate::db::insert_in_chunks(txn, rows).await?;
            Ok(())
        })
    }
}

/// Commits one chunk: the cursors (compare-and-swap: `None` when another run moved them), the
/// entry and the rows. Gives the entry's id, if anything was paid.
async fn commit_chunk(
    db: &DatabaseConnection,
    job: &referral_job::Model,
    spot_to: i64,
    futures_to: i64,
    chunk: &Chunk,
    cutoff: i64,
    now: i64,
) -> Result<Option<Option<i64>>, Refusal> {
    let mut postings = Vec::new();
    for ((ancestor, coin), amount) in &chunk.paid {
        postings.extend(Posting::transfer(
            AccountRef::House(House::Fees),
            AccountRef::funding(*ancestor),
            coin,
            *amount,
        ));
    }
    let entry = NewEntry {
        kind: REBATE_KIND.to_owned(),
        reference: format!("referral_batch:{spot_to}:{futures_to}"),
        user_id: None,
        actor_id: None,
        memo: bill_detail::referral_rebate_memo(cutoff),
        postings,
    };
    for attempt in 0..MAX_ATTEMPTS {
        match attempt_chunk(db, job, spot_to, futures_to, chunk, &entry, now).await {
            Ok(Attempt::Committed(entry_id)) => return Ok(Some(entry_id)),
            Ok(Attempt::CursorsMoved) => return Ok(None),
            Ok(Attempt::Yielded) => {}
            Err(LedgerError::Db(error)) if crate::db::is_lock_wait_refused(&error) => {}
            Err(error) => return Err(Refusal::internal(error)),
        }
        tokio::time::sleep(Duration::from_millis(20 * u64::from(attempt + 1))).await;
    }
    Err(Refusal::internal("referral batch: too much contention"))
}

/// The background job every instance starts: every `every` (`[referral] batch_every_secs`, a
/// minute by default), if it holds `lease` (job [`JOB`], [`LEASE_MS`]), it runs the batch at the
/// clock's time; it stops on shutdown.
pub async fn run(
    db: DatabaseConnection,
    settings: Settings,
    every: Duration,
    clock: Clock,
    lease: Arc<dyn Lease>,
    mut shutdown: watch::Receiver<bool>,
) {
    let mut tick = tokio::time::interval(every);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = shutdown.changed() => return,
        }
        let now = clock.now_ms();
        match lease.acquire().await {
            Ok(true) => {
                if let Err(error) = run_batch(&db, &settings, now).await {
                    tracing::warn!(?error, "referral rebate batch failed; the next run retries");
                }
            }
            Ok(false) => {}
            Err(error) => tracing::warn!(%error, "referral lease"),
        }
    }
}
