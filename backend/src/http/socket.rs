//! What the member sockets share (the user channel `/ws/business/user` and the support chat's
//! sockets): their close codes and the one message a client sends them, `{"op": "ping", "ts"}`,
//! answered with a `pong` (anything else with an `unknown_message` error). The market channel has
//! a protocol of its own (`crate::market::ws`).

use serde::Deserialize;
use serde_json::json;

/// The close code of a socket whose session ended.
pub const SESSION_ENDED: u16 = 4401;
/// The close code of a socket too slow for its broadcast.
pub const LAGGED: u16 = 4408;

#[derive(Deserialize)]
#[serde(tag = "op", rename_all = "lowercase")]
enum ClientMessage {
    Ping { ts: Option<i64> },
}

/// The answer to a client's text frame: `pong` to a ping, an `unknown_message` error otherwise.
pub fn reply_to_client(text: &str) -> String {
    match serde_json::from_str::<ClientMessage>(text) {
        Ok(ClientMessage::Ping { ts }) => json!({"type": "pong", "ts": ts}).to_string(),
        Err(_) => json!({"type": "error", "reason": "unknown_message"}).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ping_is_answered_with_its_time_and_anything_else_is_unknown() {
        assert_eq!(
            reply_to_client(r#"{"op":"ping","ts":7}"#),
            r#"{"ts":7,"type":"pong"}"#
        );
        assert_eq!(
            reply_to_client(r#"{"op":"sub"}"#),
            r#"{"reason":"unknown_message","type":"error"}"#
        );
    }
}
