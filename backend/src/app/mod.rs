//! The composition root: builds the whole server — the OpenAPI service over the domain APIs, the
//! live channels, the platform config script and the static webapp, with the request-wide
//! middleware —, starts the engines and the market simulator, and stops everything cleanly. Every
//! dependency a handler may use is registered on its own ([`AppState::register`]), so a handler
//! names only the ones it uses and no domain imports this module.

pub mod test_clock;
pub mod user_channel;

use std::{net::SocketAddr, sync::Arc, time::Duration};

use poem::{
    Endpoint, EndpointExt, IntoEndpoint, Route, Server, get,
    listener::{Acceptor, Listener, TcpListener},
    middleware::CatchPanic,
};
use poem_openapi::OpenApiService;
use sea_orm::DatabaseConnection;
use tokio::{sync::watch, task::JoinHandle};

use crate::admin::api::AdminApi;
use crate::admin::funds_api::AdminFundsApi;
use crate::common::api::{CommonApi, platform_config_script};
use crate::config::Config;
use crate::funds::api::FundsApi;
use crate::funds::conversion_api::ConversionApi;
use crate::funds::deposits_api::DepositApi;
use crate::funds::reports_api::ReportsApi;
use crate::funds::withdrawals_api::WithdrawalApi;
use crate::http::headers::security_headers;
use crate::http::middleware::{EnvelopePanicHandler, api_middleware};
use crate::http::static_files::WebappFiles;
use crate::kyc::api::KycApi;
use crate::kyc::files::LinkKey;
use crate::lease;
use crate::market::{
    MarketHub,
    api::MarketApi,
    retention, simulator, simulator_owner,
    ws::{business_notice, market_channel},
};
use crate::seconds::engine as seconds_engine;
use crate::security::api::SecurityApi;
use crate::spot::api::SpotApi;
use crate::user::{
    api::{UserApi, dev_outbox},
    mailer::{Mailer, MailerError},
    rate_limit::{CodeLimits, Limit, RateLimiter},
};

/// The dependencies of a running server, each handed to the handlers on its own.
#[derive(Clone)]
pub struct AppState {
    /// The database.
    pub db: DatabaseConnection,
    /// Latest market state and live broadcast.
    pub hub: Arc<MarketHub>,
    /// The configuration in force.
    pub config: Arc<Config>,
    /// Sends e-mail and text messages (or keeps them in the dev outbox).
    pub mailer: Arc<Mailer>,
    /// Login and code-sending limits.
    pub limiter: Arc<RateLimiter>,
    /// Key that signs short-lived file links.
    pub link_key: LinkKey,
    /// The spot markets.
    pub spot: Arc<crate::spot::SpotRegistry>,
    /// Rolled-up closed candles of the kline history.
    pub kline_cache: Arc<crate::market::kline_cache::KlineCache>,
    /// The settlement task of seconds contracts.
    pub seconds: Arc<crate::seconds::SecondsEngine>,
    /// The USDT-M futures engines.
    pub futures: Arc<crate::futures::FuturesRegistry>,
    /// The clock of day-based rules (tests advance it).
    pub clock: crate::clock::Clock,
    /// Earn products' daily job and messages.
    pub earn: Arc<crate::earn::EarnEngine>,
    /// The loan messages of users' private channels.
    pub loan_events: crate::loans::LoanEvents,
    /// The VIP set the spot and futures engines discount fees by.
    pub fee_discounts: Arc<crate::tiers::FeeDiscounts>,
    /// The support chat's live messages and who is connected.
    pub support: crate::support::SupportHub,
    /// Where live events go beyond this process (cluster mode: NATS).
    pub fanout: crate::cluster::Fanout,
}

impl AppState {
    /// `endpoint` with every dependency registered as its own request data (`Data<&T>`), in one
    /// layer: a layer per dependency nests the endpoint type so deep that the compiler's query
    /// depth overflows in release builds.
    pub fn register<E: Endpoint>(&self, endpoint: E) -> impl Endpoint + use<E> {
        WithDependencies {
            inner: endpoint,
            state: self.clone(),
        }
    }

    /// Puts every dependency into `extensions`, each under its own type.
    fn insert_into(&self, extensions: &mut poem::http::Extensions) {
        extensions.insert(self.db.clone());
        extensions.insert(self.hub.clone());
        extensions.insert(self.config.clone());
        extensions.insert(self.mailer.clone());
        extensions.insert(self.limiter.clone());
        extensions.insert(self.link_key.clone());
        extensions.insert(self.spot.clone());
        extensions.insert(self.kline_cache.clone());
        extensions.insert(self.seconds.clone());
        extensions.insert(self.futures.clone());
        extensions.insert(self.futures.clone() as Arc<dyn crate::funds::service::BucketClaims>);
        extensions.insert(self.clock.clone());
        extensions.insert(self.earn.clone());
        extensions.insert(self.loan_events.clone());
        extensions.insert(self.fee_discounts.clone());
        extensions.insert(self.support.clone());
        extensions.insert(self.fanout.clone());
    }
}

/// An endpoint whose requests carry every dependency of [`AppState`] as request data.
struct WithDependencies<E> {
    inner: E,
    state: AppState,
}

impl<E: Endpoint> Endpoint for WithDependencies<E> {
    type Output = E::Output;

    async fn call(&self, mut req: poem::Request) -> poem::Result<Self::Output> {
        self.state.insert_into(req.extensions_mut());
        // A session ended by this request is announced through this instance's fanout.
        crate::user::session_cache::in_scope(self.state.fanout.clone(), self.inner.call(req)).await
    }
}

/// Every domain API, in the order the OpenAPI document lists them.
pub type DomainApis = (
    CommonApi,
    MarketApi,
    UserApi,
    SecurityApi,
    KycApi,
    AdminApi,
    FundsApi,
    ConversionApi,
    ReportsApi,
    DepositApi,
    WithdrawalApi,
    AdminFundsApi,
    SpotApi,
    crate::seconds::api::SecondsApi,
    crate::futures::api::FuturesApi,
    // poem-openapi implements OpenApi for tuples of up to 16: the later domains share the last one.
    (
        crate::content::api::ContentApi,
        crate::admin::content_api::AdminContentApi,
        crate::earn::api::EarnApi,
        crate::admin::earn_api::AdminEarnApi,
        crate::loans::api::LoansApi,
        crate::admin::loans_api::AdminLoansApi,
        crate::referral::api::ReferralApi,
        crate::referral::admin_api::AdminReferralApi,
        crate::tiers::api::TiersApi,
        crate::merchants::api::MerchantsApi,
        crate::merchants::admin_api::AdminMerchantsApi,
        crate::support::api::SupportApi,
        crate::admin::support_api::AdminSupportApi,
        crate::admin::accounts_api::AdminAccountsApi,
        crate::market::user_coin_api::UserCoinApi,
        // The 16th: a new inner tuple (poem-openapi has no 1-tuple; `()` holds the next place).
        (crate::wallet::api::WalletApi, ()),
    ),
);

/// The OpenAPI service of every domain API; also the source of `openapi/openapi.json`.
pub fn api_service() -> OpenApiService<DomainApis, ()> {
    OpenApiService::new(
        (
            CommonApi,
            MarketApi,
            UserApi,
            SecurityApi,
            KycApi,
            AdminApi,
            FundsApi,
            ConversionApi,
            ReportsApi,
            DepositApi,
            WithdrawalApi,
            AdminFundsApi,
            SpotApi,
            crate::seconds::api::SecondsApi,
            crate::futures::api::FuturesApi,
            (
                crate::content::api::ContentApi,
                crate::admin::content_api::AdminContentApi,
                crate::earn::api::EarnApi,
                crate::admin::earn_api::AdminEarnApi,
                crate::loans::api::LoansApi,
                crate::admin::loans_api::AdminLoansApi,
                crate::referral::api::ReferralApi,
                crate::referral::admin_api::AdminReferralApi,
                crate::tiers::api::TiersApi,
                crate::merchants::api::MerchantsApi,
                crate::merchants::admin_api::AdminMerchantsApi,
                crate::support::api::SupportApi,
                crate::admin::support_api::AdminSupportApi,
                crate::admin::accounts_api::AdminAccountsApi,
                crate::market::user_coin_api::UserCoinApi,
                (crate::wallet::api::WalletApi, ()),
            ),
        ),
        "Kestrel Exchange API",
        env!("CARGO_PKG_VERSION"),
    )
    .description(
        "The public API of the Kestrel Exchange webapp. Every answer is the envelope \
             {code, msg, data}; msg is in the language of the `lang` header; decimals are strings.",
    )
    .server("/")
}

/// The OpenAPI document, as committed in `openapi/openapi.json`.
pub fn openapi_json() -> String {
    api_service().spec()
}

/// The route tree over `state`.
pub fn routes(state: AppState) -> impl Endpoint {
    let webapp = WebappFiles::new(&state.config.webapp_dir);
    let api = api_service();
    let mut routes = Route::new();
    if state.config.test_clock {
        // Test-only (the e2e suite): absent from a default server and from the OpenAPI document.
        routes = routes.nest_no_strip("/api/admin/test", test_clock::service());
    }
    let routes = routes
        .at("/api/dev/outbox", get(dev_outbox))
        .nest("/api/docs", api.swagger_ui())
        .at("/api/openapi.json", api.spec_endpoint())
        .nest_no_strip("/api", api)
        .at("/platform/dev/config.js", get(platform_config_script))
        .at("/ws/market/:client_id", get(market_channel))
        .at("/ws/business/notice", get(business_notice))
        .at("/ws/user/push/:user_id", get(user_channel::user_push))
        .at(
            "/ws/support/customer",
            get(crate::support::ws::customer_channel),
        )
        .at(
            "/ws/support/operator",
            get(crate::support::ws::operator_channel),
        )
        .nest("/", webapp);
    state
        .register(routes)
        .with(CatchPanic::new().with_handler(EnvelopePanicHandler))
        .around(api_middleware)
        .around(security_headers)
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The database could not be opened or migrated.
    #[error(transparent)]
    Database(#[from] crate::db::DbOpenError),
    /// The listed pairs could not be read.
    #[error("cannot read the listed pairs: {0}")]
    Pairs(#[from] sea_orm::DbErr),
    /// The shipped content could not be seeded.
    #[error(transparent)]
    Content(#[from] crate::content::seed::SeedError),
    /// The mail sender is missing or misconfigured.
    #[error(transparent)]
    Mailer(#[from] MailerError),
    /// Cluster mode is misconfigured (a NATS URL without PostgreSQL).
    #[error(transparent)]
    Cluster(#[from] crate::config::ConfigError),
    /// The cluster's NATS server could not be reached.
    #[error(transparent)]
    Bus(#[from] crate::cluster::BusError),
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: String,
        source: std::io::Error,
    },
}

/// A running server.
pub struct App {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// The shared state (tests read the database through it).
    pub state: AppState,
    shutdown: watch::Sender<bool>,
    server: JoinHandle<std::io::Result<()>>,
    simulator: Option<JoinHandle<()>>,
}

/// Opens the database, starts the market simulator and the HTTP server.
pub async fn start(config: Config) -> Result<App, StartError> {
    config.cluster.check(&config.effective_database_url())?;
    // Cluster mode: every singleton below takes its lease on the bus (docs/operations.md).
    let bus = if config.cluster.enabled() {
        Some(crate::cluster::Bus::connect(&config.cluster).await?)
    } else {
        None
    };
    let bus = bus.as_ref();
    let mailer = Arc::new(Mailer::from_config(&config)?);
    let db = crate::db::connect(&config).await?;
    let hub = Arc::new(MarketHub::new());
    let (shutdown, shutdown_rx) = watch::channel(false);
    // Cluster mode: the live channels and the session signal go through NATS (cluster/fanout.rs).
    let fanout = match bus {
        Some(bus) => crate::cluster::Fanout::start(bus, hub.clone(), shutdown_rx.clone()).await?,
        None => crate::cluster::Fanout::local(),
    };
    hub.share_through(fanout.clone());
    // Cluster mode: who owns each market, so that a forwarded command stops waiting for a dead
    // owner (cluster/liveness.rs).
    if let Some(bus) = bus {
        tokio::spawn(crate::cluster::liveness::watch_leases(
            bus.clone(),
            crate::cluster::forward::MARKET_LEASE_MS,
            shutdown_rx.clone(),
        ));
    }
    crate::content::seed::run(&db).await?;
    tokio::spawn(crate::content::announcer::run(
        db.clone(),
        hub.clone(),
        crate::content::render::Vars::from_config(&config),
        crate::clock::now_ms(),
        shutdown_rx.clone(),
    ));

    let security_percent =
        wasm_core::money::parse_decimal(&config.platform.security_fund_percent).unwrap_or_default();
    let fee_discounts = Arc::new(crate::tiers::FeeDiscounts::new(
        config.tiers.vip_fee_discount,
    ));
    fee_discounts.reload(&db).await?;
    let spot = crate::spot::SpotRegistry::start(
        crate::db::connect_writer(&config, &db).await?,
        db.clone(),
        hub.clone(),
        config.trading.clone(),
        security_percent,
        fee_discounts.clone(),
        shutdown_rx.clone(),
        bus.cloned(),
    )
    .await?;
    if crate::db::is_sqlite_file(&config.effective_database_url()) {
        let spot = spot.clone();
        tokio::spawn(crate::db::run_checkpoints(
            db.clone(),
            move || {
                let spot = spot.clone();
                async move { spot.finish_checkpoint().await }
            },
            shutdown_rx.clone(),
        ));
    }
    let seconds = crate::seconds::SecondsEngine::start(
        db.clone(),
        lease::in_cluster(bus, seconds_engine::LEASE, seconds_engine::LEASE_MS),
        shutdown_rx.clone(),
    )
    .await?;
    let futures = crate::futures::FuturesRegistry::start(
        db.clone(),
        hub.clone(),
        config.futures.clone(),
        security_percent,
        fee_discounts.clone(),
        bus.cloned(),
        shutdown_rx.clone(),
    )
    .await?;
    let clock = crate::clock::Clock::system();
    let earn = crate::earn::EarnEngine::start(
        db.clone(),
        crate::db::connect_writer(&config, &db).await?,
        clock.clone(),
        lease::for_job(&db, bus, crate::earn::payout::JOB, lease::LEASE_MS),
        shutdown_rx.clone(),
    );
    let simulator = if config.simulator.enabled && bus.is_some() {
        tokio::spawn(retention::run(
            db.clone(),
            config.simulator.tick_retention_days,
            lease::in_cluster(bus, retention::LEASE, retention::LEASE_MS),
            shutdown_rx.clone(),
        ));
        Some(tokio::spawn(simulator_owner::run(
            config.simulator.clone(),
            lease::for_job(
                &db,
                bus,
                simulator_owner::LEASE,
                simulator_owner::lease_ttl_ms(&config.simulator),
            ),
            Arc::new(crate::spot::registry::SpotQuoteSink(spot.clone())),
            db.clone(),
            hub.clone(),
            shutdown_rx.clone(),
        )))
    } else if config.simulator.enabled {
        let pairs = simulator::load_pairs(&db).await?;
        let mut simulator = simulator::Simulator::start(
            pairs,
            config.simulator.seed,
            config.simulator.tick_ms,
            &hub,
            &db,
        )
        .await?
        .with_quote_sink(Arc::new(crate::spot::registry::SpotQuoteSink(spot.clone())));
        if crate::db::is_sqlite_file(&config.effective_database_url()) {
            simulator = simulator.with_write_turn(spot.write_turn());
        }
        tokio::spawn(retention::run(
            db.clone(),
            config.simulator.tick_retention_days,
            None,
            shutdown_rx.clone(),
        ));
        let run = simulator.run(db.clone(), hub.clone(), shutdown_rx.clone());
        Some(tokio::spawn(async move {
            run.await;
        }))
    } else {
        None
    };

    let loan_events = crate::loans::LoanEvents::default();
    fanout.share_user_events(spot.subscribe_user_events());
    fanout.share_user_events(seconds.subscribe_user_events());
    fanout.share_user_events(futures.subscribe_user_events());
    fanout.share_user_events(earn.subscribe_user_events());
    fanout.share_user_events(loan_events.subscribe());
    tokio::spawn(crate::loans::sweep::run(
        db.clone(),
        loan_events.clone(),
        config.loans.clone(),
        clock.clone(),
        lease::for_job(&db, bus, crate::loans::sweep::LEASE, lease::LEASE_MS),
        shutdown_rx.clone(),
    ));
    if config.referral.enabled {
        tokio::spawn(crate::referral::batch::run(
            db.clone(),
            crate::referral::batch::Settings::new(&config.referral, security_percent),
            Duration::from_secs(config.referral.batch_every_secs),
            clock.clone(),
            lease::for_job(
                &db,
                bus,
                crate::referral::batch::JOB,
                crate::referral::batch::LEASE_MS,
            ),
            shutdown_rx.clone(),
        ));
    }

    if config.tiers.enabled {
        tokio::spawn(crate::tiers::job::run(
            db.clone(),
            hub.clone(),
            config.tiers.clone(),
            fee_discounts.clone(),
            clock.clone(),
            lease::for_job(
                &db,
                bus,
                crate::tiers::job::JOB,
                crate::tiers::job::lease_ttl_ms(&config.tiers),
            ),
            shutdown_rx.clone(),
        ));
    }

    tokio::spawn(crate::notify::deliver::run(
        db.clone(),
        mailer.clone(),
        config.platform.site_name.clone(),
        shutdown_rx.clone(),
    ));

    let addr = format!("{}:{}", config.host, config.port);
    let acceptor = TcpListener::bind(addr.clone())
        .into_acceptor()
        .await
        .map_err(|source| StartError::Bind {
            addr: addr.clone(),
            source,
        })?;
    let bound = acceptor
        .local_addr()
        .into_iter()
        .find_map(|a| a.as_socket_addr().copied())
        .ok_or_else(|| StartError::Bind {
            addr: addr.clone(),
            source: std::io::Error::other("no socket address"),
        })?;
    let code_limits = |security: &crate::config::SecurityConfig| CodeLimits {
        per_target: Limit::per_secs(1, security.code_resend_secs.max(1)),
        per_ip_hour: Limit::per_secs(security.codes_per_ip_hour.max(1), 3600),
        ..CodeLimits::default()
    };
    let limiter = Arc::new(
        RateLimiter::with_code_limits(code_limits(&config.security)).shared_through(bus.map(
            |bus| {
                Arc::new(crate::cluster::NatsCounts::new(bus.clone()))
                    as Arc<dyn crate::user::rate_limit::SharedCounts>
            },
        )),
    );
    let state = AppState {
        db,
        hub,
        link_key: LinkKey::from_secret(&config.security.link_secret),
        config: Arc::new(config),
        mailer,
        limiter,
        spot,
        kline_cache: Arc::new(crate::market::kline_cache::KlineCache::new()),
        seconds,
        futures,
        clock,
        earn,
        loan_events,
        fee_discounts,
        support: crate::support::SupportHub::default(),
        fanout,
    };
    let endpoint = routes(state.clone()).into_endpoint();
    let mut stop = shutdown_rx;
    let server = tokio::spawn(async move {
        Server::new_with_acceptor(acceptor)
            .run_with_graceful_shutdown(
                endpoint,
                async move {
                    let _ = stop.changed().await;
                },
                Some(Duration::from_secs(5)),
            )
            .await
    });
    Ok(App {
        addr: bound,
        state,
        shutdown,
        server,
        simulator,
    })
}

impl App {
    /// Stops accepting requests, lets running ones finish (up to 5 s), stops the simulator.
    pub async fn stop(self) {
        let _ = self.shutdown.send(true);
        if let Err(error) = self.server.await {
            tracing::error!(%error, "server task failed");
        }
        if let Some(simulator) = self.simulator {
            let _ = simulator.await;
        }
        self.state.db.close_by_ref().await.ok();
    }
}
