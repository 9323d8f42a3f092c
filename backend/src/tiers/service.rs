//! A user's tier figures and their recompute: passed deposits valued in USD (USDT counts 1:1; other
//! coins at their live USDT price, the price of the deposit's time not being stored), the 30-day
//! trading volume in USDT (spot fills on either side valued at the quote's live price, futures
//! orders' filled value) and the assets valued in USDT (every bucket). The recompute stores the
//! account tier in `user_tier`, the VIP flag in `user.user_type` and updates the engines' VIP set.

use std::collections::HashMap;

use rust_decimal::Decimal;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, Condition, DatabaseConnection, DbErr, EntityTrait, QueryFilter,
    QuerySelect, sea_query::OnConflict,
};

use super::FeeDiscounts;
use super::table::{NORMAL, VIP, is_vip, standing};
use crate::clock::DAY_MS;
use crate::config::TiersConfig;
use crate::entity::{coin, deposit, futures_order, spot_trade, user, user_tier};
use crate::funds::prices::Rates;

/// The window of the trading volume.
pub const VOLUME_WINDOW_MS: i64 = 30 * DAY_MS;

/// What a user's tiers are computed from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Figures {
    /// Passed deposits in USD.
    pub deposits_usd: Decimal,
    /// 30-day trading volume in USDT.
    pub volume_usdt: Decimal,
    /// Assets in USDT.
    pub assets_usdt: Decimal,
}

fn dec(text: &str) -> Decimal {
    wasm_core::money::parse_decimal(text).unwrap_or_default()
}

/// `user_id`'s figures at `now` under `rates`.
pub async fn figures(
    db: &DatabaseConnection,
    rates: &Rates,
    user_id: i64,
    now: i64,
) -> Result<Figures, DbErr> {
    let deposits_usd = deposit::Entity::find()
        .filter(deposit::Column::UserId.eq(user_id))
        .filter(deposit::Column::Status.eq("passed"))
        .all(db)
        .await?
        .iter()
        .map(|d| rates.usdt_value(&d.coin, dec(&d.amount)))
        .sum();
    let since = now - VOLUME_WINDOW_MS;
    let quotes: HashMap<String, String> = coin::Entity::find()
        .all(db)
        .await?
        .into_iter()
        .map(|c| (c.symbol, c.base_coin))
        .collect();
    let spot: Decimal = spot_trade::Entity::find()
        .filter(spot_trade::Column::CreatedAt.gte(since))
        .filter(
            Condition::any()
                .add(spot_trade::Column::TakerUserId.eq(user_id))
                .add(spot_trade::Column::MakerUserId.eq(user_id)),
        )
        .all(db)
        .await?
        .iter()
        .map(|t| {
            let sides = i64::from(t.taker_user_id == Some(user_id))
                + i64::from(t.maker_user_id == Some(user_id));
            let quote = quotes.get(&t.symbol).map_or("usdt", String::as_str);
            rates.usdt_value(quote, dec(&t.amount)) * Decimal::from(sides)
        })
        .sum();
    let futures: Decimal = futures_order::Entity::find()
        .select_only()
        .column(futures_order::Column::FilledValue)
        .filter(futures_order::Column::UserId.eq(user_id))
        .filter(futures_order::Column::UpdatedAt.gte(since))
        .into_tuple::<String>()
        .all(db)
        .await?
        .iter()
        .map(|v| dec(v))
        .sum();
    let assets_usdt = crate::funds::ledger::balances(db, user_id)
        .await?
        .iter()
        .map(|b| rates.usdt_value(&b.asset, b.amount))
        .sum();
    Ok(Figures {
        deposits_usd,
        volume_usdt: spot + futures,
        assets_usdt,
    })
}

/// What a recompute found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The figures.
    pub figures: Figures,
    /// The account tier.
    pub account_tier: &'static str,
    /// Whether the user is VIP now.
    pub vip: bool,
}

/// Recomputes `user_id`'s tiers at `now`: stores them and updates `discounts`.
pub async fn recompute(
    db: &DatabaseConnection,
    config: &TiersConfig,
    rates: &Rates,
    discounts: &FeeDiscounts,
    user_id: i64,
    now: i64,
) -> Result<Outcome, DbErr> {
    let figures = figures(db, rates, user_id, now).await?;
    let account_tier = standing(config, figures.deposits_usd).tier;
    let vip = is_vip(config, figures.volume_usdt, figures.assets_usdt);
    user_tier::Entity::insert(user_tier::ActiveModel {
        user_id: Set(user_id),
        account_tier: Set(account_tier.to_owned()),
        deposits_usd: Set(figures.deposits_usd.normalize().to_string()),
        volume_usdt: Set(figures.volume_usdt.normalize().to_string()),
        assets_usdt: Set(figures.assets_usdt.normalize().to_string()),
        computed_at: Set(now),
    })
    .on_conflict(
        OnConflict::column(user_tier::Column::UserId)
            .update_columns([
                user_tier::Column::AccountTier,
                user_tier::Column::DepositsUsd,
                user_tier::Column::VolumeUsdt,
                user_tier::Column::AssetsUsdt,
                user_tier::Column::ComputedAt,
            ])
            .to_owned(),
    )
    .exec_without_returning(db)
    .await?;
    user::Entity::update_many()
        .col_expr(
            user::Column::UserType,
            sea_orm::sea_query::Expr::value(if vip { VIP } else { NORMAL }),
        )
        .filter(user::Column::Id.eq(user_id))
        .exec(db)
        .await?;
    discounts.set(user_id, vip);
    Ok(Outcome {
        figures,
        account_tier,
        vip,
    })
}

/// Recomputes every user's tiers at `now` (the periodic job); how many users it went through.
pub async fn recompute_all(
    db: &DatabaseConnection,
    config: &TiersConfig,
    rates: &Rates,
    discounts: &FeeDiscounts,
    now: i64,
) -> Result<usize, DbErr> {
    let ids: Vec<i64> = user::Entity::find()
        .select_only()
        .column(user::Column::Id)
        .into_tuple()
        .all(db)
        .await?;
    for id in &ids {
        recompute(db, config, rates, discounts, *id, now).await?;
    }
    Ok(ids.len())
}

/// `user_id`'s stored tier row, if it was ever computed.
pub async fn stored(
    db: &DatabaseConnection,
    user_id: i64,
) -> Result<Option<user_tier::Model>, DbErr> {
    user_tier::Entity::find_by_id(user_id).one(db).await
}

/// Recomputes the owner of a deposit just credited, at `now` with the live prices. The credit has
/// committed already: a failure here is logged and left to the periodic job.
pub async fn after_deposit(
    db: &DatabaseConnection,
    hub: &crate::market::MarketHub,
    config: &TiersConfig,
    discounts: &FeeDiscounts,
    user_id: i64,
    now: i64,
) {
    let result = async {
        let rates = Rates::live(db, hub)
            .await
            .map_err(|e| DbErr::Custom(format!("{e:?}")))?;
        recompute(db, config, &rates, discounts, user_id, now).await
    }
    .await;
    if let Err(error) = result {
        tracing::warn!(%error, user_id, "tier recompute after a deposit; the job retries");
    }
}
