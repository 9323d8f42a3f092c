//! Funding rounds. Funding runs at every multiple of the interval: the average premium since the
//! last one plus the interest, capped, paid by longs to the counterparty and by the counterparty to
//! shorts when positive (the other way when negative), one entry and one `futures_funding` row per
//! position, and one `futures_funding_round` row for the time. A funding time is settled once and
//! none is skipped: without a mark it waits for one; a time that passed while the server was down
//! is settled at start (see [`Engine::load`]), a position that already has its row for a time (a
//! crash in the middle of a round) is not paid again.
//!
//! In cluster mode the engines run on their owner alone (`crate::futures::ownership`), so rounds are
//! paid there and nowhere else, every payment and the round's row in a transaction fenced like
//! every other change of the engines: a stale owner pays nothing and marks nothing settled. A new
//! owner's engines rebuild from the database and settle, as at a restart, the times the old owner
//! left unsettled, skipping the positions it already paid.

use std::collections::{HashMap, HashSet};

use rust_decimal::Decimal;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, EntityTrait, NotSet, QueryFilter,
    sea_query::OnConflict,
};
use wasm_core::margin::MarginMode;

use super::Engine;
use super::command::Answer;
use super::state::Effect;
use super::store::{begin, text, transact, write_position};
use crate::clock::now_ms;
use crate::entity::{futures_funding, futures_funding_round};
use crate::funds::ledger::{self, Idempotency, LedgerError};
use crate::futures::funding::{PremiumSampler, funding_payment, funding_rate, next_funding_time};
use crate::futures::position::Position;
use crate::futures::settle::{self, USDT};
use crate::futures::views::{FundingInfo, side_str};

impl Engine {
    /// The rate a funding would have now: the premium sampled since the last one (or the standing
    /// mark's) plus the interest, capped.
    fn funding_rate_now(&self) -> Decimal {
        let config = &self.shared.config;
        let standing = self.standing_mark().map(|mark| (mark.mark, mark.index));
        funding_rate(
            self.premiums.average_or_standing(standing),
            config.funding_interest,
            config.funding_cap,
        )
    }

    /// Publishes the symbol's funding info (rate now, last rate, next time, mark and index).
    pub(super) fn publish_funding(&self) {
        let now = now_ms();
        // While missed times are being caught up, the next regular time is the one to show.
        let interval = self.shared.config.funding_interval_secs as i64 * 1000;
        let next_funding = if self.next_funding < self.started_at {
            next_funding_time(now, interval)
        } else {
            self.next_funding
        };
        let mark = self.standing_mark();
        self.shared.set_funding(FundingInfo {
            symbol: self.rules.symbol.clone(),
            funding_rate: self.funding_rate_now(),
            last_funding_rate: self.last_rate,
            next_funding_time: next_funding,
            countdown: ((next_funding - now).max(0) + 999) / 1000,
            interval_secs: self.shared.config.funding_interval_secs as i64,
            mark_price: mark.map_or(Decimal::ZERO, |m| m.mark),
            index_price: mark.map_or(Decimal::ZERO, |m| m.index),
        });
    }

    /// Settles the funding time `next_funding` on every open position at the current mark, then
    /// moves to the next multiple of the interval (which is still in the past while missed times
    /// are caught up). Without a mark it tries again a second later: a time is never skipped.
    ///
    /// A time before the engine's start was missed while the server was down: no premium was
    /// sampled for it, so its rate is the interest alone (capped), and only the positions open
    /// at the start and opened before it pay or receive it. A position that already has its
    /// `futures_funding` row for the time is not paid again.
    pub(super) async fn fund(&mut self) {
        let funding_time = self.next_funding;
        let interval = self.shared.config.funding_interval_secs as i64 * 1000;
        let Some(mark) = self.standing_mark() else {
            self.funding_retry_at = Some(now_ms() + 1000);
            self.publish_funding();
            return;
        };
        self.funding_retry_at = None;
        let caught_up = funding_time < self.started_at;
        let rate = if caught_up {
            let config = &self.shared.config;
            funding_rate(Decimal::ZERO, config.funding_interest, config.funding_cap)
        } else {
            self.funding_rate_now()
        };
        let symbol = self.rules.symbol.clone();
        let already_paid: HashSet<i64> = match futures_funding::Entity::find()
            .filter(futures_funding::Column::Symbol.eq(&symbol))
            .filter(futures_funding::Column::FundingTime.eq(funding_time))
            .all(&self.shared.db)
            .await
        {
            Ok(rows) => rows.into_iter().map(|row| row.position_id).collect(),
            Err(error) => {
                tracing::error!(%symbol, ?error, "funding: the paid positions could not be read");
                self.funding_retry_at = Some(now_ms() + 1000);
                return;
            }
        };
        self.next_funding = next_funding_time(funding_time, interval);
        let users: Vec<i64> = self.positions.keys().copied().collect();
        let mut paid_positions = 0;
        for user_id in users {
            let Some(position) = self.positions.get(&user_id).cloned() else {
                continue;
            };
            if already_paid.contains(&position.id) {
                continue;
            }
            if caught_up
                && self
                    .held_at_start
                    .get(&user_id)
                    .is_none_or(|&(id, opened)| id != position.id || opened > funding_time)
            {
                continue;
            }
            let payment = funding_payment(position.side, position.size, mark.mark, rate);
            if payment.is_zero() {
                continue;
            }
            let isolated = position.mode == MarginMode::Isolated;
            let shared = self.shared.clone();
            let none: Option<&Idempotency> = None;
            let outcome = transact!(
                shared,
                none,
                |_: &(Position, Decimal)| String::new(),
                |txn| {
                    let wallet = ledger::balance(&txn, settle::trading(user_id), USDT).await?;
                    let balance = if isolated { position.margin } else { wallet };
                    let (legs, paid) = settle::funding_legs(user_id, isolated, payment, balance);
                    let mut next = position.clone();
                    let mut wallet_after = wallet;
                    let mut entry_id = 0;
                    if !legs.is_empty() {
                        let posted = ledger::post_within(
                            &txn,
                            &legs.entry(
                                "futures_funding",
                                format!("futures_position:{}", position.id),
                                user_id,
                                crate::funds::bill_detail::funding_memo(&symbol, rate),
                            ),
                        )
                        .await?;
                        entry_id = posted.entry_id;
                        wallet_after = posted
                            .balances
                            .get(&(settle::trading(user_id), USDT.into()))
                            .copied()
                            .unwrap_or(wallet);
                    }
                    next.funding += paid;
                    if isolated {
                        next.margin -= paid;
                        next.liquidation_price = self.liquidation_of(&next, wallet_after);
                    }
                    futures_funding::ActiveModel {
                        id: NotSet,
                        user_id: Set(user_id),
                        symbol: Set(symbol.clone()),
                        position_id: Set(position.id),
                        side: Set(side_str(position.side).into()),
                        size: Set(text(position.size)),
                        mark_price: Set(text(mark.mark)),
                        rate: Set(text(rate)),
                        payment: Set(text(paid)),
                        entry_id: Set(entry_id),
                        funding_time: Set(funding_time),
                    }
                    .insert(&txn)
                    .await?;
                    write_position(
                        &txn,
                        &symbol,
                        &next,
                        "open",
                        Decimal::ZERO,
                        Decimal::ZERO,
                        now_ms(),
                    )
                    .await?;
                    Ok::<_, LedgerError>((next, wallet_after))
                }
            );
            match outcome {
                Ok(Answer::Done((next, wallet))) => {
                    paid_positions += 1;
                    self.apply(
                        Effect {
                            positions: vec![(user_id, Some(next))],
                            ..Effect::default()
                        },
                        &HashMap::from([(user_id, wallet)]),
                    )
                }
                Ok(Answer::Replayed(_)) => {}
                Err(error) => {
                    tracing::error!(%symbol, user_id, ?error, "funding payment failed");
                }
            }
        }
        let round = futures_funding_round::ActiveModel {
            id: NotSet,
            symbol: Set(symbol.clone()),
            funding_time: Set(funding_time),
            rate: Set(text(rate)),
            mark_price: Set(text(mark.mark)),
            positions: Set(paid_positions),
            caught_up: Set(caught_up),
            settled_at: Set(now_ms()),
        };
        // Fenced as the payments are: a stale owner never marks a round settled.
        let recorded = async {
            let txn = begin(&self.shared).await?;
            futures_funding_round::Entity::insert(round)
                .on_conflict(
                    OnConflict::columns([
                        futures_funding_round::Column::Symbol,
                        futures_funding_round::Column::FundingTime,
                    ])
                    .do_nothing()
                    .to_owned(),
                )
                .exec_without_returning(&txn)
                .await?;
            txn.commit().await?;
            Ok::<_, LedgerError>(())
        }
        .await;
        if let Err(error) = recorded {
            // The payments stand; without the round a restart looks for the time again and
            // finds every position's row.
            tracing::error!(%symbol, ?error, "the funding round could not be recorded");
        }
        tracing::info!(%symbol, %rate, funding_time, caught_up, "funding settled");
        self.last_rate = Some(rate);
        if !caught_up {
            self.premiums = PremiumSampler::default();
        }
        self.publish_funding();
        // Funding moved wallets and isolated margins: liquidation prices may have reached the mark.
        self.on_mark(mark).await;
    }
}
