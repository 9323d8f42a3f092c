//! HTTP of deposits ([`super::deposits`] holds the rules); every call needs the session:
//! - `GET /api/{head}/coin/assets/getRechargeCurrency` and `GET /api/recharge/ga`: every channel;
//! - `GET /api/{head}/coin/assets/getDepositAddress/{coin}`: one coin's channels;
//! - `POST /api/recharge/submit`: a claim (with an optional `Idempotency-Key`);
//! - `POST /api/recharge/list` and `POST /api/{head}/coin/assets/getRechargeLog`: the user's claims.

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::{
    Object, OpenApi, Tags,
    param::{Header, Path},
};
use rust_decimal::Decimal;
use sea_orm::DatabaseConnection;
use serde::{Deserialize, Serialize};

use super::api::{replayed, stored};
use super::deposits::{
    ListFilter, NewDeposit, PaymentStatus, channel, channel_amount, coin_channels, list,
    screenshot, submit,
};
use super::ledger::RunOutcome;
use super::service::{self};
use crate::clock::now_ms;
use crate::config::Config;
use crate::config::{FundingChannelConfig, FundsConfig};
use crate::entity::deposit;
use crate::http::{DecimalText, JsonBody, MemberResponse, check_head};
use crate::i18n::Msg;
use crate::kyc::files;
use crate::kyc::files::LinkKey;
use crate::paging::Paging;
use crate::refusal::Refusal;
use crate::user::Satoken;

#[derive(Tags)]
enum ApiTags {
    /// Deposit channels and addresses, deposit claims and their history.
    Deposits,
}

/// The deposit calls.
pub struct DepositApi;

/// One network a coin is deposited and withdrawn on.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct FundingNetwork {
    /// Network name (`TRC20`, `ERC20`, `BTC`).
    pub network: String,
    /// The platform's deposit address on it.
    pub address: String,
    /// Smallest deposit.
    pub min_deposit: Decimal,
    /// Fixed withdrawal fee, in the coin.
    pub withdraw_fee: Decimal,
    /// Smallest withdrawal (fee included).
    pub min_withdraw: Decimal,
    /// Most decimals of an amount.
    pub precision: u32,
}

/// How one coin is deposited and withdrawn.
#[derive(Debug, Object)]
pub struct FundingChannel {
    /// Asset, lower case (`usdt`).
    pub coin: String,
    /// Its networks, in the configured order.
    pub networks: Vec<FundingNetwork>,
}

/// Every coin that can be deposited and withdrawn.
#[derive(Debug, Object)]
pub struct FundingChannels {
    /// One entry per coin, in the configured order.
    pub coins: Vec<FundingChannel>,
}

fn network_of(channel: &FundingChannelConfig) -> FundingNetwork {
    FundingNetwork {
        network: channel.network.clone(),
        address: channel.address.clone(),
        min_deposit: channel.min_deposit.normalize(),
        withdraw_fee: channel.withdraw_fee.normalize(),
        min_withdraw: channel.min_withdraw.normalize(),
        precision: channel.precision,
    }
}

/// Every channel of the configuration, grouped by coin.
pub fn funding_channels(funds: &FundsConfig) -> FundingChannels {
    let mut coins: Vec<FundingChannel> = Vec::new();
    for channel in &funds.channels {
        match coins.iter_mut().find(|c| c.coin == channel.coin) {
            Some(coin) => coin.networks.push(network_of(channel)),
            None => coins.push(FundingChannel {
                coin: channel.coin.clone(),
                networks: vec![network_of(channel)],
            }),
        }
    }
    FundingChannels { coins }
}

/// A deposit claim.
#[derive(Debug, Object, Deserialize, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SubmitRechargeRequest {
    /// Asset (`usdt`), any case.
    #[oai(validator(min_length = 1, max_length = 16))]
    pub coin: String,
    /// Network of the payment (`TRC20`), any case; one of the coin's channels.
    #[oai(validator(min_length = 1, max_length = 16))]
    pub network: String,
    /// Amount paid, a decimal string: above zero, at least the channel's minimum, at most its
    /// decimals.
    #[oai(validator(max_length = 40))]
    pub amount: DecimalText,
    /// The payment screenshot: the `fileId` that `POST /api/common/upload/OSS` answered (or its
    /// `url`, or the stored file name); one of the caller's own JPEG, PNG or WebP uploads.
    #[oai(validator(max_length = 300))]
    pub screenshot: String,
}

/// A deposit claim as its owner sees it.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct DepositRecord {
    /// Deposit id.
    pub id: i64,
    /// Asset, lower case.
    pub coin: String,
    /// Network.
    pub network: String,
    /// The platform's address it was paid to.
    pub address: String,
    /// Amount claimed (credited when it passes).
    pub amount: Decimal,
    /// The screenshot's `fileId`, as text.
    pub screenshot: String,
    /// A link to the screenshot, valid 5 minutes (`GET /api/file/getSignedUrl` gives new ones).
    pub screenshot_url: String,
    /// Where it stands.
    pub status: PaymentStatus,
    /// Why it failed.
    pub reason: Option<String>,
    /// Submitted, Unix milliseconds.
    pub created_at: i64,
    /// Reviewed, Unix milliseconds.
    pub reviewed_at: Option<i64>,
}

impl DepositRecord {
    /// The record of `row`, with a screenshot link signed by `key` at `now`.
    pub fn of(row: &deposit::Model, key: &[u8; 32], now: i64) -> Self {
        DepositRecord {
            id: row.id,
            coin: row.coin.clone(),
            network: row.network.clone(),
            address: row.address.clone(),
            amount: wasm_core::money::parse_decimal(&row.amount).unwrap_or_default(),
            screenshot: row.screenshot_file_id.to_string(),
            screenshot_url: files::sign_link(key, row.screenshot_file_id, now).url,
            status: PaymentStatus::from_stored(&row.status),
            reason: row.reason.clone(),
            created_at: row.created_at,
            reviewed_at: row.reviewed_at,
        }
    }
}

/// A page of deposits, newest first.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct DepositPage {
    /// Deposits matching the filter, over all pages.
    pub total: u64,
    /// This page (from 1).
    pub page: u64,
    /// Page size.
    pub page_size: u64,
    /// The deposits.
    pub records: Vec<DepositRecord>,
}

/// Which of the user's deposits to list.
#[derive(Debug, Default, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct DepositListRequest {
    /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
    #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
    pub page: Option<u64>,
    /// Page size, 1 to 100 (default 20).
    #[oai(validator(minimum(value = "1"), maximum(value = "100")))]
    pub page_size: Option<u64>,
    /// Only this asset, any case.
    #[oai(validator(max_length = 16))]
    pub coin: Option<String>,
    /// Only this status.
    pub status: Option<PaymentStatus>,
}

/// The deposit history of the member area: [`DepositListRequest`] plus the record type.
#[derive(Debug, Default, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct RechargeLogRequest {
    /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
    #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
    pub page: Option<u64>,
    /// Page size, 1 to 100 (default 20).
    #[oai(validator(minimum(value = "1"), maximum(value = "100")))]
    pub page_size: Option<u64>,
    /// Only this asset, any case.
    #[oai(validator(max_length = 16))]
    pub coin: Option<String>,
    /// Only this status.
    pub status: Option<PaymentStatus>,
    /// Record type: 1, deposits (the only type, and the default).
    #[oai(rename = "type", validator(minimum(value = "1"), maximum(value = "1")))]
    #[serde(rename = "type")]
    pub kind: Option<i32>,
}

async fn deposit_page(
    db: &DatabaseConnection,
    link_key: &LinkKey,
    user_id: i64,
    page: Option<u64>,
    page_size: Option<u64>,
    coin: Option<String>,
    status: Option<PaymentStatus>,
) -> Result<DepositPage, Refusal> {
    let Paging { page, page_size } = Paging::new(page, page_size);
    let filter = ListFilter {
        user_id: Some(user_id),
        coin,
        status,
    };
    let (total, rows) = list(db, &filter, page, page_size).await?;
    let now = now_ms();
    Ok(DepositPage {
        total,
        page,
        page_size,
        records: rows
            .iter()
            .map(|row| DepositRecord::of(row, link_key, now))
            .collect(),
    })
}

#[OpenApi(tag = "ApiTags::Deposits")]
impl DepositApi {
    /// Every coin that can be deposited and withdrawn, with its networks: deposit address, minimum
    /// deposit, withdrawal fee and minimum withdrawal.
    #[oai(
        path = "/api/:head/coin/assets/getRechargeCurrency",
        method = "get",
        operation_id = "getRechargeCurrency"
    )]
    async fn get_recharge_currency(
        &self,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
        _auth: Satoken,
    ) -> MemberResponse<FundingChannels> {
        let result = check_head(&head, config).map(|()| funding_channels(&config.funds));
        MemberResponse::of(result, Msg::Success)
    }

    /// The same channels under the deposit page's own path.
    #[oai(
        path = "/api/recharge/ga",
        method = "get",
        operation_id = "getRechargeChannels"
    )]
    async fn get_recharge_channels(
        &self,
        Data(config): Data<&Arc<Config>>,
        _auth: Satoken,
    ) -> MemberResponse<FundingChannels> {
        MemberResponse::of(Ok(funding_channels(&config.funds)), Msg::Success)
    }

    /// One coin's networks and deposit addresses; a coin without channels is 404.
    #[oai(
        path = "/api/:head/coin/assets/getDepositAddress/:coin",
        method = "get",
        operation_id = "getDepositAddress"
    )]
    async fn get_deposit_address(
        &self,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
        coin: Path<String>,
        _auth: Satoken,
    ) -> MemberResponse<FundingChannel> {
        let result = check_head(&head, config).and_then(|()| {
            let (coin, channels) = coin_channels(&config.funds, &coin, None)?;
            Ok(FundingChannel {
                coin,
                networks: channels.into_iter().map(network_of).collect(),
            })
        });
        MemberResponse::of(result, Msg::Success)
    }

    /// Claims a deposit paid to a channel's address, with a screenshot of the payment. It waits
    /// for an operator (`review`); nothing is credited until it passes.
    #[oai(
        path = "/api/recharge/submit",
        method = "post",
        operation_id = "submitRecharge"
    )]
    async fn submit_recharge(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(link_key): Data<&LinkKey>,
        auth: Satoken,
        /// Makes a retry safe: the same key and body answer like the first request and store
        /// nothing new.
        #[oai(name = "Idempotency-Key")]
        idempotency_key: Header<Option<String>>,
        body: JsonBody<SubmitRechargeRequest>,
    ) -> MemberResponse<DepositRecord> {
        let body = body.0;
        let user_id = auth.0.id();
        let result = async {
            let idempotency = service::idempotency(
                user_id,
                idempotency_key.0.as_deref(),
                "submitRecharge",
                &body,
            )?;
            let channel = channel(&config.funds, &body.coin, &body.network)?;
            let amount = channel_amount(channel, &body.amount, "amount", channel.min_deposit)?;
            let file = screenshot(db, user_id, &body.screenshot).await?;
            let claim = NewDeposit {
                user_id,
                coin: channel.coin.clone(),
                network: channel.network.clone(),
                address: channel.address.clone(),
                amount,
                screenshot_file_id: file.id,
            };
            let key = &link_key;
            match submit(db, &claim, idempotency.as_ref(), |row| {
                stored(&DepositRecord::of(row, key, now_ms()))
            })
            .await?
            {
                RunOutcome::Ran(row) => Ok(DepositRecord::of(&row, key, now_ms())),
                RunOutcome::Replayed(response) => {
                    let mut record: DepositRecord = replayed(&response)?;
                    // The link of the first answer may have expired; the rest is as it was.
                    let file_id = record.screenshot.parse().map_err(Refusal::internal)?;
                    record.screenshot_url = files::sign_link(key, file_id, now_ms()).url;
                    Ok(record)
                }
            }
        }
        .await;
        MemberResponse::of(result, Msg::DepositSubmitted)
    }

    /// The user's deposits, newest first.
    #[oai(
        path = "/api/recharge/list",
        method = "post",
        operation_id = "listRecharges"
    )]
    async fn list_recharges(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(link_key): Data<&LinkKey>,
        auth: Satoken,
        body: JsonBody<Option<DepositListRequest>>,
    ) -> MemberResponse<DepositPage> {
        let body = body.0.unwrap_or_default();
        let result = deposit_page(
            db,
            link_key,
            auth.0.id(),
            body.page,
            body.page_size,
            body.coin,
            body.status,
        )
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// The deposit history of the member area (the same records as `listRecharges`).
    #[oai(
        path = "/api/:head/coin/assets/getRechargeLog",
        method = "post",
        operation_id = "getRechargeLog"
    )]
    async fn get_recharge_log(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(link_key): Data<&LinkKey>,
        head: Path<String>,
        auth: Satoken,
        body: JsonBody<Option<RechargeLogRequest>>,
    ) -> MemberResponse<DepositPage> {
        let body = body.0.unwrap_or_default();
        let result = async {
            check_head(&head, config)?;
            deposit_page(
                db,
                link_key,
                auth.0.id(),
                body.page,
                body.page_size,
                body.coin,
                body.status,
            )
            .await
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }
}
