//! A session: one game. Scenario + battlefield + loaded scripts + the seeded generator + the
//! event log.
//!
//! Every action (a ruleset verb, a line of Rhai, a batch script) runs through [`Session`],
//! which starts the sandbox's time budget, and, if the action fails, puts the game back
//! exactly as it was before it (state, generator and log), so a broken or hostile script
//! changes nothing.

pub mod command;
pub mod line;

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use rhai::{AST, CallFnOptions, Dynamic, Engine, FnAccess, Scope};

use crate::error::{Error, read_script};
use crate::game::event::Event;
use crate::game::project::Project;
use crate::game::scenario::Scenario;
use crate::game::state::{GameState, Mark, Redo};
use crate::script::api::{self, Shared};
use crate::script::engine::{self, Budget, Limits};
use crate::script::error::Sources;
use crate::script::hooks::{Abilities, HouseRuleHooks};
use crate::script::resolver::ModuleCache;

/// A verb of the ruleset (or a house rule): a public script function players call by name.
#[derive(Clone, Debug, PartialEq)]
pub struct Verb {
    /// Its name: `melee`.
    pub name: String,
    /// Its parameter names.
    pub params: Vec<String>,
    /// Its doc comment, without the `///`.
    pub doc: String,
    /// The script that defines it.
    pub source: String,
}

/// Numbers each reading of a game's scripts from disk in this process ([`Session::reading`]).
static READINGS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A number for a new reading of the scripts.
fn next_reading() -> u64 {
    READINGS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1
}

/// One game in progress.
pub struct Session {
    project: Project,
    scenario: Scenario,
    state: Shared,
    engine: Engine,
    budget: Budget,
    limits: Limits,
    /// The modules the scripts have imported, emptied when a new battle starts.
    modules: ModuleCache,
    /// The folders the scripts import from, for an engine built again (see
    /// [`Session::locate`]).
    roots: Vec<PathBuf>,
    ast: AST,
    scope: Scope<'static>,
    sources: Sources,
    verbs: BTreeMap<String, Verb>,
    /// Whose eyes the screen is for at one keyboard (`play --as SIDE`, `:as SIDE`): a figure
    /// the ruleset hides (`hidden_tag`) is not shown to another side's. None: everyone's.
    eyes: Option<String>,
    /// The ruleset's own functions, each defined once, which house rules may replace.
    functions: crate::script::functions::RulesetFunctions,
    abilities: api::SharedAbilities,
    manual: api::ManualDice,
    /// Where drawn cards come from when not from the top of the pile.
    cards: api::ManualCards,
    /// What each verb's parameters must be, read from the scripts when a line first calls it
    /// (see [`Session::verb_kinds`]).
    verb_kinds: RefCell<BTreeMap<String, Vec<crate::script::lint::ParamKind>>>,
    /// Functions defined at the prompt (kept across reloads).
    prompt_functions: AST,
    /// Each function defined at the prompt, by name and number of parameters, with the
    /// entry that defined it and that entry's length, to hold them to
    /// [`MAX_PROMPT_FUNCTIONS`] and [`MAX_PROMPT_FUNCTION_BYTES`].
    prompt_defined: BTreeMap<(String, usize), (String, usize)>,
    /// The steps still undoable, oldest first: `:undo` rewinds the state's journal to where
    /// the game stood before each, so that no action copies the game.
    past: Vec<Step>,
    /// Undone steps, most recently undone last, for `:redo`, with what each did.
    future: Vec<(Step, Redo)>,
    has_setup: bool,
    emitted: usize,
    /// Which reading of the scripts from disk this is ([`Session::reading`]).
    reading: u64,
    /// Steps taken, undone and redone since the game began, and how many there had been at
    /// the last save: the game has unsaved changes when they differ.
    steps: u64,
    saved_steps: u64,
    /// The saves a replayed `:save` did not write, by absolute path, so that an `:open` later
    /// in the replay opens what was saved then, not what the file holds now.
    unwritten: BTreeMap<PathBuf, crate::game::save::SavedGame>,
    /// In a replay, the game the next `:open` opened when it was played, as the journal
    /// recorded it (with its files found), or why it cannot be opened: the replayed `:open`
    /// opens it instead of reading the file again.
    recorded_open: Option<Result<RecordedOpen, Error>>,
    /// In a replay, how the next `:save` went when it was played: `Some(None)` saved,
    /// `Some(Some(error))` failed so ([`Session::expect_save`]).
    recorded_save: Option<Option<Error>>,
    /// The result of the battle last told to the players at the prompt
    /// ([`Session::end_not_yet_told`]), as (winner, reason).
    told_end: Option<(Option<String>, String)>,
    /// [`Session::steps`] when the prompt last asked whether the battle is over: a line that
    /// changed nothing (a function defined, `:units`) is not followed by the question.
    end_asked_at: Option<u64>,
}

/// A game a journal recorded as opened: the save, and the scenario and house rules it names,
/// found in the project.
#[derive(Debug)]
pub struct RecordedOpen {
    /// The game as it was opened.
    pub save: crate::game::save::SavedGame,
    /// Its scenario.
    pub scenario: PathBuf,
    /// Its house rules (none: the scenario's own).
    pub house_rules: Option<Vec<PathBuf>>,
}

/// One step of `:undo`: an action, or a change of the house rules in force.
#[derive(Clone, Debug)]
struct Step {
    /// Where the game stood before it.
    mark: Mark,
    /// For a change of house rules, the house rules in force on the other side of it: before
    /// it while it stands, after it once undone.
    rules: Option<Vec<PathBuf>>,
}

pub use crate::limits::{MAX_PROMPT_FUNCTION_BYTES, MAX_PROMPT_FUNCTIONS};
pub use crate::limits::{MAX_UNDO, MAX_UNDO_BYTES};

pub use crate::limits::{MAX_BATTLE_STEPS, MAX_STEPS_PER_TURN, MAX_TURNS};

/// The hook a ruleset defines to set a game up (who plays first, ...), run once at the start.
pub const SETUP: &str = "setup";

/// The hook a ruleset defines to say who has won: `()` while the battle goes on, else a map
/// with `winner` (a side id, or `()` for a draw) and `reason`.
pub const VICTORY: &str = "victory";

/// The verb a ruleset's policy defines to play a side's turn in auto-play.
pub const PLAY_TURN: &str = "play_turn";

/// The verb that passes play to the next side.
pub const END_TURN: &str = "end_turn";

/// Script functions the host calls itself; they are not verbs at the prompt.
pub const HOOKS: &[&str] = &[SETUP, VICTORY];

/// How a battle ended.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Outcome {
    /// The winning side's id; none for a draw.
    pub winner: Option<String>,
    /// Why, in the rules' words.
    pub reason: String,
    /// The turn it ended on.
    pub turn: i64,
}

/// Refuses more house rules than may be in force, or two of one name, wherever the list
/// came from (a scenario, `--with`, a save, a journal): each costs time to load.
fn check_house_rules(rules: &[PathBuf]) -> Result<(), Error> {
    use crate::game::scenario::house_rule_name;
    use crate::limits::MAX_HOUSE_RULES;
    if rules.len() > MAX_HOUSE_RULES {
        return Err(Error::other(
            format!(
                "a game may have at most {MAX_HOUSE_RULES} house rules in force, and this one has {}",
                rules.len()
            ),
            Some("put the rules of several house rules into one script".into()),
        ));
    }
    let mut names = std::collections::BTreeSet::new();
    for rule in rules {
        let name = house_rule_name(rule);
        if !names.insert(name.clone()) {
            return Err(Error::other(
                format!(
                    "house rule `{name}` is in force twice (`{}`)",
                    rule.display()
                ),
                Some("list each house rule once, and give house rules names of their own".into()),
            ));
        }
    }
    Ok(())
}

impl Session {
    /// Starts a game of `scenario` with `seed`: loads the ruleset's scripts and the house
    /// rules, then lets the ruleset set the game up (its `setup` verb, if it has one).
    pub fn new(project: &Project, scenario: Scenario, seed: u64) -> Result<Session, Error> {
        Session::with_limits(project, scenario, seed, Limits::default())
    }

    /// As [`Session::new`], with other sandbox limits.
    pub fn with_limits(
        project: &Project,
        scenario: Scenario,
        seed: u64,
        limits: Limits,
    ) -> Result<Session, Error> {
        Session::build(project, scenario, seed, limits, true)
    }

    /// Loads everything, as [`Session::with_limits`]; `play` says whether a game is to be
    /// played (troop types checked against abilities, the set-up run), or the package only
    /// checked.
    fn build(
        project: &Project,
        scenario: Scenario,
        seed: u64,
        limits: Limits,
        play: bool,
    ) -> Result<Session, Error> {
        check_house_rules(&scenario.house_rules)?;
        let state: Shared = Rc::new(RefCell::new(GameState::new(&scenario, seed)));
        let budget = Budget::default();
        // Every script of the game loads under one budget, each under its own besides.
        let loading = budget.loading(limits.load_budget);
        let scenario_dir = crate::game::project::folder_of(&scenario.path);
        let mut roots = vec![
            scenario.ruleset.dir.clone(),
            scenario_dir,
            project.scripts_dir(),
        ];
        // A house rule given with `--with` or `:with` imports from its own folder.
        for rule in &scenario.house_rules {
            let dir = crate::game::project::folder_of(rule);
            if !roots.contains(&dir) {
                roots.push(dir);
            }
        }
        let modules = ModuleCache::default();
        let mut engine = engine::sandboxed(&limits, &budget, roots.clone(), modules.clone());
        let abilities: api::SharedAbilities = Rc::default();
        let manual: api::ManualDice = Rc::default();
        let cards: api::ManualCards = Rc::default();
        api::register(
            &mut engine,
            &state,
            &scenario.ruleset,
            &abilities,
            &manual,
            &cards,
            &budget,
        );
        let watched = state.clone();
        budget.watch(move || {
            watched
                .try_borrow()
                .ok()
                .and_then(|s| s.flooded())
                .or_else(crate::memory::over_limit)
        });

        let mut session = Session {
            project: project.clone(),
            state,
            engine,
            budget,
            limits,
            modules,
            roots,
            ast: AST::empty(),
            scope: Scope::new(),
            sources: Sources::default(),
            verbs: BTreeMap::new(),
            eyes: None,
            functions: Default::default(),
            abilities,
            manual,
            cards,
            verb_kinds: RefCell::default(),
            prompt_functions: AST::empty(),
            prompt_defined: BTreeMap::new(),
            past: Vec::new(),
            future: Vec::new(),
            has_setup: false,
            emitted: 0,
            reading: next_reading(),
            steps: 0,
            saved_steps: 0,
            unwritten: BTreeMap::new(),
            recorded_open: None,
            recorded_save: None,
            told_end: None,
            end_asked_at: None,
            scenario,
        };
        let mut rule_scripts = Vec::new();
        for path in session.scenario.ruleset.script_paths() {
            rule_scripts.push(session.load_script(project, &path, false)?.0);
        }
        // A hook is asked by name: a rule function of the same name would be taken for it
        // in a house rule.
        let declared = &session.scenario.ruleset.file.hooks;
        if let Some(f) = session
            .ast
            .iter_functions()
            .find(|f| declared.contains_key(f.name))
        {
            return Err(Error::other(
                format!(
                    "the ruleset `{}` defines a function `{}`, which is also the name of one of its hooks",
                    session.scenario.ruleset.id, f.name
                ),
                Some("rename the function, or the hook in `hooks:` of its ruleset.yaml".into()),
            ));
        }
        let mut house_rules = Vec::new();
        let mut house_scripts = Vec::new();
        for path in session.scenario.house_rules.clone() {
            let (ast, hooks) = session.load_script(project, &path, true)?;
            house_scripts.push(ast);
            house_rules.extend(hooks);
        }
        session.load_abilities(project, play)?;
        session.abilities.borrow_mut().house_rules = house_rules;
        session.check_verb_declarations()?;
        session.check_scripts(&rule_scripts, &house_scripts)?;
        drop(loading);
        if play {
            session.set_up()?;
        }
        Ok(session)
    }

    /// The static pass over every script in force (`script::lint`): the ruleset's scripts in
    /// one namespace, the house rules over them, each ability on its own. Every mistake it
    /// finds is an error at its line, all of them at once.
    fn check_scripts(&self, rules: &[AST], house_rules: &[AST]) -> Result<(), Error> {
        let Some(known) = self.sources.known() else {
            return Ok(());
        };
        let declared = crate::script::lint::Declared::of(&self.scenario.ruleset);
        let mut pass = crate::script::lint::Pass::new(known, &declared);
        let rules: Vec<&AST> = rules.iter().collect();
        pass.check(&rules, false);
        if !house_rules.is_empty() {
            pass.check_over(&rules, &house_rules.iter().collect::<Vec<_>>(), true);
        }
        let abilities = self.abilities.borrow();
        for ability in abilities.list.values() {
            pass.check(&[&ability.ast], true);
        }
        let mut problems: Vec<Error> = pass
            .finish()
            .iter()
            .map(|f| self.sources.finding(f))
            .collect();
        match problems.len() {
            0 => Ok(()),
            1 => Err(problems.remove(0)),
            n => Err(Error::Several {
                message: format!("{n} problems in the scripts of {}", self.scenario.name),
                problems,
            }),
        }
    }

    /// Sets the fresh game up: the side the scenario names plays first, then the ruleset's
    /// `setup` verb (a preparation roll, say) runs.
    fn set_up(&mut self) -> Result<(), Error> {
        if let Some(first) = self.scenario.first.clone() {
            self.state
                .borrow_mut()
                .set_turn(1, &first)
                .map_err(|m| Error::other(m, None))?;
        }
        if self.has_setup {
            let _ = self.call(SETUP, Vec::new())?;
        }
        Ok(())
    }

    /// Starts the game again from the scenario, drawing every roll and shuffle from `rng`:
    /// a fresh state (decks shuffled by `rng`), then the set-up, as [`Session::new`] does,
    /// with the scripts kept compiled, so it costs what the set-up costs (a module the scripts
    /// import is evaluated again at its first import, since its top level may roll). Simulations start
    /// each run this way, so that a preparation roll or a shuffle differs from run to run.
    pub fn start_over(&mut self, seed: u64, rng: crate::host::rng::GameRng) -> Result<(), Error> {
        *self.state.borrow_mut() = GameState::with_rng(&self.scenario, seed, rng);
        self.modules.clear();
        self.past.clear();
        self.future.clear();
        self.emitted = 0;
        (self.steps, self.saved_steps) = (0, 0);
        self.set_up()
    }

    /// Compiles a rule script, runs its top level once and adds its functions (replacing any
    /// of the same name and arity: this is how house rules replace rules). A house rule's
    /// functions named after a hook the ruleset declares are its hooks instead: they are
    /// given back, to apply to every unit after the unit's abilities.
    fn load_script(
        &mut self,
        project: &Project,
        path: &Path,
        house_rule: bool,
    ) -> Result<(AST, Option<HouseRuleHooks>), Error> {
        let text = read_script(path)?;
        let name = path
            .strip_prefix(project.root())
            .unwrap_or(path)
            .display()
            .to_string();
        let ast = self
            .sources
            .compile(&self.engine, &self.budget, &name, &text)?;
        self.run_guarded(&name, true, |engine, scope| {
            engine.run_ast_with_scope(scope, &ast)
        })?;
        let ruleset = &self.scenario.ruleset;
        let sorted = if house_rule {
            crate::script::functions::sort_house_rule(
                &self.functions,
                &ruleset.file.name,
                &ruleset.file.hooks,
                &self.sources,
                &name,
                &ast,
            )?
        } else {
            self.functions
                .add(&self.sources, &ruleset.id, &name, &ast)?;
            Default::default()
        };
        let hooks = sorted.hooks.clone();
        for f in ast.iter_functions() {
            self.sources.define(f.name, &name);
            if hooks.contains(f.name) {
                continue;
            }
            if f.name == SETUP {
                self.has_setup = true;
            }
            // Closures compile to functions named `anon$<hash>`: they are no verbs.
            if f.access == FnAccess::Private
                || f.name.starts_with('_')
                || f.name.contains('$')
                || HOOKS.contains(&f.name)
            {
                continue;
            }
            let doc = f
                .comments
                .iter()
                .flat_map(|c| c.lines())
                .map(|l| l.trim().trim_start_matches("///").trim())
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            self.verbs.insert(
                f.name.to_string(),
                Verb {
                    name: f.name.to_string(),
                    params: f.params.iter().map(|p| p.to_string()).collect(),
                    doc,
                    source: name.clone(),
                },
            );
        }
        let functions = ast.clone_functions_only();
        if !house_rule {
            self.ast = self.ast.merge(&functions);
            return Ok((ast, None));
        }
        self.ast = self
            .ast
            .merge(&functions.clone_functions_only_filtered(|_, _, _, n, _| !hooks.contains(n)));
        let id = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| name.clone());
        Ok((
            ast,
            Some(HouseRuleHooks {
                id,
                ast: functions,
                hooks,
                functions: sorted,
            }),
        ))
    }

    /// Checks a ruleset's package as a game loads it, on an empty table: every rule script
    /// compiled and its top level run, its functions each defined once, every ability of the
    /// package (its own and the shared ones it borrows) compiled and declared well, and the
    /// static pass over all of them. Gives how many abilities it has.
    pub fn check_package(
        project: &Project,
        ruleset: crate::game::ruleset::Ruleset,
    ) -> Result<usize, Error> {
        let abilities = ruleset.abilities.len();
        Session::build(
            project,
            Scenario::empty(ruleset),
            0,
            Limits::default(),
            false,
        )?;
        Ok(abilities)
    }

    /// Loads the ability scripts the scenario's units have (every one of the package when
    /// `play` is false), and checks each unit may have
    /// each of its abilities.
    fn load_abilities(&mut self, project: &Project, play: bool) -> Result<(), Error> {
        // In play, those the units have; to check the package, all of them.
        let names: std::collections::BTreeSet<String> = if play {
            self.scenario
                .battlefield
                .units()
                .iter()
                .flat_map(|u| u.abilities.iter().cloned())
                .collect()
        } else {
            self.scenario.ruleset.abilities.keys().cloned().collect()
        };
        self.budget.start(self.limits.time_budget);
        let loaded = Abilities::load(
            &self.engine,
            &self.budget,
            project,
            &self.scenario.ruleset,
            &names,
            &mut self.sources,
        );
        self.budget.stop();
        let loaded = loaded?;
        for unit in self.scenario.battlefield.units() {
            for name in &unit.abilities {
                let meta = &loaded.list[name].meta;
                if !meta.allows_troop(&unit.troop) {
                    return Err(self.scenario.ability_places.error(
                        &unit.id,
                        name,
                        format!(
                            "`{}` is {} and may not have {} (`{name}`)",
                            unit.id,
                            unit.troop.replace('_', " "),
                            meta.name
                        ),
                        "not for this troop type",
                        Some(format!(
                            "{} is for: {}",
                            meta.name,
                            meta.troops.as_deref().unwrap_or_default().join(", ")
                        )),
                    ));
                }
            }
        }
        *self.abilities.borrow_mut() = loaded;
        Ok(())
    }

    /// Whether the ruleset says how a battle is won (`fn victory()`).
    fn check_victory(&self) -> Result<(), Error> {
        if self.ast.iter_functions().any(|f| f.name == VICTORY) {
            return Ok(());
        }
        Err(Error::other(
            format!(
                "the ruleset `{}` says nothing of victory",
                self.scenario.ruleset.id
            ),
            Some("define `fn victory()` in its scripts (see docs/writing-a-ruleset.md)".into()),
        ))
    }

    /// Whether the computer can play a battle of this game by itself: the ruleset needs a
    /// policy (`fn play_turn(side)`) and a victory (`fn victory()`). `sim` asks before its
    /// first battle, so that a missing one is one clear error rather than every run failing.
    pub fn check_auto_play(&self) -> Result<(), Error> {
        if !self.verbs.contains_key(PLAY_TURN) {
            return Err(Error::other(
                format!("the ruleset `{}` has no policy", self.scenario.ruleset.id),
                Some(format!(
                    "define `fn {PLAY_TURN}(side)` in its scripts (see docs/writing-a-ruleset.md)"
                )),
            ));
        }
        self.check_victory()
    }

    /// The battle's result when it is over and that result has not been told yet: the prompt
    /// asks after every line, so the players hear of the end once, after the action that
    /// brought it. Undoing back before the end makes it untold again. A ruleset without
    /// `victory` never ends here. The question changes nothing in the game, and is asked only
    /// when the game has changed since it was last asked.
    pub fn end_not_yet_told(&mut self) -> Result<Option<Outcome>, Error> {
        if self.check_victory().is_err() || self.end_asked_at == Some(self.steps) {
            return Ok(None);
        }
        self.end_asked_at = Some(self.steps);
        // `:explain` still tells of the last action, not of this question.
        let trace = std::mem::take(&mut self.state.borrow_mut().trace);
        let outcome = self.hypothetically(Session::victory);
        self.state.borrow_mut().trace = trace;
        let outcome = outcome?;
        let told = outcome
            .as_ref()
            .map(|o| (o.winner.clone(), o.reason.clone()));
        if told == self.told_end {
            return Ok(None);
        }
        self.told_end = told;
        Ok(outcome)
    }

    /// Asks the ruleset's `victory` hook whether the battle is over.
    pub fn victory(&mut self) -> Result<Option<Outcome>, Error> {
        self.check_victory()?;
        let result = self.call(VICTORY, Vec::new())?;
        if result.is_unit() {
            return Ok(None);
        }
        let contract = "give () while the battle goes on, else #{ winner: SIDE, reason: \"...\" } \
                        with a side's id, or `winner: ()` for a draw";
        let map = result.try_cast::<rhai::Map>().ok_or_else(|| {
            Error::other(
                "`victory()` must give () or a map #{ winner, reason }",
                Some(contract.into()),
            )
        })?;
        let winner = match map.get("winner") {
            None => {
                return Err(Error::other(
                    "`victory()` gave a map without `winner`",
                    Some(contract.into()),
                ));
            }
            Some(w) if w.is_unit() => None,
            Some(w) => {
                let id = w.to_string();
                if !self.scenario.sides.iter().any(|s| s.id == id) {
                    let ids: Vec<&str> =
                        self.scenario.sides.iter().map(|s| s.id.as_str()).collect();
                    return Err(Error::other(
                        format!("`victory()` named `{id}` the winner, which is not a side's id"),
                        Some(format!("the sides are {}", ids.join(", "))),
                    ));
                }
                Some(id)
            }
        };
        let reason = map.get("reason").map(|r| r.to_string()).unwrap_or_default();
        Ok(Some(Outcome {
            winner,
            reason,
            turn: self.state.borrow().turn,
        }))
    }

    /// The names of the abilities loaded in the game.
    pub fn ability_names(&self) -> Vec<String> {
        self.abilities.borrow().list.keys().cloned().collect()
    }

    /// Real dice (`:dice manual`): every roll the rules make is asked for through `ask`
    /// (given a prompt, it gives the line typed, or none at the end of input); `None` goes
    /// back to the generator.
    pub fn set_manual_dice(&mut self, ask: Option<api::DiceAsker>) {
        *self.manual.borrow_mut() = ask.map(api::DiceSource::Ask);
    }

    /// Faces for every die the rules roll come from `feed` (given the sides, it gives the
    /// face) instead of the generator; `None` goes back to the generator.
    pub fn set_face_feed(&mut self, feed: Option<api::FaceFeed>) {
        *self.manual.borrow_mut() = feed.map(api::DiceSource::Faces);
    }

    /// Real cards (`:cards manual`): every card the rules draw, and every `draw` typed at
    /// the prompt, is asked for through `ask` and taken out of the pile; `None` goes back to
    /// drawing from the top of the pile.
    pub fn set_manual_cards(&mut self, ask: Option<api::DiceAsker>) {
        *self.cards.borrow_mut() = ask.map(api::CardSource::Ask);
    }

    /// Each card the rules draw from a shuffled pile is at the position `feed` gives (given
    /// the cards in the pile, a position from 1, the top), and shuffles draw nothing from the
    /// generator; `None` goes back to the top of the pile.
    pub fn set_card_feed(&mut self, feed: Option<api::FaceFeed>) {
        *self.cards.borrow_mut() = feed.map(|feed| api::CardSource::Positions {
            feed,
            peeked: false,
        });
    }

    /// Whether a script looked at a shuffled pile's order (`peek`) since the card feed was set.
    pub fn cards_peeked(&self) -> bool {
        matches!(
            *self.cards.borrow(),
            Some(api::CardSource::Positions { peeked: true, .. })
        )
    }

    /// Whether cards are typed in by the players.
    pub fn manual_cards(&self) -> bool {
        matches!(*self.cards.borrow(), Some(api::CardSource::Ask(_)))
    }

    /// Whether dice are typed in by the players.
    pub fn manual_dice(&self) -> bool {
        matches!(*self.manual.borrow(), Some(api::DiceSource::Ask(_)))
    }

    /// Whether an ability of this name is loaded in the game.
    pub fn has_ability_named(&self, name: &str) -> bool {
        self.abilities.borrow().list.contains_key(name)
    }

    /// Whether `word` is a word of the ruleset when typed as an argument: one of its verbs, or
    /// one of the `words` its `ruleset.yaml` lists, or one a verb's parameter takes.
    pub fn is_ruleset_word(&self, word: &str) -> bool {
        let file = &self.scenario.ruleset.file;
        self.verbs.contains_key(word)
            || file.words.iter().any(|w| w == word)
            || file
                .verbs
                .values()
                .flat_map(|v| v.words.values())
                .any(|ws| ws.iter().any(|w| w == word))
    }

    /// The words the `i`th parameter of `verb` takes, when its `ruleset.yaml` lists them
    /// (`verbs: { load: { words: { what: [ball, grape] } } }`).
    pub fn verb_words(&self, verb: &str, i: usize) -> Option<&[String]> {
        let param = self.verbs.get(verb)?.params.get(i)?;
        let decl = self.scenario.ruleset.file.verbs.get(verb)?;
        decl.words.get(param).map(Vec::as_slice)
    }

    /// What the prompt shows instead of what a secret verb tells (`order written`), when
    /// `verb` is one its `ruleset.yaml` declares secret.
    pub fn secret_verb(&self, verb: &str) -> Option<&str> {
        self.scenario
            .ruleset
            .file
            .verbs
            .get(verb)?
            .secret
            .as_deref()
    }

    /// Whose eyes the screen is for (`:as SIDE`); None for everyone's.
    pub fn eyes(&self) -> Option<&str> {
        self.eyes.as_deref()
    }

    /// Sets whose eyes the screen is for: a side's id (a did-you-mean when it is none), or
    /// None for everyone's.
    pub fn set_eyes(&mut self, side: Option<&str>) -> Result<(), Error> {
        if let Some(side) = side {
            let state = self.state.borrow();
            if !state.sides.iter().any(|s| s.id == side) {
                let ids = state.sides.iter().map(|s| s.id.as_str());
                let help = match crate::host::suggest::did_you_mean(side, ids.clone()) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => format!("the sides are {}", ids.collect::<Vec<_>>().join(", ")),
                };
                return Err(Error::other(format!("no side `{side}`"), Some(help)));
            }
        }
        self.eyes = side.map(str::to_string);
        Ok(())
    }

    /// Whether the unit at `idx` is shown to the eyes the screen is for: always, unless it
    /// carries the tag its ruleset hides figures with and the eyes are another side's.
    pub fn seen(&self, idx: usize) -> bool {
        let (Some(eyes), Some(tag)) = (&self.eyes, &self.scenario.ruleset.file.hidden_tag) else {
            return true;
        };
        let state = self.state.borrow();
        state
            .battlefield
            .units()
            .get(idx)
            .is_none_or(|u| u.side == *eyes || !u.tags.iter().any(|t| t == tag))
    }

    /// Holds what `ruleset.yaml` declares of verbs (`verbs:`) to the scripts: each a verb,
    /// each parameter named one of its parameters.
    fn check_verb_declarations(&self) -> Result<(), Error> {
        let file = &self.scenario.ruleset.file;
        let where_ = format!(
            "`verbs:` in the ruleset.yaml of `{}`",
            self.scenario.ruleset.id
        );
        for (name, decl) in &file.verbs {
            let Some(verb) = self.verbs.get(name) else {
                let help =
                    crate::host::suggest::did_you_mean(name, self.verbs.keys().map(String::as_str))
                        .map(|s| format!("did you mean `{s}`?"));
                return Err(Error::other(
                    format!("{where_} declares `{name}`, which is no verb of its scripts"),
                    help,
                ));
            };
            for param in decl.words.keys() {
                if !verb.params.contains(param) {
                    let help = crate::host::suggest::did_you_mean(
                        param,
                        verb.params.iter().map(String::as_str),
                    )
                    .map(|s| format!("did you mean `{s}`?"))
                    .or_else(|| Some(format!("its parameters are: {}", verb.params.join(", "))));
                    return Err(Error::other(
                        format!(
                            "{where_} gives words for `{param}`, which is no parameter of `{name}`"
                        ),
                        help,
                    ));
                }
            }
        }
        Ok(())
    }

    /// Plays the battle to its end with the ruleset's policy: ask `victory`, let the side
    /// to play take its turn (`play_turn`), pass the turn (`end_turn`), and again.
    /// `after_step` runs after every turn and every change of turn (to narrate).
    pub fn play_battle(
        &mut self,
        max_turns: i64,
        after_step: impl FnMut(&mut Session),
    ) -> Result<Outcome, Error> {
        self.play_battle_within(
            (max_turns, MAX_STEPS_PER_TURN, MAX_BATTLE_STEPS),
            after_step,
        )
    }

    /// [`Session::play_battle`] with its limits: the turns, the plays one turn may take, the
    /// plays the battle may take.
    fn play_battle_within(
        &mut self,
        (max_turns, max_steps_per_turn, max_steps): (i64, usize, usize),
        mut after_step: impl FnMut(&mut Session),
    ) -> Result<Outcome, Error> {
        self.check_auto_play()?;
        // Each step (a side's `play_turn`, then `end_turn`) must say where play goes next:
        // `end_turn` calls `set_turn` or `set_phase`, if only to give the same side another
        // go (alternate activations where one side has units left). An `end_turn` that does
        // neither would have the same side play again for ever. One that goes round its
        // phases without starting a new turn is caught by the plays one turn may take; one
        // whose turns go back, by the plays a whole battle may take.
        let mut steps: usize = 0;
        let mut steps_this_turn: usize = 0;
        loop {
            if let Some(outcome) = self.victory()? {
                return Ok(outcome);
            }
            let (turn, side) = {
                let state = self.state.borrow();
                (state.turn, state.active_side.clone())
            };
            if turn > max_turns {
                return Err(Error::other(
                    format!("the battle has not ended after {max_turns} turns"),
                    Some("the ruleset's `victory` can never be met in this scenario".into()),
                ));
            }
            if steps_this_turn >= max_steps_per_turn {
                return Err(Error::other(
                    format!(
                        "the battle is still in turn {turn} after {max_steps_per_turn} plays in it"
                    ),
                    Some("the ruleset's `end_turn` must start a new turn once every side has played every phase".into()),
                ));
            }
            if steps >= max_steps {
                return Err(Error::other(
                    format!(
                        "the battle has not ended after {max_steps} plays, and it is only turn {turn}"
                    ),
                    Some("the ruleset's `end_turn` must move the turns on, never back".into()),
                ));
            }
            steps += 1;
            let played = self.call(PLAY_TURN, vec![side.into()]);
            after_step(self);
            let _ = played?;
            let from = self.state.borrow().log_end();
            let passed = self.call(END_TURN, Vec::new());
            let moved_on = self
                .state
                .borrow()
                .events_since(from)
                .iter()
                .any(|e| matches!(e, Event::Turn { .. } | Event::Phase { .. }));
            after_step(self);
            let _ = passed?;
            if !moved_on {
                // The battle is over (in the side's play, or in what it still owed at the end of
                // its part): the ruleset's `end_turn` need not pass play on.
                if let Some(outcome) = self.victory()? {
                    return Ok(outcome);
                }
                let state = self.state.borrow();
                let phase = if state.phase.is_empty() {
                    String::new()
                } else {
                    format!(", phase `{}`", state.phase)
                };
                return Err(Error::other(
                    format!(
                        "the ruleset's `end_turn` did not say who plays next (turn {}{phase}, `{}` to play)",
                        state.turn, state.active_side
                    ),
                    Some("`end_turn` must pass play on with `set_turn(turn, side)` or `set_phase(name)`, even to the same side".into()),
                ));
            }
            let now = self.state.borrow().turn;
            if now == turn {
                steps_this_turn += 1;
            } else {
                steps_this_turn = 0;
            }
        }
    }

    /// Who changed what in the last action, one line per number asked for.
    pub fn explain(&self) -> Vec<String> {
        self.state.borrow().trace.clone()
    }

    /// Runs `f` under the time budget. On failure the game goes back to where it was
    /// (state, generator and log), and so does the scope when `keep_scope` is set.
    fn run_guarded<T>(
        &mut self,
        source: &str,
        keep_scope: bool,
        f: impl Fn(&Engine, &mut Scope<'static>) -> Result<T, Box<rhai::EvalAltResult>>,
    ) -> Result<T, Error> {
        let mark = {
            let mut state = self.state.borrow_mut();
            state.begin_action();
            state.mark()
        };
        let scope = keep_scope.then(|| self.scope.clone());
        // A top level keeps its variables in the scope every later call starts from: it may
        // fill only part of it (see `Limits::max_top_level_variables`).
        if keep_scope {
            self.engine
                .set_max_variables(self.limits.max_top_level_variables);
        }
        self.budget.start(self.limits.time_budget);
        let result = f(&self.engine, &mut self.scope).and_then(|value| {
            // A call of few operations may end before the watch looks: what it keeps (a
            // variable at the prompt) is weighed as it ends, and let go if too much.
            match crate::memory::over_limit() {
                Some(reason) => Err(Box::new(rhai::EvalAltResult::ErrorTerminated(
                    reason.into(),
                    rhai::Position::NONE,
                ))),
                None => Ok(value),
            }
        });
        self.budget.stop();
        if keep_scope {
            self.engine.set_max_variables(self.limits.max_variables);
        }
        match result {
            Ok(value) => Ok(value),
            Err(e) => {
                self.state.borrow_mut().rollback(mark.clone());
                if let Some(scope) = &scope {
                    self.scope = scope.clone();
                }
                // Rhai passes a broken limit up through the calls without saying where it
                // broke: the same call run again, step by step, finds the place.
                // (At a script's own top level Rhai's place is right: only a place inside a
                // function is taken.)
                if let Some(place) = self
                    .locate(&f, &e, &mark, scope)
                    .filter(|p| p.function.is_some())
                {
                    return Err(self.sources.located_error(source, &e, &self.limits, &place));
                }
                Err(self.sources.runtime_error(source, &e, &self.limits))
            }
        }
    }

    /// Where a call that broke a limit of the sandbox was when it broke it: the call is run
    /// again from the same state, on an engine that follows each step (Rhai's debugger), and
    /// nothing of that run stays. A limit of size or depth breaks at the same step again, and
    /// that step is the place; a call that ran away (out of operations or time) is run again
    /// for a quarter of its time budget, and the place is the step it was at most often,
    /// where it spent its time. Not with real dice or cards, whose answers a player would
    /// give again.
    fn locate<T>(
        &mut self,
        f: &impl Fn(&Engine, &mut Scope<'static>) -> Result<T, Box<rhai::EvalAltResult>>,
        err: &rhai::EvalAltResult,
        mark: &Mark,
        scope: Option<Scope<'static>>,
    ) -> Option<crate::script::error::Place> {
        use crate::script::error::Place;
        use rhai::EvalAltResult as E;
        if self.manual_dice() || self.manual_cards() {
            return None;
        }
        let runaway = match err {
            E::ErrorTerminated(..) | E::ErrorTooManyOperations(..) => true,
            E::ErrorDataTooLarge(..)
            | E::ErrorStackOverflow(..)
            | E::ErrorTooManyVariables(..)
            | E::ErrorTooManyModules(..) => false,
            _ => return None,
        };
        let mut engine = engine::sandboxed(
            &self.limits,
            &self.budget,
            self.roots.clone(),
            self.modules.clone(),
        );
        api::register(
            &mut engine,
            &self.state,
            &self.scenario.ruleset,
            &self.abilities,
            &self.manual,
            &self.cards,
            &self.budget,
        );
        /// The steps seen: the last, and for a runaway how often each place was reached.
        #[derive(Default)]
        struct Steps {
            last: Option<Place>,
            counts: std::collections::HashMap<(Option<String>, u16, u16), (u64, Place)>,
        }
        let steps: Rc<RefCell<Steps>> = Rc::default();
        let seen = steps.clone();
        #[allow(deprecated)]
        engine.register_debugger(
            |_, debugger| debugger,
            move |context, event, _node, source, pos| {
                // A step's place; a function's exit is told at its end, which is no place.
                if matches!(event, rhai::debugger::DebuggerEvent::Step) && !pos.is_none() {
                    let function = context
                        .global_runtime_state()
                        .debugger()
                        .call_stack()
                        .last()
                        .map(|frame| frame.fn_name.to_string());
                    let place = Place {
                        function,
                        source: source.map(str::to_string),
                        position: pos,
                    };
                    let mut seen = seen.borrow_mut();
                    if runaway {
                        let key = (
                            place.function.clone(),
                            pos.line().unwrap_or(0) as u16,
                            pos.position().unwrap_or(0) as u16,
                        );
                        seen.counts.entry(key).or_insert((0, place.clone())).0 += 1;
                    }
                    seen.last = Some(place);
                }
                Ok(rhai::debugger::DebuggerCommand::StepInto)
            },
        );
        let budget = if runaway {
            self.limits.time_budget / 4
        } else {
            self.limits.time_budget
        };
        self.budget.start(budget);
        let again = f(&engine, &mut self.scope);
        self.budget.stop();
        self.state.borrow_mut().rollback(mark.clone());
        if let Some(scope) = scope {
            self.scope = scope;
        }
        let Err(again) = again else {
            return None;
        };
        let mut steps = steps.take();
        if runaway {
            // Stopped again by its time or operations: where it spent them.
            let stopped = matches!(
                *again,
                E::ErrorTerminated(..) | E::ErrorTooManyOperations(..)
            );
            let hottest = steps
                .counts
                .into_values()
                .max_by_key(|(n, place)| (*n, place.position.line(), place.position.position()));
            return stopped.then_some(hottest.map(|(_, place)| place)).flatten();
        }
        // Broken again the same way: the last step is where.
        (std::mem::discriminant(&*again) == std::mem::discriminant(err))
            .then(|| steps.last.take())
            .flatten()
    }

    /// Calls a verb with arguments.
    pub fn call(&mut self, verb: &str, args: Vec<Dynamic>) -> Result<Dynamic, Error> {
        // A verb, or a hook (`victory`, `setup`): the script that defines it.
        let source = self
            .verbs
            .get(verb)
            .map(|v| v.source.clone())
            .or_else(|| self.sources.defined_in(verb).map(str::to_string))
            .unwrap_or_default();
        let ast = self.ast.clone();
        // A verb is a function: it cannot change the scope's variables, and `rewind_scope`
        // drops anything it pushed, so there is no scope to restore.
        self.run_guarded(&source, false, |engine, scope| {
            engine.call_fn_with_options::<Dynamic>(
                CallFnOptions::new().eval_ast(false).rewind_scope(true),
                scope,
                &ast,
                verb,
                args.clone(),
            )
        })
    }

    /// Evaluates Rhai code (a line at the prompt, a batch script) in the session's persistent
    /// scope. Functions it defines stay for later lines; on failure nothing changes.
    pub fn eval(&mut self, source: &str, code: &str) -> Result<Dynamic, Error> {
        crate::error::check_script_size(source, code)?;
        self.sources.insert(source, code);
        let result = self.eval_entry(source, code);
        // An entry's text is kept for the diagnostics of the functions it defines; the text
        // of one that defines none that is kept (or that failed) is let go, so that a long
        // session does not hold every line typed.
        if !self.prompt_defined.values().any(|(s, _)| s == source) {
            self.sources.forget(source);
        }
        result
    }

    fn eval_entry(&mut self, source: &str, code: &str) -> Result<Dynamic, Error> {
        let mut line_ast = self
            .budget
            .compiling(|| self.engine.compile_with_scope(&self.scope, code))
            .map_err(|e| self.sources.parse_error(source, &e, &self.limits))?;
        line_ast.set_source(source);
        let kept = self.keep_functions(source, code, &line_ast)?;
        let run = self.ast.merge(&line_ast);
        let value = self.run_guarded(source, true, |engine, scope| {
            engine.eval_ast_with_scope::<Dynamic>(scope, &run)
        })?;
        for f in line_ast.iter_functions() {
            self.sources.define(f.name, source);
        }
        let defined = line_ast.clone_functions_only();
        // In place: a merge copies every function kept, and a prompt that defines a
        // function a line took time growing with all those defined before.
        drop(run);
        self.ast.combine(defined.clone());
        // A function defined at the prompt may be a verb, or one a verb calls.
        self.verb_kinds.borrow_mut().clear();
        self.prompt_functions.combine(defined);
        if let Some(kept) = kept {
            // Texts of entries whose every function has been defined again are let go.
            let still: BTreeSet<&str> = kept.values().map(|(s, _)| s.as_str()).collect();
            let replaced: BTreeSet<String> = self
                .prompt_defined
                .values()
                .map(|(s, _)| s)
                .filter(|s| !still.contains(s.as_str()))
                .cloned()
                .collect();
            for s in replaced {
                self.sources.forget(&s);
            }
            self.prompt_defined = kept;
        }
        Ok(value)
    }

    /// The functions defined at the prompt once the entry `source` has defined its own (each
    /// replacing one of the same name and number of parameters), or why they cannot be kept;
    /// `None` when the entry defines none.
    #[allow(clippy::type_complexity)]
    fn keep_functions(
        &self,
        source: &str,
        code: &str,
        line_ast: &AST,
    ) -> Result<Option<BTreeMap<(String, usize), (String, usize)>>, Error> {
        if line_ast.iter_functions().next().is_none() {
            return Ok(None);
        }
        // Counted before the kept functions are copied, so that a flood of lines past the
        // limit is refused in time that does not grow with what is kept.
        let defined: BTreeSet<(String, usize)> = line_ast
            .iter_functions()
            .map(|f| (f.name.to_string(), f.params.len()))
            .collect();
        let count = self.prompt_defined.len()
            + defined
                .iter()
                .filter(|key| !self.prompt_defined.contains_key(*key))
                .count();
        if count > MAX_PROMPT_FUNCTIONS {
            return Err(Error::other(
                format!(
                    "the prompt keeps at most {MAX_PROMPT_FUNCTIONS} functions, and this would make {count}"
                ),
                Some(
                    "define a function again with the same name and number of parameters to replace it, or put your functions in a house rule".into(),
                ),
            ));
        }
        let mut kept = self.prompt_defined.clone();
        for key in defined {
            kept.insert(key, (source.to_string(), code.len()));
        }
        let entries: BTreeMap<&str, usize> =
            kept.values().map(|(s, len)| (s.as_str(), *len)).collect();
        let bytes: usize = entries.values().sum();
        if bytes > MAX_PROMPT_FUNCTION_BYTES {
            return Err(Error::other(
                format!(
                    "the entries that define the functions kept at the prompt may add up to {MAX_PROMPT_FUNCTION_BYTES} bytes (1 MiB), and this would make {bytes}"
                ),
                Some(
                    "define the large functions again in fewer lines, or put them in a house rule"
                        .into(),
                ),
            ));
        }
        Ok(Some(kept))
    }

    /// Events logged since the last call.
    pub fn take_events(&mut self) -> Vec<Event> {
        let state = self.state.borrow();
        // A rolled-back action can leave the log shorter than what was already shown.
        let events = state.events_since(self.emitted).to_vec();
        self.emitted = state.log_end();
        events
    }

    /// The verbs players can call, by name.
    pub fn verbs(&self) -> &BTreeMap<String, Verb> {
        &self.verbs
    }

    /// Every host function scripts can call, with its parameters and doc, read from the
    /// engine's metadata (for `:help`).
    pub fn host_functions(&self) -> Vec<crate::script::metadata::FnDoc> {
        crate::script::metadata::functions(&self.engine)
    }

    /// Rhai's definition files of this game's engine (the host API and Rhai's standard
    /// library), as (file name, text), for editors (`sandtable defs`).
    pub fn engine_definitions(&self) -> Vec<(String, String)> {
        self.engine.definitions().iter_files().collect()
    }

    /// Every type the host gives scripts, with its doc.
    pub fn host_types(&self) -> Vec<crate::script::metadata::TypeDoc> {
        crate::script::metadata::types(&self.engine)
    }

    /// The files the game comes from: the ruleset's package, the shared abilities it
    /// borrows, the house rules and the scenario (what a watcher watches for hot reload).
    pub fn script_paths(&self) -> Vec<std::path::PathBuf> {
        let ruleset = &self.scenario.ruleset;
        let mut paths = vec![ruleset.dir.clone()];
        paths.extend(
            ruleset
                .abilities
                .values()
                .filter(|p| !p.starts_with(&ruleset.dir))
                .cloned(),
        );
        paths.extend(self.scenario.house_rules.iter().cloned());
        paths.push(self.scenario.path.clone());
        paths
    }

    /// Which reading of the scripts from disk the game's rules come from: a number of this
    /// process's own, new each time the scripts are read again (`reload`, a change of house
    /// rules or its undoing, even one that failed to compile), so that a journal knows when
    /// to fingerprint them again.
    pub fn reading(&self) -> u64 {
        self.reading
    }

    /// The files of the modules the scripts have imported so far (each its real path): those
    /// imported as the scripts loaded, and those a function has imported since.
    pub fn imported(&self) -> Vec<PathBuf> {
        self.modules.files()
    }

    /// The project the game's scripts come from.
    pub fn project(&self) -> &Project {
        &self.project
    }

    /// The scenario being played.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The game state (read-only).
    pub fn state(&self) -> std::cell::Ref<'_, GameState> {
        self.state.borrow()
    }

    /// Marks the game as it is before an action, for `undo`. Past [`MAX_UNDO`] actions, the
    /// oldest is forgotten, and so is the journal that could undo it.
    pub fn checkpoint(&mut self) {
        let mark = self.state.borrow().mark();
        self.push_step(Step { mark, rules: None });
    }

    fn push_step(&mut self, step: Step) {
        self.past.push(step);
        if self.past.len() > MAX_UNDO {
            self.past.remove(0);
            self.state.borrow_mut().forget_before(&self.past[0].mark);
        }
        // Past `MAX_UNDO_BYTES` of old values, the oldest actions are forgotten too (the
        // newest step, the action about to be taken, stays).
        while self.past.len() > 1 && self.state.borrow().undo_bytes() > MAX_UNDO_BYTES {
            self.past.remove(0);
            self.state.borrow_mut().forget_before(&self.past[0].mark);
        }
    }

    /// Forgets the last checkpoint (its action changed nothing, or failed and was rolled
    /// back).
    pub fn drop_checkpoint(&mut self) {
        self.past.pop();
    }

    /// Confirms the last checkpoint: a new action forgets what had been undone.
    pub fn keep_checkpoint(&mut self) {
        self.future.clear();
        self.steps += 1;
    }

    /// Whether anything undoable has happened (an action, a change of house rules, an undo
    /// or a redo) since the game began or was last saved or opened.
    pub fn changed_since_save(&self) -> bool {
        self.steps != self.saved_steps
    }

    /// Undoes up to `n` steps (actions, or changes of the house rules), generator included
    /// (the same action taken again rolls the same dice). Returns how many were undone.
    pub fn undo(&mut self, n: usize) -> Result<usize, Error> {
        let mut done = 0;
        while done < n {
            let Some(mut step) = self.past.pop() else {
                break;
            };
            // The undo history forgets its oldest changes past `MAX_UNDO_BYTES`.
            if !self.state.borrow().reaches(&step.mark) {
                self.past.clear();
                break;
            }
            if let Err(e) = self.swap_rules(&mut step) {
                self.past.push(step);
                return Err(e);
            }
            let redo = self.state.borrow_mut().rewind(step.mark.clone());
            self.future.push((step, redo));
            self.steps += 1;
            done += 1;
        }
        self.emitted = self.emitted.min(self.state.borrow().log_end());
        Ok(done)
    }

    /// Redoes up to `n` undone steps. Returns how many were redone.
    pub fn redo(&mut self, n: usize) -> Result<usize, Error> {
        let mut done = 0;
        while done < n {
            let Some((mut step, redo)) = self.future.pop() else {
                break;
            };
            if let Err(e) = self.swap_rules(&mut step) {
                self.future.push((step, redo));
                return Err(e);
            }
            self.state.borrow_mut().replay(redo);
            self.past.push(step);
            self.steps += 1;
            done += 1;
        }
        self.emitted = self.state.borrow().log_end();
        Ok(done)
    }

    /// For a step that changed the house rules: puts those on its other side in force, and
    /// keeps the ones in force now in their place, so that the step can be taken back again.
    /// If they fail to compile, nothing changes.
    fn swap_rules(&mut self, step: &mut Step) -> Result<(), Error> {
        let Some(rules) = step.rules.take() else {
            return Ok(());
        };
        let now = self.scenario.house_rules.clone();
        if let Err(e) = self.rebuild(rules.clone()) {
            step.rules = Some(rules);
            return Err(e);
        }
        step.rules = Some(now);
        Ok(())
    }

    /// `:with FILE`: puts a house rule in force from the next action, after those already in
    /// force; one step of `:undo`.
    pub fn add_house_rule(&mut self, path: &Path) -> Result<(), Error> {
        let rules = crate::game::scenario::house_rules_with(&self.scenario.house_rules, path)?;
        let name = crate::game::scenario::house_rule_name(path);
        self.change_house_rules(rules, format!("house rule {name} in force"))
    }

    /// `:without NAME`: takes a house rule out of force; one step of `:undo`.
    pub fn remove_house_rule(&mut self, name: &str) -> Result<(), Error> {
        let Some(path) = self.scenario.house_rule_named(name).cloned() else {
            let names: Vec<String> = self
                .scenario
                .house_rules
                .iter()
                .map(|p| crate::game::scenario::house_rule_name(p))
                .collect();
            return Err(Error::other(
                format!("no house rule `{name}` is in force"),
                Some(if names.is_empty() {
                    "no house rule is in force".into()
                } else {
                    format!("in force: {}", names.join(", "))
                }),
            ));
        };
        let rules = self
            .scenario
            .house_rules
            .iter()
            .filter(|p| **p != path)
            .cloned()
            .collect();
        self.change_house_rules(rules, format!("house rule {name} no longer in force"))
    }

    fn change_house_rules(&mut self, rules: Vec<PathBuf>, said: String) -> Result<(), Error> {
        let before = self.scenario.house_rules.clone();
        let mark = self.state.borrow().mark();
        self.rebuild(rules)?;
        self.state.borrow_mut().say(said);
        self.push_step(Step {
            mark,
            rules: Some(before),
        });
        self.future.clear();
        self.steps += 1;
        Ok(())
    }

    /// Gives the turn to `side` without ending anyone's turn (what-if analysis: the odds of an
    /// action of the side that is not to play).
    pub fn set_active_side(&mut self, side: &str) -> Result<(), Error> {
        let turn = self.state.borrow().turn.max(1);
        self.state
            .borrow_mut()
            .set_turn(turn, side)
            .map_err(|m| Error::other(m, None))
    }

    /// What each house rule in force does, by name, in the order they apply: the hooks it
    /// answers, the ruleset functions it replaces, the verbs it adds.
    pub fn house_rule_functions(
        &self,
    ) -> Vec<(String, crate::script::functions::HouseRuleFunctions)> {
        self.abilities
            .borrow()
            .house_rules
            .iter()
            .map(|r| (r.id.clone(), r.functions.clone()))
            .collect()
    }

    /// What each parameter of a verb must be (a unit, a number, a word or anything), read
    /// from its uses in the scripts (`script::lint::verb_params`), so that a word typed for it
    /// is refused at the word; all `Any` when nothing is known.
    pub fn verb_kinds(&self, verb: &str) -> Vec<crate::script::lint::ParamKind> {
        if let Some(kinds) = self.verb_kinds.borrow().get(verb) {
            return kinds.clone();
        }
        let kinds = self
            .sources
            .known()
            .and_then(|known| crate::script::lint::verb_params(known, &[&self.ast], verb))
            .unwrap_or_default();
        self.verb_kinds
            .borrow_mut()
            .insert(verb.to_string(), kinds.clone());
        kinds
    }

    /// The house rules in force, in the order they apply.
    pub fn house_rules(&self) -> &[PathBuf] {
        &self.scenario.house_rules
    }

    /// Every stat, tag and ability of a unit, with uses left, for `:show`.
    pub fn describe_unit(&self, idx: usize) -> String {
        let state = self.state.borrow();
        let Ok(u) = state.unit(idx) else {
            return "no such unit".into();
        };
        let side = state
            .sides
            .iter()
            .find(|s| s.id == u.side)
            .map_or(u.side.as_str(), |s| s.name.as_str());
        let mut out = format!(
            "{} ({}), {} of {}\n  at {} facing {}{}\n",
            u.id,
            u.name,
            u.troop.replace('_', " "),
            side,
            u.pos,
            crate::game::event::degrees(u.facing),
            if u.in_play {
                String::new()
            } else {
                ", out of play".into()
            }
        );
        // The host's counters the ruleset uses, in its words (both in the host's when it
        // does not say).
        let counters = match &self.scenario.ruleset.file.counters {
            None => vec![
                ("hits".to_string(), u.hits),
                ("stands".to_string(), u.stands),
            ],
            Some(named) => named
                .iter()
                .map(|(c, word)| {
                    let value = match c {
                        crate::game::ruleset::Counter::Hits => u.hits,
                        crate::game::ruleset::Counter::Stands => u.stands,
                    };
                    (word.clone(), value)
                })
                .collect(),
        };
        if !counters.is_empty() {
            let shown: Vec<String> = counters.iter().map(|(w, v)| format!("{w} {v}")).collect();
            out.push_str(&format!("  {}\n", shown.join(", ")));
        }
        let stats: Vec<String> = u
            .stats
            .iter()
            .filter(|(k, _)| !k.starts_with('_'))
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        out.push_str(&format!("  stats: {}\n", stats.join(", ")));
        let tags: Vec<&str> = u
            .tags
            .iter()
            .filter(|t| !t.starts_with('_'))
            .map(String::as_str)
            .collect();
        if !tags.is_empty() {
            out.push_str(&format!("  tags: {}\n", tags.join(", ")));
        }
        if !u.groups.is_empty() {
            let groups: Vec<String> = u.groups.iter().map(|(k, v)| format!("{k} {v}")).collect();
            out.push_str(&format!("  groups: {}\n", groups.join(", ")));
        }
        let abilities = self.abilities.borrow();
        for name in &u.abilities {
            let Some(a) = abilities.list.get(name) else {
                continue;
            };
            let used = state.ability_use(idx, name);
            let left = match a.meta.uses_left(&used) {
                Some(n) => format!("{n} use{} left", if n == 1 { "" } else { "s" }),
                None => "unlimited".into(),
            };
            let now = if a.meta.is_active(&used, state.clock()) {
                ", in force"
            } else {
                ""
            };
            let activation = format!("{:?}", a.meta.activation).to_lowercase();
            out.push_str(&format!(
                "  ability {} ({name}): {activation}, {left}{now}\n",
                a.meta.name
            ));
        }
        out.trim_end().to_string()
    }

    /// Recompiles the ruleset's scripts, the house rules and the abilities from disk and puts
    /// them in force from the next action, keeping the game (units, decks, dice, turn). If
    /// anything fails to compile, the old scripts stay in force and the error says why.
    pub fn reload(&mut self) -> Result<String, Error> {
        self.rebuild(self.scenario.house_rules.clone())?;
        let abilities = self.abilities.borrow().list.len();
        Ok(format!(
            "reloaded the scripts: {} verbs, {abilities} abilities",
            self.verbs.len()
        ))
    }

    /// Compiles the scripts anew with `house_rules` in force (the scenario's file is read
    /// again, its list of house rules replaced), keeping the game. If anything fails, the
    /// old scripts stay in force.
    fn rebuild(&mut self, house_rules: Vec<PathBuf>) -> Result<(), Error> {
        let seed = self.state.borrow().rng.seed();
        // A fresh session compiles everything anew (with a fresh module cache); then it takes
        // over this game: its state, the prompt's variables, the undo history.
        let fresh = Scenario::load(&self.project, &self.scenario.path).and_then(|mut scenario| {
            scenario.house_rules = house_rules;
            Session::with_limits(&self.project, scenario, seed, self.limits.clone())
        });
        let mut fresh = match fresh {
            Ok(fresh) => fresh,
            Err(e) => {
                // The files were read all the same: a journal notes what they held.
                self.reading = next_reading();
                return Err(e);
            }
        };
        let game = self.state.borrow().clone();
        *fresh.state.borrow_mut() = game;
        fresh.scope = std::mem::take(&mut self.scope);
        fresh.past = std::mem::take(&mut self.past);
        fresh.future = std::mem::take(&mut self.future);
        fresh.emitted = self.emitted;
        (fresh.steps, fresh.saved_steps) = (self.steps, self.saved_steps);
        // Functions typed at the prompt stay defined.
        fresh.ast = fresh.ast.merge(&self.prompt_functions);
        fresh.prompt_functions = std::mem::take(&mut self.prompt_functions);
        fresh.prompt_defined = std::mem::take(&mut self.prompt_defined);
        self.hand_over_real_dice_and_cards(&mut fresh);
        fresh.told_end = self.told_end.take();
        fresh.unwritten = std::mem::take(&mut self.unwritten);
        *self = fresh;
        Ok(())
    }

    /// Saves the whole game to a file (atomically).
    pub fn save(&mut self, path: &Path) -> Result<(), Error> {
        self.save_of(path)?.write(path)?;
        self.saved_steps = self.steps;
        self.unwritten.remove(&absolute(path));
        Ok(())
    }

    /// What [`Session::save`] would write to `path`.
    fn save_of(&self, path: &Path) -> Result<crate::game::save::SavedGame, Error> {
        crate::game::save::SavedGame::of(
            &self.scenario.path,
            &self.scenario.house_rules,
            &self.state.borrow(),
        )
        .naming_from(path, self.project.root())
    }

    /// A replayed `:save`: writes nothing, but keeps what it would have written, for an
    /// `:open` of the same file later in the replay ([`Session::open_in_replay`]).
    pub fn save_unwritten(&mut self, path: &Path) -> Result<(), Error> {
        let save = self.save_of(path)?;
        self.unwritten.insert(absolute(path), save);
        self.saved_steps = self.steps;
        Ok(())
    }

    /// Continues a saved game: the scenario's scripts are loaded afresh and the saved state
    /// put in place.
    pub fn open(project: &Project, path: &Path) -> Result<Session, Error> {
        let (save, text) = crate::game::save::SavedGame::read_text(path)?;
        Session::open_saved(project, path, save, &text)
    }

    /// Continues a saved game, in a replay: a file a replayed `:save` did not write is
    /// opened as it was saved then; any other is read from disk.
    ///
    /// A game the journal recorded as opened ([`Session::expect_open`]) is opened as it was
    /// recorded, and the file is not read at all: it may have changed, or gone, since.
    pub fn open_in_replay(&mut self, path: &Path) -> Result<Session, Error> {
        let mut session = match self.recorded_open.take() {
            Some(recorded) => Session::open_recorded(&self.project, path, recorded?)?,
            None => match self.unwritten.get(&absolute(path)) {
                Some(save) => {
                    Session::open_saved(&self.project, path, save.clone(), &save.text()?)?
                }
                None => Session::open(&self.project, path)?,
            },
        };
        session.unwritten = std::mem::take(&mut self.unwritten);
        Ok(session)
    }

    /// In a replay, whether an `:open` of `path` opens a game known without reading the file:
    /// one the journal recorded, or one a replayed `:save` did not write.
    pub fn replay_knows(&self, path: &Path) -> bool {
        self.recorded_open.is_some() || self.unwritten.contains_key(&absolute(path))
    }

    /// In a replay, gives how the next `:save` went when it was played: `None` saved, else
    /// the error it failed with.
    pub fn expect_save(&mut self, failed: Option<Error>) {
        self.recorded_save = Some(failed);
    }

    /// In a replay, takes how the line about to run went when it was played, if the journal
    /// recorded it as a `:save` that failed: the error it failed with, for the replay to fail
    /// with again (keeping nothing, so that a later `:open` of that file finds what the
    /// session found). Whatever was recorded is for this line only.
    pub fn recorded_save_failure(&mut self) -> Option<Error> {
        self.recorded_save.take().flatten()
    }

    /// In a replay, gives the game the next `:open` opened when it was played (or why it
    /// cannot be opened), as its journal recorded it.
    pub fn expect_open(&mut self, recorded: Result<RecordedOpen, Error>) {
        self.recorded_open = Some(recorded);
    }

    /// Continues a game a journal recorded as opened from `path`: its files are the ones
    /// given, found by the journal's rule, and nothing else is read.
    pub fn open_recorded(
        project: &Project,
        path: &Path,
        recorded: RecordedOpen,
    ) -> Result<Session, Error> {
        let text = recorded.save.text()?;
        Session::open_with_files(
            project,
            path,
            recorded.save,
            &text,
            recorded.scenario,
            recorded.house_rules,
        )
    }

    /// Forgets the saves a replay did not write: the replay is over, and from now on a file
    /// is opened as it is.
    pub fn forget_unwritten(&mut self) {
        self.unwritten.clear();
        self.recorded_open = None;
        self.recorded_save = None;
    }

    /// Carries the saves a replay did not write over to the session that replaces this one
    /// (`:load`).
    pub fn hand_over_unwritten(&mut self, to: &mut Session) {
        to.unwritten = std::mem::take(&mut self.unwritten);
    }

    /// Hands real dice and cards (`:dice manual`, `:cards manual`) over to the game that
    /// replaces this one (`:open`, `:load`): the players at the table go on rolling and
    /// drawing their own.
    pub fn hand_over_real_dice_and_cards(&mut self, to: &mut Session) {
        *to.manual.borrow_mut() = self.manual.borrow_mut().take();
        *to.cards.borrow_mut() = self.cards.borrow_mut().take();
    }

    /// Continues a game from a save already read, as saved at `path`.
    fn open_saved(
        project: &Project,
        path: &Path,
        save: crate::game::save::SavedGame,
        text: &str,
    ) -> Result<Session, Error> {
        let (scenario, house_rules) = save.files(path, project.root())?;
        Session::open_with_files(project, path, save, text, scenario, house_rules)
    }

    /// Continues a game from a save already read, with its scenario and house rules found.
    fn open_with_files(
        project: &Project,
        path: &Path,
        save: crate::game::save::SavedGame,
        text: &str,
        scenario: PathBuf,
        house_rules: Option<Vec<PathBuf>>,
    ) -> Result<Session, Error> {
        let mut scenario = Scenario::load(project, &scenario)?;
        save.check(&path.display().to_string(), text, &scenario)?;
        if let Some(rules) = house_rules {
            scenario.house_rules = rules;
        }
        let mut session = Session::new(project, scenario, save.rng.seed)?;
        save.restore_into(&mut session.state.borrow_mut())?;
        session.emitted = session.state.borrow().log_end();
        Ok(session)
    }

    /// Runs `f` and then puts everything back as it was: the game, the undo history, the
    /// events already shown and where dice come from. Exact odds play an action this way
    /// over every outcome.
    pub fn hypothetically<R>(&mut self, f: impl FnOnce(&mut Session) -> R) -> R {
        let mark = self.mark();
        let past = self.past.len();
        let future = std::mem::take(&mut self.future);
        let emitted = self.emitted;
        let steps = self.steps;
        let dice = self.manual.borrow_mut().take();
        let cards = self.cards.borrow_mut().take();
        let result = f(self);
        self.rollback(mark);
        self.past.truncate(past);
        self.future = future;
        self.emitted = emitted;
        self.steps = steps;
        *self.manual.borrow_mut() = dice;
        *self.cards.borrow_mut() = cards;
        result
    }

    /// Replaces the generator (a Monte Carlo run plays on its own stream).
    pub fn set_rng(&mut self, rng: crate::host::rng::GameRng) {
        self.state.borrow_mut().rng = rng;
    }

    /// Shuffles the hidden order of every shuffled deck's pile from the generator
    /// ([`GameState::reshuffle_hidden_piles`]): a Monte Carlo run's fresh cards.
    pub fn reshuffle_hidden_piles(&mut self) {
        self.state.borrow_mut().reshuffle_hidden_piles();
    }

    /// A copy of the game's state (for undo, saves and benchmarks).
    pub fn snapshot(&self) -> GameState {
        self.state.borrow().clone()
    }

    /// Puts the game back to a snapshot taken earlier.
    pub fn restore(&mut self, snapshot: GameState) {
        let len = snapshot.log_end();
        *self.state.borrow_mut() = snapshot;
        self.emitted = self.emitted.min(len);
    }

    /// Where the game stands now; [`Session::rollback`] returns to it cheaply.
    pub fn mark(&self) -> Mark {
        self.state.borrow().mark()
    }

    /// Undoes everything since `mark`, however many actions ago it was taken.
    pub fn rollback(&mut self, mark: Mark) {
        let mut state = self.state.borrow_mut();
        state.rollback(mark);
        self.emitted = self.emitted.min(state.log_end());
    }

    /// The sandbox limits in force.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Rolls a dice expression typed by a player (`roll 3d6` at the prompt) and logs it.
    pub fn roll(
        &mut self,
        expr: &str,
    ) -> Result<crate::host::dice::Roll, crate::host::dice::DiceError> {
        self.state.borrow_mut().roll_text(expr, None)
    }

    /// Draws cards from one of the game's decks and logs them.
    ///
    /// With real cards (`:cards manual`) the players say which cards they drew, unlike a
    /// `roll` typed at the prompt, which the generator rolls: the pile here must stay the
    /// pile on the table, so every card taken from it is one taken at the table.
    pub fn draw(&mut self, deck: &str, n: usize) -> Result<Vec<crate::host::cards::Card>, String> {
        api::cards::draw(
            &self.state,
            &self.cards,
            &self.budget,
            deck,
            n,
            crate::game::state::Drawn::Kept,
        )
    }

    /// A script value as the prompt shows it.
    pub fn show(&self, value: &Dynamic) -> String {
        api::show(&self.state.borrow(), value)
    }

    /// Makes a Rhai value for a unit, for verbs called with unit arguments.
    pub fn unit_value(&self, idx: usize) -> Dynamic {
        Dynamic::from(api::UnitRef(idx))
    }
}

/// A path made absolute against the current folder (the key of a replay's unwritten saves).
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(seed: u64) -> Session {
        let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
        let scenario = Scenario::load(&project, &project.default_scenario()).unwrap();
        Session::new(&project, scenario, seed).unwrap()
    }

    /// Every function, method and property the host registers for scripts is in the API
    /// reference, docs/api.md, under its own name.
    #[test]
    fn every_script_function_is_documented() {
        let s = session(1);
        let docs = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/api.md"),
        )
        .unwrap();
        let mut missing = std::collections::BTreeSet::new();
        for signature in s.engine.gen_fn_signatures(false) {
            let name = signature
                .split('(')
                .next()
                .unwrap_or_default()
                .trim_start_matches("fn ")
                .trim_start_matches("get$")
                .trim_start_matches("set$")
                .to_string();
            // Operators and the printing hooks are documented by what they do, not by name.
            let operator = !name.starts_with(|c: char| c.is_alphabetic() || c == '_');
            if operator || name.contains('$') || name == "to_string" || name == "to_debug" {
                continue;
            }
            if !docs.contains(&format!("`{name}")) && !docs.contains(&format!(".{name}")) {
                missing.insert(name);
            }
        }
        assert!(missing.is_empty(), "not in docs/api.md: {missing:?}");
    }

    /// Each simulated run starts from the scenario on its own stream: the preparation roll
    /// (in a scenario that names no first side) differs between runs, and a run started
    /// twice is the same game.
    #[test]
    fn start_over_rolls_the_set_up_again_on_the_new_stream() {
        let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
        let path = project.root().join("scenarios/hoplites_vs_persians.yaml");
        let scenario = Scenario::load(&project, &path).unwrap();
        assert!(
            scenario.first.is_none(),
            "the test needs a preparation roll"
        );
        let mut s = Session::new(&project, scenario, 1).unwrap();
        let mut first_sides = std::collections::BTreeSet::new();
        for run in 0..20 {
            s.start_over(1, crate::host::rng::GameRng::for_run(1, run))
                .unwrap();
            first_sides.insert(s.state().active_side.clone());
        }
        assert_eq!(first_sides.len(), 2, "one side always moved first");
        s.start_over(1, crate::host::rng::GameRng::for_run(1, 7))
            .unwrap();
        let once = s.take_events();
        s.start_over(1, crate::host::rng::GameRng::for_run(1, 7))
            .unwrap();
        assert_eq!(s.take_events(), once);
    }

    // An `end_turn` that sets the turn back gets past the turns' limit and the plays one
    // turn may take: the plays of the whole battle stop it.
    #[test]
    fn a_battle_whose_turns_go_back_is_stopped() {
        let mut s = session(1);
        let _ = s
            .eval(
                "t",
                "fn victory() { () }\nfn play_turn(side) { }\nfn end_turn() { set_turn(turn() - 1, active_side()); }",
            )
            .unwrap();
        let err = s.play_battle_within((15, 10, 50), |_| {}).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the battle has not ended after 50 plays, and it is only turn -49"
        );
        let _ = s
            .eval("t", "fn end_turn() { set_phase(\"again\"); }")
            .unwrap();
        let err = s.play_battle_within((15, 10, 50), |_| {}).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the battle is still in turn -49 after 10 plays in it"
        );
    }

    #[test]
    fn dice_calls_are_never_folded_into_constants() {
        // Even at the optimiser's most aggressive level, which evaluates pure functions with
        // constant arguments at compile time, `roll` stays a call because it is volatile.
        let mut s = session(1);
        s.engine
            .set_optimization_level(rhai::OptimizationLevel::Full);
        let ast = s.engine.compile("roll(\"1d1000000\").total").unwrap();
        let values: std::collections::BTreeSet<i64> = (0..5)
            .map(|_| s.engine.eval_ast::<i64>(&ast).unwrap())
            .collect();
        assert_eq!(values.len(), 5, "the same roll came back: {values:?}");
    }

    #[test]
    fn failed_line_leaves_game_scope_and_log_unchanged() {
        let mut s = session(1);
        let _ = s.eval("t", "let kept = 1;").unwrap();
        let before = format!("{:?}", s.state().battlefield.units());
        let log = s.state().log.len();
        let err = s
            .eval(
                "t",
                "kept = 2; unit(\"viking_1\").move_to(1, 1); roll(\"2d6\"); throw \"no\";",
            )
            .unwrap_err();
        assert!(matches!(err, Error::Rules { .. }), "{err:?}");
        assert_eq!(format!("{:?}", s.state().battlefield.units()), before);
        assert_eq!(s.state().log.len(), log);
        assert_eq!(s.eval("t", "kept").unwrap().as_int().unwrap(), 1);
    }

    #[test]
    fn functions_defined_at_the_prompt_stay() {
        let mut s = session(1);
        let _ = s.eval("t", "fn twice(x) { x * 2 }").unwrap();
        assert_eq!(s.eval("t", "twice(21)").unwrap().as_int().unwrap(), 42);
    }

    #[test]
    fn verbs_carry_their_doc_comments() {
        let s = session(1);
        let melee = &s.verbs()["melee"];
        assert_eq!(melee.params, ["attacker", "defender"]);
        assert!(
            melee
                .doc
                .starts_with("Attack an enemy figure within 2 inches")
        );
        assert!(!s.verbs().contains_key("setup"), "hooks are not verbs");
        assert!(
            !s.verbs().contains_key("fmt"),
            "private helpers are not verbs"
        );
    }

    // Guards the question before leaving a game with unsaved changes: what counts as one.
    #[test]
    fn changes_since_save_are_the_undoable_steps() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = session(1);
        let act = |s: &mut Session, line: &str| {
            let parsed = crate::session::line::Parsed::parse(s, "t", line).unwrap();
            let _ = s.act(&parsed).unwrap();
        };
        assert!(!s.changed_since_save(), "a new game");
        act(&mut s, "print(\"no step of undo\")");
        assert!(!s.changed_since_save(), "printing changes nothing");
        act(&mut s, "roll 1d6");
        assert!(s.changed_since_save());
        s.save(&dir.path().join("game.json")).unwrap();
        assert!(!s.changed_since_save(), "just saved");
        s.reload().unwrap();
        assert!(!s.changed_since_save(), "a reload keeps the game");
        s.undo(1).unwrap();
        assert!(s.changed_since_save(), "the saved roll is undone");
        s.redo(1).unwrap();
        s.save(&dir.path().join("game.json")).unwrap();
        s.add_house_rule(&PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/examples/house_rules/vikings_in_wood.rhai"
        )))
        .unwrap();
        assert!(s.changed_since_save(), "a house rule put in force");
        let opened = Session::open(&s.project().clone(), &dir.path().join("game.json")).unwrap();
        assert!(!opened.changed_since_save(), "a game just opened");
    }

    #[test]
    fn same_seed_same_game() {
        let run = |seed| {
            let mut s = session(seed);
            let _ = s
                .eval(
                    "t",
                    "let v = unit(\"viking_1\"); let l = unit(\"legionary_1\"); melee(v, l);",
                )
                .unwrap();
            crate::game::event::render(&s.take_events(), true)
        };
        assert_eq!(run(5), run(5));
        assert_ne!(run(5), run(6));
    }
}
