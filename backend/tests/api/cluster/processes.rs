//! The cluster tests' `backend serve` processes ([`Processes`]) and what the tests of a market's
//! owner killed mid-load share: who holds a lease, an order placed through any live instance with
//! its idempotency key, the first answer after the kill, the orders acknowledged.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use backend::cluster::Bus;

use super::Nats;
use crate::helpers::TestApp;

/// Three `backend serve` processes of one cluster (instances `a`, `b`, `c` on one PostgreSQL
/// database and one NATS server, started one after another), each killed (SIGKILL) when dropped
/// (a panicking test must not leave servers behind).
pub(super) struct Processes {
    children: Vec<Option<Child>>,
    pub(super) apps: Vec<TestApp>,
    /// Settings every instance gets on top of the tests' own (`EXCHANGE_…` variables).
    env: Vec<(String, String)>,
}

impl Processes {
    /// The three, without the market simulator.
    pub(super) async fn start(nats: &Nats, database_url: &str) -> Self {
        Self::start_with(nats, database_url, None).await
    }

    /// [`Processes::start`], the market simulator on (ticking every 200 ms) in the instance named
    /// `simulating` alone.
    pub(super) async fn start_with(
        nats: &Nats,
        database_url: &str,
        simulating: Option<&str>,
    ) -> Self {
        let mut cluster = Self::none();
        // One after another, as a deployment rolls out (each start checks the migrations).
        for name in ["a", "b", "c"] {
            cluster
                .launch(nats, database_url, name, simulating == Some(name))
                .await;
        }
        cluster
    }

    /// No instance yet: [`Processes::launch`] adds them.
    pub(super) fn none() -> Self {
        Self::none_with(&[])
    }

    /// [`Processes::none`], every instance [`Processes::launch`] adds started with the variables
    /// `env` too.
    pub(super) fn none_with(env: &[(&str, &str)]) -> Self {
        Self {
            children: Vec::new(),
            apps: Vec::new(),
            env: env
                .iter()
                .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
                .collect(),
        }
    }

    /// Starts instance `name` (with the market simulator when `simulating`) and waits until it
    /// answers.
    pub(super) async fn launch(
        &mut self,
        nats: &Nats,
        database_url: &str,
        name: &str,
        simulating: bool,
    ) {
        let dir = tempfile::tempdir().expect("temporary folder");
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .map(|addr| addr.port())
            .expect("a free port");
        let child = Command::new(env!("CARGO_BIN_EXE_backend"))
            .arg("serve")
            .env("EXCHANGE_DATA_DIR", dir.path())
            .env("EXCHANGE_PORT", port.to_string())
            .env("EXCHANGE_SIM_ENABLED", simulating.to_string())
            .env("EXCHANGE_SIM_TICK_MS", "200")
            .env("EXCHANGE_WEBAPP_DIR", dir.path().join("webapp"))
            .env("EXCHANGE_LOG", "warn")
            .env("DATABASE_URL", database_url)
            .env("EXCHANGE_NATS_URL", &nats.url)
            .env("EXCHANGE_INSTANCE", name)
            .envs(self.env.clone())
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
    pub(super) fn kill(&mut self, index: usize) {
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

pub(super) async fn wait_until_up(app: &TestApp) {
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

/// Which instance (`a`, `b`, `c`) holds each spot pair's lease, by pair.
pub(super) async fn spot_holders(bus: &Bus) -> std::collections::BTreeMap<String, String> {
    use futures_util::TryStreamExt;
    let mut holders = std::collections::BTreeMap::new();
    let bucket = format!("kestrel_leases_{}ms", backend::spot::ownership::LEASE_MS);
    let Ok(store) = bus.jetstream().get_key_value(bucket.as_str()).await else {
        return holders;
    };
    let keys: Vec<String> = match store.keys().await {
        Ok(keys) => keys.try_collect().await.unwrap_or_default(),
        Err(_) => return holders,
    };
    for key in keys {
        if let Some(symbol) = key.strip_prefix("spot_")
            && let Ok(Some(holder)) = store.get(key.as_str()).await
        {
            let holder = String::from_utf8_lossy(&holder).to_string();
            let instance = holder.split('#').next().unwrap_or_default().to_owned();
            holders.insert(symbol.to_owned(), instance);
        }
    }
    holders
}

/// How many pairs each instance holds, and whether every one of `pairs` has a holder.
pub(super) fn shares(
    holders: &std::collections::BTreeMap<String, String>,
    pairs: usize,
) -> (Vec<usize>, bool) {
    let held = ["a", "b", "c"]
        .iter()
        .map(|name| holders.values().filter(|holder| holder == name).count())
        .collect();
    (held, holders.len() == pairs)
}

/// Waits up to `within` until the `pairs` spot pairs are spread over the three instances: each
/// held, and no instance over its share (ceil(pairs / 3)), so that no pair changes hands any more.
pub(super) async fn spread_settled(bus: &Bus, pairs: usize, within: Duration) {
    let deadline = Instant::now() + within;
    loop {
        let (held, all) = shares(&spot_holders(bus).await, pairs);
        if all && held.iter().all(|&count| count <= pairs.div_ceil(3)) {
            return;
        }
        assert!(Instant::now() < deadline, "{held:?} of {pairs} pairs");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The instance (`a`, `b`, `c`) holding the lease `name` (of `lease_ms`), waiting up to `within`
/// for one other than `not`.
pub(super) async fn lease_holder(
    bus: &Bus,
    lease_ms: i64,
    name: &str,
    not: Option<&str>,
    within: Duration,
) -> String {
    let deadline = Instant::now() + Duration::from_secs(1) + within;
    let bucket = format!("kestrel_leases_{lease_ms}ms");
    loop {
        if let Ok(store) = bus.jetstream().get_key_value(bucket.as_str()).await
            && let Ok(Some(holder)) = store.get(name).await
        {
            let holder = String::from_utf8_lossy(&holder).to_string();
            let instance = holder.split('#').next().unwrap_or_default().to_owned();
            if Some(instance.as_str()) != not {
                return instance;
            }
        }
        assert!(
            Instant::now() < deadline,
            "no holder of {name} within {within:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Posts `body` to `path` with the idempotency key `key` through instance `first % 3`, retrying
/// with the same key through the next live instance while it is not answered 200, for 30 s; the
/// answer's data, or `None` when no instance acknowledged it.
pub(super) async fn place_through(
    apps: Arc<Vec<(String, reqwest::Client)>>,
    dead: Arc<std::sync::Mutex<Option<usize>>>,
    token: &str,
    path: &str,
    key: &str,
    body: serde_json::Value,
    first: usize,
) -> Option<serde_json::Value> {
    let body = body.to_string();
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut attempt = first;
    while Instant::now() < deadline {
        let index = attempt % apps.len();
        attempt += 1;
        if *dead.lock().unwrap() == Some(index) {
            continue;
        }
        let (base, client) = &apps[index];
        let answer = client
            .post(format!("{base}{path}"))
            .header("satoken", token)
            .header("content-type", "application/json")
            .header("Idempotency-Key", key)
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

/// Posts `body` to `path` as `token` through `app` until it is answered 200 — what a surviving
/// instance does once `next` took over the market of an owner killed at `killed` — and fails if
/// that took 5 s or more (or nothing came within 10 s); the answer.
pub(super) async fn first_answer_after_kill(
    app: &TestApp,
    token: &str,
    path: &str,
    body: serde_json::Value,
    killed: Instant,
    next: &str,
) -> serde_json::Value {
    let answer = loop {
        let (status, answer) = app.post_as(token, path, Some(body.clone())).await;
        if status == 200 {
            break answer;
        }
        assert!(
            killed.elapsed() < Duration::from_secs(10),
            "{status} {answer}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let takeover = killed.elapsed();
    eprintln!("takeover by {next}: the first order answered {takeover:?} after the kill");
    assert!(
        takeover < Duration::from_secs(5),
        "the takeover took {takeover:?}"
    );
    answer
}

/// The ids of the orders the `load` tasks acknowledged; fails if one was not, or if two keys
/// answered one order.
pub(super) async fn acknowledged_ids(
    load: Vec<tokio::task::JoinHandle<Vec<Option<serde_json::Value>>>>,
) -> Vec<i64> {
    let mut acknowledged = Vec::new();
    for task in load {
        for order in task.await.expect("joined") {
            let order = order.expect("every order is acknowledged");
            acknowledged.push(order["id"].as_i64().expect("an order id"));
        }
    }
    let mut unique = acknowledged.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(
        unique.len(),
        acknowledged.len(),
        "two keys answered one order"
    );
    acknowledged
}
