//! Fencing of a market's owner in cluster mode: a `market_owner` row per market (`spot:btcusdt`,
//! and futures symbols the same way) holds the token of its current owner. An instance that takes
//! a market's lease raises the token by one ([`take`]) before it rebuilds the market from the
//! database; every batch of that market's engine then checks, inside its own write transaction,
//! that the row still holds its token ([`still_holds`], a conditional update that locks the row
//! until the batch commits; [`still_holds_in_turn`] on PostgreSQL, with the batch's advisory lock
//! in the same statement). A stale owner — one that lost the lease but still runs, paused or cut
//! off — finds a higher token and its whole batch is rolled back: nothing of it is stored.
//!
//! Several engines under one token (the futures symbols, which have one owner) check it with
//! [`still_holds_shared`] instead, a shared lock, so that they do not wait for each other.
//!
//! The token comes from the database rather than from the lease's revision so that a NATS server
//! started afresh (its revisions start again at 1) never leaves a market without a possible
//! owner; the lease only decides who may raise it.

use std::sync::atomic::{AtomicBool, Ordering};

use sea_orm::{ConnectionTrait, DatabaseBackend, DatabaseConnection, DbErr, Statement, Value};

use crate::clock::now_ms;
use crate::db::WriterTransaction;

/// The token a market's owner writes under (see the module), and whether it found it stale.
#[derive(Debug)]
pub struct Fence {
    market: String,
    token: i64,
    lost: AtomicBool,
}

impl Fence {
    /// The market's name in `market_owner` (`spot:btcusdt`).
    pub fn market(&self) -> &str {
        &self.market
    }

    /// The token this owner took.
    pub fn token(&self) -> i64 {
        self.token
    }

    /// Whether this owner found the market taken by a newer one, or gave it up.
    pub fn is_lost(&self) -> bool {
        self.lost.load(Ordering::SeqCst)
    }

    /// Marks this owner as no longer the market's.
    pub fn lose(&self) {
        self.lost.store(true, Ordering::SeqCst);
    }

    /// A fence for `market` at `token` (tests play two owners of one market).
    pub fn at(market: &str, token: i64) -> Self {
        Self {
            market: market.to_owned(),
            token,
            lost: AtomicBool::new(false),
        }
    }
}

/// `?` placeholders for SQLite, `$n` for PostgreSQL.
fn placeholders(backend: DatabaseBackend, sql: &str) -> String {
    if backend != DatabaseBackend::Postgres {
        return sql.to_owned();
    }
    let mut out = String::with_capacity(sql.len() + 8);
    let mut n = 0;
    for c in sql.chars() {
        if c == '?' {
            n += 1;
            out.push_str(&format!("${n}"));
        } else {
            out.push(c);
        }
    }
    out
}

/// Takes `market` for `holder`: raises its token by one (the first owner gets 1) and answers the
/// fence to write under. Called by the holder of the market's lease, before it rebuilds the market.
pub async fn take(db: &DatabaseConnection, market: &str, holder: &str) -> Result<Fence, DbErr> {
    let backend = db.get_database_backend();
    let sql = placeholders(
        backend,
        "INSERT INTO market_owner (market, token, holder, taken_at) VALUES (?, 1, ?, ?) \
         ON CONFLICT (market) DO UPDATE SET token = market_owner.token + 1, \
         holder = excluded.holder, taken_at = excluded.taken_at RETURNING token",
    );
    let values: Vec<Value> = vec![market.into(), holder.into(), now_ms().into()];
    let row = db
        .query_one_raw(Statement::from_sql_and_values(backend, sql, values))
        .await?
        .ok_or_else(|| DbErr::Custom(format!("taking {market} returned no token")))?;
    let token: i64 = row.try_get_by_index(0)?;
    Ok(Fence::at(market, token))
}

/// Whether `fence` is still its market's current token, checked inside the batch's transaction
/// `txn` by a conditional update that keeps the row locked until the batch ends, so a takeover
/// waits for the batch and a batch after the takeover finds the new token.
pub async fn still_holds(txn: &WriterTransaction<'_>, fence: &Fence) -> Result<bool, DbErr> {
    let backend = txn.backend();
    let sql = placeholders(
        backend,
        "UPDATE market_owner SET token = token WHERE market = ? AND token = ? RETURNING token",
    );
    let values: Vec<Value> = vec![fence.market.as_str().into(), fence.token.into()];
    let rows = txn
        .integers(Statement::from_sql_and_values(backend, sql, values))
        .await?;
    Ok(rows.len() == 1)
}

/// [`still_holds`] and, on PostgreSQL, the transaction-scoped advisory lock `turn` that the
/// engine's batches take at their start, in one statement (one round trip less on every batch).
/// There the row is locked `FOR UPDATE`, which makes no new row version: a takeover's raise still
/// waits for the batch, and a batch after it finds the new token. When the token is stale the lock
/// may not be taken: the batch is refused anyway. On SQLite this is [`still_holds`] (its
/// transaction holds the database's write lock, and has no advisory locks).
pub async fn still_holds_in_turn(
    txn: &WriterTransaction<'_>,
    fence: &Fence,
    turn: i64,
) -> Result<bool, DbErr> {
    let backend = txn.backend();
    if backend != DatabaseBackend::Postgres {
        return still_holds(txn, fence).await;
    }
    let sql = "SELECT count(*) FROM \
               (SELECT 1 FROM market_owner WHERE market = $1 AND token = $2 FOR UPDATE) AS fence, \
               (SELECT pg_advisory_xact_lock($3)) AS turn";
    let values: Vec<Value> = vec![
        fence.market.as_str().into(),
        fence.token.into(),
        turn.into(),
    ];
    let rows = txn
        .integers(Statement::from_sql_and_values(backend, sql, values))
        .await?;
    Ok(rows.first().and_then(|row| row.first()) == Some(&1))
}

/// Whether `fence` is still its market's current token, read inside the transaction `txn` under a
/// shared lock of the row (`FOR SHARE` on PostgreSQL) that lasts until the transaction ends: the
/// transactions of several engines under one token (the futures symbols') hold it together
/// instead of waiting for each other, a takeover's raise waits for all of them, and a transaction
/// after the takeover reads the new token.
pub async fn still_holds_shared(txn: &impl ConnectionTrait, fence: &Fence) -> Result<bool, DbErr> {
    let backend = txn.get_database_backend();
    let lock = if backend == DatabaseBackend::Postgres {
        " FOR SHARE"
    } else {
        ""
    };
    let sql = placeholders(
        backend,
        &format!("SELECT token FROM market_owner WHERE market = ?{lock}"),
    );
    let values: Vec<Value> = vec![fence.market.as_str().into()];
    let row = txn
        .query_one_raw(Statement::from_sql_and_values(backend, sql, values))
        .await?;
    match row {
        Some(row) => Ok(row.try_get_by_index::<i64>(0)? == fence.token),
        None => Ok(false),
    }
}
