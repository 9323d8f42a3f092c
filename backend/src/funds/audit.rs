//! `backend audit`: re-derives every balance from the journal and checks the ledger's invariants —
//! each account's cached balance equals the sum of its postings, each entry sums to zero per asset,
//! and no account that may not go negative is below zero.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use sea_orm::{DatabaseConnection, DbErr, EntityTrait, QueryOrder};

use crate::entity::{journal_posting, ledger_account};

/// What the audit found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct AuditReport {
    /// Accounts checked.
    pub accounts: usize,
    /// Entries checked.
    pub entries: usize,
    /// Postings read.
    pub postings: usize,
    /// Every difference found, in words; empty when the ledger is sound.
    pub problems: Vec<String>,
}

impl AuditReport {
    /// Whether nothing is wrong.
    pub fn is_clean(&self) -> bool {
        self.problems.is_empty()
    }
}

fn parse(text: &str, what: &str, problems: &mut Vec<String>) -> Decimal {
    wasm_core::money::parse_decimal(text).unwrap_or_else(|_| {
        problems.push(format!("{what}: {text:?} is not a decimal"));
        Decimal::ZERO
    })
}

/// Audits the whole ledger.
pub async fn audit(db: &DatabaseConnection) -> Result<AuditReport, DbErr> {
    let mut report = AuditReport::default();
    let accounts = ledger_account::Entity::find()
        .order_by_asc(ledger_account::Column::Id)
        .all(db)
        .await?;
    let postings = journal_posting::Entity::find()
        .order_by_asc(journal_posting::Column::Id)
        .all(db)
        .await?;
    report.accounts = accounts.len();
    report.postings = postings.len();
    let mut per_account: BTreeMap<i64, Decimal> = BTreeMap::new();
    let mut per_entry: BTreeMap<i64, BTreeMap<String, Decimal>> = BTreeMap::new();
    for posting in &postings {
        let amount = parse(
            &posting.amount,
            &format!("posting {}", posting.id),
            &mut report.problems,
        );
        *per_account.entry(posting.account_id).or_default() += amount;
        *per_entry
            .entry(posting.entry_id)
            .or_default()
            .entry(posting.asset.clone())
            .or_default() += amount;
    }
    report.entries = per_entry.len();
    for (entry, sums) in &per_entry {
        for (asset, sum) in sums {
            if !sum.is_zero() {
                report.problems.push(format!(
                    "entry {entry}: {asset} postings sum to {sum}, not zero"
                ));
            }
        }
    }
    for account in &accounts {
        let cached = parse(
            &account.balance,
            &format!("account {}", account.id),
            &mut report.problems,
        );
        let derived = per_account.get(&account.id).copied().unwrap_or_default();
        let name = format!(
            "account {} ({} {} {})",
            account.id, account.owner, account.bucket, account.asset
        );
        if cached != derived {
            report.problems.push(format!(
                "{name}: balance {cached} but its postings sum to {derived}"
            ));
        }
        if derived < Decimal::ZERO && !account.may_go_negative {
            report
                .problems
                .push(format!("{name}: negative balance {derived}"));
        }
    }
    Ok(report)
}
