//! Analysis: the exact odds of a scripted action and Monte Carlo over whole battles. Both
//! drive sessions through parsed actions, never through the prompt's text.

pub mod action_odds;
pub mod command;
pub mod sim;
