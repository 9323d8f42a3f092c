//! HTTP of the first funds calls: `POST /api/userCoin/getUserCoin` (balances),
//! `POST /api/asset/transferFunds` (between the user's own buckets), `POST /api/transfer/submit`
//! (to another user) and `GET /api/transfer/list`. Money-moving calls take an optional
//! `Idempotency-Key` header: a retry with the same key and body gets the first answer and moves
//! nothing; the same key with another body is refused.

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::{
    Enum, Object, OpenApi, Tags,
    param::{Header, Query},
    types::{ParseFromJSON, ToJSON},
};
use rust_decimal::Decimal;
use sea_orm::DatabaseConnection;
use serde::{Deserialize, Serialize};

use super::ledger::{AccountRef, Bucket, Outcome, Posted};
use super::service::{self, BucketClaims, BucketMove, UserTransfer};
use crate::http::{DecimalText, JsonBody, MemberResponse};
use crate::i18n::Msg;
use crate::paging::Paging;
use crate::refusal::Refusal;
use crate::user::Satoken;
use crate::user::rate_limit::RateLimiter;

#[derive(Tags)]
enum ApiTags {
    /// Balances, transfers between buckets and to other users.
    Funds,
}

/// The funds calls.
pub struct FundsApi;

/// A user's balance of one coin (spec section 3: funding, trading and earn buckets).
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct UserCoin {
    /// Asset, lower case (`usdt`).
    pub coin: String,
    /// Funding (spot wallet) balance, available.
    pub funding: Decimal,
    /// Trading (futures) balance.
    pub trading: Decimal,
    /// Earn balance.
    pub earn: Decimal,
    /// Held: pending withdrawals and open spot orders, and the margins of open futures positions
    /// and the holds of resting futures orders.
    pub frozen: Decimal,
    /// All of the above.
    pub total: Decimal,
}

/// Every asset of the platform with the user's balances (zeros included).
#[derive(Debug, Object)]
pub struct UserCoins {
    /// One row per asset, by name.
    pub coins: Vec<UserCoin>,
}

/// A bucket a user moves funds between.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Deserialize, Serialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum MovableBucket {
    /// Funding (spot wallet).
    Funding,
    /// Trading (futures margin).
    Trading,
    /// Earn.
    Earn,
}

impl MovableBucket {
    fn bucket(self) -> Bucket {
        match self {
            MovableBucket::Funding => Bucket::Funding,
            MovableBucket::Trading => Bucket::Trading,
            MovableBucket::Earn => Bucket::Earn,
        }
    }
}

/// A move between two of the user's own buckets.
#[derive(Debug, Object, Deserialize, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TransferFundsRequest {
    /// Asset (`usdt`), any case.
    #[oai(validator(min_length = 1, max_length = 16))]
    pub coin: String,
    /// Amount as a decimal string (at most 8 decimals, above zero).
    #[oai(validator(max_length = 40))]
    pub amount: DecimalText,
    /// From this bucket.
    pub from: MovableBucket,
    /// To this bucket.
    pub to: MovableBucket,
}

/// A done move between buckets.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct BucketTransferResult {
    /// The journal entry.
    pub entry_id: i64,
    /// Asset.
    pub coin: String,
    /// Amount moved.
    pub amount: Decimal,
    /// The source bucket's balance afterwards.
    pub from_balance: Decimal,
    /// The target bucket's balance afterwards.
    pub to_balance: Decimal,
}

/// A transfer to another user.
#[derive(Debug, Object, Deserialize, Serialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UserTransferRequest {
    /// Asset (`usdt`), any case.
    #[oai(validator(min_length = 1, max_length = 16))]
    pub coin: String,
    /// Amount as a decimal string (at most 8 decimals, above zero).
    #[oai(validator(max_length = 40))]
    pub amount: DecimalText,
    /// The recipient: e-mail address, phone number or user id.
    #[oai(validator(min_length = 1, max_length = 254))]
    pub to_account: String,
    /// The sender's fund password (not part of the idempotency fingerprint).
    #[oai(validator(max_length = 128))]
    #[serde(skip_serializing)]
    pub fund_password: String,
}

/// A done transfer to another user.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct UserTransferResult {
    /// The journal entry.
    pub entry_id: i64,
    /// Asset.
    pub coin: String,
    /// Amount sent.
    pub amount: Decimal,
    /// The recipient's user id.
    pub to_user_id: i64,
    /// The sender's funding balance afterwards.
    pub balance: Decimal,
}

/// One transfer between users, as one of them sees it.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct TransferRecord {
    /// Transfer id.
    pub id: i64,
    /// `out` (sent) or `in` (received).
    pub direction: String,
    /// The other user's id.
    pub counterpart_id: i64,
    /// Asset.
    pub coin: String,
    /// Amount.
    pub amount: Decimal,
    /// Unix milliseconds.
    pub created_at: i64,
}

/// A page of transfers, newest first.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct TransferPage {
    /// All transfers of the user.
    pub total: u64,
    /// This page (from 1).
    pub page: u64,
    /// Page size.
    pub page_size: u64,
    /// The transfers.
    pub records: Vec<TransferRecord>,
}

/// The stored answer of a first request.
pub(crate) fn stored<T: ToJSON>(data: &T) -> String {
    data.to_json().map(|v| v.to_string()).unwrap_or_default()
}

/// The first answer again, from its stored JSON.
pub(crate) fn replayed<T: ParseFromJSON>(response: &str) -> Result<T, Refusal> {
    let value = serde_json::from_str(response).map_err(Refusal::internal)?;
    T::parse_from_json(Some(value)).map_err(|e| Refusal::internal(e.into_message()))
}

fn decimal_of(posted: &Posted, account: AccountRef, coin: &str) -> Decimal {
    posted
        .balances
        .get(&(account, coin.to_owned()))
        .copied()
        .unwrap_or_default()
}

#[OpenApi(tag = "ApiTags::Funds")]
impl FundsApi {
    /// The user's balances: every asset of the platform, per bucket.
    #[oai(
        path = "/api/userCoin/getUserCoin",
        method = "post",
        operation_id = "getUserCoin"
    )]
    async fn get_user_coin(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
    ) -> MemberResponse<UserCoins> {
        let result = service::user_coins(db, auth.0.id())
            .await
            .map(|coins| UserCoins {
                coins: coins
                    .into_iter()
                    .map(|c| {
                        let (funding, trading, earn, frozen) = (
                            c.get(Bucket::Funding),
                            c.get(Bucket::Trading),
                            c.get(Bucket::Earn),
                            c.get(Bucket::Frozen) + c.get(Bucket::FuturesMargin),
                        );
                        UserCoin {
                            total: funding + trading + earn + frozen,
                            coin: c.coin,
                            funding,
                            trading,
                            earn,
                            frozen,
                        }
                    })
                    .collect(),
            });
        MemberResponse::of(result, Msg::Success)
    }

    /// Moves funds between the user's own funding, trading and earn buckets.
    #[oai(
        path = "/api/asset/transferFunds",
        method = "post",
        operation_id = "transferFunds"
    )]
    async fn transfer_funds(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(claims): Data<&Arc<dyn BucketClaims>>,
        auth: Satoken,
        /// Makes a retry safe: the same key and body answer like the first request and move nothing.
        #[oai(name = "Idempotency-Key")]
        idempotency_key: Header<Option<String>>,
        body: JsonBody<TransferFundsRequest>,
    ) -> MemberResponse<BucketTransferResult> {
        let body = body.0;
        let user_id = auth.0.id();
        let result = async {
            let idempotency = service::idempotency(
                user_id,
                idempotency_key.0.as_deref(),
                "transferFunds",
                &body,
            )?;
            let coin = service::asset(db, &body.coin, "coin").await?;
            let amount = service::amount(&body.amount, "amount")?;
            let request = BucketMove {
                user_id,
                coin: coin.clone(),
                amount,
                from: body.from.bucket(),
                to: body.to.bucket(),
            };
            let account = |bucket| AccountRef::User { user_id, bucket };
            let result = |posted: &Posted| BucketTransferResult {
                entry_id: posted.entry_id,
                coin: coin.clone(),
                amount,
                from_balance: decimal_of(posted, account(request.from), &coin),
                to_balance: decimal_of(posted, account(request.to), &coin),
            };
            match service::move_between_buckets(
                db,
                claims.as_ref(),
                &request,
                idempotency.as_ref(),
                |p| stored(&result(p)),
            )
            .await?
            {
                Outcome::Posted(posted) => Ok(result(&posted)),
                Outcome::Replayed { response, .. } => replayed(&response),
            }
        }
        .await;
        MemberResponse::of(result, Msg::Transferred)
    }

    /// Sends funds from the user's funding account to another user's (fund password required).
    #[oai(
        path = "/api/transfer/submit",
        method = "post",
        operation_id = "submitTransfer"
    )]
    async fn submit_transfer(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(limiter): Data<&Arc<RateLimiter>>,
        auth: Satoken,
        /// Makes a retry safe: the same key and body answer like the first request and move nothing.
        #[oai(name = "Idempotency-Key")]
        idempotency_key: Header<Option<String>>,
        body: JsonBody<UserTransferRequest>,
    ) -> MemberResponse<UserTransferResult> {
        let body = body.0;
        let sender = auth.0.user.clone();
        let result = async {
            let idempotency = service::idempotency(
                sender.id,
                idempotency_key.0.as_deref(),
                "submitTransfer",
                &body,
            )?;
            let coin = service::asset(db, &body.coin, "coin").await?;
            let amount = service::amount(&body.amount, "amount")?;
            let to = service::recipient(db, &sender, &body.to_account).await?;
            service::check_fund_password(limiter, &sender, &body.fund_password).await?;
            let transfer = UserTransfer {
                from: sender.clone(),
                to,
                coin: coin.clone(),
                amount,
            };
            let result = |posted: &Posted| UserTransferResult {
                entry_id: posted.entry_id,
                coin: coin.clone(),
                amount,
                to_user_id: transfer.to.id,
                balance: decimal_of(posted, AccountRef::funding(sender.id), &coin),
            };
            match service::transfer_to_user(db, &transfer, idempotency.as_ref(), |p| {
                stored(&result(p))
            })
            .await?
            {
                Outcome::Posted(posted) => Ok(result(&posted)),
                Outcome::Replayed { response, .. } => replayed(&response),
            }
        }
        .await;
        MemberResponse::of(result, Msg::Transferred)
    }

    /// The user's transfers to and from other users, newest first.
    #[oai(
        path = "/api/transfer/list",
        method = "get",
        operation_id = "listTransfers"
    )]
    async fn list_transfers(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
        #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
        page: Query<Option<u64>>,
        /// Page size, 1 to 100 (default 20).
        #[oai(
            name = "pageSize",
            validator(minimum(value = "1"), maximum(value = "100"))
        )]
        page_size: Query<Option<u64>>,
    ) -> MemberResponse<TransferPage> {
        let user_id = auth.0.id();
        let Paging { page, page_size } = Paging::new(page.0, page_size.0);
        let result =
            service::transfers(db, user_id, page, page_size)
                .await
                .map(|(total, records)| TransferPage {
                    total,
                    page,
                    page_size,
                    records: records
                        .into_iter()
                        .map(|t| {
                            let out = t.from_user_id == user_id;
                            TransferRecord {
                                id: t.id,
                                direction: if out { "out" } else { "in" }.to_owned(),
                                counterpart_id: if out { t.to_user_id } else { t.from_user_id },
                                amount: wasm_core::money::parse_decimal(&t.amount)
                                    .unwrap_or_default(),
                                coin: t.coin,
                                created_at: t.created_at,
                            }
                        })
                        .collect(),
                });
        MemberResponse::of(result, Msg::Success)
    }
}
