//! The delivery task: sends due `notification` rows through the mailer and marks them sent.
//!
//! - A row is due while it has no `sent_at` and no `failed_at`, its `next_attempt_at` has come and
//!   no instance holds it. An instance takes a row by a conditional update that sets a lease
//!   (`claimed_until`, [`LEASE`]) and counts the attempt, so several instances (or a restarted one
//!   next to a stalled one) never send the same row at once; a crashed instance's lease lapses and
//!   the row is sent by whoever polls next.
//! - Sent: `sent_at` is set only where it is still empty (idempotent). A row is sent at least once:
//!   twice only if the process dies between the mail server's answer and that mark.
//! - Failed: the lease is dropped and the row waits [`backoff`] (30 s, doubling, at most an hour);
//!   after [`MAX_ATTEMPTS`] it is marked failed and logged as an error.
//! - A user without an e-mail address (phone only) is skipped: marked sent with the reason.

use std::time::Duration;

use sea_orm::{
    ColumnTrait, Condition, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
    sea_query::{Expr, ExprTrait},
};
use tokio::sync::watch;

use super::{Kind, texts};
use crate::clock::now_ms;
use crate::entity::{notification, user};
use crate::i18n::{Lang, with_lang};
use crate::refusal::Refusal;
use crate::user::mailer::{Channel, Mailer, Outgoing};

/// How often due rows are looked for.
pub const POLL_EVERY: Duration = Duration::from_millis(250);
/// How long a taken row is held by its instance.
pub const LEASE: Duration = Duration::from_secs(120);
/// Attempts before a row is given up.
pub const MAX_ATTEMPTS: i32 = 10;
/// Rows taken per poll.
const BATCH: u64 = 20;

/// The wait after failed attempt number `attempts` (1, 2, …): 30 s doubling, at most an hour.
pub fn backoff(attempts: i32) -> Duration {
    let doublings = attempts.clamp(1, 8) - 1;
    Duration::from_secs(std::cmp::min(30u64 << doublings, 3600))
}

/// Delivers due rows every [`POLL_EVERY`] until `shutdown` turns true.
pub async fn run(
    db: DatabaseConnection,
    mailer: std::sync::Arc<Mailer>,
    site: String,
    mut shutdown: watch::Receiver<bool>,
) {
    loop {
        if *shutdown.borrow() {
            return;
        }
        if let Err(error) = deliver_due(&db, &mailer, &site).await {
            tracing::warn!(
                reason = error.msg.key(),
                "notification delivery pass failed"
            );
        }
        tokio::select! {
            _ = tokio::time::sleep(POLL_EVERY) => {}
            _ = shutdown.changed() => {}
        }
    }
}

/// One pass: takes and delivers every due row (up to a batch); answers how many were sent.
pub async fn deliver_due(
    db: &DatabaseConnection,
    mailer: &Mailer,
    site: &str,
) -> Result<usize, Refusal> {
    let now = now_ms();
    let due = notification::Entity::find()
        .filter(due_at(now))
        .order_by_asc(notification::Column::Id)
        .limit(BATCH)
        .all(db)
        .await?;
    let mut sent = 0;
    for row in due {
        if !claim(db, &row, now).await? {
            continue;
        }
        match deliver(db, mailer, site, &row).await {
            Ok(()) => {
                mark_sent(db, row.id, None).await?;
                sent += 1;
            }
            Err(Skip(reason)) => mark_sent(db, row.id, Some(reason)).await?,
            Err(Failed(error)) => fail(db, &row, &error).await?,
        }
    }
    Ok(sent)
}

/// Not sent, not given up, its time come, held by nobody.
fn due_at(now: i64) -> Condition {
    Condition::all()
        .add(notification::Column::SentAt.is_null())
        .add(notification::Column::FailedAt.is_null())
        .add(notification::Column::NextAttemptAt.lte(now))
        .add(
            Condition::any()
                .add(notification::Column::ClaimedUntil.is_null())
                .add(notification::Column::ClaimedUntil.lt(now)),
        )
}

/// Takes `row` for [`LEASE`] and counts the attempt; false when another instance took it first.
async fn claim(
    db: &DatabaseConnection,
    row: &notification::Model,
    now: i64,
) -> Result<bool, Refusal> {
    let taken = notification::Entity::update_many()
        .col_expr(
            notification::Column::ClaimedUntil,
            Expr::value(now + LEASE.as_millis() as i64),
        )
        .col_expr(
            notification::Column::Attempts,
            Expr::col(notification::Column::Attempts).add(1),
        )
        .filter(notification::Column::Id.eq(row.id))
        .filter(due_at(now))
        .exec(db)
        .await?;
    Ok(taken.rows_affected == 1)
}

/// Why a row was not sent.
enum Undelivered {
    /// It cannot be sent at all (no address, unknown kind): marked done with the reason.
    Skip(String),
    /// Sending failed: tried again later.
    Failed(String),
}
use Undelivered::{Failed, Skip};

/// Renders `row` in its recipient's language and sends it.
async fn deliver(
    db: &DatabaseConnection,
    mailer: &Mailer,
    site: &str,
    row: &notification::Model,
) -> Result<(), Undelivered> {
    let failed = |error: &dyn std::fmt::Display| Failed(error.to_string());
    let Some(kind) = Kind::parse(&row.kind) else {
        return Err(Skip(format!("unknown kind {}", row.kind)));
    };
    let Some(user) = user::Entity::find_by_id(row.user_id)
        .one(db)
        .await
        .map_err(|e| failed(&e))?
    else {
        return Err(Skip("no such user".into()));
    };
    let Some(email) = user.email.clone() else {
        return Err(Skip("no e-mail address".into()));
    };
    let lang = user
        .lang
        .as_deref()
        .and_then(Lang::parse)
        .unwrap_or_default();
    let params: Vec<(String, String)> =
        serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(&row.params)
            .map_err(|e| Skip(format!("unreadable params: {e}")))?
            .into_iter()
            .map(|(name, value)| (name, value.as_str().unwrap_or_default().to_owned()))
            .collect();
    let (subject, body) = texts::render(lang, site, kind, &params);
    let message = Outgoing {
        channel: Channel::Email,
        recipient: email,
        subject,
        body,
        anti_code: user.anti_code.clone(),
    };
    // The mailer writes the anti-phishing line in the current language: the recipient's.
    with_lang(lang, mailer.send(db, message))
        .await
        // The mailer logged the cause; the row keeps the kind of failure.
        .map_err(|refusal| Failed(refusal.msg.key().to_owned()))
}

/// Marks row `id` sent (with `note` when it was skipped), once.
async fn mark_sent(db: &DatabaseConnection, id: i64, note: Option<String>) -> Result<(), Refusal> {
    if let Some(note) = &note {
        tracing::info!(id, note, "notification skipped");
    }
    notification::Entity::update_many()
        .col_expr(notification::Column::SentAt, Expr::value(now_ms()))
        .col_expr(
            notification::Column::ClaimedUntil,
            Expr::value(Option::<i64>::None),
        )
        .col_expr(notification::Column::LastError, Expr::value(note))
        .filter(notification::Column::Id.eq(id))
        .filter(notification::Column::SentAt.is_null())
        .exec(db)
        .await?;
    Ok(())
}

/// Releases `row` after a failed attempt: later, or never again after [`MAX_ATTEMPTS`].
async fn fail(
    db: &DatabaseConnection,
    row: &notification::Model,
    error: &str,
) -> Result<(), Refusal> {
    let attempts = row.attempts + 1;
    let now = now_ms();
    let given_up = attempts >= MAX_ATTEMPTS;
    if given_up {
        tracing::error!(id = row.id, attempts, error, "notification given up");
    } else {
        tracing::warn!(
            id = row.id,
            attempts,
            error,
            "notification not sent, will retry"
        );
    }
    notification::Entity::update_many()
        .col_expr(
            notification::Column::ClaimedUntil,
            Expr::value(Option::<i64>::None),
        )
        .col_expr(
            notification::Column::NextAttemptAt,
            Expr::value(now + backoff(attempts).as_millis() as i64),
        )
        .col_expr(
            notification::Column::FailedAt,
            Expr::value(given_up.then_some(now)),
        )
        .col_expr(
            notification::Column::LastError,
            Expr::value(Some(error.chars().take(500).collect::<String>())),
        )
        .filter(notification::Column::Id.eq(row.id))
        .filter(notification::Column::SentAt.is_null())
        .exec(db)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_back_off_to_an_hour() {
        assert_eq!(backoff(1), Duration::from_secs(30));
        assert_eq!(backoff(2), Duration::from_secs(60));
        assert_eq!(backoff(5), Duration::from_secs(480));
        assert_eq!(backoff(8), Duration::from_secs(3600));
        assert_eq!(backoff(MAX_ATTEMPTS), Duration::from_secs(3600));
    }
}
