//! Operators: `create-operator`'s service, the role check of `/api/admin/…`, and the identity
//! review from submission to what the user sees.

use backend::admin::service::{OperatorOutcome, create_operator};
use backend::entity::{kyc_submission, user};
use sea_orm::EntityTrait;
use serde_json::{Value, json};

use crate::helpers::{PASSWORD, spawn_app};
use crate::kyc::{fetch, identity_status, operator, review, served, submit_basic, upload_sample};

fn reason(body: &Value) -> &str {
    body["data"]["reason"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn create_operator_creates_or_promotes_and_checks_the_password() {
    let app = spawn_app().await;
    let error = create_operator(app.db(), "ops@example.com", "weakpass")
        .await
        .unwrap_err();
    assert_eq!(error.msg.key(), "password_format");
    assert_eq!(error.field.as_deref(), Some("password"));
    let error = create_operator(app.db(), "not-an-address", PASSWORD)
        .await
        .unwrap_err();
    assert_eq!(error.field.as_deref(), Some("email"));

    let created = create_operator(app.db(), "Ops@Example.com", PASSWORD)
        .await
        .unwrap();
    let OperatorOutcome::Created(ops) = &created else {
        panic!("{created:?}");
    };
    assert_eq!(ops.role, "operator");
    assert_eq!(ops.email.as_deref(), Some("ops@example.com"));
    let token = app.login("ops@example.com", PASSWORD).await;
    let (status, body) = app.post_as(&token, "/api/user/getInfo", None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["user"]["role"], "operator");
    let again = create_operator(app.db(), "ops@example.com", PASSWORD)
        .await
        .unwrap();
    assert!(matches!(again, OperatorOutcome::AlreadyOperator(ref u) if u.id == ops.id));

    // An existing account keeps its password when promoted.
    let member = app.member("carol@example.com").await;
    let promoted = create_operator(app.db(), "carol@example.com", "Another123")
        .await
        .unwrap();
    assert!(matches!(promoted, OperatorOutcome::Promoted(ref u) if u.id == member.user_id));
    let row = user::Entity::find_by_id(member.user_id)
        .one(app.db())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.role, "operator");
    app.login(&member.account, PASSWORD).await;
    let (status, body) = app.get_as(&member.token, "/api/admin/kyc/list").await;
    assert_eq!(status, 200, "{body}");
    app.stop().await;
}

#[tokio::test]
async fn admin_calls_are_forbidden_to_normal_users_and_visitors() {
    let app = spawn_app().await;
    let member = app.member("user@example.com").await;
    let (status, body) = submit_basic(&app, &member.token).await;
    assert_eq!(status, 200, "{body}");
    let id = body["data"]["id"].as_i64().unwrap();

    let (status, body) = app
        .get_as(&member.token, "/api/admin/kyc/list?status=review")
        .await;
    assert_eq!((status, reason(&body)), (403, "forbidden"), "{body}");
    assert_eq!(body["code"], 403);
    let (status, body) = review(&app, &member.token, id, true, None).await;
    assert_eq!((status, reason(&body)), (403, "forbidden"), "{body}");
    let (status, body) = app.get_as("", "/api/admin/kyc/list").await;
    assert_eq!(status, 401, "{body}");

    let status = identity_status(&app, &member.token).await;
    assert_eq!(status["basic"]["status"], "review");
    assert_eq!(status["level"], 0);
    app.stop().await;
}

#[tokio::test]
async fn basic_approve_then_advanced_reject_with_reason_reaches_the_user() {
    let app = spawn_app().await;
    let ops = operator(&app, "ops@example.com").await;
    let member = app.member("+49 151 2345678").await;

    // Basic: submit, listed for review in full, approved.
    let (status, body) = submit_basic(&app, &member.token).await;
    assert_eq!(status, 200, "{body}");
    let basic_id = body["data"]["id"].as_i64().unwrap();
    let (status, body) = app
        .get_as(&ops, "/api/admin/kyc/list?status=review&page=1&pageSize=10")
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["total"], 1);
    let record = &body["data"]["records"][0];
    assert_eq!(record["id"], basic_id);
    assert_eq!(record["userId"], member.user_id);
    assert_eq!(record["account"], "+491512345678");
    assert_eq!(record["level"], "basic");
    assert_eq!(record["status"], "review");
    assert_eq!(record["idCard"], "11010519491231002X");
    assert_eq!(record["name"], "Ada Lovelace");
    assert!(record["frontUrl"].is_null());

    let (status, body) = review(&app, &ops, basic_id, true, None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["msg"], "Review saved");
    assert_eq!(body["data"]["status"], "passed");
    let status = identity_status(&app, &member.token).await;
    assert_eq!(status["level"], 1, "{status}");
    assert_eq!(status["basic"]["status"], "passed");
    assert!(status["basic"]["reviewedAt"].is_i64());
    let (status, body) = submit_basic(&app, &member.token).await;
    assert_eq!(
        (status, reason(&body)),
        (400, "kyc_already_passed"),
        "{body}"
    );

    // A reviewed submission stays reviewed.
    let (status, body) = review(&app, &ops, basic_id, false, Some("late")).await;
    assert_eq!(
        (status, reason(&body)),
        (400, "kyc_already_reviewed"),
        "{body}"
    );
    let (status, body) = review(&app, &ops, 999_999, true, None).await;
    assert_eq!((status, reason(&body)), (404, "not_found"), "{body}");

    // Advanced: submit with own uploads; the operator sees working photo links.
    let files = [
        upload_sample(&app, &member, "jpeg").await,
        upload_sample(&app, &member, "png").await,
        upload_sample(&app, &member, "webp").await,
    ];
    let (status, body) = app
        .post_as(
            &member.token,
            "/api/user/uploadKYC",
            Some(json!({"frontFileId": files[0], "backFileId": files[1],
                "holdFileId": files[2]})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["status"], "review");
    assert_eq!(body["data"]["name"], "Ada Lovelace");
    let advanced_id = body["data"]["id"].as_i64().unwrap();
    let (status, body) = app
        .post_as(
            &member.token,
            "/api/user/uploadKYC",
            Some(json!({"frontFileId": files[0], "backFileId": files[1],
                "holdFileId": files[2]})),
        )
        .await;
    assert_eq!((status, reason(&body)), (400, "kyc_under_review"), "{body}");

    let (status, body) = app.get_as(&ops, "/api/admin/kyc/list").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["total"], 2);
    let record = &body["data"]["records"][0];
    assert_eq!(record["id"], advanced_id, "newest first");
    assert_eq!(record["level"], "advanced");
    for (key, kind) in [
        ("frontUrl", "jpeg"),
        ("backUrl", "png"),
        ("holdUrl", "webp"),
    ] {
        let url = record[key].as_str().unwrap_or_else(|| panic!("{key}"));
        let (status, _, bytes) = fetch(&app, url).await;
        assert_eq!(status, 200, "{key}");
        assert_eq!(bytes, served(kind, 256), "{key}");
    }
    let (status, body) = app.get_as(&ops, "/api/admin/kyc/list?status=passed").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["total"], 1);
    assert_eq!(body["data"]["records"][0]["id"], basic_id);
    let (status, body) = app
        .get_as(&ops, "/api/admin/kyc/list?pageSize=1&page=2")
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["total"], 2);
    assert_eq!(body["data"]["records"][0]["id"], basic_id);

    // Rejecting needs a reason.
    for blank in [None, Some("   ")] {
        let (status, body) = review(&app, &ops, advanced_id, false, blank).await;
        assert_eq!(
            (status, reason(&body)),
            (400, "kyc_reason_required"),
            "{body}"
        );
    }
    let why = "The selfie does not show the document clearly";
    let (status, body) = review(&app, &ops, advanced_id, false, Some(why)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["status"], "failed");

    let status = identity_status(&app, &member.token).await;
    assert_eq!(status["level"], 1, "a failed advanced keeps level 1");
    assert_eq!(status["advanced"]["status"], "failed");
    assert_eq!(status["advanced"]["reason"], why);
    assert_eq!(status["basic"]["status"], "passed");

    let row = kyc_submission::Entity::find_by_id(advanced_id)
        .one(app.db())
        .await
        .unwrap()
        .unwrap();
    let ops_id = user::Entity::find()
        .all(app.db())
        .await
        .unwrap()
        .into_iter()
        .find(|u| u.role == "operator")
        .unwrap()
        .id;
    assert_eq!(row.reviewed_by, Some(ops_id));
    assert!(row.reviewed_at.is_some());

    // After a failure the user may try again, and a pass gives level 2.
    let (status, body) = app
        .post_as(
            &member.token,
            "/api/user/uploadKYC",
            Some(json!({"frontFileId": files[0], "backFileId": files[1],
                "holdFileId": files[2]})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let retry_id = body["data"]["id"].as_i64().unwrap();
    let (status, body) = review(&app, &ops, retry_id, true, None).await;
    assert_eq!(status, 200, "{body}");
    let status = identity_status(&app, &member.token).await;
    assert_eq!(status["level"], 2);
    assert_eq!(status["advanced"]["id"], retry_id);
    assert_eq!(status["advanced"]["status"], "passed");
    let (status, body) = app.post_as(&member.token, "/api/user/getInfo", None).await;
    assert_eq!(status, 200);
    assert_eq!(body["data"]["kycLevel"], 2);
    app.stop().await;
}

#[tokio::test]
async fn operators_do_not_review_their_own_submissions() {
    let app = spawn_app().await;
    let ops = operator(&app, "ops@example.com").await;
    let (status, body) = submit_basic(&app, &ops).await;
    assert_eq!(status, 200, "{body}");
    let id = body["data"]["id"].as_i64().unwrap();
    let (status, body) = review(&app, &ops, id, true, None).await;
    assert_eq!((status, reason(&body)), (403, "forbidden"), "{body}");
    app.stop().await;
}
