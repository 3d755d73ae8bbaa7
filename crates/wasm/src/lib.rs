//! The engine in the browser: the rules engine, the exact analysis and the board check compiled
//! to WebAssembly (`scripts/wasm.sh`), for `crates/server/web/assets/engine.js`.
//!
//! Each call takes one JSON request and answers one JSON value ([`api`]); the module's door
//! ([`abi`]) hands the text in and out through the page's memory, with no glue code generated.
//! Nothing here restates a rule: every answer comes from the functions the command line and the
//! server use (`snl_engine::check_board_file`, `Board::options`, `snl_wire::answers`).
//!
//! ```
//! // A snake whose head is off a board of 12 cells: the one problem `snl board validate` lists.
//! let request = serde_json::json!({ "text": "size = 12\n[[snake]]\nhead = 13\ntail = 2\n" });
//! let answer: serde_json::Value =
//!     serde_json::from_str(&snl_wasm::api::check_board_file(&request.to_string())).unwrap();
//! assert_eq!(answer["valid"], false);
//! assert_eq!(answer["problems"].as_array().unwrap().len(), 1);
//! // A valid one is summed up as `snl board validate` says it.
//! let request = serde_json::json!({ "text": "size = 12\n[[snake]]\nhead = 11\ntail = 2\n" });
//! let answer: serde_json::Value =
//!     serde_json::from_str(&snl_wasm::api::check_board_file(&request.to_string())).unwrap();
//! assert_eq!(answer["summary"], "12 cells, 1 snake, 0 ladders");
//! ```

pub mod abi;
pub mod api;
pub mod local;
