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
//! - Spot pairs (`cluster/spot.rs`, three `backend serve` processes): one owner per pair; orders and cancellations
//!   through every instance reach it; its `kill -9` mid-load hands the pair to another instance
//!   within 5 s, with no acknowledged order lost or placed twice, the book equal to the open
//!   orders and the audit clean.
//! - Futures (`cluster/futures.rs`, three `backend serve` processes): one owner of every engine;
//!   orders, a cancellation, leverage and reads through every instance reach it, and it sees the
//!   marks of a simulator another instance runs; its `kill -9` mid-load hands the engines to another
//!   instance within 5 s, with no acknowledged order lost or placed twice, the positions the new
//!   owner shows equal to the database and the audit clean.
//! - Exactly once (`cluster/once.rs`, three `backend serve` processes): seconds bets placed
//!   through every instance are settled once each (one result, one payout entry for a win or a
//!   tie, none for a loss, the balances right, the rule's replay and the audit clean), also when
//!   the holder of the `seconds_settlement` lease is `kill -9`ed between two settlements; every
//!   futures funding time pays every open position once, also when the owner of the engines is
//!   `kill -9`ed at a funding time (one round per time and none skipped, one journal entry per
//!   payment, each position's funding total equal to its payments, the audit clean).
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

mod futures;
mod once;
mod processes;
mod spot;

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

/// An instance receives another instance's user events only for the users whose channels it
/// holds (`Fanout::watch_user`), from the moment the watch returns until the last watch of the
/// user is dropped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_instance_receives_the_user_events_of_the_users_it_watches_only() {
    use backend::cluster::Fanout;
    use backend::market::MarketHub;
    use backend::user::events::UserEvent;
    let nats = Nats::start().await;
    let (_stop, shutdown) = tokio::sync::watch::channel(false);
    let fanout = |name: &'static str| {
        let (nats, shutdown) = (&nats, shutdown.clone());
        async move {
            let bus = Arc::new(
                Bus::connect(&nats.cluster(name))
                    .await
                    .expect("NATS answers"),
            );
            Fanout::start(&bus, Arc::new(MarketHub::new()), shutdown)
                .await
                .expect("fanout started")
        }
    };
    let (producer, watcher) = (fanout("producer").await, fanout("watcher").await);
    let (events, source) = tokio::sync::broadcast::channel(16);
    producer.share_user_events(source);
    let send = |user_id: i64, text: &str| {
        events
            .send(Arc::new(UserEvent {
                user_id,
                text: Arc::from(text),
            }))
            .expect("the producer shares");
    };
    let mut received = watcher.subscribe_remote_user_events();
    let mut next = async || {
        let event = tokio::time::timeout(Duration::from_secs(5), received.recv())
            .await
            .expect("an event within 5 s")
            .expect("received");
        (event.user_id, event.text.to_string())
    };

    let first = watcher.watch_user(7).await;
    let second = watcher.watch_user(7).await;
    send(8, "not watched");
    send(7, "one");
    assert_eq!(next().await, (7, "one".to_owned()), "user 8 is not watched");
    drop(first);
    send(7, "two");
    assert_eq!(
        next().await,
        (7, "two".to_owned()),
        "one channel of user 7 is still open"
    );
    drop(second);
    // The last watch gone, its subscription ends as its task stops (at once, but not before
    // `drop` returns): user 7's events soon stop arriving. The producer publishes in order and
    // the watcher's connection delivers in order, so once user 9's mark of a try arrives, user
    // 7's event of that try (sent before it) would have.
    let _nine = watcher.watch_user(9).await;
    let deadline = Instant::now() + Duration::from_secs(5);
    for attempt in 1.. {
        send(7, "unwatched");
        let mark = format!("mark {attempt}");
        send(9, &mark);
        let mut seven_arrived = false;
        loop {
            match next().await {
                (7, _) => seven_arrived = true,
                (9, text) if text == mark => break,
                other => panic!("unexpected {other:?}"),
            }
        }
        if !seven_arrived {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "user 7's events still arrive 5 s after the last watch ended"
        );
    }
}

/// An owner that lets its market go answers the requests already on their way to it (here: "not
/// the owner") instead of dropping them with its subscription, which left their callers waiting
/// out the 5 s answer timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_owner_letting_its_market_go_answers_the_requests_on_their_way() {
    use backend::cluster::forward::{Sent, send, serve};
    let nats = Nats::start().await;
    let owner = Bus::connect(&nats.cluster("owner"))
        .await
        .expect("NATS answers");
    let caller = Bus::connect(&nats.cluster("caller"))
        .await
        .expect("NATS answers");
    let requests = owner
        .client()
        .queue_subscribe("kestrel.cmd.test", "owner".to_owned())
        .await
        .expect("subscribed");
    owner.client().flush().await.expect("flushed");
    let (stop_serving, stop) = tokio::sync::oneshot::channel::<()>();
    let stopped = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let answering = stopped.clone();
    let serving = tokio::spawn(serve(
        owner.client().clone(),
        requests,
        move |command: Result<u32, serde_json::Error>| {
            let stopped = answering.clone();
            // A busy owner takes its requests off the subscription slowly, so that some wait
            // there when it lets go.
            std::thread::sleep(Duration::from_millis(2));
            async move {
                tokio::time::sleep(Duration::from_millis(5)).await;
                let command = command.expect("a number");
                if stopped.load(std::sync::atomic::Ordering::SeqCst) {
                    format!("not the owner: {command}")
                } else {
                    format!("done: {command}")
                }
            }
        },
        stop,
    ));
    let started = Instant::now();
    // Eight callers sending one request after another for 200 ms; the owner lets go at 100 ms,
    // with requests on their way.
    let sent: Vec<_> = (0..8u32)
        .map(|caller_index| {
            let caller = caller.clone();
            tokio::spawn(async move {
                let mut outcomes = Vec::new();
                let mut n = caller_index * 100_000;
                while started.elapsed() < Duration::from_millis(200) {
                    let sent_at = Instant::now();
                    let outcome =
                        send::<u32, String>(&caller, "kestrel.cmd.test", "none", &n).await;
                    outcomes.push((outcome, sent_at.elapsed()));
                    n += 1;
                }
                outcomes
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(100)).await;
    stopped.store(true, std::sync::atomic::Ordering::SeqCst);
    let _ = stop_serving.send(());
    let mut answered = 0;
    for caller in sent {
        for (outcome, waited) in caller.await.expect("joined") {
            match outcome {
                Sent::Replied(_) => answered += 1,
                Sent::NoOwner => {}
                Sent::Unknown => panic!("a request was dropped unanswered (waited {waited:?})"),
            }
        }
    }
    assert!(
        answered > 0,
        "no request reached the owner before it let go"
    );
    tokio::time::timeout(Duration::from_secs(6), serving)
        .await
        .expect("the answering ends once drained")
        .expect("joined");
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
