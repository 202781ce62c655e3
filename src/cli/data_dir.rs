//! The data folder, decided in one place: [`crate::game::data_dir`] (the shipped project is
//! unpacked there too, below the front ends), or the one given to a run in the process
//! ([`super::run_in_process`]).

pub(super) use super::capture::data_dir;
