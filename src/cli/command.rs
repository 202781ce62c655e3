//! The prompt's commands, at the paths the front ends have long used: a line is carried out
//! in the session layer (`crate::session::command`), its odds answered in the analysis layer
//! (`crate::analysis::command`), and the events rendered beside them (`crate::game::event`).
//! Only re-exports live here, so that callers of `cli::command::...` need not change.

pub use crate::analysis::command::{run_line, run_line_as};
pub use crate::game::event::render;
pub use crate::session::command::{
    META_COMMANDS, Mode, QUIT, Reply, explain, is_quit, is_save, replaces_game, standing,
};
