//! The shapes of earn products, previews and positions as the calls answer them (the spec's field
//! names where it has them: `dayRate`, `cycle`, `lockDays`, `particAmount`, …). Decimals are
//! strings; times epoch ms.

use std::collections::BTreeMap;

use poem_openapi::Object;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use wasm_core::earn::{RateBasis, Schedule};

use super::products::{self, EarlyRedemption, Kind, Status, Tab};
use super::redeem;
use super::terms::{self, amount_of_units, decimal};
use crate::entity::{earn_position, earn_product};
use crate::i18n::Lang;

/// An earn product.
#[derive(Debug, Clone, Object, Serialize, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ProductView {
    /// Product id.
    pub id: i64,
    /// Kind.
    pub kind: Kind,
    /// A wealth product's tab.
    pub tab: Option<Tab>,
    /// The name in the request's language (else English).
    pub name: String,
    /// Every name, by language code.
    pub names: BTreeMap<String, String>,
    /// The asset staked.
    pub coin: String,
    /// The asset rewards are paid in.
    pub reward_coin: String,
    /// The rate as the product states it (a fraction).
    pub rate: Decimal,
    /// `daily` or `apr`.
    pub rate_basis: String,
    /// The daily rate (an APR divided by 365, to 10 decimals).
    pub day_rate: Decimal,
    /// The rate version new subscriptions take.
    pub rate_version_id: i64,
    /// The cycle in days (a flexible product: the days its preview shows).
    pub cycle: i64,
    /// Same as `cycle` (the spec names both).
    pub lock_days: i64,
    /// No maturity; redeem at any time.
    pub flexible: bool,
    /// Early redemption of a locked product.
    pub early_redemption: EarlyRedemption,
    /// Member Zone: VIP users only.
    pub vip_only: bool,
    /// Smallest subscription.
    pub partic_amount: Decimal,
    /// Largest subscription.
    pub partic_limit_amount: Decimal,
    /// Most subscriptions per user (0: no limit).
    pub partic_limit_num: i64,
    /// Most one user may buy in all (absent: no limit).
    pub per_user_quota: Option<Decimal>,
    /// The quota.
    pub subscri_amount: Decimal,
    /// Sold so far.
    pub sold_amount: Decimal,
    /// What is left of the quota.
    pub last_amount: Decimal,
    /// Sold as a percentage of the quota, 2 decimals (`37.50`).
    pub project_progress: Decimal,
    /// The reward of one day on one unit of the asset, 8 decimals, rounded down.
    pub average_day_income: Decimal,
    /// Subscriptions open at.
    pub start_time: i64,
    /// Subscriptions close at.
    pub end_time: i64,
    /// Scheduled, open, paused or ended, now.
    pub status: Status,
}

impl ProductView {
    /// The view of `product` at `now` for a reader of `lang`.
    pub fn of(product: &earn_product::Model, now: i64, lang: Lang) -> Self {
        let rate = decimal(&product.rate);
        let basis = terms::rate_basis(&product.rate_basis);
        let day_rate = match basis {
            RateBasis::Daily => rate,
            RateBasis::Apr => (rate / Decimal::from(365)).round_dp(10),
        };
        let total = amount_of_units(product.total_units);
        let sold = amount_of_units(product.sold_units);
        let progress = if product.total_units > 0 {
            (Decimal::from(product.sold_units) * Decimal::from(100)
                / Decimal::from(product.total_units))
            .round_dp_with_strategy(2, rust_decimal::RoundingStrategy::ToZero)
        } else {
            Decimal::ZERO
        };
        let one = terms::of_product(product, Decimal::ONE, now);
        Self {
            id: product.id,
            kind: match product.kind.as_str() {
                "defi" => Kind::Defi,
                "wealth" => Kind::Wealth,
                _ => Kind::Pledge,
            },
            tab: product.tab.as_deref().map(|tab| match tab {
                "member" => Tab::Member,
                "standard" => Tab::Standard,
                _ => Tab::Yield,
            }),
            name: products::name(product, lang),
            names: products::names(product),
            coin: product.asset.clone(),
            reward_coin: product.reward_asset.clone(),
            rate,
            rate_basis: product.rate_basis.clone(),
            day_rate: day_rate.normalize(),
            rate_version_id: product.rate_version_id,
            cycle: product.lock_days,
            lock_days: product.lock_days,
            flexible: product.flexible,
            early_redemption: EarlyRedemption::parse(&product.early_redemption),
            vip_only: product.vip_only,
            partic_amount: decimal(&product.min_amount),
            partic_limit_amount: decimal(&product.max_amount),
            partic_limit_num: product.max_subscriptions,
            per_user_quota: (product.per_user_units > 0)
                .then(|| amount_of_units(product.per_user_units)),
            subscri_amount: total,
            sold_amount: sold,
            last_amount: (total - sold).max(Decimal::ZERO),
            project_progress: progress,
            average_day_income: terms::paid_through(&one, 1).unwrap_or_default(),
            start_time: product.start_at,
            end_time: product.end_at,
            status: products::status(product, now),
        }
    }
}

/// What a subscription would be: wasm-core's schedule of it.
#[derive(Debug, Clone, Object, Serialize, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionPreview {
    /// The product.
    pub product_id: i64,
    /// The amount.
    pub amount: Decimal,
    /// Accrual starts: 00:00 UTC the next day (D+1).
    pub value_date: i64,
    /// The first reward is paid: D+2.
    pub next_pay_date: i64,
    /// The first reward.
    pub next_pay_amount: Decimal,
    /// The last day accrued.
    pub end_date: i64,
    /// The principal comes back (absent for a flexible product).
    pub delivery_date: Option<i64>,
    /// One day's reward, 8 decimals, rounded down.
    pub estimated_daily: Decimal,
    /// Every reward to maturity (a flexible product: over its cycle).
    pub estimated_total: Decimal,
    /// Days accrued.
    pub days: i64,
}

impl SubscriptionPreview {
    /// The preview of `amount` in product `product_id` with `schedule`.
    pub fn of(product_id: i64, amount: Decimal, schedule: &Schedule) -> Self {
        Self {
            product_id,
            amount,
            value_date: schedule.value_date,
            next_pay_date: schedule.first_payout_date,
            next_pay_amount: schedule.days.first().map(|d| d.reward).unwrap_or_default(),
            end_date: schedule.last_accrual_date,
            delivery_date: schedule.delivery_date,
            estimated_daily: schedule.estimated_daily,
            estimated_total: schedule.total_reward,
            days: schedule.days.len() as i64,
        }
    }
}

/// A position (an earn order) and its figures now.
#[derive(Debug, Clone, Object, Serialize, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct PositionView {
    /// Position id.
    pub id: i64,
    /// The product.
    pub product_id: i64,
    /// The asset staked.
    pub coin: String,
    /// The asset rewards are paid in.
    pub reward_coin: String,
    /// The amount subscribed.
    pub amount: Decimal,
    /// The rate it was sold at (kept when the product's rate changes).
    pub rate: Decimal,
    /// `daily` or `apr`.
    pub rate_basis: String,
    /// Its rate version.
    pub rate_version_id: i64,
    /// Cycle in days.
    pub lock_days: i64,
    /// No maturity.
    pub flexible: bool,
    /// `in_progress`, `completed` or `redeemed`.
    pub status: String,
    /// Subscribed at.
    pub subscribed_at: i64,
    /// Accrual starts (D+1).
    pub value_date: i64,
    /// The principal comes back (absent when flexible).
    pub delivery_date: Option<i64>,
    /// Days accrued so far (a day counts from its 00:00 UTC).
    pub accrual_days: i64,
    /// Days paid.
    pub paid_days: i64,
    /// Rewards paid so far.
    pub reward_so_far: Decimal,
    /// The next payout's date (absent once closed).
    pub next_pay_date: Option<i64>,
    /// The next payout's amount.
    pub next_pay_amount: Option<Decimal>,
    /// Every reward to maturity.
    pub total_reward: Decimal,
    /// Whether it may be redeemed early now.
    pub can_redeem_early: bool,
    /// What redeeming now would return (absent when it cannot be redeemed).
    pub redeem_amount_now: Option<Decimal>,
    /// Closed at.
    pub closed_at: Option<i64>,
    /// What came back to the funding account.
    pub returned: Option<Decimal>,
    /// What an early redemption deducted.
    pub deduction: Option<Decimal>,
}

impl PositionView {
    /// The view of `position` at `now`.
    pub fn of(position: &earn_position::Model, now: i64) -> Self {
        let terms = terms::of_position(position);
        let schedule = terms::schedule(&terms, None).ok();
        let open = position.status == "in_progress";
        let day = |n: i64| {
            schedule
                .as_ref()
                .and_then(|s| s.days.get(n as usize).map(|d| d.reward))
        };
        let accrued = ((now - position.value_date).div_euclid(crate::clock::DAY_MS) + 1).clamp(
            0,
            if position.flexible {
                i64::MAX
            } else {
                position.lock_days
            },
        );
        let redemption = redeem::figures(position, now).ok();
        Self {
            id: position.id,
            product_id: position.product_id,
            coin: position.asset.clone(),
            reward_coin: position.reward_asset.clone(),
            amount: decimal(&position.principal),
            rate: decimal(&position.rate),
            rate_basis: position.rate_basis.clone(),
            rate_version_id: position.rate_version_id,
            lock_days: position.lock_days,
            flexible: position.flexible,
            status: position.status.clone(),
            subscribed_at: position.subscribed_at,
            value_date: position.value_date,
            delivery_date: position.delivery_date,
            accrual_days: accrued,
            paid_days: position.paid_days,
            reward_so_far: terms::paid_through(&terms, position.paid_days as u32)
                .unwrap_or_default(),
            next_pay_date: open.then_some(position.next_pay_date),
            next_pay_amount: if open { day(position.paid_days) } else { None },
            total_reward: if position.flexible {
                Decimal::ZERO
            } else {
                schedule
                    .as_ref()
                    .map(|s| s.total_reward)
                    .unwrap_or_default()
            },
            can_redeem_early: open && redeem::allowed(position) && redemption.is_some(),
            redeem_amount_now: redemption
                .filter(|_| redeem::allowed(position))
                .map(|r| r.returned),
            closed_at: position.closed_at,
            returned: position.returned.as_deref().map(decimal),
            deduction: position.deduction.as_deref().map(decimal),
        }
    }
}
