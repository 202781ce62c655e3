//! Turning Rhai's errors into sandtable's diagnostics.
//!
//! A `throw` in a rule script is the rules refusing an action ("out of reach"): it becomes
//! [`Error::Rules`], shown as a plain message. Anything else is a script problem (a syntax
//! error, a bad argument to a host function, a limit of the sandbox): it becomes a
//! [`ScriptDiagnostic`] pointing at the line and column in the script where it happened.

use std::collections::HashMap;

use rhai::{AST, Engine, EvalAltResult, LexError, ParseError, ParseErrorType, Position};

use crate::error::{Error, ScriptDiagnostic, line_col_to_byte, place};
use crate::script::engine::{Budget, COMPILE_OUT_OF_TIME, Limits, OUT_OF_TIME};
use crate::script::value::HostError;

/// The help of every error that stops a script running away (its time budget, its
/// operations, or a stop the host asked for).
const RUNAWAY_HELP: &str = "look for a loop that never ends";

/// Script texts by source name, so diagnostics can show the offending line.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    texts: HashMap<String, String>,
    /// Which script defines each function (the last definition wins, as in the merged AST):
    /// Rhai names the running AST's source for a failing function, which after merging is
    /// the line that called it, not the file that defines it.
    functions: HashMap<String, String>,
}

impl Sources {
    /// Remembers a script's text.
    pub fn insert(&mut self, name: &str, text: &str) {
        self.texts.insert(name.to_string(), text.to_string());
    }

    /// Forgets a script's text (a prompt entry whose functions are no longer kept).
    pub fn forget(&mut self, name: &str) {
        self.texts.remove(name);
    }

    /// Compiles a script's text as `name`: every script (rules, abilities, house rules,
    /// `check`) is compiled here. The text is kept for diagnostics, the AST named after the
    /// script, and a syntax error made a diagnostic at its line and column.
    pub fn compile(
        &mut self,
        engine: &Engine,
        budget: &Budget,
        name: &str,
        text: &str,
    ) -> Result<AST, Error> {
        crate::error::check_script_size(name, text)?;
        self.insert(name, text);
        let mut ast = budget
            .compiling(|| engine.compile(text))
            .map_err(|e| self.parse_error(name, &e))?;
        ast.set_source(name);
        Ok(ast)
    }

    /// Records that `source` defines a function.
    pub fn define(&mut self, function: &str, source: &str) {
        self.functions
            .insert(function.to_string(), source.to_string());
    }

    /// The script that defines a function, if one does.
    pub fn defined_in(&self, function: &str) -> Option<&str> {
        self.functions.get(function).map(String::as_str)
    }

    /// A script's text.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.texts.get(name).map(String::as_str)
    }

    /// A diagnostic at a position of a named script (or a plain error if its text is unknown).
    pub fn diagnostic(
        &self,
        source: &str,
        pos: Position,
        message: String,
        help: Option<String>,
    ) -> Error {
        // Without a position (a script stopped by the time budget between two operations),
        // a label at 1:1 would point at the wrong line: name the script instead.
        let text = if pos.is_none() {
            None
        } else {
            self.get(source)
        };
        let Some(text) = text else {
            let at = match (pos.line(), pos.position()) {
                (Some(l), Some(c)) => format!(" ({})", place(source, l, c)),
                _ if !source.is_empty() => format!(" ({source})"),
                _ => String::new(),
            };
            return Error::other(format!("{message}{at}"), help);
        };
        let (line, col) = (pos.line().unwrap_or(1), pos.position().unwrap_or(1));
        let start = line_col_to_byte(text, line, col);
        let rest = &text[start.min(text.len())..];
        let len = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len())
            .max(rest.chars().next().map_or(0, char::len_utf8));
        ScriptDiagnostic::new(source, text, start..start + len, message, "here", help).into()
    }

    /// Converts a compile error of the script `source`.
    pub fn parse_error(&self, source: &str, err: &ParseError) -> Error {
        if let ParseErrorType::BadInput(LexError::Runtime(why)) = err.err_type()
            && why == COMPILE_OUT_OF_TIME
        {
            return self.diagnostic(
                source,
                err.position(),
                format!(
                    "compiling the script took more than the time budget of {} seconds, and stopped here",
                    crate::limits::TIME_BUDGET.as_secs()
                ),
                Some(
                    "a script with very many variables in one scope compiles slowly: split it into functions or smaller scripts".into(),
                ),
            );
        }
        self.diagnostic(
            source,
            err.position(),
            format!("syntax error: {}", err.err_type()),
            err.err_type()
                .to_string()
                .contains("cannot be assigned")
                .then(|| {
                    "assign to a variable first, e.g. `let u = unit(\"viking_1\"); u.hits = 2`"
                        .to_string()
                }),
        )
    }

    /// Converts a runtime error; `source` is the script that was being run at top level.
    pub fn runtime_error(&self, source: &str, err: &EvalAltResult, limits: &Limits) -> Error {
        let mut src = source.to_string();
        let mut calls = Vec::new();
        let mut err = err;
        loop {
            match err {
                EvalAltResult::ErrorInFunctionCall(name, fn_src, inner, _) => {
                    calls.push(name.clone());
                    if let Some(defined_in) = self.functions.get(name) {
                        src = defined_in.clone();
                    } else if !fn_src.is_empty() {
                        src = fn_src.clone();
                    }
                    err = inner;
                }
                EvalAltResult::ErrorInModule(name, inner, _) => {
                    calls.push(format!("module {name}"));
                    if self.get(name).is_some() {
                        src = name.clone();
                    }
                    err = inner;
                }
                _ => break,
            }
        }
        let within = if calls.is_empty() {
            String::new()
        } else {
            format!(
                " (in {})",
                // Rhai nests the outermost call first; read from where it failed outwards.
                calls
                    .iter()
                    .rev()
                    .map(|c| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(" called from ")
            )
        };
        let pos = err.position();
        let runaway = matches!(
            err,
            EvalAltResult::ErrorTerminated(..) | EvalAltResult::ErrorTooManyOperations(..)
        );
        let (message, help) = match err {
            EvalAltResult::ErrorRuntime(value, _) => {
                if let Some(host) = value.read_lock::<HostError>() {
                    (host.message.clone(), host.help.clone())
                } else {
                    // A `throw` from the rules: the rules refusing an action.
                    return Error::Rules {
                        message: value.to_string(),
                    };
                }
            }
            EvalAltResult::ErrorTerminated(token, _) if token.to_string() == OUT_OF_TIME => (
                format!(
                    "script ran longer than its time budget of {:?}",
                    limits.time_budget
                ),
                Some(RUNAWAY_HELP.into()),
            ),
            EvalAltResult::ErrorTerminated(reason, _) => (
                format!("script stopped: {reason}"),
                Some(RUNAWAY_HELP.into()),
            ),
            EvalAltResult::ErrorTooManyOperations(_) => (
                format!("script ran more than {} operations", limits.max_operations),
                Some(RUNAWAY_HELP.into()),
            ),
            EvalAltResult::ErrorStackOverflow(_) => (
                format!(
                    "function calls nested more than {} deep",
                    limits.max_call_levels
                ),
                Some("look for a function that calls itself without end".into()),
            ),
            EvalAltResult::ErrorDataTooLarge(what, _) => (
                format!("{} grew past the sandbox's limit", what.to_lowercase()),
                Some(format!(
                    "strings hold at most {} bytes, arrays {} items, maps {} entries",
                    limits.max_string_size, limits.max_array_size, limits.max_map_size
                )),
            ),
            EvalAltResult::ErrorTooManyVariables(_) => (
                format!(
                    "too many variables: the top levels of the scripts and the prompt's lines may keep {} between them, and a call may use {} in all",
                    limits.max_top_level_variables, limits.max_variables
                ),
                Some(
                    "keep values in one map (`let bonus = #{ attack: 1, reach: 2 }`) or inside functions, and at the prompt assign with `x = ...` rather than a new `let x`"
                        .into(),
                ),
            ),
            EvalAltResult::ErrorTooManyModules(_) => (
                format!("more than {} modules imported", limits.max_modules),
                None,
            ),
            other => {
                // Rhai appends the position; the diagnostic shows it already.
                let text = other.to_string();
                let text = match text.rfind(" (line ") {
                    Some(i) if text.ends_with(')') => text[..i].to_string(),
                    _ => text,
                };
                (text, None)
            }
        };
        // Rhai passes a runaway up through the calls without saying where it ran away: all
        // that is known is the script whose function was called first, which is not where
        // the loop is, so it is said as such rather than given as the place.
        let (src, message) = if runaway && pos.is_none() && calls.is_empty() && !src.is_empty() {
            (
                String::new(),
                format!("{message}, in a call that began in {src}"),
            )
        } else {
            (src, format!("{message}{within}"))
        };
        let diagnostic = self.diagnostic(&src, pos, message, help);
        if runaway {
            Error::Runaway(Box::new(diagnostic))
        } else {
            diagnostic
        }
    }
}
