//! Tab completion and hints at the prompt.
//!
//! Completes meta commands after `:`, verbs (and `roll`, `draw`) as the first word, file
//! paths after `:load`, `:open` and `:save`, and unit ids, ability names and side ids
//! elsewhere. A single match is completed with the space after it; several are completed as
//! far as they agree, and a second Tab lists them (the prompt uses rustyline's
//! `CompletionType::List`). Where a verb's parameter takes one of a set of words (`verbs:` in
//! its ruleset.yaml), those words are completed there instead. Hints show the rest of a verb's
//! usage as its arguments are typed. A verb the ruleset writes in secret has its arguments
//! shown as `*` as they are typed, so that the other side does not read them on the screen.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use rustyline::completion::{Completer, Pair};
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::Hinter;
use rustyline::{Context, Helper, Validator};

use crate::session::Session;
use crate::session::command::META_COMMANDS;

/// What the prompt can complete, refreshed from the session before each line.
#[derive(Default, Helper, Validator)]
pub struct PromptHelper {
    /// Verb names and their parameters.
    pub verbs: BTreeMap<String, Vec<String>>,
    /// Unit ids, ability names and side ids.
    pub words: Vec<String>,
    /// The words a verb's parameter takes, by verb and the parameter's place (from 0).
    pub verb_words: BTreeMap<(String, usize), Vec<String>>,
    /// The verbs written in secret.
    pub secret: BTreeSet<String>,
}

impl PromptHelper {
    /// Takes the names to complete from the session.
    pub fn refresh(&mut self, session: &Session) {
        self.verbs = session
            .verbs()
            .values()
            .map(|v| (v.name.clone(), v.params.clone()))
            .collect();
        self.verb_words = self
            .verbs
            .iter()
            .flat_map(|(name, params)| {
                (0..params.len()).filter_map(move |i| {
                    let words = session.verb_words(name, i)?;
                    Some(((name.clone(), i), words.to_vec()))
                })
            })
            .collect();
        self.secret = self
            .verbs
            .keys()
            .filter(|v| session.secret_verb(v).is_some())
            .cloned()
            .collect();
        let state = session.state();
        let mut words: Vec<String> = state
            .battlefield
            .units()
            .iter()
            .filter(|u| u.in_play)
            .map(|u| u.id.clone())
            .collect();
        words.extend(state.sides.iter().map(|s| s.id.clone()));
        words.extend(session.ability_names());
        words.sort();
        words.dedup();
        self.words = words;
    }
}

fn pairs<'a>(items: impl Iterator<Item = &'a str>, prefix: &str) -> Vec<Pair> {
    items
        .filter(|w| w.starts_with(prefix))
        .map(|w| Pair {
            display: w.to_string(),
            replacement: w.to_string(),
        })
        .collect()
}

/// File names starting with `prefix` (relative to the current folder).
fn files(prefix: &str) -> Vec<Pair> {
    let (dir, stem) = match prefix.rfind('/') {
        Some(i) => (&prefix[..=i], &prefix[i + 1..]),
        None => ("", prefix),
    };
    let folder = if dir.is_empty() {
        Path::new(".")
    } else {
        Path::new(dir)
    };
    let mut out: Vec<Pair> = std::fs::read_dir(folder)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_string();
            if !name.starts_with(stem) {
                return None;
            }
            let slash = if e.path().is_dir() { "/" } else { "" };
            Some(Pair {
                display: format!("{name}{slash}"),
                replacement: format!("{dir}{name}{slash}"),
            })
        })
        .collect();
    out.sort_by(|a, b| a.display.cmp(&b.display));
    out
}

/// A single match finishes the word: it gets the space that the next word needs, unless
/// one follows already or it is a folder, whose files come next.
fn end_word(mut candidates: Vec<Pair>, after: &str) -> Vec<Pair> {
    if let [only] = candidates.as_mut_slice()
        && !only.replacement.ends_with('/')
        && !after.starts_with(char::is_whitespace)
    {
        only.replacement.push(' ');
    }
    candidates
}

impl Completer for PromptHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..pos];
        let start = before.rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let word = &before[start..];
        let first = before.split_whitespace().next().unwrap_or("");
        let candidates = if start == 0 && word.starts_with(':') {
            pairs(META_COMMANDS.iter().map(|(n, _)| *n), word)
        } else if start == 0 {
            pairs(
                self.verbs
                    .keys()
                    .map(String::as_str)
                    .chain(["roll", "draw"]),
                word,
            )
        } else if matches!(first, ":load" | ":open" | ":save") {
            files(word)
        } else if let Some(words) = self.verb_words.get(&(
            first.to_string(),
            before[..start].split_whitespace().count() - 1,
        )) {
            pairs(words.iter().map(String::as_str), word)
        } else {
            pairs(self.words.iter().map(String::as_str), word)
        };
        Ok((start, end_word(candidates, &line[pos..])))
    }
}

/// Where the arguments of a secret verb's line start (in bytes), when `line` is one.
fn secret_from(secret: &BTreeSet<String>, line: &str) -> Option<usize> {
    let start = line.len() - line.trim_start().len();
    let rest = &line[start..];
    let end = rest.find(char::is_whitespace)?;
    secret.contains(&rest[..end]).then_some(start + end)
}

impl Highlighter for PromptHelper {
    /// A secret verb's arguments as `*`, one for each character.
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        match secret_from(&self.secret, line) {
            Some(at) => {
                let masked: String = line[at..]
                    .chars()
                    .map(|c| if c.is_whitespace() { c } else { '*' })
                    .collect();
                Cow::Owned(format!("{}{masked}", &line[..at]))
            }
            None => Cow::Borrowed(line),
        }
    }

    fn highlight_char(&self, line: &str, _pos: usize, kind: CmdKind) -> bool {
        kind != CmdKind::MoveCursor && secret_from(&self.secret, line).is_some()
    }
}

impl Hinter for PromptHelper {
    type Hint = String;

    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<String> {
        if pos < line.len() || line.is_empty() {
            return None;
        }
        // After `melee viking_1 ` the hint is the parameters still to give: `defender`.
        if !line.ends_with(' ') {
            return None;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let params = self.verbs.get(*words.first()?)?;
        let rest: Vec<&str> = params
            .iter()
            .skip(words.len() - 1)
            .map(String::as_str)
            .collect();
        (!rest.is_empty()).then(|| rest.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn helper() -> PromptHelper {
        PromptHelper {
            verbs: [(
                "melee".to_string(),
                vec!["attacker".to_string(), "defender".to_string()],
            )]
            .into(),
            words: vec!["legionary_1".into(), "testudo".into(), "viking_1".into()],
            ..PromptHelper::default()
        }
    }

    // Guards completing a verb's words: `order redcoat_1 fo<Tab>` offered unit ids, not the
    // orders the ruleset lists for `what`.
    #[test]
    fn a_verbs_word_is_completed_from_the_words_it_takes() {
        let mut h = helper();
        h.verbs
            .insert("order".into(), vec!["figure".into(), "what".into()]);
        h.words.push("forward_scout".into());
        h.verb_words.insert(
            ("order".into(), 1),
            vec!["fire".into(), "forward_march".into(), "hold".into()],
        );
        let history = rustyline::history::DefaultHistory::new();
        let ctx = Context::new(&history);
        let names = |line: &str| {
            let (_, c) = h.complete(line, line.len(), &ctx).unwrap();
            c.into_iter().map(|p| p.replacement).collect::<Vec<_>>()
        };
        assert_eq!(names("order viking_1 fo"), ["forward_march "]);
        assert_eq!(names("order viking_1 f"), ["fire", "forward_march"]);
        // The figure is still a unit.
        assert_eq!(names("order vi"), ["viking_1 "]);
    }

    // Guards secret orders at one keyboard: what a secret verb is told was on the screen as
    // it was typed.
    #[test]
    fn a_secret_verbs_arguments_are_masked() {
        let mut h = helper();
        h.secret.insert("order".into());
        assert_eq!(h.highlight("order pte_1 fire", 0), "order ***** ****");
        assert_eq!(h.highlight("order", 0), "order");
        assert_eq!(h.highlight("melee viking_1", 0), "melee viking_1");
        assert!(h.highlight_char("order p", 7, CmdKind::Other));
        assert!(!h.highlight_char("melee v", 7, CmdKind::Other));
    }

    #[test]
    fn completes_verbs_meta_commands_and_units() {
        let h = helper();
        let history = rustyline::history::DefaultHistory::new();
        let ctx = Context::new(&history);
        let names = |line: &str| {
            let (_, c) = h.complete(line, line.len(), &ctx).unwrap();
            c.into_iter().map(|p| p.replacement).collect::<Vec<_>>()
        };
        assert_eq!(names("me"), ["melee "]);
        assert_eq!(names(":un"), [":units", ":undo"]);
        assert_eq!(names("melee vi"), ["viking_1 "]);
        assert_eq!(names("melee viking_1 te"), ["testudo "]);
    }

    // Guards completing a word whole: `mel`, Tab, `vik` gave `meleevik`, since a unique
    // completion did not end the word.
    #[test]
    fn a_unique_completion_ends_with_a_space() {
        let h = helper();
        let history = rustyline::history::DefaultHistory::new();
        let ctx = Context::new(&history);
        let names = |line: &str, pos: usize| {
            let (_, c) = h.complete(line, pos, &ctx).unwrap();
            c.into_iter().map(|p| p.replacement).collect::<Vec<_>>()
        };
        assert_eq!(names("mel", 3), ["melee "]);
        assert_eq!(names(":und", 4), [":undo "]);
        assert_eq!(names("melee vi", 8), ["viking_1 "]);
        // Several matches: the word is not finished yet.
        assert_eq!(names(":un", 3), [":units", ":undo"]);
        // A space already follows the word.
        assert_eq!(names("mel viking_1", 3), ["melee"]);
        // A folder goes on with its files.
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("saves")).unwrap();
        let line = format!(":open {}/sa", dir.path().display());
        let folder = format!("{}/saves/", dir.path().display());
        assert_eq!(names(&line, line.len()), [folder]);
    }

    #[test]
    fn hints_the_parameters_still_to_give() {
        let h = helper();
        let history = rustyline::history::DefaultHistory::new();
        let ctx = Context::new(&history);
        assert_eq!(
            h.hint("melee ", 6, &ctx).as_deref(),
            Some("attacker defender")
        );
        assert_eq!(
            h.hint("melee viking_1 ", 15, &ctx).as_deref(),
            Some("defender")
        );
        assert_eq!(h.hint("melee viking_1 legionary_1 ", 27, &ctx), None);
    }
}
