//! A message for one user's private channel (`/ws/user/push/{userId}`), serialised once by the
//! engine that publishes it (spot orders and fills, futures positions and orders, seconds bets).

use std::sync::Arc;

/// A message for one user's channel, serialised once.
#[derive(Debug, Clone)]
pub struct UserEvent {
    /// The user.
    pub user_id: i64,
    /// The JSON text.
    pub text: Arc<str>,
}

impl UserEvent {
    /// The message `{"type": kind, "data": data, "ts": now}` for `user_id`.
    pub fn new<T: serde::Serialize>(user_id: i64, kind: &str, data: &T) -> Self {
        let text = serde_json::json!({"type": kind, "data": data, "ts": crate::clock::now_ms()});
        Self {
            user_id,
            text: Arc::from(text.to_string()),
        }
    }
}
