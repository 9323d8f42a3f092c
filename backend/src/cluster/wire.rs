//! What instances send each other for a market's commands: a [`Refusal`] as data
//! ([`WireRefusal`]), the same for every market kind (spot pairs now, futures symbols alike).

use std::collections::HashSet;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::i18n::{ALL_MSGS, Msg};
use crate::refusal::{Refusal, RefusalKind};

/// A [`Refusal`] on the wire: its kind's name, its message key, its field and its values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireRefusal {
    kind: String,
    msg: String,
    field: Option<String>,
    params: Vec<(String, String)>,
}

const KINDS: [RefusalKind; 10] = [
    RefusalKind::Invalid,
    RefusalKind::Unauthenticated,
    RefusalKind::Forbidden,
    RefusalKind::NotFound,
    RefusalKind::Conflict,
    RefusalKind::TooLarge,
    RefusalKind::UnsupportedMedia,
    RefusalKind::RateLimited,
    RefusalKind::Unavailable,
    RefusalKind::Internal,
];

impl From<&Refusal> for WireRefusal {
    fn from(refusal: &Refusal) -> Self {
        Self {
            kind: format!("{:?}", refusal.kind),
            msg: refusal.msg.key().to_owned(),
            field: refusal.field.clone(),
            params: refusal
                .params
                .iter()
                .map(|(name, value)| ((*name).to_owned(), value.clone()))
                .collect(),
        }
    }
}

impl WireRefusal {
    /// The refusal again, as the instance that sent it had it.
    pub fn into_refusal(self) -> Refusal {
        let kind = KINDS
            .into_iter()
            .find(|kind| format!("{kind:?}") == self.kind)
            .unwrap_or(RefusalKind::Internal);
        let msg = ALL_MSGS
            .iter()
            .copied()
            .find(|msg| msg.key() == self.msg)
            .unwrap_or_else(|| Msg::Rule(interned(&self.msg)));
        let mut refusal = Refusal::new(kind, msg);
        refusal.field = self.field;
        refusal.params = self
            .params
            .into_iter()
            .map(|(name, value)| (interned(&name), value))
            .collect();
        refusal
    }
}

/// `text` as a `&'static str`, each distinct text kept once: refusals name their values and rule
/// codes by static strings, and instances only send names their own code has.
pub(crate) fn interned(text: &str) -> &'static str {
    static NAMES: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    let names = names.get_or_insert_with(HashSet::new);
    if let Some(name) = names.get(text) {
        return name;
    }
    let name: &'static str = Box::leak(text.to_owned().into_boxed_str());
    names.insert(name);
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_crosses_the_wire_unchanged() {
        let refusal = Refusal::new(RefusalKind::Unavailable, Msg::TradingBusy)
            .with_field("symbol")
            .with_param("symbol", "BTCUSDT".to_owned());
        let wire: WireRefusal =
            serde_json::from_str(&serde_json::to_string(&WireRefusal::from(&refusal)).unwrap())
                .unwrap();
        assert_eq!(wire.into_refusal(), refusal);
        let rule = Refusal::new(RefusalKind::Invalid, Msg::Rule("price_tick"));
        assert_eq!(WireRefusal::from(&rule).into_refusal(), rule);
    }
}
