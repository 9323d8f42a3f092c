//! Runtime configuration: built-in defaults, then an optional TOML file (`EXCHANGE_CONFIG` or
//! `--config`), then environment variables, each overriding the one before. Every key is documented
//! in the README.

use std::path::{Path, PathBuf};

use serde::Deserialize;

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
mod tests {
    use super::*;

    #[test]
    fn environment_overrides_defaults() {
        let config = Config::load_from(None, |name| match name {
            "EXCHANGE_PORT" => Some("9090".into()),
            "DATABASE_URL" => Some("postgres://x@localhost/db".into()),
            _ => None,
        })
        .unwrap();
        assert_eq!(config.port, 9090);
        assert_eq!(config.effective_database_url(), "postgres://x@localhost/db");
        assert_eq!(config.host, "127.0.0.1");
    }

    #[test]
    fn default_database_is_sqlite_under_the_data_folder() {
        let config = Config::load_from(None, |_| None).unwrap();
        assert_eq!(
            config.effective_database_url(),
            "sqlite://data/exchange.db?mode=rwc"
        );
    }

    #[test]
    fn a_bad_port_names_the_variable() {
        let error = Config::load_from(None, |name| {
            (name == "EXCHANGE_PORT").then(|| "eighty".to_owned())
        })
        .unwrap_err();
        assert!(error.to_string().contains("EXCHANGE_PORT"), "{error}");
    }

    #[test]
    fn a_file_sets_values_and_the_environment_still_wins() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("exchange.toml");
        std::fs::write(
            &path,
            "port = 7000\n[platform]\nsite_name = \"Test\"\n[simulator]\nseed = 7\n",
        )
        .unwrap();
        let config = Config::load_from(Some(&path), |name| {
            (name == "EXCHANGE_PORT").then(|| "7001".to_owned())
        })
        .unwrap();
        assert_eq!(config.port, 7001);
        assert_eq!(config.platform.site_name, "Test");
        assert_eq!(config.simulator.seed, 7);
        assert_eq!(config.simulator.tick_ms, 1000);
    }

    #[test]
    fn an_unknown_key_in_the_file_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("exchange.toml");
        std::fs::write(&path, "prot = 7000\n").unwrap();
        assert!(matches!(
            Config::load_from(Some(&path), |_| None),
            Err(ConfigError::Parse { .. })
        ));
    }
}
