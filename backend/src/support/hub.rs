//! The live side of the chat in one process: every change (a stored message, a conversation
//! assigned, read or closed), serialised once, goes to the operators' broadcast and to the one
//! customer it concerns (a user's or a visitor's own broadcast, made while a socket of theirs is
//! open), so a message wakes the operators' sockets and its customer's, not every customer's; and
//! the count of customer sockets connected per conversation. Every socket still filters what it
//! receives for what its holder may see (`ws.rs`). With several instances behind a balancer a customer and an operator must reach the
//! same instance (sticky by conversation) — see docs/operations.md.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

/// One change, for the sockets of one conversation and for the operators.
#[derive(Debug, Clone)]
pub struct SupportEvent {
    /// The conversation.
    pub conversation_id: i64,
    /// The user whose conversation it is (`None`: a visitor's).
    pub user_id: Option<i64>,
    /// The operator it is assigned to after the change (`None`: queued or closed unassigned).
    pub operator_id: Option<i64>,
    /// Whether it carries a message (else only the conversation's state, which every operator
    /// may see in the queues).
    pub is_message: bool,
    /// The JSON text `{"type", "data", "ts"}`.
    pub text: Arc<str>,
}

/// Whose changes a customer socket receives: a user's (whichever conversation is theirs now) or a
/// visitor's conversation's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Audience {
    /// A user, by id.
    User(i64),
    /// A visitor's conversation, by id.
    Visitor(i64),
}

impl SupportEvent {
    /// The customer the change concerns.
    pub fn audience(&self) -> Audience {
        match self.user_id {
            Some(user_id) => Audience::User(user_id),
            None => Audience::Visitor(self.conversation_id),
        }
    }
}

/// Changes a customer's sockets may fall behind by before they are closed as too slow.
const CUSTOMER_BACKLOG: usize = 64;

type Broadcast = broadcast::Sender<Arc<SupportEvent>>;

/// The broadcasts and the presence of customers.
#[derive(Clone)]
pub struct SupportHub {
    operators: Broadcast,
    customers: Arc<Mutex<HashMap<Audience, Broadcast>>>,
    present: Arc<Mutex<HashMap<i64, usize>>>,
}

impl Default for SupportHub {
    fn default() -> Self {
        Self {
            // Room for a burst of 1,000 conversations each answered at once.
            operators: broadcast::channel(4096).0,
            customers: Arc::default(),
            present: Arc::default(),
        }
    }
}

/// A socket's feed of changes; a customer's feed ends its audience's broadcast when it is the last.
pub struct Subscription {
    receiver: broadcast::Receiver<Arc<SupportEvent>>,
    customer: Option<(SupportHub, Audience)>,
}

impl Subscription {
    /// The next change (see [`broadcast::Receiver::recv`]).
    pub async fn recv(&mut self) -> Result<Arc<SupportEvent>, broadcast::error::RecvError> {
        self.receiver.recv().await
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        if let Some((hub, audience)) = &self.customer {
            let mut customers = hub.customers_map();
            // This feed's receiver is still alive here: one receiver left means it is the last.
            if customers
                .get(audience)
                .is_some_and(|sender| sender.receiver_count() <= 1)
            {
                customers.remove(audience);
            }
        }
    }
}

/// Keeps a customer counted as connected to a conversation while it lives.
pub struct Presence {
    hub: SupportHub,
    conversation_id: i64,
}

impl Drop for Presence {
    fn drop(&mut self) {
        let mut present = self.hub.present_map();
        if let Some(count) = present.get_mut(&self.conversation_id) {
            *count -= 1;
            if *count == 0 {
                present.remove(&self.conversation_id);
            }
        }
    }
}

impl SupportHub {
    fn customers_map(&self) -> std::sync::MutexGuard<'_, HashMap<Audience, Broadcast>> {
        // Each step is one insert or remove: a panic cannot leave the map inconsistent.
        self.customers.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn present_map(&self) -> std::sync::MutexGuard<'_, HashMap<i64, usize>> {
        // A panic while counting cannot leave the map inconsistent (each step is one insert).
        self.present.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Publishes `{"type": kind, "data": data, "ts"}` about `row` (nobody listening is fine);
    /// `kind` `message` carries a message, any other only the conversation's state.
    pub fn publish<T: serde::Serialize>(
        &self,
        row: &crate::entity::support_conversation::Model,
        kind: &str,
        data: &T,
    ) {
        let text = serde_json::json!({"type": kind, "data": data, "ts": crate::clock::now_ms()});
        let event = Arc::new(SupportEvent {
            conversation_id: row.id,
            user_id: row.user_id,
            operator_id: row.operator_id,
            is_message: kind == "message",
            text: Arc::from(text.to_string()),
        });
        if let Some(customer) = self.customers_map().get(&event.audience()) {
            let _ = customer.send(event.clone());
        }
        let _ = self.operators.send(event);
    }

    /// A feed of every change, for an operator's socket.
    pub fn subscribe_operator(&self) -> Subscription {
        Subscription {
            receiver: self.operators.subscribe(),
            customer: None,
        }
    }

    /// A feed of the changes that concern `audience`, for a customer's socket.
    pub fn subscribe_customer(&self, audience: Audience) -> Subscription {
        let receiver = self
            .customers_map()
            .entry(audience)
            .or_insert_with(|| broadcast::channel(CUSTOMER_BACKLOG).0)
            .subscribe();
        Subscription {
            receiver,
            customer: Some((self.clone(), audience)),
        }
    }

    /// Counts a customer socket on `conversation_id` until the guard is dropped.
    pub fn enter(&self, conversation_id: i64) -> Presence {
        *self.present_map().entry(conversation_id).or_insert(0) += 1;
        Presence {
            hub: self.clone(),
            conversation_id,
        }
    }

    /// Whether a customer socket of `conversation_id` is connected now.
    pub fn customer_present(&self, conversation_id: i64) -> bool {
        self.present_map().contains_key(&conversation_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presence_lasts_while_a_guard_lives() {
        let hub = SupportHub::default();
        assert!(!hub.customer_present(7));
        let first = hub.enter(7);
        let second = hub.enter(7);
        drop(first);
        assert!(hub.customer_present(7));
        drop(second);
        assert!(!hub.customer_present(7));
    }

    fn conversation(id: i64, user_id: Option<i64>) -> crate::entity::support_conversation::Model {
        crate::entity::support_conversation::Model {
            id,
            user_id,
            visitor_email: None,
            visitor_token_hash: None,
            lang: "en".into(),
            status: "open".into(),
            operator_id: None,
            customer_unread: 0,
            operator_unread: 0,
            away_mailed: false,
            last_message_at: 0,
            created_at: 0,
            closed_at: None,
        }
    }

    #[tokio::test]
    async fn a_change_reaches_its_customer_and_the_operators_only() {
        let hub = SupportHub::default();
        let mut operator = hub.subscribe_operator();
        let mut user = hub.subscribe_customer(Audience::User(5));
        let mut visitor = hub.subscribe_customer(Audience::Visitor(9));
        let mut other = hub.subscribe_customer(Audience::Visitor(10));
        hub.publish(&conversation(3, Some(5)), "message", &"to the user");
        hub.publish(&conversation(9, None), "message", &"to the visitor");

        assert_eq!(user.recv().await.unwrap().conversation_id, 3);
        assert_eq!(visitor.recv().await.unwrap().conversation_id, 9);
        assert_eq!(operator.recv().await.unwrap().conversation_id, 3);
        assert_eq!(operator.recv().await.unwrap().conversation_id, 9);
        assert!(user.receiver.try_recv().is_err());
        assert!(visitor.receiver.try_recv().is_err());
        assert!(other.receiver.try_recv().is_err());
    }

    #[test]
    fn a_customers_broadcast_ends_with_their_last_socket() {
        let hub = SupportHub::default();
        let first = hub.subscribe_customer(Audience::User(5));
        let second = hub.subscribe_customer(Audience::User(5));
        drop(first);
        assert!(hub.customers_map().contains_key(&Audience::User(5)));
        drop(second);
        assert!(hub.customers_map().is_empty());
    }
}
