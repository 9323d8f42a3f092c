//! Security and money e-mails: a new login from an unknown device or address, 2FA turned on or
//! off, the fund password set or changed, the login password changed, the identity review's
//! result, a deposit credited, a withdrawal submitted, sent or rejected, a loan approved or
//! rejected, a loan instalment due soon or overdue, a wallet linked to or unlinked from the account.
//!
//! - Recording: [`enqueue`] writes a [`Notice`] as a `notification` row on the connection it is
//!   given, which is the event's own transaction wherever the event has one (the ledger's entry
//!   of a deposit or withdrawal, the review of an identity submission, a password change), so a
//!   notice exists exactly when its event does and a money transaction never waits for a mail
//!   server. A row holds the recipient's id, the kind and the values the text shows — never a
//!   secret (no code, password, key or full session token).
//! - Delivery: [`deliver::run`] is a background task that sends due rows through the real mailer
//!   (SMTP when configured, the dev outbox in development), in the recipient's language
//!   (`user.lang`, the language the webapp last used; [`logins`]) with their anti-phishing code,
//!   and marks each sent. It keeps no state of its own: after a restart it finds every row not yet
//!   sent, so nothing written is lost.
//! - Texts: [`texts`] maps each kind to its subject and body, short and factual, in the 14
//!   languages of `backend/locales/notify/`.

pub mod deliver;
pub mod logins;
pub mod texts;

use sea_orm::{ActiveModelTrait, ActiveValue::Set, ConnectionTrait, DbErr};

use crate::clock::now_ms;
use crate::entity::{notification, withdrawal};

/// What happened, as the `kind` column names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A login from a device or IP address the account had not logged in from.
    NewLogin,
    /// 2FA (authenticator) turned on.
    TotpEnabled,
    /// 2FA (authenticator) turned off.
    TotpDisabled,
    /// The fund password was set for the first time.
    FundPasswordSet,
    /// The fund password was changed.
    FundPasswordChanged,
    /// The login password was changed or reset.
    LoginPasswordChanged,
    /// An identity submission passed review.
    KycApproved,
    /// An identity submission failed review (`reason`).
    KycRejected,
    /// A deposit was credited.
    DepositCredited,
    /// A withdrawal was submitted and its amount held.
    WithdrawalSubmitted,
    /// A withdrawal was sent (`txHash`).
    WithdrawalSent,
    /// A withdrawal was rejected and its amount returned (`reason`).
    WithdrawalRejected,
    /// A loan application was approved and the principal paid out.
    LoanApproved,
    /// A loan application was rejected (`reason`).
    LoanRejected,
    /// A loan instalment falls due soon.
    LoanDueSoon,
    /// A loan instalment is overdue (with the grace days and the penalty rate after them).
    LoanOverdue,
    /// A wallet was linked for signing in (`address`).
    WalletLinked,
    /// The wallet for signing in was unlinked (`address`).
    WalletUnlinked,
}

/// Every kind (for the texts' tests).
pub const ALL_KINDS: [Kind; 18] = [
    Kind::NewLogin,
    Kind::TotpEnabled,
    Kind::TotpDisabled,
    Kind::FundPasswordSet,
    Kind::FundPasswordChanged,
    Kind::LoginPasswordChanged,
    Kind::KycApproved,
    Kind::KycRejected,
    Kind::DepositCredited,
    Kind::WithdrawalSubmitted,
    Kind::WithdrawalSent,
    Kind::WithdrawalRejected,
    Kind::LoanApproved,
    Kind::LoanRejected,
    Kind::LoanDueSoon,
    Kind::LoanOverdue,
    Kind::WalletLinked,
    Kind::WalletUnlinked,
];

impl Kind {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::NewLogin => "new_login",
            Kind::TotpEnabled => "totp_enabled",
            Kind::TotpDisabled => "totp_disabled",
            Kind::FundPasswordSet => "fund_password_set",
            Kind::FundPasswordChanged => "fund_password_changed",
            Kind::LoginPasswordChanged => "login_password_changed",
            Kind::KycApproved => "kyc_approved",
            Kind::KycRejected => "kyc_rejected",
            Kind::DepositCredited => "deposit_credited",
            Kind::WithdrawalSubmitted => "withdrawal_submitted",
            Kind::WithdrawalSent => "withdrawal_sent",
            Kind::WithdrawalRejected => "withdrawal_rejected",
            Kind::LoanApproved => "loan_approved",
            Kind::LoanRejected => "loan_rejected",
            Kind::LoanDueSoon => "loan_due_soon",
            Kind::LoanOverdue => "loan_overdue",
            Kind::WalletLinked => "wallet_linked",
            Kind::WalletUnlinked => "wallet_unlinked",
        }
    }

    /// The kind of a stored name.
    pub fn parse(text: &str) -> Option<Kind> {
        ALL_KINDS.into_iter().find(|kind| kind.as_str() == text)
    }
}

/// One notice: its kind and the values its text shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// What happened.
    pub kind: Kind,
    /// `{name}` → value, filled into the text.
    pub params: Vec<(&'static str, String)>,
}

impl Notice {
    /// A notice of `kind` with no values but the time (`{time}`, UTC).
    pub fn at(kind: Kind, at_ms: i64) -> Self {
        Notice {
            kind,
            params: vec![("time", utc_time(at_ms))],
        }
    }

    /// A wallet `address` linked or unlinked ([`Kind::WalletLinked`], [`Kind::WalletUnlinked`]).
    pub fn wallet(kind: Kind, address: &str, at_ms: i64) -> Self {
        let mut notice = Notice::at(kind, at_ms);
        notice.params.push(("address", clip(address, 64)));
        notice
    }

    /// A login from `device` at `ip`.
    pub fn new_login(device: &str, ip: &str, at_ms: i64) -> Self {
        let mut notice = Notice::at(Kind::NewLogin, at_ms);
        notice.params.push(("device", clip(device, 100)));
        notice.params.push(("ip", clip(ip, 64)));
        notice
    }

    /// An identity review: passed, or failed for `reason`.
    pub fn kyc(approved: bool, reason: Option<&str>) -> Self {
        if approved {
            Notice {
                kind: Kind::KycApproved,
                params: Vec::new(),
            }
        } else {
            Notice {
                kind: Kind::KycRejected,
                params: vec![("reason", clip(reason.unwrap_or_default(), 500))],
            }
        }
    }

    /// `amount` of `coin` on `network` credited.
    pub fn deposit_credited(amount: &str, coin: &str, network: &str, at_ms: i64) -> Self {
        let mut notice = Notice::at(Kind::DepositCredited, at_ms);
        notice.params.extend(money(amount, coin, network));
        notice
    }

    /// Withdrawal `row` submitted (its whole amount held).
    pub fn withdrawal_submitted(row: &withdrawal::Model) -> Self {
        let mut notice = Notice::at(Kind::WithdrawalSubmitted, row.created_at);
        notice
            .params
            .extend(money(&row.amount, &row.coin, &row.network));
        notice.params.push(("address", row.address.clone()));
        notice
    }

    /// Withdrawal `row` sent (`received`, after the fee) with transaction `tx_hash`.
    pub fn withdrawal_sent(row: &withdrawal::Model, tx_hash: &str) -> Self {
        let mut notice = Notice {
            kind: Kind::WithdrawalSent,
            params: money(&row.received, &row.coin, &row.network),
        };
        notice.params.push(("address", row.address.clone()));
        notice.params.push(("txHash", tx_hash.to_owned()));
        notice
    }

    /// Withdrawal `row` rejected for `reason` (its whole amount returned).
    pub fn withdrawal_rejected(row: &withdrawal::Model, reason: &str) -> Self {
        let mut notice = Notice {
            kind: Kind::WithdrawalRejected,
            params: money(&row.amount, &row.coin, &row.network),
        };
        notice.params.push(("reason", clip(reason, 500)));
        notice
    }
}

/// What a loan notice names: the loan, an amount of its coin and a time.
#[derive(Debug, Clone, Copy)]
pub struct LoanFacts<'a> {
    /// The loan (or application) id.
    pub loan_id: i64,
    /// The amount (principal lent, or the instalment due).
    pub amount: &'a str,
    /// The coin.
    pub coin: &'a str,
    /// The time it names (the end of the loan, or the due time), Unix milliseconds.
    pub at_ms: i64,
}

impl Notice {
    fn loan(kind: Kind, facts: LoanFacts<'_>) -> Self {
        Notice {
            kind,
            params: vec![
                ("loanId", facts.loan_id.to_string()),
                ("amount", facts.amount.to_owned()),
                ("coin", facts.coin.to_ascii_uppercase()),
                ("time", utc_time(facts.at_ms)),
            ],
        }
    }

    /// A loan approved: `amount` paid out, the last instalment due at `at_ms`.
    pub fn loan_approved(facts: LoanFacts<'_>) -> Self {
        Notice::loan(Kind::LoanApproved, facts)
    }

    /// A loan application of `amount` rejected for `reason`.
    pub fn loan_rejected(facts: LoanFacts<'_>, reason: &str) -> Self {
        let mut notice = Notice::loan(Kind::LoanRejected, facts);
        notice.params.push(("reason", clip(reason, 500)));
        notice
    }

    /// An instalment of `amount` due at `at_ms`.
    pub fn loan_due_soon(facts: LoanFacts<'_>) -> Self {
        Notice::loan(Kind::LoanDueSoon, facts)
    }

    /// An instalment of `amount` due at `at_ms` unpaid: after `grace_days` it accrues
    /// `penalty_percent` % a day.
    pub fn loan_overdue(facts: LoanFacts<'_>, grace_days: i32, penalty_percent: &str) -> Self {
        let mut notice = Notice::loan(Kind::LoanOverdue, facts);
        notice.params.push(("graceDays", grace_days.to_string()));
        notice.params.push(("penalty", penalty_percent.to_owned()));
        notice
    }
}

fn money(amount: &str, coin: &str, network: &str) -> Vec<(&'static str, String)> {
    vec![
        ("amount", amount.to_owned()),
        ("coin", coin.to_ascii_uppercase()),
        ("network", network.to_owned()),
    ]
}

fn clip(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

/// `2026-11-28 17:45:08 UTC`.
pub fn utc_time(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|time| time.format("%Y-%m-%d %H:%M:%S UTC").to_string())
        .unwrap_or_default()
}

/// Records `notice` for `user_id` on `db`, the event's transaction where it has one; delivered
/// later by [`deliver::run`].
pub async fn enqueue(db: &impl ConnectionTrait, user_id: i64, notice: Notice) -> Result<(), DbErr> {
    let params: serde_json::Map<String, serde_json::Value> = notice
        .params
        .into_iter()
        .map(|(name, value)| (name.to_owned(), serde_json::Value::String(value)))
        .collect();
    let now = now_ms();
    notification::ActiveModel {
        user_id: Set(user_id),
        kind: Set(notice.kind.as_str().to_owned()),
        params: Set(serde_json::Value::Object(params).to_string()),
        created_at: Set(now),
        attempts: Set(0),
        next_attempt_at: Set(now),
        claimed_until: Set(None),
        sent_at: Set(None),
        failed_at: Set(None),
        last_error: Set(None),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_read_back() {
        for kind in ALL_KINDS {
            assert_eq!(Kind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(Kind::parse("nothing"), None);
    }

    #[test]
    fn times_are_utc() {
        assert_eq!(utc_time(1_764_351_908_000), "2025-11-28 17:45:08 UTC");
    }
}
