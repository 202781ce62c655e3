//! Units: finding the game's units, the `Unit` handle scripts hold (its properties and
//! methods read and change the unit in the game, which logs every change), and new units.

use rhai::{Array, Dynamic, Engine, INT, ImmutableString, Map, NativeCallContext};

use super::{
    Res, Shared, UnitRef, host_error, host_error_with_help, number, place, refusal,
    stat_to_dynamic, strings, unit_array, with_unit,
};
use crate::game::declared::{self, StatDecl};
use crate::game::ruleset::Ruleset;
use crate::host::battlefield::ResolveError;
use crate::host::geometry::Point;
use crate::host::unit::{Stat, Unit};
use crate::script::metadata::{host, host_type};

/// A script value as a unit's stat.
pub(super) fn dynamic_to_stat(v: &Dynamic) -> Res<Stat> {
    if let Ok(b) = v.as_bool() {
        Ok(Stat::Bool(b))
    } else if let Ok(i) = v.as_int() {
        Ok(Stat::Int(i))
    } else if let Ok(f) = v.as_float() {
        Ok(Stat::Float(f))
    } else if let Some(s) = v.read_lock::<ImmutableString>() {
        Ok(Stat::Text(s.to_string()))
    } else if let Some(a) = v.read_lock::<Array>() {
        let items = a
            .iter()
            .map(|item| match dynamic_to_stat(item)? {
                Stat::List(_) => Err(host_error("a list stat holds words and numbers, not lists")),
                stat => Ok(stat),
            })
            .collect::<Res<Vec<Stat>>>()?;
        Ok(Stat::List(items))
    } else {
        Err(host_error(format!(
            "a stat must be a bool, a number, a string or an array of them, not {}",
            v.type_name()
        )))
    }
}

/// Whether a unit's stat is the script value `v`, as `==` in a script has it (a whole number
/// and a float of the same value are equal; values of other types never are).
fn stat_is(s: &Stat, v: &Dynamic) -> bool {
    match s {
        Stat::Bool(b) => v.as_bool().is_ok_and(|x| x == *b),
        Stat::Int(i) => {
            v.as_int().is_ok_and(|x| x == *i) || v.as_float().is_ok_and(|x| x == *i as f64)
        }
        Stat::Float(f) => {
            v.as_float().is_ok_and(|x| x == *f) || v.as_int().is_ok_and(|x| x as f64 == *f)
        }
        Stat::Text(t) => v
            .read_lock::<ImmutableString>()
            .is_some_and(|x| x.as_str() == t),
        Stat::List(items) => v.read_lock::<Array>().is_some_and(|a| {
            a.len() == items.len() && items.iter().zip(a.iter()).all(|(s, v)| stat_is(s, v))
        }),
    }
}

/// The ruleset's declared stats, shared by the functions that read and set stats.
type Stats = std::rc::Rc<std::collections::BTreeMap<String, StatDecl>>;

/// The declaration of the stat `name` (none for a private note, `_name`), or an error that
/// names the declared ones: a misspelt stat is a mistake, never a quiet `()`.
fn declared_stat<'a>(stats: &'a Stats, name: &str) -> Res<Option<&'a StatDecl>> {
    if declared::is_private(name) {
        return Ok(None);
    }
    declared::stat_decl(stats, name)
        .map(Some)
        .map_err(|(message, help)| host_error_with_help(message, help))
}

/// What a unit reads for a stat it does not carry: the declared default, if any.
fn default_of(decl: Option<&StatDecl>) -> Option<Dynamic> {
    decl.and_then(|d| d.default.as_ref()).map(stat_to_dynamic)
}

host_type!(
    /// A handle on a unit of this game, not a copy: it always refers to the live unit.
    /// Reading a property reads the unit as it is now; setting one changes the game and is
    /// logged. A setter given the wrong type raises ``the property `hits` of a unit cannot be
    /// set to a decimal number``; `u.id`, `u.side` and the others without a setter raise the
    /// same. Rhai cannot assign to a property of a function's result, so write `let u =
    /// unit("viking_1"); u.hits = 2;`, not `unit("viking_1").hits = 2`; method calls on a
    /// result are fine: `unit("viking_1").tag("shaken")`.
    ///
    /// ```rhai
    /// let v = unit("viking_1");
    /// print(`${v.id} | ${v.name} | ${v.side} | ${v.troop} | ${v.pos} | ${v.facing} | ${v.in_play}`);
    /// print(v.groups);
    /// print(v.stats);
    /// v.name = "Olaf";
    /// v.facing = 90;
    /// ```
    ///
    /// prints:
    ///
    /// ```text
    /// viking_1 | Viking warrior | vikings | heavy_infantry | (17, 18.3) | 180.0 | true
    /// #{"formation": "shield_wall"}
    /// #{"attack": 1, "class": "infantry", "defend": 2, "move": 6, "shield": true}
    ///   viking_1 name: Viking warrior -> Olaf
    ///   viking_1 turns from 180° to 90°
    /// ```
    UnitRef as Unit
);

/// A unit's groups, by kind.
fn group_map(u: &Unit) -> Map {
    u.groups
        .iter()
        .map(|(k, v)| (k.into(), v.clone().into()))
        .collect()
}

/// A unit's stats, less its private notes (stats starting with `_`, which `stat` reads).
fn stat_map(u: &Unit) -> Map {
    u.stats
        .iter()
        .filter(|(k, _)| !k.starts_with('_'))
        .map(|(k, v)| (k.into(), stat_to_dynamic(v)))
        .collect()
}

/// Registers the unit functions, the `Unit` type and `new_unit`.
pub(super) fn register(engine: &mut Engine, state: &Shared, ruleset: &Ruleset) {
    let stats: Stats = std::rc::Rc::new(ruleset.file.stats.clone());
    engine.build_type::<UnitRef>();

    let st = state.clone();
    host!(engine,
        /// The unit with that id, or with an id that starts with `id` when only one does
        /// (`unit("jar")` is `jarl`). Logs nothing. Raises ``unknown unit `ID` `` (with a
        /// did-you-mean) or `` `legionary` could be any of 5 units: legionary_1, ... ``. A unit
        /// prints as its id (`print(u)`, `` `${u}` ``); in an array or with `debug` it shows as `id
        /// (name)`.
        ///
        /// ```rhai
        /// let v = unit("viking_1");
        /// print(v);
        /// debug(v);
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// viking_1
        /// [debug] viking_1 (Viking warrior)
        /// ```
        fn unit(id: string) -> Unit,
        move |id: &str| -> Res<UnitRef> {
            st.borrow()
                .battlefield
                .resolve(id)
                .map(UnitRef)
                .map_err(host_error)
        }
    );
    // Words typed where a unit belongs arrive as strings when they name none, and scripts
    // may pass ids: the rules refuse those that name no unit (as `throw` does) in the
    // player's terms, with the id meant where one is close.
    let st = state.clone();
    host!(engine,
        /// `x` as a unit, for a verb given words or ids: a `Unit` is itself, a unit's id (a
        /// string) is found as `unit` finds it, prefixes included; any other is refused as
        /// `throw` refuses, in the players' words: ``unknown unit `vikng_1`; did you mean
        /// `viking_1`?``, or ``unknown unit `x`: `:units` lists the units``. A verb that
        /// begins with `let target = to_unit(target);` works as well when a script passes it
        /// an id. (Its parameter is said to be a `Unit`, as what the verb wants; an id will do.)
        ///
        /// ```rhai
        /// print(to_unit(unit("jarl")));
        /// print(to_unit("jar"));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// jarl
        /// jarl
        /// ```
        fn to_unit(x: Unit) -> Unit,
        move |x: Dynamic| -> Res<UnitRef> {
            if let Some(u) = x.read_lock::<UnitRef>() {
                return Ok(*u);
            }
            let text = match x.read_lock::<ImmutableString>() {
                Some(s) => s.to_string(),
                None => x.to_string(),
            };
            st.borrow()
                .battlefield
                .resolve(&text)
                .map(UnitRef)
                .map_err(|e| match e {
                    ResolveError::Unknown {
                        suggestion: None, ..
                    } => refusal(format!("{}: `:units` lists the units", e.message())),
                    e => refusal(e.to_string()),
                })
        }
    );
    let st = state.clone();
    host!(engine,
        /// Every unit in play, as an array of `Unit`. Lists are in the scenario's order and log
        /// nothing.
        fn units() -> array,
        move || -> Array {
            unit_array(st.borrow().battlefield.in_play())
        }
    );
    let st = state.clone();
    host!(engine,
        /// The units in play on a side (an empty array for an unknown side). Lists are in the
        /// scenario's order and log nothing.
        ///
        /// ```rhai
        /// print(units("romans").len());
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// 10
        /// ```
        fn units(side: string) -> array,
        move |side: &str| -> Array {
            unit_array(st.borrow().battlefield.by_side(side))
        }
    );
    let st = state.clone();
    let decls = stats.clone();
    host!(engine,
        /// The units in play on a side less those whose stat `stat` is `value` (`==` as a script
        /// has it; a unit without the stat stays): `units_without("british", "kind", "mines")` is
        /// `units("british").filter(|u| u.stat("kind") != "mines")` in one call, without a script
        /// call for every unit. Lists are in the scenario's order and log nothing.
        ///
        /// ```rhai
        /// print(units_without("romans", "class", "cavalry").len());
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// 8
        /// ```
        fn units_without(side: string, stat: string, value: any) -> array,
        move |side: &str, stat: &str, value: Dynamic| -> Res<Array> {
            declared_stat(&decls, stat)?;
            let s = st.borrow();
            let units = s.battlefield.units();
            Ok(unit_array(
                s.battlefield
                    .by_side(side)
                    .filter(|&i| !units[i].stat(stat).is_some_and(|v| stat_is(v, &value))),
            ))
        }
    );
    let st = state.clone();
    host!(engine,
        /// Every unit of the scenario, removed ones too. Lists are in the scenario's order and log
        /// nothing.
        fn all_units() -> array,
        move || -> Array {
            unit_array(0..st.borrow().battlefield.units().len())
        }
    );
    let st = state.clone();
    host!(engine,
        /// The units in play carrying a tag. Lists are in the scenario's order and log nothing.
        fn units_tagged(tag: string) -> array,
        move |tag: &str| -> Array {
            unit_array(st.borrow().battlefield.with_tag(tag))
        }
    );
    let st = state.clone();
    host!(engine,
        /// The units in play whose group of `kind` is `name`, e.g. `units_in_group("formation",
        /// "shield_wall")`. Lists are in the scenario's order and log nothing.
        ///
        /// ```rhai
        /// print(units_in_group("formation", "shield_wall").len());
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// 6
        /// ```
        fn units_in_group(kind: string, name: string) -> array,
        move |kind: &str, name: &str| -> Array {
            unit_array(st.borrow().battlefield.in_group(kind, name))
        }
    );
    let st = state.clone();
    host!(engine,
        /// The units in play whose base comes within `radius` inches of `centre`. When `centre` is
        /// a unit, it measures base edge to base edge and leaves that unit out. Lists are in the
        /// scenario's order and log nothing. Raises `a radius must be a number`.
        ///
        /// ```rhai
        /// let v = unit("viking_1");
        /// print(units_within(v, 1));
        /// print(units_within(point(20, 24), 0.5));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// [legionary_1 (Legionary)]
        /// [bondi_1 (Bondi spearman)]
        /// ```
        fn units_within(centre: place, radius: number) -> array,
        move |centre: Dynamic, radius: Dynamic| -> Res<Array> {
            let s = st.borrow();
            let radius = number(&radius, "a radius")?;
            if let Some(u) = centre.read_lock::<UnitRef>() {
                return Ok(unit_array(s.battlefield.within_of(u.0, radius)));
            }
            Ok(unit_array(
                s.battlefield.within(place(&s, &centre)?, radius),
            ))
        }
    );
    let st = state.clone();
    host!(engine,
        /// The units in play whose bases would overlap `u`'s if it stood at `at` with its present
        /// facing; bases that merely touch (within 0.05 inch) do not count. Rules use it to refuse
        /// a move onto another figure. Lists are in the scenario's order and log nothing.
        ///
        /// ```rhai
        /// print(overlapping_at(unit("viking_1"), point(17, 16.6)));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// [legionary_1 (Legionary)]
        /// ```
        fn overlapping_at(u: Unit, at: place) -> array,
        move |u: UnitRef, at: Dynamic| -> Res<Array> {
            let s = st.borrow();
            let at = place(&s, &at)?;
            Ok(unit_array(s.battlefield.overlapping_at(u.0, at)))
        }
    );
    let st = state.clone();
    host!(engine,
        /// The nearest unit in play of another side, base edge to base edge (the first listed on a
        /// tie), or `()` when there is none. Logs nothing.
        ///
        /// ```rhai
        /// print(nearest_enemy(unit("viking_1")));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// legionary_1
        /// ```
        fn nearest_enemy(u: Unit) -> any,
        move |u: UnitRef| -> Dynamic {
            st.borrow()
                .battlefield
                .nearest_enemy(u.0)
                .map_or(Dynamic::UNIT, |i| Dynamic::from(UnitRef(i)))
        }
    );
    let st = state.clone();
    host!(engine,
        /// The units in play of every other side whose base comes within `radius` inches of `u`'s
        /// base (edge to edge), nearest first (in the scenario's order on a tie): "the enemies in
        /// reach" in one call, which policies and rules ask often. Logs nothing. Raises `a radius
        /// must be a number`.
        ///
        /// ```rhai
        /// print(enemies_within(unit("legionary_1"), 2));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// [viking_1 (Viking warrior), viking_2 (Viking warrior)]
        /// ```
        fn enemies_within(u: Unit, radius: number) -> array,
        move |u: UnitRef, radius: Dynamic| -> Res<Array> {
            let radius = number(&radius, "a radius")?;
            Ok(unit_array(
                st.borrow().battlefield.enemies_within(u.0, radius),
            ))
        }
    );
    let st = state.clone();
    host!(engine,
        /// The units in play of every other side. Lists are in the scenario's order and log
        /// nothing.
        ///
        /// ```rhai
        /// print(enemies(unit("jarl")).len());
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// 10
        /// ```
        fn enemies(u: Unit) -> array,
        move |u: UnitRef| -> Res<Array> {
            let s = st.borrow();
            let side = s.unit(u.0).map_err(host_error)?.side.clone();
            Ok(unit_array(
                s.battlefield
                    .in_play()
                    .filter(|&i| s.battlefield.units()[i].side != side),
            ))
        }
    );

    macro_rules! getter {
        ($(#[doc = $doc:literal])* $name:ident -> $ty:tt, |$u:ident| $body:expr) => {{
            let st = state.clone();
            host!(engine,
                $(#[doc = $doc])*
                get (u: Unit) $name -> $ty,
                move |r: &mut UnitRef| -> Res<_> { with_unit(&st, *r, |$u| $body) }
            );
        }};
    }
    getter!(
        /// Its id: `viking_1`.
        id -> string, |u| u.id.clone());
    getter!(
        /// Its display name: `Viking warrior`; at most 200 characters.
        name -> string, |u| u.name.clone());
    getter!(
        /// Its side's id: `vikings`.
        side -> string, |u| u.side.clone());
    getter!(
        /// Its troop type in the ruleset: `heavy_infantry`.
        troop -> string, |u| u.troop.clone());
    getter!(
        /// Where its centre is, west to east.
        x -> FLOAT, |u| u.pos.x);
    getter!(
        /// Where its centre is, south to north.
        y -> FLOAT, |u| u.pos.y);
    getter!(
        /// Where its centre is.
        pos -> Point, |u| u.pos);
    getter!(
        /// The way it faces, in degrees clockwise from north.
        facing -> FLOAT, |u| u.facing);
    getter!(
        /// Hits taken (0 at the start unless the scenario says).
        hits -> INT, |u| u.hits);
    getter!(
        /// Stands or figures left (1 unless the scenario says).
        stands -> INT, |u| u.stands);
    getter!(
        /// Whether it is in play: false once removed.
        in_play -> bool, |u| u.in_play);
    // Private notes (tags starting with `_`) stay out of the list; `has_tag` sees them.
    getter!(
        /// Its status tags, an array of strings (not the private ones, starting with `_`).
        tags -> array, |u| strings(u.tags.iter().filter(|t| !t.starts_with('_'))));
    getter!(
        /// Its special abilities, by script name, an array of strings.
        abilities -> array, |u| strings(&u.abilities));
    getter!(
        /// `id (name)`, for narration: `viking_1 (Viking warrior)`.
        label -> string, |u| u.label());
    getter!(
        /// Its groups, by kind: `#{"formation": "shield_wall"}`.
        groups -> map, |u| group_map(u));
    getter!(
        /// All its stats: the troop chart's, with the scenario's overrides (not the private
        /// ones, starting with `_`).
        stats -> map, |u| stat_map(u));

    macro_rules! setter {
        ($(#[doc = $doc:literal])* $name:ident($ty:tt), |$s:ident, $i:ident, $v:ident : $t:ty| $body:expr) => {{
            let st = state.clone();
            host!(engine,
                $(#[doc = $doc])*
                set (u: Unit) $name(value: $ty),
                move |r: &mut UnitRef, $v: $t| -> Res<()> {
                    let mut $s = st.borrow_mut();
                    let $i = r.0;
                    $body.map_err(host_error)
                }
            );
        }};
    }
    setter!(
        /// Renames the unit; logs `viking_1 name: Viking warrior -> Olaf`. A name longer than
        /// 200 characters raises `a name has at most 200 characters`.
        name(string), |s, i, v: ImmutableString| s.set_name(i, &v));
    setter!(
        /// Moves the unit to another side; logs `chariot_1 side: carthage -> romans` (a
        /// captured chariot). An unknown side is an error.
        side(string), |s, i, v: ImmutableString| s.set_side(i, &v));
    setter!(
        /// Sets the hits taken; logs `viking_1 hits: 0 -> 1` (nothing when the value is the
        /// same).
        hits(INT), |s, i, v: INT| s.set_hits(i, v));
    setter!(
        /// Sets the stands left; logs `viking_1 stands: 1 -> 2` (nothing when the value is
        /// the same).
        stands(INT), |s, i, v: INT| s.set_stands(i, v));
    setter!(
        /// Moves the unit; logs `viking_1 moves 1.7" from (17, 18.3) to (17, 20)`.
        pos(Point), |s, i, v: Point| s.move_unit(i, v));
    {
        let st = state.clone();
        host!(engine,
            /// Turns the unit; logs `viking_1 turns from 180° to 90°` (nothing when it already
            /// faces that way).
            set (u: Unit) facing(value: number),
            move |r: &mut UnitRef, v: Dynamic| -> Res<()> {
                let deg = number(&v, "a facing")?;
                st.borrow_mut().face(r.0, deg).map_err(host_error)
            }
        );
    }

    let st = state.clone();
    let decls = stats.clone();
    host!(engine,
        /// A stat of the unit: a bool, `INT`, `FLOAT`, string or array, its declared `default`
        /// when the unit does not carry it, or `()` when there is none. A unit's stats come from
        /// its troop type in `ruleset.yaml`, with the scenario's `stats:` on top. Every stat a
        /// unit may carry is declared in the ruleset's `stats:` (its kind, range and default;
        /// see [writing a ruleset](writing-a-ruleset.md#stats)), and `stat`, `u[name]`,
        /// `has_stat`, `set_stat` and `units_without` hold scripts to it: a stat the ruleset
        /// does not declare is an error that names the declared ones, with a did-you-mean
        /// (``unknown stat `defnd`; did you mean `defend`?``), so a misspelt stat never quietly
        /// reads as `()`. A stat whose name starts with `_` is the rules' private note, like a
        /// private tag (the Playmobil rules keep `_spent`, the inches a figure has moved this
        /// turn): it is declared nowhere, saved and undone with the action like any stat, but
        /// setting it logs nothing, and `u.stats` and `:show` do not list it; `stat` reads it. A
        /// stat can also be read as a property: `u.attack` is `u["attack"]`, an error when the
        /// unit does not carry it and it has no default.
        ///
        /// ```rhai
        /// let v = unit("viking_1");
        /// print(v.stat("defend"));
        /// print(v["move"]);
        /// print(v.attack + 1);
        /// print(type_of(v.stat("charge_move")));
        /// print(v.has_stat("shield"));
        /// v.set_stat("attack", 2);
        /// v.set_stat("javelins", 2);
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// 2
        /// 6
        /// 2
        /// ()
        /// true
        ///   viking_1 attack: 1 -> 2
        ///   viking_1 javelins: none -> 2
        /// ```
        fn (u: Unit) stat(name: string) -> any,
        move |r: &mut UnitRef, name: &str| -> Res<Dynamic> {
            let decl = declared_stat(&decls, name)?;
            with_unit(&st, *r, |u| {
                u.stat(name)
                    .map(stat_to_dynamic)
                    .or_else(|| default_of(decl))
                    .unwrap_or(Dynamic::UNIT)
            })
        }
    );
    // `u["attack"]` and `u.attack` read a stat; unlike `u.stat("attack")`, a stat the unit
    // lacks (with no default) is an error, so a misspelt property does not quietly read as `()`.
    // The did-you-mean of a name that is neither a declared stat nor a property is the static
    // pass's, among the declared stats and the properties and methods the engine gives a unit
    // (read from its metadata at the first such error).
    let st = state.clone();
    let decls = stats.clone();
    let known: std::rc::Rc<std::cell::OnceCell<crate::script::lint::Known>> = Default::default();
    host!(engine,
        /// A stat of the unit (a bool, `INT`, `FLOAT`, string or array), as `u["attack"]` or as
        /// a property, `u.attack`. A name that is neither a declared stat nor a property is an
        /// error with a suggestion: `u.atack` gives ``` `viking_1` has no stat or property
        /// `atack` ``` (did you mean the stat `attack`?), and a declared stat the unit does not
        /// carry, with no default, ``` `viking_1` does not carry the stat `charge_move` ```.
        /// Use `stat`, which gives `()`, to ask about a stat that may be missing.
        index (u: Unit)[name: string] -> any,
        move |ctx: NativeCallContext, r: &mut UnitRef, name: &str| -> Res<Dynamic> {
            let s = st.borrow();
            let u = s.unit(r.0).map_err(host_error)?;
            let decl = decls.get(name);
            if decl.is_none() && !declared::is_private(name) {
                let known = known.get_or_init(|| crate::script::lint::Known::of(ctx.engine()));
                return Err(host_error_with_help(
                    format!("`{}` has no stat or property `{name}`", u.id),
                    crate::script::lint::unit_name_help(
                        known,
                        decls.keys().map(String::as_str),
                        name,
                    ),
                ));
            }
            u.stat(name)
                .map(stat_to_dynamic)
                .or_else(|| default_of(decl))
                .ok_or_else(|| host_error(format!("`{}` does not carry the stat `{name}`", u.id)))
        }
    );
    let st = state.clone();
    let decls = stats.clone();
    host!(engine,
        /// Whether the unit carries a stat of that name (a declared default is not carried).
        /// A stat the ruleset does not declare is an error, as for `stat`.
        fn (u: Unit) has_stat(name: string) -> bool,
        move |r: &mut UnitRef, name: &str| -> Res<bool> {
            declared_stat(&decls, name)?;
            with_unit(&st, *r, |u| u.stats.contains_key(name))
        }
    );
    let st = state.clone();
    let decls = stats.clone();
    host!(engine,
        /// Changes or adds a stat (a bool, `INT`, `FLOAT`, string or array of words and
        /// numbers) and logs `viking_1 attack: 1 -> 2` (`none -> ...` for a new stat; nothing
        /// for a private one, starting with `_`). The value must be of the stat's declared kind
        /// (``stat `attack` must be a whole number from 0 to 100, not `lots` ``); raises `a
        /// stat must be a bool, a number, a string or an array of them, not map`. A stat keeps
        /// the type you give it: `2` and `2.0` are different values.
        fn (u: Unit) set_stat(name: string, value: any) -> (),
        move |r: &mut UnitRef, name: &str, value: Dynamic| -> Res<()> {
            let stat = dynamic_to_stat(&value)?;
            declared::check_stat(&decls, name, &stat)
                .map_err(|(message, help)| host_error_with_help(message, help))?;
            st.borrow_mut()
                .set_stat(r.0, name, stat)
                .map_err(host_error)
        }
    );
    let st = state.clone();
    host!(engine,
        /// Whether the unit carries the tag, private ones (starting with `_`) included.
        fn (u: Unit) has_tag(tag: string) -> bool,
        move |r: &mut UnitRef, tag: &str| -> Res<bool> {
            with_unit(&st, *r, |u| u.has_tag(tag))
        }
    );
    let st = state.clone();
    host!(engine,
        /// Puts a tag on the unit and logs ``viking_1 is tagged `shaken` ``; nothing when it has it
        /// already. Tags are status words: `moved`, `blocked`, `shaken`, `routed`. A tag that
        /// starts with `_` is the rules' private note (the Playmobil rules keep `_fought
        /// first_century` to know whom a figure fought this turn): it is undone with the action
        /// like any change, but it is not narrated, not listed by `u.tags` or `:units`; `has_tag`
        /// sees it.
        ///
        /// ```rhai
        /// let v = unit("viking_1");
        /// v.tag("shaken");
        /// v.tag("shaken");
        /// print(v.has_tag("shaken"));
        /// print(units_tagged("shaken"));
        /// v.untag("shaken");
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        ///   viking_1 is tagged `shaken`
        /// true
        /// [viking_1 (Viking warrior)]
        ///   viking_1 loses the tag `shaken`
        /// ```
        fn (u: Unit) tag(tag: string) -> (),
        move |r: &mut UnitRef, tag: &str| -> Res<()> {
            st.borrow_mut().set_tag(r.0, tag, true).map_err(host_error)
        }
    );
    let st = state.clone();
    host!(engine,
        /// Takes a tag off and logs ``viking_1 loses the tag `shaken` ``; nothing when it is not
        /// there.
        fn (u: Unit) untag(tag: string) -> (),
        move |r: &mut UnitRef, tag: &str| -> Res<()> {
            st.borrow_mut().set_tag(r.0, tag, false).map_err(host_error)
        }
    );
    let st = state.clone();
    host!(engine,
        /// Takes off every tag that starts with `prefix`, each logged as `untag` logs it.
        fn (u: Unit) untag_all(prefix: string) -> (),
        move |r: &mut UnitRef, prefix: &str| -> Res<()> {
            let mut s = st.borrow_mut();
            let tags: Vec<String> = s
                .unit(r.0)
                .map_err(host_error)?
                .tags
                .iter()
                .filter(|t| t.starts_with(prefix))
                .cloned()
                .collect();
            for t in tags {
                s.set_tag(r.0, &t, false).map_err(host_error)?;
            }
            Ok(())
        }
    );
    let st = state.clone();
    host!(engine,
        /// Which group of `kind` the unit belongs to (a string), or `()`. A unit belongs to at most
        /// one group of each kind: one `formation`, one `brigade`, one `command`.
        ///
        /// ```rhai
        /// let v = unit("viking_1");
        /// print(v.comrades("formation").len());
        /// print(v.group_size("formation"));
        /// print(v.group("formation"));
        /// v.set_group("formation", "wedge");
        /// v.set_group("warband", "ragnars");
        /// v.leave_group("warband");
        /// print(type_of(v.group("warband")));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// 6
        /// 6
        /// shield_wall
        ///   viking_1 formation: shield_wall -> wedge
        ///   viking_1 warband: none -> ragnars
        ///   viking_1 warband: ragnars -> none
        /// ()
        /// ```
        fn (u: Unit) group(kind: string) -> any,
        move |r: &mut UnitRef, kind: &str| -> Res<Dynamic> {
            with_unit(&st, *r, |u| {
                u.groups
                    .get(kind)
                    .map_or(Dynamic::UNIT, |g| g.clone().into())
            })
        }
    );
    let st = state.clone();
    host!(engine,
        /// The units in play of `u`'s side in `u`'s group of that kind, `u` included and in the
        /// scenario's order (`[u]` alone when it is in no such group, `[]` when it is out of play
        /// too); groups of the same name on another side are not its comrades.
        fn (u: Unit) comrades(kind: string) -> array,
        move |r: &mut UnitRef, kind: &str| -> Array {
            unit_array(st.borrow().battlefield.comrades(r.0, kind, false))
        }
    );
    let st = state.clone();
    host!(engine,
        /// The units of `u`'s side in `u`'s group of that kind, removed ones too: the strength it
        /// began the battle with, which routing compares with what is left.
        fn (u: Unit) group_size(kind: string) -> INT,
        move |r: &mut UnitRef, kind: &str| -> INT {
            st.borrow().battlefield.comrades(r.0, kind, true).len() as INT
        }
    );
    let st = state.clone();
    host!(engine,
        /// Puts the unit in the group `name` of `kind`, leaving the one it was in, and logs
        /// `viking_1 formation: shield_wall -> wedge` (`none` for no group); nothing when there is
        /// no change.
        fn (u: Unit) set_group(kind: string, name: string) -> (),
        move |r: &mut UnitRef, kind: &str, name: &str| -> Res<()> {
            st.borrow_mut()
                .set_group(r.0, kind, Some(name))
                .map_err(host_error)
        }
    );
    let st = state.clone();
    host!(engine,
        /// Takes the unit out of its group of `kind` and logs `viking_1 warband: ragnars -> none`;
        /// nothing when it is in none.
        fn (u: Unit) leave_group(kind: string) -> (),
        move |r: &mut UnitRef, kind: &str| -> Res<()> {
            st.borrow_mut()
                .set_group(r.0, kind, None)
                .map_err(host_error)
        }
    );
    let st = state.clone();
    host!(engine,
        /// Puts the unit's centre at a place and logs the move with its straight-line distance. It
        /// checks nothing: not the unit's move allowance, not the table edge, not other units in
        /// the way. Those are rules, and the ruleset's scripts check them.
        ///
        /// ```rhai
        /// let v = unit("viking_1");
        /// v.move_to(point(17, 21));
        /// v.move_to(18, 21);
        /// v.move_to(unit("jarl"));
        /// v.face(-90);
        /// v.face_towards(unit("legionary_1"));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        ///   viking_1 moves 2.7" from (17, 18.3) to (17, 21)
        ///   viking_1 moves 1" from (17, 21) to (18, 21)
        ///   viking_1 moves 4.12" from (18, 21) to (22, 22)
        ///   viking_1 turns from 180° to 270°
        ///   viking_1 turns from 270° to 222.27°
        /// ```
        fn (u: Unit) move_to(to: place) -> (),
        move |r: &mut UnitRef, to: Dynamic| -> Res<()> {
            let mut s = st.borrow_mut();
            let to = place(&s, &to)?;
            s.move_unit(r.0, to).map_err(host_error)
        }
    );
    let st = state.clone();
    host!(engine,
        /// Puts the unit's centre at `(x, y)`, as `move_to(point(x, y))`. Raises `x must be a
        /// finite number` for a point that is not on any table.
        fn (u: Unit) move_to(x: number, y: number) -> (),
        move |r: &mut UnitRef, x: Dynamic, y: Dynamic| -> Res<()> {
            let to = Point::new(number(&x, "x")?, number(&y, "y")?);
            st.borrow_mut().move_unit(r.0, to).map_err(host_error)
        }
    );
    let st = state.clone();
    host!(engine,
        /// Turns the unit to a facing, in degrees clockwise from north, and logs `viking_1 turns
        /// from 180° to 90°`; nothing when the facing does not change. Facings are kept in [0,
        /// 360): `face(-90)` faces 270.
        fn (u: Unit) face(degrees: number) -> (),
        move |r: &mut UnitRef, deg: Dynamic| -> Res<()> {
            let deg = number(&deg, "a facing")?;
            st.borrow_mut().face(r.0, deg).map_err(host_error)
        }
    );
    let st = state.clone();
    host!(engine,
        /// Turns the unit to look at a place, logged as `face` logs it; nothing happens when the
        /// place is its own centre.
        fn (u: Unit) face_towards(target: place) -> (),
        move |r: &mut UnitRef, target: Dynamic| -> Res<()> {
            let mut s = st.borrow_mut();
            let to = place(&s, &target)?;
            let from = s.unit(r.0).map_err(host_error)?.pos;
            if from == to {
                return Ok(());
            }
            s.face(r.0, from.bearing_to(to)).map_err(host_error)
        }
    );
    let st = state.clone();
    host!(engine,
        /// Takes a unit out of play (killed, routed off the table, captured) and logs `legionary_1
        /// is removed: REASON`. A removed unit keeps its handle and its id, but the `units...`
        /// lists, `nearest_enemy` and line of sight no longer see it; `all_units()` still lists it.
        /// Removing a unit already out of play raises `` `legionary_1` is already out of play``.
        ///
        /// ```rhai
        /// let l = unit("legionary_1");
        /// l.remove("killed by viking_1");
        /// print(`${l.in_play} ${units("romans").len()} ${all_units().len()}`);
        /// l.restore();
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        ///   legionary_1 is removed: killed by viking_1
        /// false 9 20
        ///   legionary_1 returns to play
        /// ```
        fn (u: Unit) remove(reason: string) -> (),
        move |r: &mut UnitRef, reason: &str| -> Res<()> {
            st.borrow_mut().remove(r.0, reason).map_err(host_error)
        }
    );
    let st = state.clone();
    host!(engine,
        /// Brings a removed unit back into play and logs `legionary_1 returns to play` (nothing if
        /// it is in play).
        fn (u: Unit) restore() -> (),
        move |r: &mut UnitRef| -> Res<()> {
            st.borrow_mut().restore(r.0).map_err(host_error)
        }
    );
    let st = state.clone();
    host!(engine,
        /// Whether the two units fight for different sides.
        ///
        /// ```rhai
        /// let v = unit("viking_1");
        /// print(v.is_enemy(unit("legionary_1")));
        /// print(v == unit("viking_1") && v != unit("viking_2"));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// true
        /// true
        /// ```
        fn (u: Unit) is_enemy(other: Unit) -> bool,
        move |a: &mut UnitRef, b: UnitRef| -> Res<bool> {
            let s = st.borrow();
            Ok(s.unit(a.0).map_err(host_error)?.side != s.unit(b.0).map_err(host_error)?.side)
        }
    );
    let st = state.clone();
    host!(engine,
        /// Its id (`<gone>` for a handle on no unit): what `print(u)` and `` `${u}` `` give.
        fn (u: Unit) to_string() -> string,
        move |r: &mut UnitRef| -> String {
            st.borrow()
                .unit(r.0)
                .map(|u| u.id.clone())
                .unwrap_or_else(|_| "<gone>".into())
        }
    );
    let st = state.clone();
    host!(engine,
        /// `id (name)`, as a unit shows in an array or with `debug`.
        fn (u: Unit) to_debug() -> string,
        move |r: &mut UnitRef| -> String {
            st.borrow()
                .unit(r.0)
                .map(|u| u.label())
                .unwrap_or_else(|_| "<gone>".into())
        }
    );
    host!(engine,
        /// Whether both handles refer to the same unit.
        op (a: Unit) == (b: Unit) -> bool,
        |a: UnitRef, b: UnitRef| a == b
    );
    host!(engine,
        /// Whether the handles refer to different units.
        op (a: Unit) != (b: Unit) -> bool,
        |a: UnitRef, b: UnitRef| a != b
    );

    register_new_unit(engine, state, ruleset);
}

fn register_new_unit(engine: &mut Engine, state: &Shared, ruleset: &Ruleset) {
    // `new_unit(id, troop, side, at)` (`spawn` is a Rhai keyword): a new figure of a troop
    // type from the ruleset's chart.
    let st = state.clone();
    let chart = ruleset.clone();
    host!(engine,
        /// Puts a new figure of a troop type from the ruleset's chart on the table during the game
        /// (a rider stepping down from a dying elephant). The id must be new; the figure gets the
        /// troop type's name, base, stats and abilities (only abilities the game has loaded can
        /// act). Logs `elephant_1_rider comes onto the table at (10, 19.5)`; undone with its action
        /// like any change. (`spawn` is a Rhai keyword, hence the name.) Raises ``unknown troop
        /// type `TYPE` `` with a did-you-mean, and `` `ID` is not a usable unit id``.
        fn new_unit(id: string, troop: string, side: string, at: place) -> Unit,
        move |id: &str, troop: &str, side: &str, at: Dynamic| -> Res<UnitRef> {
            let spec = chart.troop(troop).ok_or_else(|| {
                host_error(format!(
                    "unknown troop type `{troop}`{}",
                    crate::host::suggest::suggestion_suffix(
                        troop,
                        chart.file.troops.keys().map(String::as_str)
                    )
                ))
            })?;
            if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(host_error(format!("`{id}` is not a usable unit id")));
            }
            let mut s = st.borrow_mut();
            let pos = place(&s, &at)?;
            let unit = Unit {
                id: id.to_string(),
                name: spec.name.clone(),
                side: side.to_string(),
                troop: troop.to_string(),
                pos,
                facing: 0.0,
                base: chart.base_of(spec),
                stats: spec.stats.clone(),
                hits: 0,
                stands: 1,
                tags: Default::default(),
                abilities: spec.abilities.clone(),
                groups: Default::default(),
                in_play: true,
            };
            s.spawn(unit).map(UnitRef).map_err(host_error)
        }
    );
}
