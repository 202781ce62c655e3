//! Embedding sandtable in a Rust program: load the default scenario, play a melee through the
//! ruleset's verb, run a line of Rhai, and print the event log as text and as JSON.
//!
//! Run with `cargo run --example embed`.

use sandtable::game::event::render;
use sandtable::game::project::Project;
use sandtable::game::scenario::Scenario;
use sandtable::session::Session;

fn main() -> miette::Result<()> {
    let project = Project::at(env!("CARGO_MANIFEST_DIR"))?;
    let scenario = Scenario::load(&project, &project.default_scenario())?;
    let mut session = Session::new(&project, scenario, 3)?;

    // Verbs take units as handles: look them up by id.
    let (viking, legionary) = {
        let state = session.state();
        let field = &state.battlefield;
        (field.resolve("viking_1"), field.resolve("legionary_1"))
    };
    let args = vec![
        session.unit_value(viking.map_err(miette::Error::msg)?),
        session.unit_value(legionary.map_err(miette::Error::msg)?),
    ];
    let _ = session.call("melee", args)?;

    // Any Rhai runs in the session too, with the whole host API.
    let survivors = session.eval("example", "units(\"romans\").len()")?;
    println!("{}", render(&session.take_events(), false));
    println!("Romans still standing: {survivors}");

    // The same events, as JSON lines for other tools.
    let log = session.state().log.clone();
    print!("{}", render(&log[..3], true));
    Ok(())
}
