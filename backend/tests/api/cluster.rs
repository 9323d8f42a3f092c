//! Cluster mode (docs/operations.md, "Cluster mode"): several instances on one PostgreSQL database
//! and one NATS server with JetStream. The plain runs (`make test-rust`, `test-postgres`) leave this
//! module (`--skip cluster::`) to `make test-cluster` (`scripts/test-cluster.sh`), which installs
//! and starts both: a real `nats-server` (JetStream, a temporary store, a free port) and three
//! in-process instances.
//!
//! - Exactly one instance runs the market simulator (the others' tickers stand still and every
//!   stored tick's sequence number is unique); when it stops, another takes over within seconds.
//! - A job's NATS lease is held by one instance per period, renewed by it while it lives and taken
//!   over when it stops.
//! - Cluster mode over SQLite refuses to start.
//! - Spot pairs (three `backend serve` processes): one owner per pair; orders and cancellations
//!   through every instance reach it; its `kill -9` mid-load hands the pair to another instance
//!   within 5 s, with no acknowledged order lost or placed twice, the book equal to the open
//!   orders and the audit clean.
//! - The live channels go through NATS: a client of another instance than the simulating one gets
//!   every depth diff in sequence and every trade once, and that instance's book, built from the
//!   diffs, is the owner's at each seq; a user channel gets the order events of
//!   an order placed through another instance; a notice reaches every instance's notice sockets.
//! - Shared state: login failures spread over the instances count as one; so do a burst of
//!   code-sending events and of support chat messages spread over them; a logout through one
//!   instance ends the session on every instance at once.
//! - Spreading: three `backend serve` processes started one after another end up owning at most
//!   ceil(pairs / 3) spot pairs each, while orders on every pair are answered during the moves.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use backend::app::{self, StartError};
use backend::cluster::{Bus, NatsLease};
use backend::config::{ClusterConfig, Config};
use backend::lease::Lease;
use sea_orm::{ConnectionTrait, Statement};

use crate::helpers::{PASSWORD, TestApp, fresh_postgres_database, spawn_app_in_with};

mod limits;
mod spread;

/// A `nats-server` with JetStream on a free loopback port, stopped (killed) when dropped.
struct Nats {
    url: String,
    child: Child,
    _store: tempfile::TempDir,
}

impl Nats {
    /// Starts the binary of `TEST_NATS_SERVER`, or the one `scripts/bootstrap.sh --nats`
    /// installs, and waits until it answers.
    async fn start() -> Self {
        let binary = std::env::var("TEST_NATS_SERVER").unwrap_or_else(|_| {
            format!(
                "{}/../target/tools/nats/bin/nats-server",
                env!("CARGO_MANIFEST_DIR")
            )
        });
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .map(|addr| addr.port())
            .expect("a free port");
        let store = tempfile::tempdir().expect("temporary folder");
        let child = Command::new(&binary)
            .args(["--jetstream", "--addr", "127.0.0.1", "--port"])
            .arg(port.to_string())
            .arg("--store_dir")
            .arg(store.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|error| {
                panic!("{binary} starts ({error}): run `scripts/bootstrap.sh --nats`")
            });
        let nats = Self {
            url: format!("nats://127.0.0.1:{port}"),
            child,
            _store: store,
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "nats-server did not come up");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        nats
    }

    fn cluster(&self, instance: &str) -> ClusterConfig {
        ClusterConfig {
            nats_url: self.url.clone(),
            instance: instance.into(),
        }
    }
}

impl Drop for Nats {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The shared PostgreSQL database (`TEST_POSTGRES_URL` must be set: `make test-cluster`).
async fn shared_database() -> (String, String) {
    fresh_postgres_database()
        .await
        .expect("TEST_POSTGRES_URL names a PostgreSQL server (make test-cluster)")
}

/// Instances of the cluster named `names` on `database`, started one after another; each runs
/// the market simulator when `simulator` (otherwise nothing moves but what a test does).
async fn instances(
    nats: &Nats,
    database: &(String, String),
    names: &[&str],
    simulator: bool,
) -> Vec<TestApp> {
    let mut apps = Vec::new();
    for name in names {
        let cluster = nats.cluster(name);
        let app = spawn_app_in_with(
            tempfile::tempdir().expect("temporary folder"),
            Some(database.clone()),
            move |config| {
                config.cluster = cluster;
                config.simulator.enabled = simulator;
            },
        )
        .await;
        apps.push(app);
    }
    apps
}

/// The time of the latest BTC/USDT ticker in `app`'s hub (`None`: it never had one).
fn ticker_ts(app: &TestApp) -> Option<i64> {
    app.state().hub.ticker("btcusdt").map(|ticker| ticker.ts)
}

/// The index of the instance that holds the simulator's lease once its hub's ticker moves 10
/// ticks past `after` and past every other instance's, waiting up to `within` (a simulator that
/// starts publishes a first ticker; the other instances' hubs follow it through NATS, so the
/// holder is read from the lease).
async fn simulating(nats: &Nats, apps: &[&TestApp], after: i64, within: Duration) -> usize {
    let deadline = Instant::now() + within;
    let after = apps
        .iter()
        .filter_map(|app| ticker_ts(app))
        .fold(after, i64::max)
        + 500;
    loop {
        if apps
            .iter()
            .any(|app| ticker_ts(app).is_some_and(|ts| ts > after))
        {
            let holder = simulator_holder(nats).await;
            if let Some(index) = apps.iter().position(|app| {
                Some(&app.state().config.cluster.instance) == holder.as_ref()
                    && ticker_ts(app).is_some_and(|ts| ts > after)
            }) {
                return index;
            }
        }
        assert!(
            Instant::now() < deadline,
            "no instance simulated within {within:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The name of the instance holding the market simulator's lease (`None`: nobody does).
async fn simulator_holder(nats: &Nats) -> Option<String> {
    let bus = Bus::connect(&nats.cluster("probe"))
        .await
        .expect("NATS answers");
    // The tests tick every 50 ms: the lease lasts 3 s (simulator_owner::lease_ttl_ms).
    let store = bus
        .jetstream()
        .get_key_value("kestrel_leases_3000ms")
        .await
        .ok()?;
    let entry = store.get("market_simulator").await.ok()??;
    let holder = String::from_utf8(entry.to_vec()).ok()?;
    holder.split('#').next().map(str::to_owned)
}

/// How many `(symbol, seq)` of the stored ticks occur more than once (two simulators at once).
async fn duplicate_ticks(app: &TestApp) -> i64 {
    let row = app
        .db()
        .query_one_raw(Statement::from_string(
            app.db().get_database_backend(),
            "SELECT COUNT(*) AS n FROM (SELECT symbol, seq FROM market_tick \
             GROUP BY symbol, seq HAVING COUNT(*) > 1) AS twice",
        ))
        .await
        .expect("count the ticks")
        .expect("one row");
    row.try_get::<i64>("", "n").expect("a count")
}

/// Lets `ticks` more ticks of the owner pass (50 ms each in the tests).
async fn let_ticks_pass(owner: &TestApp, ticks: i64) {
    let from = ticker_ts(owner).expect("the owner has a ticker");
    let deadline = Instant::now() + Duration::from_secs(10);
    while ticker_ts(owner).is_none_or(|ts| ts < from + ticks * 50) {
        assert!(Instant::now() < deadline, "the owner stopped ticking");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn one_instance_simulates_and_another_takes_over_when_it_stops() {
    let nats = Nats::start().await;
    let database = shared_database().await;
    let mut apps = instances(&nats, &database, &["a", "b", "c"], true).await;

    let owner = simulating(
        &nats,
        &apps.iter().collect::<Vec<_>>(),
        0,
        Duration::from_secs(10),
    )
    .await;
    let_ticks_pass(&apps[owner], 20).await;
    assert_eq!(
        simulator_holder(&nats).await.as_ref(),
        Some(&apps[owner].state().config.cluster.instance),
        "the lease changed hands while its holder lived"
    );
    assert_eq!(
        duplicate_ticks(&apps[owner]).await,
        0,
        "two simulators wrote ticks"
    );

    // The owner stops without giving its lease back (as if it died): another instance takes over
    // once the lease expires (3 s) and continues the series from the database.
    let last = ticker_ts(&apps[owner]).expect("a ticker");
    let stopped = apps.remove(owner);
    let (_dir, _) = stopped.stop_keeping_data().await;
    let since = Instant::now();
    let next = simulating(
        &nats,
        &apps.iter().collect::<Vec<_>>(),
        last,
        Duration::from_secs(10),
    )
    .await;
    let takeover = since.elapsed();
    assert!(
        takeover < Duration::from_secs(8),
        "the takeover took {takeover:?}"
    );
    let_ticks_pass(&apps[next], 20).await;
    assert_eq!(
        simulator_holder(&nats).await.as_ref(),
        Some(&apps[next].state().config.cluster.instance),
        "two instances simulate"
    );
    assert_eq!(
        duplicate_ticks(&apps[next]).await,
        0,
        "two simulators wrote ticks"
    );

    let last_app = apps.pop().expect("two left");
    let (_dir, _) = apps.pop().expect("one left").stop_keeping_data().await;
    last_app.stop().await;
}

#[tokio::test]
async fn a_periodic_job_runs_on_one_instance_per_period() {
    let nats = Nats::start().await;
    let mut leases = Vec::new();
    for name in ["a", "b", "c"] {
        let bus = Bus::connect(&nats.cluster(name))
            .await
            .expect("NATS answers");
        leases.push(Arc::new(NatsLease::new(bus, "test_job", 1_000)));
    }
    let round = |leases: &[Arc<NatsLease>]| {
        let leases = leases.to_vec();
        async move {
            let tries = leases.iter().map(|lease| {
                let lease = lease.clone();
                tokio::spawn(async move { lease.acquire().await.expect("NATS answers") })
            });
            let mut held = Vec::new();
            for (index, task) in tries.enumerate() {
                if task.await.expect("joined") {
                    held.push(index);
                }
            }
            held
        }
    };

    // Every instance tries each period, all at once: one runs the job, the same one every period.
    let first = round(&leases[..]).await;
    assert_eq!(first.len(), 1, "holders of one period: {first:?}");
    let token = leases[first[0]].token().expect("a fencing token");
    for _ in 0..10 {
        assert_eq!(round(&leases[..]).await, first);
    }
    assert!(leases[first[0]].token().expect("held") > token);

    // The holder stops: the lease expires (1 s) and exactly one of the others takes it.
    let rest: Vec<Arc<NatsLease>> = leases
        .iter()
        .enumerate()
        .filter(|(index, _)| *index != first[0])
        .map(|(_, lease)| lease.clone())
        .collect();
    let deadline = Instant::now() + Duration::from_secs(5);
    let next = loop {
        let held = round(&rest[..]).await;
        assert!(held.len() <= 1, "two holders at once: {held:?}");
        if let Some(&index) = held.first() {
            break index;
        }
        assert!(Instant::now() < deadline, "nobody took the lease over");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert!(rest[next].token().expect("held") > token);
    // The old holder, back, finds it taken and does not run.
    assert!(!leases[first[0]].acquire().await.expect("NATS answers"));
}

#[tokio::test]
async fn cluster_mode_over_sqlite_refuses_to_start() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let config = Config {
        port: 0,
        data_dir: dir.path().to_path_buf(),
        cluster: ClusterConfig {
            nats_url: "nats://127.0.0.1:1".into(),
            instance: "a".into(),
        },
        ..Config::default()
    };
    let error = app::start(config).await.err().expect("refused");
    assert!(matches!(error, StartError::Cluster(_)), "{error}");
    assert!(error.to_string().contains("PostgreSQL"), "{error}");
}

/// Stops every instance of `apps`.
async fn stop_all(apps: Vec<TestApp>) {
    for app in apps {
        app.stop().await;
    }
}

#[tokio::test]
async fn a_client_on_another_instance_gets_every_depth_diff_and_trade_in_order() {
    let nats = Nats::start().await;
    let database = shared_database().await;
    let apps = instances(&nats, &database, &["a", "b"], true).await;
    let owner = simulating(
        &nats,
        &apps.iter().collect::<Vec<_>>(),
        0,
        Duration::from_secs(10),
    )
    .await;
    // A client of an instance that does not simulate: the book and trades are produced on the
    // owner and reach this instance through NATS only.
    let reader = &apps[(owner + 1) % apps.len()];
    let deadline = Instant::now() + Duration::from_secs(5);
    while reader.state().hub.book("solusdt").is_none() {
        assert!(
            Instant::now() < deadline,
            "the owner's book never reached another instance"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut channel = reader.market_channel("").await;
    channel
        .send(serde_json::json!({"op": "subscribe", "channel": "trade", "symbol": "solusdt"}))
        .await;
    channel
        .send(serde_json::json!({"op": "subscribe", "channel": "depth", "symbol": "solusdt"}))
        .await;
    let (mut seq, mut diffs) = (None::<u64>, 0);
    let (mut last_trade, mut trades) = (None::<u64>, 0);
    for _ in 0..5_000 {
        if diffs >= 40 && trades >= 3 {
            break;
        }
        let message = channel.next().await;
        let data = &message["data"];
        match message["type"].as_str() {
            Some("depth") if data["kind"] == "snapshot" => seq = data["seq"].as_u64(),
            Some("depth") => {
                let held = seq.expect("a snapshot before the diffs");
                // Every diff follows the one before: no gap, no diff twice.
                assert_eq!(data["prevSeq"].as_u64(), Some(held), "{message}");
                seq = data["seq"].as_u64();
                diffs += 1;
            }
            Some("TRADE") if message["snapshot"] == true => {
                last_trade = data
                    .as_array()
                    .expect("trades")
                    .iter()
                    .filter_map(|trade| trade["id"].as_u64())
                    .max();
            }
            Some("TRADE") => {
                for trade in data.as_array().expect("trades") {
                    let id = trade["id"].as_u64().expect("an id");
                    assert!(
                        last_trade.is_none_or(|last| id > last),
                        "trade {id} after {last_trade:?}: {message}"
                    );
                    last_trade = Some(id);
                    trades += 1;
                }
            }
            _ => {}
        }
    }
    assert!(diffs >= 40 && trades >= 3, "{diffs} diffs, {trades} trades");
    // The reader's book is built from the diffs alone (the book travels whole only now and
    // then): whenever it is at the owner's seq, it has the owner's levels.
    let mut seen = std::collections::BTreeSet::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while seen.len() < 20 {
        let theirs = apps[owner].state().hub.book("solusdt");
        let mine = reader.state().hub.book("solusdt");
        if let (Some(mine), Some(theirs)) = (mine, theirs)
            && mine.seq == theirs.seq
        {
            assert_eq!(mine, theirs, "the reader's book at seq {}", mine.seq);
            seen.insert(mine.seq);
        }
        assert!(
            Instant::now() < deadline,
            "at the owner's seq only {seen:?}"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    stop_all(apps).await;
}

#[tokio::test]
async fn a_user_channel_on_another_instance_gets_the_order_events() {
    let nats = Nats::start().await;
    let database = shared_database().await;
    let apps = instances(&nats, &database, &["a", "b"], false).await;
    let member = apps[0].member("cluster-push@example.com").await;
    apps[0]
        .credit(member.user_id, "usdt", rust_decimal::Decimal::from(1000))
        .await;
    let mut channel = apps[1]
        .channel(&format!(
            "/ws/user/push/{}?satoken={}",
            member.user_id, member.token
        ))
        .await;
    channel.next_of("au").await;
    let (status, body) = apps[0]
        .post_as(
            &member.token,
            "/api/currency/order/submit",
            Some(
                serde_json::json!({"symbol": "btcusdt", "side": "buy", "orderType": "limit",
                "price": "40000", "quantity": "0.01"}),
            ),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let placed = channel.next_of("order").await;
    assert_eq!(placed["data"]["id"], body["data"]["id"], "{placed}");
    assert_eq!(placed["data"]["status"], "waitDeal", "{placed}");
    stop_all(apps).await;
}

#[tokio::test]
async fn a_notice_published_on_one_instance_reaches_the_others() {
    let nats = Nats::start().await;
    let database = shared_database().await;
    let apps = instances(&nats, &database, &["a", "b"], false).await;
    let mut here = apps[0].notice_channel().await;
    let mut there = apps[1].notice_channel().await;
    apps[0]
        .state()
        .hub
        .publish_notice("CLUSTER_TEST", &serde_json::json!({"n": 1}));
    apps[0]
        .state()
        .hub
        .publish_notice("CLUSTER_TEST", &serde_json::json!({"n": 2}));
    for channel in [&mut here, &mut there] {
        // Each once, in order (the publisher's own clients do not get its NATS echo).
        assert_eq!(channel.next_of("CLUSTER_TEST").await["data"]["n"], 1);
        assert_eq!(channel.next_of("CLUSTER_TEST").await["data"]["n"], 2);
    }
    stop_all(apps).await;
}

#[tokio::test]
async fn a_logout_on_one_instance_ends_the_session_on_every_instance_at_once() {
    let nats = Nats::start().await;
    let database = shared_database().await;
    let apps = instances(&nats, &database, &["a", "b", "c"], false).await;
    let member = apps[0].member("cluster-logout@example.com").await;
    let cancel = "/api/currency/order/cancelOrder?id=987654";
    for app in &apps[1..] {
        // A cached call: the session is in that instance's cache now.
        let (status, body) = app.post_as(&member.token, cancel, None).await;
        assert_ne!(status, 401, "{body}");
    }
    let mut channel = apps[1]
        .channel(&format!(
            "/ws/user/push/{}?satoken={}",
            member.user_id, member.token
        ))
        .await;
    // The channel checked the session (its first message follows the check).
    channel.next_of("au").await;

    let (status, body) = apps[0]
        .post_as(&member.token, "/api/user/logout", None)
        .await;
    assert_eq!(status, 200, "{body}");
    let since = Instant::now();
    for app in &apps[1..] {
        let (status, body) = app.post_as(&member.token, cancel, None).await;
        assert_eq!(status, 401, "{body}");
    }
    // The user channel on another instance hears it at once, not at its next check (1 s).
    let ended = channel.next_of("USER_STATUS").await;
    assert_eq!(ended["data"]["status"], "session_revoked", "{ended}");
    assert_eq!(channel.closed().await, Some(4401));
    assert!(
        since.elapsed() < Duration::from_millis(500),
        "the other instance's channel ended after {:?}",
        since.elapsed()
    );
    stop_all(apps).await;
}

/// `POST /api/user/login` on `app`: the status and answer.
async fn login(app: &TestApp, account: &str, password: &str) -> (u16, serde_json::Value) {
    let body = serde_json::json!({"account": account, "password": password}).to_string();
    app.post("/api/user/login", Some(&body), &[]).await
}

#[tokio::test]
async fn login_failures_spread_over_the_instances_count_as_one() {
    let nats = Nats::start().await;
    let database = shared_database().await;
    let apps = instances(&nats, &database, &["a", "b", "c"], false).await;
    let member = apps[0].member("cluster-guess@example.com").await;
    // Five wrong passwords (the account's limit), spread over the three instances: at most two
    // on any one of them.
    for index in 0..5 {
        let (status, body) = login(&apps[index % 3], &member.account, "Wrong1234").await;
        assert_eq!(
            body["data"]["reason"], "invalid_credentials",
            "{status} {body}"
        );
    }
    // The cluster counted five: the right password now also needs a code, on every instance.
    for app in &apps {
        let (status, body) = login(app, &member.account, PASSWORD).await;
        assert_eq!(
            (status, body["data"]["reason"].as_str()),
            (400, Some("login_verification_required")),
            "{body}"
        );
    }
    stop_all(apps).await;
}

/// Three `backend serve` processes of one cluster (instances `a`, `b`, `c` on one PostgreSQL
/// database and one NATS server, no simulator), each killed (SIGKILL) when dropped (a panicking
/// test must not leave servers behind).
struct Processes {
    children: Vec<Option<Child>>,
    apps: Vec<TestApp>,
}

impl Processes {
    async fn start(nats: &Nats, database_url: &str) -> Self {
        let mut cluster = Self {
            children: Vec::new(),
            apps: Vec::new(),
        };
        // One after another, as a deployment rolls out (each start checks the migrations).
        for name in ["a", "b", "c"] {
            cluster.launch(nats, database_url, name).await;
        }
        cluster
    }

    /// Starts instance `name` and waits until it answers.
    async fn launch(&mut self, nats: &Nats, database_url: &str, name: &str) {
        let dir = tempfile::tempdir().expect("temporary folder");
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .map(|addr| addr.port())
            .expect("a free port");
        let child = Command::new(env!("CARGO_BIN_EXE_backend"))
            .arg("serve")
            .env("EXCHANGE_DATA_DIR", dir.path())
            .env("EXCHANGE_PORT", port.to_string())
            .env("EXCHANGE_SIM_ENABLED", "false")
            .env("EXCHANGE_WEBAPP_DIR", dir.path().join("webapp"))
            .env("EXCHANGE_LOG", "warn")
            .env("DATABASE_URL", database_url)
            .env("EXCHANGE_NATS_URL", &nats.url)
            .env("EXCHANGE_INSTANCE", name)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts");
        self.children.push(Some(child));
        let app = crate::helpers::external_app(format!("http://127.0.0.1:{port}"), dir, None);
        wait_until_up(&app).await;
        self.apps.push(app);
    }

    /// Kills instance `index` (SIGKILL: it gives nothing back, its leases expire).
    fn kill(&mut self, index: usize) {
        if let Some(mut child) = self.children[index].take() {
            child.kill().expect("SIGKILL");
            child.wait().expect("the instance ended");
        }
    }
}

impl Drop for Processes {
    fn drop(&mut self) {
        for index in 0..self.children.len() {
            self.kill(index);
        }
    }
}

async fn wait_until_up(app: &TestApp) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Ok(response) = app
            .client
            .post(format!("{}/api/common/getAllSetting", app.base))
            .send()
            .await
            && response.status().is_success()
        {
            return;
        }
        assert!(Instant::now() < deadline, "{} did not come up", app.base);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The instance (`a`, `b`, `c`) holding `symbol`'s spot lease, waiting up to `within` for one
/// other than `not`.
async fn spot_owner(bus: &Bus, symbol: &str, not: Option<&str>, within: Duration) -> String {
    let deadline = Instant::now() + Duration::from_secs(1) + within;
    let bucket = format!("kestrel_leases_{}ms", backend::spot::ownership::LEASE_MS);
    loop {
        if let Ok(store) = bus.jetstream().get_key_value(bucket.as_str()).await
            && let Ok(Some(holder)) = store
                .get(backend::spot::ownership::lease_name(symbol))
                .await
        {
            let holder = String::from_utf8_lossy(&holder).to_string();
            let instance = holder.split('#').next().unwrap_or_default().to_owned();
            if Some(instance.as_str()) != not {
                return instance;
            }
        }
        assert!(
            Instant::now() < deadline,
            "no owner of {symbol} within {within:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Places the `n`th order of the load (a BTC/USDT limit order of 0.01 a few ticks around 50,000,
/// so many cross) with its own idempotency key through instance `n % 3`, retrying with the same
/// key through the next live instance while it is not answered; its answer (the order), or `None`
/// when no instance acknowledged it.
async fn place(
    apps: Arc<Vec<(String, reqwest::Client)>>,
    dead: Arc<std::sync::Mutex<Option<usize>>>,
    token: String,
    n: usize,
) -> Option<serde_json::Value> {
    let side = if n.is_multiple_of(2) { "buy" } else { "sell" };
    let price = 50000 + (n as i64 % 9) * 10 - 40;
    let body = serde_json::json!({"symbol": "btcusdt", "side": side, "orderType": "limit",
        "price": price.to_string(), "quantity": "0.01"})
    .to_string();
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut attempt = n;
    while Instant::now() < deadline {
        let index = attempt % apps.len();
        attempt += 1;
        if *dead.lock().unwrap() == Some(index) {
            continue;
        }
        let (base, client) = &apps[index];
        let answer = client
            .post(format!("{base}/api/currency/order/submit"))
            .header("satoken", &token)
            .header("content-type", "application/json")
            .header("Idempotency-Key", format!("load-{n}"))
            .body(body.clone())
            .send()
            .await;
        if let Ok(response) = answer
            && response.status().as_u16() == 200
            && let Ok(value) = response.json::<serde_json::Value>().await
        {
            return Some(value["data"].clone());
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    None
}

/// The open BTC/USDT orders in the database aggregated per side and price, as the book shows
/// them: `(side, price, remaining quantity)`.
async fn open_levels(db: &sea_orm::DatabaseConnection) -> Vec<(String, String, String)> {
    use backend::entity::spot_order;
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    let rows = spot_order::Entity::find()
        .filter(spot_order::Column::Symbol.eq("btcusdt"))
        .filter(spot_order::Column::Status.is_in(["waitDeal", "partDeal"]))
        .all(db)
        .await
        .expect("open orders");
    let mut levels = std::collections::BTreeMap::<(String, String), rust_decimal::Decimal>::new();
    for row in rows {
        let price: rust_decimal::Decimal = row.price.as_deref().unwrap_or("0").parse().unwrap();
        let quantity: rust_decimal::Decimal =
            row.quantity.as_deref().unwrap_or("0").parse().unwrap();
        let filled: rust_decimal::Decimal = row.filled_quantity.parse().unwrap();
        *levels
            .entry((row.side.clone(), price.normalize().to_string()))
            .or_default() += quantity - filled;
    }
    levels
        .into_iter()
        .map(|((side, price), quantity)| (side, price, quantity.normalize().to_string()))
        .collect()
}

#[tokio::test]
async fn one_owner_per_spot_pair_takes_forwarded_orders_and_a_new_owner_serves_after_a_kill() {
    let nats = Nats::start().await;
    let database = shared_database().await;
    let mut cluster = Processes::start(&nats, &database.0).await;
    let bus = Bus::connect(&nats.cluster("test"))
        .await
        .expect("NATS answers");
    let db = sea_orm::Database::connect(database.0.clone())
        .await
        .expect("PostgreSQL answers");
    let owner_name = spot_owner(&bus, "btcusdt", None, Duration::from_secs(10)).await;
    let owner = ["a", "b", "c"]
        .iter()
        .position(|name| *name == owner_name)
        .expect("one of the three");
    let mut tokens = Vec::new();
    for n in 0..3 {
        let member = cluster.apps[0]
            .member(&format!("cluster-spot-{n}@example.com"))
            .await;
        crate::helpers::credit_on(
            &db,
            member.user_id,
            "usdt",
            rust_decimal_macros::dec!(100000),
        )
        .await;
        crate::helpers::credit_on(&db, member.user_id, "btc", rust_decimal_macros::dec!(10)).await;
        tokens.push(member.token);
    }
    let apps: Arc<Vec<(String, reqwest::Client)>> = Arc::new(
        cluster
            .apps
            .iter()
            .map(|app| (app.base.clone(), app.client.clone()))
            .collect(),
    );
    let dead = Arc::new(std::sync::Mutex::new(None));

    // Orders and cancellations through all three instances, before any kill: the non-owners
    // forward them and the owner's answers come back. The hop is timed.
    let mut hop = Vec::new();
    let mut direct = Vec::new();
    for n in 0..30 {
        let started = Instant::now();
        let order = place(apps.clone(), dead.clone(), tokens[n % 3].clone(), 1000 + n)
            .await
            .expect("acknowledged");
        let through = (1000 + n) % 3;
        if through == owner {
            direct.push(started.elapsed());
        } else {
            hop.push(started.elapsed());
        }
        assert_eq!(order["symbol"], "btcusdt", "{order}");
    }
    // A replay through another instance answers the first order and places nothing.
    let again = place(apps.clone(), dead.clone(), tokens[0].clone(), 1000).await;
    assert!(again.is_some_and(|order| order["symbol"] == "btcusdt"));
    let mut cancelled = 0;
    for (index, token) in tokens.iter().enumerate() {
        let (status, body) = cluster.apps[index]
            .post_as(
                token,
                "/api/currency/order/orderList?scope=current&pageSize=100",
                None,
            )
            .await;
        assert_eq!(status, 200, "{body}");
        if let Some(open) = body["data"]["records"].as_array().and_then(|r| r.first()) {
            let through = (index + 1) % 3;
            let (status, body) = cluster.apps[through]
                .post_as(
                    token,
                    &format!("/api/currency/order/cancelOrder?id={}", open["id"]),
                    None,
                )
                .await;
            assert_eq!(status, 200, "{body}");
            cancelled += 1;
        }
    }
    assert!(cancelled > 0, "nothing rested to cancel");
    hop.sort();
    direct.sort();
    eprintln!(
        "spot order round trip at p50: {:?} through the owner, {:?} forwarded ({} and {} orders)",
        direct.get(direct.len() / 2),
        hop.get(hop.len() / 2),
        direct.len(),
        hop.len()
    );

    // Load through all three (12 clients placing 10 orders each, one after another); the owner
    // is killed once 30 are acknowledged, while the rest are still coming.
    let acks = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let load: Vec<_> = (0..12)
        .map(|worker| {
            let (apps, dead, acks) = (apps.clone(), dead.clone(), acks.clone());
            let token = tokens[worker % 3].clone();
            tokio::spawn(async move {
                let mut answers = Vec::new();
                for k in 0..10 {
                    let answer =
                        place(apps.clone(), dead.clone(), token.clone(), worker + 12 * k).await;
                    acks.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    answers.push(answer);
                }
                answers
            })
        })
        .collect();
    while acks.load(std::sync::atomic::Ordering::SeqCst) < 30 {
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    *dead.lock().unwrap() = Some(owner);
    cluster.kill(owner);
    let killed = Instant::now();
    let next = spot_owner(&bus, "btcusdt", Some(&owner_name), Duration::from_secs(8)).await;
    // The new owner serves: an order through a surviving instance is answered.
    let survivor = (owner + 1) % 3;
    let probe = loop {
        let (status, body) = cluster.apps[survivor]
            .post_as(
                &tokens[0],
                "/api/currency/order/submit",
                Some(
                    serde_json::json!({"symbol": "btcusdt", "side": "buy", "orderType": "limit",
                    "price": "40000", "quantity": "0.01"}),
                ),
            )
            .await;
        if status == 200 {
            break body;
        }
        assert!(
            killed.elapsed() < Duration::from_secs(10),
            "{status} {body}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let takeover = killed.elapsed();
    eprintln!("takeover by {next}: the first order answered {takeover:?} after the kill");
    assert!(
        takeover < Duration::from_secs(5),
        "the takeover took {takeover:?}"
    );
    assert!(probe["data"]["id"].as_i64().is_some(), "{probe}");

    let mut acknowledged = Vec::new();
    for task in load {
        for order in task.await.expect("joined") {
            let order = order.expect("every order is acknowledged");
            acknowledged.push(order["id"].as_i64().expect("an order id"));
        }
    }
    // No acknowledged order lost, none placed twice: each key placed exactly one stored order.
    let mut unique = acknowledged.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(
        unique.len(),
        acknowledged.len(),
        "two keys answered one order"
    );
    use backend::entity::spot_order;
    use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
    let stored = spot_order::Entity::find()
        .filter(spot_order::Column::Id.is_in(acknowledged.clone()))
        .count(&db)
        .await
        .expect("count");
    assert_eq!(
        stored as usize,
        acknowledged.len(),
        "an acknowledged order is lost"
    );
    let all = spot_order::Entity::find()
        .filter(spot_order::Column::Symbol.eq("btcusdt"))
        .count(&db)
        .await
        .expect("count");
    // 30 before the kill, 120 of the load and the probe: nothing more.
    assert_eq!(all, 151, "an order was placed twice");

    // The new owner's book equals the open orders in the database.
    let next_index = ["a", "b", "c"]
        .iter()
        .position(|name| *name == next)
        .expect("one of the three");
    let expected = open_levels(&db).await;
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let (status, depth) = cluster.apps[next_index]
            .post(
                "/api/market/depth",
                Some(&serde_json::json!({"symbol": "btcusdt", "limit": 50}).to_string()),
                &[],
            )
            .await;
        assert_eq!(status, 200, "{depth}");
        let side = |name: &str, side: &str| -> Vec<(String, String, String)> {
            depth["data"][name]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .iter()
                .map(|level| {
                    let number = |v: &serde_json::Value| {
                        let text = v
                            .as_str()
                            .map(str::to_owned)
                            .unwrap_or_else(|| v.to_string());
                        text.parse::<rust_decimal::Decimal>()
                            .unwrap()
                            .normalize()
                            .to_string()
                    };
                    (side.to_owned(), number(&level[0]), number(&level[1]))
                })
                .collect()
        };
        let mut book = side("bids", "buy");
        book.extend(side("asks", "sell"));
        book.sort();
        if book == expected {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the book {book:?} is not the open orders {expected:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let report = backend::funds::audit::audit(&db).await.expect("audited");
    assert!(report.is_clean(), "{report:?}");
}
