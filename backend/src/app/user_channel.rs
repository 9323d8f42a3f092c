//! The user channel `GET /ws/user/push/{userId}` (WebSocket): the account figures of one user,
//! pushed as `au` (account update) messages, only to that user's own session.
//!
//! - Authentication before the upgrade: the session token comes as the `satoken` query parameter,
//!   the `satoken` header, or the `coin-access-token` cookie (what the webapp stores). No valid
//!   session, or a session of another user than `{userId}`, is 401 and no socket is opened. An
//!   upgrade that authenticates by the cookie from a page of another site (its `Origin` is neither
//!   this site nor one of `security.allowed_origins`, see [`crate::http::origin`]) is 403.
//! - Messages: `{"type": "au", "data": {"allMargin", "price", "userEar"}, "ts"}` once on connect and
//!   then whenever a figure changes (checked every [`REFRESH_EVERY`]): `allMargin` is the trading
//!   (futures) account's equity in USDT, `price` the value of everything the user holds in USDT,
//!   `userEar` the unrealised profit of open futures positions in USDT (zero while none are open).
//!   `HEARTBEAT` every 10 s; the client may send `{"op":"ping","ts"}` and gets `pong`.
//! - Spot trading: `{"type": "order", "data": SpotOrder, "ts"}` whenever one of the user's orders
//!   changes and `{"type": "fill", "data": SpotFill, "ts"}` for every fill of one, in the shapes of
//!   `orderList` and `getEntrustLogCurrency`.
//! - Futures: `{"type": "POSITION", "data": FuturesPosition, "ts"}` whenever one of the user's
//!   positions changes (opened, filled, TP/SL set, margin adjusted, funding, closed, liquidated:
//!   then `status` says so), `futuresOrder` for every order change and `futuresStop` for every stop
//!   order change, in the shapes of the `contract/*` calls. The spec's `POSITION` kind is delivered
//!   here, on the user's private channel, never on the public market channel. A socket that falls more than the channel's buffer
//!   behind is closed with code 4408 (`too slow`); the client reconnects and re-reads.
//! - Seconds contracts: `{"type": "seconds_order", "data": SecondsOrder, "ts"}` when one is
//!   accepted and `{"type": "SETTLEMENT", "data": SecondsOrder, "ts"}` when it settles (the spec's
//!   SETTLEMENT kind, user-private, so on this channel).
//! - Loans: `{"type": "loan", "data": {"applicationId", "status"}, "ts"}` when an application is
//!   decided or a loan's status changes (repaid, deducted, overdue, settled), and `{"type":
//!   "loan_notice", "data": {"loanId", "kind", "instalment", "amount", "coin", "dueTime"}, "ts"}`
//!   with every reminder (`kind` `due_soon`) and overdue notice (`overdue`) the e-mail also carries.
//! - The session is checked again on every refresh (every second), and at once when a session of
//!   the user ends on any instance (the revocation signal of [`crate::cluster::Fanout`]; in
//!   cluster mode the channel also carries the user's events produced on other instances): once it
//!   ended the socket gets
//!   `{"type": "USER_STATUS", "data": {"status"}, "ts"}` — `status` `frozen` (an operator froze
//!   the account), `session_revoked` (logged out, removed from the device list, or ended by a
//!   password change) or `session_expired` — and is closed with code 4401 (`session ended`). The
//!   spec lists USER_STATUS among the market channel's kinds; being about one user, it is
//!   delivered here, like POSITION and SETTLEMENT. A client silent for 60 s is closed.

use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use poem::{
    IntoResponse, Request, handler,
    http::StatusCode,
    web::{
        Data, Path,
        websocket::{CloseCode, Message, WebSocket},
    },
};
use rust_decimal::Decimal;
use sea_orm::DatabaseConnection;
use serde::Deserialize;
use serde_json::json;
use tokio::time::Instant;

use crate::clock::now_ms;
use crate::config::Config;
use crate::funds::ledger::Bucket;
use crate::funds::reports::{valued_balances, wallet};
use crate::futures::FuturesRegistry;
use crate::http::origin::origin_allowed;
use crate::http::socket::{LAGGED, SESSION_ENDED, reply_to_client};
use crate::market::MarketHub;
use crate::market::ws::{CLIENT_IDLE_LIMIT, HEARTBEAT_EVERY, SEND_TIMEOUT};
use crate::seconds::SecondsEngine;
use crate::spot::SpotRegistry;
use crate::user::session;

/// How often the figures are recomputed.
pub const REFRESH_EVERY: Duration = Duration::from_secs(1);

/// The figures of an `au` message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountFigures {
    /// Trading account equity, USDT.
    pub all_margin: Decimal,
    /// Everything held, USDT.
    pub price: Decimal,
    /// Unrealised futures profit, USDT.
    pub user_ear: Decimal,
}

/// The user's figures now: the same valuation as `assets/getWalletAccount`.
pub async fn figures(
    db: &DatabaseConnection,
    hub: &MarketHub,
    futures: &FuturesRegistry,
    user_id: i64,
) -> Result<AccountFigures, crate::refusal::Refusal> {
    let (coins, rates) = valued_balances(db, hub, user_id).await?;
    let (total, buckets) = wallet(&coins, &rates);
    let trading = buckets
        .iter()
        .find(|(bucket, _)| *bucket == Bucket::Trading)
        .map_or(Decimal::ZERO, |(_, value)| value.usdt);
    // The trading bucket's value includes the futures margins and order holds; the open
    // positions' unrealised PnL comes from the futures engines at the mark price.
    let user_ear = crate::futures::service::open_figures(futures, db, user_id).await?;
    Ok(AccountFigures {
        all_margin: trading + user_ear,
        price: total.usdt,
        user_ear,
    })
}

/// Where the session token of an upgrade came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TokenSource {
    /// The `satoken` query parameter or header: the client chose to send it.
    Explicit,
    /// The `coin-access-token` cookie: a browser sends it whichever page opened the socket.
    Cookie,
}

fn token_of(req: &Request) -> Option<(String, TokenSource)> {
    #[derive(Deserialize)]
    struct TokenQuery {
        satoken: Option<String>,
    }
    if let Ok(TokenQuery {
        satoken: Some(token),
    }) = req.params::<TokenQuery>()
    {
        return Some((token, TokenSource::Explicit));
    }
    if let Some(token) = req.header("satoken") {
        return Some((token.to_owned(), TokenSource::Explicit));
    }
    req.headers()
        .get_all(poem::http::header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .find_map(|pair| {
            let (name, value) = pair.trim().split_once('=')?;
            (name == "coin-access-token").then(|| (value.to_owned(), TokenSource::Cookie))
        })
}

fn au_message(figures: &AccountFigures) -> String {
    json!({
        "type": "au",
        "data": {
            "allMargin": figures.all_margin.to_string(),
            "price": figures.price.to_string(),
            "userEar": figures.user_ear.to_string(),
        },
        "ts": now_ms(),
    })
    .to_string()
}

/// The `USER_STATUS` message sent before the channel closes because the session ended.
fn user_status_message(ended: session::Ended) -> String {
    json!({"type": "USER_STATUS", "data": {"status": ended.status()}, "ts": now_ms()}).to_string()
}

/// Upgrades to the user channel of `{userId}` for that user's own session only.
#[handler]
// A handler takes one argument per extractor: each dependency, header, path and body.
#[allow(clippy::too_many_arguments)]
pub async fn user_push(
    Path(user_id): Path<i64>,
    req: &Request,
    ws: WebSocket,
    Data(db): Data<&DatabaseConnection>,
    Data(hub): Data<&Arc<MarketHub>>,
    Data(spot): Data<&Arc<SpotRegistry>>,
    Data(seconds): Data<&Arc<SecondsEngine>>,
    Data(futures): Data<&Arc<FuturesRegistry>>,
    Data(earn): Data<&Arc<crate::earn::EarnEngine>>,
    Data(loans): Data<&crate::loans::LoanEvents>,
    Data(config): Data<&Arc<Config>>,
    Data(fanout): Data<&crate::cluster::Fanout>,
) -> poem::Response {
    let Some((token, source)) = token_of(req) else {
        return StatusCode::UNAUTHORIZED.into_response();
    };
    if source == TokenSource::Cookie && !origin_allowed(req, &config.security.allowed_origins) {
        return StatusCode::FORBIDDEN.into_response();
    }
    match session::authenticate(db, &token).await {
        Ok(Some((_, user))) if user.id == user_id => {}
        Ok(_) => return StatusCode::UNAUTHORIZED.into_response(),
        Err(_) => return StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
    let (db, hub) = (db.clone(), hub.clone());
    let (spot, seconds, futures) = (spot.clone(), seconds.clone(), futures.clone());
    let earn = earn.clone();
    let loans = loans.clone();
    let fanout = fanout.clone();
    // Cluster mode: this user's events from the other instances, subscribed before the socket
    // opens so that none published from then on is missed.
    let watch = fanout.watch_user(user_id).await;
    ws.on_upgrade(move |socket| async move {
        let _watch = watch;
        let (mut sink, mut stream) = socket.split();
        let mut refresh = tokio::time::interval(REFRESH_EVERY);
        let mut heartbeat =
            tokio::time::interval_at(Instant::now() + HEARTBEAT_EVERY, HEARTBEAT_EVERY);
        let mut last_heard = Instant::now();
        let mut last_sent: Option<AccountFigures> = None;
        let mut trading = spot.subscribe_user_events();
        let mut seconds_events = seconds.subscribe_user_events();
        let mut futures_events = futures.subscribe_user_events();
        let mut earn_events = earn.subscribe_user_events();
        let mut loan_events = loans.subscribe();
        // Other instances' events for this user (cluster mode; never any in one process).
        let mut remote_events = fanout.subscribe_remote_user_events();
        let mut sessions_ended = fanout.subscribe_sessions_ended();
        loop {
            let text = tokio::select! {
                event = async {
                    tokio::select! {
                        event = trading.recv() => event,
                        event = seconds_events.recv() => event,
                        event = futures_events.recv() => event,
                        event = earn_events.recv() => event,
                        event = loan_events.recv() => event,
                        event = remote_events.recv() => event,
                    }
                } => match event {
                    Ok(event) if event.user_id == user_id => event.text.to_string(),
                    Ok(_) => continue,
                    // Too slow to keep up: the client re-reads its orders on reconnect.
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                        let _ = sink
                            .send(Message::Close(Some((CloseCode::from(LAGGED), "too slow".into()))))
                            .await;
                        break;
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
                },
                incoming = stream.next() => match incoming {
                    Some(Ok(Message::Text(text))) => {
                        last_heard = Instant::now();
                        reply_to_client(&text)
                    }
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => {
                        last_heard = Instant::now();
                        continue;
                    }
                },
                // A session of this user ended (here or on another instance): check at once.
                ended = sessions_ended.recv() => {
                    if !matches!(ended, Ok(ended) if ended == user_id) {
                        continue;
                    }
                    refresh.reset_immediately();
                    continue;
                }
                _ = refresh.tick() => {
                    match session::authenticate(&db, &token).await {
                        Ok(Some(_)) => {}
                        Ok(None) => {
                            // Why it ended, so that the page can say so before it signs out.
                            let ended = session::ended(&db, &token).await.unwrap_or(session::Ended::Expired);
                            let _ = tokio::time::timeout(SEND_TIMEOUT, sink.send(Message::Text(user_status_message(ended)))).await;
                            let _ = sink
                                .send(Message::Close(Some((CloseCode::from(SESSION_ENDED), "session ended".into()))))
                                .await;
                            break;
                        }
                        // A passing database hiccup: try again on the next refresh.
                        Err(_) => continue,
                    }
                    match figures(&db, &hub, &futures, user_id).await {
                        Ok(now) if last_sent.as_ref() != Some(&now) => {
                            let text = au_message(&now);
                            last_sent = Some(now);
                            text
                        }
                        _ => continue,
                    }
                }
                _ = heartbeat.tick() => {
                    if last_heard.elapsed() > CLIENT_IDLE_LIMIT {
                        break;
                    }
                    json!({"type": "HEARTBEAT", "ts": now_ms()}).to_string()
                }
            };
            match tokio::time::timeout(SEND_TIMEOUT, sink.send(Message::Text(text))).await {
                Ok(Ok(())) => {}
                _ => break,
            }
        }
    })
    .into_response()
}
