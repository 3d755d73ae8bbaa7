//! A CI-sized run of the load generator (`examples/load.rs`): rooms of two WebSocket players
//! played back to back to the end; no event lost or duplicated, no error, every game finished.

#[path = "../../examples/load.rs"]
mod generator;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_played_back_to_back_lose_and_repeat_no_event() {
    let dir = std::env::temp_dir().join(format!("snl-server-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let addr = generator::local_server(&dir).await;
    let options = generator::Options { rooms: 40, paced: false, seed: 1, duration: None };
    let report = generator::run(addr, &options, || {}).await;
    assert_eq!(report.connections, 80);
    assert_eq!(report.errors, 0);
    assert_eq!(report.lost_or_duplicated, 0);
    assert_eq!(report.unfinished, 0);
    assert!(report.intents >= 40 * 2, "every player rolled: {}", report.intents);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--duration`: once it is over nobody rolls, each room stops at its last event, and every
/// player still receives every event up to it and an answer to every roll it sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paced_run_stopped_by_its_duration_loses_nothing_that_was_sent() {
    let dir = std::env::temp_dir().join(format!("snl-server-load-paced-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let addr = generator::local_server(&dir).await;
    let duration = Some(std::time::Duration::from_secs(5));
    let options = generator::Options { rooms: 10, paced: true, seed: 7, duration };
    let report = generator::run(addr, &options, || {}).await;
    assert_eq!(report.connections, 20);
    assert_eq!(report.errors, 0);
    assert_eq!(report.lost_or_duplicated, 0);
    // A game takes more than five rolls of 1-3 s: every player stops at its room's last event.
    assert_eq!(report.stopped, 20);
    assert_eq!(report.unfinished, 0);
    // Each room's first roll comes at most 3 s after the start.
    assert!(report.intents >= 10, "every room rolled: {}", report.intents);
    assert_eq!(report.p99_us == 0, report.intents == 0, "every roll sent has a latency");
    let _ = std::fs::remove_dir_all(&dir);
}
