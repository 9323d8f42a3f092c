//! HTTP of the platform-wide calls: `POST /api/common/getAllSetting`, `POST /api/common/getCoinList`,
//! `GET /api/common/qun` (OpenAPI operations) and `GET /platform/dev/config.js` (a plain script
//! endpoint).

use std::sync::Arc;

use poem::{IntoResponse, handler, web::Data};
use poem_openapi::{ApiResponse, Enum, Object, OpenApi, Tags, payload::Json};
use rust_decimal::Decimal;
use sea_orm::DatabaseConnection;
use serde::Deserialize;

use crate::common::service::{self, CoinFilter, ListedPair, MarketKind};
use crate::config::Config;
use crate::http::{Envelope, ErrorEnvelope, JsonBody, ReadResponse, api_error_response};
use crate::market::MarketHub;
use crate::refusal::Refusal;

#[derive(Tags)]
enum ApiTags {
    /// Platform settings and the coin list.
    Common,
}

/// The platform-wide calls; each handler receives the dependencies it uses as `Data`.
pub struct CommonApi;

/// Public platform settings and the system configuration.
#[derive(Debug, Object)]
pub struct AllSetting {
    /// Platform settings.
    pub platform: PlatformSettings,
    /// System configuration: languages and time zones.
    pub system: SystemConfig,
}

/// Public platform settings.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct PlatformSettings {
    /// The platform's name.
    pub site_name: String,
    /// The `{head}` path segment of the member-area calls.
    pub api_head: String,
    /// The mobile site phones are sent to from the trade page; empty when there is none.
    pub mobile_site_url: String,
    /// Share of every trading fee paid into the asset security fund, in percent.
    pub security_fund_percent: Decimal,
    /// Support e-mail address.
    pub support_email: String,
    /// Default language code.
    pub default_language: String,
    /// Default theme (`light`).
    pub default_theme: String,
    /// Default time zone (IANA id).
    pub default_time_zone: String,
}

/// System configuration (spec section 3: `t_app_language` and `timeZone`).
#[derive(Debug, Object)]
pub struct SystemConfig {
    /// The 14 languages, in display order.
    pub t_app_language: Vec<LanguageOption>,
    /// The 38 UTC offsets from −12:00 to +14:00, each with a representative zone.
    #[oai(rename = "timeZone")]
    pub time_zone: Vec<TimeZoneOption>,
}

/// A language of the product.
#[derive(Debug, Object)]
pub struct LanguageOption {
    /// Code (`en`, `zh-CN`, …), as sent in the `lang` header.
    pub code: String,
    /// The language's name in itself.
    pub name: String,
}

/// A time zone of the 38-offset table.
#[derive(Debug, Object)]
pub struct TimeZoneOption {
    /// IANA zone id (`America/New_York`).
    #[oai(rename = "zoneId")]
    pub zone_id: String,
    /// UTC offset as `±HH:MM`.
    #[oai(rename = "offSetValue")]
    pub off_set_value: String,
    /// UTC offset in minutes.
    #[oai(rename = "offsetMinutes")]
    pub offset_minutes: i32,
}

/// Which coin list to return.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum CoinListMarket {
    /// Spot pairs only (`currencyList`).
    Spot,
    /// USDT-M perpetuals only (`contractList`).
    Contract,
}

/// Optional filter of the coin list; no body returns every listed pair.
#[derive(Debug, Clone, Default, Object, Deserialize)]
#[serde(deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct CoinListFilter {
    /// Only this list.
    pub market: Option<CoinListMarket>,
    /// Only pairs whose symbol or coin contains this text, in any case.
    #[oai(validator(max_length = 32))]
    pub keyword: Option<String>,
}

/// The listed pairs.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct CoinList {
    /// Spot pairs.
    pub currency_list: Vec<CoinListEntry>,
    /// USDT-M perpetuals.
    pub contract_list: Vec<CoinListEntry>,
}

/// One listed pair with its live price (spec section 3, coin list entry).
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct CoinListEntry {
    /// Coin id.
    pub id: i32,
    /// Base asset, lower case (`btc`).
    pub coin: String,
    /// Quote asset, lower case (`usdt`).
    pub base_coin: String,
    /// Pair id, lower case (`btcusdt`).
    pub symbol: String,
    /// Display name (`BTC/USDT`).
    pub show_symbol: String,
    /// 2: display `showSymbol`; 1: derive the name from `coin` and `baseCoin`.
    pub customize_flag: i32,
    /// Price source (`crypto`; `mt5` is reserved for MetaTrader-sourced instruments).
    pub market: String,
    /// Last price; absent until the market source has produced one.
    pub amount: Option<Decimal>,
    /// Price 24 hours ago; absent until the market source has produced one.
    pub open: Option<Decimal>,
    /// Logo URL.
    pub logo: String,
    /// Decimals of the price.
    pub price_precision: i32,
    /// Decimals of the quantity.
    pub quantity_precision: i32,
    /// Smallest price increment.
    pub tick_size: Decimal,
    /// Smallest quantity increment.
    pub step_size: Decimal,
    /// Smallest order value in the quote asset.
    pub min_notional: Decimal,
    /// Spot fee of a resting order that is taken, as a fraction (`0.001` is 0.1 %).
    pub maker_fee_rate: Decimal,
    /// Spot fee of an order that takes, as a fraction.
    pub taker_fee_rate: Decimal,
    /// Listed among the home page's hot coins.
    pub hot: bool,
    /// Display order.
    pub sort: i32,
}

/// The platform's community links (spec: `GET /api/common/qun`).
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct CommunityLinks {
    /// The configured links (`[[platform.community]]`), in order; none by default.
    pub links: Vec<CommunityLinkItem>,
    /// The support address, always there.
    pub support_email: String,
}

/// One community link.
#[derive(Debug, Object)]
pub struct CommunityLinkItem {
    /// Its name as shown.
    pub name: String,
    /// An `https://` or `mailto:` URL.
    pub url: String,
}

/// Outcomes of `getAllSetting`.
#[derive(ApiResponse)]
#[oai(bad_request_handler = "all_setting_bad_request")]
pub enum AllSettingResponse {
    /// The settings.
    #[oai(status = 200)]
    Ok(Json<Envelope<AllSetting>>),
    /// The request could not be read.
    #[oai(status = 400)]
    BadRequest(Json<ErrorEnvelope>),
}

fn all_setting_bad_request(error: poem::Error) -> AllSettingResponse {
    AllSettingResponse::BadRequest(Json(crate::http::envelope_of(
        &crate::http::refusal_from_poem(&error),
    )))
}

/// Outcomes of `getCoinList`.
#[derive(ApiResponse)]
#[oai(bad_request_handler = "coin_list_bad_request")]
pub enum CoinListResponse {
    /// The listed pairs with live prices.
    #[oai(status = 200)]
    Ok(Json<Envelope<CoinList>>),
    /// The filter could not be read: `msg` names the field.
    #[oai(status = 400)]
    BadRequest(Json<ErrorEnvelope>),
    /// The body is larger than 1 MiB.
    #[oai(status = 413)]
    PayloadTooLarge(Json<ErrorEnvelope>),
    /// The body is not declared as JSON.
    #[oai(status = 415)]
    UnsupportedMediaType(Json<ErrorEnvelope>),
    /// The list could not be read from the database.
    #[oai(status = 500)]
    InternalError(Json<ErrorEnvelope>),
}

api_error_response!(CoinListResponse, coin_list_bad_request {
    PAYLOAD_TOO_LARGE => PayloadTooLarge,
    UNSUPPORTED_MEDIA_TYPE => UnsupportedMediaType,
});

#[OpenApi(tag = "ApiTags::Common")]
impl CommonApi {
    /// Platform settings and system configuration (languages, time zones).
    #[oai(
        path = "/api/common/getAllSetting",
        method = "post",
        operation_id = "getAllSetting"
    )]
    async fn get_all_setting(&self, Data(config): Data<&Arc<Config>>) -> AllSettingResponse {
        AllSettingResponse::Ok(Json(Envelope::ok(all_setting(config))))
    }

    /// The community links of the platform (groups and channels elsewhere) from the
    /// configuration, and the support address.
    #[oai(
        path = "/api/common/qun",
        method = "get",
        operation_id = "getCommunityLinks"
    )]
    async fn qun(&self, Data(config): Data<&Arc<Config>>) -> ReadResponse<CommunityLinks> {
        let platform = &config.platform;
        ReadResponse::of(Ok(CommunityLinks {
            links: platform
                .community
                .iter()
                .map(|link| CommunityLinkItem {
                    name: link.name.trim().to_owned(),
                    url: link.url.clone(),
                })
                .collect(),
            support_email: platform.support_email.clone(),
        }))
    }

    /// The listed spot pairs (`currencyList`) and USDT-M perpetuals (`contractList`) with live prices.
    #[oai(
        path = "/api/common/getCoinList",
        method = "post",
        operation_id = "getCoinList"
    )]
    async fn get_coin_list(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(hub): Data<&Arc<MarketHub>>,
        Data(config): Data<&Arc<Config>>,
        filter: JsonBody<Option<CoinListFilter>>,
    ) -> CoinListResponse {
        let filter = filter.0.unwrap_or_default();
        let filter = CoinFilter {
            market: filter.market.map(|m| match m {
                CoinListMarket::Spot => MarketKind::Spot,
                CoinListMarket::Contract => MarketKind::Contract,
            }),
            keyword: filter.keyword,
        };
        match service::coin_lists(db, hub, &filter).await {
            Ok(lists) => CoinListResponse::Ok(Json(Envelope::ok(CoinList {
                currency_list: lists
                    .spot
                    .into_iter()
                    .map(|pair| entry(pair, &config.trading))
                    .collect(),
                contract_list: lists
                    .contract
                    .into_iter()
                    .map(|pair| entry(pair, &config.trading))
                    .collect(),
            }))),
            Err(error) => Refusal::from(error).into(),
        }
    }
}

fn all_setting(config: &Config) -> AllSetting {
    let platform = &config.platform;
    AllSetting {
        platform: PlatformSettings {
            site_name: platform.site_name.clone(),
            api_head: platform.api_head.clone(),
            mobile_site_url: platform.mobile_site_url.clone(),
            security_fund_percent: wasm_core::money::parse_decimal(&platform.security_fund_percent)
                .unwrap_or(Decimal::TEN),
            support_email: platform.support_email.clone(),
            default_language: crate::i18n::Lang::default().code().to_owned(),
            default_theme: "light".to_owned(),
            default_time_zone: wasm_core::format::DEFAULT_TIME_ZONE.to_owned(),
        },
        system: SystemConfig {
            t_app_language: service::languages()
                .into_iter()
                .map(|(lang, name)| LanguageOption {
                    code: lang.code().to_owned(),
                    name: name.to_owned(),
                })
                .collect(),
            time_zone: wasm_core::format::time_zones()
                .iter()
                .map(|zone| TimeZoneOption {
                    zone_id: zone.zone_id.to_string(),
                    off_set_value: zone.offset_value.to_string(),
                    offset_minutes: zone.offset_minutes,
                })
                .collect(),
        },
    }
}

fn entry(pair: ListedPair, trading: &crate::config::TradingConfig) -> CoinListEntry {
    let coin = pair.coin;
    let decimal = |value: &str| wasm_core::money::parse_decimal(value).unwrap_or_default();
    CoinListEntry {
        id: coin.id,
        amount: pair.ticker.as_ref().map(|t| t.close),
        open: pair.ticker.as_ref().map(|t| t.open),
        tick_size: decimal(&coin.tick_size),
        step_size: decimal(&coin.step_size),
        min_notional: decimal(&coin.min_notional),
        maker_fee_rate: trading.maker_fee_rate,
        taker_fee_rate: trading.taker_fee_rate,
        coin: coin.coin,
        base_coin: coin.base_coin,
        symbol: coin.symbol,
        show_symbol: coin.show_symbol,
        customize_flag: coin.customize_flag,
        market: coin.market,
        logo: coin.logo,
        price_precision: coin.price_precision,
        quantity_precision: coin.quantity_precision,
        hot: coin.hot,
        sort: coin.sort,
    }
}

/// `GET /platform/dev/config.js`: the platform config script the webapp evaluates before it mounts.
#[handler]
pub fn platform_config_script(Data(config): Data<&Arc<Config>>) -> impl IntoResponse {
    service::config_script(&config.platform)
        .with_content_type("application/javascript; charset=utf-8")
        .with_header("Cache-Control", "no-cache")
}
