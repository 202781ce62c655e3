//! The integration tests, in one crate so that the library is linked once: a module per
//! subject, each test named `MODULE::test` (run one module with
//! `cargo test --test it sint_melee::`). Shared helpers are in `common`. Two subjects are
//! crates of their own: the hostile corpus (`tests/hostile.rs`, one test per case file, found
//! at run time) and the memory measurements (`tests/memory.rs`, whose counting allocator
//! would count every other test's memory here). See docs/testing.md.

mod common;

mod abilities;
mod api_docs;
mod battle;
mod budgets;
mod clauses;
mod cli;
mod data_dir;
mod declared;
mod docs;
mod exact_replay;
mod hangs;
mod house_rules;
mod journal;
mod json;
mod layers;
mod messages;
mod missiles;
mod mounts;
mod native_battle;
mod odds;
mod playmobil;
mod properties;
mod pty;
mod repl;
mod safe_files;
mod sandbox;
mod scenario_errors;
mod schema;
mod shipped;
mod siege;
mod sim;
mod sint_battle;
mod sint_melee;
mod sint_movement;
mod sint_orders;
mod sint_shooting;
mod soldiers_in_time;
