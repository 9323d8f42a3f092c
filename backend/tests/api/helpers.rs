//! `spawn_app`: the whole server on a random port with its own fresh database.

use std::time::Duration;

use backend::{
    app::{self, App},
    config::Config,
};
use futures_util::{SinkExt, StreamExt};
use rand::RngExt;
use sea_orm::{ConnectionTrait, Database};
use serde_json::Value;
use tokio_tungstenite::tungstenite::Message;

/// A running app and a client for it.
pub struct TestApp {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// HTTP client.
    pub client: reqwest::Client,
    app: Option<App>,
    data_dir: tempfile::TempDir,
    postgres: Option<(String, String)>,
}

/// Starts the app with a fresh database and a fast simulator (a tick every 50 ms).
pub async fn spawn_app() -> TestApp {
    spawn_app_in(tempfile::tempdir().expect("temporary folder"), None).await
}

/// Starts the app on `data_dir` (whose database may already hold data) with `database_url`, or a
/// fresh database when `None`.
pub async fn spawn_app_in(
    data_dir: tempfile::TempDir,
    database_url: Option<(String, String)>,
) -> TestApp {
    spawn_app_configured(data_dir, database_url, |_| {}).await
}

/// Starts the app with a fresh database whose ledger starts empty: the spot market maker gets no
/// inventory (so it quotes nothing), for tests that count every entry and house balance.
pub async fn spawn_app_with_empty_ledger() -> TestApp {
    spawn_app_with(|config| config.trading.market_maker_inventory = rust_decimal::Decimal::ZERO)
        .await
}

/// Starts the app on `data_dir` with `database_url` (see [`spawn_app_in`]) and the test
/// configuration changed by `configure`.
pub async fn spawn_app_in_with(
    data_dir: tempfile::TempDir,
    database_url: Option<(String, String)>,
    configure: impl FnOnce(&mut Config),
) -> TestApp {
    spawn_app_configured(data_dir, database_url, configure).await
}

/// Starts the app with a fresh database and the test configuration changed by `configure`.
pub async fn spawn_app_with(configure: impl FnOnce(&mut Config)) -> TestApp {
    spawn_app_configured(
        tempfile::tempdir().expect("temporary folder"),
        None,
        configure,
    )
    .await
}

async fn spawn_app_configured(
    data_dir: tempfile::TempDir,
    database_url: Option<(String, String)>,
    configure: impl FnOnce(&mut Config),
) -> TestApp {
    let postgres = match database_url {
        Some(existing) => Some(existing),
        None => fresh_postgres_database().await,
    };
    let mut config = Config {
        host: "127.0.0.1".into(),
        port: 0,
        data_dir: data_dir.path().to_path_buf(),
        database_url: postgres
            .as_ref()
            .map(|(url, _)| url.clone())
            .unwrap_or_default(),
        webapp_dir: data_dir.path().join("webapp"),
        simulator: backend::config::SimulatorConfig {
            enabled: true,
            seed: 42,
            tick_ms: 50,
            ..Default::default()
        },
        ..Config::default()
    };
    configure(&mut config);
    let app = app::start(config).await.expect("the app starts");
    TestApp {
        base: format!("http://{}", app.addr),
        client: reqwest::Client::builder()
            .timeout(Duration::from_secs(20))
            .build()
            .expect("client"),
        app: Some(app),
        data_dir,
        postgres,
    }
}

/// Credits `amount` of `coin` to the user's funding bucket in `db` from the deposits-in-transit
/// house account: what a passed deposit does, without the review.
pub async fn credit_on(
    db: &sea_orm::DatabaseConnection,
    user_id: i64,
    coin: &str,
    amount: rust_decimal::Decimal,
) {
    let account = backend::funds::ledger::AccountRef::funding(user_id);
    credit_account_on(db, user_id, account, coin, amount).await;
}

/// [`credit_on`] into `account` of the user (a deposit and a transfer there).
pub async fn credit_account_on(
    db: &sea_orm::DatabaseConnection,
    user_id: i64,
    account: backend::funds::ledger::AccountRef,
    coin: &str,
    amount: rust_decimal::Decimal,
) {
    use backend::funds::ledger::{self, AccountRef, House, NewEntry, Posting};
    let entry = NewEntry {
        kind: "deposit".into(),
        reference: "test".into(),
        user_id: Some(user_id),
        actor_id: None,
        memo: String::new(),
        postings: Posting::transfer(
            AccountRef::House(House::DepositsInTransit),
            account,
            coin,
            amount,
        )
        .to_vec(),
    };
    ledger::post(db, &entry).await.expect("credited");
}

/// Sends `count` BTC/USDT limit orders of 0.01 — buys and sells a few ticks around 50,000, from
/// `members` in turn, so many cross — all at once without waiting; each task answers its status
/// (`None` when the server went away first).
pub fn crossing_orders_in_flight(
    app: &TestApp,
    members: &[Member],
    count: usize,
) -> Vec<tokio::task::JoinHandle<Option<u16>>> {
    (0..count)
        .map(|n| {
            let side = if n % 2 == 0 { "buy" } else { "sell" };
            let price = 50000 + (n as i64 % 9) * 10 - 40;
            let body = serde_json::json!({"symbol": "btcusdt", "side": side, "orderType": "limit",
                "price": price.to_string(), "quantity": "0.01"})
            .to_string();
            let request = app
                .client
                .post(format!("{}/api/currency/order/submit", app.base))
                .header("satoken", members[n % members.len()].token.clone())
                .header("content-type", "application/json")
                .body(body);
            tokio::spawn(async move { request.send().await.map(|r| r.status().as_u16()).ok() })
        })
        .collect()
}

/// How many of the orders in `flight` were accepted (200).
pub async fn accepted(flight: Vec<tokio::task::JoinHandle<Option<u16>>>) -> usize {
    let mut accepted = 0;
    for task in flight {
        if let Ok(Some(200)) = task.await {
            accepted += 1;
        }
    }
    accepted
}

/// A client of a server run as its own process (`backend serve`), with the process's data: a
/// [`TestApp`] without the in-process app (its `member`, `post…` and `get…` work; `db()` does not).
pub fn external_app(
    base: String,
    data_dir: tempfile::TempDir,
    postgres: Option<(String, String)>,
) -> TestApp {
    TestApp {
        base,
        client: reqwest::Client::builder()
            .timeout(Duration::from_secs(20))
            .build()
            .expect("client"),
        app: None,
        data_dir,
        postgres,
    }
}

/// A new PostgreSQL database with every migration applied when `TEST_POSTGRES_URL` is set:
/// `(url, name)`. It is a copy of [`migrated_template`] (`CREATE DATABASE … TEMPLATE`): copying
/// files is far quicker than running every migration again for each of a few hundred tests.
pub async fn fresh_postgres_database() -> Option<(String, String)> {
    let admin_url = std::env::var("TEST_POSTGRES_URL").ok()?;
    let template = MIGRATED_TEMPLATE
        .get_or_init(|| migrated_template(&admin_url))
        .await;
    let name = format!("kestrel_test_{:016x}", rand::rng().random::<u64>());
    let admin = Database::connect(&admin_url)
        .await
        .expect("PostgreSQL answers");
    admin
        .execute_unprepared(&format!("CREATE DATABASE {name} TEMPLATE {template}"))
        .await
        .expect("create the test database");
    // A test's commits need not survive a crash of the server: not waiting for the WAL to reach
    // the disk on every commit spares the suite much of its waiting (this database only).
    admin
        .execute_unprepared(&format!(
            "ALTER DATABASE {name} SET synchronous_commit = off"
        ))
        .await
        .expect("set the test database's commit mode");
    admin.close().await.ok();
    Some((format!("{}/{name}", server_url(&admin_url)), name))
}

/// The template of this run's test databases, made once per process.
static MIGRATED_TEMPLATE: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();

/// The name of a database holding every migration and nothing else, made when missing: named
/// after the migrations, so a new one makes a new template (and the old ones are dropped). It is
/// migrated under a temporary name and renamed when done, so a run stopped halfway never leaves a
/// half-migrated template behind.
async fn migrated_template(admin_url: &str) -> String {
    use migration::MigratorTrait;
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for migration in migration::Migrator::migrations() {
        migration.name().hash(&mut hasher);
    }
    let template = format!("kestrel_tmpl_{:016x}", hasher.finish());
    let admin = Database::connect(admin_url)
        .await
        .expect("PostgreSQL answers");
    let exists = |name: String| {
        let admin = &admin;
        async move {
            admin
                .query_one_raw(sea_orm::Statement::from_string(
                    admin.get_database_backend(),
                    format!("SELECT 1 FROM pg_database WHERE datname = '{name}'"),
                ))
                .await
                .expect("list the databases")
                .is_some()
        }
    };
    if !exists(template.clone()).await {
        let building = format!("{template}_{:08x}", rand::rng().random::<u32>());
        admin
            .execute_unprepared(&format!("CREATE DATABASE {building}"))
            .await
            .expect("create the template");
        let db = Database::connect(format!("{}/{building}", server_url(admin_url)))
            .await
            .expect("PostgreSQL answers");
        migration::Migrator::up(&db, None)
            .await
            .expect("migrate the template");
        db.close().await.ok();
        let renamed = admin
            .execute_unprepared(&format!("ALTER DATABASE {building} RENAME TO {template}"))
            .await;
        if renamed.is_err() {
            // Another test process made it meanwhile.
            admin
                .execute_unprepared(&format!("DROP DATABASE IF EXISTS {building} WITH (FORCE)"))
                .await
                .ok();
        }
        let stale = admin
            .query_all_raw(sea_orm::Statement::from_string(
                admin.get_database_backend(),
                format!(
                    "SELECT datname FROM pg_database WHERE datname LIKE 'kestrel\\_tmpl\\_%' \
                     AND datname NOT LIKE '{template}%'"
                ),
            ))
            .await
            .unwrap_or_default();
        for row in stale {
            if let Ok(name) = row.try_get::<String>("", "datname") {
                admin
                    .execute_unprepared(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                    .await
                    .ok();
            }
        }
    }
    admin.close().await.ok();
    template
}

/// `postgres://user:password@host:port`: `admin_url` without its database.
fn server_url(admin_url: &str) -> &str {
    admin_url
        .rsplit_once('/')
        .map_or(admin_url, |(base, _)| base)
}

impl TestApp {
    /// `POST path` with `body` (JSON) and `headers`; returns the status and the parsed body.
    pub async fn post(
        &self,
        path: &str,
        body: Option<&str>,
        headers: &[(&str, &str)],
    ) -> (u16, Value) {
        let mut request = self.client.post(format!("{}{path}", self.base));
        if let Some(body) = body {
            request = request
                .header("content-type", "application/json")
                .body(body.to_owned());
        }
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let response = request.send().await.expect("the request is answered");
        let status = response.status().as_u16();
        let text = response.text().await.expect("a body");
        let value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}"));
        (status, value)
    }

    /// `POST path` with `body` (JSON) as the logged-in `token` (`satoken` header).
    pub async fn post_as(&self, token: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let body = body.map(|b| b.to_string());
        self.post(path, body.as_deref(), &[("satoken", token)])
            .await
    }

    /// `GET path` as the logged-in `token`: the status and the parsed body.
    pub async fn get_as(&self, token: &str, path: &str) -> (u16, Value) {
        let response = self
            .client
            .get(format!("{}{path}", self.base))
            .header("satoken", token)
            .send()
            .await
            .expect("the request is answered");
        let status = response.status().as_u16();
        let text = response.text().await.expect("a body");
        let value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}"));
        (status, value)
    }

    /// The dev outbox's messages to `to`, newest first.
    pub async fn outbox(&self, to: &str) -> Vec<Value> {
        let (status, _, text) = self
            .get(&format!("/api/dev/outbox?to={}", urlencode(to)))
            .await;
        assert_eq!(status, 200, "{text}");
        let body: Value = serde_json::from_str(&text).expect("JSON");
        body["data"].as_array().cloned().unwrap_or_default()
    }

    /// Waits (polling, at most 10 s: notices are delivered in the background) until the outbox
    /// holds a message to `to` whose subject is `subject`, and answers the messages with that
    /// subject.
    pub async fn mail_arrived(&self, to: &str, subject: &str) -> Vec<Value> {
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let found: Vec<Value> = self
                .outbox(to)
                .await
                .into_iter()
                .filter(|message| message["subject"] == subject)
                .collect();
            if !found.is_empty() {
                return found;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "no {subject:?} for {to}: {:?}",
                self.outbox(to).await
            );
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }

    /// The newest message the dev outbox holds for `to`.
    pub async fn last_message(&self, to: &str) -> Value {
        let (status, _, text) = self
            .get(&format!("/api/dev/outbox?to={}", urlencode(to)))
            .await;
        assert_eq!(status, 200, "{text}");
        let body: Value = serde_json::from_str(&text).expect("JSON");
        body["data"][0].clone()
    }

    /// The six-digit code in the newest message for `to` that has one (a security notice, sent in
    /// the background, may have arrived after the code).
    pub async fn last_code(&self, to: &str) -> String {
        self.code_after(to, 0).await
    }

    /// The id of the newest message for `to`, or 0.
    pub async fn last_message_id(&self, to: &str) -> i64 {
        self.last_message(to).await["id"].as_i64().unwrap_or(0)
    }

    /// The six-digit code in the newest message for `to` after message `after` that has one.
    pub async fn code_after(&self, to: &str, after: i64) -> String {
        let (status, _, text) = self
            .get(&format!("/api/dev/outbox?to={}", urlencode(to)))
            .await;
        assert_eq!(status, 200, "{text}");
        let body: Value = serde_json::from_str(&text).expect("JSON");
        let messages = body["data"].as_array().cloned().unwrap_or_default();
        assert!(!messages.is_empty(), "no message for {to}");
        messages
            .iter()
            .filter(|message| message["id"].as_i64().unwrap_or(0) > after)
            .filter_map(|message| message["body"].as_str())
            .find_map(|body| {
                body.split(|c: char| !c.is_ascii_digit())
                    .find(|word| word.len() == 6)
            })
            .unwrap_or_else(|| panic!("no code in the messages for {to}: {messages:?}"))
            .to_owned()
    }

    /// Registers `account` with [`PASSWORD`] (code from the outbox) and logs in.
    pub async fn member(&self, account: &str) -> Member {
        let (status, body) = self
            .post(
                "/api/user/sendEmailCode",
                Some(&serde_json::json!({"account": account, "type": "register"}).to_string()),
                &[],
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let code = self.last_code(account).await;
        let (status, body) = self
            .post(
                "/api/user/register",
                Some(
                    &serde_json::json!({"account": account, "password": PASSWORD,
                        "confirmPassword": PASSWORD, "code": code})
                    .to_string(),
                ),
                &[],
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let user_id = body["data"]["userId"].as_i64().expect("userId");
        let token = self.login(account, PASSWORD).await;
        Member {
            user_id,
            token,
            account: account.to_owned(),
        }
    }

    /// Logs `account` in and returns the token.
    pub async fn login(&self, account: &str, password: &str) -> String {
        let (status, body) = self
            .post(
                "/api/user/login",
                Some(&serde_json::json!({"account": account, "password": password}).to_string()),
                &[],
            )
            .await;
        assert_eq!(status, 200, "{body}");
        body["data"]["satoken"]
            .as_str()
            .expect("satoken")
            .to_owned()
    }

    /// `GET path`: the status, content type and text.
    pub async fn get(&self, path: &str) -> (u16, String, String) {
        let response = self
            .client
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("the request is answered");
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        (status, content_type, response.text().await.expect("a body"))
    }

    /// Opens the market channel (`query` is appended to the URL, e.g. `?lang=de`).
    pub async fn market_channel(&self, query: &str) -> Channel {
        self.channel(&format!("/ws/market/test-client{query}"))
            .await
    }

    /// Opens the business notice channel.
    pub async fn notice_channel(&self) -> Channel {
        self.channel("/ws/business/notice").await
    }

    /// Opens the WebSocket at `path`.
    pub async fn channel(&self, path: &str) -> Channel {
        let url = format!("{}{path}", self.base.replace("http://", "ws://"));
        let (socket, _) = tokio_tungstenite::connect_async(url)
            .await
            .unwrap_or_else(|e| panic!("{path} opens: {e}"));
        Channel { socket }
    }

    /// The app's database URL (SQLite file or PostgreSQL), for running the CLI against it.
    pub fn database_url(&self) -> String {
        self.state().config.effective_database_url()
    }

    /// The shared state of the running app.
    pub fn state(&self) -> &backend::app::AppState {
        &self.app.as_ref().expect("running").state
    }

    /// The folder of the app's data.
    pub fn data_dir(&self) -> &std::path::Path {
        self.data_dir.path()
    }

    /// The database of the running app.
    pub fn db(&self) -> &sea_orm::DatabaseConnection {
        &self.app.as_ref().expect("running").state.db
    }

    /// Credits `amount` of `coin` to the user's funding bucket (see [`credit_on`]).
    pub async fn credit(&self, user_id: i64, coin: &str, amount: rust_decimal::Decimal) {
        credit_on(self.db(), user_id, coin, amount).await;
    }

    /// Stops the app and keeps its data, returning what [`spawn_app_in`] needs to start it again.
    pub async fn stop_keeping_data(mut self) -> (tempfile::TempDir, Option<(String, String)>) {
        if let Some(app) = self.app.take() {
            app.stop().await;
        }
        let postgres = self.postgres.take();
        let dir = std::mem::replace(
            &mut self.data_dir,
            tempfile::tempdir().expect("temporary folder"),
        );
        (dir, postgres)
    }

    /// Stops the app and removes its database.
    pub async fn stop(mut self) {
        if let Some(app) = self.app.take() {
            app.stop().await;
        }
        if let (Some((_, name)), Ok(admin_url)) =
            (self.postgres.take(), std::env::var("TEST_POSTGRES_URL"))
        {
            let admin = Database::connect(&admin_url)
                .await
                .expect("PostgreSQL answers");
            // An autovacuum worker (run by the server's own role) may still be busy with the
            // database after a write-heavy test; FORCE cannot end it, so wait for it a little.
            let mut attempts = 0;
            while let Err(error) = admin
                .execute_unprepared(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                .await
            {
                attempts += 1;
                assert!(attempts < 50, "drop the test database: {error}");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }
}

/// The fund password the tests set.
pub const FUND_PASSWORD: &str = "Fund#2026";

/// Sends a security code to `member`'s own e-mail address (or phone) and reads it from the dev
/// outbox (the resend window is cleared first, so tests may ask again at once).
pub async fn security_code(app: &TestApp, member: &Member) -> String {
    app.state()
        .limiter
        .clear(&format!("code:target:{}", member.account));
    let after = app.last_message_id(&member.account).await;
    let channel = if member.account.contains('@') {
        "email"
    } else {
        "sms"
    };
    let (status, body) = app
        .get_as(
            &member.token,
            &format!("/api/coin/coin/open/send/{channel}?purpose=security"),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    app.code_after(&member.account, after).await
}

/// Confirms `member`'s session with the login password and a security code (2FA off).
pub async fn confirm_identity(app: &TestApp, member: &Member) {
    let code = security_code(app, member).await;
    let (status, body) = app
        .post_as(
            &member.token,
            "/api/coin/coin/member/reauth",
            Some(serde_json::json!({"password": PASSWORD, "securityCode": code})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
}

/// Sets the member's fund password (after confirming the session).
pub async fn set_fund_password(app: &TestApp, member: &Member) {
    confirm_identity(app, member).await;
    let (status, body) = app
        .post_as(
            &member.token,
            "/api/coin/coin/member/tradePwd",
            Some(serde_json::json!({"password": FUND_PASSWORD, "confirmPassword": FUND_PASSWORD})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
}

/// What `N` concurrent requests that each try to spend the whole balance were answered:
/// `(successes, refusals with reason refusal, busy answers)`. Busy answers (503 `service_busy`:
/// no database connection in time; 503 `ledger_busy`: too many lost races) are what an
/// overloaded machine gives instead of a refusal: they changed nothing, which the callers check
/// through the balances and the audit. Any other answer fails the test.
pub fn race_outcome(answers: &[(u16, Value)], refusal: &str) -> (usize, usize, usize) {
    let reason = |body: &Value| {
        body["data"]["reason"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    let (mut ok, mut refused, mut busy) = (0, 0, 0);
    for (status, body) in answers {
        match (*status, reason(body).as_str()) {
            (200, _) => ok += 1,
            (400, found) if found == refusal => refused += 1,
            (503, "service_busy" | "ledger_busy") => busy += 1,
            _ => panic!("an unexpected answer to a racing request: {status} {body}"),
        }
    }
    (ok, refused, busy)
}

/// The password [`TestApp::member`] registers with (rule A).
pub const PASSWORD: &str = "Secret123";

/// A registered, logged-in user.
#[derive(Clone)]
pub struct Member {
    /// User id.
    pub user_id: i64,
    /// Session token.
    pub token: String,
    /// The e-mail or phone it registered with.
    pub account: String,
}

/// Percent-encodes a query value.
pub fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A market-channel connection.
pub struct Channel {
    socket: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
}

impl Channel {
    /// Sends a JSON text frame.
    pub async fn send(&mut self, value: Value) {
        self.socket
            .send(Message::Text(value.to_string().into()))
            .await
            .expect("the frame is sent");
    }

    /// The next JSON message, waiting at most 10 s.
    pub async fn next(&mut self) -> Value {
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(10), self.socket.next())
                .await
                .expect("a message within 10 s")
                .expect("the channel is open")
                .expect("a frame");
            if let Message::Text(text) = frame {
                return serde_json::from_str(text.as_str()).expect("JSON");
            }
        }
    }

    /// Waits (at most 10 s) for the server to close the channel; its close code, if it sent one.
    pub async fn closed(&mut self) -> Option<u16> {
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(10), self.socket.next())
                .await
                .expect("closed within 10 s");
            match frame {
                Some(Ok(Message::Close(close))) => return close.map(|c| c.code.into()),
                Some(Ok(_)) => continue,
                None | Some(Err(_)) => return None,
            }
        }
    }

    /// The next message whose `type` is `kind`, skipping others (at most 200).
    pub async fn next_of(&mut self, kind: &str) -> Value {
        for _ in 0..200 {
            let message = self.next().await;
            if message["type"] == kind {
                return message;
            }
        }
        panic!("no {kind} message among the next 200");
    }
}
