//! The database connection: SQLite by default (a file under the data folder, WAL journal, busy
//! timeout), PostgreSQL when `DATABASE_URL` says so. Migrations run on every start.

use std::time::Duration;

use migration::{Migrator, MigratorTrait};
use sea_orm::{
    ConnectOptions, Database, DatabaseConnection, DbErr,
    sqlx::sqlite::{SqliteJournalMode, SqliteSynchronous},
};

use crate::config::Config;

/// How long an SQLite writer waits for the lock before giving up.
pub const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// WAL pages after which a commit copies the WAL back into the database (SQLite's default is
/// 1,000). The markets rewrite the same hot pages (accounts, indexes) in every batch, and a
/// checkpoint copies each page once however often it changed, with the only `fsync`s of
/// `synchronous=NORMAL`: fewer, larger checkpoints cost the writers less. The WAL file grows to
/// about this many pages (40 MiB at 4 KiB) and is reused from its start after each checkpoint.
pub const SQLITE_WAL_AUTOCHECKPOINT_PAGES: u32 = 10_000;

/// Pages of SQLite's page cache of [`connect_writer`]'s connection, in KiB when negative as
/// `PRAGMA cache_size` takes it (the default is 2,000 KiB). A market batch touches the right edges
/// of the journal and trade tables and leaves all over the indexes (postings by account,
/// idempotency keys by user): kept between batches, those pages are not read again.
pub const SQLITE_WRITER_CACHE_KIB: i64 = 32 * 1024;

/// Why the database could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum DbOpenError {
    /// The data folder could not be created.
    #[error("cannot create the data folder {path}: {source}")]
    DataDir {
        path: std::path::PathBuf,
        source: std::io::Error,
    },
    /// Connecting or migrating failed.
    #[error("database error: {0}")]
    Db(#[from] DbErr),
}

/// Connects to the configured database and applies every pending migration.
pub async fn connect(config: &Config) -> Result<DatabaseConnection, DbOpenError> {
    let url = config.effective_database_url();
    if url.starts_with("sqlite:") {
        std::fs::create_dir_all(&config.data_dir).map_err(|source| DbOpenError::DataDir {
            path: config.data_dir.clone(),
            source,
        })?;
    }
    let mut options = ConnectOptions::new(url.clone());
    options
        .sqlx_logging(false)
        .connect_timeout(Duration::from_secs(10))
        .map_sqlx_sqlite_opts(|opts| {
            opts.journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .busy_timeout(SQLITE_BUSY_TIMEOUT)
                .foreign_keys(true)
                .pragma(
                    "wal_autocheckpoint",
                    SQLITE_WAL_AUTOCHECKPOINT_PAGES.to_string(),
                )
        });
    if url.starts_with("sqlite:") {
        // A local file cannot hang up, so no ping on every checkout from the pool: on SQLite
        // each ping is a round trip to the connection's sqlx thread (two context switches).
        options
            .max_connections(8)
            .min_connections(1)
            .test_before_acquire(false);
    } else {
        // A server connection can be dropped while idle (by the server, a proxy, a firewall):
        // ping only those idle for a while, not the hot ones on every checkout.
        options.test_before_acquire_if_idle_for(Duration::from_secs(30));
    }
    let db = Database::connect(options).await?;
    Migrator::up(&db, None).await?;
    tracing::info!(backend = ?db.get_database_backend(), "database ready");
    Ok(db)
}

/// The connection the spot markets write with (their batches take turns anyway). On an SQLite
/// file it is one connection of its own, with a larger page cache: SQLite drops a connection's
/// whole page cache whenever another connection has written since its last transaction, and the
/// pool hands its idle connections out in turn, so batches on the shared pool started from an empty
/// cache and read every page they touched again. Elsewhere (PostgreSQL, an in-memory SQLite
/// database, which a second pool would not see) it is `db` itself.
pub async fn connect_writer(
    config: &Config,
    db: &DatabaseConnection,
) -> Result<DatabaseConnection, DbOpenError> {
    let url = config.effective_database_url();
    if !url.starts_with("sqlite:") || url.contains(":memory:") || url.contains("mode=memory") {
        return Ok(db.clone());
    }
    let mut options = ConnectOptions::new(url);
    options
        .sqlx_logging(false)
        .connect_timeout(Duration::from_secs(10))
        .max_connections(1)
        .min_connections(1)
        .test_before_acquire(false)
        // The one connection is kept: its page cache is the point.
        .idle_timeout(None::<Duration>)
        .max_lifetime(None::<Duration>)
        .map_sqlx_sqlite_opts(|opts| {
            opts.journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .busy_timeout(SQLITE_BUSY_TIMEOUT)
                .foreign_keys(true)
                .pragma(
                    "wal_autocheckpoint",
                    SQLITE_WAL_AUTOCHECKPOINT_PAGES.to_string(),
                )
                .pragma("cache_size", (-SQLITE_WRITER_CACHE_KIB).to_string())
        });
    Ok(Database::connect(options).await?)
}
