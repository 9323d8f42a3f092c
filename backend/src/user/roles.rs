//! The roles an account may have beyond a plain member, and the check that a call needs one.

use crate::entity::user;
use crate::i18n::Msg;
use crate::refusal::Refusal;

/// The role of operators: they review KYC, deposits and withdrawals and may see every user's files.
pub const OPERATOR_ROLE: &str = "operator";

/// Whether `user` is an operator.
pub fn is_operator(user: &user::Model) -> bool {
    user.role == OPERATOR_ROLE
}

/// Refuses (forbidden) a user without the operator role.
pub fn require_operator(user: &user::Model) -> Result<(), Refusal> {
    if is_operator(user) {
        Ok(())
    } else {
        Err(Refusal::forbidden(Msg::Forbidden))
    }
}
