//! Abilities: how rules reach the abilities' hooks, and the host's bookkeeping of each
//! unit's uses, rests and durations. The dispatcher itself is [`crate::script::hooks`].

use rhai::{Dynamic, Engine, INT, Map, NativeCallContext};

use super::{Res, Shared, SharedAbilities, UnitRef, host_error, refusal, with_unit};
use crate::script::metadata::host;

/// Registers the dispatcher's functions and the ability functions.
pub(super) fn register(engine: &mut Engine, state: &Shared, abilities: &SharedAbilities) {
    let (st, ab) = (state.clone(), abilities.clone());
    host!(engine,
        /// Runs `hook(value, info)` of each of `u`'s abilities in force that defines it, in the
        /// order the unit lists them, then of each house rule that defines it, in the order they
        /// were loaded, and returns the final value. The hook must be one the ruleset declares
        /// under `hooks:` in its `ruleset.yaml` (when it declares any). `info` always gains `unit`
        /// (the unit asked about). Records a line for `explain`: `defend dice for legionary_3: 2
        /// (heavy infantry) +1 testudo = 3`.
        ///
        /// ```rhai
        /// let ulf = unit("ulf");
        /// print(uses_left(ulf, "berserker"));
        /// print(ability_ready(ulf, "berserker"));
        /// print(ask("attack_dice", ulf, 1, #{ cause: "melee" }));
        /// print(ability_meta("berserker").name);
        /// print(give_ability(ulf, "berserker"));
        /// use_ability(ulf, "berserker");
        /// print(ability_ready(ulf, "berserker"));
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// 1
        /// true
        /// 1
        /// Viking Berserker
        /// false
        ///   ulf: Viking Berserker in force for a turn, no uses left
        /// false
        /// ```
        fn ask(hook: string, u: Unit, value: any, info: map) -> any,
        move |ctx: NativeCallContext, hook: &str, u: UnitRef, value: Dynamic, info: Map| -> Res<Dynamic> {
            ab.borrow().ask(ctx.engine(), &st, hook, u.0, value, info)
        }
    );
    let (st, ab) = (state.clone(), abilities.clone());
    host!(engine,
        /// Runs `hook(info)` of each of `u`'s abilities in force, then each house rule, that
        /// defines it; `false` if any answers `false` (recorded for `explain`: `can die for ulf:
        /// no, by berserker`). `info` always gains `unit`.
        fn allowed(hook: string, u: Unit, info: map) -> bool,
        move |ctx: NativeCallContext, hook: &str, u: UnitRef, info: Map| -> Res<bool> {
            ab.borrow().allowed(ctx.engine(), &st, hook, u.0, info)
        }
    );
    let (st, ab) = (state.clone(), abilities.clone());
    host!(engine,
        /// Runs `hook(info)` of each of `u`'s abilities in force, then each house rule, that
        /// defines it. `info` always gains `unit`.
        fn notify(hook: string, u: Unit, info: map) -> (),
        move |ctx: NativeCallContext, hook: &str, u: UnitRef, info: Map| -> Res<()> {
            ab.borrow().notify(ctx.engine(), &st, hook, u.0, info)
        }
    );

    // The checks every ability function makes: the unit has it, and it is loaded.
    fn lookup(
        st: &Shared,
        ab: &SharedAbilities,
        u: UnitRef,
        name: &str,
    ) -> Res<(crate::game::ability::AbilityMeta, String)> {
        let s = st.borrow();
        let unit = s.unit(u.0).map_err(host_error)?;
        if !unit.abilities.iter().any(|a| a == name) {
            let has = if unit.abilities.is_empty() {
                "none".to_string()
            } else {
                unit.abilities.join(", ")
            };
            return Err(refusal(format!(
                "{} has no ability `{name}` (its abilities: {has})",
                unit.id
            )));
        }
        let abilities = ab.borrow();
        let loaded = abilities
            .list
            .get(name)
            .ok_or_else(|| host_error(format!("ability `{name}` is not loaded")))?;
        Ok((loaded.meta.clone(), unit.id.clone()))
    }
    let (st, ab) = (state.clone(), abilities.clone());
    host!(engine,
        /// Uses a chosen or triggered ability now. Refuses (as a rule's `throw` does) when `u`
        /// lacks it, it is always on, in force already, spent (`ulf: Viking Berserker is spent: it
        /// can be used once a battle`) or resting (`... must rest 2 turns between uses: it can be
        /// used again on turn 4`). Logs `legionary_1: Roman Testudo in force`.
        fn use_ability(u: Unit, name: string) -> (),
        move |u: UnitRef, name: &str| -> Res<()> {
            let (meta, id) = lookup(&st, &ab, u, name)?;
            let mut s = st.borrow_mut();
            let before = s.ability_use(u.0, name);
            meta.check_use(&before, s.clock())
                .map_err(|why| refusal(format!("{id}: {why}")))?;
            let after = meta.used(&before, s.clock());
            let left = match meta.uses_left(&after) {
                Some(0) => ", no uses left".to_string(),
                Some(n) => format!(", {n} use{} left", if n == 1 { "" } else { "s" }),
                None => String::new(),
            };
            let lasts = match meta.lasts {
                Some(1) => " for a turn".to_string(),
                Some(n) => format!(" for {n} turns"),
                None => String::new(),
            };
            let what = format!("{} in force{lasts}{left}", meta.name);
            s.set_ability_use(u.0, name, after, &what);
            Ok(())
        }
    );
    let (st, ab) = (state.clone(), abilities.clone());
    host!(engine,
        /// Ends a use in force and logs `... ends`; nothing when it is not in force. Raises ``ulf
        /// has no ability `testudo` (its abilities: berserker)`` (a refusal, as a rule's `throw`
        /// is) for an ability the unit lacks.
        fn end_ability(u: Unit, name: string) -> (),
        move |u: UnitRef, name: &str| -> Res<()> {
            let (meta, _) = lookup(&st, &ab, u, name)?;
            let mut s = st.borrow_mut();
            let before = s.ability_use(u.0, name);
            if meta.is_active(&before, s.clock())
                && meta.activation != crate::game::ability::Activation::Always
            {
                let after = crate::game::ability::AbilityUse {
                    active: false,
                    until: None,
                    ..before
                };
                s.set_ability_use(u.0, name, after, &format!("{} ends", meta.name));
            }
            Ok(())
        }
    );
    let (st, ab) = (state.clone(), abilities.clone());
    host!(engine,
        /// Whether the ability is in force now. Raises ``ulf has no ability `testudo` (its
        /// abilities: berserker)`` (a refusal, as a rule's `throw` is) for an ability the unit
        /// lacks.
        fn ability_active(u: Unit, name: string) -> bool,
        move |u: UnitRef, name: &str| -> Res<bool> {
            let (meta, _) = lookup(&st, &ab, u, name)?;
            let s = st.borrow();
            Ok(meta.is_active(&s.ability_use(u.0, name), s.clock()))
        }
    );
    let (st, ab) = (state.clone(), abilities.clone());
    host!(engine,
        /// Uses left this battle (an `INT`), `()` when unlimited. Raises ``ulf has no ability
        /// `testudo` (its abilities: berserker)`` (a refusal, as a rule's `throw` is) for an
        /// ability the unit lacks.
        fn uses_left(u: Unit, name: string) -> any,
        move |u: UnitRef, name: &str| -> Res<Dynamic> {
            let (meta, _) = lookup(&st, &ab, u, name)?;
            let s = st.borrow();
            Ok(meta
                .uses_left(&s.ability_use(u.0, name))
                .map_or(Dynamic::UNIT, |n| Dynamic::from_int(INT::from(n))))
        }
    );
    let ab = abilities.clone();
    host!(engine,
        /// The ability's `meta()` map as the host read it (`name`, `activation`, `uses`, `rest`,
        /// `lasts`, `troops`, `overrides`, `first`, and the fields its ruleset declares in
        /// `ability_fields`, such as Playmobil's `formation` and `special`, where the ability gives
        /// them). Refuses ``no ability `NAME` is loaded in this game`` with a did-you-mean.
        fn ability_meta(name: string) -> map,
        move |name: &str| -> Res<Dynamic> {
            let abilities = ab.borrow();
            // A misspelt ability typed by a player: refused in the player's terms.
            let loaded = abilities.list.get(name).ok_or_else(|| {
                refusal(format!(
                    "no ability `{name}` is loaded in this game{}",
                    crate::host::suggest::suggestion_suffix(
                        name,
                        abilities.list.keys().map(String::as_str)
                    )
                ))
            })?;
            rhai::serde::to_dynamic(&loaded.meta)
        }
    );
    let (st, ab) = (state.clone(), abilities.clone());
    host!(engine,
        /// Whether `use_ability(u, name)` would be allowed now: not spent, not resting, not in
        /// force already (policies ask before they try). Raises ``ulf has no ability `testudo` (its
        /// abilities: berserker)`` (a refusal, as a rule's `throw` is) for an ability the unit
        /// lacks.
        fn ability_ready(u: Unit, name: string) -> bool,
        move |u: UnitRef, name: &str| -> Res<bool> {
            let (meta, _) = lookup(&st, &ab, u, name)?;
            let s = st.borrow();
            Ok(meta.check_use(&s.ability_use(u.0, name), s.clock()).is_ok())
        }
    );
    let (st, ab) = (state.clone(), abilities.clone());
    host!(engine,
        /// Gives the unit an ability during play, after those it has, and logs `eques_1: gains
        /// Charge`; `false` (and nothing logged) when it has it already. Only an ability the game
        /// has loaded (one a unit of the scenario had at the start) can be given; another is
        /// refused. The troop types in the ability's `troops` are not checked: a rule gives it
        /// because the unit has become what the ability is for (Playmobil: a footman who takes a
        /// dead rider's horse gains the Charge).
        fn give_ability(u: Unit, name: string) -> bool,
        move |u: UnitRef, name: &str| -> Res<bool> {
            // Only an ability this game has loaded (one a unit of the scenario has): a unit must
            // never hold a name no script answers for.
            let abilities = ab.borrow();
            let loaded = abilities.list.get(name).ok_or_else(|| {
                refusal(format!(
                    "no ability `{name}` is loaded in this game, so none can be given{}",
                    crate::host::suggest::suggestion_suffix(
                        name,
                        abilities.list.keys().map(String::as_str)
                    )
                ))
            })?;
            let what = format!("gains {}", loaded.meta.name);
            st.borrow_mut()
                .give_ability(u.0, name, &what)
                .map_err(host_error)
        }
    );
    let st = state.clone();
    host!(engine,
        /// Whether the unit has the ability (no error when it does not).
        fn has_ability(u: Unit, name: string) -> bool,
        move |u: UnitRef, name: &str| -> Res<bool> {
            with_unit(&st, u, |unit| unit.abilities.iter().any(|a| a == name))
        }
    );
}
