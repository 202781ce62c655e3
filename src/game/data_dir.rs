//! The data folder: where `play` keeps its session journals (`journals/`) and the prompt's
//! line history (`history`), and where the rulesets and scenarios shipped in the binary are
//! unpacked (`shipped/`, see [`crate::game::shipped`]). The one place that decides it.
//!
//! `SANDTABLE_DATA`, when set, is the folder itself (tests point it at a temporary folder, so
//! that a test run never touches a player's files). Otherwise it is where the system keeps
//! programs' data: `$XDG_DATA_HOME/sandtable` or `~/.local/share/sandtable` on Linux and other
//! Unix systems, `~/Library/Application Support/sandtable` on macOS,
//! `%APPDATA%\sandtable\data` on Windows.

use std::path::PathBuf;

/// The environment variable that, when set, names the data folder.
pub const OVERRIDE: &str = "SANDTABLE_DATA";

/// The data folder, or `None` if the system has no home folder to put it in (a game is never
/// refused for want of one: it goes without a journal and history).
pub fn data_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(OVERRIDE).filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "sandtable").map(|dirs| dirs.data_dir().to_path_buf())
}
