//! The event limits counted cluster-wide (docs/operations.md, "Rate limits"): a burst of
//! code-sending events, and of support chat messages, spread over three instances passes each
//! limit once, not once per instance.

use std::sync::Arc;

use backend::cluster::{Bus, NatsCounts};
use backend::user::rate_limit::{Limit, RateLimiter, SharedCounts};

use super::{Nats, instances, shared_database, stop_all};
use crate::helpers::TestApp;

#[tokio::test]
async fn a_burst_of_code_events_spread_over_the_instances_passes_the_limit_once() {
    let nats = Nats::start().await;
    let mut limiters = Vec::new();
    for name in ["a", "b", "c"] {
        let bus = Bus::connect(&nats.cluster(name))
            .await
            .expect("NATS answers");
        let counts: Arc<dyn SharedCounts> = Arc::new(NatsCounts::new(bus));
        limiters.push(Arc::new(RateLimiter::new().shared_through(Some(counts))));
    }
    // Codes to one address (5 an hour) and from one IP (8 an hour), asked 30 times at once
    // through three instances: each alone would send 5.
    let (per_target, per_ip) = (Limit::per_secs(5, 3600), Limit::per_secs(8, 3600));
    let burst: Vec<_> = (0..30)
        .map(|n| {
            let limiter = limiters[n % 3].clone();
            tokio::spawn(async move {
                limiter
                    .hit(&[
                        ("code:ip:10.0.0.1", per_ip),
                        ("code:target:burst@example.com", per_target),
                    ])
                    .await
            })
        })
        .collect();
    let mut sent = 0;
    for event in burst {
        match event.await.expect("joined") {
            Ok(()) => sent += 1,
            Err(wait) => assert!((1..=3600).contains(&wait), "wait {wait}"),
        }
    }
    assert_eq!(sent, 5, "the address's limit holds cluster-wide");
    // The refused events gave their IP count back: three more codes fit from that IP.
    let other = Limit::per_secs(100, 3600);
    for (n, limiter) in limiters.iter().enumerate() {
        let target = format!("code:target:other{n}@example.com");
        limiter
            .hit(&[("code:ip:10.0.0.1", per_ip), (&target, other)])
            .await
            .expect("within the IP's limit");
    }
    assert!(
        limiters[0]
            .hit(&[("code:ip:10.0.0.1", per_ip)])
            .await
            .is_err(),
        "the IP's eighth code was the last"
    );
}

#[tokio::test]
async fn support_messages_spread_over_the_instances_count_as_one() {
    let nats = Nats::start().await;
    let database = shared_database().await;
    let apps = instances(&nats, &database, &["a", "b", "c"], false).await;
    let member = apps[0].member("cluster-support@example.com").await;
    let send = |app: &TestApp, n: usize| {
        let body = serde_json::json!({"body": format!("message {n}")});
        let (client, base, token) = (app.client.clone(), app.base.clone(), member.token.clone());
        async move {
            client
                .post(format!("{base}/api/support/send"))
                .header("satoken", token)
                .json(&body)
                .send()
                .await
                .expect("answered")
                .status()
                .as_u16()
        }
    };
    // The first opens the conversation; then 14 at once over the three instances.
    assert_eq!(send(&apps[0], 0).await, 200);
    let burst: Vec<_> = (1..15).map(|n| send(&apps[n % 3], n)).collect();
    let statuses = futures_util::future::join_all(burst).await;
    let sent = statuses.iter().filter(|status| **status == 200).count();
    assert_eq!(
        sent, 9,
        "ten messages per ten seconds, cluster-wide: {statuses:?}"
    );
    assert!(statuses.iter().all(|status| matches!(status, 200 | 429)));
    stop_all(apps).await;
}
