//! Special abilities: what an ability declares about itself and how its uses are counted.
//!
//! An ability's behaviour is a script in its ruleset's package
//! (`scripts/rulesets/<ruleset>/abilities/<name>.rhai`, see `docs/abilities.md`);
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
    /// Hooks it answers before the unit's other abilities: a base the others add to (Samurai's
    /// "2 attacking and 2 defending die", Elite's "considered heavy infantry"), where the
    /// others' `+1` must count on top.
    #[serde(default)]
    pub first: Vec<String>,
    /// Anything else the ability declares for its ruleset's scripts, which read it with
    /// `ability_meta(name)` (Playmobil's `special` and `formation`, say): the host gives it no
    /// meaning.
    #[serde(flatten)]
    pub extra: std::collections::BTreeMap<String, serde_json::Value>,
}

impl AbilityMeta {
    /// The fields the host reads; a ruleset names any others its abilities use.
    pub const FIELDS: &[&str] = &[
        "name",
        "activation",
        "uses",
        "rest",
        "lasts",
        "troops",
        "overrides",
        "first",
    ];
}

/// Why an ability cannot be used now.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UseRefused {
    /// It is always in force.
    #[error("{0} is always in force: there is nothing to use")]
    AlwaysOn(String),
    /// A use is in force already.
    #[error("{0} is already in force")]
    InForce(String),
    /// Every use of the battle is spent.
    #[error("{name} is spent: it can be used {} a battle", if *uses == 1 { "once".to_string() } else { format!("{uses} times") })]
    Spent {
        /// The ability's name.
        name: String,
        /// Its uses a battle.
        uses: u32,
    },
    /// It must rest between uses.
    #[error("{name} must rest {rest} turn{} between uses: it can be used again on turn {turn}", if *rest == 1 { "" } else { "s" })]
    Resting {
        /// The ability's name.
        name: String,
        /// Whole turns between uses.
        rest: u32,
        /// The turn it may be used again.
        turn: i64,
    },
}

/// How one unit has used one ability so far.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AbilityUse {
    /// Times used.
    pub used: u32,
    /// The play (see [`Clock`]) of the last use.
    pub last_used: Option<i64>,
    /// Whether a use is in force (until `until`, or until ended when that is none).
    pub active: bool,
    /// The last play (see [`Clock`]) the current use lasts.
    pub until: Option<i64>,
}

/// Where the game stands, for counting uses: `play` counts every side's turn (the first side's
/// turn 1 is play 1, the second side's is play 2, ...), so that "lasts a turn" can mean until
/// the user's side plays again, whichever side moves first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// The game's turn number.
    pub turn: i64,
    /// Sides' turns played so far, this one included.
    pub play: i64,
    /// How many sides take turns.
    pub sides: i64,
}

impl Clock {
    /// The game turn of a later play by the same side.
    fn turn_of(&self, play: i64) -> i64 {
        self.turn + (play - self.play).div_euclid(self.sides.max(1))
    }
}

impl AbilityMeta {
    /// Whether a troop type may have this ability.
    pub fn allows_troop(&self, troop: &str) -> bool {
        self.troops
            .as_ref()
            .is_none_or(|t| t.iter().any(|x| x == troop))
    }

    /// Why the ability cannot be used now, if it cannot.
    pub fn check_use(&self, state: &AbilityUse, now: Clock) -> Result<(), UseRefused> {
        let name = || self.name.clone();
        if self.activation == Activation::Always {
            return Err(UseRefused::AlwaysOn(name()));
        }
        if self.is_active(state, now) {
            return Err(UseRefused::InForce(name()));
        }
        if let Some(uses) = self.uses
            && state.used >= uses
        {
            return Err(UseRefused::Spent { name: name(), uses });
        }
        if let Some(last) = state.last_used {
            // Rest counts whole turns of the game: the same side's plays.
            let ready = last + (i64::from(self.rest) + 1) * now.sides.max(1);
            if now.play < ready {
                return Err(UseRefused::Resting {
                    name: name(),
                    rest: self.rest,
                    turn: now.turn_of(ready),
                });
            }
        }
        Ok(())
    }

    /// The state after using the ability now (after [`AbilityMeta::check_use`]). A use that
    /// lasts N turns lasts until the user's side has played N more times, so the enemy's
    /// turns in between are covered.
    pub fn used(&self, state: &AbilityUse, now: Clock) -> AbilityUse {
        AbilityUse {
            used: state.used + 1,
            last_used: Some(now.play),
            active: true,
            until: self
                .lasts
                .map(|n| now.play + i64::from(n.max(1)) * now.sides.max(1) - 1),
        }
    }

    /// Whether the ability is in force now.
    pub fn is_active(&self, state: &AbilityUse, now: Clock) -> bool {
        match self.activation {
            Activation::Always => true,
            _ => state.active && state.until.is_none_or(|u| now.play <= u),
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
            first: vec![],
            extra: Default::default(),
        }
    }

    /// Two sides: play 1 is turn 1 of the first side, play 2 turn 1 of the second, ...
    fn at(play: i64) -> Clock {
        Clock {
            turn: (play + 1) / 2,
            play,
            sides: 2,
        }
    }

    #[test]
    fn once_a_battle_is_spent_after_one_use() {
        let m = meta(Activation::Chosen, Some(1), 0, Some(1));
        let s = m.used(&AbilityUse::default(), at(1));
        assert!(m.is_active(&s, at(1)));
        assert!(m.is_active(&s, at(2)), "lasts through the enemy's turn");
        assert!(!m.is_active(&s, at(3)), "ends when its side plays again");
        assert_eq!(
            m.check_use(&s, at(5)).unwrap_err().to_string(),
            "Test is spent: it can be used once a battle"
        );
        assert_eq!(m.uses_left(&s), Some(0));
    }

    #[test]
    fn a_turn_covers_the_enemy_turn_whoever_moves_first() {
        // Used by the side that moves second (play 2): still in force in play 3.
        let m = meta(Activation::Chosen, Some(1), 0, Some(1));
        let s = m.used(&AbilityUse::default(), at(2));
        assert!(m.is_active(&s, at(3)));
        assert!(!m.is_active(&s, at(4)));
    }

    #[test]
    fn rest_counts_whole_turns_between_uses() {
        // Charge: once every 3 turns, so used on turn 1 it is ready on turn 4.
        let m = meta(Activation::Triggered, None, 2, Some(1));
        let s = m.used(&AbilityUse::default(), at(1));
        assert_eq!(
            m.check_use(&s, at(5)).unwrap_err(),
            UseRefused::Resting {
                name: "Test".into(),
                rest: 2,
                turn: 4
            }
        );
        assert!(m.check_use(&s, at(7)).is_ok());
    }

    #[test]
    fn always_on_abilities_are_active_and_not_used() {
        let m = meta(Activation::Always, None, 0, None);
        assert!(m.is_active(&AbilityUse::default(), at(7)));
        assert!(m.check_use(&AbilityUse::default(), at(7)).is_err());
    }

    #[test]
    fn troop_restrictions() {
        let m = meta(Activation::Always, None, 0, None);
        assert!(m.allows_troop("heavy_cavalry"));
        assert!(!m.allows_troop("light_infantry"));
    }
}
