//! A CI-sized run of the load generator (`examples/load.rs`): rooms of two WebSocket players
//! played back to back to the end; no event lost or duplicated, no error, every game finished.

#[path = "../examples/load.rs"]
mod load;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_played_back_to_back_lose_and_repeat_no_event() {
    let dir = std::env::temp_dir().join(format!("snl-server-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let addr = load::local_server(&dir).await;
    let options = load::Options { rooms: 40, paced: false, seed: 1 };
    let report = load::run(addr, &options, || {}).await;
    assert_eq!(report.connections, 80);
    assert_eq!(report.errors, 0);
    assert_eq!(report.lost_or_duplicated, 0);
    assert_eq!(report.unfinished, 0);
    assert!(report.intents >= 40 * 2, "every player rolled: {}", report.intents);
    let _ = std::fs::remove_dir_all(&dir);
}
