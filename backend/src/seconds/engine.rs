//! The settlement task of seconds contracts: one tokio task (the single writer of settlements)
//! that keeps the open orders ordered by expiry, sleeps until the next one, waits for the tick
//! that covers it (the rule of `settle.rs`) and settles it — result and entry in one transaction
//! with a conditional update (`WHERE status = 'open'`), so an order is settled at most once even
//! if two instances tried. At start it is rebuilt from the open orders in the database, so an
//! order accepted before a restart settles after it exactly as it would have on time.
//!
//! In cluster mode the task runs on every instance but settles only while its instance holds the
//! lease [`LEASE`] (checked before every settlement pass), and the holder reads the open orders
//! from the database every [`RELOAD_EVERY`], so it settles the orders every instance accepted; an
//! instance that takes the lease over rebuilds from the database the same way. An instance that
//! finds the lease held elsewhere keeps no order (the holder has them all).
//!
//! Accepted and settled orders are announced on the user channel (`seconds_order` and
//! `SETTLEMENT` messages, the `SecondsOrder` shape) after their transaction commits.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Duration;

use rust_decimal::Decimal;
use sea_orm::{ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, sea_query::Expr};
use tokio::sync::{broadcast, mpsc, watch};

use super::settle::{self, Direction, Outcome, Tick};
use super::views::SecondsOrder;
use crate::entity::seconds_order;
use crate::funds::bill_detail::{self, SecondsBet};
use crate::funds::ledger::{self, AccountRef, House, LedgerError, NewEntry, Posting};
use crate::refusal::{Refusal, RefusalKind};

use crate::clock::now_ms;
use crate::i18n::Msg;
use crate::user::events::UserEvent;

/// How often an expired order looks again for the tick that covers its expiry.
pub const RETRY_EVERY: Duration = Duration::from_millis(100);
/// The settlement's lease in cluster mode.
pub const LEASE: &str = "seconds_settlement";
/// How long that lease lasts from each renewal.
pub const LEASE_MS: i64 = 5_000;
/// How often the lease holder reads the open orders again (cluster mode).
pub const RELOAD_EVERY: Duration = Duration::from_secs(1);
/// Messages of the users' channels kept for slow readers.
const USER_EVENTS: usize = 4096;

/// The handle of the settlement task.
pub struct SecondsEngine {
    track: mpsc::UnboundedSender<seconds_order::Model>,
    events: broadcast::Sender<Arc<UserEvent>>,
}

impl SecondsEngine {
    /// Starts the task over the open orders stored in `db`; it stops when `shutdown` changes.
    /// With a `lease` (cluster mode) it settles only while this instance holds it.
    pub async fn start(
        db: DatabaseConnection,
        lease: Option<Arc<dyn crate::lease::Lease>>,
        shutdown: watch::Receiver<bool>,
    ) -> Result<Arc<Self>, DbErr> {
        let open = seconds_order::Entity::find()
            .filter(seconds_order::Column::Status.eq("open"))
            .all(&db)
            .await?;
        let (track, receiver) = mpsc::unbounded_channel();
        let (events, _) = broadcast::channel(USER_EVENTS);
        let task = Task {
            db,
            lease,
            events: events.clone(),
            due: BTreeSet::new(),
            orders: HashMap::new(),
        };
        tokio::spawn(task.run(open, receiver, shutdown));
        Ok(Arc::new(Self { track, events }))
    }

    /// Hands a newly accepted (committed) order to the task and tells its owner.
    pub fn accepted(&self, order: seconds_order::Model) {
        publish(&self.events, "seconds_order", &order);
        // The task ends only at shutdown; an order then waits in the database for the next start.
        let _ = self.track.send(order);
    }

    /// The users' `seconds_order` and `SETTLEMENT` messages.
    pub fn subscribe_user_events(&self) -> broadcast::Receiver<Arc<UserEvent>> {
        self.events.subscribe()
    }
}

fn publish(events: &broadcast::Sender<Arc<UserEvent>>, kind: &str, order: &seconds_order::Model) {
    let view = SecondsOrder::of(order, now_ms());
    // No receiver is not an error: the user is not watching.
    let _ = events.send(Arc::new(UserEvent::new(order.user_id, kind, &view)));
}

struct Task {
    db: DatabaseConnection,
    lease: Option<Arc<dyn crate::lease::Lease>>,
    events: broadcast::Sender<Arc<UserEvent>>,
    /// `(expiry_ms, id)` of every open order, soonest first.
    due: BTreeSet<(i64, i64)>,
    orders: HashMap<i64, seconds_order::Model>,
}

impl Task {
    async fn run(
        mut self,
        open: Vec<seconds_order::Model>,
        mut receiver: mpsc::UnboundedReceiver<seconds_order::Model>,
        mut shutdown: watch::Receiver<bool>,
    ) {
        for order in open {
            self.add(order);
        }
        let mut retry_at = 0_i64;
        let mut reload = tokio::time::interval(RELOAD_EVERY);
        reload.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let wait = match self.due.first() {
                Some(&(expiry, _)) => {
                    let at = expiry.max(retry_at);
                    Duration::from_millis(u64::try_from(at - now_ms()).unwrap_or(0))
                }
                None => Duration::from_secs(3600),
            };
            tokio::select! {
                order = receiver.recv() => match order {
                    Some(order) => self.add(order),
                    None => return,
                },
                _ = shutdown.changed() => return,
                _ = reload.tick(), if self.lease.is_some() => {
                    if self.holds_lease().await {
                        self.reload().await;
                    } else {
                        self.forget_all();
                    }
                }
                _ = tokio::time::sleep(wait), if !self.due.is_empty() => {
                    if self.holds_lease().await {
                        self.settle_due().await;
                    } else {
                        self.forget_all();
                    }
                    retry_at = now_ms() + RETRY_EVERY.as_millis() as i64;
                }
            }
        }
    }

    /// Whether this instance may settle: always outside cluster mode, while it holds the lease in it.
    async fn holds_lease(&self) -> bool {
        match &self.lease {
            None => true,
            Some(lease) => match lease.acquire().await {
                Ok(held) => held,
                Err(error) => {
                    tracing::warn!(%error, "seconds settlement lease");
                    false
                }
            },
        }
    }

    /// Adds the open orders of the database (accepted by any instance).
    async fn reload(&mut self) {
        match seconds_order::Entity::find()
            .filter(seconds_order::Column::Status.eq("open"))
            .all(&self.db)
            .await
        {
            Ok(open) => {
                for order in open {
                    self.add(order);
                }
            }
            Err(error) => tracing::warn!(%error, "reading the open seconds orders"),
        }
    }

    fn add(&mut self, order: seconds_order::Model) {
        self.due.insert((order.expiry_ms, order.id));
        self.orders.insert(order.id, order);
    }

    /// Settles every expired order whose settlement tick is decided; the others wait.
    async fn settle_due(&mut self) {
        let now = now_ms();
        let expired: Vec<(i64, i64)> = self
            .due
            .iter()
            .take_while(|(expiry, _)| *expiry <= now)
            .copied()
            .collect();
        for key in expired {
            let Some(order) = self.orders.get(&key.1).cloned() else {
                self.due.remove(&key);
                continue;
            };
            match settle_order(&self.db, &order).await {
                Ok(Settled::Now(row)) => {
                    publish(&self.events, "SETTLEMENT", &row);
                    self.forget(key);
                }
                Ok(Settled::Before) => self.forget(key),
                Ok(Settled::NotYet) => {}
                // A passing database failure: the order stays and is tried again.
                Err(error) => {
                    tracing::error!(%error, order = order.id, "seconds settlement failed")
                }
            }
        }
    }

    fn forget(&mut self, key: (i64, i64)) {
        self.due.remove(&key);
        self.orders.remove(&key.1);
    }

    /// Keeps no order: another instance holds the lease and settles them (it reads every open
    /// order from the database); should this one take the lease, its next reload reads them
    /// too. Without this a non-holder would keep every order it accepted, and ask for the lease
    /// every [`RETRY_EVERY`] once one of them expired.
    fn forget_all(&mut self) {
        self.due.clear();
        self.orders.clear();
    }
}

/// What [`settle_order`] did.
#[derive(Debug)]
pub enum Settled {
    /// Settled now; the row after.
    Now(Box<seconds_order::Model>),
    /// Settled before (by another instance or an earlier attempt); nothing was done.
    Before,
    /// No stored tick has reached the expiry yet.
    NotYet,
}

/// Settles `order` by the rule if its settlement tick is decided: the result, the settlement tick
/// and the payout are written by a conditional update in the transaction of the payout's entry
/// (seconds book → the user's funding: stake + profit for a win, the stake for a tie; a loss
/// moves nothing and writes only the result).
pub async fn settle_order(
    db: &DatabaseConnection,
    order: &seconds_order::Model,
) -> Result<Settled, LedgerError> {
    let Some(tick) =
        settle::settlement_tick(db, &order.symbol, order.open_tick_seq, order.expiry_ms).await?
    else {
        return Ok(Settled::NotYet);
    };
    let decimal = |text: &str| {
        wasm_core::money::parse_decimal(text)
            .map_err(|_| LedgerError::Db(DbErr::Custom(format!("order {}: {text:?}", order.id))))
    };
    let (stake, rate, open) = (
        decimal(&order.stake)?,
        decimal(&order.payout_rate)?,
        decimal(&order.open_price)?,
    );
    let direction = Direction::parse(&order.direction)
        .ok_or_else(|| LedgerError::Db(DbErr::Custom(format!("order {}: direction", order.id))))?;
    let result = settle::outcome(direction, open, tick.price);
    let (payout, profit) = settle::amounts(stake, rate, result)
        .map_err(|e| LedgerError::Db(DbErr::Custom(e.to_string())))?;
    let decided = Decided {
        order_id: order.id,
        tick: tick.clone(),
        result,
        payout,
        profit,
    };
    let outcome = if payout > Decimal::ZERO {
        let entry = NewEntry {
            kind: "seconds_settle".into(),
            reference: format!("seconds:{}", order.id),
            user_id: Some(order.user_id),
            actor_id: None,
            memo: bill_detail::seconds_settle_memo(
                order.id,
                SecondsBet {
                    symbol: &order.symbol,
                    direction: &order.direction,
                    period_seconds: i64::from(order.period_seconds),
                    open_price: open,
                    open_tick: order.open_tick_seq,
                },
                result.as_str(),
                tick.price,
                tick.seq,
            ),
            postings: Posting::transfer(
                AccountRef::House(House::SecondsBook),
                AccountRef::funding(order.user_id),
                "usdt",
                payout,
            )
            .to_vec(),
        };
        ledger::post_once(
            db,
            &entry,
            None,
            |_| String::new(),
            move |txn, entry_id, _| {
                let decided = decided.clone();
                Box::pin(async move { decided.apply(txn, Some(entry_id)).await })
            },
        )
        .await
        .map(|_| ())
    } else {
        ledger::run_once(
            db,
            None,
            |_: &()| String::new(),
            move |txn| {
                let decided = decided.clone();
                Box::pin(async move { decided.apply(txn, None).await })
            },
        )
        .await
        .map(|_| ())
    };
    match outcome {
        Ok(()) => {}
        Err(LedgerError::Refused(_)) => return Ok(Settled::Before),
        Err(error) => return Err(error),
    }
    let row = seconds_order::Entity::find_by_id(order.id)
        .one(db)
        .await?
        .ok_or_else(|| LedgerError::Db(DbErr::RecordNotFound(format!("seconds {}", order.id))))?;
    Ok(Settled::Now(Box::new(row)))
}

/// A settlement decided by the rule, written once.
#[derive(Debug, Clone)]
struct Decided {
    order_id: i64,
    tick: Tick,
    result: Outcome,
    payout: Decimal,
    profit: Decimal,
}

impl Decided {
    async fn apply(
        &self,
        txn: &sea_orm::DatabaseTransaction,
        entry_id: Option<i64>,
    ) -> Result<(), LedgerError> {
        let done = seconds_order::Entity::update_many()
            .col_expr(seconds_order::Column::Status, Expr::value("settled"))
            .col_expr(
                seconds_order::Column::Result,
                Expr::value(self.result.as_str()),
            )
            .col_expr(
                seconds_order::Column::SettleTickSeq,
                Expr::value(self.tick.seq),
            )
            .col_expr(
                seconds_order::Column::SettlePrice,
                Expr::value(self.tick.price.to_string()),
            )
            .col_expr(
                seconds_order::Column::SettleTickMs,
                Expr::value(self.tick.ts_ms),
            )
            .col_expr(
                seconds_order::Column::Payout,
                Expr::value(self.payout.to_string()),
            )
            .col_expr(
                seconds_order::Column::Profit,
                Expr::value(self.profit.to_string()),
            )
            .col_expr(seconds_order::Column::SettleEntryId, Expr::value(entry_id))
            .col_expr(seconds_order::Column::SettledAt, Expr::value(now_ms()))
            .filter(seconds_order::Column::Id.eq(self.order_id))
            .filter(seconds_order::Column::Status.eq("open"))
            .exec(txn)
            .await?;
        if done.rows_affected == 0 {
            // Settled already: the entry of this attempt must not be posted.
            return Err(LedgerError::Refused(Refusal::new(
                RefusalKind::Conflict,
                Msg::OrderNotOpen,
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use futures_util::FutureExt;
    use futures_util::future::BoxFuture;

    use super::*;

    /// A lease always held by another instance, counting how often it is asked for.
    #[derive(Default)]
    struct HeldElsewhere {
        asked: AtomicUsize,
    }

    impl crate::lease::Lease for HeldElsewhere {
        fn acquire(&self) -> BoxFuture<'_, Result<bool, DbErr>> {
            self.asked.fetch_add(1, Ordering::SeqCst);
            async { Ok(false) }.boxed()
        }
    }

    fn expired_order(id: i64) -> seconds_order::Model {
        let now = now_ms();
        seconds_order::Model {
            id,
            user_id: 1,
            symbol: "btcusdt".into(),
            direction: "up".into(),
            period_seconds: 30,
            stake: "10".into(),
            payout_rate: "0.85".into(),
            status: "open".into(),
            result: None,
            accepted_ms: now - 31_000,
            expiry_ms: now - 1_000,
            open_tick_seq: 1,
            open_price: "100".into(),
            open_tick_ms: now - 31_000,
            settle_tick_seq: None,
            settle_price: None,
            settle_tick_ms: None,
            payout: None,
            profit: None,
            rule: "v1".into(),
            open_entry_id: 1,
            settle_entry_id: None,
            settled_at: None,
        }
    }

    #[tokio::test]
    async fn an_instance_without_the_lease_keeps_no_expired_order_and_does_not_keep_asking() {
        let (_dir, _config, db) = crate::db::temp_database().await;
        let lease = Arc::new(HeldElsewhere::default());
        let (_stop, shutdown) = watch::channel(false);
        let engine = SecondsEngine::start(db, Some(lease.clone()), shutdown)
            .await
            .unwrap();
        for id in 1..=5 {
            engine.accepted(expired_order(id));
        }
        // An instance that kept the orders would ask every RETRY_EVERY (about 12 times in this
        // window); one that dropped them asks at its reload ticks only (one a second) and once
        // for the expired orders.
        tokio::time::sleep(RELOAD_EVERY + Duration::from_millis(200)).await;
        let asked = lease.asked.load(Ordering::SeqCst);
        assert!(asked <= 5, "the lease was asked for {asked} times");
    }
}
