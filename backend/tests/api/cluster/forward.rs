//! A forwarded command whose owner goes away while holding it (`crate::cluster::forward`): the
//! caller's probes find nobody on the subject any more and the command ends as unknown at once,
//! instead of waiting out `ANSWER_WITHIN`; while the owner is there, however slow, it waits.

use std::time::{Duration, Instant};

use backend::cluster::Bus;
use backend::cluster::forward::{self, ANSWER_WITHIN, PROBE_EVERY, Sent};

use super::Nats;

const SUBJECT: &str = "kestrel.cmd.test.forward";

#[tokio::test]
async fn a_command_whose_owner_leaves_before_answering_ends_without_waiting_out_its_time() {
    let nats = Nats::start().await;
    let caller = Bus::connect(&nats.cluster("caller"))
        .await
        .expect("NATS answers");
    // The owner: takes every command and never answers one (a market busy for ever).
    let owner = async_nats::connect(&nats.url).await.expect("NATS answers");
    let requests = owner.subscribe(SUBJECT).await.expect("subscribed");
    owner.flush().await.expect("the subscription is in place");
    let serving = tokio::spawn(forward::serve(
        owner.clone(),
        requests,
        |_: Result<String, serde_json::Error>| std::future::pending::<String>(),
    ));

    let started = Instant::now();
    let sent = tokio::spawn(async move {
        let sent: Sent<String> = forward::send(&caller, SUBJECT, &"an order".to_owned()).await;
        (sent, started.elapsed())
    });
    // Several probes answered by a live owner: the caller keeps waiting for the answer.
    tokio::time::sleep(PROBE_EVERY * 4).await;
    assert!(!sent.is_finished(), "a live owner's command was given up");

    // The owner goes: its subscription leaves the server with it.
    serving.abort();
    owner.drain().await.expect("drained");
    let gone = Instant::now();
    let (sent, waited) = sent.await.expect("the caller ends");
    assert!(
        matches!(sent, Sent::Unknown),
        "a command nobody answered is unknown"
    );
    assert!(
        gone.elapsed() < PROBE_EVERY * 4,
        "the caller waited {:?} after its owner left",
        gone.elapsed()
    );
    assert!(
        waited < ANSWER_WITHIN - Duration::from_secs(1),
        "{waited:?}"
    );
}
