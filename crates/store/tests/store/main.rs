//! The store's readers under damaged and random input (issue 29): a proptest-driven harness, run
//! as an ordinary test (256 cases a property) so that CI bounds its time.

mod long_save;
mod save_fuzz;
