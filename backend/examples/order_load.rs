//! Load tool for spot orders over HTTP, `POST /api/currency/order/submit` and
//! `POST /api/currency/order/cancelOrder` (a benchmark, not a test).
//!
//! K clients, each a user of its own with one keep-alive HTTP connection (reqwest), send orders
//! back to back (closed loop) for `--secs` after a warm-up: limit orders near the touch on both
//! sides (most rest; some improve the touch, some are post-only), limit orders priced through the
//! touch (they take, from the house market maker's ladder or from other users' resting orders, and
//! what is left rests), market orders (by quantity, or a buy by quote amount) and cancellations of
//! the client's own oldest open order. Every order carries an `Idempotency-Key`, as the webapp's
//! order form sends. Reports order requests per second, latency percentiles per kind, refusals and
//! failures by status and reason, and the server's CPU and memory.
//!
//! By default the server is `target/release/backend serve` started by the tool as its own process
//! on a free port over a fresh database — SQLite in a temporary folder, or with `--database-url`
//! (an existing PostgreSQL database the role may create databases from) a new PostgreSQL database
//! created for the run and dropped after it — with the simulator on, so the house market maker
//! quotes its ladder every tick. Everything the users need goes through the product's own
//! interfaces: an operator made by `backend admin create-operator`; users registered over HTTP
//! (`sendEmailCode`, the code from the dev outbox, `register`, `login`); funds by deposit claims
//! (a screenshot uploaded by the user, `recharge/submit`) passed by the operator
//! (`admin/deposits/{id}/review`), and for a base asset without a deposit channel a conversion
//! from USDT (`getExchangeQuote`, `currencyExchange`). The server the tool starts allows many
//! verification codes per IP address (`EXCHANGE_CODES_PER_IP_HOUR`): every user registers from
//! 127.0.0.1. After the window every user's open orders are cancelled (read back with `orderList`)
//! and every frozen balance must be zero; then the server stops and `backend audit` re-derives
//! every balance. `--url` uses a running server (`--server-pid` to read its CPU and memory, and
//! an existing operator's `--operator-email` and `--operator-password`).
//!
//! `--rebates` turns the referral programme's load on (issue 26: spot orders with rebates on stay
//! within 5 % of the throughput with rebates off; `scripts/bench.sh orders` runs both): three
//! referrers register first, each with the code of the one before, and every user registers with
//! the last one's code, so every fee a user pays owes three rebates; the server runs the rebate
//! batch every `--rebate-every-secs` (`EXCHANGE_REFERRAL_BATCH_EVERY_SECS`) on its test clock moved
//! two hours ahead (so each run pays every fill made so far, instead of the last hour's once an
//! hour), with both qualification rules off (every user logs in from 127.0.0.1 and none is
//! verified), so every rebate is paid through the ledger while the clients trade. Without it the
//! server's batch is off and nobody has an inviter.
//!
//! `--nats-url` with `--database-url` starts the servers in cluster mode (issue 28), `--instances N`
//! of them (`i0`, `i1`, …) over the one fresh PostgreSQL database: client `k` trades through
//! instance `k mod N`, so most orders reach an instance that does not own their pair and are
//! forwarded to its owner; the report sets the submissions an instance answered itself beside the
//! forwarded ones (the owners read from `market_owner` at the start of the window) and gives the
//! forwarding hop at p50. `--kill-owner-at-secs S` then `kill -9`s the first pair's owner S seconds
//! into the window and reports how long until another instance held the pair and until an order on
//! it sent after the kill was answered; the dead instance's clients send what was in flight again
//! to the next instance, with the same `Idempotency-Key`, and go on there (`make bench-cluster`).
//!
//! A failed request — any answer but success and the expected refusals (400 `order_not_open`,
//! `insufficient_balance`, `no_liquidity`, `post_only_would_take`, `fok_unfillable`), a 503
//! `trading_busy` included — fails the run, and so do an order answered with an execution beyond
//! its limit or quantity, an open order its client was never answered as open, a frozen balance
//! left, and an unsound audit.
//!
//! ```text
//! cargo build --release -p backend --bins --examples
//! cargo run --release -p backend --example order_load -- --clients 32 --secs 30
//! ```

mod support;

use std::{
    collections::{BTreeMap, HashSet, VecDeque},
    path::{Path, PathBuf},
    process::{Child, Command, ExitCode, Stdio},
    sync::{
        Arc, Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use clap::Parser;
use futures_util::{StreamExt, stream};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_decimal::Decimal;
use serde_json::{Value, json};

use support::CpuMark;

/// The password of every user and of the operator (rule A).
const PASSWORD: &str = "Secret123";
/// The operator the tool creates on its own server.
const OPERATOR: &str = "operator@order-load.test";
/// The refusals a correct client meets under this load: its oldest order was filled meanwhile, a
/// post-only order met a touch that moved, a side ran out. Any other failure fails the run.
const EXPECTED_REFUSALS: [&str; 5] = [
    "order_not_open",
    "insufficient_balance",
    "no_liquidity",
    "post_only_would_take",
    "fok_unfillable",
];
/// How often the touch of every pair is read (`POST /api/market/depth`).
const TOUCH_EVERY: Duration = Duration::from_millis(100);

/// Spot order load: K keep-alive clients, each a funded user, placing and cancelling orders.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Concurrent clients, each a user of its own with one keep-alive connection.
    #[arg(long, default_value_t = 32, env = "ORDER_LOAD_CLIENTS")]
    clients: usize,
    /// Seconds measured (after the warm-up).
    #[arg(long, default_value_t = 30, env = "ORDER_LOAD_SECS")]
    secs: u64,
    /// Seconds of warm-up, not measured.
    #[arg(long, default_value_t = 3)]
    warmup: u64,
    /// Pairs traded (comma-separated); every client trades all of them.
    #[arg(long, default_value = "btcusdt,ethusdt", value_delimiter = ',')]
    symbols: Vec<String>,
    /// Share of requests that cancel the client's oldest open order (when it has one).
    #[arg(long, default_value_t = 0.2)]
    share_cancel: f64,
    /// Share of market orders.
    #[arg(long, default_value_t = 0.1)]
    share_market: f64,
    /// Share of limit orders priced through the touch (they take; what is left rests). The rest
    /// are limit orders near the touch, most of which rest.
    #[arg(long, default_value_t = 0.25)]
    share_cross: f64,
    /// Open orders a client keeps at most; at the limit it cancels before it places.
    #[arg(long, default_value_t = 20)]
    max_open: usize,
    /// Send orders without an `Idempotency-Key` (the webapp always sends one).
    #[arg(long)]
    no_idempotency_key: bool,
    /// USDT deposited per user, and the value in USDT of each base asset it gets.
    #[arg(long, default_value_t = 1_000_000)]
    fund_usdt: u64,
    /// PostgreSQL instead of SQLite: the URL of an existing database of a role that may create
    /// databases; the server runs on a new database beside it, dropped after the run.
    #[arg(long, env = "ORDER_LOAD_DATABASE_URL", conflicts_with = "url")]
    database_url: Option<String>,
    /// A running server (`http://127.0.0.1:8080`) instead of starting one. Its limit of codes per
    /// IP address (`EXCHANGE_CODES_PER_IP_HOUR`) must allow a registration per client.
    #[arg(long, requires = "operator_email")]
    url: Option<String>,
    /// With `--url`: the server's process id, to read its CPU and memory.
    #[arg(long, requires = "url")]
    server_pid: Option<u32>,
    /// With `--url`: an existing operator, who passes the users' deposits.
    #[arg(long, requires = "url")]
    operator_email: Option<String>,
    /// With `--url`: the operator's password.
    #[arg(long, env = "ORDER_LOAD_OPERATOR_PASSWORD", hide_env_values = true)]
    operator_password: Option<String>,
    /// The backend binary started as the server (and run for `admin create-operator`, `audit`).
    #[arg(long)]
    server_bin: Option<PathBuf>,
    /// Milliseconds between two simulator ticks (the house re-quotes its ladder on each).
    #[arg(long, default_value_t = 1000)]
    tick_ms: u64,
    /// Referral rebates on: every user has three ancestors and the server's rebate batch pays
    /// their rebates during the window (see the module). Only for a server the tool starts.
    #[arg(long, conflicts_with = "url")]
    rebates: bool,
    /// With `--rebates`: seconds between two runs of the rebate batch.
    #[arg(long, default_value_t = 5)]
    rebate_every_secs: u64,
    /// Cluster mode (issue 28): the NATS server (with JetStream) the servers the tool starts share,
    /// over one PostgreSQL database (`--database-url`).
    #[arg(long, env = "ORDER_LOAD_NATS_URL", requires = "database_url")]
    nats_url: Option<String>,
    /// Servers started in cluster mode (`--nats-url`), named `i0`, `i1`, …; client `k` sends its
    /// orders to server `k mod N`, so most orders reach an instance that does not own their pair
    /// and are forwarded to the owner.
    #[arg(long, default_value_t = 1, requires = "nats_url")]
    instances: usize,
    /// With `--instances` of 2 or more: `kill -9` the owner of the first pair this many seconds
    /// into the window, then report how long until another instance holds the pair and serves
    /// its orders again; its clients resend what was in flight to another instance (same
    /// `Idempotency-Key`) and go on there.
    #[arg(long, requires = "nats_url")]
    kill_owner_at_secs: Option<u64>,
    /// A folder to copy each server's log into when it has stopped (`server.log`, or
    /// `server-i0.log`, … in cluster mode); otherwise the logs go with their temporary folders.
    #[arg(long, conflicts_with = "url")]
    keep_logs: Option<PathBuf>,
}

/// What a request did.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Kind {
    /// A limit order near the touch, on the passive side (rests unless the touch moved).
    Near,
    /// A limit order priced through the touch (takes; the rest rests unless IOC).
    Cross,
    /// A market order.
    Market,
    /// A cancellation of the client's oldest open order.
    Cancel,
}

impl Kind {
    const ALL: [Kind; 4] = [Kind::Near, Kind::Cross, Kind::Market, Kind::Cancel];

    fn name(self) -> &'static str {
        match self {
            Kind::Near => "limit near",
            Kind::Cross => "limit cross",
            Kind::Market => "market",
            Kind::Cancel => "cancel",
        }
    }
}

/// How a request ended.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Outcome {
    /// Answered with success; for an order, its status after matching.
    Ok(Option<String>),
    /// An expected refusal (400 with one of [`EXPECTED_REFUSALS`]).
    Refused(String),
    /// Anything else: status and reason, or the transport error.
    Failed(String),
}

/// One request.
struct Sample {
    kind: Kind,
    /// The pair a submission names (cancellations: none).
    pair: Option<usize>,
    /// The server that answered.
    instance: usize,
    /// When it was sent, from the start of the window (negative: in the warm-up).
    sent_ms: i64,
    micros: u64,
    outcome: Outcome,
}

/// A traded pair and its live touch.
struct Pair {
    symbol: String,
    base: String,
    tick: Decimal,
    step: Decimal,
    min_notional: Decimal,
    /// Best bid and best ask of the real book, read every [`TOUCH_EVERY`].
    touch: Mutex<Option<(Decimal, Decimal)>>,
}

impl Pair {
    fn touch(&self) -> Option<(Decimal, Decimal)> {
        *self.touch.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A registered, logged-in, funded user.
#[derive(Clone)]
struct User {
    account: String,
    token: String,
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> ExitCode {
    match run(Args::parse()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("order_load: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn run(args: Args) -> Result<(), String> {
    support::raise_nofile(65_536);
    let share_near = 1.0 - args.share_cancel - args.share_market - args.share_cross;
    if share_near < 0.0
        || args.share_cancel < 0.0
        || args.share_market < 0.0
        || args.share_cross < 0.0
    {
        return Err(
            "--share-cancel, --share-market and --share-cross must add up to at most 1".into(),
        );
    }
    if args.symbols.is_empty() || args.clients == 0 {
        return Err("at least one client and one symbol".into());
    }
    println!(
        "order_load: {} keep-alive clients (one user each), POST /api/currency/order/submit and cancelOrder on {}; mix {:.0}% limit near the touch, {:.0}% limit through the touch, {:.0}% market, {:.0}% cancel{}; {} s measured after {} s warm-up",
        args.clients,
        args.symbols.join(", "),
        share_near * 100.0,
        args.share_cross * 100.0,
        args.share_market * 100.0,
        args.share_cancel * 100.0,
        if args.no_idempotency_key {
            ", no Idempotency-Key"
        } else {
            ", an Idempotency-Key on every order"
        },
        args.secs,
        args.warmup
    );
    println!(
        "  date {} | {} CPUs | load average {}",
        chrono::Utc::now().format("%Y-%m-%d %H:%M UTC"),
        support::cpus(),
        support::load_average()
    );
    let bin = args
        .server_bin
        .clone()
        .unwrap_or_else(support::default_server_bin);
    if args.instances == 0 || (args.instances > 1 && args.url.is_some()) {
        return Err("--instances: at least 1, and only for servers the tool starts".into());
    }
    if args.kill_owner_at_secs.is_some_and(|at| at >= args.secs)
        || (args.kill_owner_at_secs.is_some() && args.instances < 2)
    {
        return Err(
            "--kill-owner-at-secs: within the window (--secs), with 2 instances or more".into(),
        );
    }
    let mut servers: Vec<Server> = Vec::new();
    let mut postgres = None;
    let (bases, database) = match &args.url {
        Some(url) => (
            vec![url.trim_end_matches('/').to_owned()],
            "the running server's".to_owned(),
        ),
        None => {
            if !bin.is_file() {
                return Err(format!(
                    "{} not found: build it first (cargo build --release -p backend) or pass --server-bin",
                    bin.display()
                ));
            }
            if let Some(admin) = &args.database_url {
                postgres = Some(PostgresDatabase::create(admin).await?);
            }
            let database_url = postgres.as_ref().map(|db| db.url.clone());
            let rebates = args.rebates.then_some(args.rebate_every_secs.max(1));
            let started = start_servers(&bin, &args, database_url, rebates).await;
            match started {
                Ok(started) => servers = started,
                Err(error) => {
                    if let Some(db) = postgres.take() {
                        db.drop_database().await;
                    }
                    return Err(error);
                }
            }
            let database = match &postgres {
                Some(db) => format!("PostgreSQL database {} (fresh)", db.name),
                None => format!(
                    "SQLite (WAL) {}",
                    servers[0].data_dir.path().join("exchange.db").display()
                ),
            };
            for server in &servers {
                println!(
                    "  server{}: {} serve, pid {}, {} (log {})",
                    server
                        .instance
                        .as_ref()
                        .map_or(String::new(), |name| format!(" {name}")),
                    bin.display(),
                    server.pid,
                    server.base,
                    server.log.display()
                );
            }
            (servers.iter().map(|s| s.base.clone()).collect(), database)
        }
    };
    if let Some(nats) = &args.nats_url {
        println!(
            "  cluster mode: {} instances over NATS {nats} and one PostgreSQL database",
            servers.len()
        );
    }
    println!("  database: {database}");
    let pid = match &args.url {
        Some(_) => args.server_pid,
        None => servers.first().map(|s| s.pid),
    };
    let result = load(&args, &bases, pid, &servers, postgres.as_ref()).await;
    // The audit reads the database once every server has stopped.
    for server in servers.iter_mut() {
        server.stop();
        server.report_log();
        if let Some(folder) = &args.keep_logs {
            server.keep_log(folder);
        }
    }
    let audit = servers.first().map(|server| server.cli(&["audit"], &[]));
    if let Some(db) = postgres.take() {
        db.drop_database().await;
    }
    let (summary, mut problems) = result?;
    let sound = match audit {
        Some(Ok(output)) => {
            let last = output.lines().last().unwrap_or_default().to_owned();
            println!("  backend audit: {}", output.trim().replace('\n', "; "));
            let sound = last.contains("sound");
            if !sound {
                problems.push(format!("backend audit: {last}"));
            }
            Some(sound)
        }
        Some(Err(error)) => {
            println!("  backend audit: {error}");
            problems.push(format!("backend audit: {error}"));
            Some(false)
        }
        None => {
            println!("  backend audit: not run (a running server's database)");
            None
        }
    };
    let filled = format!(
        "\"audit\":{},\"consistent\":{}",
        sound.map_or("null".to_owned(), |s| s.to_string()),
        problems.is_empty()
    );
    println!("{}", summary.replace("\"audit\":null", &filled));
    if !problems.is_empty() {
        return Err(problems.join("; "));
    }
    Ok(())
}

/// Starts `--instances` servers over one database (`database_url`, else each its own SQLite — a
/// single server then) and waits until every one answers; stops them all if one does not.
async fn start_servers(
    bin: &Path,
    args: &Args,
    database_url: Option<String>,
    rebates: Option<u64>,
) -> Result<Vec<Server>, String> {
    let mut servers: Vec<Server> = Vec::new();
    // One after another, as a deployment rolls out: the first applies the migrations.
    for index in 0..args.instances {
        let cluster = args
            .nats_url
            .as_ref()
            .map(|nats| (nats.clone(), format!("i{index}")));
        let started = match Server::spawn(bin, database_url.clone(), args.tick_ms, rebates, cluster)
        {
            Ok(mut server) => match server.wait_ready(Duration::from_secs(120)).await {
                Ok(()) => Ok(server),
                Err(error) => Err(format!("{error}\n{}", server.log_tail(20))),
            },
            Err(error) => Err(error),
        };
        match started {
            Ok(server) => servers.push(server),
            Err(error) => {
                servers.iter_mut().for_each(Server::stop);
                return Err(error);
            }
        }
    }
    Ok(servers)
}

/// The server under test, started by the tool.
struct Server {
    child: Option<Child>,
    base: String,
    pid: u32,
    log: PathBuf,
    bin: PathBuf,
    data_dir: tempfile::TempDir,
    /// The PostgreSQL database it runs on, else its own SQLite.
    database_url: Option<String>,
    /// Its name in cluster mode.
    instance: Option<String>,
}

impl Server {
    /// `bin serve` on a free port over a fresh database: SQLite in a temporary folder, or the
    /// PostgreSQL database at `database_url`; with `rebates`, the referral batch every `rebates`
    /// seconds on a test clock with both qualification rules off, else no batch; with `cluster`
    /// (NATS URL, instance name), in cluster mode.
    fn spawn(
        bin: &Path,
        database_url: Option<String>,
        tick_ms: u64,
        rebates: Option<u64>,
        cluster: Option<(String, String)>,
    ) -> Result<Self, String> {
        let data_dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let port = support::free_port().map_err(|e| format!("no free port: {e}"))?;
        let log = data_dir.path().join("server.log");
        let out = std::fs::File::create(&log).map_err(|e| format!("{}: {e}", log.display()))?;
        let err = out.try_clone().map_err(|e| e.to_string())?;
        let mut server = Self {
            child: None,
            base: format!("http://127.0.0.1:{port}"),
            pid: 0,
            log,
            bin: bin.to_path_buf(),
            data_dir,
            database_url,
            instance: cluster.as_ref().map(|(_, name)| name.clone()),
        };
        let mut command = server.command();
        command
            .arg("serve")
            .env("EXCHANGE_HOST", "127.0.0.1")
            .env("EXCHANGE_PORT", port.to_string())
            .env("EXCHANGE_WEBAPP_DIR", server.data_dir.path().join("webapp"))
            .env("EXCHANGE_SIM_TICK_MS", tick_ms.to_string())
            // Every user asks for its registration code from 127.0.0.1.
            .env("EXCHANGE_CODES_PER_IP_HOUR", "1000000")
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err);
        match rebates {
            Some(every) => command
                .env("EXCHANGE_REFERRAL_ENABLED", "true")
                .env("EXCHANGE_REFERRAL_BATCH_EVERY_SECS", every.to_string())
                .env("EXCHANGE_REFERRAL_WITHHOLD_SAME_ADDRESS", "false")
                .env("EXCHANGE_REFERRAL_WITHHOLD_UNVERIFIED", "false")
                .env("EXCHANGE_TEST_CLOCK", "true"),
            None => command.env("EXCHANGE_REFERRAL_ENABLED", "false"),
        };
        if let Some((nats, name)) = &cluster {
            command
                .env("EXCHANGE_NATS_URL", nats)
                .env("EXCHANGE_INSTANCE", name);
        }
        let child = command
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
        server.pid = child.id();
        server.child = Some(child);
        Ok(server)
    }

    /// The backend command on this server's database.
    fn command(&self) -> Command {
        let mut command = Command::new(&self.bin);
        command
            .env("EXCHANGE_DATA_DIR", self.data_dir.path())
            .env("EXCHANGE_LOG", "warn")
            .env_remove("EXCHANGE_CONFIG");
        match &self.database_url {
            Some(url) => command.env("DATABASE_URL", url),
            None => command.env_remove("DATABASE_URL"),
        };
        command
    }

    /// Runs `backend <args>` on this server's database; its standard output, or why it failed.
    fn cli(&self, args: &[&str], env: &[(&str, &str)]) -> Result<String, String> {
        let mut command = self.command();
        command.args(args).stdin(Stdio::null());
        for (name, value) in env {
            command.env(name, value);
        }
        let output = command
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.bin.display()))?;
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        if output.status.success() {
            Ok(stdout)
        } else {
            Err(format!(
                "backend {} failed ({}): {}{}",
                args.join(" "),
                output.status,
                stdout.trim(),
                String::from_utf8_lossy(&output.stderr).trim()
            ))
        }
    }

    /// Waits until the server answers a price (the simulator publishes before it listens).
    async fn wait_ready(&mut self, timeout: Duration) -> Result<(), String> {
        let client = reqwest::Client::new();
        let url = format!(
            "{}/api/contract/coin/currencyPrice?symbol=btcusdt",
            self.base
        );
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(child) = self.child.as_mut()
                && let Ok(Some(status)) = child.try_wait()
            {
                return Err(format!(
                    "the server exited ({status}); its log: {}",
                    self.log.display()
                ));
            }
            if let Ok(response) = client.get(&url).send().await
                && response.status().is_success()
            {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "the server did not answer within {timeout:?}; its log: {}",
                    self.log.display()
                ));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The last `lines` lines of the server's log.
    fn log_tail(&self, lines: usize) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let all: Vec<&str> = text.lines().collect();
        all[all.len().saturating_sub(lines)..].join("\n")
    }

    /// Prints how many warnings and errors the server logged, and the first distinct ones (the
    /// log goes with the temporary folder).
    fn report_log(&self) {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let mut distinct: Vec<String> = Vec::new();
        let mut count = 0;
        for line in text
            .lines()
            .filter(|l| l.contains(" ERROR ") || l.contains(" WARN "))
        {
            count += 1;
            // Without the time stamp, at most 300 characters.
            let message: String = line
                .split_once(' ')
                .map_or(line, |(_, rest)| rest)
                .trim()
                .chars()
                .take(300)
                .collect();
            if distinct.len() < 5 && !distinct.contains(&message) {
                distinct.push(message);
            }
        }
        println!("  server log: {count} warnings and errors");
        for message in distinct {
            println!("    {message}");
        }
        // Every slow batch and request with its time stamp, to set beside the slowest answers'
        // seconds.
        let slow: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("slow spot batch") || l.contains("slow request"))
            .collect();
        if !slow.is_empty() {
            println!("  slow spot batches and requests ({}):", slow.len());
            for line in slow.iter().take(40) {
                println!("    {}", line.chars().take(300).collect::<String>());
            }
        }
    }

    /// Copies the server's log into `folder` (made if missing) as `server.log`, or
    /// `server-<instance>.log` in cluster mode.
    fn keep_log(&self, folder: &Path) {
        let name = match &self.instance {
            Some(instance) => format!("server-{instance}.log"),
            None => "server.log".to_owned(),
        };
        let kept = folder.join(name);
        match std::fs::create_dir_all(folder).and_then(|()| std::fs::copy(&self.log, &kept)) {
            Ok(_) => println!("  server log kept: {}", kept.display()),
            Err(error) => println!("  server log not kept ({}): {error}", kept.display()),
        }
    }

    /// Stops the server: SIGTERM, SIGKILL after 10 s.
    fn stop(&mut self) {
        let Some(mut child) = self.child.take() else {
            return;
        };
        // SAFETY: signalling our own child by its id.
        unsafe {
            libc::kill(child.id() as libc::pid_t, libc::SIGTERM);
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A PostgreSQL database created for one run.
struct PostgresDatabase {
    admin_url: String,
    url: String,
    name: String,
}

impl PostgresDatabase {
    /// Creates a new database beside the one `admin_url` names.
    async fn create(admin_url: &str) -> Result<Self, String> {
        use sea_orm::ConnectionTrait;
        let name = format!("kestrel_order_load_{:016x}", rand::rng().random::<u64>());
        let admin = sea_orm::Database::connect(admin_url)
            .await
            .map_err(|e| format!("--database-url: {e}"))?;
        admin
            .execute_unprepared(&format!("CREATE DATABASE {name}"))
            .await
            .map_err(|e| format!("--database-url: cannot create a database: {e}"))?;
        admin.close().await.ok();
        let (base, query) = admin_url
            .split_once('?')
            .map_or((admin_url, String::new()), |(base, query)| {
                (base, format!("?{query}"))
            });
        let url = match base.rsplit_once('/') {
            Some((server, _)) if server.contains("//") => format!("{server}/{name}{query}"),
            _ => return Err("--database-url: no database name in the URL".into()),
        };
        Ok(Self {
            admin_url: admin_url.to_owned(),
            url,
            name,
        })
    }

    /// The database's counters in `pg_stat_database`: transactions committed and rolled back,
    /// rows inserted, updated and fetched, deadlocks (flushed by the server about once a second).
    async fn counters(&self) -> Option<[i64; 6]> {
        use sea_orm::{ConnectionTrait, DbBackend, Statement};
        let admin = sea_orm::Database::connect(&self.admin_url).await.ok()?;
        let row = admin
            .query_one_raw(Statement::from_sql_and_values(
                DbBackend::Postgres,
                "SELECT xact_commit, xact_rollback, tup_inserted, tup_updated, tup_fetched, \
                 deadlocks FROM pg_stat_database WHERE datname = $1",
                [self.name.clone().into()],
            ))
            .await
            .ok()??;
        let mut values = [0i64; 6];
        for (value, column) in values.iter_mut().zip([
            "xact_commit",
            "xact_rollback",
            "tup_inserted",
            "tup_updated",
            "tup_fetched",
            "deadlocks",
        ]) {
            *value = row.try_get::<i64>("", column).ok()?;
        }
        admin.close().await.ok();
        Some(values)
    }

    /// A connection to the database itself (not the administrative one).
    async fn connect(&self) -> Result<sea_orm::DatabaseConnection, String> {
        sea_orm::Database::connect(&self.url)
            .await
            .map_err(|e| format!("connecting to {}: {e}", self.name))
    }

    /// The instance (`i<k>`, see `--instances`) holding each pair's `market_owner` row, if any,
    /// read over `db` (from [`PostgresDatabase::connect`]).
    async fn owners(
        db: &sea_orm::DatabaseConnection,
        pairs: &[Pair],
    ) -> Result<Vec<Option<usize>>, String> {
        use sea_orm::{ConnectionTrait, DbBackend, Statement};
        let mut owners = Vec::with_capacity(pairs.len());
        for pair in pairs {
            let row = db
                .query_one_raw(Statement::from_sql_and_values(
                    DbBackend::Postgres,
                    "SELECT holder FROM market_owner WHERE market = $1",
                    [format!("spot:{}", pair.symbol).into()],
                ))
                .await
                .map_err(|e| format!("reading market_owner: {e}"))?;
            let holder = row.and_then(|row| row.try_get::<String>("", "holder").ok());
            // `i<k>#<process token>` (`cluster::Bus::holder`).
            owners.push(holder.and_then(|h| {
                let name = h.split('#').next()?;
                name.strip_prefix('i')?.parse().ok()
            }));
        }
        Ok(owners)
    }

    /// Drops the database (the server has stopped).
    async fn drop_database(self) {
        use sea_orm::ConnectionTrait;
        let Ok(admin) = sea_orm::Database::connect(&self.admin_url).await else {
            eprintln!("order_load: could not drop {}: no connection", self.name);
            return;
        };
        for _ in 0..50 {
            let sql = format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name);
            match admin.execute_unprepared(&sql).await {
                Ok(_) => break,
                Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
            }
        }
        admin.close().await.ok();
    }
}

/// `POST path` with a JSON `body` (when given) as `token` (when given): the HTTP status and the
/// envelope.
async fn call(
    http: &reqwest::Client,
    base: &str,
    token: Option<&str>,
    path: &str,
    body: Option<Value>,
) -> Result<(u16, Value), String> {
    let mut request = http.post(format!("{base}{path}"));
    if let Some(token) = token {
        request = request.header("satoken", token);
    }
    if let Some(body) = body {
        request = request
            .header("content-type", "application/json")
            .body(body.to_string());
    }
    envelope(request.send().await, path).await
}

/// `GET path`: the HTTP status and the envelope.
async fn get(http: &reqwest::Client, base: &str, path: &str) -> Result<(u16, Value), String> {
    envelope(http.get(format!("{base}{path}")).send().await, path).await
}

/// `GET path` as `token`: the envelope's `data`.
async fn get_as(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    path: &str,
) -> Result<Value, String> {
    let response = http
        .get(format!("{base}{path}"))
        .header("satoken", token)
        .send()
        .await;
    ok_data(path, envelope(response, path).await?)
}

/// The status and the parsed body of an answer.
async fn envelope(
    response: Result<reqwest::Response, reqwest::Error>,
    path: &str,
) -> Result<(u16, Value), String> {
    let response = response.map_err(|e| format!("{path}: {e}"))?;
    let status = response.status().as_u16();
    let text = response.text().await.map_err(|e| format!("{path}: {e}"))?;
    let value: Value =
        serde_json::from_str(&text).map_err(|_| format!("{path}: not JSON: {text}"))?;
    Ok((status, value))
}

/// The envelope's `data` when the call succeeded, else the failure as text.
fn ok_data(path: &str, (status, body): (u16, Value)) -> Result<Value, String> {
    if status == 200 && body["code"] == 200 {
        Ok(body["data"].clone())
    } else {
        Err(format!("{path}: {status} {body}"))
    }
}

fn decimal(value: &Value) -> Option<Decimal> {
    value.as_str()?.parse().ok()
}

/// The pairs' rules from `getCoinList`.
async fn pairs(
    http: &reqwest::Client,
    base: &str,
    symbols: &[String],
) -> Result<Vec<Pair>, String> {
    let path = "/api/common/getCoinList";
    let data = ok_data(path, call(http, base, None, path, Some(json!({}))).await?)?;
    let list = data["currencyList"].as_array().cloned().unwrap_or_default();
    symbols
        .iter()
        .map(|symbol| {
            let symbol = symbol.trim().to_ascii_lowercase();
            let entry = list
                .iter()
                .find(|c| c["symbol"] == symbol.as_str())
                .ok_or_else(|| format!("{symbol} is not a listed spot pair"))?;
            if entry["baseCoin"] != "usdt" {
                return Err(format!("{symbol}: only pairs against USDT are loaded"));
            }
            let rule = |key: &str| {
                decimal(&entry[key]).ok_or_else(|| format!("{symbol}: no {key} in {entry}"))
            };
            Ok(Pair {
                base: entry["coin"].as_str().unwrap_or_default().to_owned(),
                tick: rule("tickSize")?,
                step: rule("stepSize")?,
                min_notional: rule("minNotional")?,
                touch: Mutex::new(None),
                symbol,
            })
        })
        .collect()
}

/// Reads the best bid and ask of `pair` from the real book (house ladder and users' orders).
async fn read_touch(http: &reqwest::Client, base: &str, pair: &Pair) -> Result<(), String> {
    let path = "/api/market/depth";
    let data = ok_data(
        path,
        call(http, base, None, path, Some(json!({"symbol": pair.symbol}))).await?,
    )?;
    let best = |side: &str| decimal(&data[side][0][0]);
    let touch = best("bids").zip(best("asks"));
    *pair.touch.lock().unwrap_or_else(|e| e.into_inner()) = touch;
    Ok(())
}

/// Registers `account` over HTTP (with the inviter's code `invite`, if any) and logs in: the
/// session token.
async fn register(
    http: &reqwest::Client,
    base: &str,
    account: &str,
    invite: Option<&str>,
) -> Result<String, String> {
    let path = "/api/user/sendEmailCode";
    ok_data(
        path,
        call(
            http,
            base,
            None,
            path,
            Some(json!({"account": account, "type": "register"})),
        )
        .await?,
    )?;
    let path = format!("/api/dev/outbox?to={}", account.replace('@', "%40"));
    let messages = ok_data(&path, get(http, base, &path).await?)?;
    let body = messages[0]["body"].as_str().unwrap_or_default();
    let code = body
        .split(|c: char| !c.is_ascii_digit())
        .find(|word| word.len() == 6)
        .ok_or_else(|| format!("no code in the dev outbox for {account}: {messages}"))?;
    let path = "/api/user/register";
    let mut form = json!({"account": account, "password": PASSWORD,
        "confirmPassword": PASSWORD, "code": code});
    if let Some(invite) = invite {
        form["inviteCode"] = json!(invite);
    }
    ok_data(path, call(http, base, None, path, Some(form)).await?)?;
    login(http, base, account, PASSWORD).await
}

async fn login(
    http: &reqwest::Client,
    base: &str,
    account: &str,
    password: &str,
) -> Result<String, String> {
    let path = "/api/user/login";
    let data = ok_data(
        path,
        call(
            http,
            base,
            None,
            path,
            Some(json!({"account": account, "password": password})),
        )
        .await?,
    )?;
    data["satoken"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| format!("no satoken in {data}"))
}

/// What one user is funded with.
struct Funding {
    /// Deposit claims: coin, network, amount.
    deposits: Vec<(String, String, String)>,
    /// Conversions from USDT: coin, USDT amount.
    conversions: Vec<(String, String)>,
}

/// Uploads a screenshot and files the deposit claims of `funding`; returns the claims' ids.
async fn claim_deposits(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    funding: &Funding,
) -> Result<Vec<i64>, String> {
    // A real 1 × 1 PNG: the upload decodes and re-encodes every image (`kyc::sanitize`).
    let png = b"\x89\x50\x4e\x47\x0d\x0a\x1a\x0a\x00\x00\x00\x0d\x49\x48\x44\x52\x00\x00\x00\x01\x00\x00\x00\x01\x08\x04\x00\x00\x00\xb5\x1c\x0c\x02\x00\x00\x00\x0b\x49\x44\x41\x54\x78\xda\x63\x64\x60\x00\x00\x00\x06\x00\x02\x30\x81\xd0\x2f\x00\x00\x00\x00\x49\x45\x4e\x44\xae\x42\x60\x82".to_vec();
    let part = reqwest::multipart::Part::bytes(png)
        .file_name("transfer.png")
        .mime_str("image/png")
        .map_err(|e| e.to_string())?;
    let path = "/api/common/upload/OSS";
    let uploaded = ok_data(
        path,
        envelope(
            http.post(format!("{base}{path}"))
                .header("satoken", token)
                .multipart(reqwest::multipart::Form::new().part("file", part))
                .send()
                .await,
            path,
        )
        .await?,
    )?;
    let file = uploaded["fileId"].to_string();
    let mut ids = Vec::new();
    for (coin, network, amount) in &funding.deposits {
        let path = "/api/recharge/submit";
        let claim = ok_data(
            path,
            call(
                http,
                base,
                Some(token),
                path,
                Some(
                    json!({"coin": coin, "network": network, "amount": amount, "screenshot": file}),
                ),
            )
            .await?,
        )?;
        ids.push(
            claim["id"]
                .as_i64()
                .ok_or_else(|| format!("no id in {claim}"))?,
        );
    }
    Ok(ids)
}

/// Converts USDT into the base assets without a deposit channel.
async fn convert(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    funding: &Funding,
) -> Result<(), String> {
    for (coin, amount) in &funding.conversions {
        let path = "/api/texchange/getExchangeQuote";
        let quote = ok_data(
            path,
            call(
                http,
                base,
                Some(token),
                path,
                Some(json!({"from": "usdt", "to": coin, "amount": amount})),
            )
            .await?,
        )?;
        let path = "/api/texchange/currencyExchange";
        ok_data(
            path,
            call(
                http,
                base,
                Some(token),
                path,
                Some(json!({"quoteId": quote["quoteId"]})),
            )
            .await?,
        )?;
    }
    Ok(())
}

/// Registers `count` users (invited by `invite`, if given), logs them in and funds them (deposits
/// passed by the operator, then conversions); prints what it did.
async fn setup_users(
    http: &reqwest::Client,
    base: &str,
    operator: &str,
    pairs: &[Pair],
    count: usize,
    fund_usdt: u64,
    invite: Option<&str>,
) -> Result<Vec<User>, String> {
    // Which deposit channel each asset has.
    let path = "/api/recharge/ga";
    let channels = ok_data(path, {
        let response = http
            .get(format!("{base}{path}"))
            .header("satoken", operator)
            .send()
            .await;
        envelope(response, path).await?
    })?;
    let network_of = |coin: &str| -> Option<String> {
        channels["coins"]
            .as_array()?
            .iter()
            .find(|c| c["coin"] == coin)?["networks"][0]["network"]
            .as_str()
            .map(str::to_owned)
    };
    let usdt_network = network_of("usdt").ok_or("no USDT deposit channel")?;
    let mut funding = Funding {
        deposits: Vec::new(),
        conversions: Vec::new(),
    };
    let mut usdt = Decimal::from(fund_usdt);
    let mut described = vec![format!("{fund_usdt} USDT")];
    for pair in pairs {
        if pairs
            .iter()
            .take_while(|p| p.symbol != pair.symbol)
            .any(|p| p.base == pair.base)
        {
            continue;
        }
        let (bid, ask) = pair
            .touch()
            .ok_or_else(|| format!("no book for {}", pair.symbol))?;
        let mid = (bid + ask) / Decimal::TWO;
        match network_of(&pair.base) {
            Some(network) => {
                let amount = (Decimal::from(fund_usdt) / mid).round_dp(6).normalize();
                described.push(format!("{amount} {} (deposit)", pair.base));
                funding
                    .deposits
                    .push((pair.base.clone(), network, amount.to_string()));
            }
            None => {
                described.push(format!("{fund_usdt} USDT of {} (conversion)", pair.base));
                funding
                    .conversions
                    .push((pair.base.clone(), fund_usdt.to_string()));
                usdt += Decimal::from(fund_usdt);
            }
        }
    }
    funding
        .deposits
        .insert(0, ("usdt".into(), usdt_network, usdt.to_string()));
    let run = format!("{:08x}", rand::rng().random::<u32>());
    let started = Instant::now();
    // argon2id makes registration and login CPU-bound: a few at a time.
    let registered: Vec<Result<(User, Vec<i64>), String>> = stream::iter(0..count)
        .map(|n| {
            let funding = &funding;
            let account = format!("trader{n}-{run}@order-load.test");
            async move {
                let token = register(http, base, &account, invite).await?;
                let deposits = claim_deposits(http, base, &token, funding).await?;
                Ok((User { account, token }, deposits))
            }
        })
        .buffer_unordered(4)
        .collect()
        .await;
    let mut users = Vec::new();
    let mut claims = Vec::new();
    for result in registered {
        let (user, ids) = result?;
        users.push(user);
        claims.extend(ids);
    }
    let registering = started.elapsed();
    let started = Instant::now();
    let reviews: Vec<Result<Value, String>> = stream::iter(claims.iter().copied())
        .map(|id| async move {
            let path = format!("/api/admin/deposits/{id}/review");
            ok_data(
                &path,
                call(
                    http,
                    base,
                    Some(operator),
                    &path,
                    Some(json!({"approve": true})),
                )
                .await?,
            )
        })
        .buffer_unordered(4)
        .collect()
        .await;
    for review in reviews {
        let record = review?;
        if record["status"] != "passed" {
            return Err(format!("a deposit did not pass: {record}"));
        }
    }
    let converted: Vec<Result<(), String>> = stream::iter(users.iter())
        .map(|user| convert(http, base, &user.token, &funding))
        .buffer_unordered(4)
        .collect()
        .await;
    converted.into_iter().collect::<Result<Vec<()>, String>>()?;
    println!(
        "  setup: {count} users registered and logged in over HTTP, a screenshot and {} deposit claims each in {:.1} s; the operator passed {} deposits{} in {:.1} s; each user holds {}",
        funding.deposits.len(),
        registering.as_secs_f64(),
        claims.len(),
        if funding.conversions.is_empty() {
            String::new()
        } else {
            format!(", {} conversions each", funding.conversions.len())
        },
        started.elapsed().as_secs_f64(),
        described.join(", ")
    );
    Ok(users)
}

/// The three referrers of `--rebates`: generation 3, 2 and 1 of every user, in that order.
struct Referrers {
    tokens: [String; 3],
    /// The last one's invitation code, which every user registers with.
    code: String,
}

/// Registers the three referrers, each invited by the one before, and moves the server's test
/// clock two hours ahead (as `operator`), so that every batch run pays every fill made so far.
async fn setup_referrers(
    http: &reqwest::Client,
    base: &str,
    operator: &str,
) -> Result<Referrers, String> {
    let run = format!("{:08x}", rand::rng().random::<u32>());
    let mut tokens = Vec::new();
    let mut code: Option<String> = None;
    for n in 1..=3 {
        let account = format!("referrer{n}-{run}@order-load.test");
        let token = register(http, base, &account, code.as_deref()).await?;
        let summary = get_as(http, base, &token, "/api/referral/summary").await?;
        code = summary["inviteCode"].as_str().map(str::to_owned);
        tokens.push(token);
    }
    let path = "/api/admin/test/clock/advance";
    ok_data(
        path,
        call(
            http,
            base,
            Some(operator),
            path,
            Some(json!({"ms": 2 * 3_600_000})),
        )
        .await?,
    )?;
    Ok(Referrers {
        tokens: tokens
            .try_into()
            .map_err(|_| "three referrers".to_owned())?,
        code: code.ok_or("no invitation code in referral/summary")?,
    })
}

/// What the batch has recorded for each referrer so far (its statement's lines, generation 3
/// first) and paid to the nearest (generation 1), per coin.
async fn rebates_recorded(
    http: &reqwest::Client,
    base: &str,
    referrers: &Referrers,
) -> Result<([u64; 3], String), String> {
    let mut lines = [0u64; 3];
    for (count, token) in lines.iter_mut().zip(&referrers.tokens) {
        let page = get_as(http, base, token, "/api/referral/statement?pageSize=1").await?;
        *count = page["total"].as_u64().unwrap_or(0);
    }
    let summary = get_as(http, base, &referrers.tokens[2], "/api/referral/summary").await?;
    let paid = summary["totalReward"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|c| {
            format!(
                "{} {}",
                c["amount"].as_str().unwrap_or("0"),
                c["coin"].as_str().unwrap_or("").to_uppercase()
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    Ok((
        lines,
        if paid.is_empty() {
            "nothing".into()
        } else {
            paid
        },
    ))
}

/// What every client shares.
struct Shared {
    /// The servers' addresses (one, or one per instance in cluster mode).
    bases: Vec<String>,
    /// Which servers were killed (`--kill-owner-at-secs`): set before the kill, so a transport
    /// error from a dead server is known for what it is.
    dead: Vec<AtomicBool>,
    pairs: Vec<Pair>,
    share_cancel: f64,
    share_market: f64,
    share_cross: f64,
    max_open: usize,
    idempotency: bool,
    measure_from: Instant,
    end: Instant,
}

impl Shared {
    /// The first live server from `preferred` on (in order, wrapping around).
    fn alive_index(&self, preferred: usize) -> usize {
        let n = self.bases.len();
        (0..n)
            .map(|offset| (preferred + offset) % n)
            .find(|index| !self.dead[*index].load(Ordering::SeqCst))
            .unwrap_or(preferred % n)
    }

    /// The address of [`Shared::alive_index`].
    fn alive_base(&self, preferred: usize) -> &str {
        &self.bases[self.alive_index(preferred)]
    }

    /// The index of the pair an order names.
    fn pair_of(&self, order: &Value) -> Option<usize> {
        let symbol = order["symbol"].as_str()?;
        self.pairs.iter().position(|p| p.symbol == symbol)
    }
}

/// `value` on `step`'s grid, rounded down (or up).
fn on_grid(value: Decimal, step: Decimal, up: bool) -> Decimal {
    let units = value / step;
    let units = if up { units.ceil() } else { units.floor() };
    (units * step).normalize()
}

fn fraction(value: f64) -> Decimal {
    Decimal::try_from(value).unwrap_or_default()
}

/// A quantity worth about `notional` USDT at `price`, at least the pair's minimum with room.
fn quantity_for(pair: &Pair, notional: Decimal, price: Decimal) -> Decimal {
    let floor = pair.min_notional * Decimal::TWO;
    let quantity = on_grid(notional.max(floor) / price, pair.step, true);
    quantity.max(pair.step)
}

/// The next order of a client (`None`: no book yet): its kind and body.
fn next_order(shared: &Shared, rng: &mut ChaCha8Rng) -> Option<(Kind, Value)> {
    let pair = &shared.pairs[rng.random_range(0..shared.pairs.len())];
    let (bid, ask) = pair.touch()?;
    let mid = (bid + ask) / Decimal::TWO;
    let buy = rng.random::<bool>();
    let side = if buy { "buy" } else { "sell" };
    let notional = fraction(15.0 + rng.random::<f64>() * 135.0).round_dp(2);
    let draw = rng.random::<f64>() * (1.0 - shared.share_cancel);
    if draw < shared.share_market {
        // Market: a buy by quantity or by quote amount, or a sell by quantity.
        let order = if buy && rng.random::<f64>() < 1.0 / 3.0 {
            json!({"symbol": pair.symbol, "side": side, "orderType": "market",
                "quoteAmount": notional.to_string()})
        } else {
            let quantity = quantity_for(pair, notional, mid);
            json!({"symbol": pair.symbol, "side": side, "orderType": "market",
                "quantity": quantity.to_string()})
        };
        return Some((Kind::Market, order));
    }
    let u = rng.random::<f64>();
    let (kind, price, extra) = if draw < shared.share_market + shared.share_cross {
        // Through the touch by up to 5 basis points: takes, and what is left rests (or, for one
        // in five, is cancelled at once: IOC).
        let price = if buy {
            on_grid(ask * (Decimal::ONE + fraction(u * 0.0005)), pair.tick, true)
        } else {
            on_grid(
                bid * (Decimal::ONE - fraction(u * 0.0005)),
                pair.tick,
                false,
            )
        };
        let extra = if rng.random::<f64>() < 0.2 {
            json!({"timeInForce": "ioc"})
        } else {
            json!({})
        };
        (Kind::Cross, price, extra)
    } else {
        // On the passive side within 10 basis points of the middle: from inside the spread (a
        // better touch) to behind the house's ladder; one in five post-only.
        let price = if buy {
            let low = mid * (Decimal::ONE - fraction(0.001));
            let high = (ask - pair.tick).max(low);
            on_grid(low + (high - low) * fraction(u), pair.tick, false)
        } else {
            let high = mid * (Decimal::ONE + fraction(0.001));
            let low = (bid + pair.tick).min(high);
            on_grid(low + (high - low) * fraction(u), pair.tick, true)
        };
        let extra = if rng.random::<f64>() < 0.2 {
            json!({"postOnly": true})
        } else {
            json!({})
        };
        (Kind::Near, price, extra)
    };
    let quantity = quantity_for(pair, notional, price);
    let mut order = json!({"symbol": pair.symbol, "side": side, "orderType": "limit",
        "price": price.to_string(), "quantity": quantity.to_string()});
    if let (Some(order), Some(extra)) = (order.as_object_mut(), extra.as_object()) {
        order.extend(extra.clone());
    }
    Some((kind, order))
}

/// Classifies an answer.
fn outcome(status: u16, body: &Value) -> Outcome {
    let reason = body["data"]["reason"].as_str().unwrap_or_default();
    if status == 200 && body["code"] == 200 {
        Outcome::Ok(body["data"]["status"].as_str().map(str::to_owned))
    } else if status == 400 && EXPECTED_REFUSALS.contains(&reason) {
        Outcome::Refused(reason.to_owned())
    } else {
        let reason = if reason.is_empty() {
            body["msg"].as_str().unwrap_or_default()
        } else {
            reason
        };
        Outcome::Failed(format!("{status} {reason}"))
    }
}

/// One client: its user's orders, back to back, until the end of the window, to server
/// `id mod N`; when that server has been killed, to the next live one (what was in flight is sent
/// again there, with the same `Idempotency-Key`).
async fn client(
    id: usize,
    user: User,
    shared: Arc<Shared>,
) -> (Vec<Sample>, VecDeque<i64>, Vec<String>) {
    let mut samples = Vec::new();
    let mut violations = Vec::new();
    let mut open: VecDeque<i64> = VecDeque::new();
    let mut instance = id % shared.bases.len();
    let http = match reqwest::Client::builder()
        .pool_max_idle_per_host(1)
        .timeout(Duration::from_secs(30))
        .build()
    {
        Ok(http) => http,
        Err(error) => {
            samples.push(Sample {
                kind: Kind::Near,
                pair: None,
                instance,
                sent_ms: 0,
                micros: 0,
                outcome: Outcome::Failed(format!("client: {error}")),
            });
            return (samples, open, violations);
        }
    };
    let mut rng = ChaCha8Rng::seed_from_u64(0x6f72_6465_7200 + id as u64);
    let mut sequence = 0u64;
    while Instant::now() < shared.end {
        let cancel = !open.is_empty()
            && (open.len() >= shared.max_open || rng.random::<f64>() < shared.share_cancel);
        let (kind, order, cancelling, key) = if cancel {
            (Kind::Cancel, None, open.pop_front(), None)
        } else {
            let Some((kind, order)) = next_order(&shared, &mut rng) else {
                tokio::time::sleep(Duration::from_millis(10)).await;
                continue;
            };
            sequence += 1;
            let key = shared.idempotency.then(|| format!("ol-{id}-{sequence}"));
            (kind, Some(order), None, key)
        };
        let pair = order.as_ref().and_then(|order| shared.pair_of(order));
        let started = Instant::now();
        let answer = loop {
            let base = &shared.bases[instance];
            let request = match (&order, cancelling) {
                (Some(order), _) => {
                    let mut request = http
                        .post(format!("{base}/api/currency/order/submit"))
                        .header("satoken", &user.token)
                        .header("content-type", "application/json")
                        .body(order.to_string());
                    if let Some(key) = &key {
                        request = request.header("Idempotency-Key", key);
                    }
                    request
                }
                (None, order) => http
                    .post(format!(
                        "{base}/api/currency/order/cancelOrder?id={}",
                        order.unwrap_or_default()
                    ))
                    .header("satoken", &user.token),
            };
            let answer = match request.send().await {
                Ok(response) => {
                    let status = response.status().as_u16();
                    match response.bytes().await {
                        Ok(bytes) => match serde_json::from_slice::<Value>(&bytes) {
                            Ok(body) => Ok((status, body)),
                            Err(_) => Err(format!("{status} not JSON")),
                        },
                        Err(error) => Err(format!("reading the body: {error}")),
                    }
                }
                Err(error) if error.is_timeout() => Err("timed out (30 s)".to_owned()),
                Err(error) if error.is_connect() => Err("connect failed".to_owned()),
                Err(error) => Err(format!("transport: {error}")),
            };
            // The server died under the request: ask the next live one (a resent submission
            // carries the same key, so it is placed at most once).
            if answer.is_err()
                && shared.dead[instance].load(Ordering::SeqCst)
                && (key.is_some() || cancelling.is_some())
            {
                instance = shared.alive_index(instance);
                continue;
            }
            break answer;
        };
        let answered_by = instance;
        if shared.dead[instance].load(Ordering::SeqCst) {
            instance = shared.alive_index(instance);
        }
        let micros = started.elapsed().as_micros() as u64;
        let outcome = match &answer {
            Ok((status, body)) => {
                let outcome = outcome(*status, body);
                if kind != Kind::Cancel
                    && matches!(outcome, Outcome::Ok(_))
                    && let Some(violation) = order_violation(&body["data"])
                    && violations.len() < 5
                {
                    violations.push(violation);
                }
                if kind != Kind::Cancel
                    && let Outcome::Ok(Some(status)) = &outcome
                    && (status == "waitDeal" || status == "partDeal")
                    && let Some(order) = body["data"]["id"].as_i64()
                {
                    open.push_back(order);
                }
                outcome
            }
            Err(error) => Outcome::Failed(error.clone()),
        };
        // A cancellation that failed left the order open.
        if let (Some(order), Outcome::Failed(_)) = (cancelling, &outcome) {
            open.push_front(order);
        }
        let sent_ms = if started >= shared.measure_from {
            started.duration_since(shared.measure_from).as_millis() as i64
        } else {
            -(shared.measure_from.duration_since(started).as_millis() as i64) - 1
        };
        samples.push(Sample {
            kind,
            pair,
            instance: answered_by,
            sent_ms,
            micros,
            outcome,
        });
    }
    (samples, open, violations)
}

/// What is wrong with an accepted order's answer: executed more than asked, a limit order
/// executed at an average beyond its limit, or a filled order short of its quantity.
fn order_violation(order: &Value) -> Option<String> {
    let number = |key: &str| decimal(&order[key]);
    let executed = number("haveDealNum")?;
    let wrong = |what: &str| Some(format!("{what}: {order}"));
    if let Some(quantity) = number("commissNum") {
        if executed > quantity {
            return wrong("executed more than the quantity");
        }
        if order["status"] == "dealTotol" && executed != quantity {
            return wrong("filled short of the quantity");
        }
    }
    if order["commissType"] == "limit"
        && !executed.is_zero()
        && let (Some(limit), Some(average)) = (number("commissPrice"), number("dealAverPrice"))
    {
        let beyond = match order["side"].as_str() {
            Some("buy") => average > limit,
            _ => average < limit,
        };
        if beyond {
            return wrong("executed beyond the limit price");
        }
    }
    None
}

/// The CPU time of every `postgres` process of this machine (the server's connections), in clock
/// ticks.
fn postgres_ticks() -> Option<u64> {
    let mut total = 0;
    let mut found = false;
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let comm = std::fs::read_to_string(entry.path().join("comm")).unwrap_or_default();
        if comm.trim() == "postgres" {
            found = true;
            total += support::cpu_ticks(Some(pid)).unwrap_or(0);
        }
    }
    found.then_some(total)
}

/// One thread: name, CPU time in clock ticks, time runnable but waiting for a CPU in ns, context
/// switches (voluntary and not).
type ThreadReading = (String, u64, u64, u64);

/// Every thread of a process by thread id: its name (numbers dropped: `sqlx-sqlite-worker-3`
/// reads `sqlx-sqlite-worker`), CPU time, run-queue wait and context switches. Compared per
/// thread, so threads that end between two readings (tokio's blocking threads after the logins)
/// do not make the sums go back.
fn thread_readings(pid: u32) -> BTreeMap<u32, ThreadReading> {
    let mut threads = BTreeMap::new();
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return threads;
    };
    for task in tasks.flatten() {
        let Some(tid) = task
            .file_name()
            .to_str()
            .and_then(|t| t.parse::<u32>().ok())
        else {
            continue;
        };
        let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        let name = comm
            .trim()
            .trim_end_matches(|c: char| c.is_ascii_digit() || c == '-' || c == '_')
            .to_owned();
        let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
        let ticks = stat.rfind(')').and_then(|at| {
            let fields: Vec<&str> = stat.get(at + 2..)?.split_whitespace().collect();
            Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
        });
        let waited = std::fs::read_to_string(task.path().join("schedstat"))
            .ok()
            .and_then(|text| text.split_whitespace().nth(1)?.parse::<u64>().ok());
        let status = std::fs::read_to_string(task.path().join("status")).unwrap_or_default();
        let switches: u64 = status
            .lines()
            .filter_map(|line| {
                let value = line
                    .strip_prefix("voluntary_ctxt_switches:")
                    .or_else(|| line.strip_prefix("nonvoluntary_ctxt_switches:"))?;
                value.trim().parse::<u64>().ok()
            })
            .sum();
        threads.insert(
            tid,
            (name, ticks.unwrap_or(0), waited.unwrap_or(0), switches),
        );
    }
    threads
}

/// Between two [`thread_readings`]: CPU ticks by thread name, the run-queue wait of all threads
/// in ns, and their context switches.
fn thread_deltas(
    before: &BTreeMap<u32, ThreadReading>,
    after: &BTreeMap<u32, ThreadReading>,
) -> (BTreeMap<String, u64>, u64, u64) {
    let mut groups = BTreeMap::new();
    let mut waited = 0;
    let mut switched = 0;
    for (tid, (name, ticks, wait, switches)) in after {
        let (ticks0, wait0, switches0) = before
            .get(tid)
            .map_or((0, 0, 0), |(_, t, w, s)| (*t, *w, *s));
        *groups.entry(name.clone()).or_default() += ticks.saturating_sub(ticks0);
        waited += wait.saturating_sub(wait0);
        switched += switches.saturating_sub(switches0);
    }
    (groups, waited, switched)
}

/// Latency percentiles of a set of samples (microseconds, sorted).
fn line(name: &str, micros: &[u64], secs: f64, extra: &str) -> String {
    let q = |p: f64| support::quantile(micros, p).map_or(f64::NAN, |v| v as f64 / 1000.0);
    format!(
        "  {name:<12} {:>7.0} req/s  p50 {:>6.1} ms  p90 {:>6.1} ms  p99 {:>6.1} ms  max {:>7.1} ms  ({} requests{extra})",
        micros.len() as f64 / secs,
        q(0.5),
        q(0.9),
        q(0.99),
        q(1.0),
        micros.len()
    )
}

/// Everything after the server is up: setup, the window, the report, the checks. Returns the
/// `RESULT` line (with `"audit":null` for the caller to fill) and the problems found.
async fn load(
    args: &Args,
    bases: &[String],
    pid: Option<u32>,
    servers: &[Server],
    postgres: Option<&PostgresDatabase>,
) -> Result<(String, Vec<String>), String> {
    let base = bases[0].as_str();
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .map_err(|e| e.to_string())?;
    let pairs = pairs(&http, base, &args.symbols).await?;
    // The house market maker's first ladder.
    let deadline = Instant::now() + Duration::from_secs(60);
    for pair in &pairs {
        while read_touch(&http, base, pair).await.is_err() || pair.touch().is_none() {
            if Instant::now() > deadline {
                return Err(format!(
                    "the house market maker never quoted {}",
                    pair.symbol
                ));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    let operator = match (servers.first(), &args.operator_email) {
        (Some(server), _) => {
            server.cli(
                &["admin", "create-operator", "--email", OPERATOR],
                &[("EXCHANGE_OPERATOR_PASSWORD", PASSWORD)],
            )?;
            login(&http, base, OPERATOR, PASSWORD).await?
        }
        (None, Some(email)) => {
            let password = args
                .operator_password
                .as_deref()
                .ok_or("--operator-password (or ORDER_LOAD_OPERATOR_PASSWORD) is needed")?;
            login(&http, base, email, password).await?
        }
        (None, None) => return Err("--operator-email is needed with --url".into()),
    };
    let rss_ready = pid.and_then(|pid| support::rss_kib(Some(pid)));
    let referrers = if args.rebates {
        let referrers = setup_referrers(&http, base, &operator).await?;
        println!(
            "  rebates ON: every user registers under a chain of three referrers; the server's rebate batch runs every {} s on a clock 2 h ahead (each run pays every fill so far), both qualification rules off",
            args.rebate_every_secs.max(1)
        );
        Some(referrers)
    } else {
        println!("  rebates OFF: no user has an inviter, the server's rebate batch is off");
        None
    };
    let users = setup_users(
        &http,
        base,
        &operator,
        &pairs,
        args.clients,
        args.fund_usdt,
        referrers.as_ref().map(|r| r.code.as_str()),
    )
    .await?;
    if let Some(ready) = rss_ready {
        println!(
            "  server RSS {} MiB before the setup, {} MiB after it",
            ready / 1024,
            pid.and_then(|pid| support::rss_kib(Some(pid))).unwrap_or(0) / 1024
        );
    }

    let start = Instant::now();
    let measure_from = start + Duration::from_secs(args.warmup);
    println!(
        "  the window starts at {} UTC",
        (chrono::Utc::now() + Duration::from_secs(args.warmup)).format("%H:%M:%S%.3f")
    );
    let end = measure_from + Duration::from_secs(args.secs);
    let shared = Arc::new(Shared {
        bases: bases.to_vec(),
        dead: bases.iter().map(|_| AtomicBool::new(false)).collect(),
        pairs,
        share_cancel: args.share_cancel,
        share_market: args.share_market,
        share_cross: args.share_cross,
        max_open: args.max_open.max(1),
        idempotency: !args.no_idempotency_key,
        measure_from,
        end,
    });
    // The touch of every pair, for the clients' prices.
    let poller = {
        let shared = shared.clone();
        let http = http.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(TOUCH_EVERY);
            loop {
                every.tick().await;
                let base = shared.alive_base(0);
                for pair in &shared.pairs {
                    let _ = read_touch(&http, base, pair).await;
                }
            }
        })
    };
    let handles: Vec<_> = users
        .iter()
        .enumerate()
        .map(|(id, user)| tokio::spawn(client(id, user.clone(), shared.clone())))
        .collect();
    tokio::time::sleep_until(measure_from.into()).await;
    let server_mark = CpuMark::now(pid);
    let own_mark = CpuMark::now(None);
    let postgres_mark = postgres_ticks();
    let counters_mark = match postgres {
        Some(db) => db.counters().await,
        None => None,
    };
    // Which instance owns each pair (cluster mode), for telling direct orders from forwarded ones.
    let owners_at_start = match (postgres, args.nats_url.is_some()) {
        (Some(db), true) => {
            let connection = db.connect().await?;
            let owners = PostgresDatabase::owners(&connection, &shared.pairs).await;
            connection.close().await.ok();
            Some(owners?)
        }
        _ => None,
    };
    let rss_before = pid.and_then(|pid| support::rss_kib(Some(pid)));
    let threads_mark = pid.map(thread_readings).unwrap_or_default();
    let kill = match (args.kill_owner_at_secs, postgres) {
        (Some(at), Some(db)) if servers.len() > 1 => {
            let killed =
                kill_owner(db, &shared, servers, measure_from + Duration::from_secs(at)).await?;
            Some(killed)
        }
        _ => None,
    };
    tokio::time::sleep_until(end.into()).await;
    let threads_end = pid.map(thread_readings).unwrap_or_default();
    let server_end = CpuMark::now(pid);
    let own_end = CpuMark::now(None);
    let postgres_end = postgres_ticks();
    let counters_end = match postgres {
        Some(db) => db.counters().await,
        None => None,
    };
    let rss_after = pid.and_then(|pid| support::rss_kib(Some(pid)));
    let rss_peak = pid.and_then(|pid| support::status_kib(Some(pid), "VmHWM"));
    let mut samples = Vec::new();
    let mut tracked = Vec::new();
    let mut violations = Vec::new();
    for handle in handles {
        let (mine, open, wrong) = handle.await.map_err(|e| e.to_string())?;
        samples.extend(mine);
        violations.extend(wrong);
        tracked.push(open.into_iter().collect::<HashSet<i64>>());
    }
    let tracked_open: usize = tracked.iter().map(HashSet::len).sum();
    poller.abort();
    // What follows goes to a live server.
    let base = shared.alive_base(0);
    let rebates = match &referrers {
        Some(referrers) => Some(rebates_recorded(&http, base, referrers).await?),
        None => None,
    };
    let secs = args.secs as f64;
    let measured: Vec<&Sample> = samples.iter().filter(|s| s.sent_ms >= 0).collect();

    println!();
    println!(
        "spot orders over {secs:.0} s (latency = sending the request to the last byte of the answer)"
    );
    let sorted = |filter: &dyn Fn(&Sample) -> bool| -> Vec<u64> {
        let mut micros: Vec<u64> = measured
            .iter()
            .filter(|s| filter(s))
            .map(|s| s.micros)
            .collect();
        micros.sort_unstable();
        micros
    };
    let all = sorted(&|_| true);
    let refused = |s: &Sample| matches!(s.outcome, Outcome::Refused(_));
    let failed = |s: &Sample| matches!(s.outcome, Outcome::Failed(_));
    let count = |filter: &dyn Fn(&Sample) -> bool| measured.iter().filter(|s| filter(s)).count();
    println!(
        "{}",
        line(
            "all",
            &all,
            secs,
            &format!(
                ", {} refused as expected, {} failed",
                count(&refused),
                count(&failed)
            )
        )
    );
    for kind in Kind::ALL {
        let micros = sorted(&|s| s.kind == kind);
        let statuses = {
            let mut statuses: BTreeMap<String, usize> = BTreeMap::new();
            for sample in measured.iter().filter(|s| s.kind == kind) {
                let key = match &sample.outcome {
                    Outcome::Ok(Some(status)) => status.clone(),
                    Outcome::Ok(None) => "ok".into(),
                    Outcome::Refused(reason) => format!("400 {reason}"),
                    Outcome::Failed(reason) => format!("FAILED {reason}"),
                };
                *statuses.entry(key).or_default() += 1;
            }
            statuses
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        println!(
            "{}",
            line(kind.name(), &micros, secs, &format!(": {statuses}"))
        );
    }
    // Cluster mode: the submissions the instance answered itself against those it forwarded to
    // the pair's owner (before any kill), and the failover.
    let mut hop = None;
    if let Some(owners) = &owners_at_start {
        println!(
            "  owners at the start of the window: {}",
            shared
                .pairs
                .iter()
                .zip(owners)
                .map(|(pair, owner)| format!(
                    "{} {}",
                    pair.symbol,
                    owner.map_or("none".to_owned(), |o| format!("i{o}"))
                ))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let before_kill = |s: &Sample| kill.as_ref().is_none_or(|k| s.sent_ms < k.at_ms - 1000);
        let owner_of = |s: &Sample| s.pair.and_then(|p| owners[p]);
        let direct = sorted(&|s| {
            s.kind != Kind::Cancel && before_kill(s) && owner_of(s) == Some(s.instance)
        });
        let forwarded = sorted(&|s| {
            s.kind != Kind::Cancel && before_kill(s) && owner_of(s).is_some_and(|o| o != s.instance)
        });
        println!(
            "{}",
            line(
                "submissions, direct",
                &direct,
                secs,
                " (the instance owns the pair)"
            )
        );
        println!(
            "{}",
            line(
                "submissions, forwarded",
                &forwarded,
                secs,
                " (to the owner over NATS)"
            )
        );
        if let (Some(d), Some(f)) = (
            support::quantile(&direct, 0.5),
            support::quantile(&forwarded, 0.5),
        ) {
            let ms = (f as f64 - d as f64) / 1000.0;
            println!(
                "  forwarding hop at p50: {ms:.2} ms ({})",
                if ms <= 2.0 {
                    "goal <= 2 ms met"
                } else {
                    "goal <= 2 ms NOT MET"
                }
            );
            hop = Some(ms);
        }
    }
    let served_again_ms = kill.as_ref().and_then(|k| {
        measured
            .iter()
            .filter(|s| {
                s.kind != Kind::Cancel
                    && s.pair == Some(0)
                    && s.sent_ms >= k.at_ms
                    && matches!(s.outcome, Outcome::Ok(_))
            })
            .map(|s| s.sent_ms + (s.micros / 1000) as i64 - k.at_ms)
            .min()
    });
    if let Some(k) = &kill {
        let symbol = &shared.pairs[0].symbol;
        println!(
            "  failover: another instance held {symbol} {} after the kill of i{}; the first order on {symbol} sent after the kill was answered {} after it (goal: served again within 5 s: {})",
            k.takeover_ms
                .map_or("NEVER (30 s)".to_owned(), |ms| format!("{ms} ms")),
            k.victim,
            served_again_ms.map_or("never".to_owned(), |ms| format!("{ms} ms")),
            if served_again_ms.is_some_and(|ms| ms <= 5000) {
                "met"
            } else {
                "NOT MET"
            }
        );
    }
    let submits = count(&|s| s.kind != Kind::Cancel);
    let accepted = count(&|s| s.kind != Kind::Cancel && matches!(s.outcome, Outcome::Ok(_)));
    let cancels = count(&|s| s.kind == Kind::Cancel && matches!(s.outcome, Outcome::Ok(_)));
    let order_requests = count(&|s| !failed(s));
    let orders_per_sec = order_requests as f64 / secs;
    // Answers per second of the window, second by second: is the rate sustained?
    let mut per_second = vec![0usize; args.secs as usize];
    let mut worst = vec![0u64; args.secs as usize];
    for sample in &measured {
        let second = (sample.sent_ms / 1000) as usize;
        if let Some(slot) = per_second.get_mut(second) {
            *slot += 1;
            worst[second] = worst[second].max(sample.micros);
        }
    }
    let mut rates = per_second.clone();
    rates.sort_unstable();
    println!(
        "  orders {:.0}/s submitted, {:.0}/s accepted; cancels {:.0}/s done; per second of the window: min {}, median {}, max {} requests",
        submits as f64 / secs,
        accepted as f64 / secs,
        cancels as f64 / secs,
        rates.first().copied().unwrap_or(0),
        support::quantile(&rates, 0.5).unwrap_or(0),
        rates.last().copied().unwrap_or(0)
    );
    println!(
        "  requests by second: {}",
        per_second
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!(
        "  slowest answer by second (ms): {}",
        worst
            .iter()
            .map(|m| format!("{:.0}", *m as f64 / 1000.0))
            .collect::<Vec<_>>()
            .join(" ")
    );
    let slow = |ms: u64| all.iter().filter(|m| **m > ms * 1000).count();
    println!(
        "  answers over 50 ms: {}, over 200 ms: {}, over 1 s: {}",
        slow(50),
        slow(200),
        slow(1000)
    );
    // Every failure of the run, warm-up included.
    let mut failures: BTreeMap<String, usize> = BTreeMap::new();
    let mut refusals: BTreeMap<String, usize> = BTreeMap::new();
    for sample in &samples {
        match &sample.outcome {
            Outcome::Failed(reason) => *failures.entry(reason.clone()).or_default() += 1,
            Outcome::Refused(reason) => *refusals.entry(reason.clone()).or_default() += 1,
            Outcome::Ok(_) => {}
        }
    }
    let listed = |map: &BTreeMap<String, usize>| {
        if map.is_empty() {
            "none".to_owned()
        } else {
            map.iter()
                .map(|(k, v)| format!("{k} x {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    println!(
        "  expected refusals (400, whole run): {}",
        listed(&refusals)
    );
    println!("  failures (whole run): {}", listed(&failures));

    let (thread_groups, thread_waited, thread_switches) =
        thread_deltas(&threads_mark, &threads_end);
    let server_cpu = server_mark.process_percent(&server_end);
    let own_cpu = own_mark.process_percent(&own_end);
    let machine = own_mark.machine_percent(&own_end);
    let postgres_cpu = postgres_mark.zip(postgres_end).map(|(a, b)| {
        100.0 * b.saturating_sub(a) as f64 / support::clock_ticks_per_second() / secs
    });
    let per_request = |cpu: Option<f64>| {
        cpu.filter(|_| order_requests > 0)
            .map_or("n/a".into(), |p| {
                format!("{:.0} us", p / 100.0 * secs * 1e6 / order_requests as f64)
            })
    };
    println!(
        "  server CPU {} of one core ({} an order request); its threads waited {} for a CPU; RSS {} MiB before the window, {} MiB after (peak {} MiB)",
        server_cpu.map_or("n/a".into(), |p| format!("{p:.0}%")),
        per_request(server_cpu),
        if threads_end.is_empty() {
            "n/a".to_owned()
        } else {
            format!("{:.1} s in {secs:.0} s", thread_waited as f64 / 1e9)
        },
        rss_before.map_or("n/a".into(), |k| (k / 1024).to_string()),
        rss_after.map_or("n/a".into(), |k| (k / 1024).to_string()),
        rss_peak.map_or("n/a".into(), |k| (k / 1024).to_string()),
    );
    if !threads_end.is_empty() {
        let mut groups: Vec<(String, f64)> = thread_groups
            .iter()
            .map(|(name, spent)| {
                let percent = 100.0 * *spent as f64 / support::clock_ticks_per_second() / secs;
                (name.clone(), percent)
            })
            .filter(|(_, percent)| *percent >= 0.5)
            .collect();
        groups.sort_by(|a, b| b.1.total_cmp(&a.1));
        println!(
            "  server CPU by thread (% of one core): {}; {:.0} context switches a second ({:.1} an order request)",
            groups
                .iter()
                .map(|(name, percent)| format!("{name} {percent:.0}%"))
                .collect::<Vec<_>>()
                .join(", "),
            thread_switches as f64 / secs,
            thread_switches as f64 / order_requests.max(1) as f64
        );
    }
    if args.database_url.is_some() {
        println!(
            "  PostgreSQL processes CPU {} of one core ({} an order request)",
            postgres_cpu.map_or("n/a".into(), |p| format!("{p:.0}%")),
            per_request(postgres_cpu)
        );
    }
    if let (Some(a), Some(b)) = (counters_mark, counters_end) {
        let d: Vec<f64> = a.iter().zip(b).map(|(a, b)| (b - a) as f64).collect();
        let per = |v: f64| v / order_requests.max(1) as f64;
        println!(
            "  PostgreSQL (pg_stat_database, about the window): {:.0} commits/s ({:.1} an order request), {:.0} rollbacks, rows an order request: {:.1} inserted, {:.1} updated, {:.1} fetched; deadlocks {:.0}",
            d[0] / secs,
            per(d[0]),
            d[1],
            per(d[2]),
            per(d[3]),
            per(d[4]),
            d[5]
        );
    }
    if let Some(([third, second, first], paid)) = &rebates {
        println!(
            "  rebates recorded by the end of the window: {first} lines of generation 1, {second} of generation 2, {third} of generation 3 (one per fee a user paid, once its batch ran); paid to generation 1: {paid}"
        );
    }
    println!(
        "  this tool CPU {} of one core; machine busy {} of {} cores; load average {}",
        own_cpu.map_or("n/a".into(), |p| format!("{p:.0}%")),
        machine.map_or("n/a".into(), |p| format!("{p:.0}%")),
        support::cpus(),
        support::load_average()
    );

    // Consistency: every open order cancelled, every hold released.
    println!();
    println!("consistency after the window");
    let mut problems = Vec::new();
    let (cancelled, untracked, frozen_left) = wind_down(&http, base, &users, &tracked).await?;
    println!(
        "  open orders listed by orderList and cancelled: {cancelled}, of which the clients had not been answered as open: {untracked} (the clients held {tracked_open} orders answered as open, some filled since)"
    );
    println!(
        "  users with a frozen balance or a stuck order left: {}",
        if frozen_left.is_empty() {
            "none".to_owned()
        } else {
            frozen_left.join("; ")
        }
    );
    if !frozen_left.is_empty() {
        problems.push(format!(
            "{} users kept a frozen balance or a stuck order",
            frozen_left.len()
        ));
    }
    println!(
        "  order answers with an execution beyond their limit or quantity: {}",
        if violations.is_empty() {
            "none".to_owned()
        } else {
            violations.join("; ")
        }
    );
    if !violations.is_empty() {
        problems.push(format!("{} order answers were wrong", violations.len()));
    }
    if untracked > 0 {
        problems.push(format!(
            "{untracked} open orders were never answered as open (a 503 answer for an order that was kept?)"
        ));
    }
    let unexpected: usize = failures.values().sum();
    if unexpected > 0 {
        problems.push(format!(
            "{unexpected} requests failed: {}",
            listed(&failures)
        ));
    }

    let p99 = support::quantile(&all, 0.99).unwrap_or(0) as f64 / 1000.0;
    let p50 = support::quantile(&all, 0.5).unwrap_or(0) as f64 / 1000.0;
    let p90 = support::quantile(&all, 0.9).unwrap_or(0) as f64 / 1000.0;
    let max = all.last().copied().unwrap_or(0) as f64 / 1000.0;
    println!();
    println!("goals");
    let verdict = |met: bool| if met { "met" } else { "NOT MET" };
    println!(
        "  at least 5,000 orders/s (order requests answered: submissions and cancellations): {orders_per_sec:.0}/s ({}; submissions alone {:.0}/s)",
        verdict(orders_per_sec >= 5000.0),
        submits as f64 / secs
    );
    println!("  p99 under 50 ms: {p99:.1} ms ({})", verdict(p99 < 50.0));
    let result = format!(
        "RESULT {{\"database\":\"{}\",\"clients\":{},\"secs\":{secs:.0},\"symbols\":\"{}\",\"ordersPerSec\":{orders_per_sec:.0},\"submitsPerSec\":{:.0},\"acceptedPerSec\":{:.0},\"cancelsPerSec\":{:.0},\"p50Ms\":{p50:.1},\"p90Ms\":{p90:.1},\"p99Ms\":{p99:.1},\"maxMs\":{max:.1},\"refused\":{},\"failed\":{unexpected},\"serverCpuPercent\":{},\"postgresCpuPercent\":{},\"serverRssMiB\":{},\"machineBusyPercent\":{},\"rebates\":{},\"rebateLines\":{},\"instances\":{},\"hopP50Ms\":{},\"takeoverMs\":{},\"servedAgainMs\":{},\"audit\":null}}",
        if args.url.is_some() {
            "external"
        } else if args.database_url.is_some() {
            "postgres"
        } else {
            "sqlite"
        },
        args.clients,
        args.symbols.join(","),
        submits as f64 / secs,
        accepted as f64 / secs,
        cancels as f64 / secs,
        refusals.values().sum::<usize>(),
        server_cpu.map_or("null".into(), |v| format!("{v:.0}")),
        postgres_cpu.map_or("null".into(), |v| format!("{v:.0}")),
        rss_after.map_or("null".into(), |k| (k / 1024).to_string()),
        machine.map_or("null".into(), |v| format!("{v:.0}")),
        args.rebates,
        rebates
            .as_ref()
            .map_or("null".into(), |(lines, _)| lines[2].to_string()),
        shared.bases.len(),
        hop.map_or("null".into(), |ms| format!("{ms:.2}")),
        kill.as_ref()
            .and_then(|k| k.takeover_ms)
            .map_or("null".into(), |ms| ms.to_string()),
        served_again_ms.map_or("null".into(), |ms| ms.to_string()),
    );
    Ok((result, problems))
}

/// What `--kill-owner-at-secs` did and measured.
struct KillReport {
    /// The instance killed: the first pair's owner.
    victim: usize,
    /// When, in milliseconds from the start of the window.
    at_ms: i64,
    /// From the kill until another instance held the first pair (its `market_owner` row).
    takeover_ms: Option<u64>,
}

/// At `at`, `kill -9`s the owner of the first pair (marked dead first, so its clients move on),
/// then watches `market_owner` until another instance has taken the pair (30 s at most).
async fn kill_owner(
    db: &PostgresDatabase,
    shared: &Shared,
    servers: &[Server],
    at: Instant,
) -> Result<KillReport, String> {
    tokio::time::sleep_until(at.into()).await;
    let first = &shared.pairs[..1];
    let symbol = &first[0].symbol;
    // One connection for the whole watch: it is read every 20 ms.
    let connection = db.connect().await?;
    let victim = PostgresDatabase::owners(&connection, first).await?[0]
        .filter(|owner| *owner < servers.len())
        .ok_or_else(|| format!("{symbol} has no owner among the instances"))?;
    shared.dead[victim].store(true, Ordering::SeqCst);
    // SAFETY: signalling our own child by its id.
    unsafe {
        libc::kill(servers[victim].pid as libc::pid_t, libc::SIGKILL);
    }
    let killed = Instant::now();
    let at_ms = killed.duration_since(shared.measure_from).as_millis() as i64;
    println!(
        "  kill -9 of instance i{victim}, the owner of {symbol}, {:.1} s into the window",
        at_ms as f64 / 1000.0
    );
    let deadline = killed + Duration::from_secs(30);
    let mut takeover_ms = None;
    while Instant::now() < deadline {
        if let Ok(owners) = PostgresDatabase::owners(&connection, first).await
            && owners[0].is_some_and(|owner| owner != victim)
        {
            takeover_ms = Some(killed.elapsed().as_millis() as u64);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    connection.close().await.ok();
    Ok(KillReport {
        victim,
        at_ms,
        takeover_ms,
    })
}

/// Cancels every user's open orders (as `orderList` lists them): `(orders cancelled, open orders
/// the user's client was never answered as open, users left with a frozen balance or an order
/// that stays open)`.
async fn wind_down(
    http: &reqwest::Client,
    base: &str,
    users: &[User],
    tracked: &[HashSet<i64>],
) -> Result<(usize, usize, Vec<String>), String> {
    type Wound = (usize, usize, Option<String>);
    let results: Vec<Result<Wound, String>> = stream::iter(users.iter().zip(tracked))
        .map(|(user, tracked)| async move {
            let mut cancelled = 0;
            let mut untracked = 0;
            let mut stuck = None;
            loop {
                let path = "/api/currency/order/orderList?scope=current&pageSize=100";
                let page = ok_data(path, call(http, base, Some(&user.token), path, None).await?)?;
                let records = page["records"].as_array().cloned().unwrap_or_default();
                if records.is_empty() {
                    break;
                }
                let before = cancelled;
                let listed = records.len();
                for order in records {
                    let id = order["id"].as_i64().unwrap_or_default();
                    if !tracked.contains(&id) {
                        untracked += 1;
                    }
                    let path = format!("/api/currency/order/cancelOrder?id={id}");
                    let (status, body) = call(http, base, Some(&user.token), &path, None).await?;
                    match outcome(status, &body) {
                        Outcome::Ok(_) => cancelled += 1,
                        // Filled between the list and the cancellation.
                        Outcome::Refused(reason) if reason == "order_not_open" => {}
                        _ => return Err(format!("{path}: {status} {body}")),
                    }
                }
                if cancelled == before {
                    // Listed as open, yet none could be cancelled.
                    stuck = Some(format!(
                        "{listed} orders listed as open but not cancellable"
                    ));
                    break;
                }
            }
            let path = "/api/userCoin/getUserCoin";
            let coins = ok_data(path, call(http, base, Some(&user.token), path, None).await?)?;
            let mut left: Vec<String> = coins["coins"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .iter()
                .filter(|c| decimal(&c["frozen"]).is_some_and(|f| !f.is_zero()))
                .map(|c| {
                    format!(
                        "{} {} frozen",
                        c["frozen"].as_str().unwrap_or(""),
                        c["coin"].as_str().unwrap_or("")
                    )
                })
                .collect();
            left.extend(stuck);
            Ok((
                cancelled,
                untracked,
                (!left.is_empty()).then(|| format!("{}: {}", user.account, left.join(", "))),
            ))
        })
        .buffer_unordered(4)
        .collect()
        .await;
    let mut cancelled = 0;
    let mut untracked = 0;
    let mut problems = Vec::new();
    for result in results {
        let (n, u, left) = result?;
        cancelled += n;
        untracked += u;
        problems.extend(left);
    }
    Ok((cancelled, untracked, problems))
}
