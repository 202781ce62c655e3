//! Grid areas: for rules played on a grid of areas (the scenario's `grid:`), an area is
//! `[col, row]`, and a unit stands in the area its centre is in.

use rhai::{Array, Dynamic, Engine, INT};

use super::{Res, Shared, UnitRef, host_error, place};
use crate::game::state::GameState;
use crate::host::geometry::Point;
use crate::host::grid::{self, Area};
use crate::script::metadata::host;

fn area_value(a: Area) -> Dynamic {
    let arr: Array = vec![
        Dynamic::from_int(INT::from(a.col)),
        Dynamic::from_int(INT::from(a.row)),
    ];
    arr.into()
}

/// An area from a script: `[col, row]` or a unit (the area it stands in).
fn area_arg(state: &GameState, v: &Dynamic) -> Res<Area> {
    if let Some(u) = v.read_lock::<UnitRef>() {
        let grid = state
            .battlefield
            .grid
            .as_ref()
            .ok_or_else(|| host_error("this scenario has no grid: add `grid:` to use areas"))?;
        let pos = state.unit(u.0).map_err(host_error)?.pos;
        return grid
            .area_of(pos)
            .ok_or_else(|| host_error("that unit stands off the grid"));
    }
    if let Some(a) = v.read_lock::<Array>()
        && a.len() == 2
        && let (Ok(col), Ok(row)) = (a[0].as_int(), a[1].as_int())
    {
        let col = i32::try_from(col).map_err(|_| host_error("area column out of range"))?;
        let row = i32::try_from(row).map_err(|_| host_error("area row out of range"))?;
        return Ok(Area { col, row });
    }
    Err(host_error(format!(
        "expected an area [col, row] or a unit, not {}",
        v.type_name()
    )))
}

/// Registers the grid area functions.
pub(super) fn register(engine: &mut Engine, state: &Shared) {
    let st = state.clone();
    host!(engine,
        /// The area `[col, row]` a place is in, `()` off the grid. Raises `this scenario has
        /// no grid`.
        fn area_of(p: place) -> any,
        move |p: Dynamic| -> Res<Dynamic> {
            let s = st.borrow();
            let grid = s
                .battlefield
                .grid
                .as_ref()
                .ok_or_else(|| host_error("this scenario has no grid"))?;
            Ok(grid
                .area_of(place(&s, &p)?)
                .map_or(Dynamic::UNIT, area_value))
        }
    );
    let st = state.clone();
    host!(engine,
        /// The centre of the area `[col, row]`, also for one off the grid. Raises `this
        /// scenario has no grid`.
        fn area_centre(col: INT, row: INT) -> Point,
        move |col: INT, row: INT| -> Res<Point> {
            let s = st.borrow();
            let grid = s
                .battlefield
                .grid
                .as_ref()
                .ok_or_else(|| host_error("this scenario has no grid"))?;
            let area = Area {
                col: i32::try_from(col).map_err(|_| host_error("area column out of range"))?,
                row: i32::try_from(row).map_err(|_| host_error("area row out of range"))?,
            };
            Ok(grid.centre(area))
        }
    );
    let st = state.clone();
    host!(engine,
        /// The steps between two areas, each `[col, row]` or a `Unit` (the area it stands
        /// in), a diagonal step counting 1 like any other. A unit off the grid raises `that
        /// unit stands off the grid`.
        fn area_distance(a: any, b: any) -> INT,
        move |a: Dynamic, b: Dynamic| -> Res<INT> {
            let s = st.borrow();
            Ok(INT::from(grid::area_distance(
                area_arg(&s, &a)?,
                area_arg(&s, &b)?,
            )))
        }
    );
    let st = state.clone();
    host!(engine,
        /// Whether two areas, each `[col, row]` or a `Unit` (the area it stands in), are one
        /// step apart, diagonals included. A unit off the grid raises `that unit stands off
        /// the grid`.
        fn adjacent(a: any, b: any) -> bool,
        move |a: Dynamic, b: Dynamic| -> Res<bool> {
            let s = st.borrow();
            Ok(grid::adjacent(area_arg(&s, &a)?, area_arg(&s, &b)?))
        }
    );
    let st = state.clone();
    host!(engine,
        /// Which side of `u` the adjacent area `other` (`[col, row]` or a `Unit`) lies on,
        /// judged by the bearing between area centres and `u`'s facing: `"front"` within 45
        /// degrees of its facing (so the diagonal areas ahead count as front), `"rear"` 135
        /// degrees or more, `"flank"` between. `()` when `other` is not adjacent.
        fn area_aspect(u: Unit, other: any) -> any,
        move |u: UnitRef, other: Dynamic| -> Res<Dynamic> {
            let s = st.borrow();
            let from = area_arg(&s, &Dynamic::from(u))?;
            let facing = s.unit(u.0).map_err(host_error)?.facing;
            let other = area_arg(&s, &other)?;
            Ok(grid::aspect(from, facing, other).map_or(Dynamic::UNIT, |a| a.to_string().into()))
        }
    );
}
