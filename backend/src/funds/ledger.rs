//! The double-entry ledger (TigerBeetle's model over SQL).
//!
//! - An account is a user's bucket of one asset (`funding`, `trading`, `earn`, `frozen`,
//!   `futures_margin`) or a house account (`fees`, `security_fund`, `deposits_in_transit`,
//!   `withdrawals_in_transit`, `market_maker`, `seconds_book`, `futures_counterparty`,
//!   `earn_rewards`). Only the house accounts that face the outside world (deposits in transit,
//!   the market maker, the seconds book, the futures counterparty, earn rewards) may go below
//!   zero; every other balance never does.
//! - A journal entry is a set of postings whose amounts sum to zero per asset. Entries and postings
//!   are append-only; an account's balance is a cache of its postings, updated in the same
//!   transaction.
//! - Concurrency: the transaction writes its entry row first, which on SQLite takes the database's
//!   write lock at once (the effect of `BEGIN IMMEDIATE`); each balance is then changed by a
//!   compare-and-swap on the account's `version`, in a fixed account order, so on PostgreSQL two
//!   entries touching the same account serialise on its row and a lost race is retried. A posting
//!   that would take a balance below zero fails the whole entry: nothing is written.
//! - Business rows commit with their entry: [`post_once`] runs an [`Extra`] inside the entry's
//!   transaction (it may write rows, post more entries with [`post_within`], or refuse with a
//!   business error that rolls everything back), and [`run_once`] gives a call that posts nothing
//!   the same idempotency-key guarantee.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rust_decimal::Decimal;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection,
    DatabaseTransaction, DbErr, EntityTrait, QueryFilter, QueryOrder, TransactionTrait,
    sea_query::Expr,
};

use crate::entity::{idempotency_record, journal_entry, journal_posting, ledger_account};
use crate::refusal::Refusal;

mod accounts;
pub mod batch;

/// Attempts of a transaction that lost a race before giving up.
const MAX_ATTEMPTS: u32 = 50;
/// Most decimals an amount may carry.
pub const MAX_SCALE: u32 = 18;

/// A user's bucket of an asset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Bucket {
    /// Funding (spot wallet): deposits, withdrawals, transfers, conversion.
    Funding,
    /// Trading (futures) margin.
    Trading,
    /// Earn products.
    Earn,
    /// Held for a pending withdrawal or an open order.
    Frozen,
    /// Futures: the isolated margin of open positions and what open futures orders hold.
    FuturesMargin,
}

/// An account of the platform itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum House {
    /// Trading and withdrawal fees earned.
    Fees,
    /// The asset security fund (10 % of every trading fee).
    SecurityFund,
    /// Money arriving from outside (the counterpart of every deposit); goes negative.
    DepositsInTransit,
    /// Money leaving to the outside (the counterpart of every passed withdrawal).
    WithdrawalsInTransit,
    /// The liquidity provider of conversions and the simulated market; may go negative.
    MarketMaker,
    /// The book of seconds contracts: holds the stakes of open ones and pays the winners; may go
    /// negative (it faces the users' winning calls as the market maker faces their trades).
    SecondsBook,
    /// The counterparty of every futures position: realised PnL and funding settle against it;
    /// may go negative.
    FuturesCounterparty,
    /// What earn products pay: every reward leaves it and every early-redemption deduction comes
    /// back to it; may go negative (the platform's cost of the rewards it promised).
    EarnRewards,
    /// The crypto-loan pool: pays every loan's principal out and takes it back; operators fund it
    /// from outside (`loan_pool_funding`). It never goes below zero: a loan is approved only while
    /// the pool holds its principal.
    Lending,
}

impl Bucket {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Bucket::Funding => "funding",
            Bucket::Trading => "trading",
            Bucket::Earn => "earn",
            Bucket::Frozen => "frozen",
            Bucket::FuturesMargin => "futures_margin",
        }
    }

    /// The bucket of a stored name.
    pub fn parse(name: &str) -> Option<Self> {
        [
            Bucket::Funding,
            Bucket::Trading,
            Bucket::Earn,
            Bucket::Frozen,
            Bucket::FuturesMargin,
        ]
        .into_iter()
        .find(|b| b.as_str() == name)
    }
}

impl House {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            House::Fees => "fees",
            House::SecurityFund => "security_fund",
            House::DepositsInTransit => "deposits_in_transit",
            House::WithdrawalsInTransit => "withdrawals_in_transit",
            House::MarketMaker => "market_maker",
            House::SecondsBook => "seconds_book",
            House::FuturesCounterparty => "futures_counterparty",
            House::EarnRewards => "earn_rewards",
            House::Lending => "lending",
        }
    }

    /// Whether the account faces the outside world and may go below zero.
    pub fn may_go_negative(self) -> bool {
        matches!(
            self,
            House::DepositsInTransit
                | House::MarketMaker
                | House::SecondsBook
                | House::FuturesCounterparty
                | House::EarnRewards
        )
    }
}

/// Which account a posting moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AccountRef {
    /// A user's bucket.
    User {
        /// The user.
        user_id: i64,
        /// The bucket.
        bucket: Bucket,
    },
    /// A house account.
    House(House),
}

impl AccountRef {
    /// A user's funding bucket.
    pub fn funding(user_id: i64) -> Self {
        AccountRef::User {
            user_id,
            bucket: Bucket::Funding,
        }
    }

    fn owner(self) -> String {
        match self {
            AccountRef::User { user_id, .. } => format!("user:{user_id}"),
            AccountRef::House(_) => "house".to_owned(),
        }
    }

    fn bucket_name(self) -> &'static str {
        match self {
            AccountRef::User { bucket, .. } => bucket.as_str(),
            AccountRef::House(house) => house.as_str(),
        }
    }

    fn user_id(self) -> Option<i64> {
        match self {
            AccountRef::User { user_id, .. } => Some(user_id),
            AccountRef::House(_) => None,
        }
    }

    fn may_go_negative(self) -> bool {
        match self {
            AccountRef::User { .. } => false,
            AccountRef::House(house) => house.may_go_negative(),
        }
    }
}

/// One leg of an entry: `amount` (signed; positive credits) of `asset` on `account`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Posting {
    /// The account.
    pub account: AccountRef,
    /// The asset, lower case (`usdt`).
    pub asset: String,
    /// Signed amount.
    pub amount: Decimal,
}

impl Posting {
    /// `amount` of `asset` moved from `from` to `to`: two postings.
    pub fn transfer(
        from: AccountRef,
        to: AccountRef,
        asset: &str,
        amount: Decimal,
    ) -> [Posting; 2] {
        [
            Posting {
                account: from,
                asset: asset.to_owned(),
                amount: -amount,
            },
            Posting {
                account: to,
                asset: asset.to_owned(),
                amount,
            },
        ]
    }
}

/// An entry to post.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewEntry {
    /// What happened (`deposit`, `transfer`, …).
    pub kind: String,
    /// The business object it belongs to (`deposit:12`).
    pub reference: String,
    /// The user it concerns (for their bills).
    pub user_id: Option<i64>,
    /// Who caused it.
    pub actor_id: Option<i64>,
    /// Free text (at most 255 characters are kept).
    pub memo: String,
    /// The postings; per asset they sum to zero.
    pub postings: Vec<Posting>,
}

/// The kind of a conversion's entry (the user trades with the market maker at a quoted price).
pub const EXCHANGE_KIND: &str = "exchange";

/// Entries of these kinds pay from what the house holds: none of their house accounts may go below
/// zero, even one that may otherwise ([`House::may_go_negative`]).
pub const HOUSE_PAYS_FROM_INVENTORY: &[&str] = &[EXCHANGE_KIND];

/// Why an entry was refused. Nothing is written in any case.
#[derive(Debug, thiserror::Error)]
pub enum LedgerError {
    /// The entry has no postings.
    #[error("an entry needs postings")]
    Empty,
    /// A posting's amount is zero or has more than [`MAX_SCALE`] decimals.
    #[error("invalid amount {0}")]
    InvalidAmount(Decimal),
    /// An asset name is not 1 to 16 lower-case letters or digits.
    #[error("invalid asset {0:?}")]
    InvalidAsset(String),
    /// The postings of an asset do not sum to zero.
    #[error("the postings of {asset} sum to {sum}, not zero")]
    Unbalanced {
        /// The asset.
        asset: String,
        /// Their sum.
        sum: Decimal,
    },
    /// An account would go below zero.
    #[error("insufficient balance: {available} {asset} available")]
    InsufficientBalance {
        /// The account.
        account: AccountRef,
        /// The asset.
        asset: String,
        /// What it holds.
        available: Decimal,
    },
    /// The idempotency key was used before for another request.
    #[error("the idempotency key was used for another request")]
    KeyReused,
    /// The entry kept losing races with concurrent ones.
    #[error("too much contention; try again")]
    Contention,
    /// A compare-and-swap inside [`post_within`] lost a race; [`post_once`] retries the whole
    /// transaction.
    #[error("a concurrent entry changed an account first")]
    LostRace,
    /// An [`Extra`] refused on a business rule (already reviewed, …); nothing is written and the
    /// error is answered as it is.
    #[error("refused: {0:?}")]
    Refused(Refusal),
    /// The database failed.
    #[error(transparent)]
    Db(#[from] DbErr),
}

/// A posted entry: its id and the balances after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Posted {
    /// The entry's id.
    pub entry_id: i64,
    /// Balance after the entry of every account it touched.
    pub balances: BTreeMap<(AccountRef, String), Decimal>,
}

/// Checks an entry's shape: postings present, amounts non-zero with at most 18 decimals, assets
/// well-formed, every asset summing to zero. Returns the net change per account.
pub fn check(entry: &NewEntry) -> Result<BTreeMap<(AccountRef, String), Decimal>, LedgerError> {
    if entry.postings.is_empty() {
        return Err(LedgerError::Empty);
    }
    let mut per_asset: BTreeMap<&str, Decimal> = BTreeMap::new();
    let mut net: BTreeMap<(AccountRef, String), Decimal> = BTreeMap::new();
    for posting in &entry.postings {
        if posting.amount.is_zero() || posting.amount.scale() > MAX_SCALE {
            return Err(LedgerError::InvalidAmount(posting.amount));
        }
        let asset = posting.asset.as_str();
        if asset.is_empty()
            || asset.len() > 16
            || !asset
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        {
            return Err(LedgerError::InvalidAsset(posting.asset.clone()));
        }
        *per_asset.entry(asset).or_default() += posting.amount;
        *net.entry((posting.account, posting.asset.clone()))
            .or_default() += posting.amount;
    }
    if let Some((asset, sum)) = per_asset.into_iter().find(|(_, sum)| !sum.is_zero()) {
        return Err(LedgerError::Unbalanced {
            asset: asset.to_owned(),
            sum,
        });
    }
    Ok(net)
}

/// Posts `entry` atomically (see the module rules), retrying lost races.
pub async fn post(db: &DatabaseConnection, entry: &NewEntry) -> Result<Posted, LedgerError> {
    match post_once(db, entry, None, |_| String::new(), no_extra).await? {
        Outcome::Posted(posted) => Ok(posted),
        // Without a key nothing is replayed.
        Outcome::Replayed { .. } => Err(LedgerError::KeyReused),
    }
}

/// The caller's `Idempotency-Key` for an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Idempotency {
    /// The caller.
    pub user_id: i64,
    /// The key (1 to 100 characters).
    pub key: String,
    /// The operation (`transferFunds`).
    pub operation: &'static str,
    /// Hex SHA-256 of the operation and the request body.
    pub request_hash: String,
}

/// What [`post_once`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The entry was posted now.
    Posted(Posted),
    /// The key was seen with the same request before: nothing was posted, and this is the first
    /// answer's `data` (JSON) and entry.
    Replayed {
        /// The stored answer.
        response: String,
        /// The entry the first request posted.
        entry_id: i64,
    },
}

/// What an [`Extra`] returns: a future over the entry's transaction.
pub type ExtraFuture<'t> = futures_util::future::BoxFuture<'t, Result<(), LedgerError>>;

/// Work of a business object inside the entry's transaction, given the transaction, the entry's id
/// and the entry. It runs after the entry's row and before its postings, so a conditional update
/// that finds its row changed (reviewed meanwhile) refuses before a balance check could answer
/// instead; the postings and the idempotency record follow. It may write rows
/// (`?` turns a `DbErr` into [`LedgerError::Db`]), post further entries with [`post_within`], or
/// refuse with [`LedgerError::Refused`], which rolls the whole transaction back. It runs once per
/// attempt, so it must not keep effects outside the transaction. A plain `fn` or a closure; a
/// closure clones what it captured into the future it returns (the future may not borrow the
/// closure).
pub trait Extra: for<'t> Fn(&'t DatabaseTransaction, i64, &'t NewEntry) -> ExtraFuture<'t> {}

impl<F> Extra for F where
    F: for<'t> Fn(&'t DatabaseTransaction, i64, &'t NewEntry) -> ExtraFuture<'t>
{
}

/// An [`Extra`] that writes nothing.
pub fn no_extra<'t>(_: &'t DatabaseTransaction, _: i64, _: &'t NewEntry) -> ExtraFuture<'t> {
    Box::pin(async { Ok(()) })
}

/// Posts `entry` once per idempotency key: with a key seen before for the same request, nothing is
/// posted and the first answer is returned; for another request, [`LedgerError::KeyReused`]. The
/// record of the key, `extra`'s rows and the entry commit together, so a retry after any failure
/// either replays or finds that nothing happened; the key is claimed before any balance is read,
/// so concurrent requests with one key post once and the others replay. `respond` makes the
/// answer stored for replays; `extra` (see [`Extra`]) does the business object's part.
pub async fn post_once(
    db: &DatabaseConnection,
    entry: &NewEntry,
    idempotency: Option<&Idempotency>,
    respond: impl Fn(&Posted) -> String,
    extra: impl Extra,
) -> Result<Outcome, LedgerError> {
    let net = check(entry)?;
    let mut attempt = 0;
    loop {
        attempt += 1;
        let txn = db.begin().await?;
        match post_in(&txn, entry, &net, idempotency, &respond, &extra).await {
            Ok(Some(Outcome::Posted(posted))) => {
                txn.commit().await?;
                return Ok(Outcome::Posted(posted));
            }
            Ok(Some(replayed)) => {
                txn.rollback().await.ok();
                return Ok(replayed);
            }
            Ok(None) | Err(LedgerError::LostRace) => {
                txn.rollback().await.ok();
            }
            Err(LedgerError::Db(error)) if is_conflict(&error) => {
                txn.rollback().await.ok();
            }
            Err(error) => {
                txn.rollback().await.ok();
                return Err(error);
            }
        }
        back_off(attempt).await?;
    }
}

/// What [`post_once_with_row`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowOutcome<Row> {
    /// Posted now, with the business row written in the same transaction.
    Created(Row),
    /// The key was seen with the same request: the first answer (JSON).
    Replayed(String),
}

/// [`post_once`] for an entry that comes with a business row (a withdrawal, a bet, …) written in
/// its transaction and needed afterwards: `write` inserts the row, given the transaction and the
/// entry's id, or refuses ([`LedgerError::Refused`]) and rolls everything back; `respond` makes
/// the answer stored for replays from it. Answers the row written
/// now, or a replay's first answer.
pub async fn post_once_with_row<Row, Write>(
    db: &DatabaseConnection,
    entry: &NewEntry,
    idempotency: Option<&Idempotency>,
    respond: impl Fn(&Row) -> String,
    write: Write,
) -> Result<RowOutcome<Row>, LedgerError>
where
    Row: Send + 'static,
    Write: for<'t> Fn(
            &'t DatabaseTransaction,
            i64,
        ) -> futures_util::future::BoxFuture<'t, Result<Row, LedgerError>>
        + Send
        + Sync,
{
    // The row of the attempt that commits; an attempt that rolls back is overwritten by the next.
    let written: Arc<Mutex<Option<Row>>> = Arc::default();
    let slot = written.clone();
    let outcome = post_once(
        db,
        entry,
        idempotency,
        |_| {
            written
                .lock()
                .ok()
                .and_then(|row| row.as_ref().map(&respond))
                .unwrap_or_default()
        },
        move |txn, entry_id, _| {
            let (row, slot) = (write(txn, entry_id), slot.clone());
            Box::pin(async move {
                let row = row.await?;
                if let Ok(mut written) = slot.lock() {
                    *written = Some(row);
                }
                Ok(())
            })
        },
    )
    .await?;
    match outcome {
        Outcome::Posted(_) => written
            .lock()
            .ok()
            .and_then(|mut row| row.take())
            .map(RowOutcome::Created)
            .ok_or_else(|| LedgerError::Db(DbErr::Custom("the row was not written".into()))),
        Outcome::Replayed { response, .. } => Ok(RowOutcome::Replayed(response)),
    }
}

/// Waits a little before another attempt, more with every lost race so a crowd of writers thins
/// out; [`LedgerError::Contention`] after [`MAX_ATTEMPTS`].
async fn back_off(attempt: u32) -> Result<(), LedgerError> {
    if attempt >= MAX_ATTEMPTS {
        return Err(LedgerError::Contention);
    }
    let jitter = u64::from(rand::random::<u8>() % 8);
    tokio::time::sleep(Duration::from_millis(
        u64::from(attempt.min(10)) * 2 + jitter,
    ))
    .await;
    Ok(())
}

/// What [`run_once`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunOutcome<T> {
    /// The action ran now and committed; its result.
    Ran(T),
    /// The key was seen with the same request before: nothing ran, and this is the first answer.
    Replayed(String),
}

/// Runs `action` in a transaction once per idempotency key, for calls that change business rows
/// but post no entry (a deposit submission): with a key seen before for the same request the action
/// does not run and the first answer is returned; for another request,
/// [`LedgerError::KeyReused`]. The key's record (its `entry_id` 0: no entry) commits with the
/// action's rows. Lost races (SQLite busy, a concurrent use of the same key) are retried;
/// `respond` makes the answer stored for replays.
pub async fn run_once<T, A>(
    db: &DatabaseConnection,
    idempotency: Option<&Idempotency>,
    respond: impl Fn(&T) -> String,
    action: A,
) -> Result<RunOutcome<T>, LedgerError>
where
    A: for<'t> Fn(
        &'t DatabaseTransaction,
    ) -> futures_util::future::BoxFuture<'t, Result<T, LedgerError>>,
{
    let mut attempt = 0;
    loop {
        attempt += 1;
        let txn = db.begin().await?;
        let result = async {
            if let Some(idempotency) = idempotency {
                if let Some(seen) = find_key(&txn, idempotency).await? {
                    return Ok(RunOutcome::Replayed(seen));
                }
                // Claimed first, as in `post_in`: a concurrent request with the same key waits
                // for this one and then replays.
                insert_key(&txn, idempotency, String::new(), 0).await?;
            }
            let done = action(&txn).await?;
            if let Some(idempotency) = idempotency {
                store_response(&txn, idempotency, respond(&done)).await?;
            }
            Ok(RunOutcome::Ran(done))
        }
        .await;
        match result {
            Ok(RunOutcome::Ran(done)) => {
                txn.commit().await?;
                return Ok(RunOutcome::Ran(done));
            }
            Ok(replayed) => {
                txn.rollback().await.ok();
                return Ok(replayed);
            }
            Err(LedgerError::LostRace) => {
                txn.rollback().await.ok();
            }
            Err(LedgerError::Db(error)) if is_conflict(&error) => {
                txn.rollback().await.ok();
            }
            Err(error) => {
                txn.rollback().await.ok();
                return Err(error);
            }
        }
        back_off(attempt).await?;
    }
}

/// The stored answer of `idempotency`'s key, or [`LedgerError::KeyReused`] when the key was used
/// for another request; `None` when the key is new.
async fn find_key(
    txn: &DatabaseTransaction,
    idempotency: &Idempotency,
) -> Result<Option<String>, LedgerError> {
    let Some(seen) = idempotency_record::Entity::find()
        .filter(idempotency_record::Column::UserId.eq(idempotency.user_id))
        .filter(idempotency_record::Column::Key.eq(&idempotency.key))
        .one(txn)
        .await?
    else {
        return Ok(None);
    };
    if seen.request_hash != idempotency.request_hash {
        return Err(LedgerError::KeyReused);
    }
    Ok(Some(seen.response))
}

/// Claims `idempotency`'s key inside the caller's own transaction `txn` (a batch of the spot
/// engine): `Some(first answer)` when the key was seen with the same request,
/// [`LedgerError::KeyReused`] for another request, `None` once claimed now — then
/// [`store_response`] records the answer before the transaction commits.
pub async fn claim_key(
    txn: &DatabaseTransaction,
    idempotency: &Idempotency,
) -> Result<Option<String>, LedgerError> {
    if let Some(seen) = find_key(txn, idempotency).await? {
        return Ok(Some(seen));
    }
    insert_key(txn, idempotency, String::new(), 0).await?;
    Ok(None)
}

/// Stores the answer of the request that claimed `idempotency`'s key (in its transaction).
pub async fn store_response(
    txn: &DatabaseTransaction,
    idempotency: &Idempotency,
    response: String,
) -> Result<(), DbErr> {
    idempotency_record::Entity::update_many()
        .col_expr(idempotency_record::Column::Response, Expr::value(response))
        .filter(idempotency_record::Column::UserId.eq(idempotency.user_id))
        .filter(idempotency_record::Column::Key.eq(&idempotency.key))
        .exec(txn)
        .await?;
    Ok(())
}

/// Records `idempotency`'s key (claiming it). A concurrent request with the same key makes this
/// insert fail on the unique index (on PostgreSQL once the first transaction ends); the retry then
/// finds its record and replays.
async fn insert_key(
    txn: &DatabaseTransaction,
    idempotency: &Idempotency,
    response: String,
    entry_id: i64,
) -> Result<(), DbErr> {
    idempotency_record::ActiveModel {
        user_id: Set(idempotency.user_id),
        key: Set(idempotency.key.clone()),
        operation: Set(idempotency.operation.to_owned()),
        request_hash: Set(idempotency.request_hash.clone()),
        response: Set(response),
        entry_id: Set(entry_id),
        created_at: Set(crate::clock::now_ms()),
        ..Default::default()
    }
    .insert(txn)
    .await?;
    Ok(())
}

/// Whether a database error is a lost race that a retry may win.
fn is_conflict(error: &DbErr) -> bool {
    let text = error.to_string().to_ascii_lowercase();
    text.contains("database is locked")
        || text.contains("busy")
        || text.contains("could not serialize")
        || text.contains("deadlock")
        || matches!(
            error.sql_err(),
            Some(sea_orm::SqlErr::UniqueConstraintViolation(_))
        )
}

/// One attempt inside `txn`; `Ok(None)` when a compare-and-swap lost a race.
async fn post_in(
    txn: &DatabaseTransaction,
    entry: &NewEntry,
    net: &BTreeMap<(AccountRef, String), Decimal>,
    idempotency: Option<&Idempotency>,
    respond: &impl Fn(&Posted) -> String,
    extra: &impl Extra,
) -> Result<Option<Outcome>, LedgerError> {
    // The first statement writes, so SQLite takes the write lock now rather than on upgrade.
    let row = insert_entry(txn, entry).await?;
    if let Some(idempotency) = idempotency {
        if let Some(seen) = idempotency_record::Entity::find()
            .filter(idempotency_record::Column::UserId.eq(idempotency.user_id))
            .filter(idempotency_record::Column::Key.eq(&idempotency.key))
            .one(txn)
            .await?
        {
            if seen.request_hash != idempotency.request_hash {
                return Err(LedgerError::KeyReused);
            }
            return Ok(Some(Outcome::Replayed {
                response: seen.response,
                entry_id: seen.entry_id,
            }));
        }
        // Claim the key before anything is checked: a concurrent request with the same key waits
        // here (PostgreSQL) until this one ends, then fails on the unique index and its retry
        // replays — it never sees this entry's balances without its record.
        insert_key(txn, idempotency, String::new(), row.id).await?;
    }
    extra(txn, row.id, entry).await?;
    let Some(balances) = apply_postings(txn, row.id, entry, net).await? else {
        return Ok(None);
    };
    let posted = Posted {
        entry_id: row.id,
        balances,
    };
    if let Some(idempotency) = idempotency {
        store_response(txn, idempotency, respond(&posted)).await?;
    }
    Ok(Some(Outcome::Posted(posted)))
}

/// Posts `entry` inside `txn`, a transaction of [`post_once`] (from its [`Extra`]), so that two
/// entries of one business event commit or roll back together. A lost compare-and-swap is
/// [`LedgerError::LostRace`], which the enclosing [`post_once`] retries.
pub async fn post_within(
    txn: &DatabaseTransaction,
    entry: &NewEntry,
) -> Result<Posted, LedgerError> {
    post_within_with(txn, entry, &no_extra).await
}

/// [`post_within`] with `extra` run after the entry's row and before its postings (see
/// [`Extra`]). The postings lock their accounts' rows until the commit; a caller that writes many
/// rows carrying the entry's id writes them here, so that those locks (the fee income account's,
/// which every fill also moves) are held only for the postings and the commit.
pub async fn post_within_with(
    txn: &DatabaseTransaction,
    entry: &NewEntry,
    extra: &impl Extra,
) -> Result<Posted, LedgerError> {
    let net = check(entry)?;
    let row = insert_entry(txn, entry).await?;
    extra(txn, row.id, entry).await?;
    let balances = apply_postings(txn, row.id, entry, &net)
        .await?
        .ok_or(LedgerError::LostRace)?;
    Ok(Posted {
        entry_id: row.id,
        balances,
    })
}

/// Inserts the entry's row.
async fn insert_entry(
    txn: &DatabaseTransaction,
    entry: &NewEntry,
) -> Result<journal_entry::Model, DbErr> {
    let now = crate::clock::now_ms();
    journal_entry::ActiveModel {
        kind: Set(entry.kind.chars().take(32).collect()),
        reference: Set(entry.reference.chars().take(128).collect()),
        user_id: Set(entry.user_id),
        actor_id: Set(entry.actor_id),
        memo: Set(entry.memo.chars().take(255).collect()),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(txn)
    .await
}

/// Moves every account of `net` by its change (compare-and-swap on each, in a fixed order) and
/// stores the entry's postings; `None` when a compare-and-swap lost a race.
async fn apply_postings(
    txn: &DatabaseTransaction,
    entry_id: i64,
    entry: &NewEntry,
    net: &BTreeMap<(AccountRef, String), Decimal>,
) -> Result<Option<BTreeMap<(AccountRef, String), Decimal>>, LedgerError> {
    let now = crate::clock::now_ms();
    let mut balances = BTreeMap::new();
    let mut running = BTreeMap::new();
    let mut account_ids = BTreeMap::new();
    let mut rows = accounts::lock_accounts(txn, net, now).await?;
    for ((account, asset), delta) in net {
        let stored = rows
            .remove(&(*account, asset.clone()))
            .ok_or_else(|| DbErr::RecordNotFound("a ledger account just locked".into()))?;
        let before = parse(&stored.balance);
        let after = before + *delta;
        let may_go_negative =
            account.may_go_negative() && !HOUSE_PAYS_FROM_INVENTORY.contains(&entry.kind.as_str());
        if after.is_sign_negative() && !after.is_zero() && !may_go_negative {
            return Err(LedgerError::InsufficientBalance {
                account: *account,
                asset: asset.clone(),
                available: before,
            });
        }
        let swapped = ledger_account::Entity::update_many()
            .col_expr(
                ledger_account::Column::Balance,
                Expr::value(after.normalize().to_string()),
            )
            .col_expr(
                ledger_account::Column::Version,
                Expr::value(stored.version + 1),
            )
            .col_expr(ledger_account::Column::UpdatedAt, Expr::value(now))
            .filter(ledger_account::Column::Id.eq(stored.id))
            .filter(ledger_account::Column::Version.eq(stored.version))
            .exec(txn)
            .await?;
        if swapped.rows_affected != 1 {
            return Ok(None);
        }
        balances.insert((*account, asset.clone()), after.normalize());
        running.insert((*account, asset.clone()), before);
        account_ids.insert((*account, asset.clone()), stored.id);
    }
    // Postings are stored as given (several on one account keep their own rows); each records its
    // account's running balance after it (the last one: the balance after the whole entry).
    let mut rows = Vec::with_capacity(entry.postings.len());
    for posting in &entry.postings {
        let key = (posting.account, posting.asset.clone());
        let balance = running
            .get_mut(&key)
            .expect("every posted account was read");
        *balance += posting.amount;
        rows.push(journal_posting::ActiveModel {
            entry_id: Set(entry_id),
            account_id: Set(account_ids[&key]),
            asset: Set(posting.asset.clone()),
            amount: Set(posting.amount.normalize().to_string()),
            balance_after: Set(balance.normalize().to_string()),
            ..Default::default()
        });
    }
    crate::db::insert_in_chunks(txn, rows).await?;
    Ok(Some(balances))
}

fn parse(text: &str) -> Decimal {
    // Balances are written by this module only, always as decimals.
    wasm_core::money::parse_decimal(text).unwrap_or_default()
}

/// One balance of a user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Balance {
    /// Asset.
    pub asset: String,
    /// Bucket.
    pub bucket: Bucket,
    /// Amount.
    pub amount: Decimal,
}

/// Every non-empty balance of `user_id`, by asset then bucket.
pub async fn balances(db: &impl ConnectionTrait, user_id: i64) -> Result<Vec<Balance>, DbErr> {
    Ok(ledger_account::Entity::find()
        .filter(ledger_account::Column::Owner.eq(format!("user:{user_id}")))
        .order_by_asc(ledger_account::Column::Asset)
        .order_by_asc(ledger_account::Column::Bucket)
        .all(db)
        .await?
        .into_iter()
        .filter_map(|row| {
            let amount = parse(&row.balance);
            Some(Balance {
                bucket: Bucket::parse(&row.bucket)?,
                asset: row.asset,
                amount,
            })
        })
        .filter(|b| !b.amount.is_zero())
        .collect())
}

/// The balance of one account (zero when it has none).
pub async fn balance(
    db: &impl ConnectionTrait,
    account: AccountRef,
    asset: &str,
) -> Result<Decimal, DbErr> {
    Ok(ledger_account::Entity::find()
        .filter(ledger_account::Column::Owner.eq(account.owner()))
        .filter(ledger_account::Column::Asset.eq(asset))
        .filter(ledger_account::Column::Bucket.eq(account.bucket_name()))
        .one(db)
        .await?
        .map(|row| parse(&row.balance))
        .unwrap_or_default())
}

/// The distinct assets `user_id` has ever held.
pub async fn assets_of(db: &impl ConnectionTrait, user_id: i64) -> Result<BTreeSet<String>, DbErr> {
    Ok(ledger_account::Entity::find()
        .filter(ledger_account::Column::Owner.eq(format!("user:{user_id}")))
        .all(db)
        .await?
        .into_iter()
        .map(|row| row.asset)
        .collect())
}

#[cfg(test)]
mod tests;
