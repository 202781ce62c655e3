//! The sandboxed Rhai engine.
//!
//! Scripts are shared between strangers, so every engine sandtable builds has:
//! - limits on operations, call depth, expression depth, string, array and map sizes,
//!   variables, functions and modules ([`Limits`]);
//! - a time budget per call, in processor time with a wall-clock backstop, checked as the
//!   script runs ([`Budget`], [`crate::script::clock`]);
//! - `eval` disabled;
//! - imports confined to the scripts folders ([`crate::script::resolver`]);
//! - `print` and `debug` routed into the game's event log (see `api.rs`);
//! - a time budget for compiling too ([`Budget::compiling`]), checked as each token is read;
//! - no optimisation ([`OptimizationLevel::None`]): Rhai's optimiser takes time that grows
//!   with the square of a block's statements (a 1 MB script of `x;` took a minute), and it
//!   cannot be stopped. Without it, `roll("2d6")` is never folded into a constant either;
//!   dice functions are also registered as volatile, which keeps them out of any folding.
//!
//! - `sort` and `dedup` with a comparer replaced by versions that stop at the comparer's first
//!   error and report it ([`register_comparers`]): Rhai's own ignore it and carry on.
//!
//! Rhai has no file system, network or environment access of its own; the host API registers
//! none, so scripts cannot reach them. The `no_time` feature removes `timestamp()`, so no
//! script can read the clock and break "same seed, same game".

use std::cell::{Cell, RefCell};
use std::path::PathBuf;
use std::rc::Rc;
use std::time::Duration;
#[cfg(test)]
use std::time::Instant;

use rhai::{
    Array, Dynamic, Engine, EvalAltResult, FnPtr, LexError, NativeCallContext, OptimizationLevel,
    Token,
};

use crate::script::clock::{Clock, Out};
use crate::script::resolver::{ConfinedResolver, ModuleCache};

/// The limits every script runs under (the defaults are in [`crate::limits`]; tests lower them).
#[derive(Clone, Debug)]
pub struct Limits {
    /// Operations per call (a loop iteration is a few).
    pub max_operations: u64,
    /// Nested function calls.
    pub max_call_levels: usize,
    /// Expression nesting at global level.
    pub max_expr_depth: usize,
    /// Expression nesting inside functions.
    pub max_function_expr_depth: usize,
    /// Bytes in one string (a character outside ASCII takes two to four).
    pub max_string_size: usize,
    /// Items in one array.
    pub max_array_size: usize,
    /// Entries in one object map.
    pub max_map_size: usize,
    /// Variables in scope.
    pub max_variables: usize,
    /// Variables the top levels of the rule scripts, the house rules and the prompt's
    /// lines may keep between them, in the scope every call starts from. Fewer than
    /// [`Limits::max_variables`], so that a call always has room for its own: a house rule
    /// that filled the scope made every later call fail, blamed on the ruleset.
    pub max_top_level_variables: usize,
    /// Functions defined in one script.
    pub max_functions: usize,
    /// Modules one script may import.
    pub max_modules: usize,
    /// Processor time for one call into the scripts (with a wall-clock backstop of
    /// [`crate::limits::WALL_CLOCK_FACTOR`] times as much).
    pub time_budget: Duration,
    /// Processor time for loading all of a game's scripts ([`Budget::loading`]).
    pub load_budget: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        use crate::limits as l;
        Limits {
            max_operations: l::MAX_OPERATIONS,
            max_call_levels: l::MAX_CALL_LEVELS,
            max_expr_depth: l::MAX_EXPR_DEPTH,
            max_function_expr_depth: l::MAX_FUNCTION_EXPR_DEPTH,
            max_string_size: l::MAX_STRING_BYTES,
            max_array_size: l::MAX_ARRAY_ITEMS,
            max_map_size: l::MAX_MAP_ENTRIES,
            max_variables: l::MAX_VARIABLES,
            max_top_level_variables: l::MAX_TOP_LEVEL_VARIABLES,
            max_functions: l::MAX_FUNCTIONS,
            max_modules: l::MAX_MODULES,
            time_budget: l::TIME_BUDGET,
            load_budget: l::LOAD_BUDGET,
        }
    }
}

/// The time budget of the call under way: set before each call into the scripts and checked
/// by the engine's progress callback. It is kept in processor time, with a wall-clock
/// backstop ([`Clock`]).
#[derive(Clone, Default)]
pub struct Budget {
    clock: Rc<Cell<Option<Clock>>>,
    /// The clock of the compile under way (see [`Budget::compiling`]).
    compile_clock: Rc<Cell<Option<Clock>>>,
    /// The clock of the loading of a game's scripts under way (see [`Budget::loading`]),
    /// which every call and compile meanwhile is held to besides its own.
    load_clock: Rc<Cell<Option<Clock>>>,
    watch: Rc<RefCell<Option<Watch>>>,
    /// The operations the last call had run when the budget (or the watch) stopped it: a run
    /// again of the same call may stop at the same place by counting them.
    stopped_after: Rc<Cell<u64>>,
}

/// A check the progress callback also makes: it names a reason to stop the script.
type Watch = Rc<dyn Fn() -> Option<String>>;

impl std::fmt::Debug for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Budget")
            .field("clock", &self.clock.get())
            .finish()
    }
}

/// What the progress callback returns when the budget runs out; recognised in errors.
pub const OUT_OF_TIME: &str = "sandtable: time budget exhausted";

/// What the progress callback returns when the wall-clock backstop stops a call.
pub const OUT_OF_WALL_TIME: &str = "sandtable: wall-clock backstop reached";

/// The error the tokenizer gives when compiling runs out of time; recognised in errors.
pub const COMPILE_OUT_OF_TIME: &str = "sandtable: compile time budget exhausted";

/// What the progress callback returns, and the error the tokenizer gives, when the loading of
/// a game's scripts has run out of its time ([`Budget::loading`]); recognised in errors.
pub const OUT_OF_LOAD_TIME: &str = "sandtable: load time budget exhausted";

/// What the progress callback returns when a call's clock has run out.
fn out_token(out: Out) -> &'static str {
    match out {
        Out::Processor => OUT_OF_TIME,
        Out::WallClock => OUT_OF_WALL_TIME,
    }
}

impl Budget {
    /// Starts the clock for one call.
    pub fn start(&self, budget: Duration) {
        self.clock.set(Some(Clock::start(budget)));
        self.stopped_after.set(0);
    }

    /// How many operations the last call had run when the budget or the watch stopped it
    /// (0 if neither did).
    pub fn stopped_after(&self) -> u64 {
        self.stopped_after.get()
    }

    /// Adds a check made as the script runs (the session's flood limits): when it names a
    /// reason, the script stops with it.
    pub fn watch(&self, check: impl Fn() -> Option<String> + 'static) {
        *self.watch.borrow_mut() = Some(Rc::new(check));
    }

    /// Gives the call under way more time by the wall clock (while a player types in real
    /// dice: waiting uses no processor time, but it does use the backstop's).
    pub fn extend(&self, by: Duration) {
        if let Some(mut clock) = self.clock.get() {
            clock.wait(by);
            self.clock.set(Some(clock));
        }
    }

    /// Stops the clock.
    pub fn stop(&self) {
        self.clock.set(None);
    }

    /// Why the call under way must stop for time, if it must.
    fn expired(&self) -> Option<&'static str> {
        if self.load_expired() {
            return Some(OUT_OF_LOAD_TIME);
        }
        let out = check(&self.clock)?;
        Some(out_token(out))
    }

    /// Whether the loading under way has run out of its time.
    fn load_expired(&self) -> bool {
        check(&self.load_clock).is_some()
    }

    /// Holds every call and compile to `budget` of processor time in all, besides each one's
    /// own budget, until the guard given back is dropped: a game's scripts load under one
    /// budget, however many there are ([`crate::limits::LOAD_BUDGET`]).
    pub fn loading(&self, budget: Duration) -> Loading {
        let before = self.load_clock.replace(Some(Clock::start(budget)));
        Loading {
            clock: self.load_clock.clone(),
            before,
        }
    }

    /// Compiles under the time budget: `compile` (a call to the engine that compiles a
    /// script) is stopped with [`COMPILE_OUT_OF_TIME`] once it has taken
    /// [`crate::limits::TIME_BUDGET`] of processor time (or the backstop's time by the
    /// clock). Rhai's
    /// progress callback does not run while compiling, so the engine checks the clock as
    /// each token is read; a script that imports a module compiles it under the time of the
    /// call under way.
    pub fn compiling<T>(&self, compile: impl FnOnce() -> T) -> T {
        self.compiling_within(crate::limits::TIME_BUDGET, compile)
    }

    /// As [`Budget::compiling`], within `budget` of processor time (what is left of a
    /// budget shared by several compiles: the prompt's reading of one entry).
    pub fn compiling_within<T>(&self, budget: Duration, compile: impl FnOnce() -> T) -> T {
        let before = self.compile_clock.replace(Some(Clock::start(budget)));
        let result = compile();
        self.compile_clock.set(before);
        result
    }

    /// Why the compile under way must stop, if it must.
    fn compile_expired(&self) -> Option<&'static str> {
        if self.load_expired() {
            return Some(OUT_OF_LOAD_TIME);
        }
        let cell = if self.compile_clock.get().is_some() {
            &self.compile_clock
        } else {
            &self.clock
        };
        check(cell).map(|_| COMPILE_OUT_OF_TIME)
    }
}

/// Whether the clock in `cell` (if one runs) is out, keeping what it saw for the next look.
fn check(cell: &Cell<Option<Clock>>) -> Option<Out> {
    let mut clock = cell.get()?;
    let out = clock.out();
    cell.set(Some(clock));
    out
}

/// The loading of a game's scripts under way ([`Budget::loading`]); dropped, it ends.
pub struct Loading {
    clock: Rc<Cell<Option<Clock>>>,
    before: Option<Clock>,
}

impl Drop for Loading {
    fn drop(&mut self) {
        self.clock.set(self.before);
    }
}

/// The seed Rhai hashes with in every sandtable process (any value but zeros, which Rhai
/// takes for "none").
const HASHING_SEED: [u64; 4] = [0x5341_4e44, 0x5441_424c, 0x4521_2121, 1];

/// Fixes, once for the whole process and before any engine is built, the seed Rhai hashes
/// with. Rhai names each anonymous function after a hash of its text (`Fn(anon$2fc3...)`),
/// and without a seed of its own it draws one at random per process: a script reading
/// `f.name` would draw entropy the game's seed does not fix, and the same seed, scenario and
/// lines would play differently from run to run, and in a replay. A hash computed before the
/// seed is set and one computed after disagree, so every engine sandtable builds is built
/// through here ([`sandboxed`], [`raw`]). An embedder that set a seed of its own first keeps
/// it; one that builds Rhai engines of its own calls this before them.
pub fn stable_hashing() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = rhai::config::hashing::set_hashing_seed(Some(HASHING_SEED));
    });
}

/// A raw engine (no packages), for compiling only or for the API's reference, hashing as
/// every engine does ([`stable_hashing`]).
pub fn raw() -> Engine {
    stable_hashing();
    Engine::new_raw()
}

/// Builds a sandboxed engine with the given limits, importing only from `roots` and keeping
/// the imported modules in `modules`.
pub fn sandboxed(
    limits: &Limits,
    budget: &Budget,
    roots: Vec<PathBuf>,
    modules: ModuleCache,
) -> Engine {
    stable_hashing();
    let mut engine = Engine::new();
    engine
        .set_optimization_level(OptimizationLevel::None)
        .set_max_operations(limits.max_operations)
        .set_max_call_levels(limits.max_call_levels)
        .set_max_expr_depths(limits.max_expr_depth, limits.max_function_expr_depth)
        .set_max_string_size(limits.max_string_size)
        .set_max_array_size(limits.max_array_size)
        .set_max_map_size(limits.max_map_size)
        .set_max_variables(limits.max_variables)
        .set_max_functions(limits.max_functions)
        .set_max_modules(limits.max_modules)
        .set_fail_on_invalid_map_property(true)
        .set_max_strings_interned(0)
        .set_module_resolver(ConfinedResolver::with_cache(roots, modules))
        .disable_symbol("eval");
    register_comparers(&mut engine);
    let tokens = Cell::new(0_u32);
    let compiling = budget.clone();
    // The parser does more work per token the more variables are in scope (it looks each name
    // up in a list), so a script can take long to compile though it is small: the clock is
    // read every 32 tokens, each at most a few hundred microseconds apart.
    #[allow(deprecated)]
    engine.on_parse_token(move |token, _, _| {
        tokens.set(tokens.get().wrapping_add(1));
        if tokens.get().is_multiple_of(32)
            && let Some(why) = compiling.compile_expired()
        {
            return Token::LexError(Box::new(LexError::Runtime(why.into())));
        }
        token
    });
    let budget = budget.clone();
    engine.on_progress(move |ops| {
        // Reading the clock every operation would cost more than a cheap operation; every
        // 256th keeps the check well under a millisecond late even when host calls are slow
        // (their inputs are bounded for that reason).
        if ops.is_multiple_of(256)
            && let Some(token) = budget.expired()
        {
            budget.stopped_after.set(ops);
            return Some(Dynamic::from(token));
        }
        if ops.is_multiple_of(64) {
            let watch = budget.watch.borrow().clone();
            if let Some(reason) = watch.and_then(|check| check()) {
                budget.stopped_after.set(ops);
                return Some(Dynamic::from(reason));
            }
        }
        None
    });
    engine
}

/// Registers `sort(comparer)`, `sort_by(comparer)` and `dedup(comparer)` over Rhai's own,
/// which call the comparer with `.ok()` and so ignore whatever it throws, even the time
/// budget running out, and sort on by a made-up order (rhai `packages/array_basic.rs`,
/// `sort_by` and `dedup_by_comparer`). Here the comparer's first error stops the call and
/// reaches the player, and the array is left as it was.
pub fn register_comparers(engine: &mut Engine) {
    use crate::script::metadata::host;
    host!(engine,
        /// Sorts the array in place by a comparer, a function of two items `x` and `y` that
        /// answers a number (negative when `x` goes first) or `true` when `x` goes first. The
        /// sort is stable. It stops at the comparer's first error and reports it, and the
        /// array stays as it was (Rhai's own `sort` would ignore the error and sort on in some
        /// other order). Raises `the comparer given to `sort` must answer a number or
        /// true/false, not ...`.
        ///
        /// ```rhai
        /// let a = [3, 1, 2];
        /// a.sort(|x, y| x - y);
        /// print(a);
        /// ```
        ///
        /// prints:
        ///
        /// ```text
        /// [1, 2, 3]
        /// ```
        fn (a: array) sort(comparer: any) -> (),
        sort_by
    );
    host!(engine,
        /// Sorts the array in place by a comparer, as `sort(comparer)` does.
        fn (a: array) sort_by(comparer: any) -> (),
        sort_by
    );
    host!(engine,
        /// Drops each item the comparer (a function of two items answering `true` when they
        /// are equal) finds equal to the one kept before it; stops at the comparer's first
        /// error, and the array stays as it was.
        fn (a: array) dedup(comparer: any) -> (),
        dedup_by
    );
}

/// The comparer's answer as an order: a number (negative, zero, positive) or a boolean
/// (`true` when the first goes first), as Rhai's `sort` reads it.
fn compare(
    ctx: &NativeCallContext,
    comparer: &FnPtr,
    x: &Dynamic,
    y: &Dynamic,
) -> Result<std::cmp::Ordering, Box<EvalAltResult>> {
    let answer = comparer.call_raw(ctx, None, [x.clone(), y.clone()])?;
    if let Ok(n) = answer.as_int() {
        return Ok(n.cmp(&0));
    }
    if let Ok(first) = answer.as_bool() {
        return Ok(if first {
            std::cmp::Ordering::Less
        } else {
            std::cmp::Ordering::Greater
        });
    }
    Err(crate::script::value::host_error_with_help(
        format!(
            "the comparer given to `sort` must answer a number or true/false, not {}",
            answer.type_name()
        ),
        Some("answer `x - y` (or `x < y`) to sort from the least".into()),
    ))
}

/// `array.sort(comparer)`: a stable merge sort that stops at the comparer's first error.
fn sort_by(
    ctx: NativeCallContext,
    array: &mut Array,
    comparer: FnPtr,
) -> Result<(), Box<EvalAltResult>> {
    let mut items: Vec<Dynamic> = array.clone();
    let mut buffer: Vec<Dynamic> = Vec::with_capacity(items.len());
    let mut width = 1;
    while width < items.len() {
        buffer.clear();
        let mut start = 0;
        while start < items.len() {
            let mid = (start + width).min(items.len());
            let end = (start + 2 * width).min(items.len());
            let (mut i, mut j) = (start, mid);
            while i < mid && j < end {
                if compare(&ctx, &comparer, &items[j], &items[i])? == std::cmp::Ordering::Less {
                    buffer.push(items[j].clone());
                    j += 1;
                } else {
                    buffer.push(items[i].clone());
                    i += 1;
                }
            }
            buffer.extend_from_slice(&items[i..mid]);
            buffer.extend_from_slice(&items[j..end]);
            start = end;
        }
        std::mem::swap(&mut items, &mut buffer);
        width *= 2;
    }
    *array = items;
    Ok(())
}

/// `array.dedup(comparer)`: drops each item the comparer finds equal to the one kept before
/// it; stops at the comparer's first error.
fn dedup_by(
    ctx: NativeCallContext,
    array: &mut Array,
    comparer: FnPtr,
) -> Result<(), Box<EvalAltResult>> {
    let mut kept: Array = Vec::with_capacity(array.len());
    for item in array.iter() {
        if let Some(last) = kept.last() {
            let same = comparer.call_raw(&ctx, None, [last.clone(), item.clone()])?;
            if same.as_bool().unwrap_or(false) {
                continue;
            }
        }
        kept.push(item.clone());
    }
    *array = kept;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine() -> (Engine, Budget) {
        let budget = Budget::default();
        let limits = Limits {
            time_budget: Duration::from_millis(200),
            ..Limits::default()
        };
        (
            sandboxed(&limits, &budget, vec![], ModuleCache::default()),
            budget,
        )
    }

    // With the operations limit on too, a fast build ran into it before the time budget:
    // this test turns it off, so that only the time budget can stop the loop.
    #[test]
    fn endless_loop_is_stopped_by_the_time_budget() {
        let budget = Budget::default();
        let limits = Limits {
            time_budget: Duration::from_millis(200),
            max_operations: 0,
            ..Limits::default()
        };
        let engine = sandboxed(&limits, &budget, vec![], ModuleCache::default());
        budget.start(Duration::from_millis(200));
        let started = Instant::now();
        let err = engine.run("loop { }").unwrap_err();
        assert!(started.elapsed() < Duration::from_secs(2));
        match *err {
            // The processor's budget, or on a very busy machine the wall clock's backstop.
            rhai::EvalAltResult::ErrorTerminated(token, _) => {
                assert!([OUT_OF_TIME, OUT_OF_WALL_TIME].contains(&token.to_string().as_str()))
            }
            other => panic!("expected the time budget to stop the loop, got {other}"),
        }
    }

    // Rhai's own `sort` with a comparer ignored what the comparer threw and sorted on.
    #[test]
    fn a_comparer_that_throws_stops_sort_and_dedup() {
        let (engine, _) = engine();
        for script in [
            r#"let a = [3, 1, 2]; a.sort(|x, y| throw "boom"); a"#,
            r#"let a = [3, 1, 2]; a.sort_by(|x, y| throw "boom"); a"#,
            r#"let a = [1, 1, 2]; a.dedup(|x, y| throw "boom"); a"#,
        ] {
            let err = engine.eval::<Array>(script).unwrap_err();
            assert!(err.to_string().contains("boom"), "{script}: {err}");
        }
        let sorted: Array = engine
            .eval("let a = [3, 1, 2, 5, 4, 1]; a.sort(|x, y| x - y); a")
            .unwrap();
        let sorted: Vec<i64> = sorted.into_iter().map(|d| d.as_int().unwrap()).collect();
        assert_eq!(sorted, [1, 1, 2, 3, 4, 5]);
        let desc: Array = engine
            .eval("let a = [3, 1, 2]; a.sort(|x, y| x > y); a.dedup(|x, y| x == y); a")
            .unwrap();
        let desc: Vec<i64> = desc.into_iter().map(|d| d.as_int().unwrap()).collect();
        assert_eq!(desc, [3, 2, 1]);
        // Stable: equal keys keep their order.
        let stable: Array = engine
            .eval(r#"let a = [[1, "a"], [0, "b"], [1, "c"]]; a.sort(|x, y| x[0] - y[0]); a.map(|p| p[1])"#)
            .unwrap();
        let stable: Vec<String> = stable
            .into_iter()
            .map(|d| d.into_string().unwrap())
            .collect();
        assert_eq!(stable, ["b", "a", "c"]);
    }

    #[test]
    fn eval_is_disabled() {
        let (engine, _) = engine();
        assert!(engine.compile("eval(\"1\")").is_err());
    }

    #[test]
    fn runaway_recursion_is_an_error() {
        let (engine, _) = engine();
        let err = engine.run("fn f(x) { f(x + 1) } f(0)").unwrap_err();
        assert!(
            err.to_string().to_lowercase().contains("stack") || err.to_string().contains("call"),
            "{err}"
        );
    }

    #[test]
    fn gigantic_strings_and_arrays_are_errors() {
        let (engine, _) = engine();
        assert!(engine.run("let s = \"x\"; loop { s += s; }").is_err());
        assert!(engine.run("let a = [1]; loop { a += a; }").is_err());
    }
}
