//! Abilities: how rules reach the abilities' hooks, and the host's bookkeeping of each
//! unit's uses, rests and durations. The dispatcher itself is [`crate::script::hooks`].
//!
//! Registers:
//!
//! - `ask(hook, u, value, info)`, `allowed(hook, u, info)` and `notify(hook, u, info)`: the
//!   dispatcher's three ways to run a hook;
//! - `use_ability(u, name)`, `end_ability(u, name)`, `ability_active(u, name)`,
//!   `uses_left(u, name)`, `ability_ready(u, name)`, `has_ability(u, name)`,
//!   `give_ability(u, name)` and `ability_meta(name)`.

use rhai::{Dynamic, Engine, INT, Map, NativeCallContext};

use super::{Res, Shared, SharedAbilities, UnitRef, host_error, refusal, volatile, with_unit};

/// Registers the dispatcher's functions and the ability functions.
pub(super) fn register(engine: &mut Engine, state: &Shared, abilities: &SharedAbilities) {
    let (st, ab) = (state.clone(), abilities.clone());
    volatile!(engine, "ask", move |ctx: NativeCallContext,
                                   hook: &str,
                                   u: UnitRef,
                                   value: Dynamic,
                                   info: Map|
          -> Res<Dynamic> {
        ab.borrow().ask(ctx.engine(), &st, hook, u.0, value, info)
    });
    let (st, ab) = (state.clone(), abilities.clone());
    volatile!(engine, "allowed", move |ctx: NativeCallContext,
                                       hook: &str,
                                       u: UnitRef,
                                       info: Map|
          -> Res<bool> {
        ab.borrow().allowed(ctx.engine(), &st, hook, u.0, info)
    });
    let (st, ab) = (state.clone(), abilities.clone());
    volatile!(engine, "notify", move |ctx: NativeCallContext,
                                      hook: &str,
                                      u: UnitRef,
                                      info: Map|
          -> Res<()> {
        ab.borrow().notify(ctx.engine(), &st, hook, u.0, info)
    });

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
    volatile!(engine, "use_ability", move |u: UnitRef,
                                           name: &str|
          -> Res<()> {
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
    });
    let (st, ab) = (state.clone(), abilities.clone());
    volatile!(engine, "end_ability", move |u: UnitRef,
                                           name: &str|
          -> Res<()> {
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
    });
    let (st, ab) = (state.clone(), abilities.clone());
    volatile!(engine, "ability_active", move |u: UnitRef,
                                              name: &str|
          -> Res<bool> {
        let (meta, _) = lookup(&st, &ab, u, name)?;
        let s = st.borrow();
        Ok(meta.is_active(&s.ability_use(u.0, name), s.clock()))
    });
    let (st, ab) = (state.clone(), abilities.clone());
    volatile!(engine, "uses_left", move |u: UnitRef,
                                         name: &str|
          -> Res<Dynamic> {
        let (meta, _) = lookup(&st, &ab, u, name)?;
        let s = st.borrow();
        Ok(meta
            .uses_left(&s.ability_use(u.0, name))
            .map_or(Dynamic::UNIT, |n| Dynamic::from_int(INT::from(n))))
    });
    let ab = abilities.clone();
    volatile!(engine, "ability_meta", move |name: &str| -> Res<Dynamic> {
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
    });
    let (st, ab) = (state.clone(), abilities.clone());
    volatile!(engine, "ability_ready", move |u: UnitRef,
                                             name: &str|
          -> Res<bool> {
        let (meta, _) = lookup(&st, &ab, u, name)?;
        let s = st.borrow();
        Ok(meta.check_use(&s.ability_use(u.0, name), s.clock()).is_ok())
    });
    let (st, ab) = (state.clone(), abilities.clone());
    volatile!(engine, "give_ability", move |u: UnitRef,
                                            name: &str|
          -> Res<bool> {
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
    });
    let st = state.clone();
    volatile!(engine, "has_ability", move |u: UnitRef,
                                           name: &str|
          -> Res<bool> {
        with_unit(&st, u, |unit| unit.abilities.iter().any(|a| a == name))
    });
}
