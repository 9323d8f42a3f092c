//! The database connection: SQLite by default (a file under the data folder, WAL journal, busy
//! timeout), PostgreSQL when `DATABASE_URL` says so. Migrations run on every start.

use std::time::Duration;

use migration::{Migrator, MigratorTrait};
use sea_orm::{
    ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DbErr, Statement,
    sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqliteSynchronous},
};

use crate::config::Config;

pub mod direct;
mod writer;

pub use writer::{Writer, WriterTransaction, connect_writer};

/// Most rows one `INSERT` statement carries: a row binds one variable per column, and SQLite
/// (32,766) and PostgreSQL (65,535) cap the variables of a statement.
pub const ROWS_PER_STATEMENT: usize = 1_000;

/// `rows` inserted in statements of at most [`ROWS_PER_STATEMENT`] rows each (within `db`'s
/// transaction, if it is one).
pub async fn insert_in_chunks<A>(db: &impl ConnectionTrait, rows: Vec<A>) -> Result<(), DbErr>
where
    A: sea_orm::ActiveModelTrait + Clone,
{
    for chunk in rows.chunks(ROWS_PER_STATEMENT) {
        <A::Entity as sea_orm::EntityTrait>::insert_many(chunk.to_vec())
            .exec(db)
            .await?;
    }
    Ok(())
}

/// Makes `txn` give up a statement that waits longer than `wait` (e.g. `"200ms"`) for a row lock,
/// on PostgreSQL (`SET LOCAL lock_timeout`); SQLite has no row locks. For background work that must
/// yield to trading rather than deadlock with it; see [`is_lock_wait_refused`].
pub async fn limit_lock_wait(txn: &impl ConnectionTrait, wait: &str) -> Result<(), DbErr> {
    if txn.get_database_backend() == sea_orm::DbBackend::Postgres {
        txn.execute_unprepared(&format!("SET LOCAL lock_timeout = '{wait}'"))
            .await?;
    }
    Ok(())
}

/// Whether `error` is PostgreSQL giving up a lock wait: the lock timeout of
/// [`limit_lock_wait`] (SQLSTATE 55P03) or a deadlock it broke (40P01). The transaction is lost;
/// another attempt may succeed.
pub fn is_lock_wait_refused(error: &DbErr) -> bool {
    let (DbErr::Exec(sea_orm::RuntimeErr::SqlxError(cause))
    | DbErr::Query(sea_orm::RuntimeErr::SqlxError(cause))) = error
    else {
        return false;
    };
    cause
        .as_database_error()
        .and_then(|database| database.code())
        .is_some_and(|code| code == "55P03" || code == "40P01")
}

/// How long an SQLite writer waits for the lock before giving up.
pub const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// WAL pages after which a commit copies the WAL back into the database (SQLite's default is
/// 1,000). The markets rewrite the same hot pages (accounts, indexes) in every batch, and a
/// checkpoint copies each page once however often it changed, with the only `fsync`s of
/// `synchronous=NORMAL`: fewer, larger checkpoints cost the writers less. The WAL file grows to
/// about this many pages (40 MiB at 4 KiB) and is reused from its start after each checkpoint.
pub const SQLITE_WAL_AUTOCHECKPOINT_PAGES: u32 = 10_000;

/// How often [`run_checkpoints`] copies the WAL back into an SQLite file, off the writers' path.
pub const SQLITE_CHECKPOINT_INTERVAL: Duration = Duration::from_millis(250);

/// WAL pages after which a commit of [`connect_writer`]'s connection checkpoints by itself: only a
/// backstop, should [`run_checkpoints`] fall behind. A commit that checkpoints holds the markets'
/// one connection while it copies and syncs (about 40 ms at the 10,000 pages of the others, the
/// spot orders' whole p99 tail), so in normal operation the background task does it.
pub const SQLITE_WRITER_AUTOCHECKPOINT_PAGES: u32 = 50_000;

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
        .map_sqlx_sqlite_opts(|opts| sqlite_settings(opts, SQLITE_WAL_AUTOCHECKPOINT_PAGES))
        .map_sqlx_sqlite_pool_opts(with_prompt_busy_retries);
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

/// The settings every SQLite connection of the server has: the WAL journal, `synchronous=NORMAL`,
/// the busy timeout, foreign keys, a commit that checkpoints from `autocheckpoint_pages`, and
/// statement journals in memory.
fn sqlite_settings(opts: SqliteConnectOptions, autocheckpoint_pages: u32) -> SqliteConnectOptions {
    opts.journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal)
        .busy_timeout(SQLITE_BUSY_TIMEOUT)
        .foreign_keys(true)
        .pragma("wal_autocheckpoint", autocheckpoint_pages.to_string())
        // Statement journals in memory, not in a temporary file past 64 KiB (see
        // `writer::writer_settings`).
        .pragma("temp_store", "MEMORY")
}

/// How long a connection that finds SQLite's write lock taken sleeps before it tries again.
const SQLITE_BUSY_RETRY: Duration = Duration::from_micros(100);

/// Replaces SQLite's busy handler on every connection the pool opens with [`retry_soon`].
fn with_prompt_busy_retries(
    pool: sea_orm::sqlx::pool::PoolOptions<sea_orm::sqlx::Sqlite>,
) -> sea_orm::sqlx::pool::PoolOptions<sea_orm::sqlx::Sqlite> {
    pool.after_connect(|connection, _| {
        Box::pin(async move {
            let mut handle = connection.lock_handle().await?;
            // SAFETY: the handle is the connection's open `sqlite3`, locked for this call;
            // `retry_soon` keeps no pointer and uses no argument but the count.
            unsafe {
                libsqlite3_sys::sqlite3_busy_handler(
                    handle.as_raw_handle().as_ptr(),
                    Some(retry_soon),
                    std::ptr::null_mut(),
                );
            }
            Ok(())
        })
    })
}

thread_local! {
    /// When the current wait of [`retry_soon`] began: the handler runs on the connection's
    /// thread, inside the statement that waits, so one wait at a time per thread.
    static WAITING_SINCE: std::cell::Cell<Option<std::time::Instant>> =
        const { std::cell::Cell::new(None) };
}

/// SQLite's busy handler for the server's connections: sleep [`SQLITE_BUSY_RETRY`] and try again,
/// for up to [`SQLITE_BUSY_TIMEOUT`]. SQLite's own (`busy_timeout`) sleeps 1, 2, 5, … up to
/// 100 ms between tries, and the lock is only won by trying in the gap between two transactions
/// of whoever holds it: behind the spot markets, which write back to back under heavy trading
/// with gaps of a fraction of a millisecond, a write of another connection waited seconds.
/// Trying every 100 µs finds the first gap.
extern "C" fn retry_soon(_: *mut std::ffi::c_void, tries: std::ffi::c_int) -> std::ffi::c_int {
    let now = std::time::Instant::now();
    let since = WAITING_SINCE.with(|since| match since.get() {
        Some(start) if tries > 0 => start,
        _ => {
            since.set(Some(now));
            now
        }
    });
    if now.duration_since(since) >= SQLITE_BUSY_TIMEOUT {
        return 0;
    }
    std::thread::sleep(SQLITE_BUSY_RETRY);
    1
}

/// Whether `url` names an SQLite database in a file (not in memory).
pub fn is_sqlite_file(url: &str) -> bool {
    url.starts_with("sqlite:") && !url.contains(":memory:") && !url.contains("mode=memory")
}

/// The file an SQLite `url` names, as sqlx reads it.
pub fn sqlite_path(url: &str) -> Option<std::path::PathBuf> {
    use std::str::FromStr;
    let options = SqliteConnectOptions::from_str(url).ok()?;
    Some(options.get_filename().to_path_buf())
}

/// One passive checkpoint of an SQLite file's WAL on `db`: it copies the frames every reader is
/// done with into the database, waiting for no writer and blocking none. Returns the frames in the
/// WAL.
pub async fn checkpoint_passive(db: &impl ConnectionTrait) -> Result<i64, DbErr> {
    let row = db
        .query_one_raw(Statement::from_string(
            db.get_database_backend(),
            "PRAGMA wal_checkpoint(PASSIVE)",
        ))
        .await?;
    Ok(match row {
        Some(row) => row.try_get::<i64>("", "log")?,
        None => 0,
    })
}

/// WAL frames from which [`run_checkpoints`] has the writer finish a checkpoint.
pub const SQLITE_WAL_FINISH_FRAMES: i64 = 10_000;

/// Keeps an SQLite file's WAL copied back into the database off the writers' path, until
/// `shutdown`: every [`SQLITE_CHECKPOINT_INTERVAL`] a passive checkpoint on `db` (the shared pool)
/// copies what the spot markets' writer has committed, and once the WAL holds
/// [`SQLITE_WAL_FINISH_FRAMES`] frames, `finish` has the writer itself checkpoint between two of its
/// batches — only the few frames not copied yet — so that its next batch starts the WAL from its
/// beginning again (a WAL is restarted only by a writer that finds it wholly copied, which under
/// continuous writes the background checkpoints alone never achieve).
pub async fn run_checkpoints<F, Finish>(
    db: DatabaseConnection,
    finish: F,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
) where
    F: Fn() -> Finish,
    Finish: Future<Output = Result<(), DbErr>>,
{
    let mut interval = tokio::time::interval(SQLITE_CHECKPOINT_INTERVAL);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = interval.tick() => {
                let result = match checkpoint_passive(&db).await {
                    Ok(frames) if frames >= SQLITE_WAL_FINISH_FRAMES => finish().await,
                    Ok(_) => Ok(()),
                    Err(error) => Err(error),
                };
                if let Err(error) = result {
                    tracing::warn!(%error, "WAL checkpoint failed");
                }
            }
            _ = shutdown.changed() => break,
        }
    }
}

/// A database of the server's own settings in a temporary folder, for unit tests: the folder
/// (removed when dropped), the configuration pointing at it and the migrated pool.
#[cfg(test)]
pub(crate) async fn temp_database() -> (tempfile::TempDir, Config, DatabaseConnection) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let config = Config {
        data_dir: dir.path().to_path_buf(),
        ..Config::default()
    };
    let db = connect(&config).await.expect("the test database");
    (dir, config, db)
}

#[cfg(test)]
mod tests {
    use sea_orm::{ConnectOptions, ConnectionTrait, Database, TransactionTrait};

    use super::*;

    #[test]
    fn the_busy_handler_retries_until_the_busy_timeout_from_the_first_try() {
        let started = std::time::Instant::now();
        assert_eq!(retry_soon(std::ptr::null_mut(), 0), 1);
        assert!(started.elapsed() >= SQLITE_BUSY_RETRY);
        assert_eq!(retry_soon(std::ptr::null_mut(), 1), 1);
        // The same wait, once its start is the busy timeout ago: SQLite gets "busy".
        let long_ago = std::time::Instant::now() - SQLITE_BUSY_TIMEOUT;
        WAITING_SINCE.with(|since| since.set(Some(long_ago)));
        assert_eq!(retry_soon(std::ptr::null_mut(), 2), 0);
        // A new wait (SQLite counts from 0 again) starts a new time.
        assert_eq!(retry_soon(std::ptr::null_mut(), 0), 1);
    }

    /// The rows the tests' `waits` table holds.
    async fn rows_of_waits(pool: &DatabaseConnection) -> usize {
        pool.query_all_raw(sea_orm::Statement::from_string(
            pool.get_database_backend(),
            "SELECT id FROM waits",
        ))
        .await
        .unwrap()
        .len()
    }

    #[tokio::test]
    async fn the_markets_writer_waits_for_another_connections_lock_without_blocking_the_runtime() {
        // One runtime thread: were the writer to wait on it, the pool's transaction could not
        // commit until the busy timeout.
        let (_dir, config, pool) = temp_database().await;
        let writer = connect_writer(&config, &pool).await.unwrap();
        let Writer::Own(direct) = &writer else {
            panic!("a file has a connection of its own");
        };
        pool.execute_unprepared("CREATE TABLE waits (id INTEGER PRIMARY KEY)")
            .await
            .unwrap();
        let holding = pool
            .begin_with_options(sea_orm::TransactionOptions {
                sqlite_transaction_mode: Some(sea_orm::SqliteTransactionMode::Immediate),
                ..Default::default()
            })
            .await
            .unwrap();
        assert!(
            direct.try_begin_immediate().unwrap().is_none(),
            "the lock is taken"
        );
        let started = std::time::Instant::now();
        let (txn, ()) = tokio::join!(writer.begin_immediate(), async {
            holding
                .execute_unprepared("INSERT INTO waits (id) VALUES (1)")
                .await
                .unwrap();
            holding.commit().await.unwrap();
        });
        let txn = txn.unwrap();
        assert!(started.elapsed() < SQLITE_BUSY_TIMEOUT);
        txn.execute_unprepared("INSERT INTO waits (id) VALUES (2)")
            .await
            .unwrap();
        txn.commit().await.unwrap();
        assert_eq!(rows_of_waits(&pool).await, 2);
    }

    #[tokio::test]
    async fn a_write_behind_another_connections_transaction_waits_for_it_then_lands() {
        let (_dir, config, pool) = temp_database().await;
        let writer = connect_writer(&config, &pool).await.unwrap();
        pool.execute_unprepared("CREATE TABLE waits (id INTEGER PRIMARY KEY)")
            .await
            .unwrap();
        assert!(
            matches!(writer, Writer::Own(_)),
            "a file has a connection of its own"
        );
        let holding = writer.begin_immediate().await.unwrap();
        holding
            .execute_unprepared("INSERT INTO waits (id) VALUES (1)")
            .await
            .unwrap();
        let waiting = tokio::spawn({
            let pool = pool.clone();
            async move {
                pool.execute_unprepared("INSERT INTO waits (id) VALUES (2)")
                    .await
            }
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(!waiting.is_finished(), "the lock is held");
        holding.commit().await.unwrap();
        waiting.await.unwrap().unwrap();
        assert_eq!(rows_of_waits(&pool).await, 2);
    }

    #[tokio::test]
    async fn the_background_task_copies_the_wal_into_the_database_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("exchange.db");
        let url = format!("sqlite://{}?mode=rwc", file.display());
        assert!(is_sqlite_file(&url));
        assert!(!is_sqlite_file("sqlite::memory:"));
        // A writer that never checkpoints by itself, as the markets' connection in practice.
        let mut options = ConnectOptions::new(url.clone());
        options
            .sqlx_logging(false)
            .max_connections(1)
            .map_sqlx_sqlite_opts(|opts| {
                opts.journal_mode(SqliteJournalMode::Wal)
                    .pragma("wal_autocheckpoint", "0")
            });
        let writer = Database::connect(options).await.unwrap();
        writer
            .execute_unprepared("CREATE TABLE filler (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
            .await
            .unwrap();
        let before = std::fs::metadata(&file).unwrap().len();
        for _ in 0..50 {
            writer
                .execute_unprepared("INSERT INTO filler (text) VALUES (hex(randomblob(4000)))")
                .await
                .unwrap();
        }
        assert_eq!(
            std::fs::metadata(&file).unwrap().len(),
            before,
            "still in the WAL"
        );

        let pool = Database::connect(url).await.unwrap();
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let finished = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let finish = {
            let finished = finished.clone();
            move || {
                finished.store(true, std::sync::atomic::Ordering::SeqCst);
                async { Ok(()) }
            }
        };
        let task = tokio::spawn(run_checkpoints(pool, finish, stopped));
        let copied = async {
            while std::fs::metadata(&file).unwrap().len() < before + 50 * 4000 {
                tokio::time::sleep(SQLITE_CHECKPOINT_INTERVAL / 5).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(10), copied)
            .await
            .expect("the WAL was copied into the database file");
        // 50 small rows are far from the frames that call for the writer.
        assert!(!finished.load(std::sync::atomic::Ordering::SeqCst));
        stop.send(true).unwrap();
        task.await.unwrap();
    }
}
