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
use crate::host::unit::{MAX_STAT, Stat};
use crate::limits::MAX_EXPR_LEN;

/// The schema of `ruleset.yaml`, knowing every ruleset of `project` (an error if one of them
/// does not load).
pub fn ruleset_schema(project: &Project) -> Result<Value, Error> {
    Ok(ruleset_schema_for(&rulesets_of(project)?))
}

/// The schema of `ruleset.yaml`, knowing `rulesets`: a file that declares the very stats one
/// of them declares has its troops' stats checked against them. (A schema cannot hold one
/// part of a file to another, so it holds them to a declaration it knows; a file whose
/// declarations differ, being written, gets no such check until its schema is made again.)
pub fn ruleset_schema_for(rulesets: &[Ruleset]) -> Value {
    let mut schema = generator().into_root_schema_for::<RulesetFile>();
    schema.insert("title".into(), "sandtable ruleset.yaml".into());
    let rules: Vec<Value> = rulesets
        .iter()
        .filter_map(|r| stat_declarations(&r.file))
        .map(|declarations| troops_held_to(&declarations))
        .collect();
    if !rules.is_empty() {
        schema.insert("allOf".into(), rules.into());
    }
    schema.to_value()
}

/// For a `ruleset.yaml` that declares exactly `declarations`: its troops' stats are those,
/// each of its kind.
fn troops_held_to(declarations: &serde_json::Map<String, Value>) -> Value {
    json!({
        "if": {
            "properties": { "stats": { "const": declarations } },
            "required": ["stats"],
        },
        "then": {
            "properties": {
                "troops": {
                    "additionalProperties": {
                        "properties": { "stats": declared_stats(declarations) },
                    },
                },
            },
        },
    })
}

/// The schema of a scenario file, knowing every ruleset of `project` (an error if one of
/// them does not load).
pub fn scenario_schema(project: &Project) -> Result<Value, Error> {
    Ok(scenario_schema_for(&rulesets_of(project)?))
}

fn rulesets_of(project: &Project) -> Result<Vec<Ruleset>, Error> {
    project
        .rulesets()
        .iter()
        .map(|id| Ruleset::load(project, id))
        .collect()
}

/// The stats a ruleset declares (`stats:` of its `ruleset.yaml`), as the file writes them:
/// `{ NAME: { kind, range, one_of, default, means } }`; none if it declares none.
fn stat_declarations(_file: &RulesetFile) -> Option<serde_json::Map<String, Value>> {
    // Wired to `RulesetFile::stats` once ruleset.yaml declares its stats.
    None
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

/// What a scenario played with `ruleset` must hold besides what every scenario must: its
/// troop types, its abilities, its data's keys, and the stats it declares (or, declaring
/// none, the kinds of its troop chart's stats).
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
    let mut unit = json!({
        "properties": {
            "type": { "enum": troops },
            "abilities": { "items": { "enum": abilities } },
        },
        "allOf": by_troop,
    });
    if let Some(declarations) = stat_declarations(&ruleset.file) {
        unit["properties"]["stats"] = declared_stats(&declarations);
    }
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

/// A unit's `stats` in a ruleset that declares its stats (`stats:` of `ruleset.yaml`, each
/// `{ kind, range, one_of, default, means }`): only the declared ones, each of its kind.
fn declared_stats(declarations: &serde_json::Map<String, Value>) -> Value {
    let properties: serde_json::Map<String, Value> = declarations
        .iter()
        .map(|(name, declaration)| (name.clone(), declared_stat(declaration)))
        .collect();
    json!({ "properties": properties, "additionalProperties": false })
}

/// The schema of one declared stat: its kind as a JSON type, its range (a number within
/// [`MAX_STAT`] of zero without one), the words it may be, what it means, its default.
fn declared_stat(declaration: &Value) -> Value {
    let range = declaration["range"].as_array();
    let bound = |i: usize, unbounded: i64| {
        range
            .and_then(|r| r.get(i))
            .cloned()
            .unwrap_or_else(|| unbounded.into())
    };
    let words = &declaration["one_of"];
    let mut schema = match declaration["kind"].as_str().unwrap_or_default() {
        "whole" => json!({ "type": "integer" }),
        "number" => json!({ "type": "number" }),
        "dice" => json!({ "type": "string", "maxLength": MAX_EXPR_LEN }),
        "text" => json!({ "type": "string" }),
        "list" => json!({ "type": "array", "items": { "type": "string" } }),
        "yes/no" => json!({ "type": "boolean" }),
        // A kind the loader refuses: the ruleset does not load, so nothing to say here.
        _ => json!({}),
    };
    if matches!(schema["type"].as_str(), Some("integer" | "number")) {
        schema["minimum"] = bound(0, -MAX_STAT);
        schema["maximum"] = bound(1, MAX_STAT);
    }
    if words.is_array() {
        match schema["type"].as_str() {
            Some("string") => schema["enum"] = words.clone(),
            Some("array") => schema["items"]["enum"] = words.clone(),
            _ => {}
        }
    }
    if let Some(means) = declaration["means"].as_str() {
        schema["description"] = means.into();
    }
    if let Some(default) = declaration.get("default").filter(|d| !d.is_null()) {
        schema["default"] = default.clone();
    }
    schema
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
        for schema in [ruleset_schema_for(&[]), scenario_schema_for(&[])] {
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

    #[test]
    fn a_declared_stat_is_its_kind_in_its_range_or_one_of_its_words() {
        let declarations: serde_json::Map<String, Value> = serde_saphyr::from_str(
            "
defend: { kind: whole, range: [0, 6], default: 1, means: defend dice }
move: { kind: number, range: [0, 24] }
weapon: { kind: dice }
class: { kind: text, one_of: [infantry, cavalry] }
traits: { kind: list, one_of: [brave, elite] }
mounted: { kind: yes/no, default: false }
",
        )
        .unwrap();
        let stats = declared_stats(&declarations);
        assert_eq!(stats["additionalProperties"], json!(false));
        let stat = |name: &str| &stats["properties"][name];
        assert_eq!(
            stat("defend"),
            &json!({ "type": "integer", "minimum": 0, "maximum": 6, "default": 1, "description": "defend dice" })
        );
        assert_eq!(
            stat("move"),
            &json!({ "type": "number", "minimum": 0, "maximum": 24 })
        );
        assert_eq!(stat("weapon")["type"], json!("string"));
        assert_eq!(stat("class")["enum"], json!(["infantry", "cavalry"]));
        assert_eq!(stat("traits")["items"]["enum"], json!(["brave", "elite"]));
        assert_eq!(
            stat("mounted"),
            &json!({ "type": "boolean", "default": false })
        );
    }

    /// The declarations of the test below, as `ruleset.yaml` writes them.
    const DECLARED: &str = "{ defend: { kind: whole, range: [0, 6] }, class: { kind: text } }";

    #[test]
    fn a_troop_or_a_unit_with_an_undeclared_stat_or_one_of_another_kind_is_refused() {
        let declarations: serde_json::Map<String, Value> =
            serde_saphyr::from_str(DECLARED).unwrap();
        let valid = |schema: &Value, yaml: &str| {
            let value: Value = serde_saphyr::from_str(yaml).unwrap();
            jsonschema::draft7::new(schema).unwrap().is_valid(&value)
        };

        let troops = troops_held_to(&declarations);
        let ruleset = |stats: &str, troop: &str| {
            format!("{{ stats: {stats}, troops: {{ warrior: {{ name: W, stats: {troop} }} }} }}")
        };
        assert!(valid(
            &troops,
            &ruleset(DECLARED, "{ defend: 2, class: foot }")
        ));
        assert!(!valid(&troops, &ruleset(DECLARED, "{ defnd: 2 }")));
        assert!(!valid(&troops, &ruleset(DECLARED, "{ defend: lots }")));
        assert!(!valid(&troops, &ruleset(DECLARED, "{ defend: 7 }")));
        // Declarations being written are not held to the ones the schema knows.
        let other = "{ defend: { kind: whole }, defnd: { kind: whole } }";
        assert!(valid(&troops, &ruleset(other, "{ defnd: 2 }")));

        let unit = declared_stats(&declarations);
        assert!(valid(&unit, "{ defend: 2 }"));
        assert!(!valid(&unit, "{ defnd: 2 }"));
        assert!(!valid(&unit, "{ class: 2 }"));
    }
}
