//! HTTP of identity verification, bank card, uploads and countries:
//!
//! - uploads: `POST /api/common/upload/OSS` and `POST /api/{head}/cgform-api/upload/file`;
//! - signed links: `GET /api/file/getSignedUrl` and `GET /api/file/content/{id}` (no session: the
//!   signature is the permission, so it works in `<img src>`);
//! - identity: `POST /api/{head}/coin/member/verified` (basic), `POST /api/user/uploadKYC`
//!   (advanced) and `GET /api/{head}/coin/member/getMemberOtherData/yhrzxx` (status);
//! - bank card: `POST /api/{head}/coin/member/payment` and `GET /api/{head}/coin/member/getPayment`;
//! - `POST /api/user/getCountryCode`.

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::{
    ApiResponse, Enum, Object, OpenApi, Tags,
    param::{Path, Query},
    payload::{Binary, Json},
};
use sea_orm::DatabaseConnection;
use serde::Deserialize;

use super::countries::COUNTRIES;
use super::files;
use super::service::{self, AdvancedFiles, Level};
use super::upload::FileUpload;
use crate::clock::now_ms;
use crate::config::Config;
use crate::entity::{bank_card, kyc_submission, uploaded_file};
use crate::http::{
    ErrorEnvelope, JsonBody, MemberResponse, PublicResponse, api_error_response, check_head,
};
use crate::i18n::Msg;
use crate::kyc::files::LinkKey;
use crate::refusal::Refusal;
use crate::user::Satoken;

#[derive(Tags)]
enum ApiTags {
    /// Identity verification, bank card, uploads and countries.
    Kyc,
}

/// The identity and file calls.
pub struct KycApi;

/// A stored upload.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct UploadedFile {
    /// The file's id (for `uploadKYC` and `getSignedUrl`).
    pub file_id: i64,
    /// The type recognised from the content: `image/jpeg`, `image/png`, `image/webp` or
    /// `application/pdf`.
    pub content_type: String,
    /// Bytes stored (an image's re-encoded size).
    pub size: i64,
    /// A signed link to the content, valid 5 minutes (ask `getSignedUrl` for a new one).
    pub url: String,
}

/// A short-lived link to a file.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SignedUrl {
    /// `/api/file/content/{fileId}?expires=…&sig=…`, usable without a session (`<img src>`).
    pub url: String,
    /// When the link stops working, Unix milliseconds (5 minutes from now).
    pub expires_at: i64,
}

/// The identity document type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub enum CardType {
    /// National identity card (`idCard`).
    IdCard,
    /// Passport (`passport`).
    Passport,
}

impl CardType {
    /// The stored value.
    pub fn as_str(self) -> &'static str {
        match self {
            CardType::IdCard => "idCard",
            CardType::Passport => "passport",
        }
    }

    /// Reads a stored value (`idCard` for anything unknown).
    pub fn from_stored(text: &str) -> Self {
        if text == "passport" {
            CardType::Passport
        } else {
            CardType::IdCard
        }
    }
}

/// Where a submission stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum KycStatus {
    /// Under review.
    Review,
    /// Passed.
    Passed,
    /// Failed; `reason` says why.
    Failed,
}

impl KycStatus {
    /// The service's status.
    pub fn to_service(self) -> service::Status {
        match self {
            KycStatus::Review => service::Status::Review,
            KycStatus::Passed => service::Status::Passed,
            KycStatus::Failed => service::Status::Failed,
        }
    }

    /// Reads a stored value (`review` for anything unknown).
    pub fn from_stored(text: &str) -> Self {
        match service::Status::parse(text) {
            Some(service::Status::Passed) => KycStatus::Passed,
            Some(service::Status::Failed) => KycStatus::Failed,
            _ => KycStatus::Review,
        }
    }
}

/// The verification level of a submission.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum KycLevel {
    /// Basic: name, document number, country and type.
    Basic,
    /// Advanced (real-name): photos of the document and a selfie holding it.
    Advanced,
}

impl KycLevel {
    /// Reads a stored value (`basic` for anything unknown).
    pub fn from_stored(text: &str) -> Self {
        match Level::parse(text) {
            Some(Level::Advanced) => KycLevel::Advanced,
            _ => KycLevel::Basic,
        }
    }
}

/// Basic identity verification (spec sections 3 and 5: every field required).
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BasicIdentityRequest {
    /// Full name as on the document (at most 100 characters).
    #[oai(validator(min_length = 1, max_length = 200))]
    pub name: String,
    /// Document number: 4 to 32 letters, digits and `-`.
    #[oai(validator(min_length = 1, max_length = 64))]
    pub id_card: String,
    /// Issuing country: the ISO 3166-1 alpha-2 code from `getCountryCode` (at most 100
    /// characters).
    #[oai(validator(min_length = 1, max_length = 200))]
    pub country: String,
    /// Document type.
    pub card_type: CardType,
}

/// Advanced identity verification: the ids of three of the user's own uploads (from
/// `uploadFile`). The spec marks this call "(query)"; the ids travel as a JSON body instead, like
/// every other form of the API.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AdvancedIdentityRequest {
    /// Photo of the document's front.
    pub front_file_id: i64,
    /// Photo of the document's back.
    pub back_file_id: i64,
    /// Selfie holding the document.
    pub hold_file_id: i64,
}

/// A submission as its owner sees it.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct Submission {
    /// Submission id.
    pub id: i64,
    /// Where it stands.
    pub status: KycStatus,
    /// Why it failed (set by the reviewing operator).
    pub reason: Option<String>,
    /// Full name.
    pub name: String,
    /// Document number, all but the last four characters masked (`**************002X`).
    pub id_card: String,
    /// Issuing country.
    pub country: String,
    /// Document type.
    pub card_type: CardType,
    /// Submitted, Unix milliseconds.
    pub created_at: i64,
    /// Reviewed, Unix milliseconds.
    pub reviewed_at: Option<i64>,
}

impl From<kyc_submission::Model> for Submission {
    fn from(row: kyc_submission::Model) -> Self {
        Submission {
            id: row.id,
            status: KycStatus::from_stored(&row.status),
            reason: row.reason,
            name: row.name,
            id_card: service::mask_id_card(&row.id_card),
            country: row.country,
            card_type: CardType::from_stored(&row.card_type),
            created_at: row.created_at,
            reviewed_at: row.reviewed_at,
        }
    }
}

/// The user's identity verification.
#[derive(Debug, Object)]
#[oai(skip_serializing_if_is_none)]
pub struct IdentityStatus {
    /// 0 none, 1 basic passed, 2 advanced (real-name) passed.
    pub level: i32,
    /// The newest basic submission, if any.
    pub basic: Option<Submission>,
    /// The newest advanced submission, if any.
    pub advanced: Option<Submission>,
}

/// A bank card to bind (spec sections 3 and 5: number and bank name required).
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct BankCardRequest {
    /// Card number: 12 to 19 digits, spaces between groups allowed.
    #[oai(validator(min_length = 1, max_length = 64))]
    pub card_number: String,
    /// Bank name (at most 100 characters).
    #[oai(validator(min_length = 1, max_length = 200))]
    pub bank_name: String,
    /// Bank address (at most 200 characters).
    #[oai(validator(max_length = 400))]
    pub bank_address: Option<String>,
    /// Bank phone: optional `+`, 5 to 15 digits.
    #[oai(validator(max_length = 64))]
    pub bank_phone: Option<String>,
    /// International bank (SWIFT/BIC) code: 8 or 11 characters.
    #[oai(validator(max_length = 32))]
    pub swift_code: Option<String>,
    /// Branch (at most 100 characters).
    #[oai(validator(max_length = 200))]
    pub branch: Option<String>,
    /// The holder's home address (at most 200 characters).
    #[oai(validator(max_length = 400))]
    pub home_address: Option<String>,
}

/// The bound bank card.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct BankCard {
    /// The card number, all but the last four digits masked: `**** **** **** 1234`.
    pub card_number: String,
    /// Bank name.
    pub bank_name: String,
    /// Bank address.
    pub bank_address: Option<String>,
    /// Bank phone.
    pub bank_phone: Option<String>,
    /// SWIFT/BIC code, upper case.
    pub swift_code: Option<String>,
    /// Branch.
    pub branch: Option<String>,
    /// The holder's home address.
    pub home_address: Option<String>,
    /// Bound, Unix milliseconds.
    pub created_at: i64,
}

impl From<bank_card::Model> for BankCard {
    fn from(row: bank_card::Model) -> Self {
        BankCard {
            card_number: service::mask_card_number(&row.card_number),
            bank_name: row.bank_name,
            bank_address: row.bank_address,
            bank_phone: row.bank_phone,
            swift_code: row.swift_code,
            branch: row.branch,
            home_address: row.home_address,
            created_at: row.created_at,
        }
    }
}

/// A country or territory (ISO 3166-1).
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct CountryCode {
    /// Alpha-2 code, upper case (`DE`).
    pub code: String,
    /// International calling code (`+49`).
    pub dial_code: String,
    /// English name (`Germany`); the webapp shows the name in the user's language.
    pub name: String,
}

/// Outcomes of `getFileContent`.
#[derive(ApiResponse)]
#[oai(bad_request_handler = "file_content_bad_request")]
pub enum FileContentResponse {
    /// The file's bytes, served with the type recognised at upload.
    #[oai(status = 200)]
    Ok(
        Binary<Vec<u8>>,
        /// `image/jpeg`, `image/png`, `image/webp` or `application/pdf`.
        #[oai(header = "Content-Type")]
        String,
        /// `private, max-age=300`.
        #[oai(header = "Cache-Control")]
        String,
        /// `nosniff`.
        #[oai(header = "X-Content-Type-Options")]
        String,
        /// `inline` for images; `attachment; filename="document-{id}.pdf"` for PDFs (a browser
        /// downloads them instead of opening them in the site's origin).
        #[oai(header = "Content-Disposition")]
        String,
    ),
    /// The link is unreadable.
    #[oai(status = 400)]
    BadRequest(Json<ErrorEnvelope>),
    /// The link expired or its signature is wrong (`link_expired`).
    #[oai(status = 403)]
    Forbidden(Json<ErrorEnvelope>),
    /// No such file.
    #[oai(status = 404)]
    NotFound(Json<ErrorEnvelope>),
    /// A server failure.
    #[oai(status = 500)]
    InternalError(Json<ErrorEnvelope>),
}

api_error_response!(FileContentResponse, file_content_bad_request {
    FORBIDDEN => Forbidden,
    NOT_FOUND => NotFound,
});

/// Checks and stores an upload of the current user and answers it with a fresh signed link.
async fn upload(
    db: &DatabaseConnection,
    config: &Config,
    link_key: &LinkKey,
    user_id: i64,
    body: FileUpload,
) -> Result<UploadedFile, Refusal> {
    let bytes = body.0?;
    let file = files::store(
        db,
        &config.effective_upload_dir(),
        user_id,
        &bytes,
        config.security.max_upload_bytes,
    )
    .await?;
    Ok(uploaded(file, link_key))
}

/// How a stored file is served: images inline (`<img src>`), PDFs only as downloads.
fn disposition(file: &uploaded_file::Model) -> String {
    if file.content_type == "application/pdf" {
        format!("attachment; filename=\"document-{}.pdf\"", file.id)
    } else {
        "inline".to_owned()
    }
}

fn uploaded(file: uploaded_file::Model, key: &[u8; 32]) -> UploadedFile {
    UploadedFile {
        file_id: file.id,
        url: files::sign_link(key, file.id, now_ms()).url,
        content_type: file.content_type,
        size: file.size,
    }
}

#[OpenApi(tag = "ApiTags::Kyc")]
impl KycApi {
    /// Uploads a file (multipart form, field `file`): JPEG, PNG, WebP or PDF, recognised by its
    /// content (the name and declared type are ignored), at most 5 MiB. An image is decoded and
    /// stored re-encoded without metadata or trailing bytes (`image_unreadable` when it does not
    /// decode, `image_too_many_pixels` past 8192 pixels a side or 40 megapixels); a PDF with
    /// scripts, actions, attachments or encryption is refused (`pdf_active_content`). It is stored
    /// under a server-generated name; only its owner and operators can get links to it.
    #[oai(
        path = "/api/common/upload/OSS",
        method = "post",
        operation_id = "uploadFile"
    )]
    async fn upload_file(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(link_key): Data<&LinkKey>,
        auth: Satoken,
        body: FileUpload,
    ) -> MemberResponse<UploadedFile> {
        let result = upload(db, config, link_key, auth.0.id(), body).await;
        MemberResponse::of(result, Msg::Uploaded)
    }

    /// The same upload under the form-designer path of the member area (`{head}` from the
    /// platform config).
    #[oai(
        path = "/api/:head/cgform-api/upload/file",
        method = "post",
        operation_id = "cgformUploadFile"
    )]
    async fn cgform_upload_file(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(link_key): Data<&LinkKey>,
        head: Path<String>,
        auth: Satoken,
        body: FileUpload,
    ) -> MemberResponse<UploadedFile> {
        let result = async {
            check_head(&head, config)?;
            upload(db, config, link_key, auth.0.id(), body).await
        }
        .await;
        MemberResponse::of(result, Msg::Uploaded)
    }

    /// A link to one of the user's files (operators: anyone's), valid 5 minutes. Another user's
    /// file is 404.
    #[oai(
        path = "/api/file/getSignedUrl",
        method = "get",
        operation_id = "getSignedUrl"
    )]
    async fn get_signed_url(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(link_key): Data<&LinkKey>,
        auth: Satoken,
        /// The file's id.
        #[oai(name = "fileId")]
        file_id: Query<i64>,
    ) -> MemberResponse<SignedUrl> {
        let result = async {
            let file = files::visible_to(db, &auth.0.user, file_id.0).await?;
            let link = files::sign_link(link_key, file.id, now_ms());
            Ok(SignedUrl {
                url: link.url,
                expires_at: link.expires_at,
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// The content of a file through a signed link from `getSignedUrl` or an upload. No session
    /// is needed: the signature is the permission. An expired or altered link is 403.
    #[oai(
        path = "/api/file/content/:id",
        method = "get",
        operation_id = "getFileContent"
    )]
    async fn get_file_content(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(link_key): Data<&LinkKey>,
        /// The file's id.
        id: Path<i64>,
        /// When the link expires, Unix milliseconds.
        expires: Query<Option<String>>,
        /// The link's signature (hex).
        sig: Query<Option<String>>,
    ) -> FileContentResponse {
        let result = files::content(
            db,
            &config.effective_upload_dir(),
            link_key,
            id.0,
            expires.0.as_deref(),
            sig.0.as_deref(),
        )
        .await;
        match result {
            Ok((file, bytes)) => FileContentResponse::Ok(
                Binary(bytes),
                file.content_type.clone(),
                "private, max-age=300".to_owned(),
                "nosniff".to_owned(),
                disposition(&file),
            ),
            Err(error) => error.into(),
        }
    }

    /// Submits basic identity verification (name, document number, country, document type) for
    /// review. Refused while a basic submission is under review (`kyc_under_review`) or after one
    /// passed (`kyc_already_passed`).
    #[oai(
        path = "/api/:head/coin/member/verified",
        method = "post",
        operation_id = "submitBasicIdentity"
    )]
    async fn submit_basic_identity(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
        auth: Satoken,
        body: JsonBody<BasicIdentityRequest>,
    ) -> MemberResponse<Submission> {
        let body = body.0;
        let result = async {
            check_head(&head, config)?;
            let form = wasm_core::validate::IdentityForm {
                name: Some(body.name),
                id_card: Some(body.id_card),
                country: Some(body.country),
                card_type: Some(body.card_type.as_str().to_owned()),
            };
            let submission = service::submit_basic(db, auth.0.id(), form).await?;
            Ok(submission.into())
        }
        .await;
        MemberResponse::of(result, Msg::Submitted)
    }

    /// Submits advanced (real-name) verification: three of the user's uploads (document front,
    /// back, selfie holding it). Needs basic verification passed (`kyc_basic_required`); refused
    /// while an advanced submission is under review or after one passed. A file id that is not
    /// the user's own upload is 404 (`data.field` names it).
    #[oai(
        path = "/api/user/uploadKYC",
        method = "post",
        operation_id = "uploadKYC"
    )]
    async fn upload_kyc(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        body: JsonBody<AdvancedIdentityRequest>,
    ) -> MemberResponse<Submission> {
        let body = body.0;
        let files = AdvancedFiles {
            front: body.front_file_id,
            back: body.back_file_id,
            hold: body.hold_file_id,
        };
        let result = service::submit_advanced(db, auth.0.id(), files)
            .await
            .map(Submission::from);
        MemberResponse::of(result, Msg::Submitted)
    }

    /// The user's identity verification: level and the newest basic and advanced submission with
    /// status and, when failed, the reviewer's reason.
    #[oai(
        path = "/api/:head/coin/member/getMemberOtherData/yhrzxx",
        method = "get",
        operation_id = "getIdentityStatus"
    )]
    async fn get_identity_status(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
        auth: Satoken,
    ) -> MemberResponse<IdentityStatus> {
        let result = async {
            check_head(&head, config)?;
            let user_id = auth.0.id();
            let basic = service::latest(db, user_id, Level::Basic).await?;
            let advanced = service::latest(db, user_id, Level::Advanced).await?;
            Ok(IdentityStatus {
                level: auth.0.user.kyc_level,
                basic: basic.map(Submission::from),
                advanced: advanced.map(Submission::from),
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Binds the user's bank card (number and bank name required). Once bound it cannot be
    /// changed (`bank_card_bound`).
    #[oai(
        path = "/api/:head/coin/member/payment",
        method = "post",
        operation_id = "bindBankCard"
    )]
    async fn bind_bank_card(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
        auth: Satoken,
        body: JsonBody<BankCardRequest>,
    ) -> MemberResponse<BankCard> {
        let body = body.0;
        let result = async {
            check_head(&head, config)?;
            let form = wasm_core::validate::BankCardForm {
                card_number: Some(body.card_number),
                bank_name: Some(body.bank_name),
                bank_address: body.bank_address,
                bank_phone: body.bank_phone,
                swift_code: body.swift_code,
                branch: body.branch,
                home_address: body.home_address,
            };
            let card = service::bind_bank_card(db, auth.0.id(), form).await?;
            Ok(card.into())
        }
        .await;
        MemberResponse::of(result, Msg::Bound)
    }

    /// The user's bound bank card with the number masked, or `data: null` when none is bound.
    #[oai(
        path = "/api/:head/coin/member/getPayment",
        method = "get",
        operation_id = "getBankCard"
    )]
    async fn get_bank_card(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
        auth: Satoken,
    ) -> MemberResponse<Option<BankCard>> {
        let result = async {
            check_head(&head, config)?;
            Ok(service::bank_card(db, auth.0.id())
                .await?
                .map(BankCard::from))
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Every ISO 3166-1 country and territory with its calling code, ordered by code. Names are
    /// English; the webapp localises them.
    #[oai(
        path = "/api/user/getCountryCode",
        method = "post",
        operation_id = "getCountryCode"
    )]
    async fn get_country_code(&self) -> PublicResponse<Vec<CountryCode>> {
        let countries = COUNTRIES
            .iter()
            .map(|country| CountryCode {
                code: country.code.to_owned(),
                dial_code: country.dial_code.to_owned(),
                name: country.name.to_owned(),
            })
            .collect();
        PublicResponse::of(Ok(countries), Msg::Success)
    }
}
