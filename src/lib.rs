//! sandtable: a rules sandbox for tabletop miniature wargames.
//!
//! The layers, each a folder and each depending only on those listed before it (see
//! `ARCHITECTURE.md`):
//! 1. [`host`]: the table's primitives in plain Rust, without Rhai or files: dice and their
//!    exact odds, cards, geometry, terrain, grid areas, units, the battlefield;
//! 2. [`game`]: one game's data: its state and event log, scenarios, ruleset data, abilities'
//!    bookkeeping, saves and the project's folders;
//! 3. [`script`]: the sandboxed Rhai engine, the host API scripts see, the module resolver and
//!    the hook dispatcher;
//! 4. [`session`]: one game in play, and the lines that act on it, parsed then run;
//! 5. [`analysis`]: odds of actions and Monte Carlo, driving sessions through parsed actions;
//! 6. `cli`: the front ends (behind the default feature `cli`, with clap, rustyline and
//!    indicatif; without it the crate is the library alone).
//!
//! [`error`] is the crate's error type, which every layer uses, and [`limits`] every limit
//! with its number, which every layer may read.

pub mod analysis;
#[cfg(feature = "cli")]
pub mod cli;
pub mod error;
pub mod game;
pub mod host;
pub mod limits;
pub mod memory;
pub mod script;
pub mod session;

pub use error::Error;
