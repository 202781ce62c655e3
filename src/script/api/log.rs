//! The log: where scripts' printing goes.
//!
//! Registers:
//!
//! - `print(text)` and `debug(text)`: Rhai's own, routed into the game's event log (so they
//!   are shown, saved and replayed with the game).

use rhai::Engine;

use super::Shared;

/// Routes `print` and `debug` into the event log.
pub(super) fn register(engine: &mut Engine, state: &Shared) {
    let st = state.clone();
    engine.on_print(move |text| {
        st.borrow_mut().emit(crate::game::event::Event::Print {
            text: crate::game::state::clip(text.into()),
        });
    });
    let st = state.clone();
    engine.on_debug(move |text, _source, _pos| {
        st.borrow_mut().emit(crate::game::event::Event::Debug {
            text: crate::game::state::clip(text.into()),
        });
    });
}
