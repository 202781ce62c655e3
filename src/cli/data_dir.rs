//! The data folder, decided in one place: [`crate::game::data_dir`] (the shipped project is
//! unpacked there too, below the front ends).

pub use crate::game::data_dir::data_dir;
