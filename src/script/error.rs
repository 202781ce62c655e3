//! Turning Rhai's errors into sandtable's diagnostics.
//!
//! A `throw` in a rule script is the rules refusing an action ("out of reach"): it becomes
//! [`Error::Rules`], shown as a plain message. Anything else is a script problem (a syntax
//! error, a bad argument to a host function, a limit of the sandbox): it becomes a
//! [`ScriptDiagnostic`] pointing at the line and column in the script where it happened.
//!
//! An unknown function, variable or property of a host type gets the same did-you-mean as
//! the static pass gives ([`crate::script::lint::runtime_help`]): [`Sources`] reads what the
//! engine defines at the first script it compiles, and the functions of every script.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;

use rhai::{AST, Engine, EvalAltResult, LexError, ParseError, ParseErrorType, Position};

use crate::error::{Error, ScriptDiagnostic, line_col_to_byte, place};
use crate::limits::WALL_CLOCK_FACTOR;
use crate::script::engine::{
    Budget, COMPILE_OUT_OF_TIME, Limits, OUT_OF_LOAD_TIME, OUT_OF_TIME, OUT_OF_WALL_TIME,
};
use crate::script::lint::{self, Defined, Finding, Known, Unknown};
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
    /// What the engine defines, read when the first script is compiled.
    known: Option<Rc<Known>>,
    /// The functions of every script compiled, with their arities.
    arities: BTreeMap<String, BTreeSet<usize>>,
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
        if self.known.is_none() {
            self.known = Some(Rc::new(Known::of(engine)));
        }
        let mut ast = budget
            .compiling(|| engine.compile(text))
            .map_err(|e| self.parse_error(name, &e, &limits_of(engine)))?;
        ast.set_source(name);
        for f in ast.iter_functions() {
            self.arities
                .entry(f.name.to_string())
                .or_default()
                .insert(f.params.len());
        }
        Ok(ast)
    }

    /// What the engine defines, as read when the first script was compiled (for the static
    /// pass, [`crate::script::lint`], so that it is read once).
    pub fn known(&self) -> Option<&Known> {
        self.known.as_deref()
    }

    /// A finding of the static pass as a diagnostic at its line.
    pub fn finding(&self, f: &Finding) -> Error {
        self.diagnostic(&f.source, f.position, f.message.clone(), f.help.clone())
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
        // A word, or a string written in quotes on one line (a stat's or a hook's name).
        let quoted = rest
            .strip_prefix('"')
            .and_then(|r| r.find(['"', '\n']).filter(|&e| r[e..].starts_with('"')))
            .map(|e| e + 2);
        let len = quoted.unwrap_or_else(|| {
            rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len())
                .max(rest.chars().next().map_or(0, char::len_utf8))
        });
        ScriptDiagnostic::new(source, text, start..start + len, message, "here", help).into()
    }

    /// Converts a compile error of the script `source`, said in words
    /// ([`parse_in_words`]) with the limits the engine keeps.
    pub fn parse_error(&self, source: &str, err: &ParseError, limits: &Limits) -> Error {
        let (message, help) = parse_in_words(err.err_type(), limits);
        self.diagnostic(source, err.position(), message, help)
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
        if let EvalAltResult::ErrorRuntime(value, _) = err
            && !value.is::<HostError>()
        {
            // A `throw` from the rules: the rules refusing an action.
            return Error::Rules {
                message: value.to_string(),
            };
        }
        let (message, help) = runtime_in_words(err, limits);
        let help = self.did_you_mean(err, &src).or(help);
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

/// Where a script was when it broke a limit of the sandbox, found by running the call again
/// step by step (Rhai itself passes such an error up without a place).
#[derive(Clone, Debug)]
pub struct Place {
    /// The script function it was in, if any (the call's top level otherwise).
    pub function: Option<String>,
    /// The source Rhai gave the step, if any.
    pub source: Option<String>,
    /// The step's line and column.
    pub position: Position,
}

impl Sources {
    /// A limit broken at a place found by running the call again: the diagnostic is at that
    /// line of the script that defines the function it broke in (a house rule's replacement
    /// of a ruleset function is its own file, not the ruleset's).
    pub fn located_error(
        &self,
        source: &str,
        err: &EvalAltResult,
        limits: &Limits,
        place: &Place,
    ) -> Error {
        let runaway = matches!(
            err,
            EvalAltResult::ErrorTerminated(..) | EvalAltResult::ErrorTooManyOperations(..)
        );
        let (message, help) = runtime_in_words(err, limits);
        let script = place
            .function
            .as_deref()
            .and_then(|f| self.defined_in(f))
            .or(place.source.as_deref().filter(|s| self.get(s).is_some()))
            .unwrap_or(source);
        let message = match &place.function {
            Some(f) => format!("{message} (in `{f}`)"),
            None => message,
        };
        let diagnostic = self.diagnostic(script, place.position, message, help);
        if runaway {
            Error::Runaway(Box::new(diagnostic))
        } else {
            diagnostic
        }
    }

    /// The help of an unknown function, variable or property of a host type that knows what
    /// is defined (`src`: the script the error is in), as the static pass gives it.
    fn did_you_mean(&self, err: &EvalAltResult, src: &str) -> Option<String> {
        let empty = Known::default();
        let mut functions = self.arities.clone();
        for name in self.functions.keys() {
            functions.entry(name.clone()).or_default();
        }
        let defined = Defined {
            known: self.known.as_deref().unwrap_or(&empty),
            functions: &functions,
        };
        match err {
            EvalAltResult::ErrorFunctionNotFound(signature, _) => {
                let (name, args) = signature_parts(signature);
                let args: Vec<String> = args.iter().map(|a| rhai_type_name(a)).collect();
                if let Some(property) = name
                    .strip_prefix("get$")
                    .or_else(|| name.strip_prefix("set$"))
                {
                    let on = args.first()?;
                    return lint::runtime_help(&defined, Unknown::Property { on, name: property });
                }
                if name.contains('$') || !name.starts_with(|c: char| c.is_alphabetic() || c == '_')
                {
                    return None;
                }
                lint::runtime_help(&defined, Unknown::Function { name, args: &args })
            }
            EvalAltResult::ErrorVariableNotFound(name, pos) => {
                // The script is compiled again, on this error only, to see what was in scope.
                let text = self.get(src)?;
                let ast = crate::script::engine::raw().compile(text).ok()?;
                let in_scope = lint::variables_at(&ast, *pos)?;
                lint::runtime_help(
                    &defined,
                    Unknown::Variable {
                        name,
                        in_scope: &in_scope,
                    },
                )
            }
            EvalAltResult::ErrorDotExpr(s, _) if s.starts_with("Unknown property") => {
                let names = quoted(s);
                let [property, on] = names.as_slice() else {
                    return None;
                };
                lint::runtime_help(&defined, Unknown::Property { on, name: property })
            }
            _ => None,
        }
    }
}

/// A type as Rhai names it in a signature (`&str | ImmutableString | String`, `Unit`), as
/// [`lint::Ty::named`] reads it.
fn rhai_type_name(name: &str) -> String {
    let name = name.trim();
    if name.contains("ImmutableString") {
        "string".into()
    } else {
        name.to_string()
    }
}

/// `name (type, type)`, Rhai's signature of a call no function answers, as its name and its
/// arguments' types.
fn signature_parts(signature: &str) -> (&str, Vec<&str>) {
    let (name, args) = match signature.split_once(" (") {
        Some((name, rest)) => (name.trim(), rest.strip_suffix(')').unwrap_or(rest)),
        None => (signature.trim(), ""),
    };
    let args = if args.trim().is_empty() {
        Vec::new()
    } else {
        args.split(", ").collect()
    };
    (name, args)
}

/// The limits an engine keeps, as far as it says (the rest are the defaults).
fn limits_of(engine: &Engine) -> Limits {
    Limits {
        max_expr_depth: engine.max_expr_depth(),
        max_function_expr_depth: engine.max_function_expr_depth(),
        max_functions: engine.max_functions(),
        max_string_size: engine.max_string_size(),
        max_array_size: engine.max_array_size(),
        max_map_size: engine.max_map_size(),
        max_modules: engine.max_modules(),
        ..Limits::default()
    }
}

// ---- Rhai's errors in words ------------------------------------------------------------
//
// Rhai's own texts ("Expression exceeds maximum complexity", "Data type incorrect: string
// (expecting Fn)") are written for Rust programmers. Every kind of error Rhai can give is
// said here again as a sentence for a wargamer, naming the limit and its number where one
// was broken; `tests/it/messages.rs` holds each kind to it.

/// How an error is said: the message and, where one is known, how to fix it.
type Words = (String, Option<String>);

/// A compile error (a syntax error or a compile-time limit) in words.
pub fn parse_in_words(err: &ParseErrorType, limits: &Limits) -> Words {
    use ParseErrorType as P;
    let syntax = |m: String| format!("syntax error: {m}");
    #[allow(deprecated)]
    match err {
        P::BadInput(lex) => lex_in_words(lex, limits),
        P::UnexpectedEOF => (
            syntax("the script ends before this is finished".into()),
            Some("look for a bracket or a quote that is never closed".into()),
        ),
        P::UnknownOperator(s) => (syntax(format!("`{s}` is not an operator")), None),
        P::MissingToken(token, why) => (
            syntax(format!("expected `{token}` {}", tidy(why))),
            (token == ";").then(|| {
                "two statements on one line need a `;` between them; a verb is written as its name, then its arguments, without brackets".into()
            }),
        ),
        P::MissingSymbol(s) if s.is_empty() => (syntax("a symbol is missing here".into()), None),
        P::MissingSymbol(s) => (syntax(tidy(s)), None),
        P::MalformedIndexExpr(s) if s.is_empty() => {
            (syntax("this cannot be used as an index".into()), None)
        }
        P::MalformedIndexExpr(s) => (syntax(tidy(s)), None),
        P::MalformedCapture(s) if s.is_empty() => {
            (syntax("this closure cannot capture that variable".into()), None)
        }
        P::MalformedCapture(s) => (syntax(tidy(s)), None),
        P::DuplicatedProperty(s) => (
            syntax(format!("the map gives the property `{s}` twice")),
            Some("keep one".into()),
        ),
        P::DuplicatedVariable(s) => (syntax(format!("the name `{s}` is given twice")), None),
        P::WrongSwitchIntegerCase => (
            syntax("a number case of `switch` cannot come after a range case".into()),
            Some("put the single numbers first".into()),
        ),
        P::WrongSwitchDefaultCase => (
            syntax("the default case `_` of a `switch` must be its last".into()),
            None,
        ),
        P::WrongSwitchCaseCondition => (
            syntax("this case of `switch` cannot have an `if` condition".into()),
            None,
        ),
        P::PropertyExpected => (
            syntax("expected the name of a property after `.`".into()),
            None,
        ),
        P::VariableExpected => (syntax("expected the name of a variable".into()), None),
        P::ForbiddenVariable(s) => (
            syntax(format!("`{s}` cannot be the name of a variable")),
            None,
        ),
        P::Reserved(s) if s == "eval" => eval_in_words(),
        P::Reserved(s) => (
            syntax(format!(
                "`{s}` is reserved by the script language and cannot be used here"
            )),
            Some("choose another name".into()),
        ),
        P::MismatchedType(expected, got) => {
            (syntax(format!("expected {expected}, not {got}")), None)
        }
        P::ExprExpected(what) => (syntax(format!("expected {what} here")), None),
        P::WrongDocComment => (
            syntax("a doc comment (`///`) must come just before a function".into()),
            Some("make it a plain comment, `//`".into()),
        ),
        P::WrongFnDefinition => (
            syntax("a function must be defined at the top level of a script, not inside a block or another function".into()),
            Some("use a closure (`let f = |x| x + 1;`) inside a block".into()),
        ),
        P::FnDuplicatedDefinition(name, n) => (
            syntax(format!(
                "the function `{name}` with {} is defined twice in this script",
                count(*n, "parameter", "parameters")
            )),
            Some("rename one, or remove one".into()),
        ),
        P::FnMissingName => (
            syntax("expected the name of the function after `fn`".into()),
            None,
        ),
        P::FnMissingParams(name) => (
            syntax(format!("expected the parameters of the function `{name}`, in brackets")),
            Some(format!("`fn {name}(a, b) {{ ... }}`, or `fn {name}() {{ ... }}` for none")),
        ),
        P::FnDuplicatedParam(name, param) => (
            syntax(format!("the function `{name}` has two parameters named `{param}`")),
            None,
        ),
        P::FnMissingBody(name) if name.is_empty() => (
            syntax("expected the body of the closure".into()),
            None,
        ),
        P::FnMissingBody(name) => (
            syntax(format!("expected the body of the function `{name}`, in braces")),
            Some(format!("`fn {name}() {{ ... }}`")),
        ),
        P::WrongExport => (
            syntax("`export` may be used only at the top level of a script".into()),
            None,
        ),
        P::AssignmentToConstant(s) if s.is_empty() => {
            (syntax("a constant cannot be changed".into()), None)
        }
        P::AssignmentToConstant(s) => (
            syntax(format!("`{s}` is a constant and cannot be changed")),
            Some(format!("declare it with `let {s} = ...` to change it later")),
        ),
        P::AssignmentToInvalidLHS(_) => (
            syntax("this cannot be assigned to".into()),
            Some("assign to a variable first, e.g. `let u = unit(\"viking_1\"); u.hits = 2`".into()),
        ),
        P::VariableExists(s) => (syntax(format!("the variable `{s}` is defined already")), None),
        P::VariableUndefined(s) => undefined_in_words(s),
        P::ModuleUndefined(s) => (
            format!("no module is imported as `{s}`"),
            Some(format!("import it first: `import \"{s}\" as {s};`")),
        ),
        P::ExprTooDeep => (
            format!(
                "this is nested too deeply: expressions and blocks may nest at most {} levels at the top level of a script, and {} inside a function",
                limits.max_expr_depth, limits.max_function_expr_depth
            ),
            Some("split it with variables or functions".into()),
        ),
        P::TooManyFunctions => (
            format!(
                "too many functions: one script may define at most {} functions",
                limits.max_functions
            ),
            Some("split them over several scripts".into()),
        ),
        P::LiteralTooLarge(what, max) => {
            let what = what.to_lowercase();
            let (thing, unit) = if what.contains("string") {
                ("a string written in the script", "bytes")
            } else if what.contains("array") {
                ("an array written in the script", "items")
            } else {
                ("an object map written in the script", "properties")
            };
            (
                format!("{thing} is larger than the limit of {max} {unit}"),
                Some("build it in a loop, or keep it in the ruleset's data".into()),
            )
        }
        P::LoopBreak => (
            syntax("`break` and `continue` may be used only inside a loop".into()),
            None,
        ),
        P::DuplicatedSwitchCase => (syntax("this case of `switch` is given twice".into()), None),
        P::MalformedCallExpr(_) => (
            syntax("the arguments of this call are not valid".into()),
            None,
        ),
        P::MalformedInExpr(_) => (syntax("this `in` expression is not valid".into()), None),
        other => (syntax(tidy(&other.to_string())), None),
    }
}

/// A tokenizer's error in words.
fn lex_in_words(err: &LexError, limits: &Limits) -> Words {
    let syntax = |m: String| format!("syntax error: {m}");
    match err {
        LexError::Runtime(why) if why == COMPILE_OUT_OF_TIME => (
            format!(
                "compiling the script took more than the time budget of {} seconds of processor time (or {} by the clock), and stopped here",
                crate::limits::TIME_BUDGET.as_secs(),
                crate::limits::TIME_BUDGET.as_secs() * u64::from(WALL_CLOCK_FACTOR)
            ),
            Some("a script with very many variables in one scope compiles slowly: split it into functions or smaller scripts".into()),
        ),
        LexError::Runtime(why) if why == OUT_OF_LOAD_TIME => load_out_of_time(limits),
        LexError::UnexpectedInput(s) => (syntax(format!("unexpected `{s}`")), None),
        LexError::UnterminatedString => (
            syntax("this string is never closed".into()),
            Some("end it with the quote it starts with".into()),
        ),
        LexError::StringTooLong(_) => (
            format!(
                "a string written in the script is larger than the limit of {} bytes",
                limits.max_string_size
            ),
            Some("build it in a loop, or keep it in the ruleset's data".into()),
        ),
        LexError::MalformedEscapeSequence(s) => (
            syntax(format!("`{s}` is not an escape sequence")),
            Some("write `\\\\` for a backslash, `\\n` for a new line, `\\\"` for a quote".into()),
        ),
        LexError::MalformedNumber(s) => (syntax(format!("`{s}` is not a number")), None),
        LexError::MalformedChar(s) => (syntax(format!("`{s}` is not a character")), None),
        LexError::MalformedIdentifier(s) => (
            syntax(format!("`{s}` is not a name")),
            Some("a name starts with a letter or `_`, followed by letters, digits and `_`".into()),
        ),
        LexError::ImproperSymbol(s, _) if s == "eval" => eval_in_words(),
        LexError::ImproperSymbol(s, why) if why.is_empty() => {
            (syntax(format!("`{s}` is not a symbol of the script language")), None)
        }
        LexError::ImproperSymbol(_, why) | LexError::Runtime(why) => (syntax(tidy(why)), None),
        other => (syntax(tidy(&other.to_string())), None),
    }
}

/// `eval`, however it is reached.
fn eval_in_words() -> Words {
    (
        "`eval` is switched off: a script may not run code from a string, however it is called"
            .into(),
        Some("call a function by name instead; see \"The sandbox\" in docs/api.md".into()),
    )
}

/// A variable that is not defined.
fn undefined_in_words(name: &str) -> Words {
    (
        format!("the variable `{name}` is not defined"),
        Some(format!("give it a value first: `let {name} = ...`")),
    )
}

/// The loading of a game's scripts out of its time, in words.
fn load_out_of_time(limits: &Limits) -> Words {
    (
        format!(
            "loading the game's scripts took more than their time budget of {:?} of processor time in all (or {:?} by the clock), and stopped here",
            limits.load_budget,
            limits.load_budget.saturating_mul(WALL_CLOCK_FACTOR)
        ),
        Some("the ruleset, its abilities and the house rules load under one budget: take out house rules that take long to load (`:without NAME`), or make their top levels do less".into()),
    )
}

/// A runtime error in words. The errors that wrap another (a function call, a module) are
/// unwrapped by the caller; a `throw` is the rules' own words, said as they are.
pub fn runtime_in_words(err: &EvalAltResult, limits: &Limits) -> Words {
    use EvalAltResult as E;
    match err {
        E::ErrorRuntime(value, _) => match value.read_lock::<HostError>() {
            Some(host) => (host.message.clone(), host.help.clone()),
            None => (value.to_string(), None),
        },
        E::ErrorInFunctionCall(_, _, inner, _) | E::ErrorInModule(_, inner, _) => {
            runtime_in_words(inner, limits)
        }
        E::ErrorParsing(p, _) => parse_in_words(p, limits),
        E::ErrorTerminated(token, _) if token.to_string() == OUT_OF_TIME => (
            format!(
                "script ran longer than its time budget of {:?} of processor time",
                limits.time_budget
            ),
            Some(RUNAWAY_HELP.into()),
        ),
        E::ErrorTerminated(token, _) if token.to_string() == OUT_OF_LOAD_TIME => {
            load_out_of_time(limits)
        }
        E::ErrorTerminated(token, _) if token.to_string() == OUT_OF_WALL_TIME => (
            format!(
                "script was blocked {:?}, {WALL_CLOCK_FACTOR} times its time budget of {:?} of processor time, or ran {:?} by the clock, and was stopped: it waited, or the machine is far too busy",
                limits.time_budget.saturating_mul(WALL_CLOCK_FACTOR),
                limits.time_budget,
                limits.time_budget.saturating_mul(crate::limits::MAX_WALL_FACTOR)
            ),
            Some(RUNAWAY_HELP.into()),
        ),
        E::ErrorTerminated(reason, _) if reason.to_string().contains("`MAX_MEMORY_BYTES`") => (
            format!("script stopped: {reason}"),
            Some(
                "keep fewer or smaller values: variables kept at the prompt stay until the game ends"
                    .into(),
            ),
        ),
        E::ErrorTerminated(reason, _) => (
            format!("script stopped: {reason}"),
            Some(RUNAWAY_HELP.into()),
        ),
        E::ErrorTooManyOperations(_) => (
            format!("script ran more than {} operations", limits.max_operations),
            Some(RUNAWAY_HELP.into()),
        ),
        E::ErrorStackOverflow(_) => (
            format!(
                "function calls nested more than {} deep",
                limits.max_call_levels
            ),
            Some("look for a function that calls itself without end".into()),
        ),
        E::ErrorDataTooLarge(what, _) => {
            let what = what.to_lowercase();
            let message = if what.contains("string") {
                format!(
                    "a string grew past the limit of {} bytes",
                    limits.max_string_size
                )
            } else if what.contains("array") || what.contains("blob") {
                format!(
                    "an array grew past the limit of {} items",
                    limits.max_array_size
                )
            } else {
                format!(
                    "an object map grew past the limit of {} entries",
                    limits.max_map_size
                )
            };
            (
                message,
                Some(format!(
                    "strings hold at most {} bytes, arrays {} items, maps {} entries",
                    limits.max_string_size, limits.max_array_size, limits.max_map_size
                )),
            )
        }
        E::ErrorTooManyVariables(_) => (
            format!(
                "too many variables: the top levels of the scripts and the prompt's lines may keep {} between them, and a call may use {} in all",
                limits.max_top_level_variables, limits.max_variables
            ),
            Some(
                "keep values in one map (`let bonus = #{ attack: 1, reach: 2 }`) or inside functions, and at the prompt assign with `x = ...` rather than a new `let x`"
                    .into(),
            ),
        ),
        E::ErrorTooManyModules(_) => (
            format!(
                "too many modules: one script may import at most {} modules",
                limits.max_modules
            ),
            Some("import each module once, at the top of the script".into()),
        ),
        E::ErrorSystem(what, why) if what.is_empty() => {
            (format!("the script engine failed: {}", tidy(&why.to_string())), None)
        }
        E::ErrorSystem(what, why) => (
            format!("the script engine failed: {}: {}", tidy(what), why),
            None,
        ),
        E::ErrorVariableExists(s, _) => (format!("the variable `{s}` is defined already"), None),
        E::ErrorForbiddenVariable(s, _) => {
            (format!("`{s}` cannot be the name of a variable"), None)
        }
        E::ErrorVariableNotFound(s, _) => undefined_in_words(s),
        E::ErrorPropertyNotFound(s, _) => (
            format!("the map has no property `{s}`"),
            Some(format!(
                "`m.contains(\"{s}\")` says whether a map `m` has it, and `m[\"{s}\"]` gives `()` if not"
            )),
        ),
        E::ErrorIndexNotFound(index, _) => (format!("there is nothing at the index `{index}`"), None),
        E::ErrorFunctionNotFound(signature, _) => function_not_found(signature),
        // The resolver says itself why an import fails: this is a name used as a module
        // (`m::f()`) that no `import` in force gave.
        E::ErrorModuleNotFound(s, _) => (
            format!("no module is imported as `{s}` here"),
            Some(format!(
                "import it inside the function that uses it: `import \"{s}\" as {s};`"
            )),
        ),
        E::ErrorUnboundThis(_) => (
            "`this` means something only inside a function called as a method (`x.f()`)".into(),
            None,
        ),
        E::ErrorMismatchDataType(expected, got, _) | E::ErrorMismatchOutputType(expected, got, _) => {
            let message = match (expected.is_empty(), got.is_empty()) {
                (false, false) => format!(
                    "expected {}, got {}",
                    type_in_words(expected),
                    type_in_words(got)
                ),
                (false, true) => format!("expected {}", type_in_words(expected)),
                _ => format!("a value of the wrong type: {}", type_in_words(got)),
            };
            let help = (expected == "Fn").then(|| {
                "a function is passed as `Fn(\"name\")` or as a closure `|x| ...`".to_string()
            });
            (message, help)
        }
        E::ErrorIndexingType(what, _) => (
            format!(
                "this cannot be indexed with `[]` ({})",
                what.split_whitespace()
                    .map(type_in_words)
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            Some("arrays, maps, strings and numbers (their bits) can be indexed".into()),
        ),
        E::ErrorArrayBounds(0, index, _) => {
            (format!("the array is empty, so there is no item {index}"), None)
        }
        E::ErrorArrayBounds(len, index, _) => (
            format!(
                "there is no item {index}: the array has {}, from 0 to {}",
                count(*len, "item", "items"),
                len - 1
            ),
            Some("a negative index counts from the end: `a[-1]` is the last".into()),
        ),
        E::ErrorStringBounds(0, index, _) => {
            (format!("the string is empty, so there is no character {index}"), None)
        }
        E::ErrorStringBounds(len, index, _) => (
            format!(
                "there is no character {index}: the string has {}, from 0 to {}",
                count(*len, "character", "characters"),
                len - 1
            ),
            None,
        ),
        E::ErrorBitFieldBounds(bits, index, _) => (
            format!("there is no bit {index}: a number has {bits} bits, from 0 to {}", bits.saturating_sub(1)),
            None,
        ),
        E::ErrorFor(_) => (
            "`for` cannot go through this: it goes through an array, a range (`0..10`) or a string".into(),
            None,
        ),
        E::ErrorDataRace(s, _) if s.is_empty() => ("a shared value is in use already".into(), None),
        E::ErrorDataRace(s, _) => (format!("`{s}` is in use already"), None),
        E::ErrorNonPureMethodCallOnConstant(method, _) => (
            format!(
                "a constant cannot be changed, and `{}` would change it",
                method.trim_start_matches("get$").trim_start_matches("set$")
            ),
            Some("copy it into a variable first: `let v = ...`".into()),
        ),
        E::ErrorAssignmentToConstant(s, _) => (
            format!("`{s}` is a constant and cannot be changed"),
            Some(format!("declare it with `let {s} = ...` to change it later")),
        ),
        E::ErrorDotExpr(s, _) if s.is_empty() => ("this use of `.` is not valid".into(), None),
        E::ErrorDotExpr(s, _) => {
            // "Unknown property 'x' - a getter is not registered for type 'T'", "No writable
            // property 'x' - a setter is not registered for type 'T' to handle 'V'".
            let names = quoted(s);
            match names.as_slice() {
                [property, on] if s.starts_with("Unknown property") => (
                    format!("{} has no property `{property}`", type_in_words(on)),
                    None,
                ),
                [property, on, value] if s.starts_with("No writable property") => (
                    format!(
                        "the property `{property}` of {} cannot be set to {}",
                        type_in_words(on),
                        type_in_words(value)
                    ),
                    Some("docs/api.md lists what can be set, and to what".into()),
                ),
                _ => (tidy(s), None),
            }
        }
        E::ErrorArithmetic(s, _) if s.is_empty() => ("a calculation failed".into(), None),
        E::ErrorArithmetic(s, _) => (
            format!("a calculation failed: {}", tidy(s)),
            Some(format!(
                "whole numbers go from {} to {}, and nothing can be divided by zero",
                i64::MIN,
                i64::MAX
            )),
        ),
        E::ErrorCustomSyntax(s, _, _) => (tidy(s), None),
        E::LoopBreak(true, ..) => ("`break` may be used only inside a loop".into(), None),
        E::LoopBreak(false, ..) => ("`continue` may be used only inside a loop".into(), None),
        E::Return(..) | E::Exit(..) => (
            "`return` or `exit` was used where the script cannot stop".into(),
            None,
        ),
        other => (tidy(&other.to_string()), None),
    }
}

/// A runtime error in words on one line, with its help if it has one (for a message that is
/// not a diagnostic of its own: an ability's `meta()` that fails).
pub fn in_words(err: &EvalAltResult) -> String {
    let (message, help) = runtime_in_words(err, &Limits::default());
    match help {
        Some(help) => format!("{message} ({help})"),
        None => message,
    }
}

/// `Function not found: name (i64, &str | ImmutableString | String)`, Rhai's words for a call
/// no function answers, in a player's.
fn function_not_found(signature: &str) -> Words {
    let (name, args) = signature_parts(signature);
    let args: Vec<String> = args.into_iter().map(type_in_words).collect();
    let operator = !name.starts_with(|c: char| c.is_alphanumeric() || c == '_');
    if let Some(property) = name.strip_prefix("get$") {
        return (
            format!(
                "{} has no property `{property}`",
                args.first().map_or("this".into(), |t| t.clone())
            ),
            None,
        );
    }
    if let Some(property) = name.strip_prefix("set$") {
        return (
            format!(
                "the property `{property}` of {} cannot be set",
                args.first().map_or("this".into(), |t| t.clone())
            ),
            None,
        );
    }
    if name.starts_with("anon$") {
        return (
            format!(
                "this closure cannot be called with {}",
                if args.is_empty() {
                    "no arguments".to_string()
                } else {
                    args.join(", ")
                }
            ),
            Some("give it as many arguments as it has parameters".into()),
        );
    }
    let message = match (operator, args.as_slice()) {
        (true, [a, b]) => format!("`{name}` cannot be used on {a} and {b}"),
        (true, [a]) => format!("`{name}` cannot be used on {a}"),
        (_, []) => format!("there is no function `{name}` that takes no arguments"),
        (_, [one]) => format!("there is no function `{name}` that takes {one}"),
        (_, [first @ .., last]) => format!(
            "there is no function `{name}` that takes {} and {last}",
            first.join(", ")
        ),
    };
    let help = if operator {
        "both sides must be numbers, or strings to join; `()` is what a function without a result gives, or a map's missing property"
    } else {
        "check the function's name, and the number and kind of its arguments (docs/api.md lists the host's functions)"
    };
    (message, Some(help.into()))
}

/// A Rhai type name as a player would say it.
fn type_in_words(name: &str) -> String {
    let name = name.trim();
    let said = match name {
        "i64" | "i32" | "u64" | "int" | "INT" => "a whole number",
        "f64" | "f32" | "float" | "FLOAT" => "a decimal number",
        "&str | ImmutableString | String" | "string" | "ImmutableString" | "String" | "&str" => {
            "a string"
        }
        "char" => "a character",
        "bool" => "true or false",
        "()" => "nothing (`()`)",
        "array" | "Array" => "an array",
        "map" | "Map" => "an object map",
        "blob" | "Blob" => "a blob",
        "Fn" | "FnPtr" => "a function pointer",
        "range" | "Range<i64>" | "RangeInclusive<i64>" => "a range",
        "?" | "Dynamic" => "any value",
        // The host's own types, by the names they are registered with.
        "Unit" => "a unit",
        "Deck" => "a deck",
        "Card" => "a card",
        "Roll" => "a roll",
        "Point" => "a point",
        other => return format!("`{other}`"),
    };
    said.into()
}

/// The names Rhai puts in single quotes in a sentence, in order.
fn quoted(text: &str) -> Vec<&str> {
    text.split('\'').skip(1).step_by(2).collect()
}

/// "1 parameter", "2 parameters".
fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Rhai's own sentence made to read like ours: lowercase at the start, names in backticks
/// rather than single quotes.
fn tidy(text: &str) -> String {
    let chars: Vec<char> = text.trim().chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let opens = c == '\'' && (i == 0 || !chars[i - 1].is_alphanumeric());
        if opens
            && let Some(len) = chars[i + 1..].iter().position(|&q| q == '\'')
            && len > 0
            && chars.get(i + len + 2).is_none_or(|n| !n.is_alphanumeric())
        {
            out.push('`');
            out.extend(&chars[i + 1..i + 1 + len]);
            out.push('`');
            i += len + 2;
            continue;
        }
        out.push(c);
        i += 1;
    }
    let mut rest = out.chars();
    match rest.next() {
        // A word in capitals (`NaN`, `BLOB`) keeps them.
        Some(first) if !rest.next().is_some_and(char::is_uppercase) => {
            first.to_lowercase().chain(out.chars().skip(1)).collect()
        }
        _ => out,
    }
}

#[cfg(test)]
mod tests {
    use miette::Diagnostic;

    use crate::game::project::Project;
    use crate::game::scenario::Scenario;
    use crate::session::Session;

    fn session() -> Session {
        let project = Project::at(env!("CARGO_MANIFEST_DIR")).unwrap();
        let scenario = Scenario::load(&project, &project.default_scenario()).unwrap();
        Session::new(&project, scenario, 1).unwrap()
    }

    /// What a failing line says: its message and its help.
    fn fails(session: &mut Session, code: &str) -> (String, String) {
        let e = session.eval("line", code).unwrap_err();
        let help = e.help().map(|h| h.to_string()).unwrap_or_default();
        (e.to_string(), help)
    }

    // `dise` for `dice` failed when the hook first ran, without a did-you-mean.
    #[test]
    fn an_unknown_variable_at_run_time_says_what_was_meant() {
        let mut s = session();
        let _ = s.eval("line 1", "fn boost(dice) {\n  dise + 1\n}").unwrap();
        let (message, help) = fails(&mut s, "boost(1)");
        assert!(
            message.contains("the variable `dise` is not defined"),
            "{message}"
        );
        assert_eq!(help, "did you mean `dice`?");
    }

    #[test]
    fn an_unknown_function_at_run_time_says_what_was_meant() {
        let mut s = session();
        let (message, help) = fails(&mut s, "rol(\"2d6\")");
        assert!(message.contains("there is no function `rol`"), "{message}");
        assert_eq!(help, "did you mean `roll`?");
        let (_, help) = fails(&mut s, "point(1, 2, 3)");
        assert_eq!(help, "`point` takes 2 arguments");
        // A property called as a method (`info.unit.stats("defend")`).
        let (_, help) = fails(&mut s, "unit(\"viking_1\").stats(\"defend\")");
        assert_eq!(
            help,
            "did you mean `stat`? (`stats` is a property, read without brackets: `x.stats`)"
        );
    }

    #[test]
    fn an_unknown_property_of_a_host_type_at_run_time_says_what_was_meant() {
        let mut s = session();
        let (message, help) = fails(&mut s, "roll(\"2d6\").totl");
        assert!(
            message.contains("a roll has no property `totl`"),
            "{message}"
        );
        assert_eq!(help, "did you mean `total`?");
        // A unit's indexer reads its stats as properties: among them and its properties.
        let (message, help) = fails(&mut s, "unit(\"viking_1\").hitz");
        assert!(
            message.contains("`viking_1` has no stat or property `hitz`"),
            "{message}"
        );
        assert_eq!(help, "did you mean `hits`?");
        let (_, help) = fails(&mut s, "unit(\"viking_1\").defnd");
        assert_eq!(help, "did you mean the stat `defend`?");
    }
}
