//! The connection the spot markets write with, and its transactions.
//!
//! On an SQLite file it is a [`DirectSqlite`] of its own: the markets' batches take turns anyway,
//! a connection of their own keeps its page cache between batches (SQLite drops a connection's
//! cache whenever another connection has written since its last transaction, and a pool hands out
//! its idle connections in turn), and driving it from the market's task spares each statement two
//! thread hand-offs. Elsewhere (PostgreSQL, an in-memory SQLite database, which another
//! connection would not see) it is the shared connection itself.

use std::sync::Arc;

use sea_orm::{
    ConnectionTrait, DatabaseConnection, DatabaseTransaction, DbBackend, DbErr, EntityTrait,
    Select, SqliteTransactionMode, Statement, TransactionOptions, TransactionTrait, TryIntoModel,
};

use super::{
    DbOpenError, SQLITE_WRITER_AUTOCHECKPOINT_PAGES, SQLITE_WRITER_CACHE_KIB,
    direct::{DirectSqlite, DirectTransaction},
    is_sqlite_file, sqlite_path,
};
use crate::config::Config;

/// The spot markets' connection; see the module's documentation.
#[derive(Debug, Clone)]
pub enum Writer {
    /// The shared connection (PostgreSQL, or an in-memory SQLite database).
    Shared(DatabaseConnection),
    /// An SQLite file's connection of the markets' own.
    Own(Arc<DirectSqlite>),
}

/// A transaction of a [`Writer`], rolled back when dropped uncommitted.
pub enum WriterTransaction<'a> {
    /// sea-orm's transaction on the shared connection.
    Shared(DatabaseTransaction),
    /// A transaction of the markets' own SQLite connection.
    Own(DirectTransaction<'a>),
}

/// The markets' connection for `config`'s database, beside the shared `db`.
pub async fn connect_writer(
    config: &Config,
    db: &DatabaseConnection,
) -> Result<Writer, DbOpenError> {
    let url = config.effective_database_url();
    if !is_sqlite_file(&url) {
        return Ok(Writer::Shared(db.clone()));
    }
    let internal = |message: String| DbErr::Conn(sea_orm::RuntimeErr::Internal(message));
    let path = sqlite_path(&url).ok_or_else(|| internal(format!("not an SQLite file: {url}")))?;
    let direct = tokio::task::spawn_blocking(move || DirectSqlite::open(&path, &writer_settings()))
        .await
        .map_err(|e| internal(e.to_string()))??;
    Ok(Writer::Own(Arc::new(direct)))
}

/// The settings of the markets' own SQLite connection: those of every connection of the server
/// (WAL, `synchronous=NORMAL`, foreign keys; the busy handler is installed when it opens), a commit
/// that checkpoints only as a backstop, a larger page cache, and statement journals in memory.
///
/// A statement that may fail partway inside a transaction (a batch's multi-row inserts and
/// upserts) keeps the pages it changes in a statement journal, to undo just itself. SQLite keeps
/// that journal in memory up to 64 KiB and then writes it to a temporary file: a market batch's
/// statements passed that, and the journal's file writes were a fifth of the batch's SQLite time.
pub(super) fn writer_settings() -> Vec<String> {
    vec![
        "PRAGMA temp_store = MEMORY".to_owned(),
        "PRAGMA journal_mode = WAL".to_owned(),
        "PRAGMA synchronous = NORMAL".to_owned(),
        "PRAGMA foreign_keys = ON".to_owned(),
        format!("PRAGMA wal_autocheckpoint = {SQLITE_WRITER_AUTOCHECKPOINT_PAGES}"),
        format!("PRAGMA cache_size = {}", -SQLITE_WRITER_CACHE_KIB),
    ]
}

impl Writer {
    /// Starts a transaction that holds SQLite's write lock from the start (`BEGIN IMMEDIATE`; a
    /// transaction that reads first cannot take the lock once another connection has written
    /// meanwhile: it fails at once); a plain one on PostgreSQL.
    pub async fn begin_immediate(&self) -> Result<WriterTransaction<'_>, DbErr> {
        match self {
            Writer::Shared(db) => {
                let txn = match db.get_database_backend() {
                    DbBackend::Sqlite => {
                        db.begin_with_options(TransactionOptions {
                            sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
                            ..TransactionOptions::default()
                        })
                        .await?
                    }
                    _ => db.begin().await?,
                };
                Ok(WriterTransaction::Shared(txn))
            }
            Writer::Own(direct) => {
                if let Some(txn) = direct.try_begin_immediate()? {
                    return Ok(WriterTransaction::Own(txn));
                }
                // Another connection holds the write lock: wait for it on a thread that may
                // block, not on one of the runtime's.
                let waiting = direct.clone();
                tokio::task::spawn_blocking(move || waiting.begin_immediate_waiting())
                    .await
                    .map_err(|e| DbErr::Custom(e.to_string()))??;
                Ok(WriterTransaction::Own(direct.adopt()?))
            }
        }
    }

    /// The models of `E` that `select` finds, outside a transaction.
    pub async fn find<E>(&self, select: Select<E>) -> Result<Vec<E::Model>, DbErr>
    where
        E: EntityTrait,
        E::ActiveModel: TryIntoModel<E::Model>,
    {
        match self {
            Writer::Shared(db) => select.all(db).await,
            Writer::Own(direct) => direct.find(select),
        }
    }

    /// One passive checkpoint of an SQLite file's WAL on this connection (see
    /// [`super::checkpoint_passive`]); the frames in the WAL.
    pub async fn checkpoint_passive(&self) -> Result<i64, DbErr> {
        match self {
            Writer::Shared(db) => super::checkpoint_passive(db).await,
            Writer::Own(direct) => {
                // Its columns: busy, log (the frames in the WAL), checkpointed.
                let statement =
                    Statement::from_string(DbBackend::Sqlite, "PRAGMA wal_checkpoint(PASSIVE)");
                let rows = direct.integers(&statement)?;
                Ok(rows
                    .first()
                    .and_then(|row| row.get(1))
                    .copied()
                    .unwrap_or(0))
            }
        }
    }
}

impl WriterTransaction<'_> {
    /// The database's kind.
    pub fn backend(&self) -> DbBackend {
        match self {
            WriterTransaction::Shared(txn) => txn.get_database_backend(),
            WriterTransaction::Own(_) => DbBackend::Sqlite,
        }
    }

    /// Commits the transaction.
    pub async fn commit(self) -> Result<(), DbErr> {
        match self {
            WriterTransaction::Shared(txn) => txn.commit().await,
            WriterTransaction::Own(txn) => txn.commit(),
        }
    }

    /// Runs `statement` (one statement, with its values).
    pub async fn execute(&self, statement: Statement) -> Result<(), DbErr> {
        match self {
            WriterTransaction::Shared(txn) => txn.execute_raw(statement).await.map(|_| ()),
            WriterTransaction::Own(txn) => txn.connection().execute(&statement).map(|_| ()),
        }
    }

    /// Runs every statement of `sql` (without values), in order.
    pub async fn execute_unprepared(&self, sql: &str) -> Result<(), DbErr> {
        match self {
            WriterTransaction::Shared(txn) => txn.execute_unprepared(sql).await.map(|_| ()),
            WriterTransaction::Own(txn) => txn.connection().execute_unprepared(sql).map(|_| ()),
        }
    }

    /// The models of `E` that `select` finds.
    pub async fn find<E>(&self, select: Select<E>) -> Result<Vec<E::Model>, DbErr>
    where
        E: EntityTrait,
        E::ActiveModel: TryIntoModel<E::Model>,
    {
        match self {
            WriterTransaction::Shared(txn) => select.all(txn).await,
            WriterTransaction::Own(txn) => txn.connection().find(select),
        }
    }

    /// Every row of `statement`, whose columns are all integers, in the statement's order.
    pub async fn integers(&self, statement: Statement) -> Result<Vec<Vec<i64>>, DbErr> {
        match self {
            WriterTransaction::Shared(txn) => txn
                .query_all_raw(statement)
                .await?
                .iter()
                .map(|row| {
                    (0..row.column_names().len())
                        .map(|at| row.try_get_by_index::<i64>(at))
                        .collect::<Result<Vec<i64>, DbErr>>()
                })
                .collect(),
            WriterTransaction::Own(txn) => txn.connection().integers(&statement),
        }
    }
}
