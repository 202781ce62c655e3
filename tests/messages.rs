//! Messages a wargamer reads: each says what is wrong in a plain sentence, at the file, line
//! and column where there is one, and never shows sandtable's or a library's internals.

mod common;

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
