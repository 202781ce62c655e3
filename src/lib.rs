//! sandtable: a rules sandbox for tabletop miniature wargames.
//!
//! The layers, each depending only on those above it:
//! 1. host primitives, plain Rust: [`rng`], [`dice`], [`cards`], [`geometry`], [`terrain`],
//!    [`grid`], [`unit`](mod@unit), [`battlefield`];
//! 2. scripting: [`script`] (the sandboxed Rhai engine and the host API);
//! 3. the session: [`scenario`], [`ruleset`], [`state`], [`event`], [`session`];
//! 4. front ends: [`command`] (lines typed at the prompt) and [`cli`].

pub mod ability;
pub mod action_odds;
pub mod battlefield;
pub mod cards;
pub mod cli;
pub mod command;
pub mod dice;
pub mod error;
pub mod event;
pub mod geometry;
pub mod grid;
pub mod map;
pub mod odds;
pub mod project;
pub mod rng;
pub mod ruleset;
pub mod save;
pub mod scenario;
pub mod script;
pub mod session;
pub mod sim;
pub mod state;
pub mod suggest;
pub mod terrain;
pub mod unit;
pub mod yaml;

pub use error::Error;
