//! The spot markets' SQLite connection, driven directly from the calling task.
//!
//! sqlx runs every SQLite connection on a thread of its own: each statement is handed to that
//! thread and its answer handed back, two thread wake-ups that cost about 0.45 ms together on a
//! loaded 2-core machine — more than most of a market batch's statements take in SQLite. A batch
//! is six or more statements under the write turn, so most of the turn went to hand-offs.
//! [`DirectSqlite`] is one connection opened with SQLite's own C API (the library sqlx links) and
//! used from whichever thread calls it, one caller at a time. Statements are built with sea-orm
//! as everywhere else; [`model_of`] turns a row back into an entity's model.
//!
//! Its statements run on the calling thread for as long as SQLite takes (a whole batch, about a
//! millisecond). When another connection holds the write lock, `BEGIN IMMEDIATE` waits in
//! `super::retry_soon`, the busy handler of every connection of the server.
//!
//! A row's values: an integer column declared `boolean` is a `bool`, other integers are `i64`,
//! text is `String`, and a `NULL` takes the type its column was declared with (a `NULL` of an
//! expression, which has no declared type, reads as text).

use std::{
    ffi::{CStr, CString, c_char, c_int},
    path::Path,
    ptr::{self, NonNull},
    str::FromStr,
    sync::{Mutex, MutexGuard},
};

use libsqlite3_sys as ffi;
use sea_orm::{ActiveModelTrait, DbErr, EntityTrait, RuntimeErr, Statement, TryIntoModel, Value};

/// A row a [`DirectSqlite`] read: each column's name and value, in the statement's order.
pub type DirectRow = Vec<(String, Value)>;

/// The model of `E` that `row` holds (every column of `E`'s table, by name).
pub fn model_of<E>(row: DirectRow) -> Result<E::Model, DbErr>
where
    E: EntityTrait,
    E::ActiveModel: TryIntoModel<E::Model>,
{
    let mut active = <E::ActiveModel as ActiveModelTrait>::default();
    for (name, value) in row {
        let column = E::Column::from_str(&name).map_err(|_| {
            DbErr::Type(format!(
                "{} has no column {name}",
                E::default().table_name()
            ))
        })?;
        active.try_set(column, value)?;
    }
    active.try_into_model()
}

/// One SQLite connection used from the calling thread; see the module's documentation.
pub struct DirectSqlite {
    handle: Mutex<Handle>,
}

impl std::fmt::Debug for DirectSqlite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DirectSqlite")
    }
}

/// An open `sqlite3` connection.
struct Handle(NonNull<ffi::sqlite3>);

// SAFETY: SQLite is built thread-safe (sqlx's libsqlite3-sys build), so a connection may be used
// from any thread; the mutex around it lets one thread at a time do so.
unsafe impl Send for Handle {}

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: the handle is open and used by no one else, and every statement of it was
        // finalised (`Prepared` does so when dropped).
        unsafe {
            ffi::sqlite3_close(self.0.as_ptr());
        }
    }
}

/// A prepared statement, finalised when dropped.
struct Prepared(NonNull<ffi::sqlite3_stmt>);

impl Drop for Prepared {
    fn drop(&mut self) {
        // SAFETY: the statement is the one `sqlite3_prepare_v2` gave and is finalised once.
        unsafe {
            ffi::sqlite3_finalize(self.0.as_ptr());
        }
    }
}

/// Whether a failure came from running a command or a query, as sea-orm reports them.
#[derive(Clone, Copy)]
enum Kind {
    Exec,
    Query,
}

impl DirectSqlite {
    /// Opens (creating if need be) the database file at `path`, installs the server's busy
    /// handler, then runs `settings` (whole statements such as `PRAGMA journal_mode = WAL`).
    pub fn open(path: &Path, settings: &[String]) -> Result<Self, DbErr> {
        let name = CString::new(path.to_string_lossy().as_bytes())
            .map_err(|_| DbErr::Conn(RuntimeErr::Internal("a NUL in the database path".into())))?;
        let mut raw = ptr::null_mut();
        // SAFETY: `name` is NUL-terminated and `raw` receives the new connection.
        let code = unsafe {
            ffi::sqlite3_open_v2(
                name.as_ptr(),
                &mut raw,
                ffi::SQLITE_OPEN_READWRITE | ffi::SQLITE_OPEN_CREATE | ffi::SQLITE_OPEN_NOMUTEX,
                ptr::null(),
            )
        };
        // Even a failed open usually gives a handle, which holds the message and must be closed.
        let handle = NonNull::new(raw).map(Handle);
        if code != ffi::SQLITE_OK {
            let message = match &handle {
                Some(handle) => handle.message(),
                None => "out of memory".to_owned(),
            };
            return Err(DbErr::Conn(RuntimeErr::Internal(format!(
                "cannot open {}: {message}",
                path.display()
            ))));
        }
        let handle =
            handle.ok_or_else(|| DbErr::Conn(RuntimeErr::Internal("no connection".into())))?;
        // SAFETY: the handle is open; the handler is a plain function that keeps no pointer.
        unsafe {
            ffi::sqlite3_busy_handler(handle.0.as_ptr(), Some(super::retry_soon), ptr::null_mut());
        }
        for setting in settings {
            handle.execute_all(setting)?;
        }
        Ok(Self {
            handle: Mutex::new(handle),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Handle> {
        // A panic while a statement ran leaves nothing half-done in memory here: SQLite itself
        // ends a statement that was not stepped to its end when it is finalised.
        self.handle.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts a transaction that holds the database's write lock from its first statement
    /// (`BEGIN IMMEDIATE`) when no other connection holds it; `None` when one does (nothing
    /// waited). The transaction is rolled back unless [`DirectTransaction::commit`] is called.
    pub fn try_begin_immediate(&self) -> Result<Option<DirectTransaction<'_>>, DbErr> {
        let handle = self.lock();
        // SAFETY: the handle is open; the handler is put back before the lock is released.
        unsafe { ffi::sqlite3_busy_handler(handle.0.as_ptr(), None, ptr::null_mut()) };
        let begun = handle.begin();
        unsafe {
            ffi::sqlite3_busy_handler(handle.0.as_ptr(), Some(super::retry_soon), ptr::null_mut());
        }
        drop(handle);
        match begun {
            Ok(()) => Ok(Some(self.adopt()?)),
            Err(code) if code & 0xff == ffi::SQLITE_BUSY => Ok(None),
            Err(code) => Err(self.lock().error(Kind::Exec, code)),
        }
    }

    /// Starts a `BEGIN IMMEDIATE` transaction, waiting in the busy handler while another
    /// connection holds the write lock (on a thread that may block); [`Self::adopt`] takes it on.
    pub fn begin_immediate_waiting(&self) -> Result<(), DbErr> {
        let handle = self.lock();
        handle
            .begin()
            .map_err(|code| handle.error(Kind::Exec, code))
    }

    /// The transaction [`Self::begin_immediate_waiting`] started, to run and end.
    pub fn adopt(&self) -> Result<DirectTransaction<'_>, DbErr> {
        // SAFETY: the handle is open.
        if unsafe { ffi::sqlite3_get_autocommit(self.lock().0.as_ptr()) } != 0 {
            return Err(DbErr::Custom("no transaction is open".into()));
        }
        Ok(DirectTransaction {
            connection: self,
            open: true,
        })
    }
}

/// A transaction of a [`DirectSqlite`]: its statements run on the connection itself, and it is
/// rolled back when dropped uncommitted.
pub struct DirectTransaction<'a> {
    connection: &'a DirectSqlite,
    open: bool,
}

impl DirectTransaction<'_> {
    /// The connection, to run the transaction's statements on.
    pub fn connection(&self) -> &DirectSqlite {
        self.connection
    }

    /// Commits; on failure the transaction is rolled back.
    pub fn commit(mut self) -> Result<(), DbErr> {
        self.open = false;
        let handle = self.connection.lock();
        let committed = handle.execute_all("COMMIT");
        if committed.is_err() {
            let _ = handle.execute_all("ROLLBACK");
        }
        committed.map(|_| ())
    }
}

impl Drop for DirectTransaction<'_> {
    fn drop(&mut self) {
        if self.open {
            let handle = self.connection.lock();
            if let Err(error) = handle.execute_all("ROLLBACK") {
                tracing::error!(%error, "rolling back a direct SQLite transaction failed");
            }
        }
    }
}

impl Handle {
    /// SQLite's message for the connection's last failure.
    fn message(&self) -> String {
        // SAFETY: the handle is open; the message is NUL-terminated and copied at once.
        unsafe { CStr::from_ptr(ffi::sqlite3_errmsg(self.0.as_ptr())) }
            .to_string_lossy()
            .into_owned()
    }

    fn error(&self, kind: Kind, code: c_int) -> DbErr {
        let error = RuntimeErr::Internal(format!("{} (SQLite code {code})", self.message()));
        match kind {
            Kind::Exec => DbErr::Exec(error),
            Kind::Query => DbErr::Query(error),
        }
    }

    /// Prepares the first statement of `sql`; returns it (none for only blanks or comments) and
    /// the length of `sql` it used.
    fn prepare(&self, sql: &str, kind: Kind) -> Result<(Option<Prepared>, usize), DbErr> {
        let length = c_int::try_from(sql.len()).map_err(|_| {
            DbErr::Custom(format!("a statement of {} bytes is too long", sql.len()))
        })?;
        let mut statement = ptr::null_mut();
        let mut tail: *const c_char = ptr::null();
        // SAFETY: `sql` is valid for `length` bytes (no NUL terminator needed when the length is
        // given); `tail` points into it on return.
        let code = unsafe {
            ffi::sqlite3_prepare_v2(
                self.0.as_ptr(),
                sql.as_ptr().cast(),
                length,
                &mut statement,
                &mut tail,
            )
        };
        if code != ffi::SQLITE_OK {
            return Err(self.error(kind, code));
        }
        let used = if tail.is_null() {
            sql.len()
        } else {
            // SAFETY: `tail` points into `sql`, at or after its start.
            unsafe { tail.offset_from(sql.as_ptr().cast()) as usize }
        };
        Ok((NonNull::new(statement).map(Prepared), used))
    }

    /// `BEGIN IMMEDIATE`, after rolling back a transaction left open (by a caller that panicked
    /// or was cancelled midway: it is not continued); SQLite's result code on failure.
    fn begin(&self) -> Result<(), c_int> {
        // SAFETY: the handle is open.
        if unsafe { ffi::sqlite3_get_autocommit(self.0.as_ptr()) } == 0 {
            self.exec(c"ROLLBACK")?;
        }
        self.exec(c"BEGIN IMMEDIATE")
    }

    /// Runs `sql` (no parameters, no rows wanted); SQLite's result code on failure.
    fn exec(&self, sql: &CStr) -> Result<(), c_int> {
        // SAFETY: the handle is open and `sql` is NUL-terminated.
        let code = unsafe {
            ffi::sqlite3_exec(
                self.0.as_ptr(),
                sql.as_ptr(),
                None,
                ptr::null_mut(),
                ptr::null_mut(),
            )
        };
        if code == ffi::SQLITE_OK {
            Ok(())
        } else {
            Err(code)
        }
    }

    /// Runs every statement of `sql` (no parameters) to its end; returns the rows they changed.
    fn execute_all(&self, sql: &str) -> Result<u64, DbErr> {
        let mut rest = sql;
        let mut changed = 0;
        while !rest.trim().is_empty() {
            let (statement, used) = self.prepare(rest, Kind::Exec)?;
            if let Some(statement) = statement {
                self.step(&statement, Kind::Exec, None)?;
                changed += self.changes();
            }
            if used == 0 {
                break;
            }
            rest = &rest[used..];
        }
        Ok(changed)
    }

    /// Runs the one statement `statement` with its values; its rows go to `rows`.
    fn run(
        &self,
        statement: &Statement,
        kind: Kind,
        rows: Option<&mut Vec<DirectRow>>,
    ) -> Result<(), DbErr> {
        let (prepared, used) = self.prepare(&statement.sql, kind)?;
        if !statement.sql[used..].trim().is_empty() {
            return Err(DbErr::Custom(
                "one statement at a time when it has values".into(),
            ));
        }
        let Some(prepared) = prepared else {
            return Ok(());
        };
        if let Some(values) = &statement.values {
            for (n, value) in values.0.iter().enumerate() {
                self.bind(&prepared, n as c_int + 1, value, kind)?;
            }
        }
        self.step(&prepared, kind, rows)
    }

    fn bind(
        &self,
        statement: &Prepared,
        at: c_int,
        value: &Value,
        kind: Kind,
    ) -> Result<(), DbErr> {
        let s = statement.0.as_ptr();
        let integer = |n: i64| unsafe { ffi::sqlite3_bind_int64(s, at, n) };
        let text = |t: &str| -> Result<c_int, DbErr> {
            let length = c_int::try_from(t.len())
                .map_err(|_| DbErr::Custom("a text value is too long".into()))?;
            // SAFETY: SQLite copies the text (`SQLITE_TRANSIENT`) before returning.
            Ok(unsafe {
                ffi::sqlite3_bind_text(s, at, t.as_ptr().cast(), length, ffi::SQLITE_TRANSIENT())
            })
        };
        // SAFETY (every call below): `s` is a live prepared statement and `at` is within its
        // parameters or SQLite answers `SQLITE_RANGE`.
        let code = match value {
            Value::Bool(Some(b)) => integer(i64::from(*b)),
            Value::TinyInt(Some(n)) => integer(i64::from(*n)),
            Value::SmallInt(Some(n)) => integer(i64::from(*n)),
            Value::Int(Some(n)) => integer(i64::from(*n)),
            Value::BigInt(Some(n)) => integer(*n),
            Value::TinyUnsigned(Some(n)) => integer(i64::from(*n)),
            Value::SmallUnsigned(Some(n)) => integer(i64::from(*n)),
            Value::Unsigned(Some(n)) => integer(i64::from(*n)),
            Value::BigUnsigned(Some(n)) => {
                integer(i64::try_from(*n).map_err(|_| DbErr::Custom(format!("{n} is too large")))?)
            }
            Value::Float(Some(x)) => unsafe { ffi::sqlite3_bind_double(s, at, f64::from(*x)) },
            Value::Double(Some(x)) => unsafe { ffi::sqlite3_bind_double(s, at, *x) },
            Value::String(Some(t)) => text(t)?,
            Value::Char(Some(c)) => text(c.encode_utf8(&mut [0; 4]))?,
            Value::Bytes(Some(bytes)) => {
                let length = c_int::try_from(bytes.len())
                    .map_err(|_| DbErr::Custom("a binary value is too long".into()))?;
                unsafe {
                    ffi::sqlite3_bind_blob(
                        s,
                        at,
                        bytes.as_ptr().cast(),
                        length,
                        ffi::SQLITE_TRANSIENT(),
                    )
                }
            }
            Value::Bool(None)
            | Value::TinyInt(None)
            | Value::SmallInt(None)
            | Value::Int(None)
            | Value::BigInt(None)
            | Value::TinyUnsigned(None)
            | Value::SmallUnsigned(None)
            | Value::Unsigned(None)
            | Value::BigUnsigned(None)
            | Value::Float(None)
            | Value::Double(None)
            | Value::String(None)
            | Value::Char(None)
            | Value::Bytes(None) => unsafe { ffi::sqlite3_bind_null(s, at) },
            other => {
                return Err(DbErr::Custom(format!(
                    "the direct SQLite connection takes no value like {other:?}"
                )));
            }
        };
        if code == ffi::SQLITE_OK {
            Ok(())
        } else {
            Err(self.error(kind, code))
        }
    }

    /// Steps `statement` to its end, collecting its rows into `rows` when given.
    fn step(
        &self,
        statement: &Prepared,
        kind: Kind,
        mut rows: Option<&mut Vec<DirectRow>>,
    ) -> Result<(), DbErr> {
        let mut columns = None;
        loop {
            // SAFETY: a live prepared statement of this connection.
            match unsafe { ffi::sqlite3_step(statement.0.as_ptr()) } {
                ffi::SQLITE_ROW => {
                    if let Some(rows) = rows.as_deref_mut() {
                        let columns = columns.get_or_insert_with(|| columns_of(statement));
                        rows.push(row(statement, columns));
                    }
                }
                ffi::SQLITE_DONE => return Ok(()),
                code => return Err(self.error(kind, code)),
            }
        }
    }

    fn changes(&self) -> u64 {
        // SAFETY: the handle is open.
        u64::try_from(unsafe { ffi::sqlite3_changes64(self.0.as_ptr()) }).unwrap_or(0)
    }
}

/// Each column of `statement`'s rows: its name and its declared type, in lower case (empty for an
/// expression).
fn columns_of(statement: &Prepared) -> Vec<(String, String)> {
    let s = statement.0.as_ptr();
    // SAFETY (this function): `s` is a live prepared statement; the names are copied at once.
    let count = unsafe { ffi::sqlite3_column_count(s) };
    (0..count)
        .map(|at| {
            let name = unsafe { CStr::from_ptr(ffi::sqlite3_column_name(s, at)) }
                .to_string_lossy()
                .into_owned();
            let declared = unsafe { ffi::sqlite3_column_decltype(s, at) };
            let declared = if declared.is_null() {
                String::new()
            } else {
                unsafe { CStr::from_ptr(declared) }
                    .to_string_lossy()
                    .to_ascii_lowercase()
            };
            (name, declared)
        })
        .collect()
}

/// The current row of `statement`, whose columns are `columns` ([`columns_of`]).
fn row(statement: &Prepared, columns: &[(String, String)]) -> DirectRow {
    let s = statement.0.as_ptr();
    // SAFETY (this function): `s` has a current row; SQLite's column pointers stay valid until the
    // next step, and everything is copied before then.
    let mut values = Vec::with_capacity(columns.len());
    for (at, (name, declared)) in (0..).zip(columns) {
        let value = match unsafe { ffi::sqlite3_column_type(s, at) } {
            ffi::SQLITE_INTEGER => {
                let n = unsafe { ffi::sqlite3_column_int64(s, at) };
                if declared.contains("bool") {
                    Value::Bool(Some(n != 0))
                } else {
                    Value::BigInt(Some(n))
                }
            }
            ffi::SQLITE_FLOAT => Value::Double(Some(unsafe { ffi::sqlite3_column_double(s, at) })),
            ffi::SQLITE_TEXT => {
                let text = unsafe { ffi::sqlite3_column_text(s, at) };
                let length = unsafe { ffi::sqlite3_column_bytes(s, at) };
                let bytes = if text.is_null() {
                    &[][..]
                } else {
                    unsafe { std::slice::from_raw_parts(text, length.max(0) as usize) }
                };
                Value::String(Some(String::from_utf8_lossy(bytes).into_owned()))
            }
            ffi::SQLITE_BLOB => {
                let blob = unsafe { ffi::sqlite3_column_blob(s, at) };
                let length = unsafe { ffi::sqlite3_column_bytes(s, at) };
                let bytes = if blob.is_null() {
                    Vec::new()
                } else {
                    unsafe { std::slice::from_raw_parts(blob.cast::<u8>(), length.max(0) as usize) }
                        .to_vec()
                };
                Value::Bytes(Some(bytes))
            }
            _ => null_of(declared),
        };
        values.push((name.clone(), value));
    }
    values
}

/// `NULL` as the type a column was declared with (SQLite's affinity rules).
fn null_of(declared: &str) -> Value {
    if declared.contains("bool") {
        Value::Bool(None)
    } else if declared.contains("int") {
        Value::BigInt(None)
    } else if declared.contains("real") || declared.contains("floa") || declared.contains("doub") {
        Value::Double(None)
    } else if declared.contains("blob") {
        Value::Bytes(None)
    } else {
        Value::String(None)
    }
}

impl DirectSqlite {
    /// Runs `statement` (one statement, with its values); returns the rows it changed.
    pub fn execute(&self, statement: &Statement) -> Result<u64, DbErr> {
        let handle = self.lock();
        handle.run(statement, Kind::Exec, None)?;
        Ok(handle.changes())
    }

    /// Runs every statement of `sql` (without values), in order; returns the rows they changed.
    pub fn execute_unprepared(&self, sql: &str) -> Result<u64, DbErr> {
        self.lock().execute_all(sql)
    }

    /// The rows of `statement` (one statement, with its values).
    pub fn query(&self, statement: &Statement) -> Result<Vec<DirectRow>, DbErr> {
        let mut rows = Vec::new();
        self.lock().run(statement, Kind::Query, Some(&mut rows))?;
        Ok(rows)
    }

    /// Every row of `statement`, whose columns are all integers, in the statement's order.
    pub fn integers(&self, statement: &Statement) -> Result<Vec<Vec<i64>>, DbErr> {
        self.query(statement)?
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|(name, value)| match value {
                        Value::BigInt(Some(n)) => Ok(n),
                        other => Err(DbErr::Type(format!("{name} is {other:?}, not an integer"))),
                    })
                    .collect()
            })
            .collect()
    }

    /// The models of `E` that `select` finds.
    pub fn find<E>(&self, select: sea_orm::Select<E>) -> Result<Vec<E::Model>, DbErr>
    where
        E: EntityTrait,
        E::ActiveModel: TryIntoModel<E::Model>,
    {
        let statement = sea_orm::QueryTrait::build(&select, sea_orm::DbBackend::Sqlite);
        self.query(&statement)?
            .into_iter()
            .map(model_of::<E>)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use sea_orm::{
        ActiveValue::Set, ColumnTrait, ConnectionTrait, DbBackend, EntityTrait, QueryFilter,
        QueryTrait, TransactionTrait,
    };

    use super::*;
    use crate::entity::ledger_account;

    async fn open() -> (tempfile::TempDir, sea_orm::DatabaseConnection, DirectSqlite) {
        let (dir, config, pool) = crate::db::temp_database().await;
        let path = crate::db::sqlite_path(&config.effective_database_url()).unwrap();
        let direct = DirectSqlite::open(&path, &super::super::writer::writer_settings()).unwrap();
        (dir, pool, direct)
    }

    fn insert(owner: &str, user_id: Option<i64>, may_go_negative: bool) -> Statement {
        ledger_account::Entity::insert(ledger_account::ActiveModel {
            owner: Set(owner.to_owned()),
            user_id: Set(user_id),
            asset: Set("usdt".to_owned()),
            bucket: Set("funding".to_owned()),
            balance: Set("12.5".to_owned()),
            may_go_negative: Set(may_go_negative),
            version: Set(3),
            updated_at: Set(1_700_000_000_000),
            ..Default::default()
        })
        .build(DbBackend::Sqlite)
    }

    fn owned_by(owner: &str) -> sea_orm::Select<ledger_account::Entity> {
        ledger_account::Entity::find().filter(ledger_account::Column::Owner.eq(owner))
    }

    #[tokio::test]
    async fn models_round_trip_with_nulls_booleans_and_text_as_the_pool_reads_them() {
        let (_dir, pool, direct) = open().await;
        assert_eq!(direct.execute(&insert("house", None, true)).unwrap(), 1);
        direct.execute(&insert("user:7", Some(7), false)).unwrap();
        for owner in ["house", "user:7"] {
            let read = direct.find(owned_by(owner)).unwrap();
            // The same rows as sea-orm reads them through sqlx.
            assert_eq!(read, owned_by(owner).all(&pool).await.unwrap());
            assert_eq!(read.len(), 1);
        }
        let house = direct.find(owned_by("house")).unwrap().pop().unwrap();
        assert_eq!(house.user_id, None);
        assert!(house.may_go_negative);
        assert_eq!((house.balance.as_str(), house.version), ("12.5", 3));
        assert!(direct.find(owned_by("nobody")).unwrap().is_empty());
    }

    #[tokio::test]
    async fn a_transaction_dropped_uncommitted_leaves_nothing_and_a_commit_is_seen_by_others() {
        let (_dir, pool, direct) = open().await;
        {
            let txn = direct.try_begin_immediate().unwrap().unwrap();
            txn.connection()
                .execute(&insert("dropped", None, false))
                .unwrap();
        }
        let txn = direct.try_begin_immediate().unwrap().unwrap();
        let changed = txn
            .connection()
            .execute_unprepared(
                "INSERT INTO ledger_account (owner, asset, bucket, balance, may_go_negative, \
                 version, updated_at) VALUES ('a', 'usdt', 'funding', '1', 0, 0, 0); \
                 INSERT INTO ledger_account (owner, asset, bucket, balance, may_go_negative, \
                 version, updated_at) VALUES ('b', 'usdt', 'funding', '2', 0, 0, 0);",
            )
            .unwrap();
        assert_eq!(changed, 2);
        txn.commit().unwrap();

        let owners: Vec<String> = ledger_account::Entity::find()
            .all(&pool)
            .await
            .unwrap()
            .into_iter()
            .map(|row| row.owner)
            .collect();
        assert_eq!(owners, ["a", "b"]);
        // The pool's own transactions still take the write lock beside it.
        let other = pool.begin().await.unwrap();
        other
            .execute_unprepared("DELETE FROM ledger_account WHERE owner = 'a'")
            .await
            .unwrap();
        other.commit().await.unwrap();
        assert_eq!(
            direct.find(ledger_account::Entity::find()).unwrap().len(),
            1
        );
    }

    #[tokio::test]
    async fn a_failing_statement_is_an_error_with_sqlites_message_and_the_batch_is_undone() {
        let (_dir, _pool, direct) = open().await;
        let txn = direct.try_begin_immediate().unwrap().unwrap();
        txn.connection()
            .execute(&insert("house", None, true))
            .unwrap();
        // The same (owner, asset, bucket) again breaks the unique index.
        let error = txn
            .connection()
            .execute(&insert("house", None, true))
            .unwrap_err();
        assert!(error.to_string().contains("UNIQUE"), "{error}");
        let error = txn
            .connection()
            .execute_unprepared("SELECT missing FROM nowhere")
            .unwrap_err();
        assert!(error.to_string().contains("no such table"), "{error}");
        drop(txn);
        assert!(
            direct
                .find(ledger_account::Entity::find())
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn a_row_of_another_table_or_type_is_refused_not_guessed() {
        let row = vec![("nonsense".to_owned(), Value::BigInt(Some(1)))];
        assert!(model_of::<ledger_account::Entity>(row).is_err());
        let row = vec![("id".to_owned(), Value::String(Some("one".into())))];
        assert!(model_of::<ledger_account::Entity>(row).is_err());
        // A row missing columns is not a model either.
        let row = vec![("id".to_owned(), Value::BigInt(Some(1)))];
        assert!(model_of::<ledger_account::Entity>(row).is_err());
    }
}
