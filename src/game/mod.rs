//! One game's data, without Rhai: its state and event log, the scenario it started from,
//! the ruleset's data, the abilities' bookkeeping (uses, cooldowns), saves, the
//! project's folders, and the rule that keeps paths from shared files inside them.

pub mod ability;
pub mod confine;
pub mod data_dir;
pub mod declared;
pub mod event;
pub mod project;
pub mod ruleset;
pub mod save;
pub mod scenario;
pub mod schema;
pub mod shipped;
pub mod state;
pub mod yaml;
