//! Messages a wargamer reads: each says what is wrong in a plain sentence, at the file, line
//! and column where there is one, and never shows sandtable's or a library's internals.

use crate::common;

use common::{Workspace, sandtable};

/// A small scenario of the Playmobil rules: three legionaries and three Vikings.
const SCENARIO: &str = "\
name: Test
ruleset: playmobil
table: { width: 36, depth: 24 }
sides:
  - id: romans
    edge: south
    units:
      - { id: legionary, type: heavy_infantry, count: 3, at: [14, 6] }
  - id: vikings
    edge: north
    units:
      - { id: viking, type: heavy_infantry, count: 3, at: [22, 18], facing: 180 }
";

// Rhai's own `sort` with a comparer ignored what the comparer threw and sorted on: the
// batch printed the array and succeeded.
#[test]
fn a_comparer_that_throws_stops_sort() {
    let ws = Workspace::new();
    let script = ws.write(
        "sort.rhai",
        "let a = [3, 1, 2];\na.sort(|x, y| throw \"boom\");\nprint(`sorted ${a}`);\n",
    );
    let out = ws.sandtable(&["run", script.to_str().unwrap(), "--seed", "1"], None);
    out.expect_code(1).stderr_has(&["boom"]);
    assert!(!out.stdout.contains("sorted"), "{}", out.stdout);
}

// `--jokers` took only 0 to 2 without saying so in `--help`, and refused 3 with clap's
// "3 is not in 0..=2".
#[test]
fn jokers_say_their_range() {
    let help = sandtable(&["odds", "--help"], None);
    help.expect_code(0);
    assert!(help.out().contains("0, 1 or 2"), "{}", help.stdout);
    sandtable(&["odds", "card<=5", "--jokers", "3"], None)
        .expect_code(2)
        .stderr_has(&["a deck holds 0, 1 or 2 jokers, not `3`"]);
}

// `128d2` has exactly 2^128 outcomes; the refusal said "more than 2^128".
#[test]
fn exactly_two_to_the_128_outcomes_is_refused_truthfully() {
    let out = sandtable(&["odds", "128d2"], None);
    out.expect_code(1).stderr_has(&["2^128 or more"]);
    assert!(!out.stderr.contains("more than 2^128"), "{}", out.stderr);
}

// A script's bad dice expression was quoted whole in the error: 830 KB of stderr for a
// 400,000-character expression.
#[test]
fn a_huge_dice_expression_is_quoted_by_a_window() {
    let ws = Workspace::new();
    let script = ws.write(
        "big.rhai",
        "let e = \"\";\nfor i in 0..100000 { e += \"1d6+\"; }\ne += \"x\";\nroll(e);\n",
    );
    let out = ws.sandtable(&["run", script.to_str().unwrap(), "--seed", "1"], None);
    out.expect_code(1)
        .stderr_has(&["bad dice expression `…6+1d6+", "(character 1001 of 400001)"]);
    assert!(
        out.stderr.len() < 5_000,
        "{} bytes of stderr",
        out.stderr.len()
    );
    // Typed as a line, its diagnostic shows a window of the line, at its real column.
    let batch = ws.write("big.txt", &format!("roll {}x\n", "1d6+".repeat(100_000)));
    let out = ws.sandtable(&["run", batch.to_str().unwrap(), "--seed", "1"], None);
    out.expect_code(1).stderr_has(&[
        "expression too long: 400001 characters (at most 1000)",
        "big.txt:1:1006]",
    ]);
    assert!(
        out.stderr.len() < 5_000,
        "{} bytes of stderr",
        out.stderr.len()
    );
}

/// Checks `yaml` as a scenario: it fails, and its diagnostic has every one of `needles` and
/// none of `never`.
#[track_caller]
fn scenario_says(yaml: &str, needles: &[&str], never: &[&str]) {
    let ws = Workspace::new();
    ws.write("game.yaml", yaml);
    let out = ws.sandtable(&["check", "game.yaml"], None);
    out.expect_code(1).stderr_has(needles);
    for n in never {
        assert!(!out.stderr.contains(n), "stderr has {n:?}:\n{}", out.stderr);
    }
}

// serde-saphyr's own words reached players: "invalid u32" for `count: 2.5` (the docs
// promise "must be from 1 to 1000"), "set DuplicateKeyPolicy in Options if acceptable",
// "use from_str_multiple", "budget breached: Nodes { nodes: 250001 }".
#[test]
fn yaml_mistakes_are_told_in_words() {
    let count = SCENARIO.replace("count: 3, at: [14", "count: 2.5, at: [14");
    scenario_says(
        &count,
        &[
            "`count` must be a whole number from 1 to 1000, got 2.5",
            "game.yaml:8:55]",
        ],
        &["u32"],
    );
    scenario_says(
        &format!("seed: -4\n{SCENARIO}"),
        &[
            "expected a whole number from 0 to 18446744073709551615 here",
            "game.yaml:1:7]",
        ],
        &["u64"],
    );
    scenario_says(
        &format!("name: Again\n{SCENARIO}"),
        &[
            "`name` is given twice in the same place; keep one",
            "game.yaml:2:1]",
        ],
        &["DuplicateKeyPolicy", "Options"],
    );
    scenario_says(
        &format!("{SCENARIO}---\n{SCENARIO}"),
        &[
            "a second YAML document starts here (after `---`)",
            "game.yaml:14:1]",
        ],
        &["from_str_multiple"],
    );
    let big = format!(
        "{SCENARIO}data:\n  big: [{}]\n",
        vec!["1"; 260_000].join(",")
    );
    scenario_says(
        &big,
        &["this file is too large or too deeply nested to read: it has more than 250000 values"],
        &["budget breached", "Nodes {"],
    );
}

// A bad table or grid, and an ability given to a troop type it is not for, were told
// without a line or column.
#[test]
fn table_grid_and_abilities_are_located() {
    scenario_says(
        &SCENARIO.replace("width: 36, depth: 24", "width: 0, depth: 24"),
        &[
            "the table must be more than 0 and at most 10000 inches each way, got 0 x 24",
            "game.yaml:3:8]",
        ],
        &[],
    );
    scenario_says(
        &SCENARIO.replace(
            "table: { width: 36, depth: 24 }",
            "grid: { columns: 0, rows: 3, area: 6 }",
        ),
        &["a grid needs at least one column and row", "game.yaml:3:7]"],
        &[],
    );
    let light = SCENARIO.replace(
        "type: heavy_infantry, count: 3, at: [14, 6] }",
        "type: light_infantry, count: 3, at: [14, 6], abilities: [testudo] }",
    );
    scenario_says(
        &light,
        &[
            "`legionary_1` is light infantry and may not have Roman Testudo (`testudo`)",
            "game.yaml:8:83]",
            "not for this troop type",
        ],
        &[],
    );
    let by_troop = format!(
        "{}abilities:\n  light_infantry: [testudo]\n",
        SCENARIO.replace(
            "type: heavy_infantry, count: 3, at: [14",
            "type: light_infantry, count: 3, at: [14"
        )
    );
    scenario_says(
        &by_troop,
        &["may not have Roman Testudo (`testudo`)", "game.yaml:14:20]"],
        &[],
    );
}

// A house rule given by `--with` or `:with` that was a folder or a FIFO was reported as
// "no house rule at ...", as if it did not exist; an import of one was "cannot find module",
// and a scenario that was a FIFO "a device, a FIFO or a socket". One function names what
// such a file is, for all of them.
#[cfg(unix)]
#[test]
fn a_house_rule_that_is_a_folder_or_a_fifo_says_so() {
    let ws = Workspace::new();
    ws.write("game.yaml", SCENARIO);
    std::fs::create_dir(ws.path().join("folder.rhai")).expect("a folder");
    let made = std::process::Command::new("mkfifo")
        .arg("fifo.rhai")
        .current_dir(ws.path())
        .status()
        .is_ok_and(|s| s.success());
    assert!(made, "mkfifo made a FIFO");
    ws.sandtable(&["play", "game.yaml", "--with", "folder.rhai"], None)
        .expect_code(1)
        .stderr_has(&["`folder.rhai` is a folder, not a house rule file"]);
    ws.sandtable(&["play", "game.yaml"], Some(":with fifo.rhai\n"))
        .stderr_has(&["`fifo.rhai` is a FIFO (a named pipe), not a house rule file"]);
    ws.sandtable(&["play", "game.yaml", "--with", "none.rhai"], None)
        .expect_code(1)
        .stderr_has(&["no house rule at `none.rhai`: there is no such file"]);
    // Imported from the scenario's folder, at the import's line and column.
    ws.write("imports.rhai", "let x = 1;\nimport \"fifo\" as f;\n");
    ws.sandtable(&["run", "imports.rhai", "--scenario", "game.yaml"], None)
        .expect_code(1)
        .stderr_has(&[
            "import `fifo` is refused: `fifo.rhai` is a FIFO (a named pipe), not a script file",
            "imports.rhai:2:8]",
        ]);
    ws.write("imports.rhai", "import \"folder\" as f;\n");
    ws.sandtable(&["run", "imports.rhai", "--scenario", "game.yaml"], None)
        .expect_code(1)
        .stderr_has(&["import `folder` is refused: `folder.rhai` is a folder, not a script file"]);
    ws.sandtable(&["play", "fifo.rhai"], None)
        .expect_code(1)
        .stderr_has(&["cannot read `fifo.rhai`: it is a FIFO (a named pipe), not a file"]);
}

// A house rule that filled the scope with top-level variables made the ruleset's `setup`
// fail, blamed on the ruleset without a position: "Too many variables defined
// (scripts/rulesets/playmobil/rules.rhai)". The limit counts every top level together, so
// two house rules of 2,600 variables each go past it in the second, at its 2,401st `let`.
// (Two files, not one of 5,001: compiling thousands of names in one scope takes time that
// grows with their square, and one file would race the compile budget on a busy machine.)
#[test]
fn a_house_rule_with_too_many_variables_is_blamed_at_its_line() {
    let ws = Workspace::new();
    let lets = |prefix: &str| -> String {
        (0..2_600)
            .map(|i| format!("let {prefix}{i} = {i};\n"))
            .collect()
    };
    ws.write("house/first.rhai", &lets("v"));
    ws.write("house/many.rhai", &lets("w"));
    ws.write(
        "game.yaml",
        &format!("{SCENARIO}house_rules:\n  - house/first.rhai\n  - house/many.rhai\n"),
    );
    let needles = [
        "too many variables: the top levels of the scripts and the prompt's lines may keep 5000",
        "house/many.rhai:2401:1]",
    ];
    let check = ws.sandtable(&["check", "game.yaml"], None);
    check.expect_code(1).stderr_has(&needles);
    assert!(!check.stderr.contains("rules.rhai"), "{}", check.stderr);
    ws.write("game2.yaml", SCENARIO);
    let with = ws.sandtable(
        &[
            "play",
            "game2.yaml",
            "--with",
            "house/first.rhai",
            "--with",
            "house/many.rhai",
        ],
        None,
    );
    with.expect_code(1).stderr_has(&needles);
    assert!(!with.stderr.contains("rules.rhai"), "{}", with.stderr);
}

// `x + 1` at the prompt, `x` undefined, said "unknown verb `x`": the line is Rhai, whose
// variable is not defined. A word alone could be either, and is said to be neither; a line
// that is no Rhai is still an unknown verb.
#[test]
fn a_line_of_rhai_with_an_undefined_variable_says_so_not_unknown_verb() {
    let lines = "x + 1\n  meele - 1\nmeele\nmeele viking_1 legionary_1\nlet z = 1\nz + w\nprint(`still ${z}`)\n";
    let out = common::play_scenario(SCENARIO, "1", lines);
    out.stderr_has(&[
        "the variable `x` is not defined (nor is there a verb `x`)",
        "stdin line 1:1:1]",
        "give a variable a value first: `let x = ...`",
        "the variable `meele` is not defined (nor is there a verb `meele`)",
        "stdin line 2:1:3]",
        "did you mean the verb `melee`?",
        "`meele` is neither a verb of this ruleset nor a variable that is defined",
        "stdin line 3:1:1]",
        "unknown verb `meele`",
        "stdin line 4:1:1]",
        "did you mean `melee`?",
        "the variable `w` is not defined",
        "stdin line 6:1:5]",
    ]);
    assert!(!out.stderr.contains("unknown verb `x`"), "{}", out.stderr);
    assert!(!out.stderr.contains("verb `z`"), "{}", out.stderr);
    out.stdout_has(&["still 1"]);
}

// Terminal escape codes in a unit's or a scenario's name, or in what a script prints, were
// written raw: they could clear the screen, retitle the window or fake a prompt.
#[test]
fn names_with_escape_codes_are_printed_safely() {
    let yaml = SCENARIO
        .replace("name: Test", "name: \"Evil\\e[2J\\rscenario\"")
        .replace(
            "{ id: legionary, type",
            "{ id: legionary, name: \"Bad\\e]0;pwned\\aGuy\\u202e\", type",
        );
    let ws = Workspace::new();
    ws.write("game.yaml", &yaml);
    let lines = ":units\n:show legionary_1\n:map\nprint(unit(\"legionary_1\").name)\nsay(\"x\\x1b[2Jy\")\nif true { throw \"red\\x1b[31mtext\" }\n";
    let out = ws.sandtable(&["play", "game.yaml", "--seed", "1"], Some(lines));
    for (what, text) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        assert!(
            !text.contains(['\x1b', '\r', '\x07', '\u{202e}']),
            "{what} has a raw escape:\n{text}"
        );
    }
    out.stdout_has(&[
        "scenario Evil\\u001b[2J\\rscenario",
        "Bad\\u001b]0;pwned\\u0007Guy\\u202e",
        "x\\u001b[2Jy",
    ]);
    out.stderr_has(&["red\\u001b[31mtext"]);
    // A `--json` line stays JSON, and reads back as the name itself.
    let json = ws.sandtable(
        &["play", "game.yaml", "--seed", "1", "--json"],
        Some("print(unit(\"legionary_1\").name)\n"),
    );
    assert!(
        !json.stdout.contains(['\x1b', '\u{202e}']),
        "{}",
        json.stdout
    );
    let names: Vec<String> = common::json_lines(&json.stdout)
        .iter()
        .filter_map(|v| v.get("text").and_then(|t| t.as_str()).map(str::to_string))
        .collect();
    assert!(
        names.iter().any(|n| n == "Bad\x1b]0;pwned\x07Guy\u{202e}"),
        "{names:?}"
    );
}

// Rhai's own texts reached players: "syntax error: Expression exceeds maximum complexity",
// "Number of functions defined exceeds maximum limit", "Syntax error: 'eval' is a reserved
// keyword" (through `Fn("eval")`), "Data type incorrect: string (expecting Fn)", "Function
// not found: nosuch (i64, &str | ImmutableString | String)". Every kind of error Rhai can
// give is said in words here, naming the limit and its number where one was broken.
#[test]
fn every_error_of_the_script_engine_is_said_in_words() {
    use rhai::{Dynamic, EvalAltResult as E, LexError as L, ParseErrorType as P, Position};
    use sandtable::script::engine::Limits;
    use sandtable::script::error::{parse_in_words, runtime_in_words};

    let limits = Limits::default();
    let at = Position::new(3, 7);
    let s = |t: &str| t.to_string();
    #[allow(deprecated)]
    let parse: Vec<(P, &[&str])> = vec![
        (P::UnexpectedEOF, &[]),
        (P::BadInput(L::UnexpectedInput(s(";"))), &["`;`"]),
        (P::BadInput(L::UnterminatedString), &[]),
        (P::BadInput(L::StringTooLong(1 << 20)), &["1048576 bytes"]),
        (
            P::BadInput(L::MalformedEscapeSequence(s("\\q"))),
            &["`\\q`"],
        ),
        (P::BadInput(L::MalformedNumber(s("1e"))), &["`1e`"]),
        (P::BadInput(L::MalformedChar(s("'ab'"))), &[]),
        (P::BadInput(L::MalformedIdentifier(s("1x"))), &["`1x`"]),
        (
            P::BadInput(L::ImproperSymbol(
                s("eval"),
                s("reserved keyword 'eval' is disabled"),
            )),
            &["`eval` is switched off"],
        ),
        (
            P::BadInput(L::ImproperSymbol(
                s("==="),
                s("'===' is not a valid operator. This is not JavaScript! Should it be '=='?"),
            )),
            &["`===`"],
        ),
        (P::BadInput(L::ImproperSymbol(s("@"), s(""))), &["`@`"]),
        (P::BadInput(L::Runtime(s("Something went wrong"))), &[]),
        (P::UnknownOperator(s("<=>")), &["`<=>`"]),
        (
            P::MissingToken(s(";"), s("to terminate this statement")),
            &["`;`"],
        ),
        (
            P::MissingToken(s(")"), s("to close the parameters list of function 'f'")),
            &["`)`", "`f`"],
        ),
        (P::MissingSymbol(s("")), &[]),
        (P::MissingSymbol(s("Expecting '{' or '|'")), &["`{`"]),
        (P::MalformedIndexExpr(s("")), &[]),
        (
            P::MalformedIndexExpr(s("Array access expects integer index, not a float")),
            &[],
        ),
        (P::MalformedCapture(s("")), &[]),
        (P::DuplicatedProperty(s("hits")), &["`hits`"]),
        (P::DuplicatedVariable(s("x")), &["`x`"]),
        (P::WrongSwitchIntegerCase, &[]),
        (P::WrongSwitchDefaultCase, &[]),
        (P::WrongSwitchCaseCondition, &[]),
        (P::PropertyExpected, &[]),
        (P::VariableExpected, &[]),
        (P::ForbiddenVariable(s("this")), &["`this`"]),
        (P::Reserved(s("eval")), &["`eval` is switched off"]),
        (P::Reserved(s("go")), &["`go`"]),
        (P::Reserved(s(":=")), &["`:=`"]),
        (
            P::MismatchedType(s("an iterable value"), s("a number")),
            &[],
        ),
        (P::ExprExpected(s("a literal")), &[]),
        (P::WrongDocComment, &[]),
        (P::WrongFnDefinition, &[]),
        (
            P::FnDuplicatedDefinition(s("f"), 2),
            &["`f`", "2 parameters"],
        ),
        (P::FnMissingName, &[]),
        (P::FnMissingParams(s("f")), &["`f`"]),
        (P::FnDuplicatedParam(s("f"), s("x")), &["`f`", "`x`"]),
        (P::FnMissingBody(s("")), &[]),
        (P::FnMissingBody(s("f")), &["`f`"]),
        (P::WrongExport, &[]),
        (P::AssignmentToConstant(s("")), &[]),
        (P::AssignmentToConstant(s("c")), &["`c`"]),
        (P::AssignmentToInvalidLHS(s("")), &[]),
        (P::VariableExists(s("x")), &["`x`"]),
        (P::VariableUndefined(s("x")), &["`x` is not defined"]),
        (P::ModuleUndefined(s("m")), &["`m`"]),
        (
            P::ExprTooDeep,
            &["nested too deeply", "64 levels", "48 inside a function"],
        ),
        (P::TooManyFunctions, &["at most 10000 functions"]),
        (
            P::LiteralTooLarge(s("Length of string"), 1 << 20),
            &["1048576 bytes"],
        ),
        (
            P::LiteralTooLarge(s("Size of array literal"), 100_000),
            &["100000 items"],
        ),
        (
            P::LiteralTooLarge(s("Number of properties in object map literal"), 10_000),
            &["10000 properties"],
        ),
        (P::LoopBreak, &[]),
        (P::DuplicatedSwitchCase, &[]),
        (P::MalformedCallExpr(s("")), &[]),
        (P::MalformedInExpr(s("")), &[]),
    ];
    let system: Box<dyn std::error::Error> = Box::new(std::io::Error::other("no memory"));
    let runtime: Vec<(E, &[&str])> = vec![
        (E::ErrorSystem(s(""), system), &[]),
        (
            E::ErrorParsing(P::Reserved(s("eval")), at),
            &["`eval` is switched off"],
        ),
        (E::ErrorParsing(P::ExprTooDeep, at), &["64 levels"]),
        (E::ErrorVariableExists(s("x"), at), &["`x`"]),
        (E::ErrorForbiddenVariable(s("this"), at), &["`this`"]),
        (
            E::ErrorVariableNotFound(s("x"), at),
            &["`x` is not defined"],
        ),
        (E::ErrorPropertyNotFound(s("hits"), at), &["`hits`"]),
        (E::ErrorIndexNotFound(Dynamic::from(3_i64), at), &["3"]),
        (
            E::ErrorFunctionNotFound(s("nosuch (i64, &str | ImmutableString | String)"), at),
            &["`nosuch`", "a whole number and a string"],
        ),
        (
            E::ErrorFunctionNotFound(s("timestamp ()"), at),
            &["`timestamp`", "no arguments"],
        ),
        (
            E::ErrorFunctionNotFound(s("+ ((), i64)"), at),
            &["`+`", "nothing (`()`) and a whole number"],
        ),
        (
            E::ErrorFunctionNotFound(s("- (&str | ImmutableString | String)"), at),
            &["`-`", "a string"],
        ),
        (
            E::ErrorFunctionNotFound(s("foo (Unit)"), at),
            &["`foo`", "a unit"],
        ),
        (
            E::ErrorFunctionNotFound(s("anon$1a2b (i64)"), at),
            &["closure"],
        ),
        (E::ErrorModuleNotFound(s("m"), at), &["`m`"]),
        (E::ErrorUnboundThis(at), &["`this`"]),
        (
            E::ErrorMismatchDataType(s("Fn"), s("string"), at),
            &["a function pointer", "a string"],
        ),
        (
            E::ErrorMismatchDataType(s("i64"), s(""), at),
            &["a whole number"],
        ),
        (
            E::ErrorMismatchOutputType(s("bool"), s("i64"), at),
            &["true or false", "a whole number"],
        ),
        (E::ErrorIndexingType(s("i64 [string]"), at), &["`[]`"]),
        (E::ErrorArrayBounds(0, 5, at), &["empty", "5"]),
        (E::ErrorArrayBounds(1, 5, at), &["no item 5", "1 item"]),
        (
            E::ErrorStringBounds(2, 7, at),
            &["no character 7", "2 characters"],
        ),
        (
            E::ErrorBitFieldBounds(64, 70, at),
            &["no bit 70", "64 bits"],
        ),
        (E::ErrorFor(at), &["`for`"]),
        (E::ErrorDataRace(s("x"), at), &["`x`"]),
        (
            E::ErrorNonPureMethodCallOnConstant(s("push"), at),
            &["`push`"],
        ),
        (E::ErrorAssignmentToConstant(s("c"), at), &["`c`"]),
        (E::ErrorDotExpr(s(""), at), &[]),
        (
            E::ErrorDotExpr(
                s("Unknown property 'zork' - a getter is not registered for type 'Roll'"),
                at,
            ),
            &["a roll has no property `zork`"],
        ),
        (
            E::ErrorDotExpr(
                s(
                    "No writable property 'hits' - a setter is not registered for type 'Unit' to handle 'f64'",
                ),
                at,
            ),
            &["the property `hits` of a unit cannot be set to a decimal number"],
        ),
        (
            E::ErrorArithmetic(s("Addition overflow: 9223372036854775807 + 1"), at),
            &["addition overflow"],
        ),
        (
            E::ErrorArithmetic(s("Division by zero: 1 / 0"), at),
            &["division by zero"],
        ),
        (
            E::ErrorTooManyOperations(at),
            &["more than 50000000 operations"],
        ),
        (E::ErrorTooManyVariables(at), &["5000", "10000"]),
        (E::ErrorTooManyModules(at), &["at most 64 modules"]),
        (E::ErrorStackOverflow(at), &["more than 48 deep"]),
        (
            E::ErrorDataTooLarge(s("Length of string"), at),
            &["a string", "1048576 bytes"],
        ),
        (
            E::ErrorDataTooLarge(s("Size of array/BLOB"), at),
            &["an array", "100000 items"],
        ),
        (
            E::ErrorDataTooLarge(s("Size of BLOB"), at),
            &["100000 items"],
        ),
        (
            E::ErrorDataTooLarge(s("Size of object map"), at),
            &["an object map", "10000 entries"],
        ),
        (
            E::ErrorTerminated(Dynamic::from("the action made too many changes"), at),
            &["too many changes"],
        ),
        (E::ErrorCustomSyntax(s("Bad syntax"), vec![], at), &[]),
        (E::LoopBreak(true, Dynamic::UNIT, at), &["`break`"]),
        (E::LoopBreak(false, Dynamic::UNIT, at), &["`continue`"]),
        (E::Return(Dynamic::UNIT, at), &[]),
        (E::Exit(Dynamic::UNIT, at), &[]),
    ];
    // Words of Rhai's that no message may hold.
    let raw = [
        "Expecting",
        "exceeds maximum",
        "maximum limit",
        "Data type incorrect",
        "Output type",
        "not found:",
        "Function not found",
        "Variable not found",
        "Property not found",
        "i64",
        "f64",
        "ImmutableString",
        "&str",
        "is a reserved keyword",
        "Syntax error",
        "out of bounds",
        "Indexer unavailable",
        "Malformed",
        "Stack overflow",
        "Too many",
        "too large",
        "NOT AN ERROR",
        "Runtime error",
        "getter",
        "setter",
        "System error",
    ];
    let mut said = Vec::new();
    for (err, needles) in &parse {
        said.push((
            format!("{err:?}"),
            err.to_string(),
            parse_in_words(err, &limits),
            *needles,
        ));
    }
    for (err, needles) in &runtime {
        said.push((
            format!("{err:?}"),
            err.to_string(),
            runtime_in_words(err, &limits),
            *needles,
        ));
    }
    for (what, rhai, (message, help), needles) in said {
        let first = message.chars().next().unwrap_or(' ');
        assert!(
            first.is_lowercase() || first == '`',
            "{what}: {message:?} does not start as a sentence of ours"
        );
        assert!(
            !message.eq_ignore_ascii_case(&rhai),
            "{what}: {message:?} is Rhai's own text"
        );
        for text in [Some(&message), help.as_ref()].into_iter().flatten() {
            for r in raw {
                assert!(!text.contains(r), "{what}: {text:?} has Rhai's {r:?}");
            }
            // Rhai quotes names as 'this'; ours are in backticks.
            assert!(
                !text.contains(" '") && !text.starts_with('\''),
                "{what}: {text:?} quotes a name with '"
            );
        }
        for n in needles {
            assert!(message.contains(n), "{what}: {message:?} lacks {n:?}");
        }
    }
}

/// Writes a house rule and plays the scenario with it: it must fail to start, saying every
/// one of `needles`.
#[track_caller]
fn house_rule_says(rule: &str, needles: &[&str]) {
    let ws = Workspace::new();
    ws.write("game.yaml", SCENARIO);
    ws.write("house/rule.rhai", rule);
    let out = ws.sandtable(&["play", "game.yaml", "--with", "house/rule.rhai"], None);
    out.expect_code(1).stderr_has(needles);
}

// Nesting too deep, too many functions and `eval` reached through a function pointer were
// told in Rhai's words: "syntax error: Expression exceeds maximum complexity", "syntax
// error: Number of functions defined exceeds maximum limit", "Syntax error: 'eval' is a
// reserved keyword".
#[test]
fn the_script_limits_are_named_with_their_number_at_their_place() {
    let deep = format!(
        "let x = 1;\nlet y = {}1{};\n",
        "(".repeat(100),
        ")".repeat(100)
    );
    house_rule_says(
        &deep,
        &[
            "this is nested too deeply: expressions and blocks may nest at most 64 levels at the top level of a script, and 48 inside a function",
            "house/rule.rhai:2:",
        ],
    );
    let many: String = (0..=10_000)
        .map(|i| format!("fn f{i}() {{ {i} }}\n"))
        .collect();
    house_rule_says(
        &many,
        &[
            "too many functions: one script may define at most 10000 functions",
            "house/rule.rhai:10001:1]",
        ],
    );
    house_rule_says(
        "let x = 1;\nlet f = Fn(\"eval\");\nf.call(\"1\");\n",
        &[
            "`eval` is switched off: a script may not run code from a string",
            "house/rule.rhai:2:12]",
        ],
    );
    house_rule_says(
        "let x = 1;\ncall(\"eval\", \"1\");\n",
        &[
            "expected a function pointer, got a string",
            "house/rule.rhai:2:6]",
        ],
    );
    // At the prompt, at the line's column, and the game plays on.
    let out = common::play_scenario(
        SCENARIO,
        "1",
        &format!(
            "let y = {}1{};\nprint(\"still \" + 40 + 2)\n",
            "[".repeat(100),
            "]".repeat(100)
        ),
    );
    out.stderr_has(&["this is nested too deeply", "stdin line 1:1:"]);
    out.stdout_has(&["still 402"]);
}
