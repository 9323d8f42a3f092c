//! Unit tests of the configuration: defaults, the file, environment overrides and their checks.

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
fn seconds_periods_come_from_the_environment_and_are_checked() {
    let config = Config::load_from(None, |name| match name {
        "EXCHANGE_SECONDS_PERIODS" => Some("5:0.85:10:500, 60:0.9:20:1000".into()),
        "EXCHANGE_SECONDS_ENABLED" => Some("false".into()),
        _ => None,
    })
    .unwrap();
    assert!(!config.seconds.enabled);
    assert_eq!(config.seconds.periods.len(), 2);
    assert_eq!(
        config.seconds.period(5).unwrap().payout_rate,
        decimal("0.85")
    );
    assert_eq!(Config::default().seconds.periods.len(), 4);
    for bad in [
        "5:0.85:10",
        "0:0.8:10:20",
        "5:0.8:10.5:20",
        "5:0.8:30:20",
        "5:-1:1:2",
        "5:1:1:2,5:1:1:2",
    ] {
        let error = Config::load_from(None, |name| {
            (name == "EXCHANGE_SECONDS_PERIODS").then(|| bad.to_owned())
        });
        assert!(error.is_err(), "{bad} was accepted");
    }
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
fn the_default_funds_channels_are_valid() {
    let mut funds = FundsConfig::default();
    assert_eq!(funds.normalise(), Ok(()));
    assert_eq!(funds.channels_of("usdt").len(), 2);
    assert_eq!(funds.channels_of("btc").len(), 1);
    assert_eq!(funds.channels_of("eth").len(), 1);
}

#[test]
fn funds_channels_from_a_file_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("exchange.toml");
    let channel = |address: &str, fee: &str| {
        format!(
            "[[funds.channels]]\ncoin = \"USDT\"\nnetwork = \"bep20\"\naddress = \"{address}\"\n\
             min_deposit = \"5\"\nwithdraw_fee = \"{fee}\"\nmin_withdraw = \"2\"\n"
        )
    };
    std::fs::write(
        &path,
        channel("0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb", "0.5"),
    )
    .unwrap();
    let config = Config::load_from(Some(&path), |_| None).unwrap();
    assert_eq!(config.funds.channels.len(), 1);
    assert_eq!(
        (
            config.funds.channels[0].coin.as_str(),
            config.funds.channels[0].network.as_str(),
            config.funds.channels[0].precision
        ),
        ("usdt", "BEP20", 8)
    );
    for (address, fee, fault) in [
        ("TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7", "0.5", "address"),
        (
            "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
            "2",
            "min_withdraw",
        ),
    ] {
        std::fs::write(&path, channel(address, fee)).unwrap();
        let error = Config::load_from(Some(&path), |_| None).unwrap_err();
        assert!(matches!(error, ConfigError::Funds(_)), "{error}");
        assert!(
            error.to_string().contains(fault) || fault == "address",
            "{error}"
        );
    }
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

#[test]
fn referral_switches_and_period_come_from_the_environment() {
    let defaults = Config::load_from(None, |_| None).unwrap().referral;
    assert!(defaults.withhold_same_address && defaults.withhold_unverified);
    assert_eq!(defaults.batch_every_secs, 60);
    let config = Config::load_from(None, |name| match name {
        "EXCHANGE_REFERRAL_WITHHOLD_SAME_ADDRESS" => Some("false".into()),
        "EXCHANGE_REFERRAL_BATCH_EVERY_SECS" => Some("5".into()),
        _ => None,
    })
    .unwrap();
    assert!(!config.referral.withhold_same_address);
    assert!(config.referral.withhold_unverified);
    assert_eq!(config.referral.batch_every_secs, 5);
    for (name, bad) in [
        ("EXCHANGE_REFERRAL_WITHHOLD_UNVERIFIED", "no"),
        ("EXCHANGE_REFERRAL_BATCH_EVERY_SECS", "0"),
        ("EXCHANGE_REFERRAL_BATCH_EVERY_SECS", "soon"),
    ] {
        let error = Config::load_from(None, |n| (n == name).then(|| bad.to_owned()));
        assert!(error.is_err(), "{name}={bad} was accepted");
    }
}

#[test]
fn cluster_mode_comes_from_the_environment_and_needs_postgresql() {
    let postgres = Config::load_from(None, |name| match name {
        "EXCHANGE_NATS_URL" => Some("nats://127.0.0.1:4222".into()),
        "EXCHANGE_INSTANCE" => Some("node-1".into()),
        "DATABASE_URL" => Some("postgres://x@localhost/db".into()),
        _ => None,
    })
    .unwrap();
    assert!(postgres.cluster.enabled());
    assert_eq!(postgres.cluster.instance_name(), "node-1");
    assert!(!Config::default().cluster.enabled());

    let sqlite = Config::load_from(None, |name| match name {
        "EXCHANGE_NATS_URL" => Some("nats://127.0.0.1:4222".into()),
        _ => None,
    });
    assert!(
        matches!(&sqlite, Err(ConfigError::Cluster(message)) if message.contains("PostgreSQL")),
        "{sqlite:?}"
    );

    let unnamed = ClusterConfig::default().instance_name();
    assert_ne!(
        unnamed,
        ClusterConfig::default().instance_name(),
        "a random suffix"
    );
}
