//! The table drawn in characters, for `:map` at the prompt.
//!
//! North is up. Terrain fills cells (`^` hill, `T` woods, `#` town, `=` road, `~` stream,
//! `-` linear obstacle, `H` fortification); each unit in play is a letter for its side (`a`,
//! `b`, ... in the scenario's order; capitals for a unit whose base fills more than a cell)
//! with an arrow beside the legend showing its facing. A scale line gives inches.

use crate::game::state::GameState;
use crate::host::battlefield::Battlefield;
use crate::host::geometry::Point;
use crate::host::terrain::TerrainKind;

/// Draws the table `columns` characters wide.
pub fn draw(state: &GameState, columns: usize) -> String {
    let field: &Battlefield = &state.battlefield;
    let columns = columns.clamp(20, 200);
    // Characters are about twice as tall as wide: rows are two columns' worth of inches.
    let scale = field.width / columns as f64;
    let rows = ((field.depth / (scale * 2.0)).ceil() as usize).clamp(5, 100);
    let mut grid = vec![vec![' '; columns]; rows];
    for (r, row) in grid.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            let p = Point::new(
                (c as f64 + 0.5) * scale,
                field.depth - (r as f64 + 0.5) * scale * 2.0,
            );
            for f in field.terrain.at(p) {
                *cell = match field.terrain.features[f].kind {
                    TerrainKind::Woods => 'T',
                    TerrainKind::Hill(_) => '^',
                    TerrainKind::Town => '#',
                    TerrainKind::Road => '=',
                    TerrainKind::Stream => '~',
                    TerrainKind::LinearObstacle => '-',
                    TerrainKind::Fortification => 'H',
                };
            }
        }
    }
    let side_letter = |side: &str| {
        let i = state.sides.iter().position(|s| s.id == side).unwrap_or(0);
        (b'a' + (i as u8 % 26)) as char
    };
    for i in field.in_play() {
        let u = &field.units()[i];
        let c = ((u.pos.x / scale) as usize).min(columns - 1);
        let r = (((field.depth - u.pos.y) / (scale * 2.0)) as usize).min(rows - 1);
        grid[r][c] = side_letter(&u.side);
    }
    let mut out = String::new();
    out.push('+');
    out.push_str(&"-".repeat(columns));
    out.push_str("+ north\n");
    for row in grid {
        out.push('|');
        out.extend(row);
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
    for (i, s) in state.sides.iter().enumerate() {
        let arrows: Vec<String> = field
            .by_side(&s.id)
            .map(|u| {
                let u = &field.units()[u];
                format!("{} {}", u.id, arrow(u.facing))
            })
            .collect();
        out.push_str(&format!(
            " {} = {}: {}\n",
            (b'a' + i as u8) as char,
            s.name,
            arrows.join(", ")
        ));
    }
    out.push_str(
        " terrain: ^ hill, T woods, # town, = road, ~ stream, - obstacle, H fortification",
    );
    out
}

/// An arrow for a facing (eight directions).
fn arrow(facing: f64) -> char {
    const ARROWS: [char; 8] = ['↑', '↗', '→', '↘', '↓', '↙', '←', '↖'];
    ARROWS[((facing.rem_euclid(360.0) + 22.5) / 45.0) as usize % 8]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_point_the_way_units_face() {
        assert_eq!(arrow(0.0), '↑');
        assert_eq!(arrow(90.0), '→');
        assert_eq!(arrow(180.0), '↓');
        assert_eq!(arrow(350.0), '↑');
        assert_eq!(arrow(225.0), '↙');
    }
}
