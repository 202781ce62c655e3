//! What a ruleset declares about itself in `ruleset.yaml`, so that a mistake in its troop
//! chart, in a scenario, in a save or in a house rule is told at once rather than played:
//!
//! - `stats:`, every stat its units may carry, with its kind (a whole number, a number, a
//!   dice expression, a text, a list or a yes/no), its range or its allowed words, and its
//!   default. Loading holds the troop chart, each scenario's unit overrides and each save to
//!   them, and the scripts' `stat` and `set_stat` refuse a stat that is not declared. A stat
//!   whose name starts with `_` is the rules' private note: it is never declared, shown or
//!   written in a file.
//! - `hooks:`, every hook its rules ask through, with how it is asked (`ask` for a value,
//!   `allowed` for a permission, `notify` for a reaction: the function an ability or a house
//!   rule defines takes `(value, info)` for the first and `(info)` for the others), the
//!   fields of `info`, what the answer must be and what it means.
//!
//! Nothing here knows Rhai: the script layer turns script values into [`Stat`]s to check them.

use std::collections::BTreeMap;
use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::host::dice::DiceExpr;
use crate::host::geometry::number;
use crate::host::unit::Stat;

/// The kind of a stat, or of a hook's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Kind {
    /// A whole number: `attack: 2`.
    #[serde(rename = "whole")]
    Whole,
    /// A number, whole or not: `move: 1.5`.
    #[serde(rename = "number")]
    Number,
    /// A dice expression, written as text: `damage: "1d6+1"`.
    #[serde(rename = "dice")]
    Dice,
    /// A word or a text: `class: cavalry`.
    #[serde(rename = "text")]
    Text,
    /// A list of words or numbers: `kinds: [woods, hill]`.
    #[serde(rename = "list")]
    List,
    /// `true` or `false`: `shield: true`.
    #[serde(rename = "yes/no")]
    YesNo,
}

impl Kind {
    /// The kind in a house-ruler's words, with an article: "a whole number".
    pub fn described(self) -> &'static str {
        match self {
            Kind::Whole => "a whole number",
            Kind::Number => "a number",
            Kind::Dice => "a dice expression",
            Kind::Text => "a text",
            Kind::List => "a list",
            Kind::YesNo => "true or false",
        }
    }

    /// The kind as `ruleset.yaml` writes it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Whole => "whole",
            Kind::Number => "number",
            Kind::Dice => "dice",
            Kind::Text => "text",
            Kind::List => "list",
            Kind::YesNo => "yes/no",
        }
    }
}

/// One declared stat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = stat_decl_rules)]
pub struct StatDecl {
    /// What it holds.
    pub kind: Kind,
    /// The least and the greatest value a number may have (both included).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<[f64; 2]>,
    /// The words a text may be, or a list's items may be (any, when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub one_of: Vec<String>,
    /// The value a unit that does not carry it reads (`()` when there is none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Stat>,
    /// What it means, for the table and for editors.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub means: String,
}

impl StatDecl {
    /// What a value must be, in words: "a whole number from 0 to 10", "one of `infantry`,
    /// `cavalry`".
    pub fn expected(&self) -> String {
        let mut text = self.kind.described().to_string();
        if let Some([lo, hi]) = self.range {
            text.push_str(&format!(" from {} to {}", number(lo), number(hi)));
        }
        if !self.one_of.is_empty() {
            let words = self
                .one_of
                .iter()
                .map(|w| format!("`{w}`"))
                .collect::<Vec<_>>()
                .join(", ");
            match self.kind {
                Kind::List => text.push_str(&format!(" of {words}")),
                _ => text = format!("one of {words}"),
            }
        }
        text
    }

    /// Whether `value` is what the stat holds; the error says what it must be.
    pub fn check(&self, value: &Stat) -> Result<(), String> {
        let fits = match (self.kind, value) {
            (Kind::Whole, Stat::Int(i)) => self.in_range(*i as f64),
            (Kind::Number, Stat::Int(i)) => self.in_range(*i as f64),
            (Kind::Number, Stat::Float(x)) => self.in_range(*x),
            (Kind::Dice, Stat::Text(t)) => DiceExpr::parse(t).is_ok(),
            (Kind::Text, Stat::Text(t)) => self.allowed_word(t),
            (Kind::YesNo, Stat::Bool(_)) => true,
            (Kind::List, Stat::List(items)) => items.iter().all(|item| match item {
                Stat::Text(t) => self.allowed_word(t),
                Stat::Int(_) | Stat::Float(_) => self.one_of.is_empty(),
                _ => false,
            }),
            _ => false,
        };
        if fits {
            Ok(())
        } else {
            Err(format!("must be {}, not {}", self.expected(), shown(value)))
        }
    }

    fn in_range(&self, x: f64) -> bool {
        self.range.is_none_or(|[lo, hi]| lo <= x && x <= hi)
    }

    fn allowed_word(&self, word: &str) -> bool {
        self.one_of.is_empty() || self.one_of.iter().any(|w| w == word)
    }

    /// Whether the declaration itself makes sense (a range for numbers only, words for texts
    /// and lists only, a default of its own kind); the error says what is wrong.
    pub fn validate(&self) -> Result<(), String> {
        if let Some([lo, hi]) = self.range {
            if !matches!(self.kind, Kind::Whole | Kind::Number) {
                return Err(format!(
                    "`range` is for numbers, and this stat is {}",
                    self.kind.described()
                ));
            }
            if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
                return Err(format!(
                    "`range` must be two finite numbers, the least first, not [{}, {}]",
                    number(lo),
                    number(hi)
                ));
            }
        }
        if !self.one_of.is_empty() && !matches!(self.kind, Kind::Text | Kind::List) {
            return Err(format!(
                "`one_of` is for texts and lists, and this stat is {}",
                self.kind.described()
            ));
        }
        if let Some(default) = &self.default {
            self.check(default)
                .map_err(|e| format!("its `default` {e}"))?;
        }
        Ok(())
    }
}

/// A value as a house-ruler wrote it, for an error: a text in quotes, a list in brackets.
fn shown(value: &Stat) -> String {
    match value {
        Stat::Text(t) => format!("`{t}`"),
        Stat::List(items) => format!(
            "[{}]",
            items.iter().map(shown).collect::<Vec<_>>().join(", ")
        ),
        other => format!("`{other}`"),
    }
}

/// How the rules ask a hook, which says what its function takes and answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum HookKind {
    /// `ask(hook, unit, value, info)`: each answerer gets the value so far and gives the new
    /// one. Its function is `fn HOOK(value, info)`.
    Ask,
    /// `allowed(hook, unit, info)`: each answerer says yes or no; any no forbids. Its
    /// function is `fn HOOK(info)`.
    Allowed,
    /// `notify(hook, unit, info)`: each answerer reacts; the answer is not used. Its function
    /// is `fn HOOK(info)`.
    Notify,
}

impl HookKind {
    /// The host function the rules ask it with: `ask`, `allowed` or `notify`.
    pub fn asked_with(self) -> &'static str {
        match self {
            HookKind::Ask => "ask",
            HookKind::Allowed => "allowed",
            HookKind::Notify => "notify",
        }
    }

    /// How many parameters its function takes.
    pub fn arity(self) -> usize {
        match self {
            HookKind::Ask => 2,
            HookKind::Allowed | HookKind::Notify => 1,
        }
    }
}

/// The field every hook's `info` has: the unit asked about.
pub const INFO_UNIT: &str = "unit";

/// One declared hook.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = hook_decl_rules)]
pub struct HookDecl {
    /// How the rules ask it.
    pub kind: HookKind,
    /// What it means: the number, permission or event it is about.
    #[schemars(regex(pattern = r"\S"))]
    pub means: String,
    /// For an `ask` hook, what the value it is given (and gives back) is called: its
    /// function's first parameter, `dice` in `fn defend_dice(dice, info)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = IDENTIFIER))]
    pub value: Option<String>,
    /// For an `ask` hook, what its answer must be (anything, when not given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<Kind>,
    /// The fields of `info` besides `unit` (which every hook has), each with what it is.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schemars(extend("propertyNames" = { "pattern": IDENTIFIER }))]
    pub info: BTreeMap<String, String>,
}

impl HookDecl {
    /// The parameter names of its function: `["dice", "info"]`, `["info"]`.
    pub fn params(&self) -> Vec<String> {
        match self.kind {
            HookKind::Ask => vec![
                self.value.clone().unwrap_or_else(|| "value".into()),
                "info".into(),
            ],
            HookKind::Allowed | HookKind::Notify => vec!["info".into()],
        }
    }

    /// Every field of `info`, `unit` first.
    pub fn info_fields(&self) -> impl Iterator<Item = &str> {
        std::iter::once(INFO_UNIT).chain(
            self.info
                .keys()
                .map(String::as_str)
                .filter(|f| *f != INFO_UNIT),
        )
    }

    /// Whether `info` has the field.
    pub fn has_field(&self, field: &str) -> bool {
        field == INFO_UNIT || self.info.contains_key(field)
    }

    /// Whether the declaration itself makes sense; the error says what is wrong.
    pub fn validate(&self) -> Result<(), String> {
        if self.means.trim().is_empty() {
            return Err("say what it means in `means`".into());
        }
        if self.kind != HookKind::Ask {
            if self.value.is_some() {
                return Err(format!(
                    "`value` is for `ask` hooks; an `{}` hook is given only `info`",
                    self.kind.asked_with()
                ));
            }
            if self.answer.is_some() {
                return Err(format!(
                    "`answer` is for `ask` hooks; an `{}` hook answers {}",
                    self.kind.asked_with(),
                    if self.kind == HookKind::Allowed {
                        "true or false"
                    } else {
                        "nothing"
                    }
                ));
            }
        }
        for name in self.value.iter().chain(self.info.keys()) {
            if !is_identifier(name) {
                return Err(format!(
                    "`{name}` is not a name a script can use: letters, digits and `_`, not starting with a digit"
                ));
            }
        }
        if self.value.as_deref() == Some("info") {
            return Err("`value` cannot be called `info`: that is the second parameter".into());
        }
        Ok(())
    }
}

/// What [`is_identifier`] takes, as a regular expression (for the schema of `ruleset.yaml`).
pub const IDENTIFIER: &str = "^[A-Za-z_][A-Za-z0-9_]*$";

/// The names a stat may be declared with: an identifier that is not a private note.
pub const DECLARABLE_STAT: &str = "^[A-Za-z][A-Za-z0-9_]*$";

/// What [`StatDecl::validate`] wants of a declaration's fields together, for the schema of
/// `ruleset.yaml`: a `range` for numbers only, `one_of` words for texts and lists only, a
/// `default` of the stat's kind. (A field given as null or empty is as good as left out.)
fn stat_decl_rules(schema: &mut schemars::Schema) {
    let kind_is = |kinds: &[Kind]| {
        let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
        serde_json::json!({ "properties": { "kind": { "enum": names } } })
    };
    let default_is = |json_type: serde_json::Value| serde_json::json!({ "properties": { "default": { "type": [json_type, "null"] } } });
    let rule = |when: serde_json::Value, then: serde_json::Value| serde_json::json!({ "if": when, "then": then });
    schema.insert(
        "allOf".into(),
        serde_json::json!([
            rule(
                serde_json::json!({ "required": ["range"], "properties": { "range": { "type": "array" } } }),
                kind_is(&[Kind::Whole, Kind::Number]),
            ),
            rule(
                serde_json::json!({ "required": ["one_of"], "properties": { "one_of": { "minItems": 1 } } }),
                kind_is(&[Kind::Text, Kind::List]),
            ),
            rule(kind_is(&[Kind::Whole]), default_is("integer".into())),
            rule(kind_is(&[Kind::Number]), default_is("number".into())),
            rule(kind_is(&[Kind::Dice, Kind::Text]), default_is("string".into())),
            rule(kind_is(&[Kind::List]), default_is("array".into())),
            rule(kind_is(&[Kind::YesNo]), default_is("boolean".into())),
        ]),
    );
}

/// What [`HookDecl::validate`] wants of a declaration's fields together, for the schema of
/// `ruleset.yaml`: `value` and `answer` for `ask` hooks only, and no `value` called `info`.
fn hook_decl_rules(schema: &mut schemars::Schema) {
    schema.insert(
        "allOf".into(),
        serde_json::json!([
            {
                "if": { "not": { "properties": { "kind": { "const": "ask" } } } },
                "then": {
                    "properties": { "value": { "type": "null" }, "answer": { "type": "null" } },
                },
            },
            { "properties": { "value": { "not": { "const": "info" } } } },
        ]),
    );
}

/// Whether `name` is a plain Rhai identifier.
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether a stat is the rules' private note (never declared, shown or written in a file).
pub fn is_private(stat: &str) -> bool {
    stat.starts_with('_')
}

/// The declaration of a stat, or why there is none: an undeclared name, with a did-you-mean
/// or the declared ones.
pub fn stat_decl<'a>(
    stats: &'a BTreeMap<String, StatDecl>,
    name: &str,
) -> Result<&'a StatDecl, (String, Option<String>)> {
    stats.get(name).ok_or_else(|| {
        let help = match crate::host::suggest::did_you_mean(name, stats.keys().map(String::as_str))
        {
            Some(s) => format!("did you mean `{s}`?"),
            None if stats.is_empty() => {
                "the ruleset declares no stats: declare it under `stats:` in its ruleset.yaml"
                    .into()
            }
            None => format!(
                "the ruleset's stats are: {}",
                stats
                    .keys()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        (format!("unknown stat `{name}`"), Some(help))
    })
}

/// Checks a unit's stat against the declarations: `Err(message, help)` names an undeclared
/// stat with a did-you-mean, or says what a declared one must be. A private note always
/// passes.
pub fn check_stat(
    stats: &BTreeMap<String, StatDecl>,
    name: &str,
    value: &Stat,
) -> Result<(), (String, Option<String>)> {
    // First what the table can hold at all (finite, within the host's limits), then what the
    // ruleset allows.
    value.check(name).map_err(|e| (e.to_string(), None))?;
    if is_private(name) {
        return Ok(());
    }
    let decl = stat_decl(stats, name)?;
    decl.check(value)
        .map_err(|e| (format!("stat `{name}` {e}"), None))
}

impl fmt::Display for HookDecl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.means)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decl(kind: Kind) -> StatDecl {
        StatDecl {
            kind,
            range: None,
            one_of: Vec::new(),
            default: None,
            means: String::new(),
        }
    }

    #[test]
    fn a_stat_holds_only_its_kind() {
        let whole = StatDecl {
            range: Some([0.0, 10.0]),
            ..decl(Kind::Whole)
        };
        assert!(whole.check(&Stat::Int(2)).is_ok());
        assert_eq!(
            whole.check(&Stat::Text("lots".into())).unwrap_err(),
            "must be a whole number from 0 to 10, not `lots`"
        );
        assert!(whole.check(&Stat::Int(11)).is_err());
        assert!(whole.check(&Stat::Float(2.5)).is_err());
        assert!(decl(Kind::Number).check(&Stat::Float(2.5)).is_ok());
        assert!(decl(Kind::Number).check(&Stat::Int(2)).is_ok());
        assert!(decl(Kind::Dice).check(&Stat::Text("1d6+1".into())).is_ok());
        assert!(decl(Kind::Dice).check(&Stat::Text("lots".into())).is_err());
        assert!(decl(Kind::YesNo).check(&Stat::Bool(true)).is_ok());
        assert!(decl(Kind::YesNo).check(&Stat::Int(1)).is_err());
        let class = StatDecl {
            one_of: vec!["infantry".into(), "cavalry".into()],
            ..decl(Kind::Text)
        };
        assert!(class.check(&Stat::Text("cavalry".into())).is_ok());
        assert_eq!(
            class.check(&Stat::Text("cavlry".into())).unwrap_err(),
            "must be one of `infantry`, `cavalry`, not `cavlry`"
        );
        let list = StatDecl {
            one_of: vec!["woods".into()],
            ..decl(Kind::List)
        };
        assert!(
            list.check(&Stat::List(vec![Stat::Text("woods".into())]))
                .is_ok()
        );
        assert!(
            list.check(&Stat::List(vec![Stat::Text("hill".into())]))
                .is_err()
        );
        assert!(list.check(&Stat::Text("woods".into())).is_err());
    }

    #[test]
    fn a_declaration_that_makes_no_sense_is_refused() {
        let bad_range = StatDecl {
            range: Some([0.0, 1.0]),
            ..decl(Kind::Text)
        };
        assert!(
            bad_range
                .validate()
                .unwrap_err()
                .contains("`range` is for numbers")
        );
        let upside_down = StatDecl {
            range: Some([5.0, 1.0]),
            ..decl(Kind::Whole)
        };
        assert!(upside_down.validate().is_err());
        let bad_default = StatDecl {
            default: Some(Stat::Text("x".into())),
            ..decl(Kind::Whole)
        };
        assert_eq!(
            bad_default.validate().unwrap_err(),
            "its `default` must be a whole number, not `x`"
        );
        let notify_with_value = HookDecl {
            kind: HookKind::Notify,
            means: "m".into(),
            value: Some("v".into()),
            answer: None,
            info: BTreeMap::new(),
        };
        assert!(notify_with_value.validate().is_err());
    }

    #[test]
    fn a_hooks_function_takes_its_kinds_parameters() {
        let ask = HookDecl {
            kind: HookKind::Ask,
            means: "m".into(),
            value: Some("dice".into()),
            answer: Some(Kind::Whole),
            info: [("attacker".to_string(), "who attacks".to_string())].into(),
        };
        assert_eq!(ask.params(), ["dice", "info"]);
        assert_eq!(ask.info_fields().collect::<Vec<_>>(), ["unit", "attacker"]);
        assert!(ask.has_field("unit") && ask.has_field("attacker") && !ask.has_field("x"));
        assert_eq!(HookKind::Allowed.arity(), 1);
    }
}
