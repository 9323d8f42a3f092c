//! A state-machine property test of the ledger: random sequences of every kind of entry, run
//! against the real ledger on SQLite and against an in-memory model. After every step the touched
//! balances match the model; an entry the model refuses (a balance would go negative) is refused and
//! changes nothing; at the end the audit finds every entry summing to zero and no negative balance.

use std::collections::BTreeMap;

use backend::funds::{
    audit::audit,
    ledger::{self, AccountRef, Bucket, House, LedgerError, NewEntry, Posting},
};
use proptest::prelude::*;
use rust_decimal::Decimal;

const ASSETS: [&str; 3] = ["usdt", "btc", "eth"];
const BUCKETS: [Bucket; 4] = [
    Bucket::Funding,
    Bucket::Trading,
    Bucket::Earn,
    Bucket::Frozen,
];

/// One operation of the model.
#[derive(Debug, Clone)]
enum Op {
    Deposit {
        user: i64,
        asset: usize,
        cents: i64,
    },
    Move {
        user: i64,
        from: usize,
        to: usize,
        asset: usize,
        cents: i64,
    },
    Transfer {
        from: i64,
        to: i64,
        asset: usize,
        cents: i64,
    },
    Convert {
        user: i64,
        sell: usize,
        sell_cents: i64,
        buy: usize,
        buy_cents: i64,
    },
    Fee {
        user: i64,
        asset: usize,
        cents: i64,
    },
    Withdraw {
        user: i64,
        asset: usize,
        cents: i64,
    },
}

fn op() -> impl Strategy<Value = Op> {
    let user = 1..=3i64;
    let asset = 0..ASSETS.len();
    let cents = 1..=20_000i64;
    prop_oneof![
        (user.clone(), asset.clone(), cents.clone()).prop_map(|(user, asset, cents)| Op::Deposit {
            user,
            asset,
            cents
        }),
        (
            user.clone(),
            0..4usize,
            0..4usize,
            asset.clone(),
            cents.clone()
        )
            .prop_filter("different buckets", |(_, a, b, _, _)| a != b)
            .prop_map(|(user, from, to, asset, cents)| Op::Move {
                user,
                from,
                to,
                asset,
                cents
            }),
        (user.clone(), user.clone(), asset.clone(), cents.clone())
            .prop_filter("different users", |(a, b, _, _)| a != b)
            .prop_map(|(from, to, asset, cents)| Op::Transfer {
                from,
                to,
                asset,
                cents
            }),
        (
            user.clone(),
            asset.clone(),
            cents.clone(),
            asset.clone(),
            cents.clone()
        )
            .prop_filter("different assets", |(_, a, _, b, _)| a != b)
            .prop_map(|(user, sell, sell_cents, buy, buy_cents)| Op::Convert {
                user,
                sell,
                sell_cents,
                buy,
                buy_cents
            }),
        (user.clone(), asset.clone(), cents.clone()).prop_map(|(user, asset, cents)| Op::Fee {
            user,
            asset,
            cents
        }),
        (user, asset, cents).prop_map(|(user, asset, cents)| Op::Withdraw { user, asset, cents }),
    ]
}

fn amount(cents: i64) -> Decimal {
    Decimal::new(cents, 2)
}

fn user(user_id: i64, bucket: Bucket) -> AccountRef {
    AccountRef::User { user_id, bucket }
}

/// The entry of an operation.
fn entry_of(op: &Op) -> NewEntry {
    let postings = match *op {
        Op::Deposit {
            user: u,
            asset,
            cents,
        } => Posting::transfer(
            AccountRef::House(House::DepositsInTransit),
            AccountRef::funding(u),
            ASSETS[asset],
            amount(cents),
        )
        .to_vec(),
        Op::Move {
            user: u,
            from,
            to,
            asset,
            cents,
        } => Posting::transfer(
            user(u, BUCKETS[from]),
            user(u, BUCKETS[to]),
            ASSETS[asset],
            amount(cents),
        )
        .to_vec(),
        Op::Transfer {
            from,
            to,
            asset,
            cents,
        } => Posting::transfer(
            AccountRef::funding(from),
            AccountRef::funding(to),
            ASSETS[asset],
            amount(cents),
        )
        .to_vec(),
        Op::Convert {
            user: u,
            sell,
            sell_cents,
            buy,
            buy_cents,
        } => {
            let mm = AccountRef::House(House::MarketMaker);
            let mut postings =
                Posting::transfer(AccountRef::funding(u), mm, ASSETS[sell], amount(sell_cents))
                    .to_vec();
            postings.extend(Posting::transfer(
                mm,
                AccountRef::funding(u),
                ASSETS[buy],
                amount(buy_cents),
            ));
            postings
        }
        Op::Fee {
            user: u,
            asset,
            cents,
        } => {
            // 10 % of every fee goes to the security fund.
            let fee = amount(cents);
            let fund = (fee / Decimal::TEN).round_dp(2);
            vec![
                Posting {
                    account: AccountRef::funding(u),
                    asset: ASSETS[asset].into(),
                    amount: -fee,
                },
                Posting {
                    account: AccountRef::House(House::Fees),
                    asset: ASSETS[asset].into(),
                    amount: fee - fund,
                },
                Posting {
                    account: AccountRef::House(House::SecurityFund),
                    asset: ASSETS[asset].into(),
                    amount: fund,
                },
            ]
            .into_iter()
            .filter(|p| !p.amount.is_zero())
            .collect()
        }
        Op::Withdraw {
            user: u,
            asset,
            cents,
        } => Posting::transfer(
            AccountRef::funding(u),
            AccountRef::House(House::WithdrawalsInTransit),
            ASSETS[asset],
            amount(cents),
        )
        .to_vec(),
    };
    NewEntry {
        kind: "model".into(),
        reference: format!("{op:?}").chars().take(120).collect(),
        user_id: None,
        actor_id: None,
        memo: String::new(),
        postings,
    }
}

type Model = BTreeMap<(AccountRef, String), Decimal>;

/// Applies `entry` to the model; `false` (and no change) when an account that may not go negative
/// would.
fn apply(model: &mut Model, entry: &NewEntry) -> bool {
    let mut next = model.clone();
    for posting in &entry.postings {
        *next
            .entry((posting.account, posting.asset.clone()))
            .or_default() += posting.amount;
    }
    let refused = next.iter().any(|((account, _), balance)| {
        *balance < Decimal::ZERO
            && !matches!(
                account,
                AccountRef::House(House::DepositsInTransit | House::MarketMaker)
            )
    });
    if !refused {
        *model = next;
    }
    !refused
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn the_ledger_behaves_like_its_model(ops in proptest::collection::vec(op(), 1..40)) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let dir = tempfile::tempdir().unwrap();
            let config = backend::config::Config {
                data_dir: dir.path().to_path_buf(),
                ..backend::config::Config::default()
            };
            let db = backend::db::connect(&config).await.unwrap();
            let mut model = Model::new();
            for op in &ops {
                let entry = entry_of(op);
                let accepted = apply(&mut model, &entry);
                match ledger::post(&db, &entry).await {
                    Ok(_) => prop_assert!(accepted, "the ledger accepted what the model refuses: {op:?}"),
                    Err(LedgerError::InsufficientBalance { .. }) => {
                        prop_assert!(!accepted, "the ledger refused what the model accepts: {op:?}")
                    }
                    Err(other) => prop_assert!(false, "unexpected error {other} for {op:?}"),
                }
                for posting in &entry.postings {
                    let key = (posting.account, posting.asset.clone());
                    let stored = ledger::balance(&db, posting.account, &posting.asset).await.unwrap();
                    prop_assert_eq!(stored, model.get(&key).copied().unwrap_or_default(), "{:?} after {:?}", key, op);
                }
            }
            let report = audit(&db).await.unwrap();
            prop_assert!(report.is_clean(), "{:?}", report.problems);
            db.close().await.ok();
            Ok(())
        })?;
    }
}
