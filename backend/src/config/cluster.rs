//! Cluster mode's settings (`[cluster]` in the file): the NATS server that several instances
//! share and this instance's name. Cluster mode is on when a NATS URL is set; it needs PostgreSQL
//! (`DATABASE_URL`), which [`ClusterConfig::check`] enforces.

use serde::Deserialize;

use super::ConfigError;

/// Cluster mode (`[cluster]`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClusterConfig {
    /// The NATS server with JetStream (`nats://host:4222`; `EXCHANGE_NATS_URL`); empty runs one
    /// instance on its own (no cluster mode).
    pub nats_url: String,
    /// This instance's name in the cluster (`EXCHANGE_INSTANCE`); empty means the host name and a
    /// random suffix.
    pub instance: String,
}

impl ClusterConfig {
    /// Reads `EXCHANGE_NATS_URL` and `EXCHANGE_INSTANCE`.
    pub fn apply_env(&mut self, env: &impl Fn(&str) -> Option<String>) {
        if let Some(value) = env("EXCHANGE_NATS_URL") {
            self.nats_url = value.trim().to_owned();
        }
        if let Some(value) = env("EXCHANGE_INSTANCE") {
            self.instance = value.trim().to_owned();
        }
    }

    /// Whether cluster mode is on (a NATS URL is set).
    pub fn enabled(&self) -> bool {
        !self.nats_url.is_empty()
    }

    /// Refuses cluster mode over SQLite: the instances share one database, and an SQLite file is
    /// one process's (`database_url` is the effective URL).
    pub fn check(&self, database_url: &str) -> Result<(), ConfigError> {
        if self.enabled() && !database_url.starts_with("postgres") {
            return Err(ConfigError::Cluster(
                "cluster mode (a NATS URL) needs PostgreSQL: set DATABASE_URL to a postgres:// URL"
                    .into(),
            ));
        }
        Ok(())
    }

    /// The name this instance goes by: `instance`, or the host name with a random suffix.
    pub fn instance_name(&self) -> String {
        if !self.instance.is_empty() {
            return self.instance.clone();
        }
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .ok()
            .or_else(|| std::env::var("HOSTNAME").ok())
            .map(|name| name.trim().to_owned())
            .filter(|name| !name.is_empty())
            .unwrap_or_else(|| "kestrel".into());
        format!("{host}-{:08x}", rand::random::<u32>())
    }
}
