//! Many entries posted inside one transaction that holds the writer's turn — the spot market's
//! group commit — with a handful of statements instead of several per entry.
//!
//! - Each account is read once per batch ([`LedgerBatch::load`] reads many in one statement;
//!   others are read, or created at zero, the first time an entry touches them) and then changed
//!   in memory, entry by entry, under the same rules as [`super::post_within`]: the entry's shape is
//!   checked by [`super::check`], and an entry that would take a balance below zero is refused
//!   whole, changing nothing.
//! - [`LedgerBatch::flush`] writes everything at the end: the entries and their postings with
//!   multi-row inserts, then every changed account once (its final balance, its version moved on by
//!   one). Each posting records its account's balance after its own entry, as a single post does.
//! - [`LedgerBatch::mark`] and [`LedgerBatch::undo_to`] take back what was posted after a point (an
//!   order refused after its hold), as a savepoint would, without a statement.
//!
//! The caller keeps the accounts steady until the transaction ends: on SQLite its first statement
//! takes the database's write lock, and on PostgreSQL every account is read `FOR UPDATE`, so the
//! balances read here stay the balances in the database until the commit.

use std::collections::{BTreeSet, HashMap};

use rust_decimal::Decimal;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, Condition, ConnectionTrait, DatabaseBackend,
    DatabaseTransaction, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Statement,
    sea_query::OnConflict,
};

use super::{AccountRef, Idempotency, LedgerError, NewEntry, account_row, check, parse};
use crate::entity::{idempotency_record, journal_entry, journal_posting, ledger_account};

/// Most bound values in one statement (SQLite allows 32,766, PostgreSQL 65,535).
const MAX_BOUND_VALUES: usize = 30_000;

/// An entry of a batch by its position; its id exists once the batch is flushed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EntryIndex(pub usize);

/// A point in a batch to go back to with [`LedgerBatch::undo_to`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark {
    entries: usize,
    postings: usize,
    undo: usize,
}

/// An account as the batch holds it.
#[derive(Debug)]
struct Held {
    row: ledger_account::Model,
    balance: Decimal,
    changed: bool,
}

/// What an account held before a change, for [`LedgerBatch::undo_to`].
#[derive(Debug)]
struct Undo {
    key: (AccountRef, String),
    balance: Decimal,
    changed: bool,
}

/// A posting waiting for its entry's id.
#[derive(Debug)]
struct PendingPosting {
    entry: EntryIndex,
    account_id: i64,
    asset: String,
    amount: String,
    balance_after: String,
}

/// Entries posted in memory, written by [`LedgerBatch::flush`].
#[derive(Debug, Default)]
pub struct LedgerBatch {
    accounts: HashMap<(AccountRef, String), Held>,
    entries: Vec<journal_entry::Model>,
    postings: Vec<PendingPosting>,
    undo: Vec<Undo>,
}

impl LedgerBatch {
    /// An empty batch.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads the accounts among `wanted` that exist and are not held yet, in one statement (in id
    /// order, `FOR UPDATE` on PostgreSQL). Accounts that do not exist are created when an entry
    /// first touches them.
    pub async fn load(
        &mut self,
        txn: &DatabaseTransaction,
        wanted: &[(AccountRef, &str)],
    ) -> Result<(), DbErr> {
        let missing: Vec<(AccountRef, &str)> = wanted
            .iter()
            .filter(|(account, asset)| {
                !self.accounts.contains_key(&(*account, (*asset).to_owned()))
            })
            .copied()
            .collect();
        if missing.is_empty() {
            return Ok(());
        }
        let owners: BTreeSet<String> = missing.iter().map(|(a, _)| a.owner()).collect();
        let assets: BTreeSet<&str> = missing.iter().map(|(_, asset)| *asset).collect();
        let buckets: BTreeSet<&str> = missing.iter().map(|(a, _)| a.bucket_name()).collect();
        let rows = ledger_account::Entity::find()
            .filter(ledger_account::Column::Owner.is_in(owners))
            .filter(ledger_account::Column::Asset.is_in(assets))
            .filter(ledger_account::Column::Bucket.is_in(buckets))
            .order_by_asc(ledger_account::Column::Id)
            .lock_exclusive()
            .all(txn)
            .await?;
        let mut by_name: HashMap<(String, String, String), ledger_account::Model> = rows
            .into_iter()
            .map(|row| {
                (
                    (row.owner.clone(), row.bucket.clone(), row.asset.clone()),
                    row,
                )
            })
            .collect();
        for (account, asset) in missing {
            let name = (
                account.owner(),
                account.bucket_name().to_owned(),
                asset.to_owned(),
            );
            if let Some(row) = by_name.remove(&name) {
                self.hold(account, asset, row);
            }
        }
        Ok(())
    }

    fn hold(&mut self, account: AccountRef, asset: &str, row: ledger_account::Model) {
        let balance = parse(&row.balance);
        self.accounts.insert(
            (account, asset.to_owned()),
            Held {
                row,
                balance,
                changed: false,
            },
        );
    }

    /// Makes sure `account` in `asset` is held: read (or created at zero) the first time.
    async fn ensure(
        &mut self,
        txn: &DatabaseTransaction,
        account: AccountRef,
        asset: &str,
    ) -> Result<(), DbErr> {
        if !self.accounts.contains_key(&(account, asset.to_owned())) {
            let now = chrono::Utc::now().timestamp_millis();
            let row = account_row(txn, account, asset, now).await?;
            self.hold(account, asset, row);
        }
        Ok(())
    }

    /// The balance of `account` in `asset` with the batch's entries so far.
    pub async fn balance(
        &mut self,
        txn: &DatabaseTransaction,
        account: AccountRef,
        asset: &str,
    ) -> Result<Decimal, DbErr> {
        self.ensure(txn, account, asset).await?;
        Ok(self.accounts[&(account, asset.to_owned())].balance)
    }

    /// Posts `entry` in memory: checked as [`super::post_within`] checks it, refused whole with
    /// [`LedgerError::InsufficientBalance`] when an account would go below zero.
    pub async fn post(
        &mut self,
        txn: &DatabaseTransaction,
        entry: &NewEntry,
    ) -> Result<EntryIndex, LedgerError> {
        let net = check(entry)?;
        for (account, asset) in net.keys() {
            self.ensure(txn, *account, asset).await?;
        }
        // Every account is checked before any changes: a refused entry leaves no trace.
        for (key, delta) in &net {
            let before = self.accounts[key].balance;
            let after = before + *delta;
            if after.is_sign_negative() && !after.is_zero() && !key.0.may_go_negative() {
                return Err(LedgerError::InsufficientBalance {
                    account: key.0,
                    asset: key.1.clone(),
                    available: before,
                });
            }
        }
        for (key, delta) in net {
            let held = self.accounts.get_mut(&key).expect("held above");
            self.undo.push(Undo {
                key,
                balance: held.balance,
                changed: held.changed,
            });
            held.balance += delta;
            held.changed = true;
        }
        let index = EntryIndex(self.entries.len());
        self.entries.push(journal_entry::Model {
            id: 0,
            kind: entry.kind.chars().take(32).collect(),
            reference: entry.reference.chars().take(128).collect(),
            user_id: entry.user_id,
            actor_id: entry.actor_id,
            memo: entry.memo.chars().take(255).collect(),
            created_at: chrono::Utc::now().timestamp_millis(),
        });
        for posting in &entry.postings {
            let held = &self.accounts[&(posting.account, posting.asset.clone())];
            self.postings.push(PendingPosting {
                entry: index,
                account_id: held.row.id,
                asset: posting.asset.clone(),
                amount: posting.amount.normalize().to_string(),
                balance_after: held.balance.normalize().to_string(),
            });
        }
        Ok(index)
    }

    /// The point the batch is at now.
    pub fn mark(&self) -> Mark {
        Mark {
            entries: self.entries.len(),
            postings: self.postings.len(),
            undo: self.undo.len(),
        }
    }

    /// Takes back every entry posted since `mark`.
    pub fn undo_to(&mut self, mark: Mark) {
        self.entries.truncate(mark.entries);
        self.postings.truncate(mark.postings);
        while self.undo.len() > mark.undo {
            let undo = self.undo.pop().expect("longer than the mark");
            if let Some(held) = self.accounts.get_mut(&undo.key) {
                held.balance = undo.balance;
                held.changed = undo.changed;
            }
        }
    }

    /// Entries posted so far.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing was posted.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Writes the batch: its entries, their postings and every changed account. Returns the
    /// entries' ids by [`EntryIndex`].
    pub async fn flush(self, txn: &DatabaseTransaction) -> Result<Vec<i64>, DbErr> {
        let ids = reserve_ids(txn, "journal_entry", self.entries.len()).await?;
        let entries =
            self.entries
                .into_iter()
                .zip(&ids)
                .map(|(entry, id)| journal_entry::ActiveModel {
                    id: Set(*id),
                    kind: Set(entry.kind),
                    reference: Set(entry.reference),
                    user_id: Set(entry.user_id),
                    actor_id: Set(entry.actor_id),
                    memo: Set(entry.memo),
                    created_at: Set(entry.created_at),
                });
        insert_chunked(txn, entries.collect(), 7).await?;
        let postings = self
            .postings
            .into_iter()
            .map(|posting| journal_posting::ActiveModel {
                entry_id: Set(ids[posting.entry.0]),
                account_id: Set(posting.account_id),
                asset: Set(posting.asset),
                amount: Set(posting.amount),
                balance_after: Set(posting.balance_after),
                ..Default::default()
            });
        insert_chunked(txn, postings.collect(), 5).await?;
        let now = chrono::Utc::now().timestamp_millis();
        let mut changed: Vec<ledger_account::ActiveModel> = self
            .accounts
            .into_values()
            .filter(|held| held.changed)
            .map(|held| ledger_account::ActiveModel {
                id: Set(held.row.id),
                owner: Set(held.row.owner),
                user_id: Set(held.row.user_id),
                asset: Set(held.row.asset),
                bucket: Set(held.row.bucket),
                balance: Set(held.balance.normalize().to_string()),
                may_go_negative: Set(held.row.may_go_negative),
                version: Set(held.row.version + 1),
                updated_at: Set(now),
            })
            .collect();
        // In id order, as accounts are locked everywhere else.
        changed.sort_by_key(|account| match &account.id {
            Set(id) => *id,
            _ => 0,
        });
        for chunk in changed.chunks(MAX_BOUND_VALUES / 9) {
            ledger_account::Entity::insert_many(chunk.to_vec())
                .on_conflict(
                    OnConflict::column(ledger_account::Column::Id)
                        .update_columns([
                            ledger_account::Column::Balance,
                            ledger_account::Column::Version,
                            ledger_account::Column::UpdatedAt,
                        ])
                        .to_owned(),
                )
                .exec_without_returning(txn)
                .await?;
        }
        Ok(ids)
    }
}

/// `rows` inserted with as few statements as the bound-value limit allows (`columns` values a row).
pub async fn insert_chunked<A>(
    txn: &DatabaseTransaction,
    rows: Vec<A>,
    columns: usize,
) -> Result<(), DbErr>
where
    A: ActiveModelTrait + Clone + Send,
{
    for chunk in rows.chunks(MAX_BOUND_VALUES / columns.max(1)) {
        <A::Entity as EntityTrait>::insert_many(chunk.to_vec())
            .exec_without_returning(txn)
            .await?;
    }
    Ok(())
}

/// `count` new ids of `table`'s auto-increment `id`, in the caller's transaction. On PostgreSQL they
/// come from the table's sequence (not necessarily consecutive); on SQLite they follow the largest
/// id ever given, which is safe because the transaction holds the database's write lock.
pub async fn reserve_ids(
    txn: &DatabaseTransaction,
    table: &'static str,
    count: usize,
) -> Result<Vec<i64>, DbErr> {
    if count == 0 {
        return Ok(Vec::new());
    }
    let backend = txn.get_database_backend();
    match backend {
        DatabaseBackend::Postgres => {
            let sql = format!(
                "SELECT nextval(pg_get_serial_sequence('{table}', 'id')) AS id \
                 FROM generate_series(1, {count})"
            );
            let rows = txn
                .query_all_raw(Statement::from_string(backend, sql))
                .await?;
            rows.iter()
                .map(|row| row.try_get::<i64>("", "id"))
                .collect()
        }
        _ => {
            let sql = format!(
                "SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = '{table}'), 0), \
                 COALESCE((SELECT MAX(id) FROM {table}), 0)) AS id"
            );
            let row = txn
                .query_one_raw(Statement::from_string(backend, sql))
                .await?
                .ok_or_else(|| DbErr::RecordNotFound(format!("the largest id of {table}")))?;
            let last: i64 = row.try_get("", "id")?;
            Ok((1..=count as i64).map(|n| last + n).collect())
        }
    }
}

/// The stored records of the idempotency keys `keys` (a batch's keys, read in one statement).
pub async fn find_keys(
    txn: &DatabaseTransaction,
    keys: &[&Idempotency],
) -> Result<Vec<idempotency_record::Model>, DbErr> {
    if keys.is_empty() {
        return Ok(Vec::new());
    }
    let mut any = Condition::any();
    for key in keys {
        any = any.add(
            Condition::all()
                .add(idempotency_record::Column::UserId.eq(key.user_id))
                .add(idempotency_record::Column::Key.eq(key.key.as_str())),
        );
    }
    idempotency_record::Entity::find()
        .filter(any)
        .all(txn)
        .await
}

/// Records idempotency keys with their answers (of requests that post no entry of their own).
pub async fn insert_keys(
    txn: &DatabaseTransaction,
    records: Vec<(Idempotency, String)>,
) -> Result<(), DbErr> {
    let now = chrono::Utc::now().timestamp_millis();
    let rows = records
        .into_iter()
        .map(|(key, response)| idempotency_record::ActiveModel {
            user_id: Set(key.user_id),
            key: Set(key.key),
            operation: Set(key.operation.to_owned()),
            request_hash: Set(key.request_hash),
            response: Set(response),
            entry_id: Set(0),
            created_at: Set(now),
            ..Default::default()
        });
    insert_chunked(txn, rows.collect(), 7).await
}
