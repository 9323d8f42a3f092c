//! The connections to the cluster's NATS server: the client (commands, leases, counters), its
//! JetStream context, the live channels' own connection, the name this instance holds leases
//! under, and what it knows of the other instances ([`super::liveness`]).
//!
//! The live channels' connection is opened with `no_echo`: the server never hands an instance back
//! what it published there itself (it delivered that locally already), so each live event crosses
//! the server once per *other* instance rather than once per instance.

use std::sync::Arc;

use async_nats::jetstream;

use crate::config::ClusterConfig;

/// Why the NATS server could not be reached.
#[derive(Debug, thiserror::Error)]
#[error("cannot connect to NATS at {url}: {reason}")]
pub struct BusError {
    /// The URL tried.
    pub url: String,
    /// What the client said.
    pub reason: String,
}

/// This instance's connection to the cluster.
pub struct Bus {
    client: async_nats::Client,
    live: async_nats::Client,
    jetstream: jetstream::Context,
    instance: String,
    holder: String,
    liveness: super::liveness::Liveness,
}

impl Bus {
    /// Connects to `config.nats_url` as `config`'s instance.
    pub async fn connect(config: &ClusterConfig) -> Result<Arc<Self>, BusError> {
        let instance = config.instance_name();
        let connect = |options: async_nats::ConnectOptions| async move {
            options
                .connect(config.nats_url.as_str())
                .await
                .map_err(|error| BusError {
                    url: config.nats_url.clone(),
                    reason: error.to_string(),
                })
        };
        let client = connect(async_nats::ConnectOptions::new().name(instance.clone())).await?;
        let live = connect(
            async_nats::ConnectOptions::new()
                .name(format!("{instance} live"))
                .no_echo(),
        )
        .await?;
        Ok(Arc::new(Self {
            jetstream: jetstream::new(client.clone()),
            client,
            live,
            // A process's own token: two processes given the same name never share a lease.
            holder: format!("{instance}#{:08x}", rand::random::<u32>()),
            instance,
            liveness: Default::default(),
        }))
    }

    /// The core NATS client.
    pub fn client(&self) -> &async_nats::Client {
        &self.client
    }

    /// The live channels' connection (`no_echo`: see the module).
    pub fn live(&self) -> &async_nats::Client {
        &self.live
    }

    /// The JetStream context (streams, key-value buckets).
    pub fn jetstream(&self) -> &jetstream::Context {
        &self.jetstream
    }

    /// This instance's name (`[cluster] instance`, or the host name with a random suffix).
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// What this process writes into the leases it holds: its name and a token of its own.
    pub fn holder(&self) -> &str {
        &self.holder
    }

    /// What this instance knows of the others: the markets' holders, the live instances.
    pub fn liveness(&self) -> &super::liveness::Liveness {
        &self.liveness
    }
}
