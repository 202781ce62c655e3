//! The scripting layer: the sandboxed Rhai engine, the host API it exposes, confined imports
//! and the conversion of script errors into diagnostics.

pub mod api;
pub mod clock;
pub mod definitions;
pub mod engine;
pub mod error;
pub mod functions;
pub mod hook_table;
pub mod hooks;
pub mod lint;
pub mod metadata;
pub mod resolver;
pub mod value;
