//! The table drawn in characters, for `:map` at the prompt.
//!
//! North is up. Terrain fills every cell it covers any part of (`^` hill, `T` woods, `#` town, `=` road, `~` stream,
//! `-` linear obstacle, `H` fortification); each figure in play is a mark of its own: the
//! first side's figures `A`, `B`, ... (capitals, without `H` and `T`, which are terrain), the
//! second side's `a`, `b`, ..., the third side's `1`, `2`, ...; a figure past its side's marks
//! (or of a fourth side) is a `*`. A figure keeps its mark all game, whoever falls. Under
//! the map a legend gives each side's figures, mark, id and an arrow for the facing, saying
//! which figure hides another in the same cell; a scale line gives inches.
//!
//! The front end says whether to colour: with `colour`, each side's marks and name are in a
//! colour of its own (ANSI escapes), for a terminal; without, the text is plain.

use crate::game::state::GameState;
use crate::host::battlefield::Battlefield;
use crate::host::geometry::Point;
use crate::host::terrain::{Shape, TerrainKind};

/// The marks of the figures of the first sides, in the scenario's order of sides.
const MARKS: [&str; 3] = [
    "ABCDEFGIJKLMNOPQRSUVWXYZ",
    "abcdefghijklmnopqrstuvwxyz",
    "1234567890",
];

/// The mark of a figure past its side's marks.
const MORE: char = '*';

/// The colour of each side (bold red, cyan, yellow, green, magenta, blue), round again past
/// the sixth.
const COLOURS: [&str; 6] = [
    "\x1b[1;31m",
    "\x1b[1;36m",
    "\x1b[1;33m",
    "\x1b[1;32m",
    "\x1b[1;35m",
    "\x1b[1;34m",
];

const RESET: &str = "\x1b[0m";

/// How wide the prompt draws the table.
pub const COLUMNS: usize = 72;

/// Space between two entries of a legend line.
const GAP: usize = 3;

/// Draws the table `columns` characters wide (inside its frame); with `colour`, each side
/// in its colour.
pub fn draw(state: &GameState, columns: usize, colour: bool) -> String {
    draw_seen(state, columns, colour, &|_| true)
}

/// Draws the table as [`draw`] does, showing only the figures `seen` says the eyes the screen
/// is for may see (by index on the battlefield): a hidden enemy is neither drawn nor listed.
pub fn draw_seen(
    state: &GameState,
    columns: usize,
    colour: bool,
    seen: &dyn Fn(usize) -> bool,
) -> String {
    let field: &Battlefield = &state.battlefield;
    let columns = columns.clamp(20, 200);
    // Characters are about twice as tall as wide: rows are two columns' worth of inches.
    let scale = field.width / columns as f64;
    let rows = ((field.depth / (scale * 2.0)).ceil() as usize).clamp(5, 100);
    let mut grid = vec![vec![Cell::Ground(' '); columns]; rows];
    for (r, row) in grid.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            // The cell's corners, south-west and north-east: a feature is drawn in every cell
            // it covers any part of, so a hedge half an inch wide is a line of `-` all along,
            // not only where it crosses a cell's centre.
            let (w, h) = (scale, scale * 2.0);
            let south_west = Point::new(c as f64 * w, field.depth - (r as f64 + 1.0) * h);
            let north_east = Point::new(south_west.x + w, south_west.y + h);
            let covering = field
                .terrain
                .features
                .iter()
                .enumerate()
                .filter(|(_, f)| touches(&f.shape, south_west, north_east))
                .map(|(i, _)| i);
            for f in covering {
                *cell = Cell::Ground(match field.terrain.features[f].kind {
                    TerrainKind::Woods => 'T',
                    TerrainKind::Hill(_) => '^',
                    TerrainKind::Town => '#',
                    TerrainKind::Road => '=',
                    TerrainKind::Stream => '~',
                    TerrainKind::LinearObstacle => '-',
                    TerrainKind::Fortification => 'H',
                });
            }
        }
    }
    let figures = figures(state);
    // Figures with marks of their own are drawn last, so a `*` never hides one.
    let mut order: Vec<usize> = field.in_play().filter(|&i| seen(i)).collect();
    order.sort_by_key(|&i| figures[i].mark != MORE);
    let mut hidden_by: Vec<Option<usize>> = vec![None; figures.len()];
    for i in order {
        let u = &field.units()[i];
        let c = ((u.pos.x / scale) as usize).min(columns - 1);
        let r = (((field.depth - u.pos.y) / (scale * 2.0)) as usize).min(rows - 1);
        if let Cell::Figure(under) = grid[r][c] {
            hidden_by[under] = Some(i);
        }
        grid[r][c] = Cell::Figure(i);
    }
    // Names come from shared files: made printable before any colour goes round them, since
    // a coloured map is written as it is (`write_out_styled`).
    let paint = |text: &str, side: usize| {
        let text = super::printable::printable(text);
        if colour {
            format!("{}{text}{RESET}", COLOURS[side % COLOURS.len()])
        } else {
            text.to_string()
        }
    };
    let mut out = String::new();
    out.push('+');
    out.push_str(&"-".repeat(columns));
    out.push_str("+ north\n");
    for row in grid {
        out.push('|');
        for cell in row {
            match cell {
                Cell::Ground(ch) => out.push(ch),
                Cell::Figure(i) => {
                    let f = &figures[i];
                    out.push_str(&paint(&f.mark.to_string(), f.side));
                }
            }
        }
        out.push_str("|\n");
    }
    out.push('+');
    out.push_str(&"-".repeat(columns));
    out.push_str("+\n");
    let ten = (10.0 / scale).round() as usize;
    out.push_str(&format!(
        " {}| 10 inches; the table is {}\" x {}\"\n",
        "-".repeat(ten.max(1)),
        field.width,
        field.depth
    ));
    for (s, side) in state.sides.iter().enumerate() {
        out.push_str(&format!(" {}:", paint(&side.name, s)));
        // Each entry: the mark, the id, the facing, and what hides it.
        let entries: Vec<(String, String)> = field
            .by_side(&side.id)
            .filter(|&i| seen(i))
            .map(|i| {
                let u = &field.units()[i];
                let mark = figures[i].mark.to_string();
                let hidden = hidden_by[i]
                    .map(|top| format!(" (hidden by {})", figures[top].mark))
                    .unwrap_or_default();
                let rest = format!(" {} {}{hidden}", u.id, arrow(u.facing));
                (
                    format!("{mark}{rest}"),
                    format!("{}{rest}", paint(&mark, s)),
                )
            })
            .collect();
        if entries.is_empty() {
            out.push_str(" no figures in play\n");
            continue;
        }
        out.push('\n');
        legend_lines(&mut out, &entries, columns + 2);
    }
    out.push_str(
        " terrain: ^ hill, T woods, # town, = road, ~ stream, - obstacle, H fortification",
    );
    out
}

/// Whether `shape` covers any part of the rectangle from `south_west` to `north_east`: it
/// holds the rectangle's centre, crosses one of its sides, or lies wholly inside it.
fn touches(shape: &Shape, south_west: Point, north_east: Point) -> bool {
    let (a, b) = (south_west, north_east);
    let corners = [a, Point::new(b.x, a.y), b, Point::new(a.x, b.y)];
    let centre = Point::new((a.x + b.x) / 2.0, (a.y + b.y) / 2.0);
    if shape.contains(centre) {
        return true;
    }
    if (0..4).any(|k| shape.crossed_by(corners[k], corners[(k + 1) % 4])) {
        return true;
    }
    let inside = |p: &Point| (a.x..=b.x).contains(&p.x) && (a.y..=b.y).contains(&p.y);
    match shape {
        Shape::Polygon(points) | Shape::Line { points, .. } => points.first().is_some_and(inside),
        Shape::Rect { x, y, .. } => inside(&Point::new(*x, *y)),
        Shape::Circle { centre, .. } => inside(centre),
    }
}

/// What a cell of the map shows: the ground, or a figure (by its index on the battlefield).
#[derive(Clone, Copy)]
enum Cell {
    Ground(char),
    Figure(usize),
}

/// How a figure is drawn: its mark and its side's place in the scenario.
struct Figure {
    mark: char,
    side: usize,
}

/// The mark of every figure, by its index on the battlefield: the side's marks in the
/// battlefield's order, counting figures out of play, so that no mark changes hands.
fn figures(state: &GameState) -> Vec<Figure> {
    let mut given = vec![0; state.sides.len()];
    state
        .battlefield
        .units()
        .iter()
        .map(|u| {
            let side = state
                .sides
                .iter()
                .position(|s| s.id == u.side)
                .unwrap_or(state.sides.len());
            let n = given.get_mut(side).map_or(usize::MAX, |g| {
                *g += 1;
                *g - 1
            });
            let mark = MARKS
                .get(side)
                .and_then(|marks| marks.chars().nth(n))
                .unwrap_or(MORE);
            Figure { mark, side }
        })
        .collect()
}

/// Appends a side's entries (plain, and as shown) in columns, in reading order, no line
/// wider than `width`.
fn legend_lines(out: &mut String, entries: &[(String, String)], width: usize) {
    let indent = "   ";
    let widest = entries
        .iter()
        .map(|(plain, _)| plain.chars().count())
        .max()
        .unwrap_or(0);
    let per_line = ((width - indent.len() + GAP) / (widest + GAP)).max(1);
    for line in entries.chunks(per_line) {
        out.push_str(indent);
        for (k, (plain, shown)) in line.iter().enumerate() {
            out.push_str(shown);
            if k + 1 < line.len() {
                let pad = widest - plain.chars().count() + GAP;
                out.push_str(&" ".repeat(pad));
            }
        }
        out.push('\n');
    }
}

/// An arrow for a facing (eight directions).
fn arrow(facing: f64) -> char {
    const ARROWS: [char; 8] = ['↑', '↗', '→', '↘', '↓', '↙', '←', '↖'];
    ARROWS[((facing.rem_euclid(360.0) + 22.5) / 45.0) as usize % 8]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::project::Project;
    use crate::game::scenario::Scenario;
    use crate::session::Session;

    fn session() -> Session {
        let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
        let scenario = Scenario::load(&project, &project.default_scenario()).unwrap();
        Session::new(&project, scenario, 1).unwrap()
    }

    #[test]
    fn arrows_point_the_way_units_face() {
        assert_eq!(arrow(0.0), '↑');
        assert_eq!(arrow(90.0), '→');
        assert_eq!(arrow(180.0), '↓');
        assert_eq!(arrow(350.0), '↑');
        assert_eq!(arrow(225.0), '↙');
    }

    // Guards telling figures apart on the map: every figure of a side was the same letter.
    #[test]
    fn each_figure_has_its_own_mark_and_a_line_in_the_legend() {
        let s = session();
        let map = draw(&s.state(), COLUMNS, false);
        let frame: String = map
            .lines()
            .filter(|l| l.starts_with('|'))
            .collect::<Vec<_>>()
            .join("\n");
        // Rome is the first side, the Vikings the second.
        for mark in ['A', 'B', 'E', 'J', 'a', 'b', 'j'] {
            assert_eq!(frame.matches(mark).count(), 1, "{mark} in\n{map}");
        }
        assert!(
            map.contains("   A legionary_1 ↑   B legionary_2 ↑"),
            "{map}"
        );
        assert!(map.contains("   a viking_1 ↓"), "{map}");
        assert!(map.contains(" Rome:\n"), "{map}");
        // The legend fits beside the map.
        let legend = map.lines().skip_while(|l| !l.starts_with(" Rome"));
        for line in legend.filter(|l| !l.starts_with(" terrain")) {
            assert!(line.chars().count() <= 74, "too wide: {line:?}");
        }
        assert!(!map.contains('\x1b'), "{map}");
    }

    // Guards drawing thin terrain: the Edgehill hedge, half an inch wide from (0, 17) to
    // (22, 18), was drawn only in the few cells whose centre it crossed.
    #[test]
    fn thin_terrain_is_drawn_in_every_cell_it_covers() {
        let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
        let path = project.root().join("scenarios/sint_edgehill_lane.yaml");
        let scenario = Scenario::load(&project, &path).unwrap();
        let s = Session::new(&project, scenario, 1).unwrap();
        let map = draw(&s.state(), COLUMNS, false);
        let rows: Vec<Vec<char>> = map
            .lines()
            .filter(|l| l.starts_with('|'))
            .map(|l| l.chars().skip(1).collect())
            .collect();
        let scale = 48.0 / COLUMNS as f64;
        let hedge_columns = (0..COLUMNS).filter(|&c| (c as f64 + 1.0) * scale <= 22.0);
        for c in hedge_columns {
            assert!(
                rows.iter().any(|r| r[c] == '-'),
                "no hedge in column {c}:\n{map}"
            );
        }
        // And nowhere else than where it is: no `-` east of the lane's hedge's end.
        let east = (23.0 / scale) as usize;
        assert!(rows.iter().all(|r| !r[east..].contains(&'-')), "{map}");
    }

    #[test]
    fn each_side_has_its_colour_when_asked() {
        let s = session();
        let map = draw(&s.state(), COLUMNS, true);
        assert!(map.contains("\x1b[1;31mA\x1b[0m legionary_1 ↑"), "{map}");
        assert!(map.contains("\x1b[1;36ma\x1b[0m viking_1 ↓"), "{map}");
        assert!(map.contains(" \x1b[1;31mRome\x1b[0m:"), "{map}");
    }
}
