//! One game's data, without Rhai: its state and event log, the scenario it started from,
//! the ruleset's data, the abilities' bookkeeping (uses, cooldowns), saves, and the
//! project's folders.

pub mod ability;
pub mod event;
pub mod project;
pub mod ruleset;
pub mod save;
pub mod scenario;
pub mod state;
pub mod yaml;
