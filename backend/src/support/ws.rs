//! The support chat's live channels (WebSocket), in the manner of the other channels: `HEARTBEAT`
//! every 10 s, `{"op":"ping","ts"}` answered with `pong`, a client silent for 60 s closed, a
//! socket too slow for the broadcast closed with 4408 — the client reconnects after 3 s and
//! re-reads the thread over HTTP (messages are stored before they are pushed, so none is lost).
//!
//! - `GET /ws/support/customer?satoken=…` (a user) or `?token=…` (a visitor's conversation token):
//!   `{"type": "message", "data": SupportMessage}` for every message of the customer's
//!   conversation (theirs and the operators') and `{"type": "conversation", "data":
//!   SupportConversation}` when its state or unread counts change. While it is open the customer
//!   counts as present (no away e-mail). No valid session or token: 401, no socket.
//! - `GET /ws/support/operator?satoken=…` (operators only, else 403): `conversation` for every
//!   conversation change (the queues move live) and `message` for the messages of queued
//!   conversations and of the operator's own.
//! - A user's session is checked again every 30 s; once ended the socket closes with 4401.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use poem::{
    IntoResponse, Request, handler,
    http::StatusCode,
    web::{
        Data,
        websocket::{CloseCode, Message, WebSocket},
    },
};
use sea_orm::DatabaseConnection;
use serde::Deserialize;
use serde_json::json;
use tokio::time::Instant;

use super::hub::{Audience, Presence, Subscription, SupportEvent};
use super::{Customer, SupportHub, conversations};
use crate::clock::now_ms;
use crate::http::socket::{LAGGED, SESSION_ENDED, reply_to_client};
use crate::market::ws::{CLIENT_IDLE_LIMIT, HEARTBEAT_EVERY, SEND_TIMEOUT};
use crate::user::roles::is_operator;
use crate::user::session;

/// How often a user's session is checked again.
pub const SESSION_CHECK_EVERY: Duration = Duration::from_secs(30);

#[derive(Deserialize)]
struct ChannelQuery {
    satoken: Option<String>,
    token: Option<String>,
}

/// Who a socket serves.
#[derive(Clone)]
enum Holder {
    /// A user (by id) or a visitor (by conversation), with their conversation now.
    Customer {
        user_id: Option<i64>,
        conversation_id: i64,
    },
    /// An operator.
    Operator(i64),
}

impl Holder {
    fn wants(&self, event: &SupportEvent) -> bool {
        match self {
            Holder::Customer {
                user_id: Some(user_id),
                ..
            } => event.user_id == Some(*user_id),
            Holder::Customer {
                user_id: None,
                conversation_id,
            } => event.conversation_id == *conversation_id,
            Holder::Operator(me) => {
                !event.is_message || event.operator_id.is_none() || event.operator_id == Some(*me)
            }
        }
    }
}

fn params(req: &Request) -> (Option<String>, Option<String>) {
    let query = req.params::<ChannelQuery>().ok();
    let satoken = query
        .as_ref()
        .and_then(|q| q.satoken.clone())
        .or_else(|| req.header("satoken").map(str::to_owned));
    (satoken, query.and_then(|q| q.token))
}

/// Upgrades to the customer channel of a user's or a visitor's conversation.
#[handler]
pub async fn customer_channel(
    req: &Request,
    ws: WebSocket,
    Data(db): Data<&DatabaseConnection>,
    Data(hub): Data<&SupportHub>,
) -> poem::Response {
    let (satoken, token) = params(req);
    let (customer, session_token) = match (satoken, token) {
        (Some(satoken), _) => match session::authenticate(db, &satoken).await {
            Ok(Some((_, user))) => (Customer::User(user.id), Some(satoken)),
            Ok(None) => return StatusCode::UNAUTHORIZED.into_response(),
            Err(_) => return StatusCode::INTERNAL_SERVER_ERROR.into_response(),
        },
        (None, Some(token)) => (Customer::Visitor(token), None),
        (None, None) => return StatusCode::UNAUTHORIZED.into_response(),
    };
    let row = match conversations::of_customer(db, &customer).await {
        Ok(row) => row,
        Err(refusal) => return crate::http::middleware::error_response(&refusal),
    };
    let holder = Holder::Customer {
        user_id: row.user_id,
        conversation_id: row.id,
    };
    let presence = hub.enter(row.id);
    let events = hub.subscribe_customer(match row.user_id {
        Some(user_id) => Audience::User(user_id),
        None => Audience::Visitor(row.id),
    });
    serve(
        ws,
        db.clone(),
        hub.clone(),
        events,
        holder,
        session_token,
        Some(presence),
    )
}

/// Upgrades to the operators' channel.
#[handler]
pub async fn operator_channel(
    req: &Request,
    ws: WebSocket,
    Data(db): Data<&DatabaseConnection>,
    Data(hub): Data<&SupportHub>,
) -> poem::Response {
    let Some(satoken) = params(req).0 else {
        return StatusCode::UNAUTHORIZED.into_response();
    };
    match session::authenticate(db, &satoken).await {
        Ok(Some((_, user))) if is_operator(&user) => serve(
            ws,
            db.clone(),
            hub.clone(),
            hub.subscribe_operator(),
            Holder::Operator(user.id),
            Some(satoken),
            None,
        ),
        Ok(Some(_)) => StatusCode::FORBIDDEN.into_response(),
        Ok(None) => StatusCode::UNAUTHORIZED.into_response(),
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

fn serve(
    ws: WebSocket,
    db: DatabaseConnection,
    hub: SupportHub,
    mut events: Subscription,
    mut holder: Holder,
    session_token: Option<String>,
    mut presence: Option<Presence>,
) -> poem::Response {
    ws.on_upgrade(move |socket| async move {
        let (mut sink, mut stream) = socket.split();
        let mut session_check = tokio::time::interval_at(
            Instant::now() + SESSION_CHECK_EVERY,
            SESSION_CHECK_EVERY,
        );
        let mut heartbeat =
            tokio::time::interval_at(Instant::now() + HEARTBEAT_EVERY, HEARTBEAT_EVERY);
        let mut last_heard = Instant::now();
        loop {
            let text = tokio::select! {
                event = events.recv() => match event {
                    Ok(event) if holder.wants(&event) => {
                        // A user's closed conversation was replaced: count them present there.
                        if let Holder::Customer { user_id: Some(_), conversation_id } = &mut holder
                            && *conversation_id != event.conversation_id
                        {
                            *conversation_id = event.conversation_id;
                            presence = Some(hub.enter(event.conversation_id));
                        }
                        event.text.to_string()
                    }
                    Ok(_) => continue,
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
                _ = session_check.tick() => {
                    let Some(token) = &session_token else { continue };
                    match session::authenticate(&db, token).await {
                        Ok(None) => {
                            let _ = sink
                                .send(Message::Close(Some((CloseCode::from(SESSION_ENDED), "session ended".into()))))
                                .await;
                            break;
                        }
                        // Still valid, or a passing database hiccup: check again later.
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
        drop(presence);
    })
    .into_response()
}
