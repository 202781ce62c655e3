//! Special abilities: what an ability declares about itself and how its uses are counted.
//!
//! An ability's behaviour is a script (`scripts/abilities/<name>.rhai`, see `docs/abilities.md`);
//! this module holds the plain data the host keeps so that no script can cheat: the metadata
//! an ability declares ([`AbilityMeta`]) and, per unit, how often it has been used and for how
//! long it is active ([`AbilityUse`]). Turns are the game's turn numbers.

use serde::{Deserialize, Serialize};

/// How an ability comes into force.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Activation {
    /// Always on (Elite troops, Samurai Code of Honor).
    Always,
    /// The player chooses to use it (Roman Testudo, Viking Berserker).
    Chosen,
    /// The rules use it when something happens (Charge when a cavalryman charges).
    Triggered,
}

/// What an ability script declares in its `meta()` function.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbilityMeta {
    /// Display name: `Roman Testudo`.
    pub name: String,
    /// How it comes into force.
    pub activation: Activation,
    /// Uses per battle; none means unlimited.
    #[serde(default)]
    pub uses: Option<u32>,
    /// Whole turns that must pass between two uses (Charge: 2, for once every 3 turns).
    #[serde(default)]
    pub rest: u32,
    /// How many turns one use lasts, counting the turn it is used; none means until it is
    /// ended. Ignored for abilities that are always on.
    #[serde(default)]
    pub lasts: Option<u32>,
    /// The troop types that may have it; none means any.
    #[serde(default)]
    pub troops: Option<Vec<String>>,
    /// Number hooks whose result replaces the value rather than adjusting it (shown as such
    /// in `explain`).
    #[serde(default)]
    pub overrides: Vec<String>,
    /// Whether a whole formation takes it up at once (Testudo, Shield Wall): the rules use it
    /// for every figure of the user's formation that has it.
    #[serde(default)]
    pub formation: bool,
    /// Whether it makes a unit one of the army's special units (the advanced abilities; not
    /// the troop types' own, such as Charge).
    #[serde(default)]
    pub special: bool,
}

/// How one unit has used one ability so far.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AbilityUse {
    /// Times used.
    pub used: u32,
    /// The turn of the last use.
    pub last_used: Option<i64>,
    /// Whether a use is in force (until `until`, or until ended when that is none).
    pub active: bool,
    /// The last turn the current use lasts.
    pub until: Option<i64>,
}

impl AbilityMeta {
    /// Whether a troop type may have this ability.
    pub fn allows_troop(&self, troop: &str) -> bool {
        self.troops
            .as_ref()
            .is_none_or(|t| t.iter().any(|x| x == troop))
    }

    /// Why the ability cannot be used now, if it cannot.
    pub fn check_use(&self, state: &AbilityUse, turn: i64) -> Result<(), String> {
        if self.activation == Activation::Always {
            return Err(format!(
                "{} is always in force: there is nothing to use",
                self.name
            ));
        }
        if self.is_active(state, turn) {
            return Err(format!("{} is already in force", self.name));
        }
        if let Some(uses) = self.uses
            && state.used >= uses
        {
            let times = if uses == 1 {
                "once".to_string()
            } else {
                format!("{uses} times")
            };
            return Err(format!(
                "{} is spent: it can be used {times} a battle",
                self.name
            ));
        }
        if let Some(last) = state.last_used {
            let ready = last + i64::from(self.rest) + 1;
            if turn < ready {
                return Err(format!(
                    "{} must rest {} turn{} between uses: it can be used again on turn {ready}",
                    self.name,
                    self.rest,
                    if self.rest == 1 { "" } else { "s" }
                ));
            }
        }
        Ok(())
    }

    /// The state after using the ability on `turn` (after [`AbilityMeta::check_use`]).
    pub fn used(&self, state: &AbilityUse, turn: i64) -> AbilityUse {
        AbilityUse {
            used: state.used + 1,
            last_used: Some(turn),
            active: true,
            until: self.lasts.map(|n| turn + i64::from(n.max(1)) - 1),
        }
    }

    /// Whether the ability is in force on `turn`.
    pub fn is_active(&self, state: &AbilityUse, turn: i64) -> bool {
        match self.activation {
            Activation::Always => true,
            _ => state.active && state.until.is_none_or(|u| turn <= u),
        }
    }

    /// Uses left this battle; none means unlimited.
    pub fn uses_left(&self, state: &AbilityUse) -> Option<u32> {
        self.uses.map(|u| u.saturating_sub(state.used))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(
        activation: Activation,
        uses: Option<u32>,
        rest: u32,
        lasts: Option<u32>,
    ) -> AbilityMeta {
        AbilityMeta {
            name: "Test".into(),
            activation,
            uses,
            rest,
            lasts,
            troops: Some(vec!["heavy_cavalry".into()]),
            overrides: vec![],
            formation: false,
            special: false,
        }
    }

    #[test]
    fn once_a_battle_is_spent_after_one_use() {
        let m = meta(Activation::Chosen, Some(1), 0, Some(1));
        let s = m.used(&AbilityUse::default(), 1);
        assert!(m.is_active(&s, 1));
        assert!(!m.is_active(&s, 2), "lasts one turn");
        assert_eq!(
            m.check_use(&s, 5).unwrap_err(),
            "Test is spent: it can be used once a battle"
        );
        assert_eq!(m.uses_left(&s), Some(0));
    }

    #[test]
    fn rest_counts_whole_turns_between_uses() {
        // Charge: once every 3 turns, so used on turn 1 it is ready on turn 4.
        let m = meta(Activation::Triggered, None, 2, Some(1));
        let s = m.used(&AbilityUse::default(), 1);
        assert!(m.check_use(&s, 3).unwrap_err().contains("again on turn 4"));
        assert!(m.check_use(&s, 4).is_ok());
    }

    #[test]
    fn always_on_abilities_are_active_and_not_used() {
        let m = meta(Activation::Always, None, 0, None);
        assert!(m.is_active(&AbilityUse::default(), 7));
        assert!(m.check_use(&AbilityUse::default(), 7).is_err());
    }

    #[test]
    fn troop_restrictions() {
        let m = meta(Activation::Always, None, 0, None);
        assert!(m.allows_troop("heavy_cavalry"));
        assert!(!m.allows_troop("light_infantry"));
    }
}
