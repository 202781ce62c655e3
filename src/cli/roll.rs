//! `sandtable roll EXPR`: one roll, printed with every die.

use super::Common;
use crate::error::{DiceDiagnostic, Error, char_range_to_bytes};
use crate::game::event::Event;
use crate::host::rng::GameRng;

/// Rolls a dice expression once.
pub fn roll(common: &Common, expr: &str) -> Result<u8, Error> {
    let parsed = crate::host::dice::DiceExpr::parse(expr).map_err(|e| dice_error(expr, &e))?;
    let seed = super::choose_seed(common, None);
    let mut rng = GameRng::new(seed);
    let roll = parsed.roll(&mut rng).map_err(|e| dice_error(expr, &e))?;
    let events = [Event::Seed { seed }, Event::Roll { why: None, roll }];
    if common.json {
        for e in &events {
            outln!("{}", e.to_json());
        }
    } else {
        outln!("{}", events[0].to_text());
        outln!("{}", events[1].to_text().trim_start());
    }
    Ok(0)
}

/// A dice error as a diagnostic pointing into the expression.
pub fn dice_error(expr: &str, e: &crate::host::dice::DiceError) -> Error {
    DiceDiagnostic::new(
        "dice expression",
        expr,
        char_range_to_bytes(expr, e.offset, e.len),
        format!("bad dice expression: {}", e.message),
        "here",
        e.help.clone(),
    )
    .into()
}
