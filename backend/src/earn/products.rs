//! The operator's earn products and the rules of their state.
//!
//! A product has a kind (`pledge`, `defi`, `wealth` with a tab: `yield`, `member`, `standard`),
//! a staked asset and a reward asset (the same, except for DeFi mining), names per language, a rate
//! (daily or APR) kept as versions — a change adds a version and only new positions take it —,
//! a cycle (or flexible), an early-redemption rule (`forbidden`, `deduct`: principal less the
//! rewards paid, Binance's, or `keep`), limits (minimum and maximum per subscription, a quota,
//! a per-user amount and a per-user number of subscriptions) and a schedule. Its stored status is
//! the operator's (`scheduled`, `paused`, `ended`); what a user sees ([`Status`]) adds the clock:
//! `scheduled` before the start, `open` between start and end, `ended` after the end.
//! A product whose reward asset differs from its staked asset cannot deduct rewards from the
//! principal (they are another coin): its rule is `forbidden` or `keep`.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait,
    PaginatorTrait, QueryFilter, QueryOrder, TransactionTrait,
};
use serde::{Deserialize, Serialize};
use wasm_core::earn::{MAX_DAYS, RateBasis};

use super::terms::{self, units};
use crate::entity::{earn_product, earn_rate_version};
use crate::i18n::{Lang, Msg};
use crate::refusal::{Refusal, RefusalKind};

/// What a product is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, poem_openapi::Enum)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Pledge (staking) mining.
    Pledge,
    /// DeFi liquidity mining: stake one asset, rewards possibly in another.
    Defi,
    /// A wealth (regular finance) product, in one of the tabs.
    Wealth,
}

/// A wealth product's tab.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, poem_openapi::Enum)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Tab {
    /// Yield enhancement.
    Yield,
    /// Member Zone: VIP users only.
    Member,
    /// Standard products.
    Standard,
}

/// Early redemption of a locked product.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, poem_openapi::Enum)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum EarlyRedemption {
    /// Not allowed.
    Forbidden,
    /// Allowed; the principal comes back less every reward already paid.
    Deduct,
    /// Allowed; the rewards paid are kept.
    Keep,
}

/// A product's state as users see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, poem_openapi::Enum)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Not open yet.
    Scheduled,
    /// Open for subscriptions.
    Open,
    /// Paused by the operator.
    Paused,
    /// Closed for subscriptions (running positions go on).
    Ended,
}

impl Kind {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Pledge => "pledge",
            Kind::Defi => "defi",
            Kind::Wealth => "wealth",
        }
    }
}

impl Tab {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Tab::Yield => "yield",
            Tab::Member => "member",
            Tab::Standard => "standard",
        }
    }
}

impl EarlyRedemption {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            EarlyRedemption::Forbidden => "forbidden",
            EarlyRedemption::Deduct => "deduct",
            EarlyRedemption::Keep => "keep",
        }
    }

    /// The rule of a stored name.
    pub fn parse(text: &str) -> Self {
        match text {
            "deduct" => EarlyRedemption::Deduct,
            "keep" => EarlyRedemption::Keep,
            _ => EarlyRedemption::Forbidden,
        }
    }
}

/// What a user sees of `product` at `now`.
pub fn status(product: &earn_product::Model, now: i64) -> Status {
    match product.status.as_str() {
        "paused" => Status::Paused,
        "ended" => Status::Ended,
        _ if now >= product.end_at => Status::Ended,
        _ if now < product.start_at => Status::Scheduled,
        _ => Status::Open,
    }
}

/// The refusal of subscribing to `product` at `now` for a user of tier `user_type`, if any:
/// VIP only, not started, paused, ended.
pub fn check_open(product: &earn_product::Model, now: i64, user_type: &str) -> Result<(), Refusal> {
    if product.vip_only && user_type != "vip" {
        return Err(Refusal::forbidden(Msg::EarnVipOnly));
    }
    let refused = |msg| Refusal::new(RefusalKind::Invalid, msg);
    match status(product, now) {
        Status::Open => Ok(()),
        Status::Scheduled => Err(refused(Msg::EarnNotStarted)),
        Status::Paused => Err(refused(Msg::EarnPaused)),
        Status::Ended => Err(refused(Msg::EarnEnded)),
    }
}

/// The name of `product` in `lang`, else in English, else any.
pub fn name(product: &earn_product::Model, lang: Lang) -> String {
    let names = names(product);
    names
        .get(lang.code())
        .or_else(|| names.get("en"))
        .or_else(|| names.values().next())
        .cloned()
        .unwrap_or_default()
}

/// Every name of `product`, by language code.
pub fn names(product: &earn_product::Model) -> BTreeMap<String, String> {
    serde_json::from_str(&product.names).unwrap_or_default()
}

/// A product as the operator describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    /// Kind.
    pub kind: Kind,
    /// A wealth product's tab.
    pub tab: Option<Tab>,
    /// Staked asset.
    pub asset: String,
    /// Reward asset (the staked one when absent).
    pub reward_asset: Option<String>,
    /// Names by language code (English required).
    pub names: BTreeMap<String, String>,
    /// The rate, a fraction.
    pub rate: Decimal,
    /// Daily or annual.
    pub rate_basis: RateBasis,
    /// Cycle in days.
    pub lock_days: u32,
    /// Flexible (no maturity).
    pub flexible: bool,
    /// Early redemption of a locked product.
    pub early_redemption: EarlyRedemption,
    /// Smallest subscription.
    pub min_amount: Decimal,
    /// Largest subscription.
    pub max_amount: Decimal,
    /// The quota.
    pub total_quota: Decimal,
    /// Most one user may buy (none: no limit).
    pub per_user_quota: Option<Decimal>,
    /// Most subscriptions per user (none: no limit).
    pub max_subscriptions: Option<u32>,
    /// Subscriptions open at, epoch ms.
    pub start_at: i64,
    /// Subscriptions close at, epoch ms.
    pub end_at: i64,
}

fn invalid(field: &str) -> Refusal {
    Refusal::new(RefusalKind::Invalid, Msg::InvalidField).with_field(field)
}

fn asset(text: &str, field: &str) -> Result<String, Refusal> {
    let asset = text.trim().to_ascii_lowercase();
    let ok = !asset.is_empty()
        && asset.len() <= 16
        && asset
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    ok.then_some(asset).ok_or_else(|| invalid(field))
}

/// The checked row values of `spec`: every field within its bounds.
fn check(spec: &Spec) -> Result<earn_product::ActiveModel, Refusal> {
    let asset_name = asset(&spec.asset, "asset")?;
    let reward = match &spec.reward_asset {
        Some(reward) => asset(reward, "rewardAsset")?,
        None => asset_name.clone(),
    };
    if spec.kind != Kind::Defi && reward != asset_name {
        return Err(invalid("rewardAsset"));
    }
    if reward != asset_name && spec.early_redemption == EarlyRedemption::Deduct {
        return Err(invalid("earlyRedemption"));
    }
    if (spec.kind == Kind::Wealth) != spec.tab.is_some() {
        return Err(invalid("tab"));
    }
    let english = spec.names.get("en").map(|n| n.trim()).unwrap_or_default();
    if english.is_empty()
        || spec.names.iter().any(|(code, name)| {
            Lang::parse(code).is_none_or(|lang| lang.code() != code)
                || name.trim().is_empty()
                || name.chars().count() > 80
        })
    {
        return Err(invalid("names"));
    }
    if spec.rate.is_sign_negative() || spec.rate > Decimal::ONE || spec.rate.scale() > 10 {
        return Err(invalid("rate"));
    }
    if !(1..=MAX_DAYS).contains(&spec.lock_days) {
        return Err(invalid("lockDays"));
    }
    let positive = |amount: Decimal, field: &str| {
        units(amount)
            .filter(|units| *units > 0)
            .ok_or_else(|| invalid(field))
    };
    positive(spec.min_amount, "minAmount")?;
    positive(spec.max_amount, "maxAmount")?;
    if spec.max_amount < spec.min_amount {
        return Err(invalid("maxAmount"));
    }
    let total = positive(spec.total_quota, "totalQuota")?;
    let per_user = match spec.per_user_quota {
        Some(quota) => positive(quota, "perUserQuota")?,
        None => 0,
    };
    if spec.end_at <= spec.start_at || spec.start_at < 0 {
        return Err(invalid("endAt"));
    }
    let max_subscriptions = spec.max_subscriptions.unwrap_or(0);
    if max_subscriptions > 1_000_000 {
        return Err(invalid("maxSubscriptions"));
    }
    Ok(earn_product::ActiveModel {
        kind: Set(spec.kind.as_str().to_owned()),
        tab: Set(spec.tab.map(|t| t.as_str().to_owned())),
        asset: Set(asset_name),
        reward_asset: Set(reward),
        names: Set(serde_json::to_string(&spec.names).unwrap_or_default()),
        rate: Set(spec.rate.normalize().to_string()),
        rate_basis: Set(terms::rate_basis_name(spec.rate_basis).to_owned()),
        lock_days: Set(i64::from(spec.lock_days)),
        flexible: Set(spec.flexible),
        early_redemption: Set(spec.early_redemption.as_str().to_owned()),
        vip_only: Set(spec.tab == Some(Tab::Member)),
        min_amount: Set(spec.min_amount.normalize().to_string()),
        max_amount: Set(spec.max_amount.normalize().to_string()),
        total_units: Set(total),
        per_user_units: Set(per_user),
        max_subscriptions: Set(i64::from(max_subscriptions)),
        start_at: Set(spec.start_at),
        end_at: Set(spec.end_at),
        ..Default::default()
    })
}

/// Creates a product from `spec` with its first rate version, status `scheduled`.
pub async fn create(
    db: &DatabaseConnection,
    spec: &Spec,
    actor_id: i64,
    now: i64,
) -> Result<earn_product::Model, Refusal> {
    let mut row = check(spec)?;
    let txn = db.begin().await?;
    row.sold_units = Set(0);
    row.rate_version_id = Set(0);
    row.status = Set("scheduled".to_owned());
    row.created_at = Set(now);
    row.updated_at = Set(now);
    let product = row.insert(&txn).await?;
    let version = new_version(&txn, &product, actor_id, now).await?;
    let mut row: earn_product::ActiveModel = product.into();
    row.rate_version_id = Set(version);
    let product = row.update(&txn).await?;
    txn.commit().await?;
    Ok(product)
}

async fn new_version(
    txn: &impl sea_orm::ConnectionTrait,
    product: &earn_product::Model,
    actor_id: i64,
    now: i64,
) -> Result<i64, sea_orm::DbErr> {
    Ok(earn_rate_version::ActiveModel {
        product_id: Set(product.id),
        rate: Set(product.rate.clone()),
        rate_basis: Set(product.rate_basis.clone()),
        actor_id: Set(Some(actor_id)),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(txn)
    .await?
    .id)
}

/// The product `id`, or `earn_product_not_found`.
pub async fn find(
    db: &impl sea_orm::ConnectionTrait,
    id: i64,
) -> Result<earn_product::Model, Refusal> {
    earn_product::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| Refusal::not_found(Msg::EarnProductNotFound))
}

/// Replaces product `id`'s description with `spec`. A changed rate adds a rate version (running
/// positions keep theirs); the quota may not fall below what is sold — checked by the update
/// itself (`… WHERE sold_units <= total`), so a subscription racing the change either lands
/// first and the update is refused, or after and finds the new quota —; the sold amount, the
/// status and the assets (positions hold them) stay.
pub async fn update(
    db: &DatabaseConnection,
    id: i64,
    spec: &Spec,
    actor_id: i64,
    now: i64,
) -> Result<earn_product::Model, Refusal> {
    let mut row = check(spec)?;
    // Read before the transaction: on SQLite a transaction that reads first cannot take the
    // write lock once another connection has written meanwhile.
    let product = find(db, id).await?;
    if row.asset.as_ref() != &product.asset || row.reward_asset.as_ref() != &product.reward_asset {
        return Err(invalid("asset"));
    }
    if *row.total_units.as_ref() < product.sold_units {
        return Err(invalid("totalQuota"));
    }
    let rate_changed =
        row.rate.as_ref() != &product.rate || row.rate_basis.as_ref() != &product.rate_basis;
    row.id = Set(product.id);
    row.updated_at = Set(now);
    let total = *row.total_units.as_ref();
    let txn = db.begin().await?;
    let changed = earn_product::Entity::update_many()
        .set(row)
        .filter(earn_product::Column::Id.eq(product.id))
        .filter(earn_product::Column::SoldUnits.lte(total))
        .exec(&txn)
        .await?;
    if changed.rows_affected != 1 {
        // Sold past the new quota since it was read (or deleted, which nothing does).
        return Err(invalid("totalQuota"));
    }
    let mut updated = find(&txn, product.id).await?;
    if rate_changed {
        let version = new_version(&txn, &updated, actor_id, now).await?;
        let mut row: earn_product::ActiveModel = updated.into();
        row.rate_version_id = Set(version);
        updated = row.update(&txn).await?;
    }
    txn.commit().await?;
    Ok(updated)
}

/// What an operator does to a product's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// New subscription dates (an ended product stays ended).
    Schedule {
        /// Opens at, epoch ms.
        start_at: i64,
        /// Closes at, epoch ms.
        end_at: i64,
    },
    /// Stop subscriptions for now.
    Pause,
    /// Take subscriptions again.
    Resume,
    /// Close subscriptions for good (running positions go on).
    End,
}

/// Applies `action` to product `id`.
pub async fn act(
    db: &DatabaseConnection,
    id: i64,
    action: Action,
    now: i64,
) -> Result<earn_product::Model, Refusal> {
    let product = find(db, id).await?;
    let conflict = || Refusal::new(RefusalKind::Conflict, Msg::InvalidField).with_field("status");
    let mut row: earn_product::ActiveModel = product.clone().into();
    match (action, product.status.as_str()) {
        (_, "ended") => return Err(conflict()),
        (Action::Schedule { start_at, end_at }, _) => {
            if end_at <= start_at || start_at < 0 {
                return Err(invalid("endAt"));
            }
            row.start_at = Set(start_at);
            row.end_at = Set(end_at);
        }
        (Action::Pause, "scheduled") => row.status = Set("paused".to_owned()),
        (Action::Resume, "paused") => row.status = Set("scheduled".to_owned()),
        (Action::End, _) => row.status = Set("ended".to_owned()),
        _ => return Err(conflict()),
    }
    row.updated_at = Set(now);
    Ok(row.update(db).await?)
}

/// The order of a product list: a column and a direction (id, descending by default).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, poem_openapi::Enum,
)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub enum Column {
    /// Product id.
    #[default]
    Id,
    /// The cycle.
    LockDays,
    /// The start of subscriptions.
    StartAt,
}

/// Ascending or descending.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, poem_openapi::Enum,
)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Order {
    /// Smallest first.
    Asc,
    /// Largest first (the default).
    #[default]
    Desc,
}

/// Which products to list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only this kind.
    pub kind: Option<Kind>,
    /// Only this tab.
    pub tab: Option<Tab>,
    /// Hide ended products and those the operator paused (users' lists).
    pub offered_only: bool,
}

/// A page (from 1) of products and how many match.
pub async fn list(
    db: &DatabaseConnection,
    filter: &Filter,
    column: Column,
    order: Order,
    page: u64,
    page_size: u64,
) -> Result<(u64, Vec<earn_product::Model>), Refusal> {
    let mut query = earn_product::Entity::find();
    if let Some(kind) = filter.kind {
        query = query.filter(earn_product::Column::Kind.eq(kind.as_str()));
    }
    if let Some(tab) = filter.tab {
        query = query.filter(earn_product::Column::Tab.eq(tab.as_str()));
    }
    if filter.offered_only {
        query = query.filter(earn_product::Column::Status.eq("scheduled"));
    }
    let by = match column {
        Column::Id => earn_product::Column::Id,
        Column::LockDays => earn_product::Column::LockDays,
        Column::StartAt => earn_product::Column::StartAt,
    };
    query = match order {
        Order::Asc => query
            .order_by_asc(by)
            .order_by_asc(earn_product::Column::Id),
        Order::Desc => query
            .order_by_desc(by)
            .order_by_desc(earn_product::Column::Id),
    };
    let pages = query.paginate(db, page_size);
    let total = pages.num_items().await?;
    Ok((total, pages.fetch_page(page.saturating_sub(1)).await?))
}
