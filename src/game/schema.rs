//! JSON Schemas of scenario files and of `ruleset.yaml`, for editors (`sandtable schema`,
//! `docs/schema/`, `docs/editors.md`).
//!
//! Each schema is made from the very types that read the file (`ScenarioFile` in
//! `scenario.rs`, [`RulesetFile`]) by `schemars`, so the two cannot drift: the same field
//! names, the same required fields, no field the loader does not know (`deny_unknown_fields`
//! is `additionalProperties: false`), and each field's `///` doc as its description. The
//! checks the loader makes after parsing are said in `schemars` attributes beside the fields
//! where a schema can say them (sizes, ranges, ids, card names, paths), and no more: a rule
//! that needs the rest of the file (a side named by `first`, bases that overlap, a unit on
//! a table of the file's own size) is left to the loader, which stays the authority.
//!
//! The scenario schema also knows each ruleset of the project: for a scenario whose
//! `ruleset:` is one of them, its troop types, abilities, the keys of its `data` and the
//! kinds of the troop chart's stats (a unit's override must be of its chart's kind). One
//! schema for every ruleset, with an `if ruleset is X then ...` for each, because a
//! scenario's modeline names one file whatever its ruleset; `sandtable schema scenario` run
//! in a project of one's own adds that project's rulesets to it.
//!
//! Draft 7, which every editor's YAML language server reads.

use std::collections::BTreeMap;

use schemars::generate::SchemaSettings;
use schemars::{Schema, SchemaGenerator};
use serde_json::{Value, json};

use crate::error::Error;
use crate::game::project::Project;
use crate::game::ruleset::{Ruleset, RulesetFile};
use crate::game::scenario::ScenarioFile;
use crate::host::unit::Stat;

/// The schema of `ruleset.yaml`.
pub fn ruleset_schema() -> Value {
    let mut schema = generator().into_root_schema_for::<RulesetFile>();
    schema.insert("title".into(), "sandtable ruleset.yaml".into());
    schema.to_value()
}

/// The schema of a scenario file, knowing every ruleset of `project` (an error if one of
/// them does not load).
pub fn scenario_schema(project: &Project) -> Result<Value, Error> {
    let rulesets = project
        .rulesets()
        .iter()
        .map(|id| Ruleset::load(project, id))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(scenario_schema_for(&rulesets))
}

/// The schema of a scenario file, knowing `rulesets`.
pub fn scenario_schema_for(rulesets: &[Ruleset]) -> Value {
    let mut schema = generator().into_root_schema_for::<ScenarioFile>();
    schema.insert("title".into(), "sandtable scenario".into());
    if !rulesets.is_empty() {
        let rules: Vec<Value> = rulesets.iter().map(ruleset_rules).collect();
        schema.insert("allOf".into(), rules.into());
    }
    schema.to_value()
}

fn generator() -> SchemaGenerator {
    SchemaGenerator::new(SchemaSettings::draft07().with_transform(tidy))
}

/// Makes a generated schema read well in an editor: a description is one paragraph per
/// paragraph of its doc comment, not a line per line; no `default: null` for a field left
/// out (an editor would write `null` in when it completes the field); no `format` for Rust's
/// number types (`double`, `uint32`), which no editor knows.
fn tidy(schema: &mut Schema) {
    if let Some(object) = schema.as_object_mut() {
        object.remove("format");
        if object.get("default") == Some(&Value::Null) {
            object.remove("default");
        }
        if let Some(Value::String(text)) = object.get_mut("description") {
            *text = text
                .split("\n\n")
                .map(|paragraph| paragraph.replace('\n', " "))
                .collect::<Vec<_>>()
                .join("\n\n");
        }
    }
    schemars::transform::transform_subschemas(&mut tidy, schema);
}

/// What a scenario played with `ruleset` must hold besides what every scenario must.
fn ruleset_rules(ruleset: &Ruleset) -> Value {
    let troops: Vec<&str> = ruleset.file.troops.keys().map(String::as_str).collect();
    let abilities = ruleset.ability_names();
    let by_troop: Vec<Value> = ruleset
        .file
        .troops
        .iter()
        .filter(|(_, troop)| !troop.stats.is_empty())
        .map(|(name, troop)| {
            let kinds: serde_json::Map<String, Value> = troop
                .stats
                .iter()
                .map(|(stat, value)| (stat.clone(), json!({ "type": json_type(value) })))
                .collect();
            json!({
                "if": { "properties": { "type": { "const": name } }, "required": ["type"] },
                "then": { "properties": { "stats": { "properties": kinds } } },
            })
        })
        .collect();
    let unit = json!({
        "properties": {
            "type": { "enum": troops },
            "abilities": { "items": { "enum": abilities } },
        },
        "allOf": by_troop,
    });
    json!({
        "if": {
            "properties": { "ruleset": { "const": ruleset.id } },
            "required": ["ruleset"],
        },
        "then": {
            "$comment": format!("the ruleset `{}`", ruleset.id),
            "properties": {
                "sides": { "items": { "properties": { "units": { "items": unit } } } },
                "abilities": {
                    "propertyNames": { "enum": troops },
                    "additionalProperties": { "items": { "enum": abilities } },
                },
                "data": data_rules(&ruleset.file.data),
            },
        },
    })
}

/// The JSON type a stat of the troop chart has, which a unit's override must have too:
/// a number is a number, whole or not (as `scenario::stat_kind_mismatch` has it).
fn json_type(stat: &Stat) -> &'static str {
    match stat {
        Stat::Bool(_) => "boolean",
        Stat::Int(_) | Stat::Float(_) => "number",
        Stat::Text(_) => "string",
    }
}

/// What a scenario's `data:` may set of a ruleset's `data`: only the keys it has, at every
/// depth where both are maps (a map is merged key by key); anything else replaces the value.
fn data_rules(data: &BTreeMap<String, Value>) -> Value {
    fn rules(map: &serde_json::Map<String, Value>) -> Value {
        let properties: serde_json::Map<String, Value> = map
            .iter()
            .map(|(k, v)| (k.clone(), value_rules(v)))
            .collect();
        json!({ "properties": properties, "additionalProperties": false })
    }
    fn value_rules(value: &Value) -> Value {
        match value {
            // Without a `type`, these hold only when the scenario gives a map too.
            Value::Object(map) => rules(map),
            Value::Array(_) => json!({}),
            scalar => json!({ "default": scalar }),
        }
    }
    rules(&data.iter().map(|(k, v)| (k.clone(), v.clone())).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every description, `format` and `default` in a schema and its subschemas.
    fn walk<'a>(schema: &'a Value, found: &mut Vec<(&'a str, &'a Value)>) {
        let Value::Object(map) = schema else { return };
        for (key, value) in map {
            match (key.as_str(), value) {
                ("description" | "format" | "default", _) => found.push((key, value)),
                // Maps of names to schemas: the names are fields, not keywords.
                ("properties" | "definitions", Value::Object(named)) => {
                    named.values().for_each(|v| walk(v, found))
                }
                (_, Value::Array(items)) => items.iter().for_each(|v| walk(v, found)),
                (_, v) => walk(v, found),
            }
        }
    }

    #[test]
    fn descriptions_are_paragraphs_and_no_field_defaults_to_null_or_has_a_rust_format() {
        for schema in [ruleset_schema(), scenario_schema_for(&[])] {
            let mut found = Vec::new();
            walk(&schema, &mut found);
            assert!(found.iter().any(|(k, _)| *k == "description"));
            for (key, value) in found {
                match (key, value) {
                    ("description", Value::String(text)) => {
                        assert!(!text.replace("\n\n", "").contains('\n'), "{text}")
                    }
                    ("default", v) => assert!(!v.is_null()),
                    (key, v) => panic!("`{key}: {v}` left in"),
                }
            }
        }
    }
}
