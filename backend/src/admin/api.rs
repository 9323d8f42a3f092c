//! HTTP of the operator calls: `GET /api/admin/kyc/list` and `POST /api/admin/kyc/review`. Each
//! needs a session of an account with the `operator` role; anyone else gets 403.

use poem::web::Data;
use poem_openapi::{Object, OpenApi, Tags, param::Query};
use sea_orm::DatabaseConnection;
use serde::Deserialize;

use super::service::{self, Review};
use crate::clock::now_ms;
use crate::entity::{kyc_submission, user};
use crate::http::{JsonBody, MemberResponse};
use crate::i18n::Msg;
use crate::kyc::api::{CardType, KycLevel, KycStatus};
use crate::kyc::files;
use crate::kyc::files::LinkKey;
use crate::paging::Paging;
use crate::refusal::Refusal;
use crate::user::Satoken;

#[derive(Tags)]
enum ApiTags {
    /// Operator calls: identity review.
    Admin,
}

/// The operator calls.
pub struct AdminApi;

/// A page of identity submissions.
#[derive(Debug, Object)]
pub struct AdminIdentityPage {
    /// Submissions matching the filter, over all pages.
    pub total: u64,
    /// This page, newest first.
    pub records: Vec<AdminIdentityRecord>,
}

/// An identity submission as an operator reviews it (unmasked, with links to the photos).
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct AdminIdentityRecord {
    /// Submission id.
    pub id: i64,
    /// The submitting user.
    pub user_id: i64,
    /// The user's login e-mail, else phone.
    pub account: String,
    /// Basic or advanced.
    pub level: KycLevel,
    /// Where it stands.
    pub status: KycStatus,
    /// Full name.
    pub name: String,
    /// Document number, in full.
    pub id_card: String,
    /// Issuing country.
    pub country: String,
    /// Document type.
    pub card_type: CardType,
    /// Signed link (5 minutes) to the document's front (advanced).
    pub front_url: Option<String>,
    /// Signed link (5 minutes) to the document's back (advanced).
    pub back_url: Option<String>,
    /// Signed link (5 minutes) to the selfie holding the document (advanced).
    pub hold_url: Option<String>,
    /// Why it failed.
    pub reason: Option<String>,
    /// The operator who reviewed it.
    pub reviewed_by: Option<i64>,
    /// Submitted, Unix milliseconds.
    pub created_at: i64,
    /// Reviewed, Unix milliseconds.
    pub reviewed_at: Option<i64>,
}

/// An operator's decision.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct ReviewRequest {
    /// The submission's id.
    pub id: i64,
    /// `true` passes it, `false` fails it.
    pub approve: bool,
    /// Why it fails: required to fail it (`kyc_reason_required`), at most 500 characters; the
    /// user sees it.
    #[oai(validator(max_length = 1000))]
    pub reason: Option<String>,
}

fn record(
    row: kyc_submission::Model,
    owner: Option<&user::Model>,
    key: &[u8; 32],
    now: i64,
) -> AdminIdentityRecord {
    let link = |file_id: Option<i64>| file_id.map(|id| files::sign_link(key, id, now).url);
    AdminIdentityRecord {
        id: row.id,
        user_id: row.user_id,
        account: owner
            .and_then(|u| u.email.clone().or_else(|| u.phone.clone()))
            .unwrap_or_default(),
        level: KycLevel::from_stored(&row.level),
        status: KycStatus::from_stored(&row.status),
        front_url: link(row.front_file_id),
        back_url: link(row.back_file_id),
        hold_url: link(row.hold_file_id),
        card_type: CardType::from_stored(&row.card_type),
        name: row.name,
        id_card: row.id_card,
        country: row.country,
        reason: row.reason,
        reviewed_by: row.reviewed_by,
        created_at: row.created_at,
        reviewed_at: row.reviewed_at,
    }
}

#[OpenApi(tag = "ApiTags::Admin")]
impl AdminApi {
    /// Identity submissions, newest first, optionally of one status (operators only). Document
    /// numbers are in full; photo links are signed for 5 minutes.
    #[oai(
        path = "/api/admin/kyc/list",
        method = "get",
        operation_id = "adminListIdentity"
    )]
    async fn list_identity(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(link_key): Data<&LinkKey>,
        auth: Satoken,
        /// Only submissions with this status; all when absent.
        status: Query<Option<KycStatus>>,
        /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
        #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
        page: Query<Option<u64>>,
        /// Submissions per page, 1 to 100 (default 20).
        #[oai(
            name = "pageSize",
            validator(minimum(value = "1"), maximum(value = "100"))
        )]
        page_size: Query<Option<u64>>,
    ) -> MemberResponse<AdminIdentityPage> {
        let result = async {
            crate::user::roles::require_operator(&auth.0.user)?;
            let paging = Paging::new(page.0, page_size.0);
            let found = service::list_submissions(
                db,
                status.0.map(KycStatus::to_service),
                paging.page,
                paging.page_size,
            )
            .await?;
            let now = now_ms();
            Ok(AdminIdentityPage {
                total: found.total,
                records: found
                    .records
                    .into_iter()
                    .map(|(row, owner)| record(row, owner.as_ref(), link_key, now))
                    .collect(),
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Passes or fails a submission under review (operators only). Failing needs a reason, which
    /// the user sees; a reviewed submission cannot be reviewed again (`kyc_already_reviewed`).
    /// Passing raises the user's level to 1 (basic) or 2 (advanced).
    #[oai(
        path = "/api/admin/kyc/review",
        method = "post",
        operation_id = "adminReviewIdentity"
    )]
    async fn review_identity(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(link_key): Data<&LinkKey>,
        auth: Satoken,
        body: JsonBody<ReviewRequest>,
    ) -> MemberResponse<AdminIdentityRecord> {
        let body = body.0;
        let result = async {
            let (reviewed, owner) = service::review(
                db,
                &auth.0.user,
                Review {
                    id: body.id,
                    approve: body.approve,
                    reason: body.reason,
                },
            )
            .await?;
            Ok::<_, Refusal>(record(reviewed, owner.as_ref(), link_key, now_ms()))
        }
        .await;
        MemberResponse::of(result, Msg::Reviewed)
    }
}
