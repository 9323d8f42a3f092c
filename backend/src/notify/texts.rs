//! The subject and body of each notice kind, in a language, from the `notify` locale area. A body
//! names what happened and what to do if it was not the user; it carries the values of the event
//! and nothing secret.

use super::Kind;
use crate::i18n::{Lang, Msg, translate};

/// The subject and body messages of `kind`.
pub fn messages(kind: Kind) -> (Msg, Msg) {
    match kind {
        Kind::NewLogin => (Msg::NoticeNewLoginSubject, Msg::NoticeNewLoginBody),
        Kind::TotpEnabled => (Msg::NoticeTotpEnabledSubject, Msg::NoticeTotpEnabledBody),
        Kind::TotpDisabled => (Msg::NoticeTotpDisabledSubject, Msg::NoticeTotpDisabledBody),
        Kind::FundPasswordSet => (
            Msg::NoticeFundPasswordSetSubject,
            Msg::NoticeFundPasswordSetBody,
        ),
        Kind::FundPasswordChanged => (
            Msg::NoticeFundPasswordChangedSubject,
            Msg::NoticeFundPasswordChangedBody,
        ),
        Kind::LoginPasswordChanged => (
            Msg::NoticeLoginPasswordChangedSubject,
            Msg::NoticeLoginPasswordChangedBody,
        ),
        Kind::KycApproved => (Msg::NoticeKycApprovedSubject, Msg::NoticeKycApprovedBody),
        Kind::KycRejected => (Msg::NoticeKycRejectedSubject, Msg::NoticeKycRejectedBody),
        Kind::DepositCredited => (
            Msg::NoticeDepositCreditedSubject,
            Msg::NoticeDepositCreditedBody,
        ),
        Kind::WithdrawalSubmitted => (
            Msg::NoticeWithdrawalSubmittedSubject,
            Msg::NoticeWithdrawalSubmittedBody,
        ),
        Kind::WithdrawalSent => (
            Msg::NoticeWithdrawalSentSubject,
            Msg::NoticeWithdrawalSentBody,
        ),
        Kind::WithdrawalRejected => (
            Msg::NoticeWithdrawalRejectedSubject,
            Msg::NoticeWithdrawalRejectedBody,
        ),
        Kind::LoanApproved => (Msg::NoticeLoanApprovedSubject, Msg::NoticeLoanApprovedBody),
        Kind::LoanRejected => (Msg::NoticeLoanRejectedSubject, Msg::NoticeLoanRejectedBody),
        Kind::LoanDueSoon => (Msg::NoticeLoanDueSoonSubject, Msg::NoticeLoanDueSoonBody),
        Kind::LoanOverdue => (Msg::NoticeLoanOverdueSubject, Msg::NoticeLoanOverdueBody),
        Kind::WalletLinked => (Msg::NoticeWalletLinkedSubject, Msg::NoticeWalletLinkedBody),
        Kind::WalletUnlinked => (
            Msg::NoticeWalletUnlinkedSubject,
            Msg::NoticeWalletUnlinkedBody,
        ),
    }
}

/// The subject (with the site's name) and body (with `params`) of `kind` in `lang`.
pub fn render(lang: Lang, site: &str, kind: Kind, params: &[(String, String)]) -> (String, String) {
    let (subject, body) = messages(kind);
    let params: Vec<(&str, &str)> = params
        .iter()
        .map(|(name, value)| (name.as_str(), value.as_str()))
        .collect();
    (
        translate(lang, subject, &[("site", site)]),
        translate(lang, body, &params),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::ALL_LANGS;
    use crate::notify::{ALL_KINDS, Notice};

    /// A notice of every kind with every value it shows.
    fn samples() -> Vec<Notice> {
        let row = crate::entity::withdrawal::Model {
            id: 1,
            user_id: 1,
            coin: "usdt".into(),
            network: "TRC20".into(),
            address: "TXYZabc".into(),
            amount: "25".into(),
            fee: "1".into(),
            received: "24".into(),
            status: "review".into(),
            reason: None,
            tx_hash: None,
            reviewed_by: None,
            reviewed_at: None,
            hold_entry_id: 1,
            settle_entry_id: None,
            fee_entry_id: None,
            created_at: 0,
        };
        let mut notices: Vec<Notice> = [
            Kind::TotpEnabled,
            Kind::TotpDisabled,
            Kind::FundPasswordSet,
            Kind::FundPasswordChanged,
            Kind::LoginPasswordChanged,
        ]
        .into_iter()
        .map(|kind| Notice::at(kind, 0))
        .collect();
        notices.extend([
            Notice::new_login("Chrome on Linux", "203.0.113.9", 0),
            Notice::kyc(true, None),
            Notice::kyc(false, Some("blurred photo")),
            Notice::deposit_credited("20", "usdt", "TRC20", 0),
            Notice::withdrawal_submitted(&row),
            Notice::withdrawal_sent(&row, "0xabc"),
            Notice::withdrawal_rejected(&row, "address on a sanctions list"),
        ]);
        let loan = crate::notify::LoanFacts {
            loan_id: 7,
            amount: "500",
            coin: "usdt",
            at_ms: 0,
        };
        notices.extend([
            Notice::loan_approved(loan),
            Notice::loan_rejected(loan, "documents unreadable"),
            Notice::loan_due_soon(loan),
            Notice::loan_overdue(loan, 3, "0.15"),
            Notice::wallet(
                Kind::WalletLinked,
                "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
                0,
            ),
            Notice::wallet(
                Kind::WalletUnlinked,
                "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
                0,
            ),
        ]);
        notices
    }

    #[test]
    fn every_kind_fills_every_value_in_every_language() {
        let notices = samples();
        for kind in ALL_KINDS {
            assert!(notices.iter().any(|notice| notice.kind == kind), "{kind:?}");
        }
        for lang in ALL_LANGS {
            for notice in &notices {
                let params: Vec<(String, String)> = notice
                    .params
                    .iter()
                    .map(|(name, value)| ((*name).to_owned(), value.clone()))
                    .collect();
                let (subject, body) = render(lang, "Kestrel", notice.kind, &params);
                assert!(subject.contains("Kestrel"), "{lang:?} {subject}");
                assert!(
                    !subject.contains('{') && !body.contains('{'),
                    "{lang:?} {body}"
                );
                for (_, value) in &notice.params {
                    assert!(
                        body.contains(value.as_str()),
                        "{lang:?} {:?}: {body}",
                        notice.kind
                    );
                }
            }
        }
    }
}
