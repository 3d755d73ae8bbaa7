//! How an error message quotes what a client sent, and the name checks: [`snl_wire::names`], shared
//! with the browser's engine.

pub(crate) use snl_wire::names::{hidden, shown};
