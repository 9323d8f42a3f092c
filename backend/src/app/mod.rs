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
use crate::market::{
    MarketHub,
    api::MarketApi,
    simulator,
    ws::{business_notice, market_channel},
};
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
}

impl AppState {
    /// `endpoint` with every dependency registered as its own request data (`Data<&T>`).
    pub fn register<E: Endpoint>(&self, endpoint: E) -> impl Endpoint + use<E> {
        endpoint
            .data(self.db.clone())
            .data(self.hub.clone())
            .data(self.config.clone())
            .data(self.mailer.clone())
            .data(self.limiter.clone())
            .data(self.link_key.clone())
            .data(self.spot.clone())
            .data(self.kline_cache.clone())
            .data(self.seconds.clone())
            .data(self.futures.clone())
            .data(self.futures.clone() as Arc<dyn crate::funds::service::BucketClaims>)
            .data(self.clock.clone())
            .data(self.earn.clone())
            .data(self.loan_events.clone())
            .data(self.fee_discounts.clone())
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
    let mailer = Arc::new(Mailer::from_config(&config)?);
    let db = crate::db::connect(&config).await?;
    let hub = Arc::new(MarketHub::new());
    let (shutdown, shutdown_rx) = watch::channel(false);
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
    let seconds = crate::seconds::SecondsEngine::start(db.clone(), shutdown_rx.clone()).await?;
    let futures = crate::futures::FuturesRegistry::start(
        db.clone(),
        hub.clone(),
        config.futures.clone(),
        security_percent,
        fee_discounts.clone(),
        shutdown_rx.clone(),
    )
    .await?;
    let clock = crate::clock::Clock::system();
    let earn = crate::earn::EarnEngine::start(
        db.clone(),
        crate::db::connect_writer(&config, &db).await?,
        clock.clone(),
        shutdown_rx.clone(),
    );
    let simulator = if config.simulator.enabled {
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
        tokio::spawn(crate::market::retention::run(
            db.clone(),
            config.simulator.tick_retention_days,
            shutdown_rx.clone(),
        ));
        Some(tokio::spawn(simulator.run(
            db.clone(),
            hub.clone(),
            shutdown_rx.clone(),
        )))
    } else {
        None
    };

    let loan_events = crate::loans::LoanEvents::default();
    tokio::spawn(crate::loans::sweep::run(
        db.clone(),
        loan_events.clone(),
        config.loans.clone(),
        clock.clone(),
        Arc::new(crate::lease::DbLease::new(
            db.clone(),
            crate::loans::sweep::LEASE,
        )),
        shutdown_rx.clone(),
    ));
    if config.referral.enabled {
        tokio::spawn(crate::referral::batch::run(
            db.clone(),
            crate::referral::batch::Settings::new(&config.referral, security_percent),
            clock.clone(),
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
    let limiter = Arc::new(RateLimiter::with_code_limits(code_limits(&config.security)));
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
