//! HTTP of withdrawals ([`super::withdrawals`] holds the rules): the session's key, the sealed
//! request, the user's list.

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::{
    Object, OpenApi, Tags,
    param::{Header, Path},
};
use rust_decimal::Decimal;
use sea_orm::DatabaseConnection;
use serde::Deserialize;

use super::api::{replayed, stored};
use super::deposits::{ListFilter, PaymentStatus};
use super::withdrawals::{
    Authorisation, Submitted, WITHDRAWAL_AAD, WITHDRAWAL_ALGORITHM, WithdrawalPlaintext, check,
    idempotency, list, submit, withdrawal_key,
};
use crate::config::Config;
use crate::entity::user_session;
use crate::entity::withdrawal;
use crate::http::body::parse_json_body;
use crate::http::{JsonBody, MemberResponse, check_head};
use crate::i18n::Msg;
use crate::kyc::files::LinkKey;
use crate::paging::Paging;
use crate::refusal::Refusal;
use crate::refusal::RefusalKind;
use crate::user::Satoken;
use crate::user::rate_limit::RateLimiter;

/// Opens `payload` with `session`'s key and reads the form in it; a payload that does not open is
/// 400 `withdrawal_payload_invalid` naming `payload`, a form of the wrong shape 400 naming its
/// field.
fn open_request(
    link_key: &[u8; 32],
    session: &user_session::Model,
    payload: &str,
) -> Result<WithdrawalPlaintext, Refusal> {
    let key = withdrawal_key(link_key, session);
    let text =
        wasm_core::cipher::open_text(&key, WITHDRAWAL_AAD, payload.trim()).map_err(|_| {
            Refusal::new(RefusalKind::Invalid, Msg::WithdrawalPayloadInvalid).with_field("payload")
        })?;
    parse_json_body(text.as_bytes()).map_err(|error| error.to_refusal())
}

#[derive(Tags)]
enum ApiTags {
    /// Withdrawal key, encrypted withdrawal requests and their history.
    Withdrawals,
}

/// The withdrawal calls.
pub struct WithdrawalApi;

/// The session's withdrawal key.
#[derive(Debug, Object)]
pub struct WithdrawalKey {
    /// `AES-256-GCM`.
    pub algorithm: String,
    /// The key, base64 of 32 bytes; the same for the whole session, never stored.
    pub key: String,
    /// The associated data to seal with: `assets/withdrawal`.
    pub aad: String,
}

/// A sealed withdrawal request.
#[derive(Debug, Object, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WithdrawalRequest {
    /// base64 of `nonce (12 bytes) || ciphertext || tag (16 bytes)`: AES-256-GCM under the
    /// session's key with the AAD `assets/withdrawal`, over the UTF-8 JSON
    /// `{coin, network, address, amount, fundPassword, totpCode | securityCode}`
    /// ([`WithdrawalPlaintext`]).
    #[oai(validator(max_length = 4096))]
    pub payload: String,
}

/// A withdrawal as its owner sees it.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct WithdrawalRecord {
    /// Withdrawal id.
    pub id: i64,
    /// Asset, lower case.
    pub coin: String,
    /// Network.
    pub network: String,
    /// Destination address.
    pub address: String,
    /// What leaves the balance, fee included.
    pub amount: Decimal,
    /// The withdrawal fee.
    pub fee: Decimal,
    /// What arrives: `amount − fee`.
    pub received: Decimal,
    /// Where it stands.
    pub status: PaymentStatus,
    /// Why it failed (the amount went back to funding).
    pub reason: Option<String>,
    /// The network transaction, once passed.
    pub tx_hash: Option<String>,
    /// Submitted, Unix milliseconds.
    pub created_at: i64,
    /// Reviewed, Unix milliseconds.
    pub reviewed_at: Option<i64>,
}

impl WithdrawalRecord {
    /// The record of `row`.
    pub fn of(row: &withdrawal::Model) -> Self {
        let decimal = |text: &str| wasm_core::money::parse_decimal(text).unwrap_or_default();
        WithdrawalRecord {
            id: row.id,
            coin: row.coin.clone(),
            network: row.network.clone(),
            address: row.address.clone(),
            amount: decimal(&row.amount),
            fee: decimal(&row.fee),
            received: decimal(&row.received),
            status: PaymentStatus::from_stored(&row.status),
            reason: row.reason.clone(),
            tx_hash: row.tx_hash.clone(),
            created_at: row.created_at,
            reviewed_at: row.reviewed_at,
        }
    }
}

/// A page of withdrawals, newest first.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct WithdrawalPage {
    /// Withdrawals matching the filter, over all pages.
    pub total: u64,
    /// This page (from 1).
    pub page: u64,
    /// Page size.
    pub page_size: u64,
    /// The withdrawals.
    pub records: Vec<WithdrawalRecord>,
}

/// Which of the user's withdrawals to list.
#[derive(Debug, Default, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct WithdrawalListRequest {
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

async fn withdrawal_page(
    db: &DatabaseConnection,
    user_id: i64,
    request: WithdrawalListRequest,
) -> Result<WithdrawalPage, Refusal> {
    let Paging { page, page_size } = Paging::new(request.page, request.page_size);
    let filter = ListFilter {
        user_id: Some(user_id),
        coin: request.coin,
        status: request.status,
    };
    let (total, rows) = list(db, &filter, page, page_size).await?;
    Ok(WithdrawalPage {
        total,
        page,
        page_size,
        records: rows.iter().map(WithdrawalRecord::of).collect(),
    })
}

#[OpenApi(tag = "ApiTags::Withdrawals")]
impl WithdrawalApi {
    /// The session's key for sealing withdrawal requests (AES-256-GCM). It is derived from the
    /// session, so it works only with the `satoken` it was fetched with.
    #[oai(
        path = "/api/:head/coin/assets/getWithdrawalKey",
        method = "get",
        operation_id = "getWithdrawalKey"
    )]
    async fn get_withdrawal_key(
        &self,
        Data(config): Data<&Arc<Config>>,
        Data(link_key): Data<&LinkKey>,
        head: Path<String>,
        auth: Satoken,
    ) -> MemberResponse<WithdrawalKey> {
        let result = check_head(&head, config).map(|()| WithdrawalKey {
            algorithm: WITHDRAWAL_ALGORITHM.to_owned(),
            key: wasm_core::cipher::encode_base64(&withdrawal_key(link_key, &auth.0.session)),
            aad: WITHDRAWAL_AAD.to_owned(),
        });
        MemberResponse::of(result, Msg::Success)
    }

    /// Submits a sealed withdrawal request. Its amount (fee included) moves from funding to frozen
    /// at once ('Insufficient balance' when short) and waits for an operator. A payload that does
    /// not open with this session's key is 400 `withdrawal_payload_invalid`; the form inside is
    /// checked like any body (field names as in the form). After the fund password comes the
    /// second factor: `totpCode` when 2FA is on (`totp_required`, `invalid_totp`), else
    /// `securityCode` from `sendMemberEmailCode` / `sendMemberSmsCode` with purpose `security`
    /// (`security_code_required`, `invalid_code`); it is used up only when the hold commits.
    #[oai(
        path = "/api/:head/coin/assets/withdrawal",
        method = "post",
        operation_id = "submitWithdrawal"
    )]
    // A handler takes one argument per extractor: each dependency, header, path and body.
    #[allow(clippy::too_many_arguments)]
    async fn submit_withdrawal(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(link_key): Data<&LinkKey>,
        Data(limiter): Data<&Arc<RateLimiter>>,
        head: Path<String>,
        auth: Satoken,
        /// Makes a retry safe: the same key and request (coin, network, address, amount) answer
        /// like the first request and hold nothing more.
        #[oai(name = "Idempotency-Key")]
        idempotency_key: Header<Option<String>>,
        body: JsonBody<WithdrawalRequest>,
    ) -> MemberResponse<WithdrawalRecord> {
        let result = async {
            check_head(&head, config)?;
            let user = &auth.0.user;
            let request = open_request(link_key, &auth.0.session, &body.0.payload)?;
            let idempotency = idempotency(user.id, idempotency_key.0.as_deref(), &request)?;
            let checked = check(&config.funds, limiter, user, &request).await?;
            let authorisation = Authorisation {
                user,
                codes: request.codes(),
                limiter: limiter.clone(),
            };
            match submit(db, &checked, authorisation, idempotency.as_ref(), |row| {
                stored(&WithdrawalRecord::of(row))
            })
            .await?
            {
                Submitted::Created(row) => Ok(WithdrawalRecord::of(&row)),
                Submitted::Replayed(response) => replayed(&response),
            }
        }
        .await;
        MemberResponse::of(result, Msg::WithdrawalSubmitted)
    }

    /// The user's withdrawals, newest first.
    #[oai(
        path = "/api/withdraw/list",
        method = "post",
        operation_id = "listWithdrawals"
    )]
    async fn list_withdrawals(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        body: JsonBody<Option<WithdrawalListRequest>>,
    ) -> MemberResponse<WithdrawalPage> {
        let result = withdrawal_page(db, auth.0.id(), body.0.unwrap_or_default()).await;
        MemberResponse::of(result, Msg::Success)
    }

    /// The withdrawal history of the member area (the same records as `listWithdrawals`).
    #[oai(
        path = "/api/:head/coin/assets/getWithdrawalLog",
        method = "post",
        operation_id = "getWithdrawalLog"
    )]
    async fn get_withdrawal_log(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
        auth: Satoken,
        body: JsonBody<Option<WithdrawalListRequest>>,
    ) -> MemberResponse<WithdrawalPage> {
        let result = async {
            check_head(&head, config)?;
            withdrawal_page(db, auth.0.id(), body.0.unwrap_or_default()).await
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::funds::withdrawals::tests::session;

    #[test]
    fn requests_open_only_with_their_session_key() {
        let link_key = [3u8; 32];
        let mine = session(7, "hash");
        let key = wasm_core::cipher::encode_base64(&withdrawal_key(&link_key, &mine));
        let nonce = wasm_core::cipher::encode_base64(&[5u8; 12]);
        let plain =
            r#"{"coin":"usdt","network":"TRC20","address":"T1","amount":"10","fundPassword":"x"}"#;
        let payload = wasm_core::cipher::seal_text(&key, &nonce, WITHDRAWAL_AAD, plain).unwrap();
        let opened = open_request(&link_key, &mine, &payload).unwrap();
        assert_eq!(
            (opened.coin.as_str(), opened.amount.as_str()),
            ("usdt", "10")
        );
        let error = open_request(&link_key, &session(8, "hash"), &payload).unwrap_err();
        assert_eq!(error.msg, Msg::WithdrawalPayloadInvalid);
        let wrong_aad = wasm_core::cipher::seal_text(&key, &nonce, "other", plain).unwrap();
        assert!(open_request(&link_key, &mine, &wrong_aad).is_err());
        let extra = wasm_core::cipher::seal_text(
            &key,
            &nonce,
            WITHDRAWAL_AAD,
            r#"{"coin":"usdt","network":"TRC20","address":"T1","amount":"10","fundPassword":"x","memo":1}"#,
        )
        .unwrap();
        let error = open_request(&link_key, &mine, &extra).unwrap_err();
        assert_eq!(
            (error.msg, error.field.as_deref()),
            (Msg::UnknownField, Some("memo"))
        );
    }
}
