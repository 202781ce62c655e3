//! Host primitives: the table in plain Rust. No Rhai and no files here; each module is
//! tested on its own, and knows no rule of any rulebook.

pub mod battlefield;
pub mod cards;
pub mod dice;
pub mod geometry;
pub mod grid;
pub mod odds;
pub mod rng;
pub mod suggest;
pub mod terrain;
pub mod unit;
