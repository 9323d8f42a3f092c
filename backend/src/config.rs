//! Runtime configuration: built-in defaults, then an optional TOML file (`EXCHANGE_CONFIG` or
//! `--config`), then environment variables, each overriding the one before. Every key is documented
//! in the README.

use std::path::{Path, PathBuf};

use rust_decimal::Decimal;
use serde::Deserialize;

mod cluster;
mod referral;
mod seconds;
mod tiers;
pub use cluster::ClusterConfig;
pub use referral::{ReferralConfig, check_rates};
pub use seconds::{SecondsConfig, SecondsPeriod};
pub use tiers::TiersConfig;

/// Everything the backend needs to start.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Address to listen on.
    pub host: String,
    /// Port to listen on.
    pub port: u16,
    /// Folder for the embedded database and uploads.
    pub data_dir: PathBuf,
    /// Database URL; empty means the SQLite file `exchange.db` in `data_dir`.
    pub database_url: String,
    /// Log filter in `tracing` syntax (`info`, `backend=debug,info`).
    pub log: String,
    /// Folder of the built webapp served at `/`.
    pub webapp_dir: PathBuf,
    /// The platform's public settings.
    pub platform: PlatformConfig,
    /// The built-in market simulator.
    pub simulator: SimulatorConfig,
    /// `development` (the default: codes may go to the dev outbox) or `production`.
    pub mode: Mode,
    /// Outgoing e-mail.
    pub mail: MailConfig,
    /// Sessions, rate limits and uploads.
    pub security: SecurityConfig,
    /// Deposit and withdrawal channels.
    pub funds: FundsConfig,
    /// Spot trading: fees and the house market maker.
    pub trading: TradingConfig,
    /// Seconds (flash) contracts: the switch and the periods offered.
    pub seconds: SecondsConfig,
    /// USDT-M perpetual futures: fees, funding, liquidation and the tier tables.
    pub futures: FuturesConfig,
    /// Conversion (swap) quotes: the house's spread and the size limits.
    pub convert: ConvertConfig,
    /// Serve `POST /api/admin/test/clock/advance`, which moves the clock of day-based rules ahead
    /// (`EXCHANGE_TEST_CLOCK`; off by default, on only for the e2e suite).
    pub test_clock: bool,
    /// Crypto loans: the due sweep and its reminders.
    pub loans: LoansConfig,
    /// The referral programme: generation rates, bind window, qualification.
    pub referral: ReferralConfig,
    /// User tiers: VIP thresholds and discount, account tiers, merchants' default rate.
    pub tiers: TiersConfig,
    /// Cluster mode: the shared NATS server and this instance's name.
    pub cluster: ClusterConfig,
}

/// Crypto loans (`[loans]` in the file).
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LoansConfig {
    /// Milliseconds between two due sweeps (each instance tries; one holds the lease).
    pub sweep_every_ms: u64,
    /// Days before an instalment's due time that its reminder is sent.
    pub remind_days_before: u32,
    /// Most loans one sweep looks at (the rest wait for the next one).
    pub sweep_batch: u64,
}

impl Default for LoansConfig {
    fn default() -> Self {
        Self {
            sweep_every_ms: 1_000,
            remind_days_before: 3,
            sweep_batch: 5_000,
        }
    }
}

/// Conversion between assets (`[convert]` in the file). Values are in USDT at the book's price.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ConvertConfig {
    /// The house's margin on every conversion, a fraction of the amount received taken on top of
    /// what the amount would execute at in the book (`0.001` is 0.1 %).
    pub spread: Decimal,
    /// The smallest conversion, valued in USDT.
    pub min_usdt: Decimal,
    /// The largest single conversion, valued in USDT.
    pub max_usdt: Decimal,
    /// What one user may convert per UTC day in all, valued in USDT.
    pub daily_limit_usdt: Decimal,
}

impl Default for ConvertConfig {
    fn default() -> Self {
        Self {
            spread: Decimal::new(1, 3),
            min_usdt: Decimal::ONE,
            max_usdt: Decimal::new(100_000, 0),
            daily_limit_usdt: Decimal::new(1_000_000, 0),
        }
    }
}

impl ConvertConfig {
    /// Checks the spread (0 ≤ spread < 1) and the limits (0 < min ≤ max ≤ daily limit).
    fn check(&self) -> Result<(), String> {
        if self.spread.is_sign_negative() || self.spread >= Decimal::ONE {
            return Err(format!(
                "spread {} must be at least 0 and below 1",
                self.spread
            ));
        }
        if self.min_usdt <= Decimal::ZERO
            || self.min_usdt > self.max_usdt
            || self.max_usdt > self.daily_limit_usdt
        {
            return Err(format!(
                "limits must satisfy 0 < min_usdt ({}) <= max_usdt ({}) <= daily_limit_usdt ({})",
                self.min_usdt, self.max_usdt, self.daily_limit_usdt
            ));
        }
        Ok(())
    }
}

/// USDT-M perpetual futures (`[futures]` in the file).
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FuturesConfig {
    /// Turns futures trading off (no engines, the calls answer that the symbol is unavailable).
    pub enabled: bool,
    /// Fee of a limit order that rests and fills later (a fraction: `0.0002` is 0.02 %).
    pub maker_fee_rate: Decimal,
    /// Fee of an order that fills at once (a fraction).
    pub taker_fee_rate: Decimal,
    /// Seconds between two fundings (8 hours; tests set a few seconds).
    pub funding_interval_secs: u64,
    /// The most a funding rate may be either way (a fraction: `0.0075` is 0.75 %).
    pub funding_cap: Decimal,
    /// The interest part of every funding rate (a fraction per interval: `0.0001` is 0.01 %).
    pub funding_interest: Decimal,
    /// Cross positions only: the liquidation fee as a multiple of the position's maintenance
    /// margin (capped by what the wallet still holds). An isolated position's liquidation fee is
    /// whatever its margin holds beyond the loss.
    pub cross_liquidation_fee_mm_multiple: Decimal,
    /// Milliseconds between two looks at the mark price of every symbol.
    pub mark_poll_ms: u64,
    /// Milliseconds between two refreshes of the cross positions' liquidation prices (they move
    /// with the wallet and the user's other cross positions).
    pub cross_refresh_ms: u64,
    /// Maintenance margin tables per symbol (`[[futures.tiers.btcusdt]]`: `floor`, `cap`,
    /// `max_leverage`, `mmr`; `cum` follows by the rule). A symbol without a table gets the default
    /// table of futures-math.md with its notional floors scaled (see
    /// [`FuturesConfig::default_scale`]).
    pub tiers: std::collections::BTreeMap<String, Vec<TierConfig>>,
}

/// One maintenance margin tier of `[futures.tiers]`.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct TierConfig {
    /// Where the tier starts (notional, USDT).
    pub floor: Decimal,
    /// Where it ends.
    pub cap: Decimal,
    /// The highest leverage in the tier.
    pub max_leverage: Decimal,
    /// Maintenance margin rate (a fraction).
    pub mmr: Decimal,
}

impl Default for FuturesConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            maker_fee_rate: Decimal::new(2, 4),
            taker_fee_rate: Decimal::new(5, 4),
            funding_interval_secs: 8 * 3600,
            funding_cap: Decimal::new(75, 4),
            funding_interest: Decimal::new(1, 4),
            cross_liquidation_fee_mm_multiple: Decimal::ONE,
            mark_poll_ms: 100,
            cross_refresh_ms: 1000,
            tiers: std::collections::BTreeMap::new(),
        }
    }
}

impl FuturesConfig {
    /// The BTCUSDT table of futures-math.md with its notional floors and caps multiplied by
    /// `scale`, `cum` derived by the rule.
    pub fn default_tiers(scale: Decimal) -> Vec<wasm_core::margin::MarginTier> {
        let rows = [
            (0, 50_000, 125, 40),
            (50_000, 250_000, 100, 50),
            (250_000, 1_000_000, 50, 100),
            (1_000_000, 10_000_000, 20, 250),
            (10_000_000, 20_000_000, 10, 500),
        ];
        let mut tiers: Vec<_> = rows
            .iter()
            .map(
                |&(floor, cap, leverage, mmr)| wasm_core::margin::MarginTier {
                    notional_floor: Decimal::from(floor) * scale,
                    notional_cap: Decimal::from(cap) * scale,
                    max_leverage: Decimal::from(leverage),
                    mmr: Decimal::new(mmr, 4),
                    cum: Decimal::ZERO,
                },
            )
            .collect();
        wasm_core::margin::derive_cum(&mut tiers).expect("the default table is valid");
        tiers
    }

    /// How the default table scales for a symbol without its own: BTC 1, ETH ½, every other pair
    /// 1/10 (thinner markets reach the higher tiers, and their lower leverage, sooner).
    pub fn default_scale(symbol: &str) -> Decimal {
        match symbol {
            "btcusdt" => Decimal::ONE,
            "ethusdt" => Decimal::new(5, 1),
            _ => Decimal::new(1, 1),
        }
    }

    /// The tier table of `symbol`: its configured one, or the scaled default.
    pub fn tiers_of(&self, symbol: &str) -> Result<Vec<wasm_core::margin::MarginTier>, String> {
        let Some(rows) = self.tiers.get(symbol) else {
            return Ok(Self::default_tiers(Self::default_scale(symbol)));
        };
        let mut tiers: Vec<_> = rows
            .iter()
            .map(|row| wasm_core::margin::MarginTier {
                notional_floor: row.floor,
                notional_cap: row.cap,
                max_leverage: row.max_leverage,
                mmr: row.mmr,
                cum: Decimal::ZERO,
            })
            .collect();
        wasm_core::margin::derive_cum(&mut tiers)
            .map_err(|error| format!("futures.tiers.{symbol}: {error:?}"))?;
        Ok(tiers)
    }

    /// Checks the rates and every configured table.
    fn check(&self) -> Result<(), String> {
        for (name, rate) in [
            ("maker_fee_rate", self.maker_fee_rate),
            ("taker_fee_rate", self.taker_fee_rate),
            ("funding_cap", self.funding_cap),
        ] {
            if rate.is_sign_negative() || rate >= Decimal::ONE {
                return Err(format!("{name} must be at least 0 and below 1, not {rate}"));
            }
        }
        if self.funding_interval_secs == 0 {
            return Err("funding_interval_secs must be above 0".into());
        }
        if self.cross_liquidation_fee_mm_multiple.is_sign_negative() {
            return Err("cross_liquidation_fee_mm_multiple must not be negative".into());
        }
        for symbol in self.tiers.keys() {
            self.tiers_of(symbol)?;
        }
        Ok(())
    }
}

/// Spot trading (`[trading]` in the file).
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TradingConfig {
    /// Fee of an order that rests and is taken (a fraction: `0.001` is 0.1 %).
    pub maker_fee_rate: Decimal,
    /// Fee of an order that takes resting liquidity (a fraction).
    pub taker_fee_rate: Decimal,
    /// Price levels the house market maker quotes on each side (0: no market maker).
    pub market_maker_levels: usize,
    /// What the house puts into the market maker's account for each spot pair when it is first
    /// opened, valued in the quote asset: half in the quote asset, half in the base asset at the
    /// pair's reference price. Its quotes never exceed its balances.
    pub market_maker_inventory: Decimal,
}

impl Default for TradingConfig {
    fn default() -> Self {
        Self {
            maker_fee_rate: Decimal::new(1, 3),
            taker_fee_rate: Decimal::new(1, 3),
            // As many levels as the simulated book has (a test in market::book holds them equal).
            market_maker_levels: 50,
            market_maker_inventory: Decimal::new(20_000_000, 0),
        }
    }
}

impl TradingConfig {
    /// Checks the fee rates (0 ≤ rate < 1).
    fn check(&self) -> Result<(), String> {
        for (name, rate) in [
            ("maker_fee_rate", self.maker_fee_rate),
            ("taker_fee_rate", self.taker_fee_rate),
        ] {
            if rate.is_sign_negative() || rate >= Decimal::ONE {
                return Err(format!("{name} must be at least 0 and below 1, not {rate}"));
            }
        }
        if self.market_maker_inventory.is_sign_negative() {
            return Err("market_maker_inventory must not be negative".into());
        }
        Ok(())
    }
}

/// How the deployment runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Local development and tests: without SMTP, codes go to the dev outbox (`/api/dev/outbox`).
    #[default]
    Development,
    /// A real deployment: an SMTP sender is required and the dev outbox does not exist.
    Production,
}

/// Outgoing e-mail by SMTP (lettre).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MailConfig {
    /// SMTP URL (`smtps://user:password@smtp.example.com:465`, `smtp://localhost:25`); empty: no
    /// SMTP (development mode only).
    pub smtp_url: String,
    /// The From address (`Kestrel Exchange <no-reply@example.com>`).
    pub from: String,
}

/// Sessions, rate limits and uploads.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SecurityConfig {
    /// Lifetime of a session token in seconds (spec: 604800, seven days).
    pub session_ttl_secs: i64,
    /// Largest accepted upload in bytes.
    pub max_upload_bytes: usize,
    /// Folder of uploaded files; empty: `uploads` under `data_dir`.
    pub upload_dir: PathBuf,
    /// Secret that signs short-lived file links; empty: a random one per start.
    pub link_secret: String,
    /// Seconds before another code may be sent to the same address.
    pub code_resend_secs: u64,
    /// Codes one IP address may request per hour.
    pub codes_per_ip_hour: u32,
    /// Origins (`https://exchange.example`) besides the request's own whose pages may open the
    /// user channel with the session cookie; see `http::origin` (`EXCHANGE_ALLOWED_ORIGINS`,
    /// comma-separated).
    pub allowed_origins: Vec<String>,
    /// The site's public origin (`https://exchange.example`) that Sign-In with Ethereum messages
    /// name as their URI and, without the scheme, their domain; the wallet shows it and compares
    /// it with the page's origin (`EXCHANGE_WALLET_ORIGIN`). Empty: `http://` and the request's
    /// `Host` header, which suits development and tests; set it in production.
    pub wallet_origin: String,
}

impl Default for SecurityConfig {
    fn default() -> Self {
        Self {
            session_ttl_secs: 604_800,
            max_upload_bytes: 5 * 1024 * 1024,
            upload_dir: PathBuf::new(),
            link_secret: String::new(),
            code_resend_secs: 60,
            codes_per_ip_hour: 60,
            allowed_origins: Vec::new(),
            wallet_origin: String::new(),
        }
    }
}

/// Public platform settings, sent to the webapp by `config.js` and `getAllSetting`.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PlatformConfig {
    /// The name shown in the top bar and titles.
    pub site_name: String,
    /// The `{head}` path segment of the member-area calls.
    pub api_head: String,
    /// Where phones are sent from `/trade/index`; empty: no mobile site, phones stay.
    pub mobile_site_url: String,
    /// Address shown for support.
    pub support_email: String,
    /// Share of every trading fee paid into the asset security fund, in percent.
    pub security_fund_percent: String,
    /// The community links `GET /api/common/qun` gives (`[[platform.community]]`; none by
    /// default).
    pub community: Vec<CommunityLink>,
}

/// A community link: a group, channel or page of the platform elsewhere.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommunityLink {
    /// Its name as shown (`Telegram`, `X`, …), 1 to 40 characters.
    pub name: String,
    /// Where it leads: an `https://` or `mailto:` URL.
    pub url: String,
}

impl PlatformConfig {
    /// Checks the community links: a name of 1 to 40 characters, an `https://` or `mailto:` URL.
    fn check(&self) -> Result<(), String> {
        for link in &self.community {
            let name = link.name.trim();
            if name.is_empty() || name.chars().count() > 40 {
                return Err(format!(
                    "community link {:?}: the name must be 1 to 40 characters",
                    link.name
                ));
            }
            let url_ok = (link.url.starts_with("https://") || link.url.starts_with("mailto:"))
                && link.url.len() <= 500
                && !link
                    .url
                    .chars()
                    .any(|c| c.is_whitespace() || c.is_control());
            if !url_ok {
                return Err(format!(
                    "community link {name}: the URL must be https:// or mailto:, not {:?}",
                    link.url
                ));
            }
        }
        Ok(())
    }
}

/// Parameters of the built-in market simulator.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SimulatorConfig {
    /// Turns the simulator off (no live prices) when false.
    pub enabled: bool,
    /// Seed of the reproducible price processes.
    pub seed: u64,
    /// Milliseconds between two ticks of every symbol.
    pub tick_ms: u64,
    /// Days of stored ticks kept; older ones are deleted hourly (0 keeps them all). Settled seconds
    /// contracts keep their own opening and settlement ticks, so pruning never loses a settlement's
    /// inputs.
    pub tick_retention_days: u32,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            host: "127.0.0.1".into(),
            port: 8080,
            data_dir: PathBuf::from("data"),
            database_url: String::new(),
            log: "info".into(),
            webapp_dir: PathBuf::from("webapp/dist"),
            platform: PlatformConfig::default(),
            simulator: SimulatorConfig::default(),
            mode: Mode::default(),
            mail: MailConfig::default(),
            security: SecurityConfig::default(),
            funds: FundsConfig::default(),
            trading: TradingConfig::default(),
            seconds: SecondsConfig::default(),
            futures: FuturesConfig::default(),
            convert: ConvertConfig::default(),
            test_clock: false,
            loans: LoansConfig::default(),
            referral: ReferralConfig::default(),
            tiers: TiersConfig::default(),
            cluster: ClusterConfig::default(),
        }
    }
}

impl Default for PlatformConfig {
    fn default() -> Self {
        Self {
            site_name: "Kestrel Exchange".into(),
            api_head: "coin".into(),
            mobile_site_url: String::new(),
            support_email: "support@kestrel.exchange".into(),
            security_fund_percent: "10".into(),
            community: Vec::new(),
        }
    }
}

impl Default for SimulatorConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            seed: 20_261_121,
            tick_ms: 1000,
            tick_retention_days: 7,
        }
    }
}

/// Deposit and withdrawal channels (`[[funds.channels]]` in the file). A file that sets
/// `channels` replaces the whole default list.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FundsConfig {
    /// One entry per coin and network, in the order the deposit page lists them.
    pub channels: Vec<FundingChannelConfig>,
}

/// How one coin is deposited and withdrawn on one network.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FundingChannelConfig {
    /// Asset, lower case (`usdt`).
    pub coin: String,
    /// Network in wasm-core's names (`TRC20`, `ERC20`, `BEP20`, `BTC`); stored upper case.
    pub network: String,
    /// The platform's deposit address on that network; must be valid for it.
    pub address: String,
    /// Smallest deposit accepted (decimal string).
    pub min_deposit: Decimal,
    /// Fixed fee of a withdrawal, in the coin (decimal string, may be `"0"`).
    pub withdraw_fee: Decimal,
    /// Smallest withdrawal, fee included (decimal string, above the fee).
    pub min_withdraw: Decimal,
    /// Most decimals of a deposit or withdrawal amount (0 to 8).
    #[serde(default = "default_channel_precision")]
    pub precision: u32,
}

fn default_channel_precision() -> u32 {
    8
}

impl Default for FundsConfig {
    fn default() -> Self {
        let channel =
            |coin: &str, network: &str, address: &str, min_deposit, fee, min, precision| {
                FundingChannelConfig {
                    coin: coin.into(),
                    network: network.into(),
                    address: address.into(),
                    min_deposit: decimal(min_deposit),
                    withdraw_fee: decimal(fee),
                    min_withdraw: decimal(min),
                    precision,
                }
            };
        Self {
            channels: vec![
                channel(
                    "usdt",
                    "TRC20",
                    "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7",
                    "10",
                    "1",
                    "10",
                    6,
                ),
                channel(
                    "usdt",
                    "ERC20",
                    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
                    "10",
                    "5",
                    "20",
                    6,
                ),
                channel(
                    "btc",
                    "BTC",
                    "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
                    "0.0001",
                    "0.0002",
                    "0.001",
                    8,
                ),
                channel(
                    "eth",
                    "ERC20",
                    "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
                    "0.005",
                    "0.002",
                    "0.01",
                    8,
                ),
            ],
        }
    }
}

fn decimal(text: &str) -> Decimal {
    // Only the literals of the defaults above reach this.
    text.parse().unwrap_or_default()
}

impl FundsConfig {
    /// Checks every channel and normalises names (coin lower case, network upper case): the coin
    /// is 1 to 16 lower-case letters or digits, the network one wasm-core checks addresses of, the
    /// address valid for it, the minimum deposit above zero, the fee not negative, the minimum
    /// withdrawal above the fee, every amount within the precision (at most 8), and no coin and
    /// network listed twice.
    pub fn normalise(&mut self) -> Result<(), String> {
        let mut seen = std::collections::BTreeSet::new();
        for channel in &mut self.channels {
            channel.coin = channel.coin.trim().to_ascii_lowercase();
            channel.network = channel.network.trim().to_ascii_uppercase();
            let name = format!("{} on {}", channel.coin, channel.network);
            if channel.coin.is_empty()
                || channel.coin.len() > 16
                || !channel
                    .coin
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            {
                return Err(format!(
                    "{name}: the coin must be 1 to 16 letters or digits"
                ));
            }
            wasm_core::validate::validate_address(&channel.network, &channel.address)
                .map_err(|violation| format!("{name}: {violation}"))?;
            if channel.precision > 8 {
                return Err(format!("{name}: the precision must be 0 to 8"));
            }
            if channel.min_deposit <= Decimal::ZERO {
                return Err(format!("{name}: min_deposit must be above zero"));
            }
            if channel.withdraw_fee < Decimal::ZERO {
                return Err(format!("{name}: withdraw_fee must not be negative"));
            }
            if channel.min_withdraw <= channel.withdraw_fee {
                return Err(format!("{name}: min_withdraw must be above withdraw_fee"));
            }
            for (key, value) in [
                ("min_deposit", channel.min_deposit),
                ("withdraw_fee", channel.withdraw_fee),
                ("min_withdraw", channel.min_withdraw),
            ] {
                if value.normalize().scale() > channel.precision {
                    return Err(format!(
                        "{name}: {key} has more than {} decimals",
                        channel.precision
                    ));
                }
            }
            if !seen.insert((channel.coin.clone(), channel.network.clone())) {
                return Err(format!("{name} is listed twice"));
            }
        }
        Ok(())
    }

    /// The channels of `coin` (lower case), in order.
    pub fn channels_of(&self, coin: &str) -> Vec<&FundingChannelConfig> {
        self.channels.iter().filter(|c| c.coin == coin).collect()
    }
}

/// Why the configuration could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The configuration file could not be read.
    #[error("cannot read the configuration file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The configuration file is not valid TOML of the expected shape.
    #[error("invalid configuration file {path}: {source}")]
    Parse {
        path: PathBuf,
        source: Box<toml::de::Error>,
    },
    /// A deposit or withdrawal channel is not usable.
    #[error("invalid funds channel: {0}")]
    Funds(String),
    /// The trading settings are not usable.
    #[error("invalid trading settings: {0}")]
    Trading(String),
    /// The futures settings are not usable.
    #[error("invalid futures settings: {0}")]
    Futures(String),
    /// The seconds contract settings are not usable.
    #[error("invalid seconds contract settings: {0}")]
    Seconds(String),
    /// The conversion settings are not usable.
    #[error("invalid conversion settings: {0}")]
    Convert(String),
    /// The platform settings are not usable.
    #[error("invalid platform settings: {0}")]
    Platform(String),
    /// The referral settings are not usable.
    #[error("invalid referral settings: {0}")]
    Referral(String),
    /// The tier settings are not usable.
    #[error("invalid tier settings: {0}")]
    Tiers(String),
    /// The cluster settings are not usable.
    #[error("invalid cluster settings: {0}")]
    Cluster(String),
    /// An environment variable has a value of the wrong kind.
    #[error("invalid value {value:?} for {name}: expected {expected}")]
    Env {
        name: &'static str,
        value: String,
        expected: &'static str,
    },
}

impl Config {
    /// Loads the configuration: defaults, then the file (if any), then the environment.
    pub fn load(file: Option<&Path>) -> Result<Self, ConfigError> {
        Self::load_from(file, |name| std::env::var(name).ok())
    }

    /// Like [`Config::load`] with the environment given as a lookup function (for tests).
    pub fn load_from(
        file: Option<&Path>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Self, ConfigError> {
        let file = file
            .map(Path::to_path_buf)
            .or_else(|| env("EXCHANGE_CONFIG").map(PathBuf::from));
        let mut config = match file {
            Some(path) => {
                let text = std::fs::read_to_string(&path).map_err(|source| ConfigError::Read {
                    path: path.clone(),
                    source,
                })?;
                toml::from_str(&text).map_err(|source| ConfigError::Parse {
                    path,
                    source: Box::new(source),
                })?
            }
            None => Config::default(),
        };
        let text = |name: &str, target: &mut String| {
            if let Some(value) = env(name) {
                *target = value;
            }
        };
        text("EXCHANGE_HOST", &mut config.host);
        text("DATABASE_URL", &mut config.database_url);
        text("EXCHANGE_LOG", &mut config.log);
        text("EXCHANGE_SITE_NAME", &mut config.platform.site_name);
        text("EXCHANGE_API_HEAD", &mut config.platform.api_head);
        text(
            "EXCHANGE_MOBILE_SITE_URL",
            &mut config.platform.mobile_site_url,
        );
        text("EXCHANGE_SUPPORT_EMAIL", &mut config.platform.support_email);
        text("EXCHANGE_SMTP_URL", &mut config.mail.smtp_url);
        text("EXCHANGE_MAIL_FROM", &mut config.mail.from);
        text("EXCHANGE_LINK_SECRET", &mut config.security.link_secret);
        if let Some(value) = env("EXCHANGE_MODE") {
            config.mode = match value.trim() {
                "development" => Mode::Development,
                "production" => Mode::Production,
                _ => {
                    return Err(ConfigError::Env {
                        name: "EXCHANGE_MODE",
                        value,
                        expected: "development or production",
                    });
                }
            };
        }
        if let Some(value) = env("EXCHANGE_CODE_RESEND_SECS") {
            config.security.code_resend_secs =
                parse_env("EXCHANGE_CODE_RESEND_SECS", value, "seconds (an integer)")?;
        }
        if let Some(value) = env("EXCHANGE_CODES_PER_IP_HOUR") {
            config.security.codes_per_ip_hour =
                parse_env("EXCHANGE_CODES_PER_IP_HOUR", value, "an integer")?;
        }
        if let Some(value) = env("EXCHANGE_ALLOWED_ORIGINS") {
            config.security.allowed_origins = value
                .split(',')
                .map(str::trim)
                .filter(|origin| !origin.is_empty())
                .map(str::to_owned)
                .collect();
        }
        if let Some(value) = env("EXCHANGE_WALLET_ORIGIN") {
            config.security.wallet_origin = value.trim().trim_end_matches('/').to_owned();
        }
        if let Some(value) = env("EXCHANGE_UPLOAD_DIR") {
            config.security.upload_dir = PathBuf::from(value);
        }
        if let Some(value) = env("EXCHANGE_DATA_DIR") {
            config.data_dir = PathBuf::from(value);
        }
        if let Some(value) = env("EXCHANGE_WEBAPP_DIR") {
            config.webapp_dir = PathBuf::from(value);
        }
        if let Some(value) = env("EXCHANGE_PORT") {
            config.port = parse_env("EXCHANGE_PORT", value, "a port number (0-65535)")?;
        }
        if let Some(value) = env("EXCHANGE_SIM_ENABLED") {
            config.simulator.enabled = parse_env("EXCHANGE_SIM_ENABLED", value, "true or false")?;
        }
        if let Some(value) = env("EXCHANGE_SIM_SEED") {
            config.simulator.seed = parse_env("EXCHANGE_SIM_SEED", value, "an unsigned integer")?;
        }
        if let Some(value) = env("EXCHANGE_SIM_TICK_MS") {
            config.simulator.tick_ms =
                parse_env("EXCHANGE_SIM_TICK_MS", value, "milliseconds (an integer)")?;
        }
        if let Some(value) = env("EXCHANGE_SIM_TICK_RETENTION_DAYS") {
            config.simulator.tick_retention_days = parse_env(
                "EXCHANGE_SIM_TICK_RETENTION_DAYS",
                value,
                "a number of days (0 keeps every tick)",
            )?;
        }
        if let Some(value) = env("EXCHANGE_SECONDS_ENABLED") {
            config.seconds.enabled = parse_env("EXCHANGE_SECONDS_ENABLED", value, "true or false")?;
        }
        if let Some(value) = env("EXCHANGE_TEST_CLOCK") {
            config.test_clock = parse_env("EXCHANGE_TEST_CLOCK", value, "true or false")?;
        }
        if let Some(value) = env("EXCHANGE_SECONDS_PERIODS") {
            config.seconds.periods =
                SecondsConfig::parse_periods(&value).ok_or(ConfigError::Env {
                    name: "EXCHANGE_SECONDS_PERIODS",
                    value,
                    expected: "seconds:payout_rate:min_stake:max_stake, comma-separated",
                })?;
        }
        config.funds.normalise().map_err(ConfigError::Funds)?;
        config.seconds.check().map_err(ConfigError::Seconds)?;
        config.trading.check().map_err(ConfigError::Trading)?;
        if let Some(value) = env("EXCHANGE_FUTURES_ENABLED") {
            config.futures.enabled = parse_env("EXCHANGE_FUTURES_ENABLED", value, "true or false")?;
        }
        if let Some(value) = env("EXCHANGE_FUTURES_FUNDING_INTERVAL_SECS") {
            config.futures.funding_interval_secs = parse_env(
                "EXCHANGE_FUTURES_FUNDING_INTERVAL_SECS",
                value,
                "seconds (an integer)",
            )?;
        }
        config.futures.check().map_err(ConfigError::Futures)?;
        config.convert.check().map_err(ConfigError::Convert)?;
        config.platform.check().map_err(ConfigError::Platform)?;
        config.referral.apply_env(&env)?;
        config.referral.check().map_err(ConfigError::Referral)?;
        config.tiers.check().map_err(ConfigError::Tiers)?;
        config.cluster.apply_env(&env);
        config.cluster.check(&config.effective_database_url())?;
        Ok(config)
    }

    /// The folder uploads are stored in.
    pub fn effective_upload_dir(&self) -> PathBuf {
        if self.security.upload_dir.as_os_str().is_empty() {
            self.data_dir.join("uploads")
        } else {
            self.security.upload_dir.clone()
        }
    }

    /// The database URL in force: `database_url`, or the SQLite file under `data_dir`.
    pub fn effective_database_url(&self) -> String {
        if self.database_url.is_empty() {
            format!(
                "sqlite://{}?mode=rwc",
                self.data_dir.join("exchange.db").display()
            )
        } else {
            self.database_url.clone()
        }
    }
}

fn parse_env<T: std::str::FromStr>(
    name: &'static str,
    value: String,
    expected: &'static str,
) -> Result<T, ConfigError> {
    value.trim().parse().map_err(|_| ConfigError::Env {
        name,
        value,
        expected,
    })
}

#[cfg(test)]
mod tests;
