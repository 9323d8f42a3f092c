//! HTTP of the tiers: `GET /api/tiers/table` (the published thresholds, public) and
//! `GET /api/tiers/mine` (the user's VIP status, account tier and progress to the next tier, as
//! last computed). The rules are in [`super::table`], the recompute in [`super::service`].

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::{Object, OpenApi, Tags};
use rust_decimal::Decimal;
use sea_orm::DatabaseConnection;

use super::service::stored;
use super::table::{ACCOUNT_TIERS, VIP, minimums, standing};
use crate::config::{Config, TiersConfig};
use crate::http::{MemberResponse, PublicResponse};
use crate::i18n::Msg;
use crate::refusal::Refusal;
use crate::user::Satoken;

#[derive(Tags)]
enum ApiTags {
    /// User tiers: VIP and the account tiers.
    Tiers,
}

/// The tier calls.
pub struct TiersApi;

/// One account tier of the published table.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct AccountTierRow {
    /// `basic`, `starter`, `advanced` or `premium`.
    pub tier: String,
    /// The minimum passed deposits in USD.
    pub minimum_deposit_usd: Decimal,
}

/// The published thresholds (configuration `[tiers]`).
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct TierTable {
    /// VIP from this 30-day trading volume in USDT (spot and futures) ...
    pub vip_volume_usdt: Decimal,
    /// ... or from these assets valued in USDT.
    pub vip_assets_usdt: Decimal,
    /// The fraction a VIP's spot and futures fees are reduced by (`0.2` is 20 %).
    pub vip_fee_discount: Decimal,
    /// The account tiers, lowest first.
    pub account_tiers: Vec<AccountTierRow>,
    /// Minutes between the periodic recomputes (a deposit's credit recomputes at once).
    pub recompute_minutes: u64,
}

/// The user's tiers.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
pub struct MyTiers {
    /// `vip` or `normal`.
    pub user_type: String,
    /// The account tier.
    pub account_tier: String,
    /// Passed deposits in USD at the last computation.
    pub deposits_usd: Decimal,
    /// 30-day trading volume in USDT at the last computation.
    pub volume_usdt: Decimal,
    /// Assets in USDT at the last computation.
    pub assets_usdt: Decimal,
    /// The next account tier (absent at the top).
    pub next_tier: Option<String>,
    /// Its minimum deposits in USD.
    pub next_minimum_usd: Option<Decimal>,
    /// Progress from this tier's minimum to the next one's, 0 to 100.
    pub progress_percent: Decimal,
    /// The fee discount the user gets now (0 unless VIP).
    pub fee_discount: Decimal,
    /// The last computation, Unix milliseconds (absent: never computed, all figures 0).
    pub computed_at: Option<i64>,
    /// The published table.
    pub table: TierTable,
}

fn table(config: &TiersConfig) -> TierTable {
    TierTable {
        vip_volume_usdt: config.vip_volume_usdt,
        vip_assets_usdt: config.vip_assets_usdt,
        vip_fee_discount: config.vip_fee_discount,
        account_tiers: ACCOUNT_TIERS
            .iter()
            .zip(minimums(config))
            .map(|(tier, minimum)| AccountTierRow {
                tier: (*tier).to_owned(),
                minimum_deposit_usd: minimum,
            })
            .collect(),
        recompute_minutes: config.recompute_minutes,
    }
}

fn dec(text: &str) -> Decimal {
    wasm_core::money::parse_decimal(text).unwrap_or_default()
}

#[OpenApi(tag = "ApiTags::Tiers")]
impl TiersApi {
    /// The published tier table: the VIP thresholds and discount, the account tiers' minimum
    /// deposits in USD.
    #[oai(path = "/api/tiers/table", method = "get", operation_id = "tierTable")]
    async fn tier_table(&self, Data(config): Data<&Arc<Config>>) -> PublicResponse<TierTable> {
        PublicResponse::of(Ok(table(&config.tiers)), Msg::Success)
    }

    /// The user's tiers as last computed (by the periodic job or a deposit's credit) and the
    /// progress to the next account tier.
    #[oai(path = "/api/tiers/mine", method = "get", operation_id = "myTiers")]
    async fn my_tiers(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        auth: Satoken,
    ) -> MemberResponse<MyTiers> {
        let result = async {
            let user = &auth.0.user;
            let row = stored(db, user.id).await?;
            let deposits = row.as_ref().map_or(Decimal::ZERO, |r| dec(&r.deposits_usd));
            let at = standing(&config.tiers, deposits);
            let vip = user.user_type == VIP;
            Ok::<_, Refusal>(MyTiers {
                user_type: user.user_type.clone(),
                account_tier: row
                    .as_ref()
                    .map_or(at.tier.to_owned(), |r| r.account_tier.clone()),
                deposits_usd: deposits,
                volume_usdt: row.as_ref().map_or(Decimal::ZERO, |r| dec(&r.volume_usdt)),
                assets_usdt: row.as_ref().map_or(Decimal::ZERO, |r| dec(&r.assets_usdt)),
                next_tier: at.next.map(str::to_owned),
                next_minimum_usd: at.next_minimum,
                progress_percent: at.progress_percent,
                fee_discount: if vip {
                    config.tiers.vip_fee_discount
                } else {
                    Decimal::ZERO
                },
                computed_at: row.map(|r| r.computed_at),
                table: table(&config.tiers),
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }
}
