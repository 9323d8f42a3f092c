//! The `backend` command: `serve` (the default), `migrate`, `add-coin`, `export-openapi`,
//! `admin create-operator`, `audit` (the ledger re-derived from the journal), `seconds-replay` and `earn-replay`.

use std::path::PathBuf;

use backend::{app, config::Config};
use clap::{Parser, Subcommand};
use tracing_subscriber::EnvFilter;

/// Kestrel Exchange backend.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    /// A TOML configuration file (also `EXCHANGE_CONFIG`); environment variables override it.
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Start the exchange: API, live channels, market simulator and webapp (the default).
    Serve,
    /// Apply pending database migrations and exit.
    Migrate,
    /// List a new pair against USDT; a running exchange starts quoting it within seconds and
    /// announces it on /ws/business/notice.
    AddCoin {
        /// Base asset, 2 to 16 lower-case letters or digits (`pepe`).
        #[arg(long)]
        coin: String,
        /// The price the market starts from (a decimal).
        #[arg(long)]
        price: String,
        /// Decimals of the price.
        #[arg(long, default_value_t = 4)]
        price_precision: u32,
        /// Decimals of the quantity.
        #[arg(long, default_value_t = 2)]
        quantity_precision: u32,
        /// Daily volatility of the simulated price, as a fraction.
        #[arg(long, default_value = "0.05")]
        daily_volatility: String,
        /// Also list it as a USDT-M perpetual.
        #[arg(long)]
        contract: bool,
        /// Show it among the home page's hot coins.
        #[arg(long)]
        hot: bool,
    },
    /// Operator accounts.
    Admin {
        #[command(subcommand)]
        command: AdminCommand,
    },
    /// Re-derive every balance from the journal and check that every entry sums to zero and no
    /// balance that may not is negative; prints what differs and exits with status 1 if anything does.
    Audit,
    /// Re-run the settlement of every settled seconds contract from the stored ticks; prints every
    /// result that differs and exits with status 1 if any does.
    SecondsReplay,
    /// Recompute every earn payout from its position's terms and rate version with wasm-core's
    /// schedule; prints every figure that differs and exits with status 1 if any does.
    EarnReplay,
    /// Write the OpenAPI document (default `openapi/openapi.json`).
    ExportOpenapi {
        /// Where to write it; `-` for standard output.
        #[arg(long, default_value = "openapi/openapi.json")]
        out: PathBuf,
    },
}

#[derive(Subcommand)]
enum AdminCommand {
    /// Create an operator account (identity review, `/api/admin/…`), or give an existing
    /// account of that e-mail address the operator role (its password is then left unchanged).
    /// Prints the account's id.
    CreateOperator {
        /// The operator's login e-mail address.
        #[arg(long)]
        email: String,
        /// The login password of a new account (rule A: at least 8 characters with an upper-case
        /// letter, a lower-case letter and a digit). Prefer the environment variable, which
        /// stays out of the shell history and the process list.
        #[arg(long, env = "EXCHANGE_OPERATOR_PASSWORD", hide_env_values = true)]
        password: String,
    },
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    pin_mmap_threshold();
    match run(Cli::parse()).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Keeps glibc's mmap threshold at 1 MiB. By default glibc raises it to the size of the largest
/// block freed, so after the first login every later argon2 block (19 MiB) comes from the heap of
/// the blocking thread that hashed it and is never returned: RSS grew to 600–1,000 MiB after a few
/// dozen concurrent logins. Pinned, such blocks are mapped and unmapped per hash.
fn pin_mmap_threshold() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets an allocator parameter; it is called before any hashing and is
    // safe to call at any time.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

async fn run(cli: Cli) -> Result<(), Box<dyn std::error::Error>> {
    if let Some(Command::ExportOpenapi { out }) = &cli.command {
        let spec = app::openapi_json() + "\n";
        if out.as_os_str() == "-" {
            print!("{spec}");
        } else {
            std::fs::write(out, spec)?;
            eprintln!("wrote {}", out.display());
        }
        return Ok(());
    }
    let config = Config::load(cli.config.as_deref())?;
    tracing_subscriber::fmt()
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stdout()))
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(&config.log)),
        )
        .init();
    match cli.command {
        Some(Command::AddCoin {
            coin,
            price,
            price_precision,
            quantity_precision,
            daily_volatility,
            contract,
            hot,
        }) => {
            let new = backend::common::service::NewCoin {
                coin: coin.trim().to_ascii_lowercase(),
                reference_price: wasm_core::money::parse_decimal(&price)
                    .map_err(|_| format!("--price: {price:?} is not a decimal"))?,
                price_precision,
                quantity_precision,
                daily_volatility: wasm_core::money::parse_decimal(&daily_volatility).map_err(
                    |_| format!("--daily-volatility: {daily_volatility:?} is not a decimal"),
                )?,
                contract,
                hot,
            };
            let db = backend::db::connect(&config).await?;
            let listed = backend::common::service::list_coin(&db, &new).await?;
            println!("listed {} (id {})", listed.show_symbol, listed.id);
        }
        Some(Command::Admin {
            command: AdminCommand::CreateOperator { email, password },
        }) => {
            use backend::admin::service::{OperatorOutcome, create_operator};
            let db = backend::db::connect(&config).await?;
            let outcome = create_operator(&db, &email, &password)
                .await
                .map_err(|error| {
                    let envelope = backend::http::envelope_of(&error);
                    match envelope.data.field {
                        Some(field) => format!("--{field}: {}", envelope.msg),
                        None => envelope.msg,
                    }
                })?;
            let what = match &outcome {
                OperatorOutcome::Created(_) => "created operator",
                OperatorOutcome::Promoted(_) => "promoted to operator (password unchanged)",
                OperatorOutcome::AlreadyOperator(_) => "already an operator",
            };
            let user = outcome.user();
            eprintln!("{what}: {}", user.email.as_deref().unwrap_or_default());
            println!("{}", user.id);
        }
        Some(Command::Migrate) => {
            backend::db::connect(&config).await?;
            tracing::info!("migrations applied");
        }
        Some(Command::Audit) => {
            let db = backend::db::connect(&config).await?;
            let report = backend::funds::audit::audit(&db).await?;
            println!(
                "audited {} accounts, {} entries, {} postings",
                report.accounts, report.entries, report.postings
            );
            for problem in &report.problems {
                println!("PROBLEM {problem}");
            }
            if !report.is_clean() {
                return Err(format!("{} problems found", report.problems.len()).into());
            }
            println!("the ledger is sound");
        }
        Some(Command::SecondsReplay) => {
            let db = backend::db::connect(&config).await?;
            let mismatches = backend::seconds::settle::replay(&db).await?;
            for m in &mismatches {
                println!("MISMATCH seconds order {}: {}", m.order_id, m.problem);
            }
            if !mismatches.is_empty() {
                return Err(format!("{} settlements differ", mismatches.len()).into());
            }
            println!("every settlement is reproduced from the stored ticks");
        }
        Some(Command::EarnReplay) => {
            let db = backend::db::connect(&config).await?;
            let mismatches = backend::earn::replay::replay(&db).await?;
            for m in &mismatches {
                println!("MISMATCH earn position {}: {}", m.position_id, m.problem);
            }
            if !mismatches.is_empty() {
                return Err(format!("{} earn figures differ", mismatches.len()).into());
            }
            println!("every earn payout is reproduced by the schedule");
        }
        _ => {
            let app = app::start(config).await?;
            println!(
                "Kestrel Exchange is running at http://{}  (Ctrl-C to stop)",
                app.addr
            );
            stop_signal().await?;
            println!("stopping…");
            app.stop().await;
        }
    }
    Ok(())
}

/// Waits for Ctrl-C (SIGINT) or, on Unix, SIGTERM.
async fn stop_signal() -> std::io::Result<()> {
    #[cfg(unix)]
    {
        let mut terminate =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
        tokio::select! {
            result = tokio::signal::ctrl_c() => result,
            _ = terminate.recv() => Ok(()),
        }
    }
    #[cfg(not(unix))]
    {
        tokio::signal::ctrl_c().await
    }
}
