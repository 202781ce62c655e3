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
//! Both schemas also know each ruleset of the project. For a scenario whose `ruleset:` is
//! one of them: its troop types, its abilities, its `data` (the keys it has, each of its
//! kind) and the stats it declares (a unit's stats must be declared, each of its kind, in
//! its range or one of its words). One schema for every ruleset, with an `if ruleset is X
//! then ...` for each, because a scenario's modeline names one file whatever its ruleset.
//! For a `ruleset.yaml`, whose troop chart must hold to its own `stats:`: a schema cannot
//! hold one part of a file to another, so it holds the troops of a file that declares
//! exactly the stats a known ruleset declares to those (a ruleset's own file, as long as the
//! schema is current; while its declarations are being changed, they are not checked).
//! `sandtable schema` run in a project of one's own knows that project's rulesets.
//!
//! Draft 7, which every editor's YAML language server reads.

use std::collections::BTreeMap;

use schemars::generate::SchemaSettings;
use schemars::{Schema, SchemaGenerator};
use serde_json::{Value, json};

use crate::error::Error;
use crate::game::declared::{Kind, StatDecl};
use crate::game::project::Project;
use crate::game::ruleset::{Ruleset, RulesetFile};
use crate::game::scenario::ScenarioFile;
use crate::host::unit::{MAX_STAT, MAX_STAT_LIST};
use crate::limits::MAX_EXPR_LEN;

/// The schema of `ruleset.yaml`, knowing every ruleset of `project` (an error if one of them
/// does not load).
pub fn ruleset_schema(project: &Project) -> Result<Value, Error> {
    Ok(ruleset_schema_for(&rulesets_of(project)?))
}

/// The schema of `ruleset.yaml`, knowing `rulesets` (see the module's docs).
pub fn ruleset_schema_for(rulesets: &[Ruleset]) -> Value {
    let mut schema = generator().into_root_schema_for::<RulesetFile>();
    schema.insert("title".into(), "sandtable ruleset.yaml".into());
    let rules: Vec<Value> = rulesets
        .iter()
        .filter(|r| !r.file.stats.is_empty())
        .map(|r| troops_held_to(&r.id, &r.file.stats))
        .collect();
    if !rules.is_empty() {
        schema.insert("allOf".into(), rules.into());
    }
    schema.to_value()
}

/// The schema of a scenario file, knowing every ruleset of `project` (an error if one of
/// them does not load).
pub fn scenario_schema(project: &Project) -> Result<Value, Error> {
    Ok(scenario_schema_for(&rulesets_of(project)?))
}

/// The schema of a scenario file, knowing `rulesets` (see the module's docs).
pub fn scenario_schema_for(rulesets: &[Ruleset]) -> Value {
    let mut schema = generator().into_root_schema_for::<ScenarioFile>();
    schema.insert("title".into(), "sandtable scenario".into());
    if !rulesets.is_empty() {
        let rules: Vec<Value> = rulesets.iter().map(ruleset_rules).collect();
        schema.insert("allOf".into(), rules.into());
    }
    schema.to_value()
}

fn rulesets_of(project: &Project) -> Result<Vec<Ruleset>, Error> {
    project
        .rulesets()
        .iter()
        .map(|id| Ruleset::load(project, id))
        .collect()
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
    let unit = json!({
        "properties": {
            "type": { "enum": troops },
            "abilities": { "items": { "enum": abilities } },
            "stats": declared_stats(&ruleset.file.stats),
        },
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

/// For a `ruleset.yaml` that declares exactly the stats `declarations` (those of the ruleset
/// `id`): its troops' stats are those, each of its kind.
fn troops_held_to(id: &str, declarations: &BTreeMap<String, StatDecl>) -> Value {
    json!({
        "if": {
            "properties": { "stats": { "const": declarations } },
            "required": ["stats"],
        },
        "then": {
            "$comment": format!("the stats the ruleset `{id}` declares"),
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

/// A unit's or a troop type's `stats` where `declarations` are the ruleset's: only the
/// declared ones, each of its kind, and the rules' private notes (`_name`), which are never
/// declared.
fn declared_stats(declarations: &BTreeMap<String, StatDecl>) -> Value {
    let properties: serde_json::Map<String, Value> = declarations
        .iter()
        .map(|(name, declaration)| (name.clone(), declared_stat(declaration)))
        .collect();
    json!({
        "properties": properties,
        "patternProperties": { "^_": {} },
        "additionalProperties": false,
    })
}

/// The schema of one declared stat, as [`StatDecl::check`] and [`Stat::check`] take it:
/// its kind, a number in its range (and within [`MAX_STAT`] of zero), a text or a list's
/// items one of its words; what it means and its default, for the editor to show.
///
/// [`Stat::check`]: crate::host::unit::Stat::check
fn declared_stat(declaration: &StatDecl) -> Value {
    let [least, most] = declaration
        .range
        .unwrap_or([-MAX_STAT as f64, MAX_STAT as f64]);
    let number = |json_type: &str| {
        json!({
            "type": json_type,
            "minimum": least.max(-MAX_STAT as f64),
            "maximum": most.min(MAX_STAT as f64),
        })
    };
    let words = &declaration.one_of;
    let mut schema = match declaration.kind {
        // A whole number written `2.0` is a number to JSON, so `integer` lets it by; the
        // loader does not.
        Kind::Whole => number("integer"),
        Kind::Number => number("number"),
        // Whether the text is a dice expression is the loader's to say.
        Kind::Dice => json!({ "type": "string", "maxLength": MAX_EXPR_LEN }),
        Kind::Text if words.is_empty() => json!({ "type": "string" }),
        Kind::Text => json!({ "enum": words }),
        Kind::List => {
            let items = if words.is_empty() {
                json!({ "type": ["string", "number"], "minimum": -MAX_STAT, "maximum": MAX_STAT })
            } else {
                json!({ "enum": words })
            };
            json!({ "type": "array", "items": items, "maxItems": MAX_STAT_LIST })
        }
        Kind::YesNo => json!({ "type": "boolean" }),
    };
    if !declaration.means.is_empty() {
        schema["description"] = declaration.means.clone().into();
    }
    if let Some(default) = &declaration.default {
        schema["default"] = json!(default);
    }
    schema
}

/// What a scenario's `data:` may set of a ruleset's `data`: only the keys it has, at every
/// depth where both are maps (a map is merged key by key), and each value of the kind the
/// ruleset's has (anything where it has nothing).
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
            Value::Object(map) => {
                let mut schema = rules(map);
                schema["type"] = "object".into();
                schema
            }
            Value::Null => json!({}),
            Value::Array(_) => json!({ "type": "array" }),
            Value::Bool(_) => json!({ "type": "boolean", "default": value }),
            Value::Number(_) => json!({ "type": "number", "default": value }),
            Value::String(_) => json!({ "type": "string", "default": value }),
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

    fn declaration(yaml: &str) -> BTreeMap<String, StatDecl> {
        serde_saphyr::from_str(yaml).unwrap()
    }

    fn valid(schema: &Value, yaml: &str) -> bool {
        let value: Value = serde_saphyr::from_str(yaml).unwrap();
        jsonschema::draft7::new(schema).unwrap().is_valid(&value)
    }

    #[test]
    fn a_declared_stat_is_its_kind_in_its_range_or_one_of_its_words() {
        let stats = declared_stats(&declaration(
            "
defend: { kind: whole, range: [0, 6], default: 1, means: defend dice }
move: { kind: number }
weapon: { kind: dice }
class: { kind: text, one_of: [infantry, cavalry] }
name: { kind: text }
traits: { kind: list, one_of: [brave, elite] }
kinds: { kind: list }
mounted: { kind: yes/no, default: false }
",
        ));
        assert_eq!(
            stats["properties"]["defend"],
            json!({ "type": "integer", "minimum": 0.0, "maximum": 6.0, "default": 1, "description": "defend dice" })
        );
        for (ok, yaml) in [
            (
                true,
                "{ defend: 6, move: 1.5, weapon: 1d6, class: cavalry, name: Bob }",
            ),
            (
                true,
                "{ traits: [brave], kinds: [woods, 2], mounted: true, _note: anything }",
            ),
            (false, "{ defnd: 2 }"),
            (false, "{ defend: 7 }"),
            (false, "{ defend: lots }"),
            (false, "{ move: 2000000000 }"),
            (false, "{ weapon: 3 }"),
            (false, "{ class: cavlry }"),
            (false, "{ traits: [brav] }"),
            (false, "{ kinds: [[woods]] }"),
            (false, "{ mounted: 1 }"),
        ] {
            assert_eq!(valid(&stats, yaml), ok, "{yaml}");
        }
    }

    #[test]
    fn a_ruleset_file_declaring_a_known_rulesets_stats_is_held_to_them() {
        let declared = "{ defend: { kind: whole, range: [0, 6] }, class: { kind: text } }";
        let troops = troops_held_to("test", &declaration(declared));
        let file = |stats: &str, troop: &str| {
            format!("{{ stats: {stats}, troops: {{ warrior: {{ name: W, stats: {troop} }} }} }}")
        };
        assert!(valid(
            &troops,
            &file(declared, "{ defend: 2, class: foot }")
        ));
        assert!(!valid(&troops, &file(declared, "{ defnd: 2 }")));
        assert!(!valid(&troops, &file(declared, "{ defend: lots }")));
        // Declarations being written are not held to the ones the schema knows.
        let other = "{ defend: { kind: whole }, defnd: { kind: whole } }";
        assert!(valid(&troops, &file(other, "{ defnd: 2 }")));
    }

    #[test]
    fn a_scenarios_data_keeps_the_rulesets_keys_and_kinds() {
        let data: BTreeMap<String, Value> = serde_saphyr::from_str(
            "{ die: 6, name: x, flags: [a], victory: { turns: 8 }, none: ~ }",
        )
        .unwrap();
        let rules = data_rules(&data);
        for (ok, yaml) in [
            (
                true,
                "{ die: 8, name: z, flags: [], victory: { turns: 3 }, none: [1] }",
            ),
            (false, "{ dye: 8 }"),
            (false, "{ die: eight }"),
            (false, "{ victory: { turn: 3 } }"),
            (false, "{ victory: 3 }"),
            (false, "{ flags: a }"),
        ] {
            assert_eq!(valid(&rules, yaml), ok, "{yaml}");
        }
    }
}
