//! `sandtable schema scenario|ruleset`: the JSON Schema of scenario files or of
//! `ruleset.yaml`, made from the types that read them (`game::schema`), for editors.
//! `docs/schema/` holds the ones for this project's rulesets; `docs/editors.md` says how an
//! editor picks them up.

use super::Common;
use crate::error::Error;
use crate::game::project::Project;
use crate::game::schema;

/// Which file a schema is of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Of {
    /// Scenario files, with the troop types, abilities, data and stats of each ruleset of
    /// the project
    Scenario,
    /// A ruleset's `ruleset.yaml`, with the stats each ruleset of the project declares
    Ruleset,
}

/// Prints the schema, as pretty JSON.
pub fn schema(common: &Common, of: Of) -> Result<u8, Error> {
    let project = Project::locate(common.project.as_deref())?;
    let value = match of {
        Of::Scenario => schema::scenario_schema(&project)?,
        Of::Ruleset => schema::ruleset_schema(&project)?,
    };
    let text = serde_json::to_string_pretty(&value)
        .map_err(|e| Error::other(format!("the schema cannot be written: {e}"), None))?;
    outln!("{text}");
    Ok(0)
}
