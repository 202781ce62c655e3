//! Grid areas: for rules played on a grid of areas (the scenario's `grid:`), an area is
//! `[col, row]`, and a unit stands in the area its centre is in.
//!
//! Registers:
//!
//! - `area_of(p)` and `area_centre(col, row)`;
//! - `area_distance(a, b)` and `adjacent(a, b)`;
//! - `area_aspect(u, other)`.

use rhai::{Array, Dynamic, Engine, INT};

use super::{Res, Shared, UnitRef, host_error, place, volatile};
use crate::game::state::GameState;
use crate::host::geometry::Point;
use crate::host::grid::{self, Area};

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
    volatile!(engine, "area_of", move |p: Dynamic| -> Res<Dynamic> {
        let s = st.borrow();
        let grid = s
            .battlefield
            .grid
            .as_ref()
            .ok_or_else(|| host_error("this scenario has no grid"))?;
        Ok(grid
            .area_of(place(&s, &p)?)
            .map_or(Dynamic::UNIT, area_value))
    });
    let st = state.clone();
    volatile!(engine, "area_centre", move |col: INT,
                                           row: INT|
          -> Res<Point> {
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
    });
    let st = state.clone();
    volatile!(engine, "area_distance", move |a: Dynamic,
                                             b: Dynamic|
          -> Res<INT> {
        let s = st.borrow();
        Ok(INT::from(grid::area_distance(
            area_arg(&s, &a)?,
            area_arg(&s, &b)?,
        )))
    });
    let st = state.clone();
    volatile!(engine, "adjacent", move |a: Dynamic,
                                        b: Dynamic|
          -> Res<bool> {
        let s = st.borrow();
        Ok(grid::adjacent(area_arg(&s, &a)?, area_arg(&s, &b)?))
    });
    let st = state.clone();
    volatile!(engine, "area_aspect", move |u: UnitRef,
                                           other: Dynamic|
          -> Res<Dynamic> {
        let s = st.borrow();
        let from = area_arg(&s, &Dynamic::from(u))?;
        let facing = s.unit(u.0).map_err(host_error)?.facing;
        let other = area_arg(&s, &other)?;
        Ok(grid::aspect(from, facing, other).map_or(Dynamic::UNIT, |a| a.to_string().into()))
    });
}
