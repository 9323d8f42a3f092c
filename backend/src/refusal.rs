//! Why a service, an engine or the ledger did not do what it was asked: a [`Refusal`] is data (a
//! [`RefusalKind`], the message key, the field at fault and the values the message names) with no
//! HTTP in it. `http/` turns a kind into a status once ([`crate::http::status_of`]) and a refusal
//! into the envelope `{code, msg, data}` in the request's language.

use crate::i18n::Msg;

/// What kind of refusal it is: what the caller can do about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefusalKind {
    /// The input breaks a rule or cannot be read; the same input is refused again.
    Invalid,
    /// The caller is not logged in, or the session has ended.
    Unauthenticated,
    /// The caller is known but may not do this.
    Forbidden,
    /// What the call names does not exist (or is not the caller's).
    NotFound,
    /// The call is valid but the state it meets does not allow it (already done, changed meanwhile).
    Conflict,
    /// The input is larger than allowed.
    TooLarge,
    /// The input is of a type that is not accepted.
    UnsupportedMedia,
    /// Too many attempts: the `seconds` param says how long to wait.
    RateLimited,
    /// The service cannot do it now (busy, a price missing, a provider absent); nothing was done and
    /// the caller may retry.
    Unavailable,
    /// An unexpected failure; its cause is logged, never shown, and nothing was changed.
    Internal,
}

/// A refused call: its kind, the message key (in the user's language when rendered), the request
/// field at fault and the values the message names (`{symbol}`, `{seconds}`, …).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// What kind of refusal it is.
    pub kind: RefusalKind,
    /// The message.
    pub msg: Msg,
    /// The field at fault.
    pub field: Option<String>,
    /// Other values the message names.
    pub params: Vec<(&'static str, String)>,
}

impl Refusal {
    /// A refusal of `kind` with `msg` and no field.
    pub fn new(kind: RefusalKind, msg: Msg) -> Self {
        Self {
            kind,
            msg,
            field: None,
            params: Vec::new(),
        }
    }

    /// An input that breaks a rule ([`RefusalKind::Invalid`]).
    pub fn invalid(msg: Msg) -> Self {
        Self::new(RefusalKind::Invalid, msg)
    }

    /// Something the call names that does not exist ([`RefusalKind::NotFound`]).
    pub fn not_found(msg: Msg) -> Self {
        Self::new(RefusalKind::NotFound, msg)
    }

    /// A state that does not allow the call ([`RefusalKind::Conflict`]).
    pub fn conflict(msg: Msg) -> Self {
        Self::new(RefusalKind::Conflict, msg)
    }

    /// A call the caller may not make ([`RefusalKind::Forbidden`]).
    pub fn forbidden(msg: Msg) -> Self {
        Self::new(RefusalKind::Forbidden, msg)
    }

    /// A call that cannot be served now ([`RefusalKind::Unavailable`]).
    pub fn unavailable(msg: Msg) -> Self {
        Self::new(RefusalKind::Unavailable, msg)
    }

    /// The same refusal naming the request field at fault.
    pub fn with_field(mut self, field: &str) -> Self {
        self.field = Some(field.to_owned());
        self
    }

    /// The same refusal with `{name}` in its message filled with `value`.
    pub fn with_param(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.params.push((name, value.into()));
        self
    }

    /// An unexpected failure; the cause is logged, never shown.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(%cause, "internal error");
        Self::new(RefusalKind::Internal, Msg::InternalError)
    }

    /// The value of the `name` param, if the message names one.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| value.as_str())
    }

    /// The refusal of `field` breaking `violation` (wasm-core's rules, checked again here).
    pub fn rule(field: &str, violation: &wasm_core::validate::Violation) -> Self {
        let mut refusal = Self::invalid(Msg::Rule(violation.code())).with_field(field);
        for (name, value) in violation.params() {
            refusal = refusal.with_param(name, value);
        }
        refusal
    }

    /// The first of a form's errors, if any (the webapp shows all of them before calling).
    pub fn first_of(errors: Vec<wasm_core::validate::ValidationError>) -> Result<(), Self> {
        match errors.into_iter().next() {
            Some(error) => Err(error.into()),
            None => Ok(()),
        }
    }
}

impl From<wasm_core::validate::ValidationError> for Refusal {
    /// A broken input rule of a form field: invalid, the rule's message, the field named.
    fn from(error: wasm_core::validate::ValidationError) -> Self {
        Refusal::rule(error.field, &error.violation)
    }
}

/// Whether `error` says the database had no free connection in time: the pool is saturated (a
/// burst of requests, a starved machine), not broken, so the call is refused as unavailable.
pub fn is_pool_timeout(error: &sea_orm::DbErr) -> bool {
    use sea_orm::{ConnAcquireErr, DbErr, RuntimeErr, sqlx};
    match error {
        DbErr::ConnectionAcquire(ConnAcquireErr::Timeout) => true,
        DbErr::Conn(RuntimeErr::SqlxError(cause))
        | DbErr::Exec(RuntimeErr::SqlxError(cause))
        | DbErr::Query(RuntimeErr::SqlxError(cause)) => {
            matches!(cause.as_ref(), sqlx::Error::PoolTimedOut)
        }
        _ => false,
    }
}

impl From<sea_orm::DbErr> for Refusal {
    /// `service_busy` (unavailable) when the pool had no connection in time (nothing was done; the
    /// caller may retry), else an internal failure.
    fn from(error: sea_orm::DbErr) -> Self {
        if is_pool_timeout(&error) {
            tracing::warn!(%error, "no database connection in time; answered busy");
            return Self::unavailable(Msg::ServiceBusy);
        }
        Self::internal(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sea_orm::{ConnAcquireErr, DbErr};

    #[test]
    fn a_saturated_pool_is_busy_and_other_database_failures_are_internal() {
        let busy = Refusal::from(DbErr::ConnectionAcquire(ConnAcquireErr::Timeout));
        assert_eq!(
            (busy.kind, busy.msg),
            (RefusalKind::Unavailable, Msg::ServiceBusy)
        );
        let broken = Refusal::from(DbErr::Custom("disk I/O error".into()));
        assert_eq!(
            (broken.kind, broken.msg),
            (RefusalKind::Internal, Msg::InternalError)
        );
    }

    #[test]
    fn a_rule_names_its_field_and_params() {
        let violation = wasm_core::validate::Violation::TooLong { max: 3 };
        let refusal = Refusal::rule("nickname", &violation);
        assert_eq!(refusal.kind, RefusalKind::Invalid);
        assert_eq!(refusal.field.as_deref(), Some("nickname"));
        assert_eq!(refusal.param("max"), Some("3"));
    }
}
