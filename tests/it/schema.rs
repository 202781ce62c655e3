//! The JSON Schemas for editors (`sandtable schema`, `docs/schema/`): the committed files are
//! what the command prints now, every shipped scenario and ruleset validates against them,
//! and they refuse what the loader refuses (and accept what it accepts) wherever a schema
//! can tell.

use crate::common;

use std::path::Path;

use sandtable::game::project::Project;
use sandtable::game::scenario::Scenario;
use serde_json::Value;

use common::{Workspace, project, sandtable};

/// How to make the committed schemas again, said when one is out of date.
const REGENERATE: &str = "cargo run -- schema scenario > docs/schema/scenario.json && \
                          cargo run -- schema ruleset > docs/schema/ruleset.json";

/// The modeline each shipped scenario starts with.
const SCENARIO_MODELINE: &str = "# yaml-language-server: $schema=../docs/schema/scenario.json";

/// The modeline each shipped `ruleset.yaml` starts with.
const RULESET_MODELINE: &str = "# yaml-language-server: $schema=../../../docs/schema/ruleset.json";

fn committed(name: &str) -> String {
    std::fs::read_to_string(project().join("docs/schema").join(name))
        .unwrap_or_else(|e| format!("(docs/schema/{name} cannot be read: {e})"))
}

fn validator(name: &str) -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(&committed(name)).expect("a schema in JSON");
    jsonschema::draft7::new(&schema).expect("a valid draft 7 schema")
}

/// YAML text as the JSON value an editor's language server checks.
fn yaml_value(text: &str) -> Value {
    serde_saphyr::from_str(text).expect("YAML")
}

/// Every problem the schema finds, with where it is.
fn problems(validator: &jsonschema::Validator, text: &str) -> Vec<String> {
    let value = yaml_value(text);
    validator
        .iter_errors(&value)
        .map(|e| format!("{e} (at `{}`)", e.instance_path()))
        .collect()
}

/// The shipped scenarios and every ruleset's `ruleset.yaml`.
fn shipped(folder: &str, file: Option<&str>) -> Vec<std::path::PathBuf> {
    let mut paths: Vec<_> = std::fs::read_dir(project().join(folder))
        .expect("a folder of the project")
        .flatten()
        .map(|e| e.path())
        .filter_map(|p| match file {
            Some(f) => Some(p.join(f)).filter(|p| p.is_file()),
            None => (p.extension().is_some_and(|e| e == "yaml")).then_some(p),
        })
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "nothing shipped in {folder}");
    paths
}

#[test]
fn the_committed_schemas_are_what_sandtable_schema_prints() {
    for (of, file) in [("scenario", "scenario.json"), ("ruleset", "ruleset.json")] {
        let out = sandtable(&["schema", of], None);
        out.expect_code(0);
        assert!(
            out.stdout == committed(file),
            "docs/schema/{file} is out of date; make it again with\n  {REGENERATE}\n{}",
            common::diff(&committed(file), &out.stdout)
        );
    }
}

#[test]
fn every_shipped_scenario_and_ruleset_validates_and_names_its_schema() {
    let scenario = validator("scenario.json");
    let ruleset = validator("ruleset.json");
    let files = shipped("scenarios", None)
        .into_iter()
        .map(|p| (p, &scenario, SCENARIO_MODELINE))
        .chain(
            shipped("scripts/rulesets", Some("ruleset.yaml"))
                .into_iter()
                .map(|p| (p, &ruleset, RULESET_MODELINE)),
        );
    for (path, validator, modeline) in files {
        let text = std::fs::read_to_string(&path).expect("a shipped file");
        let found = problems(validator, &text);
        assert!(
            found.is_empty(),
            "{}:\n{}",
            path.display(),
            found.join("\n")
        );
        assert_eq!(
            text.lines().next(),
            Some(modeline),
            "{} must start with its schema's modeline",
            path.display()
        );
    }
}

#[test]
fn a_misspelt_field_or_stat_on_a_unit_fails_validation_naming_it() {
    for (misspelt, name) in [("facng: 90", "facng"), ("stats: { defnd: 2 }", "defnd")] {
        let text = BASE.replace("at: [10, 10]", &format!("at: [10, 10], {misspelt}"));
        let found = problems(&validator("scenario.json"), &text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].contains(name) && found[0].contains("/sides/0/units/0"),
            "{found:?}"
        );
    }
}

/// A valid scenario; the cases below change one thing in it.
const BASE: &str = "\
name: Test
ruleset: playmobil
table: { width: 48, depth: 36 }
sides:
  - id: romans
    edge: south
    units:
      - { id: legionary, type: heavy_infantry, at: [10, 10] }
  - id: vikings
    edge: north
    units:
      - { id: viking, type: heavy_infantry, at: [10, 13] }
";

/// Changes to [`BASE`], each a thing the schema can judge alone: the text replaced (`END`
/// for the end of the file), its replacement, and whether the loader takes the result.
const CASES: &[(&str, &str, bool)] = &[
    ("", "", true),
    // The top level.
    ("name: Test", "nam: Test", false),
    ("END", "seed: 9223372036854775807", true),
    ("END", "seed: 9223372036854775808", false),
    ("END", "seed: -1", false),
    ("width: 48", "width: 0", false),
    ("width: 48", "width: 10001", false),
    (
        "table: { width: 48, depth: 36 }",
        "grid: { columns: 8, rows: 6, area: 6 }",
        true,
    ),
    (
        "table: { width: 48, depth: 36 }",
        "grid: { columns: 0, rows: 6, area: 6 }",
        false,
    ),
    (
        "table: { width: 48, depth: 36 }",
        "grid: { columns: 8, rows: 6, area: -6 }",
        false,
    ),
    ("END", "first: ~", true),
    ("END", "house_rules: [../rule.rhai]", false),
    ("END", "house_rules: [/etc/rule.rhai]", false),
    ("END", "house_rules: [./rule.rhai]", false),
    // The ruleset's data.
    ("END", "data: { die: 8 }", true),
    ("END", "data: { dye: 8 }", false),
    ("END", "data: { artillery: { range: 30 } }", true),
    ("END", "data: { artillery: { rang: 30 } }", false),
    ("END", "data: { artillery: 3 }", false),
    ("END", "data: { die: six }", false),
    ("END", "abilities: { heavy_infantry: [testudo] }", true),
    ("END", "abilities: { heavy_infantri: [testudo] }", false),
    ("END", "abilities: { heavy_infantry: [testdo] }", false),
    // Sides.
    (
        "  - id: vikings\n    edge: north\n    units:\n      - { id: viking, type: heavy_infantry, at: [10, 13] }\n",
        "",
        false,
    ),
    ("edge: north", "edge: nord", false),
    // Units.
    ("id: legionary,", "id: 1legionary,", false),
    ("id: legionary,", "id: legion-ary,", false),
    (
        "type: heavy_infantry, at: [10, 10]",
        "type: heavy_infantri, at: [10, 10]",
        false,
    ),
    ("at: [10, 10]", "at: [10, 10], count: 3", true),
    ("at: [10, 10]", "at: [10, 10], count: 3.0", true),
    ("at: [10, 10]", "at: [10, 10], count: 2.5", false),
    ("at: [10, 10]", "at: [10, 10], count: 0", false),
    ("at: [10, 10]", "at: [10, 10], count: 1001", false),
    ("at: [10, 10]", "at: [-1, 10]", false),
    ("at: [10, 10]", "at: [10]", false),
    ("at: [10, 10]", "at: [10, 10], facing: ~", true),
    ("at: [10, 10]", "at: [10, 10], base: { round: 1 }", true),
    (
        "at: [10, 10]",
        "at: [10, 10], base: { width: 1, depth: 1 }",
        true,
    ),
    ("at: [10, 10]", "at: [10, 10], base: { round: 0 }", false),
    (
        "at: [10, 10]",
        "at: [10, 10], base: { round: 1, width: 1 }",
        false,
    ),
    ("at: [10, 10]", "at: [10, 10], base: { width: 1 }", false),
    ("at: [10, 10]", "at: [10, 10], stats: { attack: 3 }", true),
    (
        "at: [10, 10]",
        "at: [10, 10], stats: { attack: lots }",
        false,
    ),
    (
        "at: [10, 10]",
        "at: [10, 10], stats: { attack: 2000000000 }",
        false,
    ),
    ("at: [10, 10]", "at: [10, 10], abilities: [testudo]", true),
    ("at: [10, 10]", "at: [10, 10], abilities: [testdo]", false),
    ("at: [10, 10]", "at: [10, 10], hits: 2000000000", false),
    ("at: [10, 10]", "at: [10, 10], stands: 2", true),
    // Terrain.
    (
        "END",
        "terrain: [{ kind: woods, rect: { x: 20, y: 20, width: 4, depth: 4 } }]",
        true,
    ),
    (
        "END",
        "terrain: [{ kind: forest, rect: { x: 20, y: 20, width: 4, depth: 4 } }]",
        false,
    ),
    ("END", "terrain: [{ kind: woods }]", false),
    (
        "END",
        "terrain: [{ kind: woods, rect: { x: 20, y: 20, width: 4, depth: 4 }, circle: { centre: [30, 30], radius: 2 } }]",
        false,
    ),
    (
        "END",
        "terrain: [{ kind: woods, rect: { x: 20, y: 20, width: 4, depth: 4 }, circle: ~ }]",
        true,
    ),
    (
        "END",
        "terrain: [{ kind: woods, rect: { x: 20, y: 20, width: 4, depth: 4 }, width: 2 }]",
        false,
    ),
    (
        "END",
        "terrain: [{ kind: road, line: [[0, 20], [48, 20]], width: 2 }]",
        true,
    ),
    ("END", "terrain: [{ kind: road, line: [[0, 20]] }]", false),
    (
        "END",
        "terrain: [{ kind: woods, polygon: [[0, 20], [4, 20]] }]",
        false,
    ),
    (
        "END",
        "terrain: [{ kind: hill, slope: steep, circle: { centre: [30, 30], radius: 2 } }]",
        true,
    ),
    (
        "END",
        "terrain: [{ kind: hill, slope: stepe, circle: { centre: [30, 30], radius: 2 } }]",
        false,
    ),
    (
        "END",
        "terrain: [{ kind: woods, slope: steep, circle: { centre: [30, 30], radius: 2 } }]",
        false,
    ),
    (
        "END",
        "terrain: [{ kind: woods, slope: ~, circle: { centre: [30, 30], radius: 2 } }]",
        true,
    ),
    (
        "END",
        "terrain: [{ kind: woods, circle: { centre: [30, 30], radius: 0 } }]",
        false,
    ),
    // Decks.
    (
        "END",
        "decks: { d: { cards: standard, jokers: true, first: 12 } }",
        true,
    ),
    ("END", "decks: { d: { cards: standrd } }", false),
    (
        "END",
        "decks: { d: { cards: [AS, 10h, td, Q♥, joker, JOKER-RED, ' 2 C '] } }",
        true,
    ),
    ("END", "decks: { d: { cards: [AS, 11H] } }", false),
    (
        "END",
        "decks: { d: { cards: [AS, KH], jokers: true } }",
        false,
    ),
    ("END", "decks: { d: { cards: standard, first: 0 } }", false),
];

#[test]
fn the_scenario_schema_refuses_what_the_loader_refuses() {
    let validator = validator("scenario.json");
    let project = Project::at(project()).expect("the project");
    let dir = Workspace::new();
    let mut wrong = Vec::new();
    for &(from, to, loads) in CASES {
        let text = match from {
            "END" => format!("{BASE}{to}\n"),
            "" => BASE.to_string(),
            _ => {
                assert_eq!(
                    BASE.matches(from).count(),
                    1,
                    "`{from}` is not once in BASE"
                );
                BASE.replacen(from, to, 1)
            }
        };
        let loaded = Scenario::from_text(&project, &dir.path().join("case.yaml"), &text);
        assert_eq!(
            loaded.is_ok(),
            loads,
            "the loader on `{to}`: {:?}",
            loaded.err()
        );
        let found = problems(&validator, &text);
        if found.is_empty() != loads {
            wrong.push(format!("`{to}`: loads {loads}, schema says {found:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Changes to the Playmobil `ruleset.yaml`, each a thing the schema can judge alone: the
/// text replaced, its replacement, and whether the loader takes the result.
const RULESET_CASES: &[(&str, &str, bool)] = &[
    ("", "", true),
    (
        "default_base: { round: 1.2 }",
        "default_bse: { round: 1.2 }",
        false,
    ),
    (
        "default_base: { round: 1.2 }",
        "default_base: { round: -1 }",
        false,
    ),
    // The troop chart, held to the declared stats.
    (
        "infantry, move: 6, attack: 1, defend: 2",
        "infantry, move: 6, attack: 1, defnd: 2",
        false,
    ),
    (
        "infantry, move: 6, attack: 1, defend: 2",
        "infantry, move: 6, attack: 1, defend: lots",
        false,
    ),
    (
        "infantry, move: 6, attack: 1, defend: 2",
        "infantry, move: 6, attack: 1, defend: 200",
        false,
    ),
    (
        "{ class: infantry, move: 6, attack: 1, defend: 2",
        "{ class: infantri, move: 6, attack: 1, defend: 2",
        false,
    ),
    (
        "{ class: infantry, move: 6, attack: 1, defend: 2",
        "{ class: infantry, _note: 3, move: 6, attack: 1, defend: 2",
        true,
    ),
    // The declarations themselves.
    (
        "\n  attack: { kind: whole,",
        "\n  attack: { kind: wholee,",
        false,
    ),
    (
        "shield: { kind: yes/no,",
        "shield: { kind: yes/no, range: [0, 1],",
        false,
    ),
    (
        "shield: { kind: yes/no,",
        "shield: { kind: yes/no, default: true,",
        true,
    ),
    (
        "shield: { kind: yes/no,",
        "shield: { kind: yes/no, default: 1,",
        false,
    ),
    (
        "\n  attack: { kind: whole,",
        "\n  attack: { kind: whole, one_of: [a],",
        false,
    ),
    (
        "\n  attack: { kind: whole,",
        "\n  attack: { kind: whole, colour: red,",
        false,
    ),
    (
        "\n  attack: { kind: whole,",
        "\n  _attack: { kind: whole,",
        false,
    ),
    // The hooks.
    (
        "  attack_dice:\n    kind: ask\n",
        "  attack_dice:\n    kind: notify\n",
        false,
    ),
    (
        "  attack_dice:\n    kind: ask\n",
        "  attack_dice:\n    kind: asks\n",
        false,
    ),
    (
        "  attack_dice:\n    kind: ask\n    value: dice\n",
        "  attack_dice:\n    kind: ask\n    value: info\n",
        false,
    ),
    (
        "  attack_dice:\n    kind: ask\n    value: dice\n",
        "  attack_dice:\n    kind: ask\n    value: 2dice\n",
        false,
    ),
    (
        "  attack_dice:\n    kind: ask\n    value: dice\n",
        "  attack_dice:\n    kind: ask\n    valu: dice\n",
        false,
    ),
    (
        "the attack dice of info.unit against info.defender\n",
        "' '\n",
        false,
    ),
    (
        "defender: the figure attacked }\n  defend_dice:",
        "2nd: the figure attacked }\n  defend_dice:",
        false,
    ),
];

#[test]
fn the_ruleset_schema_refuses_what_the_loader_refuses() {
    let validator = validator("ruleset.json");
    let shipped = project().join("scripts/rulesets/playmobil");
    let text = std::fs::read_to_string(shipped.join("ruleset.yaml")).expect("the ruleset");
    // A project holding a copy of the package, its `ruleset.yaml` changed case by case.
    let dir = Workspace::new();
    for entry in walk(&shipped) {
        let rel = entry.strip_prefix(&shipped).expect("inside the package");
        let copy = std::fs::read_to_string(&entry).expect("a file of the package");
        dir.write(
            &format!("scripts/rulesets/playmobil/{}", rel.display()),
            &copy,
        );
    }
    let project = Project::at(dir.path()).expect("a project");
    let mut wrong = Vec::new();
    for &(from, to, loads) in RULESET_CASES {
        assert!(
            from.is_empty() || text.matches(from).count() == 1,
            "`{from}` is not once in the ruleset"
        );
        let changed = text.replacen(from, to, 1);
        dir.write("scripts/rulesets/playmobil/ruleset.yaml", &changed);
        let loaded = sandtable::game::ruleset::Ruleset::load(&project, "playmobil");
        assert_eq!(
            loaded.is_ok(),
            loads,
            "the loader on `{to}`: {:?}",
            loaded.err()
        );
        let found = problems(&validator, &changed);
        if found.is_empty() != loads {
            wrong.push(format!("`{to}`: loads {loads}, schema says {found:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

#[test]
fn sandtable_schema_wants_scenario_or_ruleset() {
    sandtable(&["schema", "scenarios"], None).expect_code(2);
}

/// Whether `text` matches a pattern, as a schema's `pattern` matches it.
fn matches(pattern: &str, text: &str) -> bool {
    jsonschema::draft7::new(&serde_json::json!({ "pattern": pattern }))
        .expect("a pattern")
        .is_valid(&Value::String(text.into()))
}

#[test]
fn the_schemas_card_pattern_takes_what_card_parse_takes() {
    use sandtable::host::cards::Card;
    let mut texts = vec![
        "JOKER",
        "joker",
        "BJOKER",
        "rjoker",
        "JOKER-RED",
        "joker-black",
        "JOKER-GREEN",
        "GJOKER",
        "RJOKER-RED",
        "",
        " ",
        "A",
        "S",
        "AS S",
        "0S",
        "11H",
        "1 0H",
        "AX",
        "10",
    ];
    let ranks = ["A", "a", "1", "2", "9", "10", "T", "t", "J", "q", "K"];
    let suits = ["S", "h", "D", "c", "♠", "♤", "♥", "♡", "♦", "♢", "♣", "♧"];
    let made: Vec<String> = ranks
        .iter()
        .flat_map(|r| suits.iter().map(move |s| (r, s)))
        .flat_map(|(r, s)| [format!("{r}{s}"), format!(" {r} {s} ")])
        .collect();
    texts.extend(made.iter().map(String::as_str));
    for text in texts {
        assert_eq!(
            matches(Card::PATTERN, text),
            Card::parse(text).is_ok(),
            "`{text}`"
        );
    }
}

#[test]
fn the_schemas_path_pattern_takes_what_confine_takes() {
    use sandtable::game::confine::{PLAIN_PATTERN, is_plain};
    for path in [
        "rule.rhai",
        "house/rule.rhai",
        "a/./b.rhai",
        "a/.",
        "..rule.rhai",
        ".hidden.rhai",
        "a//b.rhai",
        "",
        ".",
        "..",
        "./a.rhai",
        "../a.rhai",
        "a/../b.rhai",
        "a/..",
        "/a.rhai",
        "//a.rhai",
    ] {
        assert_eq!(
            matches(PLAIN_PATTERN, path),
            is_plain(Path::new(path)),
            "`{path}`"
        );
    }
}

#[test]
fn sandtable_schema_scenario_knows_the_rulesets_of_a_project_of_ones_own() {
    let dir = Workspace::new();
    dir.write(
        "scripts/rulesets/skirmish/ruleset.yaml",
        "name: Skirmish\nscripts: [rules.rhai]\ndefault_base: { round: 1 }\n\
         data: { hit_on: 4 }\nstats: { move: { kind: number } }\n\
         troops: { rifleman: { name: Rifleman, stats: { move: 6 } } }\n",
    );
    dir.write("scripts/rulesets/skirmish/rules.rhai", "fn setup() {}\n");
    let project = dir.path().to_str().expect("a UTF-8 path");
    let out = common::run_binary(
        dir.path(),
        &["--project", project, "schema", "scenario"],
        None,
    );
    out.expect_code(0);
    let schema: Value = serde_json::from_str(&out.stdout).expect("a schema in JSON");
    let validator = jsonschema::draft7::new(&schema).expect("a valid draft 7 schema");
    let scenario = |unit: &str| {
        format!(
            "name: t\nruleset: skirmish\nsides:\n  - {{ id: a, edge: south, units: [{unit}] }}\n  - {{ id: b, edge: north }}\n"
        )
    };
    assert!(
        problems(
            &validator,
            &scenario("{ id: r, type: rifleman, at: [1, 1] }")
        )
        .is_empty()
    );
    for wrong in [
        "{ id: r, type: riflemen, at: [1, 1] }",
        "{ id: r, type: rifleman, at: [1, 1], stats: { move: fast } }",
        "{ id: r, type: rifleman, at: [1, 1], abilities: [charge] }",
    ] {
        assert!(
            !problems(&validator, &scenario(wrong)).is_empty(),
            "{wrong}"
        );
    }

    // A ruleset that does not load makes no schema: it says why.
    dir.write("scripts/rulesets/broken/ruleset.yaml", "name: Broken\n");
    let out = common::run_binary(
        dir.path(),
        &["--project", project, "schema", "scenario"],
        None,
    );
    out.expect_code(1)
        .stderr_has(&["broken", "ruleset.yaml", "scripts"]);
}
