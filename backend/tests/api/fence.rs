//! A market owner's fence (`backend::cluster::fence`) on the test database — PostgreSQL under
//! `scripts/test-postgres.sh`, where a batch checks its token and takes the markets' advisory lock
//! in one statement: a batch under the current token goes on and keeps a takeover waiting until
//! it ends; a batch under a stale token is refused.

use std::time::Duration;

use backend::cluster::fence;
use backend::db::Writer;

use crate::helpers::spawn_app;

/// The advisory lock the spot batches take.
const MARKETS_TURN: i64 = 7411;

#[tokio::test]
async fn a_batch_under_the_current_token_holds_off_a_takeover_and_a_stale_one_is_refused() {
    let app = spawn_app().await;
    let db = app.db().clone();
    let writer = Writer::Shared(db.clone());
    let first = fence::take(&db, "spot:fencetest", "a").await.unwrap();

    // The owner's batch holds the token: a takeover waits for the batch to end.
    let batch = writer.begin_immediate().await.unwrap();
    assert!(
        fence::still_holds_in_turn(&batch, &first, MARKETS_TURN)
            .await
            .unwrap(),
        "the current owner's batch goes on"
    );
    let taking = tokio::spawn({
        let db = db.clone();
        async move { fence::take(&db, "spot:fencetest", "b").await.unwrap() }
    });
    let waited = tokio::time::timeout(Duration::from_millis(300), async {
        while !taking.is_finished() {
            tokio::task::yield_now().await;
        }
    })
    .await;
    assert!(waited.is_err(), "the takeover did not wait for the batch");
    batch.commit().await.unwrap();
    let second = taking.await.unwrap();
    assert!(second.token() > first.token());

    // The old owner's next batch is refused; the new owner's goes on.
    let stale = writer.begin_immediate().await.unwrap();
    assert!(
        !fence::still_holds_in_turn(&stale, &first, MARKETS_TURN)
            .await
            .unwrap(),
        "a batch under a stale token is refused"
    );
    drop(stale);
    let current = writer.begin_immediate().await.unwrap();
    assert!(
        fence::still_holds_in_turn(&current, &second, MARKETS_TURN)
            .await
            .unwrap()
    );
    current.commit().await.unwrap();
    app.stop().await;
}
