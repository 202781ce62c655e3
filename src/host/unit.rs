//! Units: the figures, stands and elements on the table.
//!
//! A [`Unit`] is plain data: who it is, where it stands, which way it faces, its base, its
//! stats (from the ruleset's troop data, overridden by the scenario), hits, stands, status
//! tags, abilities and group membership. It never changes itself: every change goes through
//! the session so that it is logged (see `session.rs`).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::host::geometry::{Base, Footprint, Point, ShapeError, check_point};
pub use crate::limits::{MAX_NAME, MAX_STAT, MAX_STAT_LIST};

/// One value in a unit's stat map: whatever the ruleset's troop chart holds.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Stat {
    /// A yes/no property, e.g. `mounted: true`.
    Bool(bool),
    /// A whole number, e.g. `attack: 2`.
    Int(i64),
    /// A measurement, e.g. `move: 1.5`.
    Float(f64),
    /// A word, e.g. `class: cavalry`.
    Text(String),
    /// A list of words or numbers, e.g. `kinds: [woods, hill]`, at most [`MAX_STAT_LIST`]
    /// long; its items are never lists.
    List(Vec<Stat>),
}

/// Read by hand rather than as an untagged enum, so that a value of no kind a stat can be
/// says what a stat is, not serde's "did not match any variant of untagged enum Stat".
impl<'de> Deserialize<'de> for Stat {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Stat, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Stat;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "a stat: a number, a word, `true` or `false`, or a list of words and numbers",
                )
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Stat, E> {
                Ok(Stat::Bool(v))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Stat, E> {
                Ok(Stat::Int(v))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Stat, E> {
                Ok(i64::try_from(v).map_or(Stat::Float(v as f64), Stat::Int))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Stat, E> {
                Ok(Stat::Float(v))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Stat, E> {
                Ok(Stat::Text(v.to_string()))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Stat, E> {
                Ok(Stat::Text(v))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Stat, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<Stat>()? {
                    if matches!(item, Stat::List(_)) {
                        return Err(serde::de::Error::custom(
                            "a list stat holds words and numbers, not lists",
                        ));
                    }
                    if items.len() == MAX_STAT_LIST {
                        return Err(serde::de::Error::custom(format!(
                            "a list stat holds at most {MAX_STAT_LIST} items"
                        )));
                    }
                    items.push(item);
                }
                Ok(Stat::List(items))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// What a file may write for a stat, for editors (see `game::schema`): what the reader above
/// takes and [`Stat::check`] lets through, a number within [`MAX_STAT`] of zero.
impl schemars::JsonSchema for Stat {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Stat".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let one = |what: &str| {
            schemars::json_schema!({
                "description": what,
                "type": ["boolean", "number", "string"],
                "minimum": -MAX_STAT,
                "maximum": MAX_STAT,
            })
        };
        schemars::json_schema!({
            "description": "A stat: a number, a word, `true` or `false`, or a list of words and numbers.",
            "anyOf": [
                one("A number, a word, or `true` or `false`: `attack: 2`, `move: 1.5`, `class: cavalry`, `mounted: true`."),
                {
                    "description": "A list of words and numbers: `kinds: [woods, hill]`.",
                    "type": "array",
                    "items": one("A word or a number."),
                    "maxItems": MAX_STAT_LIST,
                },
            ],
        })
    }
}

impl Stat {
    /// The stat as a number, if it is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Stat::Int(i) => Some(*i as f64),
            Stat::Float(f) => Some(*f),
            _ => None,
        }
    }

    /// The stat as a whole number, if it is one.
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Stat::Int(i) => Some(*i),
            _ => None,
        }
    }
}

/// Why a value cannot be held by a unit: the table holds finite numbers of a sane size only,
/// so that no later sum or comparison meets an infinity, a NaN or an overflow.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ValueError {
    /// A number that is not finite.
    #[error("{what} must be a finite number, got {value}")]
    NotFinite {
        /// What the number is: `stat \`attack\``.
        what: String,
        /// The number given.
        value: f64,
    },
    /// A number further from zero than [`MAX_STAT`].
    #[error("{what} must be from -{MAX_STAT} to {MAX_STAT}, got {value}")]
    OutOfRange {
        /// What the number is: `hits`.
        what: String,
        /// The number given, as written.
        value: String,
    },
    /// A name longer than [`MAX_NAME`] characters.
    #[error("a name has at most {MAX_NAME} characters")]
    NameTooLong,
    /// A list stat too long, or holding lists.
    #[error("{what} must be a list of at most {MAX_STAT_LIST} words or numbers")]
    BadList {
        /// What the list is: `stat \`kinds\``.
        what: String,
    },
    /// A position, facing or base the table cannot hold.
    #[error(transparent)]
    Shape(#[from] ShapeError),
}

/// What one entry of a map or set costs beside its key and value (the tree's node share and
/// the string's own header), in the byte counts of [`Stat::bytes`] and [`Unit::bytes`].
pub const ENTRY_BYTES: usize = 48;

impl Stat {
    /// The bytes the stat holds, as counted against the game's byte limits
    /// (`limits::MAX_TABLE_BYTES`): its own size and its text.
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Stat>()
            + match self {
                Stat::Text(t) => t.len(),
                Stat::List(items) => items.iter().map(Stat::bytes).sum(),
                _ => 0,
            }
    }

    /// Checks that the table can hold the stat `name`: a finite number within [`MAX_STAT`] of
    /// zero (a word or a yes/no always can).
    pub fn check(&self, name: &str) -> Result<(), ValueError> {
        let what = || format!("stat `{name}`");
        match *self {
            Stat::Int(i) => check_count(&what(), i),
            Stat::Float(x) if !x.is_finite() => Err(ValueError::NotFinite {
                what: what(),
                value: x,
            }),
            Stat::Float(x) if x.abs() > MAX_STAT as f64 => Err(ValueError::OutOfRange {
                what: what(),
                value: crate::host::geometry::number(x),
            }),
            Stat::List(ref items) => {
                if items.len() > MAX_STAT_LIST || items.iter().any(|i| matches!(i, Stat::List(_))) {
                    return Err(ValueError::BadList { what: what() });
                }
                items.iter().try_for_each(|i| i.check(name))
            }
            _ => Ok(()),
        }
    }
}

/// Checks that a count (hits, stands, a whole-number stat) is within [`MAX_STAT`] of zero.
pub fn check_count(what: &str, value: i64) -> Result<(), ValueError> {
    if value.unsigned_abs() > MAX_STAT.unsigned_abs() {
        Err(ValueError::OutOfRange {
            what: what.to_string(),
            value: value.to_string(),
        })
    } else {
        Ok(())
    }
}

impl fmt::Display for Stat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stat::Bool(b) => write!(f, "{b}"),
            Stat::Int(i) => write!(f, "{i}"),
            Stat::Float(x) => write!(f, "{x}"),
            Stat::Text(s) => write!(f, "{s}"),
            Stat::List(items) => {
                write!(f, "[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{item}")?;
                }
                write!(f, "]")
            }
        }
    }
}

/// A unit (a single figure in skirmish rules, a unit of stands in others).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Unique id, used at the prompt: `viking_1`.
    pub id: String,
    /// Display name: `Viking warrior`.
    pub name: String,
    /// The id of the side it fights for.
    pub side: String,
    /// Its troop type in the ruleset's data: `heavy_infantry`.
    pub troop: String,
    /// Centre of its base, in inches.
    pub pos: Point,
    /// Facing, degrees clockwise from north.
    pub facing: f64,
    /// Its base.
    pub base: Base,
    /// Stats from the troop chart with the scenario's overrides.
    pub stats: BTreeMap<String, Stat>,
    /// Hits taken.
    pub hits: i64,
    /// Stands (or figures) left.
    pub stands: i64,
    /// Status tags: `shaken`, `routed`, `blocked`, ...
    pub tags: BTreeSet<String>,
    /// Special abilities it has, by script name.
    pub abilities: Vec<String>,
    /// Groups it belongs to, by kind: `brigade: north`, `formation: cohort`.
    pub groups: BTreeMap<String, String>,
    /// False once it has been removed from play (killed, routed off, ...).
    pub in_play: bool,
}

impl Unit {
    /// The bytes the unit holds, as counted against the game's byte limits
    /// (`limits::MAX_TABLE_BYTES`): its texts, stats, tags, abilities and groups, each entry
    /// with [`ENTRY_BYTES`] beside it.
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Unit>()
            + self.id.len()
            + self.name.len()
            + self.side.len()
            + self.troop.len()
            + self
                .stats
                .iter()
                .map(|(k, v)| ENTRY_BYTES + k.len() + v.bytes())
                .sum::<usize>()
            + self
                .tags
                .iter()
                .map(|t| ENTRY_BYTES + t.len())
                .sum::<usize>()
            + self
                .abilities
                .iter()
                .map(|a| ENTRY_BYTES + a.len())
                .sum::<usize>()
            + self
                .groups
                .iter()
                .map(|(k, v)| ENTRY_BYTES + k.len() + v.len())
                .sum::<usize>()
    }

    /// Checks that the table can hold the unit: a position within reach, a finite facing, a
    /// base of a sane size, a name of at most [`MAX_NAME`] characters, and finite stats,
    /// hits and stands within [`MAX_STAT`] of zero.
    pub fn check(&self) -> Result<(), ValueError> {
        check_point("position", self.pos)?;
        if !self.facing.is_finite() {
            return Err(ValueError::NotFinite {
                what: "facing".into(),
                value: self.facing,
            });
        }
        self.base.validate()?;
        if self.name.chars().count() > MAX_NAME {
            return Err(ValueError::NameTooLong);
        }
        check_count("hits", self.hits)?;
        check_count("stands", self.stands)?;
        for (name, stat) in &self.stats {
            stat.check(name)?;
        }
        Ok(())
    }

    /// Where its base lies on the table.
    pub fn footprint(&self) -> Footprint {
        Footprint {
            pos: self.pos,
            facing: self.facing,
            base: self.base,
        }
    }

    /// A stat by name.
    pub fn stat(&self, name: &str) -> Option<&Stat> {
        self.stats.get(name)
    }

    /// Whether it carries a status tag.
    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.contains(tag)
    }

    /// `id (name)` for narration.
    pub fn label(&self) -> String {
        format!("{} ({})", self.id, self.name)
    }

    /// A plain figure on a 1-inch round base facing north, for tests.
    #[cfg(test)]
    pub(crate) fn figure(id: &str, side: &str, x: f64, y: f64) -> Unit {
        Unit {
            id: id.into(),
            name: id.into(),
            side: side.into(),
            troop: "light_infantry".into(),
            pos: Point::new(x, y),
            facing: 0.0,
            base: Base::Round { diameter: 1.0 },
            stats: BTreeMap::new(),
            hits: 0,
            stands: 1,
            tags: BTreeSet::new(),
            abilities: vec![],
            groups: BTreeMap::new(),
            in_play: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_conversions() {
        assert_eq!(Stat::Int(3).as_f64(), Some(3.0));
        assert_eq!(Stat::Float(1.5).as_i64(), None);
        assert_eq!(Stat::Text("cavalry".into()).as_f64(), None);
        assert_eq!(Stat::Bool(true).to_string(), "true");
    }
}
