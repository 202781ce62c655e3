//! Scenarios: the YAML files players share (see `docs/scenario.md`).
//!
//! Loading is a pipeline: read the file, parse it strictly (unknown fields and bad values are
//! errors at their line and column), load the ruleset it names, then check every name against
//! what exists (troop types, abilities, scripts, sides) with a did-you-mean, and build the
//! battlefield. The result is a [`Scenario`] ready for a session.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;

use crate::error::{Error, read_file_within};
use crate::game::confine::{self, Refused};
use crate::game::project::Project;
use crate::game::ruleset::Ruleset;
use crate::game::yaml;
use crate::host::battlefield::Battlefield;
use crate::host::cards::{Card, Deck};
use crate::host::geometry::{Base, CONTACT_TOLERANCE, Point, short};
use crate::host::grid::Grid;
use crate::host::suggest::did_you_mean;
use crate::host::terrain::{Feature, KIND_NAMES, Shape, Slope, TerrainKind};
use crate::host::unit::{MAX_NAME, MAX_STAT, Stat, Unit};
use crate::limits::{MAX_COORDINATE, MAX_SIZE};

pub use crate::limits::MAX_HOUSE_RULES;
pub use crate::limits::{MAX_COUNT, MAX_UNITS};

/// A table edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Edge {
    /// The south edge, y = 0.
    South,
    /// The north edge, y = the table's depth.
    North,
    /// The west edge, x = 0.
    West,
    /// The east edge, x = the table's width.
    East,
}

impl Edge {
    /// The bearing straight towards this edge from anywhere on the table: the edge's compass
    /// word as a bearing (north 0, east 90, south 180, west 270).
    pub fn bearing(self) -> f64 {
        match self {
            Edge::North => 0.0,
            Edge::East => 90.0,
            Edge::South => 180.0,
            Edge::West => 270.0,
        }
    }
}

// The types below are what a scenario file is: serde reads the file into them, strictly,
// and `game::schema` makes the scenario's JSON Schema from them (their `///` docs are what an
// editor shows). So each says, in `schemars` attributes, what the checks after parsing want
// of it (sizes, ranges, ids) as far as a schema can say it, and no more.

/// The table's size in inches.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct TableSpec {
    /// West to east, in inches.
    #[schemars(extend("exclusiveMinimum" = 0), range(max = MAX_SIZE))]
    width: f64,
    /// South to north, in inches.
    #[schemars(extend("exclusiveMinimum" = 0), range(max = MAX_SIZE))]
    depth: f64,
}

/// A grid of square areas over the table, for rules that count areas; without `table`, the
/// table is the grid's size.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct GridSpec {
    /// Columns, west to east.
    #[schemars(range(min = 1, max = i32::MAX))]
    columns: u32,
    /// Rows, south to north.
    #[schemars(range(min = 1, max = i32::MAX))]
    rows: u32,
    /// The side of one square, in inches.
    #[schemars(extend("exclusiveMinimum" = 0), range(max = MAX_SIZE))]
    area: f64,
}

/// A rectangle lined up with the table.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RectSpec {
    /// Its south-west corner's x, in inches.
    #[schemars(range(min = -MAX_COORDINATE, max = MAX_COORDINATE))]
    x: f64,
    /// Its south-west corner's y, in inches.
    #[schemars(range(min = -MAX_COORDINATE, max = MAX_COORDINATE))]
    y: f64,
    /// West to east, in inches.
    #[schemars(extend("exclusiveMinimum" = 0), range(max = MAX_SIZE))]
    width: f64,
    /// South to north, in inches.
    #[schemars(extend("exclusiveMinimum" = 0), range(max = MAX_SIZE))]
    depth: f64,
}

/// A circle.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CircleSpec {
    /// Its centre, `[x, y]`.
    centre: Point,
    /// Its radius, in inches.
    #[schemars(extend("exclusiveMinimum" = 0), range(max = MAX_SIZE))]
    radius: f64,
}

/// A terrain feature: what it is and exactly one shape (`polygon`, `rect`, `circle` or
/// `line`).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = terrain_rules)]
struct TerrainSpec {
    /// What the feature is; woods, hills, towns and fortifications block line of sight
    /// unless `blocks_sight` says otherwise.
    #[schemars(with = "String", extend("enum" = KIND_NAMES))]
    kind: Spanned<String>,
    /// Its name, used in messages; by default its kind and its place in the list
    /// (`hill 2`).
    #[serde(default)]
    name: Option<String>,
    /// How steep a hill is (`gentle` when not given); only hills have a slope.
    #[serde(default)]
    #[schemars(extend("enum" = slopes()))]
    slope: Option<String>,
    /// A shape with at least 3 corners, `[x, y]` each, in order either way round; it must
    /// have some area.
    #[serde(default)]
    #[schemars(length(min = 3))]
    polygon: Option<Vec<Point>>,
    /// A rectangle lined up with the table: `x, y` is its south-west corner.
    #[serde(default)]
    rect: Option<RectSpec>,
    /// A circle.
    #[serde(default)]
    circle: Option<CircleSpec>,
    /// A line through at least 2 points, for roads, streams, walls and hedges: it covers
    /// everything within half its `width` of the line.
    #[serde(default)]
    #[schemars(length(min = 2))]
    line: Option<Vec<Point>>,
    /// The width of a `line` in inches (1 when not given); only lines have one.
    #[serde(default)]
    #[schemars(extend("exclusiveMinimum" = 0), range(max = MAX_SIZE))]
    width: Option<f64>,
    /// Whether it blocks line of sight (by default, as its kind does).
    #[serde(default)]
    blocks_sight: Option<bool>,
}

/// A unit, or with `count` a line of them.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct UnitSpec {
    /// The unit's id, typed at the prompt: letters, digits and `_`, starting with a letter.
    /// With `count`, the units are `ID_1`, `ID_2`, ...
    #[schemars(
        with = "String",
        regex(pattern = r"^[A-Za-z][A-Za-z0-9_]*$"),
        length(max = 64)
    )]
    id: Spanned<String>,
    /// Its troop type in the ruleset's troop chart: it gives the unit its stats, its base
    /// and its name.
    #[serde(rename = "type")]
    #[schemars(with = "String")]
    troop: Spanned<String>,
    /// Its display name (by default, its troop type's).
    #[serde(default)]
    #[schemars(length(max = MAX_NAME))]
    name: Option<String>,
    /// How many units this entry makes, in a line from `at` (1 when not given).
    #[serde(default)]
    // Read as any number, so that `2.5` or `-1` is told the rule (a whole number from 1 to
    // [`MAX_COUNT`]) rather than the type it failed to parse as.
    #[schemars(with = "Option<u32>", range(min = 1, max = MAX_COUNT))]
    count: Option<Spanned<f64>>,
    /// Where the centre of its base stands, `[x, y]` in inches: on the table.
    #[schemars(schema_with = "on_the_table")]
    at: Spanned<Point>,
    /// Which way it faces, in degrees clockwise from north (0 when not given).
    #[serde(default)]
    facing: Option<f64>,
    /// With `count`, how far apart the units stand, in inches, to the first one's right as
    /// it faces (negative: to its left); by default the base's width and half an inch.
    #[serde(default)]
    spacing: Option<f64>,
    /// Its base (by default its troop type's, else the ruleset's `default_base`).
    #[serde(default)]
    base: Option<Base>,
    /// Stats that override the troop chart's for this unit: `{ attack: 3 }`.
    #[serde(default)]
    stats: BTreeMap<String, Stat>,
    /// Special abilities: scripts in the ruleset's `abilities/` folder.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    abilities: Vec<Spanned<String>>,
    /// Status tags it starts with: `[hidden]`.
    #[serde(default)]
    tags: Vec<String>,
    /// The groups it belongs to, by kind: `{ formation: shield_wall }`.
    #[serde(default)]
    groups: BTreeMap<String, String>,
    /// Hits it has already taken.
    #[serde(default)]
    #[schemars(range(min = -MAX_STAT, max = MAX_STAT))]
    hits: i64,
    /// Stands or figures it has (1 when not given).
    #[serde(default)]
    #[schemars(range(min = -MAX_STAT, max = MAX_STAT))]
    stands: Option<i64>,
}

/// A side of the battle.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SideSpec {
    /// The side's id, used by scripts and at the prompt; two sides may not share one.
    #[schemars(with = "String")]
    id: Spanned<String>,
    /// Its display name (by default, its id).
    #[serde(default)]
    name: Option<String>,
    /// The table edge it sets up on.
    edge: Edge,
    /// Its units.
    #[serde(default)]
    units: Vec<UnitSpec>,
}

/// Which cards a scenario deck starts with: a named pack or a list of cards (read by hand,
/// so that anything else is told what it may be; errors point at the whole value).
#[derive(Clone, Debug)]
enum CardsSpec {
    Named(String),
    List(Vec<String>),
}

impl<'de> Deserialize<'de> for CardsSpec {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<CardsSpec, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = CardsSpec;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("`standard` or a list of cards such as [A♠, 10♥, K♦]")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<CardsSpec, E> {
                Ok(CardsSpec::Named(v.to_string()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<CardsSpec, A::Error> {
                let mut cards = Vec::new();
                while let Some(card) = seq.next_element::<String>()? {
                    cards.push(card);
                }
                Ok(CardsSpec::List(cards))
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// A deck of cards, reached by scripts with `deck(NAME)` and drawn at the prompt with
/// `draw NAME`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(extend(
    "if" = { "properties": { "jokers": { "const": true } }, "required": ["jokers"] },
    "then" = { "properties": { "cards": { "type": "string" } } }
))]
struct DeckSpec {
    /// `standard` for a 52-card deck, or a list of cards, the first on top: `[AS, 10H, TD,
    /// QC, JOKER]`.
    #[schemars(schema_with = "cards")]
    cards: Spanned<CardsSpec>,
    /// With `cards: standard`, add the two jokers (54 cards); a list names its jokers.
    #[serde(default)]
    jokers: bool,
    /// Keep only the top N cards after shuffling, from 1 to the number of cards.
    #[serde(default)]
    #[schemars(with = "Option<usize>", range(min = 1))]
    first: Option<Spanned<usize>>,
    /// Whether to shuffle the deck when the game starts.
    #[serde(default = "yes")]
    shuffle: bool,
}

fn yes() -> bool {
    true
}

/// A sandtable scenario: the table, its terrain, the sides and their units, decks of cards
/// and house rules, played with a ruleset (see docs/scenario.md).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ScenarioFile {
    /// The scenario's title, printed when a game starts.
    name: String,
    /// A line or two for the players.
    #[serde(default)]
    description: String,
    /// The ruleset it is played with: a folder under `scripts/rulesets/` of the project.
    #[schemars(with = "String")]
    ruleset: Spanned<String>,
    /// The seed to use when the command line gives no `--seed`.
    #[serde(default)]
    #[schemars(with = "Option<u64>", range(max = i64::MAX))]
    seed: Option<Spanned<u64>>,
    /// The table, in inches (72 x 48 when not given, or the grid's size).
    #[serde(default)]
    #[schemars(with = "Option<TableSpec>")]
    table: Option<Spanned<TableSpec>>,
    /// A grid of square areas, for rules that count areas.
    #[serde(default)]
    #[schemars(with = "Option<GridSpec>")]
    grid: Option<Spanned<GridSpec>>,
    /// The id of the side that plays first (without it, the ruleset's `setup` decides).
    #[serde(default)]
    #[schemars(with = "Option<String>")]
    first: Option<Spanned<String>>,
    /// Values of the ruleset's `data` changed for this scenario; a map is merged key by
    /// key, and every key must be one the ruleset has.
    #[serde(default)]
    #[schemars(with = "Option<BTreeMap<String, serde_json::Value>>")]
    data: Option<Spanned<BTreeMap<String, serde_json::Value>>>,
    /// Terrain features.
    #[serde(default)]
    terrain: Vec<TerrainSpec>,
    /// The sides, at least two, in the order scripts see them.
    #[schemars(with = "Vec<SideSpec>", length(min = 2))]
    sides: Spanned<Vec<SideSpec>>,
    /// Decks of cards, by name.
    #[serde(default)]
    decks: BTreeMap<String, DeckSpec>,
    /// Abilities every unit of a troop type has, by troop type: `{ heavy_infantry:
    /// [testudo] }`.
    #[serde(default)]
    #[schemars(with = "Option<BTreeMap<String, Vec<String>>>")]
    abilities: Option<Spanned<BTreeMap<String, Vec<Spanned<String>>>>>,
    /// House rule scripts, loaded after the ruleset in this order: paths inside the
    /// scenario's folder, relative to it.
    #[serde(default)]
    #[schemars(with = "Vec<String>", inner(regex(pattern = crate::game::confine::PLAIN_PATTERN)))]
    house_rules: Vec<Spanned<String>>,
}

// What the fields above need of the schema beyond their types (see `game::schema`).

/// What a terrain feature's `slope` may be: a slope's name, or null (left out).
fn slopes() -> Vec<serde_json::Value> {
    Slope::ALL
        .into_iter()
        .map(|s| s.name().into())
        .chain([serde_json::Value::Null])
        .collect()
}

/// `at` of a unit: a point on the table, whose sides are at most [`MAX_SIZE`].
fn on_the_table(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "type": "array",
        "items": { "type": "number", "minimum": 0, "maximum": MAX_SIZE },
        "minItems": 2,
        "maxItems": 2,
    })
}

/// A deck's `cards`: `standard`, or a list of cards as [`Card::parse`] reads them.
fn cards(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "anyOf": [
            { "enum": ["standard"] },
            {
                "type": "array",
                "items": { "type": "string", "pattern": Card::PATTERN },
            },
        ],
    })
}

/// What a terrain feature needs of its fields together: exactly one shape, `width` only with
/// a `line`, `slope` only on a hill. (A field given as null is as good as left out, as
/// serde reads it.)
fn terrain_rules(schema: &mut Schema) {
    let given = |field: &str| {
        serde_json::json!({
            "required": [field],
            "properties": { field: { "not": { "type": "null" } } },
        })
    };
    let shapes: Vec<serde_json::Value> = ["polygon", "rect", "circle", "line"]
        .into_iter()
        .map(given)
        .collect();
    schema.insert(
        "allOf".into(),
        serde_json::json!([
            { "oneOf": shapes },
            { "if": given("width"), "then": given("line") },
            {
                "if": { "properties": { "kind": { "const": "hill" } } },
                "else": { "properties": { "slope": { "type": "null" } } },
            },
        ]),
    );
}

/// A side of the battle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Side {
    /// Its id: `romans`.
    pub id: String,
    /// Its display name: `Rome`.
    pub name: String,
    /// The table edge it sets up on.
    pub edge: Edge,
}

/// A deck the scenario asks for, before the session shuffles it.
#[derive(Clone, Debug, PartialEq)]
pub struct DeckPlan {
    /// The deck, in new-deck order.
    pub deck: Deck,
    /// Whether to shuffle it at the start.
    pub shuffle: bool,
    /// Keep only the first N cards after shuffling (one card per turn, say).
    pub first: Option<usize>,
}

/// A loaded, checked scenario.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// The file it came from.
    pub path: PathBuf,
    /// Its title.
    pub name: String,
    /// Its description.
    pub description: String,
    /// The ruleset it is played with.
    pub ruleset: Ruleset,
    /// The seed it asks for, if any (`--seed` overrides it).
    pub seed: Option<u64>,
    /// The sides, in the order given.
    pub sides: Vec<Side>,
    /// The side that plays first, when the scenario says.
    pub first: Option<String>,
    /// The table, terrain and units.
    pub battlefield: Battlefield,
    /// The decks, by name.
    pub decks: BTreeMap<String, DeckPlan>,
    /// House-rule scripts, loaded after the ruleset, in order.
    pub house_rules: Vec<PathBuf>,
    /// Where the file gives each unit each ability, to point at when an ability turns out
    /// not to be for the unit's troop type (known only once its script has said so).
    pub ability_places: AbilityPlaces,
}

impl Scenario {
    /// An empty table for a ruleset (no sides, no units), to check its package as a game would
    /// load it, without a battle.
    pub fn empty(ruleset: Ruleset) -> Scenario {
        Scenario {
            path: ruleset.dir.join("ruleset.yaml"),
            name: format!("the ruleset `{}`", ruleset.id),
            description: String::new(),
            ruleset,
            seed: None,
            sides: Vec::new(),
            first: None,
            battlefield: Battlefield::new(72.0, 48.0),
            decks: BTreeMap::new(),
            house_rules: Vec::new(),
            ability_places: AbilityPlaces::default(),
        }
    }
}

/// Where a scenario file gives units their abilities: the file's name and text, and for
/// each (unit id, ability) the bytes of the name that gave it (the unit's own `abilities:`
/// list, else the scenario's `abilities:` for its troop type). An ability from the ruleset's
/// troop chart has no place here.
#[derive(Clone, Debug, Default)]
pub struct AbilityPlaces {
    name: String,
    text: std::sync::Arc<str>,
    places: BTreeMap<(String, String), std::ops::Range<usize>>,
}

impl AbilityPlaces {
    /// An error about `unit` having `ability`: at the place in the file that gave it, if
    /// the file did, else a plain one.
    pub fn error(
        &self,
        unit: &str,
        ability: &str,
        message: String,
        label: &str,
        help: Option<String>,
    ) -> Error {
        match self.places.get(&(unit.to_string(), ability.to_string())) {
            Some(bytes) => crate::error::YamlDiagnostic::new(
                &self.name,
                self.text.to_string(),
                bytes.clone(),
                message,
                label,
                help,
            )
            .into(),
            None => Error::other(message, help),
        }
    }
}

impl Scenario {
    /// The house rule in force whose name (file name without `.rhai`) is `name`.
    pub fn house_rule_named(&self, name: &str) -> Option<&PathBuf> {
        self.house_rules.iter().find(|p| house_rule_name(p) == name)
    }

    /// Puts a house rule given on the command line (`--with`) or at the prompt (`:with`) in
    /// force after the scenario's own: it must be a `.rhai` file, and is confined to its own
    /// folder as a scenario's are (its imports resolve there).
    pub fn add_house_rule(&mut self, path: &Path) -> Result<(), Error> {
        self.house_rules = house_rules_with(&self.house_rules, path)?;
        Ok(())
    }

    /// Loads and checks a scenario file.
    pub fn load(project: &Project, path: &Path) -> Result<Scenario, Error> {
        let text = read_file_within(
            path,
            "a scenario",
            crate::limits::MAX_SCENARIO_BYTES,
            "MAX_SCENARIO_BYTES",
        )?;
        Scenario::from_text(project, path, &text)
    }

    /// Parses and checks scenario text (as if read from `path`).
    pub fn from_text(project: &Project, path: &Path, text: &str) -> Result<Scenario, Error> {
        let name = path.display().to_string();
        let file: ScenarioFile = yaml::parse(&name, text)?;
        Builder {
            project,
            path,
            name: &name,
            text,
            ability_places: Default::default(),
        }
        .build(file)
    }
}

/// Checks a parsed file and builds the scenario, keeping the text for diagnostics.
struct Builder<'a> {
    project: &'a Project,
    path: &'a Path,
    name: &'a str,
    text: &'a str,
    /// Where each unit was given each ability (see [`AbilityPlaces`]).
    ability_places: std::cell::RefCell<BTreeMap<(String, String), std::ops::Range<usize>>>,
}

impl Builder<'_> {
    fn error<T>(
        &self,
        at: &Spanned<T>,
        message: String,
        label: &str,
        help: Option<String>,
    ) -> Error {
        yaml::at(self.name, self.text, at, &message, label, help)
    }

    /// Where in the text a spanned value starts.
    fn start_of<T>(&self, at: &Spanned<T>) -> usize {
        at.referenced
            .span()
            .byte_offset()
            .map_or(0, |b| b as usize)
            .min(self.text.len())
    }

    /// The line (from 1) a spanned value starts on.
    fn line_of<T>(&self, at: &Spanned<T>) -> usize {
        let start = self.start_of(at);
        self.text[..start].matches('\n').count() + 1
    }

    /// An error at the first occurrence of `needle` at or after a spanned value (for values
    /// inside it that serde cannot place), else at the value itself.
    fn error_at_text<T>(
        &self,
        at: &Spanned<T>,
        needle: &str,
        message: String,
        label: &str,
        help: Option<String>,
    ) -> Error {
        let start = self.start_of(at);
        match self.text[start..].find(needle) {
            Some(i) if !needle.is_empty() => {
                let range = start + i..start + i + needle.len();
                crate::error::YamlDiagnostic::new(self.name, self.text, range, message, label, help)
                    .into()
            }
            _ => self.error(at, message, label, help),
        }
    }

    /// Checks everything it can, collecting every problem rather than stopping at the first
    /// (only an unknown ruleset stops it: without the troop chart, units cannot be checked).
    fn build(&self, file: ScenarioFile) -> Result<Scenario, Error> {
        let mut ruleset = self.ruleset(&file.ruleset)?;
        let mut problems = Vec::new();
        let mut keep = |r: Result<(), Error>| {
            if let Err(e) = r {
                problems.push(e);
            }
        };
        if let Some(data) = &file.data {
            keep(self.override_data(data, &mut ruleset.file.data));
        }
        let mut battlefield = self.table(&file).unwrap_or_else(|e| {
            keep(Err(e));
            Battlefield::new(72.0, 48.0)
        });
        for (i, t) in file.terrain.iter().enumerate() {
            keep(
                self.terrain(i, t)
                    .map(|f| battlefield.terrain.features.push(f)),
            );
        }

        let abilities = ruleset.ability_names();
        let no_abilities = BTreeMap::new();
        let troop_abilities = file.abilities.as_ref().map_or(&no_abilities, |a| &a.value);
        for (troop, names) in troop_abilities {
            if let (None, Some(at)) = (ruleset.troop(troop), &file.abilities) {
                let help = did_you_mean(troop, ruleset.file.troops.keys().map(String::as_str))
                    .map(|s| format!("did you mean `{s}`?"));
                keep(Err(self.error_at_text(
                    at,
                    troop,
                    format!("`abilities` names unknown troop type `{troop}`"),
                    "not in the troop chart",
                    help,
                )));
            }
            for n in names {
                keep(self.check_ability(n, &abilities));
            }
        }

        let mut sides = Vec::new();
        let mut seen_sides = BTreeSet::new();
        let mut too_many = false;
        // The entry (by its place in `entries`) that made each unit, by the unit's index.
        let mut entries: Vec<&UnitSpec> = Vec::new();
        let mut entry_of: Vec<usize> = Vec::new();
        for side in &file.sides.value {
            if !seen_sides.insert(side.id.value.clone()) {
                keep(Err(self.error(
                    &side.id,
                    format!("two sides have the id `{}`", side.id.value),
                    "again here",
                    None,
                )));
                continue;
            }
            sides.push(Side {
                id: side.id.value.clone(),
                name: side.name.clone().unwrap_or_else(|| side.id.value.clone()),
                edge: side.edge,
            });
            for spec in &side.units {
                entries.push(spec);
                if too_many {
                    // Said once, at the entry that went past the limit.
                    break;
                }
                let units =
                    match self.units(spec, &side.id.value, &ruleset, troop_abilities, &abilities) {
                        Ok(units) => units,
                        Err(e) => {
                            keep(Err(e));
                            continue;
                        }
                    };
                for unit in units {
                    if battlefield.units().len() >= MAX_UNITS {
                        too_many = true;
                        keep(Err(self.error(
                            &spec.id,
                            format!(
                                "a scenario has at most {MAX_UNITS} units, and this entry makes `{}`, one more",
                                unit.id
                            ),
                            "one unit too many",
                            Some("make fewer units, or split the battle into smaller scenarios".into()),
                        )));
                        break;
                    }
                    if let Err(e) = unit.check() {
                        keep(Err(self.error(
                            &spec.id,
                            format!("`{}`: {e}", unit.id),
                            "this unit",
                            None,
                        )));
                        break;
                    }
                    if !battlefield.on_table(unit.pos) {
                        keep(Err(self.error(
                            &spec.at,
                            format!(
                                "`{}` stands at {} which is off the {}\" x {}\" table",
                                unit.id, unit.pos, battlefield.width, battlefield.depth
                            ),
                            "off the table",
                            Some("place it inside the table, or make the table larger".into()),
                        )));
                        break;
                    }
                    let id = unit.id.clone();
                    if let Err(e) = battlefield.add_unit(unit) {
                        keep(Err(self.error(
                            &spec.id,
                            e.to_string(),
                            &format!("`{id}` again"),
                            None,
                        )));
                        break;
                    }
                    entry_of.push(entries.len() - 1);
                }
            }
        }
        // After the count: past the limit no more units were made, and a heap of them on
        // one spot would bury that one message under thousands.
        if !too_many {
            let mut told = BTreeSet::new();
            for (later, earlier) in battlefield.first_overlaps() {
                // Said once an entry, at its first unit that overlaps, as its other faults.
                let entry = entry_of[later];
                if told.insert(entry) {
                    keep(Err(self.overlap(
                        entries[entry],
                        &battlefield,
                        later,
                        earlier,
                        entry_of[earlier] == entry,
                    )));
                }
            }
        }
        if file.sides.value.len() < 2 {
            keep(Err(self.error(
                &file.sides,
                format!(
                    "a battle needs at least two sides, found {}",
                    file.sides.value.len()
                ),
                "these sides",
                Some("add a side with its own `id` and `edge`".into()),
            )));
        }

        if let Some(seed) = &file.seed
            && seed.value > i64::MAX as u64
        {
            keep(Err(self.error(
                seed,
                format!("`seed` must be at most {}, got {}", i64::MAX, seed.value),
                "too large",
                None,
            )));
        }

        let first = match &file.first {
            Some(f) if !seen_sides.contains(&f.value) => {
                keep(Err(self.error(
                    f,
                    format!("`first` names unknown side `{}`", f.value),
                    "no such side",
                    did_you_mean(&f.value, seen_sides.iter().map(String::as_str))
                        .map(|s| format!("did you mean `{s}`?")),
                )));
                None
            }
            f => f.as_ref().map(|f| f.value.clone()),
        };

        let mut decks = BTreeMap::new();
        for (deck_name, spec) in &file.decks {
            keep(self.deck(deck_name, spec).map(|d| {
                decks.insert(deck_name.clone(), d);
            }));
        }

        let mut house_rules = Vec::new();
        if let Some(past) = file.house_rules.get(MAX_HOUSE_RULES) {
            // One error for the list, at the rule past the limit: loading each costs time.
            keep(Err(self.error(
                past,
                format!(
                    "a scenario may list at most {MAX_HOUSE_RULES} house rules, and this list has {}",
                    file.house_rules.len()
                ),
                "one too many",
                Some("put the rules of several house rules into one script".into()),
            )));
        } else {
            // Listed twice, a house rule would load and apply twice; and two of one name
            // could not be told apart in `explain`, `:rules` or `:without`.
            let mut named: BTreeMap<String, &Spanned<String>> = BTreeMap::new();
            for rule in &file.house_rules {
                let name = house_rule_name(Path::new(&rule.value));
                if let Some(first) = named.get(&name) {
                    let line = self.line_of(first);
                    let message = if first.value == rule.value {
                        format!("house rule `{}` is listed twice", rule.value)
                    } else {
                        format!(
                            "house rule `{}` has the name `{name}` of `{}`, listed before it",
                            rule.value, first.value
                        )
                    };
                    keep(Err(self.error(
                        rule,
                        message,
                        "listed twice",
                        Some(format!(
                            "it is listed at line {line} already: list each house rule once, and give house rules names of their own"
                        )),
                    )));
                    continue;
                }
                named.insert(name, rule);
                keep(self.house_rule(rule).map(|p| house_rules.push(p)));
            }
        }

        match problems.len() {
            0 => {}
            1 => return Err(problems.remove(0)),
            n => {
                return Err(Error::Several {
                    message: format!("{n} problems in {}", self.name),
                    problems,
                });
            }
        }
        Ok(Scenario {
            path: self.path.to_path_buf(),
            name: file.name,
            description: file.description,
            ruleset,
            seed: file.seed.map(|s| s.value),
            sides,
            first,
            battlefield,
            decks,
            house_rules,
            ability_places: AbilityPlaces {
                name: self.name.to_string(),
                text: self.text.into(),
                places: self.ability_places.take(),
            },
        })
    }

    /// Puts the scenario's `data:` over the ruleset's for this game: a map is merged key by
    /// key, anything else replaced. Every key must be one the ruleset has (a misspelt key
    /// would otherwise change nothing, silently).
    fn override_data(
        &self,
        data: &Spanned<BTreeMap<String, serde_json::Value>>,
        into: &mut BTreeMap<String, serde_json::Value>,
    ) -> Result<(), Error> {
        use serde_json::Value;
        /// A value's kind, as a house-ruler says it.
        fn kind(v: &Value) -> &'static str {
            match v {
                Value::Null => "nothing",
                Value::Bool(_) => "true or false",
                Value::Number(_) => "a number",
                Value::String(_) => "a text",
                Value::Array(_) => "a list",
                Value::Object(_) => "a map",
            }
        }
        /// Why a value cannot go where the ruleset has another: an unknown key (with the
        /// keys there are), or another kind of value.
        enum Wrong {
            Key(String, Vec<String>),
            Kind(String, &'static str, &'static str),
        }
        fn merge(path: &str, from: &Value, into: &mut Value) -> Result<(), Wrong> {
            match (from, into) {
                (Value::Object(from), Value::Object(into)) => {
                    for (k, v) in from {
                        let here = format!("{path}.{k}");
                        match into.get_mut(k) {
                            Some(slot) => merge(&here, v, slot)?,
                            None => return Err(Wrong::Key(here, into.keys().cloned().collect())),
                        }
                    }
                    Ok(())
                }
                // The ruleset's value says what kind a scenario may put there (nothing there:
                // anything).
                (from, into)
                    if !into.is_null()
                        && std::mem::discriminant(from) != std::mem::discriminant(into) =>
                {
                    Err(Wrong::Kind(path.to_string(), kind(from), kind(into)))
                }
                (from, into) => {
                    *into = from.clone();
                    Ok(())
                }
            }
        }
        for (key, value) in &data.value {
            let result = match into.get_mut(key) {
                Some(slot) => merge(key, value, slot),
                None => Err(Wrong::Key(key.clone(), into.keys().cloned().collect())),
            };
            if let Err(Wrong::Kind(path, given, wanted)) = &result {
                let last = path.rsplit('.').next().unwrap_or(path).to_string();
                return Err(self.error_at_text(
                    data,
                    &last,
                    format!(
                        "`data` sets `{path}` to {given}, but the ruleset's `{path}` is {wanted}"
                    ),
                    "not of the ruleset's kind",
                    Some(format!("give {wanted}, as the ruleset's data has it")),
                ));
            }
            if let Err(Wrong::Key(path, known)) = result {
                let last = path.rsplit('.').next().unwrap_or(&path).to_string();
                let help = match did_you_mean(&last, known.iter().map(String::as_str)) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => format!("the ruleset's keys here are: {}", known.join(", ")),
                };
                return Err(self.error_at_text(
                    data,
                    &last,
                    format!("`data` sets `{path}`, which the ruleset does not have"),
                    "not in the ruleset's data",
                    Some(help),
                ));
            }
        }
        Ok(())
    }

    fn ruleset(&self, name: &Spanned<String>) -> Result<Ruleset, Error> {
        let known = self.project.rulesets();
        if !known.contains(&name.value) {
            let help = match did_you_mean(&name.value, known.iter().map(String::as_str)) {
                Some(s) => format!("did you mean `{s}`?"),
                None => format!("the rulesets are: {}", known.join(", ")),
            };
            return Err(self.error(
                name,
                format!("unknown ruleset `{}`", name.value),
                "no such ruleset",
                Some(help),
            ));
        }
        Ruleset::load(self.project, &name.value)
    }

    fn table(&self, file: &ScenarioFile) -> Result<Battlefield, Error> {
        let grid = match &file.grid {
            Some(spanned) => {
                let g = &spanned.value;
                let grid = Grid {
                    columns: g.columns,
                    rows: g.rows,
                    area: g.area,
                };
                grid.validate()
                    .map_err(|e| self.error(spanned, format!("grid: {e}"), "this grid", None))?;
                Some(grid)
            }
            None => None,
        };
        let (width, depth) = match (&file.table, &grid) {
            (Some(t), _) => (t.value.width, t.value.depth),
            (None, Some(g)) => (g.width(), g.depth()),
            (None, None) => (72.0, 48.0),
        };
        if !(width.is_finite()
            && depth.is_finite()
            && width > 0.0
            && depth > 0.0
            && width <= MAX_SIZE
            && depth <= MAX_SIZE)
        {
            let message = format!(
                "the table must be more than 0 and at most {MAX_SIZE} inches each way, got {width} x {depth}"
            );
            let help = Some(
                "give `width` and `depth` in inches, e.g. `table: { width: 72, depth: 48 }`".into(),
            );
            return Err(match &file.table {
                Some(t) => self.error(t, message, "this table", help),
                // The grid made the table: it is the grid that is too large.
                None => match &file.grid {
                    Some(g) => self.error(g, message, "this grid's table", None),
                    None => Error::other(format!("{}: {message}", self.name), None),
                },
            });
        }
        let mut b = Battlefield::new(width, depth);
        b.grid = grid;
        Ok(b)
    }

    fn terrain(&self, index: usize, t: &TerrainSpec) -> Result<Feature, Error> {
        let kind = TerrainKind::parse(&t.kind.value, t.slope.as_deref())
            .map_err(|e| self.error(&t.kind, e.to_string(), "this terrain", None))?;
        let mut shapes = Vec::new();
        if let Some(p) = &t.polygon {
            shapes.push(Shape::Polygon(p.clone()));
        }
        if let Some(r) = &t.rect {
            shapes.push(Shape::Rect {
                x: r.x,
                y: r.y,
                width: r.width,
                depth: r.depth,
            });
        }
        if let Some(c) = &t.circle {
            shapes.push(Shape::Circle {
                centre: c.centre,
                radius: c.radius,
            });
        }
        if let Some(l) = &t.line {
            shapes.push(Shape::Line {
                points: l.clone(),
                width: t.width.unwrap_or(1.0),
            });
        }
        if shapes.len() != 1 {
            return Err(self.error(
                &t.kind,
                format!(
                    "terrain feature {} needs exactly one shape, found {}",
                    index + 1,
                    shapes.len()
                ),
                "this feature",
                Some("give one of `polygon`, `rect`, `circle` or `line`".into()),
            ));
        }
        let shape = shapes.remove(0);
        if t.width.is_some() && !matches!(shape, Shape::Line { .. }) {
            return Err(self.error(
                &t.kind,
                "`width` belongs to `line` terrain only".into(),
                "this feature",
                None,
            ));
        }
        shape
            .validate()
            .map_err(|e| self.error(&t.kind, e.to_string(), "this feature", None))?;
        let name = t
            .name
            .clone()
            .unwrap_or_else(|| format!("{} {}", kind.name(), index + 1));
        let mut feature = Feature::new(name, kind, shape);
        if let Some(b) = t.blocks_sight {
            feature.blocks_sight = b;
        }
        Ok(feature)
    }

    /// The error for unit `later`, made by `spec`, whose base overlaps that of `earlier`
    /// (made by the same entry, or not).
    fn overlap(
        &self,
        spec: &UnitSpec,
        battlefield: &Battlefield,
        later: usize,
        earlier: usize,
        same_entry: bool,
    ) -> Error {
        let units = battlefield.units();
        let (a, b) = (&units[later], &units[earlier]);
        let by = a.footprint().overlap(&b.footprint());
        let help = if same_entry {
            format!(
                "the units of this entry stand {}\" apart: give it a `spacing` of at least its base's width ({}\")",
                short(
                    spec.spacing
                        .unwrap_or_else(|| frontage(&a.base) + 0.5)
                        .abs()
                ),
                short(frontage(&a.base))
            )
        } else {
            format!(
                "move one of them: bases may touch (or overlap by less than {}\", as hand-placed figures do), but two figures cannot stand on one spot",
                short(2.0 * CONTACT_TOLERANCE)
            )
        };
        self.error(
            &spec.at,
            format!(
                "`{}` at {} overlaps `{}` at {} by {}\": bases may touch but not overlap",
                a.id,
                a.pos,
                b.id,
                b.pos,
                short(by)
            ),
            &format!("overlaps `{}`", b.id),
            Some(help),
        )
    }

    fn check_ability(&self, name: &Spanned<String>, known: &[String]) -> Result<(), Error> {
        if known.contains(&name.value) {
            return Ok(());
        }
        let help = match did_you_mean(&name.value, known.iter().map(String::as_str)) {
            Some(s) => Some(format!("did you mean `{s}`?")),
            None if known.is_empty() => Some(
                "the ruleset has no abilities: its package's `abilities/` folder is empty".into(),
            ),
            None => Some(format!("the abilities are: {}", known.join(", "))),
        };
        Err(self.error(
            name,
            format!("unknown ability `{}`", name.value),
            "no such ability",
            help,
        ))
    }

    fn units(
        &self,
        spec: &UnitSpec,
        side: &str,
        ruleset: &Ruleset,
        troop_abilities: &BTreeMap<String, Vec<Spanned<String>>>,
        known_abilities: &[String],
    ) -> Result<Vec<Unit>, Error> {
        let Some(troop) = ruleset.troop(&spec.troop.value) else {
            let known = ruleset.file.troops.keys().map(String::as_str);
            let help = did_you_mean(&spec.troop.value, known)
                .map(|s| format!("did you mean `{s}`?"))
                .unwrap_or_else(|| {
                    format!(
                        "the troop types of `{}` are: {}",
                        ruleset.id,
                        ruleset
                            .file
                            .troops
                            .keys()
                            .cloned()
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                });
            return Err(self.error(
                &spec.troop,
                format!("unknown troop type `{}`", spec.troop.value),
                "not in the troop chart",
                Some(help),
            ));
        };
        if !valid_id(&spec.id.value) {
            return Err(self.error(
                &spec.id,
                format!("`{}` is not a usable unit id", spec.id.value),
                "this id",
                Some("use letters, digits and `_`, starting with a letter".into()),
            ));
        }
        for a in &spec.abilities {
            self.check_ability(a, known_abilities)?;
        }
        let count = match &spec.count {
            None => 1,
            Some(c)
                if c.value.fract() == 0.0 && (1.0..=f64::from(MAX_COUNT)).contains(&c.value) =>
            {
                c.value as u32
            }
            Some(c) => {
                return Err(self.error(
                    c,
                    format!(
                        "`count` must be a whole number from 1 to {MAX_COUNT}, got {}",
                        c.value
                    ),
                    "here",
                    None,
                ));
            }
        };
        let base = spec.base.unwrap_or_else(|| ruleset.base_of(troop));
        base.validate()
            .map_err(|e| self.error(&spec.id, e.to_string(), "this unit's base", None))?;
        let facing = spec.facing.unwrap_or(0.0);
        let spacing = spec.spacing.unwrap_or_else(|| frontage(&base) + 0.5);
        if !facing.is_finite()
            || !spacing.is_finite()
            || !spec.at.value.x.is_finite()
            || !spec.at.value.y.is_finite()
        {
            return Err(self.error(
                &spec.id,
                "position, facing and spacing must be finite numbers".into(),
                "this unit",
                None,
            ));
        }
        for (name, value) in &spec.stats {
            if let Err((message, help)) = ruleset.check_stat(name, value) {
                return Err(self.error_at_text(
                    &spec.id,
                    name,
                    format!("`{}`: {message}", spec.id.value),
                    "this stat",
                    help,
                ));
            }
        }
        let mut stats = troop.stats.clone();
        stats.extend(spec.stats.clone());
        // The troop type's own abilities (Charge for cavalry), then the scenario's for the
        // troop type, then the unit's: the order hooks run in.
        let mut abilities: Vec<String> = troop.abilities.clone();
        for a in troop_abilities.get(&spec.troop.value).into_iter().flatten() {
            if !abilities.contains(&a.value) {
                abilities.push(a.value.clone());
            }
        }
        for a in &spec.abilities {
            if !abilities.contains(&a.value) {
                abilities.push(a.value.clone());
            }
        }
        let id_of = |i: u32| {
            if spec.count.is_some() {
                format!("{}_{}", spec.id.value, i + 1)
            } else {
                spec.id.value.clone()
            }
        };
        {
            let mut places = self.ability_places.borrow_mut();
            let given = troop_abilities.get(&spec.troop.value).into_iter().flatten();
            // The unit's own list last, so that it is the place named when both give one.
            for a in given.chain(&spec.abilities) {
                let bytes = yaml::bytes_of(self.text, &a.referenced);
                for i in 0..count {
                    places.insert((id_of(i), a.value.clone()), bytes.clone());
                }
            }
        }
        Ok((0..count)
            .map(|i| Unit {
                id: id_of(i),
                name: spec.name.clone().unwrap_or_else(|| troop.name.clone()),
                side: side.to_string(),
                troop: spec.troop.value.clone(),
                pos: spec.at.value.offset(facing + 90.0, spacing * f64::from(i)),
                facing: crate::host::geometry::normalize_degrees(facing),
                base,
                stats: stats.clone(),
                hits: spec.hits,
                stands: spec.stands.unwrap_or(1),
                tags: spec.tags.iter().cloned().collect(),
                abilities: abilities.clone(),
                groups: spec.groups.clone(),
                in_play: true,
            })
            .collect())
    }

    fn deck(&self, name: &str, spec: &DeckSpec) -> Result<DeckPlan, Error> {
        let at = &spec.cards;
        if spec.jokers && matches!(at.value, CardsSpec::List(_)) {
            return Err(self.error(
                at,
                "`jokers: true` goes with `cards: standard`; a list names its jokers".into(),
                "a list of cards",
                Some("add JOKER (or RJOKER, BJOKER) to the list instead".into()),
            ));
        }
        let deck = match &at.value {
            CardsSpec::Named(n) if n == "standard" => Deck::standard(name, spec.jokers),
            CardsSpec::Named(n) => {
                return Err(self.error(
                    at,
                    format!("unknown deck `{n}`"),
                    "here",
                    Some("write `standard` (with `jokers: true` for 54 cards) or a list of cards such as [AS, 10H, JOKER]".into()),
                ));
            }
            CardsSpec::List(list) => {
                let mut cards = Vec::new();
                for c in list {
                    cards.push(Card::parse(c).map_err(|e| {
                        self.error_at_text(at, c, e.to_string(), "this card", None)
                    })?);
                }
                Deck::from_cards(name, cards)
            }
        };
        if let Some(first) = &spec.first
            && (first.value == 0 || first.value > deck.len())
        {
            return Err(self.error(
                first,
                format!(
                    "`first` must be from 1 to the {} cards of the deck, got {}",
                    deck.len(),
                    first.value
                ),
                "here",
                None,
            ));
        }
        Ok(DeckPlan {
            deck,
            shuffle: spec.shuffle,
            first: spec.first.as_ref().map(|f| f.value),
        })
    }

    /// House rules live beside the scenario (or below it); never through `..`, an absolute
    /// path or a symlink that leads out, since scenarios are shared between strangers
    /// (`game::confine`, the rule imports follow).
    fn house_rule(&self, rule: &Spanned<String>) -> Result<PathBuf, Error> {
        let rel = Path::new(&rule.value);
        let dir = crate::game::project::folder_of(self.path);
        let path = dir.join(rel);
        let (message, label, help) = match confine::inside(&dir, rel) {
            Ok(_) => return Ok(path),
            Err(Refused::NotPlain(_)) => (
                format!(
                    "house rule `{}` must be a path inside the scenario's folder",
                    rule.value
                ),
                "not allowed",
                Some("write a relative path without `..`, e.g. `house/my_rule.rhai`".into()),
            ),
            Err(Refused::Outside { .. }) => (
                format!(
                    "house rule `{}` is a link that leads outside the scenario's folder; it was not read",
                    rule.value
                ),
                "leads outside",
                Some(
                    "copy the house rule into the scenario's folder instead of linking to it"
                        .into(),
                ),
            ),
            Err(Refused::NotAFile { kind, .. } | Refused::NotAFolder { kind, .. }) => (
                format!("house rule `{}` is {kind}, not a file", rule.value),
                "not a file",
                Some("a house rule is a `.rhai` script file".into()),
            ),
            Err(Refused::Missing(_)) => {
                let siblings: Vec<String> =
                    std::fs::read_dir(crate::game::project::folder_of(&path))
                        .into_iter()
                        .flatten()
                        .flatten()
                        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
                        .collect();
                let file_name = rel.file_name().and_then(|f| f.to_str()).unwrap_or_default();
                (
                    format!("house rule script `{}` does not exist", rule.value),
                    "no such file",
                    did_you_mean(file_name, siblings.iter().map(String::as_str))
                        .map(|s| format!("did you mean `{s}`?")),
                )
            }
        };
        Err(self.error(rule, message, label, help))
    }
}

/// `rules` with `path` after them: it must be a `.rhai` file, named unlike every rule already
/// there.
pub fn house_rules_with(rules: &[PathBuf], path: &Path) -> Result<Vec<PathBuf>, Error> {
    let shown = path.display();
    let help = Some("a house rule is a `.rhai` file: `--with house/my_rule.rhai`".to_string());
    let refused = match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Some(format!("no house rule at `{shown}`: there is no such file"))
        }
        Err(e) => Some(format!("the house rule `{shown}` cannot be read: {e}")),
        Ok(m) if !m.is_file() => Some(format!(
            "`{shown}` is {}, not a house rule file",
            crate::game::confine::kind_of(&m.file_type())
        )),
        Ok(_) if path.extension().is_none_or(|e| e != "rhai") => Some(format!(
            "`{shown}` is not a house rule: its name does not end in `.rhai`"
        )),
        Ok(_) => None,
    };
    if let Some(message) = refused {
        return Err(Error::other(message, help));
    }
    if rules.len() >= MAX_HOUSE_RULES {
        return Err(Error::other(
            format!(
                "`{shown}` would be house rule {}, and at most {MAX_HOUSE_RULES} may be in force at once",
                rules.len() + 1
            ),
            Some("`:without NAME` takes one out first, or put the rules of several house rules into one script".into()),
        ));
    }
    let name = house_rule_name(path);
    if rules.iter().any(|r| house_rule_name(r) == name) {
        return Err(Error::other(
            format!("a house rule named `{name}` is already in force"),
            Some("`:without NAME` takes one out first".into()),
        ));
    }
    let mut all = rules.to_vec();
    all.push(path.to_path_buf());
    Ok(all)
}

/// A house rule's name: its file name without `.rhai`, as `explain` and `:rules` show it.
pub fn house_rule_name(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn frontage(base: &Base) -> f64 {
    match base {
        Base::Round { diameter } => *diameter,
        Base::Rect { width, .. } => *width,
    }
}

/// Whether a unit id is usable: a letter, then letters, digits and `_`, at most 64.
pub fn valid_id(id: &str) -> bool {
    let mut chars = id.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && id.len() <= 64
}

#[cfg(test)]
mod tests;
