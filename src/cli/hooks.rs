//! `sandtable hooks RULESET`: every hook a ruleset asks, with its arguments, the fields of its
//! `info`, what its answer means, where the rules ask it and who answers it (the package's
//! abilities, and the house rules given with `--with`); `--markdown` prints the table the
//! ruleset's docs page holds, `--json` the rows as one JSON document.

use super::Common;
use crate::error::Error;
use crate::game::project::Project;
use crate::game::ruleset::Ruleset;
use crate::host::suggest::did_you_mean;
use crate::script::hook_table::{hook_table, render_markdown, render_text};

/// Prints the hooks of `ruleset`.
pub fn hooks(common: &Common, ruleset: &str, markdown: bool) -> Result<u8, Error> {
    let project = Project::locate(common.project.as_deref())?;
    let known = project.rulesets();
    if !known.iter().any(|r| r == ruleset) {
        return Err(Error::Usage(format!(
            "no ruleset `{ruleset}`: {}",
            match did_you_mean(ruleset, known.iter().map(String::as_str)) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!("the rulesets are {}", known.join(", ")),
            }
        )));
    }
    let ruleset = Ruleset::load(&project, ruleset)?;
    for rule in &common.with {
        crate::game::scenario::house_rules_with(&[], rule)?;
    }
    let rows = hook_table(&project, &ruleset, &common.with)?;
    if common.json {
        outln!(
            "{}",
            serde_json::to_string(&rows).map_err(|e| Error::other(e.to_string(), None))?
        );
    } else if markdown {
        outln!("{}", render_markdown(&rows).trim_end());
    } else {
        outln!("{}", render_text(&rows));
    }
    Ok(0)
}
