//! Load tool for kline history, `POST /api/market/kline` (a benchmark, not a test).
//!
//! K clients, each with its own keep-alive HTTP connection (reqwest), ask for pages of 500 candles
//! back to back (closed loop) for `--secs` after a warm-up: a mix of 1m (the chart's default) and
//! 1h pages of the eight pairs the market load uses, the newest page each time. Reports requests
//! per second and latency percentiles per interval, and the server's CPU.
//!
//! By default the server is `target/release/backend serve` on a fresh SQLite database in a
//! temporary folder, as its own process, and the database first gets `--history-days` of 1-minute
//! candles per pair (a random walk ending at the pair's reference price), so that a 1h page of 500
//! really rolls up 500 hours (30,060 stored minutes); with `--history-days 0` the database holds
//! only the day the simulator backfills, and a 1h page has 24 candles. `--url` uses a running
//! server (`--server-pid` to read its CPU).
//!
//! ```text
//! cargo build --release -p backend --bins --examples
//! cargo run --release -p backend --example rest_load -- --clients 32 --secs 30
//! ```

mod support;

use std::{
    path::PathBuf,
    process::ExitCode,
    sync::Arc,
    time::{Duration, Instant},
};

use clap::Parser;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_decimal::Decimal;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use wasm_core::kline::Candle;

use backend::{entity::coin, market::simulator::round_to_step};
use support::{CpuMark, ServerProcess};

/// The pairs asked for (the market load's eight).
const SYMBOLS: [&str; 8] = [
    "btcusdt", "ethusdt", "bnbusdt", "solusdt", "xrpusdt", "dogeusdt", "adausdt", "ltcusdt",
];
const MINUTE_MS: i64 = 60_000;

/// Kline history load: K keep-alive clients asking for 1m and 1h pages of 500 candles.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Concurrent clients, each with one keep-alive connection.
    #[arg(long, default_value_t = 32, env = "REST_LOAD_CLIENTS")]
    clients: usize,
    /// Seconds measured (after the warm-up).
    #[arg(long, default_value_t = 30, env = "REST_LOAD_SECS")]
    secs: u64,
    /// Seconds of warm-up, not measured.
    #[arg(long, default_value_t = 3)]
    warmup: u64,
    /// Share of requests for 1h pages; the rest ask for 1m pages.
    #[arg(long, default_value_t = 0.3)]
    share_1h: f64,
    /// Candles per page.
    #[arg(long, default_value_t = 500)]
    limit: u32,
    /// Days of 1-minute candles stored per pair before the server starts (0: only the
    /// simulator's one-day backfill).
    #[arg(long, default_value_t = 30)]
    history_days: u32,
    /// A running server (`http://127.0.0.1:8080`) instead of starting one.
    #[arg(long)]
    url: Option<String>,
    /// With `--url`: the server's process id, to read its CPU.
    #[arg(long, requires = "url")]
    server_pid: Option<u32>,
    /// The backend binary started as the server.
    #[arg(long)]
    server_bin: Option<PathBuf>,
}

/// One measured request.
struct Sample {
    hourly: bool,
    micros: u64,
    ok: bool,
    bytes: usize,
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> ExitCode {
    match run(Args::parse()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("rest_load: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn run(args: Args) -> Result<(), String> {
    support::raise_nofile(65_536);
    println!(
        "rest_load: {} keep-alive clients, POST /api/market/kline limit {} ({:.0}% 1h, {:.0}% 1m), {} s measured after {} s warm-up",
        args.clients,
        args.limit,
        args.share_1h * 100.0,
        (1.0 - args.share_1h) * 100.0,
        args.secs,
        args.warmup
    );
    println!(
        "  date {} | {} CPUs | load average {}",
        chrono::Utc::now().format("%Y-%m-%d %H:%M UTC"),
        support::cpus(),
        support::load_average()
    );
    let mut server = None;
    let (base, pid) = match &args.url {
        Some(url) => (url.trim_end_matches('/').to_owned(), args.server_pid),
        None => {
            let data_dir = tempfile::tempdir().map_err(|e| e.to_string())?;
            if args.history_days > 0 {
                let started = Instant::now();
                let rows = seed_history(data_dir.path(), args.history_days).await?;
                println!(
                    "  stored {rows} one-minute candles ({} days x {} pairs) in {:.1} s",
                    args.history_days,
                    SYMBOLS.len(),
                    started.elapsed().as_secs_f64()
                );
            }
            let bin = args
                .server_bin
                .clone()
                .unwrap_or_else(support::default_server_bin);
            let mut process = ServerProcess::spawn(&bin, data_dir, 1000)?;
            process.wait_ready(Duration::from_secs(120)).await?;
            println!(
                "  server: {} serve, pid {}, {} (log {})",
                bin.display(),
                process.pid,
                process.base,
                process.log.display()
            );
            let found = (process.base.clone(), Some(process.pid));
            server = Some(process);
            found
        }
    };
    let result = measure(&args, &base, pid).await;
    if let Some(mut server) = server {
        server.stop();
    }
    result
}

/// Stores `days` of 1-minute candles per pair, ending with the minute before this one, through
/// the backend's own migrations and candle store.
async fn seed_history(data_dir: &std::path::Path, days: u32) -> Result<usize, String> {
    let config = backend::config::Config {
        data_dir: data_dir.to_path_buf(),
        ..backend::config::Config::default()
    };
    let db = backend::db::connect(&config)
        .await
        .map_err(|e| e.to_string())?;
    let minutes = days as usize * 1440;
    let now = support::now_ms();
    let first = now - now.rem_euclid(MINUTE_MS) - minutes as i64 * MINUTE_MS;
    let mut rows = 0;
    for (n, symbol) in SYMBOLS.iter().enumerate() {
        let pair = coin::Entity::find()
            .filter(coin::Column::Symbol.eq(*symbol))
            .one(&db)
            .await
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("{symbol} is not listed"))?;
        let decimal = |text: &str| text.parse::<Decimal>().map_err(|e| format!("{text}: {e}"));
        let tick = decimal(&pair.tick_size)?;
        let step = decimal(&pair.step_size)?;
        let reference: f64 = pair.reference_price.parse().map_err(|e| format!("{e}"))?;
        let daily: f64 = pair.daily_volatility.parse().unwrap_or(0.03);
        let sigma = daily / 1440f64.sqrt();
        let mut rng = ChaCha8Rng::seed_from_u64(0x6b6c_696e_6500 + n as u64);
        let mut normal = move || {
            let u1: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
            let u2: f64 = rng.random();
            (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
        };
        // Closes walked backwards from the reference price, so the series ends where the
        // simulator continues.
        let mut closes = vec![reference; minutes + 1];
        for i in (0..minutes).rev() {
            closes[i] = closes[i + 1] * (-sigma * normal()).exp();
        }
        let price = |value: f64| {
            round_to_step(Decimal::try_from(value).unwrap_or(Decimal::ONE), tick).max(tick)
        };
        let candles: Vec<Candle> = (0..minutes)
            .map(|i| {
                let (open, close) = (closes[i], closes[i + 1]);
                let high = open.max(close) * (1.0 + sigma * normal().abs() / 2.0);
                let low = open.min(close) * (1.0 - sigma * normal().abs() / 2.0);
                let close_price = price(close);
                let quote = 227_000.0 * (0.35 * normal()).exp();
                let base =
                    round_to_step(Decimal::try_from(quote / close).unwrap_or_default(), step);
                Candle {
                    open_time: first + i as i64 * MINUTE_MS,
                    open: price(open),
                    high: price(high),
                    low: price(low),
                    close: close_price,
                    base_volume: base,
                    quote_volume: (base * close_price).round_dp(8),
                    trade_count: 300 + (normal().abs() * 60.0) as u64,
                }
            })
            .collect();
        backend::market::candles::save(&db, symbol, &candles)
            .await
            .map_err(|e| e.to_string())?;
        rows += candles.len();
    }
    db.close().await.map_err(|e| e.to_string())?;
    Ok(rows)
}

async fn client(
    id: usize,
    base: Arc<str>,
    args: Arc<(f64, u32)>,
    measure_from: Instant,
    end: Instant,
) -> Vec<Sample> {
    let (share_1h, limit) = *args;
    let http = match reqwest::Client::builder()
        .pool_max_idle_per_host(1)
        .timeout(Duration::from_secs(30))
        .build()
    {
        Ok(http) => http,
        Err(_) => return Vec::new(),
    };
    let url = format!("{base}/api/market/kline");
    let mut rng = ChaCha8Rng::seed_from_u64(id as u64);
    let mut samples = Vec::new();
    while Instant::now() < end {
        let hourly = rng.random::<f64>() < share_1h;
        let symbol = SYMBOLS[rng.random_range(0..SYMBOLS.len())];
        let body = format!(
            r#"{{"symbol":"{symbol}","interval":"{}","limit":{limit}}}"#,
            if hourly { "1h" } else { "1m" }
        );
        let started = Instant::now();
        let response = http
            .post(&url)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await;
        let (ok, bytes) = match response {
            Ok(response) => {
                let status = response.status().is_success();
                match response.bytes().await {
                    Ok(bytes) => {
                        let envelope_ok = bytes.windows(11).take(64).any(|w| w == b"\"code\":200,");
                        (status && envelope_ok, bytes.len())
                    }
                    Err(_) => (false, 0),
                }
            }
            Err(_) => (false, 0),
        };
        if started >= measure_from {
            samples.push(Sample {
                hourly,
                micros: started.elapsed().as_micros() as u64,
                ok,
                bytes,
            });
        }
    }
    samples
}

async fn measure(args: &Args, base: &str, pid: Option<u32>) -> Result<(), String> {
    let base: Arc<str> = Arc::from(base);
    let shared = Arc::new((args.share_1h, args.limit));
    let start = Instant::now();
    let measure_from = start + Duration::from_secs(args.warmup);
    let end = measure_from + Duration::from_secs(args.secs);
    let handles: Vec<_> = (0..args.clients)
        .map(|id| tokio::spawn(client(id, base.clone(), shared.clone(), measure_from, end)))
        .collect();
    tokio::time::sleep_until(measure_from.into()).await;
    let server_mark = CpuMark::now(pid);
    let own_mark = CpuMark::now(None);
    tokio::time::sleep_until(end.into()).await;
    let server_end = CpuMark::now(pid);
    let own_end = CpuMark::now(None);
    let mut samples = Vec::new();
    for handle in handles {
        samples.extend(handle.await.map_err(|e| e.to_string())?);
    }
    let secs = args.secs as f64;

    println!();
    println!("kline history over {secs:.0} s");
    let report = |name: &str, filter: &dyn Fn(&Sample) -> bool| -> (f64, u64) {
        let chosen: Vec<&Sample> = samples.iter().filter(|s| filter(s)).collect();
        let errors = chosen.iter().filter(|s| !s.ok).count();
        let mut micros: Vec<u64> = chosen.iter().map(|s| s.micros).collect();
        micros.sort_unstable();
        let q = |p: f64| support::quantile(&micros, p).map_or(f64::NAN, |v| v as f64 / 1000.0);
        let mean_bytes =
            chosen.iter().map(|s| s.bytes).sum::<usize>() as f64 / chosen.len().max(1) as f64;
        let rps = chosen.len() as f64 / secs;
        println!(
            "  {name:<8} {rps:>7.0} req/s  p50 {:>6.1} ms  p90 {:>6.1} ms  p99 {:>6.1} ms  max {:>6.1} ms  ({} requests, {errors} errors, {:.0} KB a response)",
            q(0.5),
            q(0.9),
            q(0.99),
            q(1.0),
            chosen.len(),
            mean_bytes / 1000.0
        );
        (rps, support::quantile(&micros, 0.99).unwrap_or(0))
    };
    let (rps, p99) = report("all", &|_| true);
    let (rps_1m, p99_1m) = report("1m/500", &|s| !s.hourly);
    let (rps_1h, p99_1h) = report("1h/500", &|s| s.hourly);
    let server_cpu = server_mark.process_percent(&server_end);
    let own_cpu = own_mark.process_percent(&own_end);
    let machine = server_mark.machine_percent(&server_end);
    println!(
        "  server CPU {} of one core; this tool {} of one core; machine busy {} of {} cores; load average {}",
        server_cpu.map_or("n/a".into(), |p| format!("{p:.0}%")),
        own_cpu.map_or("n/a".into(), |p| format!("{p:.0}%")),
        machine.map_or("n/a".into(), |p| format!("{p:.0}%")),
        support::cpus(),
        support::load_average()
    );
    let errors = samples.iter().filter(|s| !s.ok).count();
    println!(
        "RESULT {{\"clients\":{},\"secs\":{secs:.0},\"historyDays\":{},\"rps\":{rps:.0},\"p99Ms\":{:.1},\"rps1m\":{rps_1m:.0},\"p99Ms1m\":{:.1},\"rps1h\":{rps_1h:.0},\"p99Ms1h\":{:.1},\"errors\":{errors},\"serverCpuPercent\":{},\"machineBusyPercent\":{}}}",
        args.clients,
        args.history_days,
        p99 as f64 / 1000.0,
        p99_1m as f64 / 1000.0,
        p99_1h as f64 / 1000.0,
        server_cpu.map_or("null".into(), |v| format!("{v:.0}")),
        machine.map_or("null".into(), |v| format!("{v:.0}")),
    );
    if errors > 0 {
        return Err(format!("{errors} requests failed"));
    }
    Ok(())
}
