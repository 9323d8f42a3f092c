//! Many entries posted inside one transaction that holds the writer's turn — the spot market's
//! group commit — with a handful of statements instead of several per entry.
//!
//! - Each account is read once per batch ([`LedgerBatch::load`] reads many in one statement;
//!   others are read the first time an entry touches them, that entry's together, or created at
//!   zero) and then changed in memory, entry by entry, under the same rules as
//!   [`super::post_within`]: the entry's shape is checked by [`super::check`], and an entry that
//!   would take a balance below zero is refused whole, changing nothing.
//! - [`LedgerBatch::write`] adds everything to the batch's [`Writes`] at the end: the entries and
//!   their postings with multi-row inserts, then every changed account once (its final balance, its
//!   version moved on by one). Each posting records its account's balance after its own entry, as
//!   a single post does.
//! - [`LedgerBatch::mark`] and [`LedgerBatch::undo_to`] take back what was posted after a point (an
//!   order refused after its hold), as a savepoint would, without a statement.
//!
//! The caller keeps the accounts steady until the transaction ends: on SQLite its first statement
//! takes the database's write lock, and on PostgreSQL every account is read `FOR UPDATE`, so the
//! balances read here stay the balances in the database until the commit.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use rust_decimal::Decimal;
use sea_orm::{
    ActiveModelTrait,
    ActiveValue::Set,
    ColumnTrait, Condition, DatabaseBackend, DbErr, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect, QueryTrait, Statement,
    sea_query::{
        MysqlQueryBuilder, OnConflict, PostgresQueryBuilder, QueryStatementWriter,
        SqliteQueryBuilder,
    },
};

use super::{AccountRef, Idempotency, LedgerError, NewEntry, check, parse};
use crate::db::{ROWS_PER_STATEMENT, WriterTransaction};
use crate::entity::{idempotency_record, journal_entry, journal_posting, ledger_account};

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

/// Entries posted in memory, written by [`LedgerBatch::write`].
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
        txn: &WriterTransaction<'_>,
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
        let rows = txn
            .find(
                ledger_account::Entity::find()
                    .filter(accounts_condition(&missing))
                    .order_by_asc(ledger_account::Column::Id)
                    .lock_exclusive(),
            )
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
        txn: &WriterTransaction<'_>,
        account: AccountRef,
        asset: &str,
    ) -> Result<(), DbErr> {
        if self.accounts.contains_key(&(account, asset.to_owned())) {
            return Ok(());
        }
        let find = || txn.find(super::accounts::account_query(account, asset));
        let row = match find().await?.pop() {
            Some(row) => row,
            None => {
                let now = crate::clock::now_ms();
                let insert = super::accounts::new_account(account, asset, now);
                txn.execute(insert.build(txn.backend())).await?;
                find().await?.pop().ok_or_else(|| {
                    DbErr::RecordNotFound(format!("the {asset} account just created"))
                })?
            }
        };
        self.hold(account, asset, row);
        Ok(())
    }

    /// The balance of `account` in `asset` with the batch's entries so far.
    pub async fn balance(
        &mut self,
        txn: &WriterTransaction<'_>,
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
        txn: &WriterTransaction<'_>,
        entry: &NewEntry,
    ) -> Result<EntryIndex, LedgerError> {
        let net = check(entry)?;
        // The accounts not held yet in one statement (a fill's counterparty that sent nothing in
        // this batch has two), then those that do not exist yet created one by one.
        let wanted: Vec<(AccountRef, &str)> = net
            .keys()
            .map(|(account, asset)| (*account, asset.as_str()))
            .collect();
        self.load(txn, &wanted).await?;
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
        // Each posting records the running balance of its account after it (see `post_within`).
        let mut running: BTreeMap<(AccountRef, String), Decimal> = net
            .keys()
            .map(|key| (key.clone(), self.accounts[key].balance))
            .collect();
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
            created_at: crate::clock::now_ms(),
        });
        for posting in &entry.postings {
            let key = (posting.account, posting.asset.clone());
            let held = &self.accounts[&key];
            let balance = running
                .get_mut(&key)
                .expect("every posted account is netted");
            *balance += posting.amount;
            self.postings.push(PendingPosting {
                entry: index,
                account_id: held.row.id,
                asset: posting.asset.clone(),
                amount: posting.amount.normalize().to_string(),
                balance_after: balance.normalize().to_string(),
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

    /// Adds the batch's writes to `writes`: its entries (with the ids `entry_ids`, one per entry
    /// in [`EntryIndex`] order), their postings, and every changed account once.
    pub fn write(self, entry_ids: &[i64], writes: &mut Writes) {
        let entries =
            self.entries
                .into_iter()
                .zip(entry_ids)
                .map(|(entry, id)| journal_entry::ActiveModel {
                    id: Set(*id),
                    kind: Set(entry.kind),
                    reference: Set(entry.reference),
                    user_id: Set(entry.user_id),
                    actor_id: Set(entry.actor_id),
                    memo: Set(entry.memo),
                    created_at: Set(entry.created_at),
                });
        writes.insert(entries.collect());
        let postings = self
            .postings
            .into_iter()
            .map(|posting| journal_posting::ActiveModel {
                entry_id: Set(entry_ids[posting.entry.0]),
                account_id: Set(posting.account_id),
                asset: Set(posting.asset),
                amount: Set(posting.amount),
                balance_after: Set(posting.balance_after),
                ..Default::default()
            });
        writes.insert(postings.collect());
        let now = crate::clock::now_ms();
        let mut changed: Vec<Held> = self
            .accounts
            .into_values()
            .filter(|held| held.changed)
            .collect();
        // In id order, as accounts are locked everywhere else.
        changed.sort_by_key(|held| held.row.id);
        let accounts = changed.into_iter().map(|held| ledger_account::ActiveModel {
            id: Set(held.row.id),
            owner: Set(held.row.owner),
            user_id: Set(held.row.user_id),
            asset: Set(held.row.asset),
            bucket: Set(held.row.bucket),
            balance: Set(held.balance.normalize().to_string()),
            may_go_negative: Set(held.row.may_go_negative),
            version: Set(held.row.version + 1),
            updated_at: Set(now),
        });
        writes.upsert(
            accounts.collect(),
            OnConflict::column(ledger_account::Column::Id)
                .update_columns([
                    ledger_account::Column::Balance,
                    ledger_account::Column::Version,
                    ledger_account::Column::UpdatedAt,
                ])
                .to_owned(),
        );
    }
}

/// Statements collected as SQL text and sent to the database in one round trip
/// ([`Writes::run`]). Values are written into the text by sea-query's builder for the
/// connection's backend, which quotes and escapes them; nothing is bound, so the bound-value
/// limits of SQLite and PostgreSQL do not apply.
#[derive(Debug)]
pub struct Writes {
    backend: DatabaseBackend,
    /// The statements, each ended by `;` and a new line, grouped into the messages sent.
    messages: Vec<String>,
}

/// The most SQL text one message to a database server carries (a longer statement goes alone):
/// within one TLS record (16 KiB), so that the message leaves in one `send`. sqlx sets no
/// `TCP_NODELAY`, and over TLS a longer message is written record by record: the second write
/// waited for the server to acknowledge the first, which it delays by up to 40 ms. A spot batch of
/// 30 orders wrote about that much, and its write took 45–48 ms on PostgreSQL over TLS (419 order
/// requests a second against 3,181 without TLS). SQLite, in process, takes everything at once.
const MAX_MESSAGE: usize = 15 * 1024;

impl Writes {
    /// No statements yet, for `backend`.
    pub fn new(backend: DatabaseBackend) -> Self {
        Self {
            backend,
            messages: Vec::new(),
        }
    }

    fn push(&mut self, statement: &impl QueryStatementWriter) {
        let text = match self.backend {
            DatabaseBackend::Postgres => statement.to_string(PostgresQueryBuilder),
            DatabaseBackend::MySql => statement.to_string(MysqlQueryBuilder),
            _ => statement.to_string(SqliteQueryBuilder),
        };
        let full = |message: &String| {
            self.backend != DatabaseBackend::Sqlite
                && !message.is_empty()
                && message.len() + text.len() + 2 > MAX_MESSAGE
        };
        if self.messages.last().is_none_or(full) {
            self.messages.push(String::new());
        }
        if let Some(message) = self.messages.last_mut() {
            message.push_str(&text);
            message.push_str(";\n");
        }
    }

    /// `rows` inserted.
    pub fn insert<A>(&mut self, rows: Vec<A>)
    where
        A: ActiveModelTrait + Clone,
    {
        for chunk in rows.chunks(ROWS_PER_STATEMENT) {
            let insert = <A::Entity as EntityTrait>::insert_many(chunk.to_vec()).into_query();
            self.push(&insert);
        }
    }

    /// `rows` inserted, or updated as `on_conflict` says where they exist.
    pub fn upsert<A>(&mut self, rows: Vec<A>, on_conflict: OnConflict)
    where
        A: ActiveModelTrait + Clone,
    {
        for chunk in rows.chunks(ROWS_PER_STATEMENT) {
            let mut insert = <A::Entity as EntityTrait>::insert_many(chunk.to_vec()).into_query();
            insert.on_conflict(on_conflict.clone());
            self.push(&insert);
        }
    }

    /// Whether there is nothing to write.
    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }

    /// Runs every statement, in order, inside `txn`: in one round trip on SQLite, in one per
    /// `MAX_MESSAGE` of text on a database server.
    pub async fn run(self, txn: &WriterTransaction<'_>) -> Result<(), DbErr> {
        for message in &self.messages {
            txn.execute_unprepared(message).await?;
        }
        Ok(())
    }
}

/// The rows of `accounts` (with others of the same buckets, owners and assets, which a caller
/// filters out): per bucket, its owners and assets, so the index on (owner, asset, bucket) is
/// probed for each combination — users' and the house's buckets differ, and one set of owners
/// times one of buckets would probe house buckets for every user.
pub(crate) fn accounts_condition(accounts: &[(AccountRef, &str)]) -> Condition {
    let mut by_bucket: BTreeMap<&str, (BTreeSet<String>, BTreeSet<&str>)> = BTreeMap::new();
    for (account, asset) in accounts {
        let (owners, assets) = by_bucket.entry(account.bucket_name()).or_default();
        owners.insert(account.owner());
        assets.insert(asset);
    }
    let mut any = Condition::any();
    for (bucket, (owners, assets)) in by_bucket {
        any = any.add(
            Condition::all()
                .add(ledger_account::Column::Bucket.eq(bucket))
                .add(ledger_account::Column::Owner.is_in(owners))
                .add(ledger_account::Column::Asset.is_in(assets)),
        );
    }
    any
}

/// Where a batch's new row ids come from, so that rows can be written with their ids (and refer
/// to each other) in one round trip.
#[derive(Debug)]
pub enum NewIds {
    /// SQLite: counting on from the largest id each table has given, read once at the start of
    /// the transaction, which holds the database's write lock (no one else inserts meanwhile).
    After(HashMap<&'static str, i64>),
    /// PostgreSQL: the tables' own sequences (safe beside other writers and other servers).
    Sequences,
}

impl NewIds {
    /// Ready to give ids of `tables` inside `txn` (on SQLite: one statement reads their largest ids).
    pub async fn start(
        txn: &WriterTransaction<'_>,
        tables: &[&'static str],
    ) -> Result<Self, DbErr> {
        let backend = txn.backend();
        if backend == DatabaseBackend::Postgres {
            return Ok(NewIds::Sequences);
        }
        let columns: Vec<String> = tables
            .iter()
            .map(|table| {
                format!(
                    "MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = '{table}'), 0), \
                     COALESCE((SELECT MAX(id) FROM {table}), 0)) AS \"{table}\""
                )
            })
            .collect();
        let sql = format!("SELECT {}", columns.join(", "));
        let row = txn
            .integers(Statement::from_string(backend, sql))
            .await?
            .pop()
            .filter(|row| row.len() == tables.len())
            .ok_or_else(|| DbErr::RecordNotFound("the largest ids".into()))?;
        Ok(NewIds::After(tables.iter().copied().zip(row).collect()))
    }

    /// `count` new ids of `table`.
    pub async fn take(
        &mut self,
        txn: &WriterTransaction<'_>,
        table: &'static str,
        count: usize,
    ) -> Result<Vec<i64>, DbErr> {
        let mut taken = self.take_each(txn, &[(table, count)]).await?;
        Ok(taken.pop().unwrap_or_default())
    }

    /// New ids for several tables at once (`(table, count)`), in one statement at most.
    pub async fn take_each(
        &mut self,
        txn: &WriterTransaction<'_>,
        wanted: &[(&'static str, usize)],
    ) -> Result<Vec<Vec<i64>>, DbErr> {
        match self {
            NewIds::After(last) => wanted
                .iter()
                .map(|(table, count)| {
                    let from = *last
                        .get(table)
                        .ok_or_else(|| DbErr::Custom(format!("no ids of {table} were read")))?;
                    last.insert(table, from + *count as i64);
                    Ok((1..=*count as i64).map(|n| from + n).collect())
                })
                .collect(),
            NewIds::Sequences => {
                let parts: Vec<String> = wanted
                    .iter()
                    .enumerate()
                    .filter(|(_, (_, count))| *count > 0)
                    .map(|(n, (table, count))| {
                        format!(
                            "SELECT {n}::bigint AS part, nextval(pg_get_serial_sequence('{table}', 'id')) AS id \
                             FROM generate_series(1, {count})"
                        )
                    })
                    .collect();
                let mut taken = vec![Vec::new(); wanted.len()];
                if parts.is_empty() {
                    return Ok(taken);
                }
                let rows = txn
                    .integers(Statement::from_string(
                        txn.backend(),
                        parts.join(" UNION ALL "),
                    ))
                    .await?;
                for row in rows {
                    if let [part, id] = row[..] {
                        taken[part as usize].push(id);
                    }
                }
                Ok(taken)
            }
        }
    }
}

/// The stored records of the idempotency keys `keys` (a batch's keys, read in one statement).
pub async fn find_keys(
    txn: &WriterTransaction<'_>,
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
    txn.find(idempotency_record::Entity::find().filter(any))
        .await
}

/// Adds the records of idempotency keys with their answers (of requests that post no entry of
/// their own) to `writes`.
pub fn write_keys(records: Vec<(Idempotency, String)>, writes: &mut Writes) {
    let now = crate::clock::now_ms();
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
    writes.insert(rows.collect());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `count` idempotency records with answers of `answer_len` characters.
    fn keys(count: usize, answer_len: usize) -> Vec<(Idempotency, String)> {
        (0..count)
            .map(|n| {
                (
                    Idempotency {
                        user_id: 7,
                        key: format!("key-{n}"),
                        operation: "submitOrder",
                        request_hash: "ab".repeat(32),
                    },
                    "x".repeat(answer_len),
                )
            })
            .collect()
    }

    #[test]
    fn a_server_gets_whole_statements_in_messages_of_one_tls_record() {
        let mut server = Writes::new(DatabaseBackend::Postgres);
        let mut sqlite = Writes::new(DatabaseBackend::Sqlite);
        // Forty statements of about 1.5 KB (60 KB in all), then one longer than a message.
        for writes in [&mut server, &mut sqlite] {
            for _ in 0..40 {
                write_keys(keys(5, 200), writes);
            }
            write_keys(keys(1, 20 * 1024), writes);
        }

        assert_eq!(sqlite.messages.len(), 1, "in process: one call");
        // 60 KB in messages of at most 15 KiB, and the long statement alone.
        assert!(
            (5..=7).contains(&server.messages.len()),
            "{}",
            server.messages.len()
        );
        for message in &server.messages {
            let statements = message.matches(";\n").count();
            assert!(
                message.len() <= MAX_MESSAGE || statements == 1,
                "{}",
                message.len()
            );
            assert!(message.ends_with(";\n"));
        }
        // Every statement is there, whole, in both.
        let statements = |writes: &Writes, builder: &str| -> usize {
            writes
                .messages
                .concat()
                .split(";\n")
                .filter(|s| s.starts_with(builder))
                .count()
        };
        assert_eq!(statements(&server, "INSERT INTO"), 41);
        assert_eq!(statements(&sqlite, "INSERT INTO"), 41);
        assert!(Writes::new(DatabaseBackend::Postgres).is_empty());
    }
}
