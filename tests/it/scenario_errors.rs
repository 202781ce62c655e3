//! Malformed scenarios: `sandtable check FILE` must fail with exit status 1 and a diagnostic
//! at the line and column of the offending value, in words a player understands.

use crate::common;

use common::{Output, Workspace, assert_golden};

/// A valid two-figure scenario; the cases below change one thing in it. Line numbers:
///
/// ```text
///  1 name: Test
///  2 ruleset: playmobil
///  3 table: { width: 48, depth: 36 }
///  4 sides:
///  5   - id: romans
///  6     edge: south
///  7     units:
///  8       - { id: legionary, type: heavy_infantry, at: [10, 10] }
///  9   - id: vikings
/// 10     edge: north
/// 11     units:
/// 12       - { id: viking, type: heavy_infantry, at: [10, 13] }
/// ```
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

/// `BASE` with `from` replaced by `to` (which must occur exactly once).
fn base_with(from: &str, to: &str) -> String {
    assert_eq!(
        BASE.matches(from).count(),
        1,
        "{from:?} is not unique in BASE"
    );
    BASE.replacen(from, to, 1)
}

/// `BASE` with lines added at the end (from line 13).
fn base_plus(extra: &str) -> String {
    format!("{BASE}{extra}")
}

/// Checks `yaml` as the file `name` in a fresh folder, expecting one failure.
#[track_caller]
fn check_fails(name: &str, yaml: &str) -> (Workspace, Output) {
    let ws = Workspace::new();
    ws.write(name, yaml);
    let out = ws.sandtable(&["check", name], None);
    out.expect_code(1);
    assert_eq!(
        out.stdout,
        format!("FAIL {name}\n1 file checked, 1 problem\n"),
        "stderr:\n{}",
        out.stderr
    );
    (ws, out)
}

/// Checks `yaml` and asserts the diagnostic sits at `line`:`col` and says `needles`.
#[track_caller]
fn check_fails_at(name: &str, yaml: &str, line: usize, col: usize, needles: &[&str]) {
    let (_ws, out) = check_fails(name, yaml);
    let location = format!("[{name}:{line}:{col}]");
    assert!(
        out.stderr.contains(&location),
        "the diagnostic is not at {location}:\n{}",
        out.stderr
    );
    out.stderr_has(needles);
}

// Guards that the base scenario itself is valid, so every failure below is the change's.
#[test]
fn base_scenario_checks_clean() {
    let ws = Workspace::new();
    ws.write("base.yaml", BASE);
    let out = ws.sandtable(&["check", "base.yaml"], None);
    out.expect_code(0);
    assert_eq!(
        out.stdout,
        "ok   base.yaml (scenario, 2 units)\n1 file checked, 0 problems\n"
    );
}

// Guards unknown fields: a typo in a unit gets a did-you-mean.
#[test]
fn unknown_field_suggests_the_right_one() {
    check_fails_at(
        "unknown_field.yaml",
        &base_with("at: [10, 13] }", "at: [10, 13], facin: 90 }"),
        12,
        59,
        &["unknown field `facin`", "did you mean `facing`?"],
    );
}

// Guards unknown fields without a near name: the allowed fields are listed.
#[test]
fn unknown_top_level_field_lists_the_allowed_ones() {
    check_fails_at(
        "colour.yaml",
        &base_with("name: Test\n", "name: Test\ncolour: red\n"),
        2,
        1,
        &[
            "unknown field `colour`",
            "the fields allowed here are: name, description, ruleset, seed, table",
        ],
    );
}

// Guards values of the wrong type: a word where a number belongs.
#[test]
fn wrong_type_of_value_is_located() {
    check_fails_at(
        "wrong_type.yaml",
        &base_with("width: 48", "width: wide"),
        3,
        17,
        &["expected a number here"],
    );
}

// Guards values of the wrong type: a negative count.
#[test]
fn negative_count_is_located() {
    check_fails_at(
        "count.yaml",
        &base_with("at: [10, 13] }", "at: [10, 13], count: -1 }"),
        12,
        66,
        &["`count` must be a whole number from 1 to 1000, got -1"],
    );
}

// Guards enum values: a misspelt table edge gets a did-you-mean.
#[test]
fn unknown_edge_suggests_the_right_one() {
    check_fails_at(
        "edge.yaml",
        &base_with("edge: north", "edge: nort"),
        10,
        11,
        &["unknown value `nort`", "did you mean `north`?"],
    );
}

// Guards enum values without a near name: the allowed values are listed.
#[test]
fn unknown_edge_lists_the_edges() {
    check_fails_at(
        "edge_up.yaml",
        &base_with("edge: north", "edge: up"),
        10,
        11,
        &[
            "unknown value `up`",
            "the values allowed here are: south, north, west, east",
        ],
    );
}

// Guards unknown rulesets: a typo gets a did-you-mean.
#[test]
fn unknown_ruleset_suggests_the_right_one() {
    check_fails_at(
        "playmobel.yaml",
        &base_with("ruleset: playmobil", "ruleset: playmobel"),
        2,
        10,
        &[
            "unknown ruleset `playmobel`",
            "no such ruleset",
            "did you mean `playmobil`?",
        ],
    );
}

// Guards unknown rulesets without a near name: the rulesets are listed.
#[test]
fn unknown_ruleset_lists_the_rulesets() {
    check_fails_at(
        "chess.yaml",
        &base_with("ruleset: playmobil", "ruleset: chess"),
        2,
        10,
        &["unknown ruleset `chess`", "the rulesets are:", "playmobil"],
    );
}

// Guards unknown troop types: a typo gets a did-you-mean.
#[test]
fn unknown_troop_type_suggests_the_right_one() {
    check_fails_at(
        "troop.yaml",
        &base_with(
            "viking, type: heavy_infantry",
            "viking, type: heavy_infantr",
        ),
        12,
        29,
        &[
            "unknown troop type `heavy_infantr`",
            "not in the troop chart",
            "did you mean `heavy_infantry`?",
        ],
    );
}

// Guards the whole rendered diagnostic (no colour, 100 columns) of an unknown troop type.
#[test]
fn unknown_troop_type_diagnostic_renders_in_full() {
    let (_ws, out) = check_fails(
        "troop.yaml",
        &base_with(
            "viking, type: heavy_infantry",
            "viking, type: heavy_infantr",
        ),
    );
    assert_golden("unknown_troop_type", &out.stderr);
}

// Guards unknown troop types without a near name: the troop chart is listed.
#[test]
fn unknown_troop_type_lists_the_chart() {
    check_fails_at(
        "dragon.yaml",
        &base_with("viking, type: heavy_infantry", "viking, type: dragon"),
        12,
        29,
        &[
            "unknown troop type `dragon`",
            "the troop types of `playmobil` are:",
            "heavy_infantry",
            "war_elephant",
        ],
    );
}

// Guards unknown abilities on a unit.
#[test]
fn unknown_unit_ability_is_named() {
    check_fails_at(
        "ability.yaml",
        &base_with("at: [10, 13] }", "at: [10, 13], abilities: [berserk] }"),
        12,
        71,
        &["unknown ability `berserk`", "no such ability"],
    );
}

// Guards unknown abilities given to a whole troop type.
#[test]
fn unknown_troop_ability_is_named() {
    check_fails_at(
        "troop_ability.yaml",
        &base_plus("abilities:\n  heavy_infantry: [berserk]\n"),
        14,
        20,
        &["unknown ability `berserk`", "no such ability"],
    );
}

// Guards the troop types named under `abilities:`: a typo gets a did-you-mean at its place.
#[test]
fn unknown_troop_type_under_abilities_is_located() {
    check_fails_at(
        "abilities_troop.yaml",
        &base_plus("abilities:\n  heavy_infantri: []\n"),
        14,
        3,
        &[
            "`abilities` names unknown troop type `heavy_infantri`",
            "did you mean `heavy_infantry`?",
        ],
    );
}

// Guards the house-rule confinement: no climbing out of the scenario's folder.
#[test]
fn house_rule_outside_the_folder_is_refused() {
    check_fails_at(
        "escape.yaml",
        &base_plus("house_rules: [../x.rhai]\n"),
        13,
        15,
        &[
            "house rule `../x.rhai` must be a path inside the scenario's folder",
            "not allowed",
            "without `..`",
        ],
    );
}

// Guards the house-rule confinement: no absolute paths.
#[test]
fn house_rule_at_an_absolute_path_is_refused() {
    check_fails_at(
        "absolute.yaml",
        &base_plus("house_rules: [/etc/x.rhai]\n"),
        13,
        15,
        &["house rule `/etc/x.rhai` must be a path inside the scenario's folder"],
    );
}

// Guards a house rule that names no file.
#[test]
fn missing_house_rule_is_located() {
    check_fails_at(
        "missing.yaml",
        &base_plus("house_rules: [missing.rhai]\n"),
        13,
        15,
        &[
            "house rule script `missing.rhai` does not exist",
            "no such file",
        ],
    );
}

// Guards the did-you-mean for a misspelt house rule (scenario named with its folder).
#[test]
fn misspelt_house_rule_suggests_the_file() {
    let ws = Workspace::new();
    ws.write("games/stumble.rhai", "fn stumble(figure) {}\n");
    ws.write(
        "games/typo.yaml",
        &base_plus("house_rules: [stumbel.rhai]\n"),
    );
    let out = ws.sandtable(&["check", "games/typo.yaml"], None);
    out.expect_code(1).stderr_has(&[
        "[games/typo.yaml:13:15]",
        "house rule script `stumbel.rhai` does not exist",
        "did you mean `stumble.rhai`?",
    ]);
}

// Guards the did-you-mean for a misspelt house rule when the scenario is named without a
// folder (run from the scenario's own folder), as players usually do.
#[test]
fn misspelt_house_rule_suggests_the_file_from_its_folder() {
    let ws = Workspace::new();
    ws.write("stumble.rhai", "fn stumble(figure) {}\n");
    ws.write("typo.yaml", &base_plus("house_rules: [stumbel.rhai]\n"));
    let out = ws.sandtable(&["check", "typo.yaml"], None);
    out.expect_code(1)
        .stderr_has(&["[typo.yaml:13:15]", "did you mean `stumble.rhai`?"]);
}

// Guards duplicate unit ids: the second one is pointed at.
#[test]
fn duplicate_unit_id_is_located() {
    check_fails_at(
        "duplicate.yaml",
        &base_with("id: viking,", "id: legionary,"),
        12,
        15,
        &["two units have the id `legionary`", "`legionary` again"],
    );
}

// Guards duplicate ids made by `count` (legionary_1, legionary_2) against a named unit.
#[test]
fn duplicate_unit_id_from_a_count_is_located() {
    check_fails_at(
        "count_clash.yaml",
        &base_with(
            "{ id: legionary, type: heavy_infantry, at: [10, 10] }",
            "{ id: legionary, type: heavy_infantry, at: [10, 10], count: 2 }\n      - { id: legionary_2, type: heavy_infantry, at: [20, 10] }",
        ),
        9,
        15,
        &["two units have the id `legionary_2`"],
    );
}

// Guards duplicate side ids.
#[test]
fn duplicate_side_id_is_located() {
    check_fails_at(
        "sides.yaml",
        &base_with("id: vikings", "id: romans"),
        9,
        9,
        &["two sides have the id `romans`", "again here"],
    );
}

// Guards units placed off the table: the position is pointed at, with the table's size.
#[test]
fn unit_off_the_table_is_located() {
    check_fails_at(
        "off_table.yaml",
        &base_with("at: [10, 13]", "at: [100, 13]"),
        12,
        49,
        &[
            "`viking` stands at (100, 13) which is off the 48\" x 36\" table",
            "off the table",
            "make the table larger",
        ],
    );
}

// Guards overlapping units: two shipped scenarios stood a general on a figure's base. The
// second unit is pointed at, both are named with where they stand, and how far they overlap.
#[test]
fn overlapping_units_are_located() {
    check_fails_at(
        "overlap.yaml",
        &base_with("at: [10, 13]", "at: [10.5, 10.5]"),
        12,
        49,
        &[
            "`viking` at (10.5, 10.5) overlaps `legionary` at (10, 10) by 0.49\": bases may touch but not overlap",
            "overlaps `legionary`",
            "move one of them",
        ],
    );
}

// Guards that bases in contact are not an overlap: touching exactly (1.2" round bases 1.2"
// apart), within the contact tolerance (0.05" into each other), and rectangles turned about
// and standing front to front.
#[test]
fn touching_units_are_not_overlapping() {
    for (at, base) in [
        ("[11.2, 10]", ""),
        ("[11.15, 10]", ""),
        ("[10, 11]", ", base: { width: 2, depth: 1 }, facing: 180"),
    ] {
        let ws = Workspace::new();
        let unit = format!("{{ id: viking, type: heavy_infantry, at: {at}{base} }}");
        let yaml = base_with("{ id: viking, type: heavy_infantry, at: [10, 13] }", &unit);
        let yaml = if base.is_empty() {
            yaml
        } else {
            yaml.replace(
                "at: [10, 10] }",
                "at: [10, 10], base: { width: 2, depth: 1 } }",
            )
        };
        ws.write("touch.yaml", &yaml);
        let out = ws.sandtable(&["check", "touch.yaml"], None);
        assert_eq!(out.code, 0, "{unit}:\n{}", out.stderr);
    }
}

// Guards rows made by `count` whose spacing is less than their bases: the entry is pointed
// at once, not once for each unit, with the spacing it needs.
#[test]
fn overlapping_units_of_one_entry_are_located() {
    check_fails_at(
        "row.yaml",
        &base_with("at: [10, 10] }", "at: [10, 10], count: 3, spacing: 1 }"),
        8,
        52,
        &[
            "`legionary_2` at (11, 10) overlaps `legionary_1` at (10, 10) by 0.2\"",
            "the units of this entry stand 1\" apart: give it a `spacing` of at least its base's width (1.2\")",
        ],
    );
}

// Guards the cost of the overlap check: 5,000 units, the most a scenario may have (4,999 in
// rows of touching bases, and one more), are measured against their neighbours, and the
// scenario loads.
#[test]
fn a_scenario_of_the_most_units_in_touching_rows_loads() {
    let ws = Workspace::new();
    let rows: String = (0..5)
        .map(|i| {
            let count = if i == 4 { 999 } else { 1000 };
            format!("      - {{ id: r{i}, type: heavy_infantry, count: {count}, at: [1, {}], spacing: 1.2 }}\n", 1 + i * 2)
        })
        .collect();
    ws.write(
        "rows.yaml",
        &format!(
            "name: rows\nruleset: playmobil\ntable: {{ width: 1202, depth: 36 }}\nsides:\n  - id: a\n    edge: south\n    units:\n{rows}  - id: b\n    edge: north\n    units:\n      - {{ id: v, type: heavy_infantry, at: [10, 30] }}\n"
        ),
    );
    let out = ws.sandtable(&["check", "rows.yaml"], None);
    out.expect_code(0);
    assert!(
        out.stdout.contains("ok   rows.yaml (scenario, 5000 units)"),
        "{}",
        out.stdout
    );
}

// Guards ids that cannot be typed at the prompt.
#[test]
fn unusable_unit_id_is_located() {
    check_fails_at(
        "bad_id.yaml",
        &base_with("id: viking,", "id: 9lives,"),
        12,
        15,
        &["`9lives` is not a usable unit id", "starting with a letter"],
    );
}

// Guards `first` naming a side that does not exist.
#[test]
fn first_naming_an_unknown_side_suggests_the_right_one() {
    check_fails_at(
        "first.yaml",
        &base_plus("first: vikngs\n"),
        13,
        8,
        &[
            "`first` names unknown side `vikngs`",
            "no such side",
            "did you mean `vikings`?",
        ],
    );
}

/// A deck with one bad card, `ZZ` at line 15, column 17.
const BAD_CARD: &str = "decks:\n  orders:\n    cards: [AS, ZZ, 10H]\n";

// Guards bad cards in a deck list: the card is named and what a card looks like is said.
#[test]
fn bad_deck_card_is_named() {
    let (_ws, out) = check_fails("card.yaml", &base_plus(BAD_CARD));
    out.stderr_has(&[
        "unknown card `ZZ`",
        "write a rank (A, 2-10, J, Q, K) then a suit (S, H, D, C), or JOKER",
    ]);
}

// Guards the location of a bad card: the card itself, not the line after the list.
#[test]
fn bad_deck_card_is_located() {
    check_fails_at(
        "card.yaml",
        &base_plus(BAD_CARD),
        15,
        17,
        &["unknown card `ZZ`", "this card"],
    );
    check_fails_at(
        "deck_name.yaml",
        &base_plus("decks:\n  orders:\n    cards: pinochle\n"),
        15,
        12,
        &["unknown deck `pinochle`"],
    );
}

// Guards a deck cut to more cards than it has.
#[test]
fn deck_first_larger_than_the_deck_is_located() {
    check_fails_at(
        "deck_first.yaml",
        &base_plus("decks:\n  orders:\n    cards: [AS, KS, 10H]\n    first: 4\n"),
        16,
        12,
        &["`first` must be from 1 to the 3 cards of the deck, got 4"],
    );
}

// Guards terrain features with more than one shape.
#[test]
fn terrain_with_two_shapes_is_located() {
    check_fails_at(
        "shapes.yaml",
        &base_plus(
            "terrain:\n  - kind: woods\n    rect: { x: 1, y: 1, width: 2, depth: 2 }\n    circle: { centre: [5, 5], radius: 1 }\n",
        ),
        14,
        11,
        &[
            "terrain feature 1 needs exactly one shape, found 2",
            "give one of `polygon`, `rect`, `circle` or `line`",
        ],
    );
}

/// `BASE` with the Vikings' side cut off.
fn one_side() -> String {
    BASE.lines().take(8).map(|l| format!("{l}\n")).collect()
}

// Guards battles of fewer than two sides: the message says what is needed.
#[test]
fn fewer_than_two_sides_is_refused() {
    let (_ws, out) = check_fails("one_side.yaml", &one_side());
    out.stderr_has(&["a battle needs at least two sides, found 1"]);
}

// Guards the location of the fewer-than-two-sides diagnostic: the `sides` list.
#[test]
fn fewer_than_two_sides_is_located() {
    let (_ws, out) = check_fails("one_side.yaml", &one_side());
    // The key (4:1) or the list's first item (5:3) would both do.
    assert!(
        out.stderr.contains("[one_side.yaml:4:1]") || out.stderr.contains("[one_side.yaml:5:3]"),
        "the diagnostic does not point at `sides`:\n{}",
        out.stderr
    );
    out.stderr_has(&["a battle needs at least two sides, found 1"]);
}

// Guards YAML syntax errors: located, in the parser's words.
#[test]
fn invalid_yaml_syntax_is_located() {
    check_fails_at(
        "syntax.yaml",
        &base_with("name: Test", "name: a: b"),
        1,
        8,
        &["mapping values are not allowed in this context"],
    );
}

// Guards an unclosed quote, another YAML syntax error.
#[test]
fn unclosed_quote_is_located() {
    check_fails_at(
        "quote.yaml",
        &base_with("name: Test", "name: \"Test"),
        1,
        7,
        &["unclosed quote"],
    );
}

// Guards `check` of a folder: every file is checked and every problem reported, not just
// the first.
#[test]
fn check_reports_every_problem_in_a_folder() {
    let ws = Workspace::new();
    ws.write("games/a_good.yaml", BASE);
    ws.write(
        "games/b_troop.yaml",
        &base_with(
            "viking, type: heavy_infantry",
            "viking, type: heavy_infantr",
        ),
    );
    ws.write("games/c_edge.yaml", &base_with("edge: north", "edge: nort"));
    ws.write("games/d_script.rhai", "fn ok() { 1 }\nlet = ;\n");
    ws.write("games/notes.txt", "not checked");
    let out = ws.sandtable(&["check", "games"], None);
    out.expect_code(1);
    assert_eq!(
        out.stdout,
        "\
ok   games/a_good.yaml (scenario, 2 units)
FAIL games/b_troop.yaml
FAIL games/c_edge.yaml
FAIL games/d_script.rhai
4 files checked, 3 problems
"
    );
    out.stderr_has(&[
        "[games/b_troop.yaml:12:29]",
        "[games/c_edge.yaml:10:11]",
        "[games/d_script.rhai:2:5]",
    ]);
}

// Guards that `play` of a malformed scenario fails with the same diagnostic as `check`.
#[test]
fn play_of_a_malformed_scenario_shows_the_diagnostic() {
    let ws = Workspace::new();
    ws.write("edge.yaml", &base_with("edge: north", "edge: nort"));
    let out = ws.sandtable(&["play", "edge.yaml", "--seed", "1"], Some(":units\n"));
    out.expect_code(1)
        .stderr_has(&["[edge.yaml:10:11]", "unknown value `nort`"]);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
}

// Guards that a list's bracket left open is named at the line it opened, in words: the
// parser stumbled two lines on with "illegal placement of ':' indicator".
#[test]
fn an_unclosed_bracket_is_named_at_the_line_it_opened() {
    let yaml = base_with(
        "table: { width: 48, depth: 36 }\n",
        "table: { width: 48, depth: 36 }\nterrain: [\n  { kind: woods, circle: { at: [5, 5], radius: 2 } }\n",
    );
    let (_ws, out) = check_fails("game.yaml", &yaml);
    out.stderr_has(&[
        "[game.yaml:4:10]",
        "the `[` opened on line 4 is never closed: a list written in brackets ends with `]`",
        "reading stopped at line 6",
    ]);
    assert!(!out.stderr.contains("indicator"), "{}", out.stderr);
}

// Guards the same for a map's brace (the parser said "did not find expected ',' or '}'" at
// the next line), and that brackets in quoted text, comments and words are not counted.
#[test]
fn an_unclosed_brace_is_named_and_brackets_in_words_are_not() {
    let yaml = base_with(
        "name: Test\n",
        "name: \"The [lost] patrol\" # a [comment\ndescription: Rorke's [drift\n",
    )
    .replacen(
        "table: { width: 48, depth: 36 }",
        "table: { width: 48, depth: 36",
        1,
    );
    check_fails_at(
        "game.yaml",
        &yaml,
        4,
        8,
        &["the `{` opened on line 4 is never closed: a map written in braces ends with `}`"],
    );
}

// Guards the words for an unclosed bracket in a ruleset's `ruleset.yaml`, read through the
// same parser as scenarios.
#[test]
fn an_unclosed_bracket_in_ruleset_yaml_is_named_at_its_line() {
    let ws = Workspace::new();
    let folder = common::project().join("scripts/rulesets/playmobil");
    for entry in std::fs::read_dir(&folder).expect("the ruleset") {
        let path = entry.expect("a file").path();
        if path.is_file() {
            let name = path.file_name().and_then(|n| n.to_str()).expect("a name");
            let text = std::fs::read_to_string(&path).expect("a ruleset file");
            ws.write(&format!("scripts/rulesets/playmobil/{name}"), &text);
        }
    }
    let file = "scripts/rulesets/playmobil/ruleset.yaml";
    let text = std::fs::read_to_string(ws.path().join(file)).expect("ruleset.yaml");
    let line = text
        .lines()
        .position(|l| l.starts_with("scripts: ["))
        .expect("a scripts line")
        + 1;
    ws.write(file, &text.replacen(".rhai]\n", ".rhai\n", 1));
    let out = common::run_binary(ws.path(), &["--project", ".", "check", file], None);
    out.expect_code(1);
    out.stderr_has(&[&format!(
        "the `[` opened on line {line} is never closed: a list written in brackets ends with `]`"
    )]);
}

// Guards the words for an unclosed bracket in a save (JSON) that a player edited by hand.
#[test]
fn an_unclosed_bracket_in_a_save_is_named_at_its_line() {
    let ws = Workspace::new();
    ws.write("game.yaml", BASE);
    ws.sandtable(
        &["play", "game.yaml", "--seed", "1"],
        Some(":save game.json\n"),
    )
    .expect_code(0);
    let save = std::fs::read_to_string(ws.path().join("game.json")).expect("the save");
    // The first list that ends a line (`],`), left open.
    let at = save.find("],").expect("a list in the save");
    let opened = save[..at].rfind('[').expect("its bracket");
    let line = save[..opened].matches('\n').count() + 1;
    ws.write("game.json", &format!("{}{}", &save[..at], &save[at + 1..]));
    let out = ws.sandtable(&["play", "--open", "game.json"], Some(""));
    out.expect_code(1);
    out.stderr_has(&[&format!("the `[` opened on line {line} is never closed")]);
}

// Guards that a mistake inside brackets that are closed later is not blamed on them: `1,,`
// in a save and `48,,` in a scenario's map are told as they are.
#[test]
fn a_mistake_inside_closed_brackets_is_not_called_an_unclosed_bracket() {
    let yaml = base_with(
        "table: { width: 48, depth: 36 }",
        "table: { width: 48,, depth: 36 }",
    );
    let (_ws, out) = check_fails("game.yaml", &yaml);
    assert!(!out.stderr.contains("never closed"), "{}", out.stderr);
}
