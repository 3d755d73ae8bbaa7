//! The server's integration tests, in one binary (one link for `cargo test`, as ripgrep's
//! `tests/tests.rs`): one module per subject, `support` the servers, clients and throwaway
//! PostgreSQL clusters they share.

mod support;

mod cluster;
mod dice;
mod edge;
mod full_disk;
mod grace;
mod heartbeat;
mod hostile;
mod insight;
mod lifecycle;
mod load;
mod lobby;
mod online;
mod protocol_doc;
mod resume;
mod series;
mod storage;
mod streams;
mod web;
mod work;
