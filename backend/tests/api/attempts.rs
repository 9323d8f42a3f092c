//! Failure limits under parallel requests: an attempt is counted before the slow check it guards
//! (a password hash, a code comparison), so a burst of guesses sent at once gets no more checks
//! than the limit allows — for the login, the fund password, step-up re-authentication and
//! verification codes.

use backend::entity::verification_code;
use rust_decimal_macros::dec;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

use crate::helpers::{FUND_PASSWORD, PASSWORD, set_fund_password, spawn_app};

/// Requests sent at once in each race.
const BURST: usize = 30;

/// The API's `reason` of a refusal (empty for a success).
fn reason(body: &Value) -> &str {
    body["data"]["reason"].as_str().unwrap_or_default()
}

/// How many of `answers` were checked (any answer but the limit's 429), after asserting that every
/// answer is a check's outcome or the limit's refusal.
fn checked(answers: &[(u16, Value)], allowed: &[(u16, &str)]) -> usize {
    let mut checked = 0;
    for (status, body) in answers {
        if (*status, reason(body)) == (429, "too_many_requests") {
            continue;
        }
        assert!(
            allowed.contains(&(*status, reason(body))),
            "an unexpected answer: {status} {body}"
        );
        checked += 1;
    }
    checked
}

#[tokio::test]
async fn a_burst_of_login_guesses_gets_no_more_checks_than_the_limit() {
    let app = spawn_app().await;
    let member = app.member("burst.login@example.com").await;
    // All in flight together. (A right password among them would clear the account's failures,
    // as a login by the owner does, and let five more be checked: so only wrong ones here.)
    let bodies: Vec<String> = (0..BURST)
        .map(|_| json!({"account": member.account, "password": "Wrong1234"}).to_string())
        .collect();
    let requests = bodies
        .iter()
        .map(|body| app.post("/api/user/login", Some(body), &[]));
    let answers = futures_util::future::join_all(requests).await;
    let checked = answers
        .iter()
        .filter(|(status, body)| (*status, reason(body)) == (400, "invalid_credentials"))
        .count();
    assert_eq!(
        checked, 5,
        "{checked} of {BURST} parallel logins were checked; the limit is 5"
    );
    // The rest were asked for a code sent to the account, before any password was checked.
    for (status, body) in &answers {
        assert!(
            [
                (400, "invalid_credentials"),
                (400, "login_verification_required")
            ]
            .contains(&(*status, reason(body))),
            "{status} {body}"
        );
    }

    // The account is not locked: its owner passes with the password and a code sent to it.
    let server = &app;
    let account = member.account.clone();
    let login = |password: &str, code: Option<&str>| {
        let mut body = json!({"account": account, "password": password});
        if let Some(code) = code {
            body["emailCode"] = json!(code);
        }
        async move {
            server
                .post("/api/user/login", Some(&body.to_string()), &[])
                .await
        }
    };
    let (status, body) = login(PASSWORD, None).await;
    assert_eq!(
        (status, reason(&body), body["data"]["field"].as_str()),
        (400, "login_verification_required", Some("emailCode")),
        "{body}"
    );
    // The registration code went to this address moments ago; its resend window is not what
    // this test is about.
    app.state()
        .limiter
        .clear(&format!("code:target:{}", member.account));
    let (status, body) = app
        .post(
            "/api/user/sendEmailCode",
            Some(&json!({"account": member.account, "type": "login"}).to_string()),
            &[],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let code = app.last_code(&member.account).await;
    // A guesser with the code still needs the password (and gets nothing more from it).
    let (status, body) = login("Wrong1234", Some("000000")).await;
    assert_eq!((status, reason(&body)), (400, "invalid_code"), "{body}");
    let (status, body) = login(PASSWORD, Some(&code)).await;
    assert_eq!(status, 200, "{body}");
    // The owner's success cleared the account's failures: the password alone suffices again.
    let (status, body) = login(PASSWORD, None).await;
    assert_eq!(status, 200, "{body}");
    app.stop().await;
}

#[tokio::test]
async fn a_burst_of_fund_password_guesses_gets_no_more_checks_than_the_limit() {
    let app = spawn_app().await;
    let alice = app.member("burst.fund@example.com").await;
    let bob = app.member("burst.fund.bob@example.com").await;
    set_fund_password(&app, &alice).await;
    app.credit(alice.user_id, "usdt", dec!(100)).await;
    let bodies: Vec<String> = (0..BURST)
        .map(|i| {
            let password = if i + 1 == BURST {
                FUND_PASSWORD
            } else {
                "Wrong#2026"
            };
            json!({"coin": "usdt", "amount": "1", "toAccount": bob.account,
                "fundPassword": password})
            .to_string()
        })
        .collect();
    let headers = [("satoken", alice.token.as_str())];
    let requests = bodies
        .iter()
        .map(|body| app.post("/api/transfer/submit", Some(body), &headers));
    let answers = futures_util::future::join_all(requests).await;
    // The right one, if it got its turn, passed; the wrong ones checked are the limit at most.
    let passed = answers.iter().filter(|(status, _)| *status == 200).count();
    let wrong = checked(&answers, &[(400, "wrong_fund_password"), (200, "")]) - passed;
    assert!(
        wrong <= 5,
        "{wrong} wrong fund passwords of {BURST} in parallel were checked; the limit is 5"
    );
    assert!(
        backend::funds::audit::audit(app.db())
            .await
            .unwrap()
            .is_clean()
    );
    app.stop().await;
}

#[tokio::test]
async fn a_burst_of_reauthentication_guesses_gets_no_more_checks_than_the_limit() {
    let app = spawn_app().await;
    let member = app.member("burst.reauth@example.com").await;
    // Only wrong ones: a right confirmation clears the failures, as the owner's does.
    let bodies: Vec<Value> = (0..BURST)
        .map(|_| json!({"password": "Wrong1234", "securityCode": "123456"}))
        .collect();
    let requests = bodies
        .into_iter()
        .map(|body| app.post_as(&member.token, "/api/coin/coin/member/reauth", Some(body)));
    let answers = futures_util::future::join_all(requests).await;
    let checked = checked(&answers, &[(400, "wrong_password")]);
    assert_eq!(
        checked, 5,
        "{checked} of {BURST} parallel confirmations were checked; the limit is 5"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_burst_of_code_guesses_compares_no_more_than_the_attempts_a_code_has() {
    let app = spawn_app().await;
    let account = "burst.code@example.com";
    let (status, body) = app
        .post(
            "/api/user/sendEmailCode",
            Some(&json!({"account": account, "type": "register"}).to_string()),
            &[],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let right = app.last_code(account).await;
    let wrong = if right == "000000" {
        "111111"
    } else {
        "000000"
    };
    let bodies: Vec<String> = (0..BURST)
        .map(|i| {
            let code = if i + 1 == BURST {
                right.as_str()
            } else {
                wrong
            };
            json!({"account": account, "password": PASSWORD, "confirmPassword": PASSWORD,
                "code": code})
            .to_string()
        })
        .collect();
    let requests = bodies
        .iter()
        .map(|body| app.post("/api/user/register", Some(body), &[]));
    let answers = futures_util::future::join_all(requests).await;
    for (status, body) in &answers {
        assert!(
            *status == 200 || (*status, reason(body)) == (400, "invalid_code"),
            "an unexpected answer: {status} {body}"
        );
    }
    let codes = verification_code::Entity::find()
        .filter(verification_code::Column::Target.eq(account))
        .all(app.db())
        .await
        .unwrap();
    assert_eq!(codes.len(), 1);
    assert!(
        codes[0].attempts <= backend::user::codes::MAX_ATTEMPTS,
        "{} guesses were compared; a code allows {}",
        codes[0].attempts,
        backend::user::codes::MAX_ATTEMPTS
    );
    app.stop().await;
}
