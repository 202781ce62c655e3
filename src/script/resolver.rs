//! Imports confined to the scripts folders.
//!
//! Rhai's own `FileModuleResolver` follows an absolute path even when given a base folder.
//! This resolver accepts only relative paths made of plain names (no `..`, no root, no drive),
//! looks them up under each allowed root in order, and checks the file's real path (symlinks
//! resolved) still lies inside that root: the rule of `game::confine`, which house rules and
//! saves follow too.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::game::confine::{Refused, inside, is_plain};
use rhai::{Engine, EvalAltResult, Module, ModuleResolver, Position, Scope, Shared};

/// Why an `import` is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImportRefused {
    /// An absolute path, `..`, or nothing.
    #[error(
        "import `{0}` is not allowed: imports are relative paths inside the scripts folders, without `..`"
    )]
    NotAllowed(String),
    /// A symlink that leads out of the folder it was found in.
    #[error("import `{0}` is refused: `{1}` is a link that leads outside the scripts folders")]
    Outside(String, String),
    /// A folder, a FIFO or a device where the script would be: never opened, as a FIFO
    /// would block the reader for ever.
    #[error("import `{0}` is refused: `{1}` is {2}, not a script file")]
    NotAFile(String, String, &'static str),
    /// No such script in any of the folders.
    #[error("cannot find module `{0}` in the scripts folders")]
    NotFound(String),
}

pub use crate::limits::MAX_SCRIPT_BYTES;

pub use crate::limits::MAX_IMPORT_DEPTH;

/// The modules imported so far, each evaluated once. A module's top level runs in the game
/// (it may roll a die), so a session that starts a new battle empties it: every battle then
/// runs it afresh at its first import, whichever battles came before (which is what keeps
/// `sim` identical for any thread count).
#[derive(Clone, Default)]
pub struct ModuleCache(Rc<RefCell<HashMap<PathBuf, Shared<Module>>>>);

impl ModuleCache {
    /// Forgets every module evaluated so far.
    pub fn clear(&self) {
        self.0.borrow_mut().clear();
    }

    /// The files of the modules evaluated so far (each its real path), sorted.
    pub fn files(&self) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = self.0.borrow().keys().cloned().collect();
        files.sort();
        files
    }
}

/// Resolves `import "name"` under a fixed list of folders.
pub struct ConfinedResolver {
    roots: Vec<PathBuf>,
    cache: ModuleCache,
    /// The modules being evaluated, outermost first: an import of one of them is a circle.
    loading: RefCell<Vec<PathBuf>>,
}

impl ConfinedResolver {
    /// A resolver for these roots (folders that do not exist are skipped).
    pub fn new(roots: Vec<PathBuf>) -> Self {
        Self::with_cache(roots, ModuleCache::default())
    }

    /// A resolver for these roots keeping its modules in `cache`, which the caller may empty.
    pub fn with_cache(roots: Vec<PathBuf>, cache: ModuleCache) -> Self {
        ConfinedResolver {
            roots: roots
                .into_iter()
                .filter_map(|r| r.canonicalize().ok())
                .collect(),
            cache,
            loading: RefCell::default(),
        }
    }

    /// Finds the file an import names, or says why it may not be imported.
    pub fn locate(&self, path: &str) -> Result<PathBuf, ImportRefused> {
        let mut rel = PathBuf::from(path);
        if rel.extension().is_none() {
            rel.set_extension("rhai");
        }
        if !is_plain(&rel) {
            return Err(ImportRefused::NotAllowed(path.to_string()));
        }
        for root in &self.roots {
            match inside(root, &rel) {
                Ok(real) => return Ok(real),
                Err(Refused::Outside { file, .. }) => {
                    return Err(ImportRefused::Outside(
                        path.to_string(),
                        file.display().to_string(),
                    ));
                }
                Err(Refused::NotAFile { file, kind }) => {
                    // Named as the import names it: which folder it is in matters less.
                    let shown = file.strip_prefix(root).unwrap_or(&file);
                    return Err(ImportRefused::NotAFile(
                        path.to_string(),
                        shown.display().to_string(),
                        kind,
                    ));
                }
                Err(_) => {}
            }
        }
        Err(ImportRefused::NotFound(path.to_string()))
    }

    fn load(&self, engine: &Engine, file: &Path) -> Result<Shared<Module>, Box<EvalAltResult>> {
        if let Some(m) = self.cache.0.borrow().get(file) {
            return Ok(m.clone());
        }
        {
            let loading = self.loading.borrow();
            if let Some(first) = loading.iter().position(|f| f == file) {
                let circle: Vec<String> = loading[first..]
                    .iter()
                    .chain(std::iter::once(&file.to_path_buf()))
                    .map(|f| format!("`{}`", file_name(f)))
                    .collect();
                return Err(format!(
                    "modules import each other in a circle: {}; a module may not import itself, even through others",
                    circle.join(" imports ")
                )
                .into());
            }
            if loading.len() >= MAX_IMPORT_DEPTH {
                return Err(format!(
                    "imports nested more than {MAX_IMPORT_DEPTH} deep (a module importing a module importing ...): `{}` is one too many",
                    file_name(file)
                )
                .into());
            }
        }
        self.loading.borrow_mut().push(file.to_path_buf());
        let module = self.read_and_run(engine, file);
        self.loading.borrow_mut().pop();
        let module = module?;
        self.cache
            .0
            .borrow_mut()
            .insert(file.to_path_buf(), module.clone());
        Ok(module)
    }

    /// Reads, compiles and runs one module's file.
    fn read_and_run(
        &self,
        engine: &Engine,
        file: &Path,
    ) -> Result<Shared<Module>, Box<EvalAltResult>> {
        let name = file_name(file);
        let size = std::fs::metadata(file).map_or(0, |m| m.len());
        if let Some(message) = crate::error::script_too_big(&name, size) {
            return Err(format!("module {message}").into());
        }
        let text =
            std::fs::read_to_string(file).map_err(|e| format!("cannot read `{name}`: {e}"))?;
        // A file that grew since it was measured.
        if let Some(message) = crate::error::script_too_big(&name, text.len() as u64) {
            return Err(format!("module {message}").into());
        }
        let mut ast = engine.compile(&text).map_err(|e| {
            Box::new(EvalAltResult::ErrorInModule(
                file.display().to_string(),
                Box::new(e.into()),
                Position::NONE,
            ))
        })?;
        ast.set_source(file.display().to_string());
        Ok(Module::eval_ast_as_new(Scope::new(), &ast, engine)?.into())
    }
}

/// A module's file name, for messages.
fn file_name(file: &Path) -> String {
    file.file_name().map_or_else(
        || file.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

impl ModuleResolver for ConfinedResolver {
    fn resolve(
        &self,
        engine: &Engine,
        _source: Option<&str>,
        path: &str,
        pos: Position,
    ) -> Result<Shared<Module>, Box<EvalAltResult>> {
        let file = self.locate(path).map_err(|msg| {
            Box::new(EvalAltResult::ErrorRuntime(
                rhai::Dynamic::from(crate::script::value::HostError::new(msg.to_string())),
                pos,
            ))
        })?;
        self.load(engine, &file)
            .map_err(|e| Box::new(EvalAltResult::ErrorInModule(path.to_string(), e, pos)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("helpers.rhai"), "fn two() { 2 }").unwrap();
        let r = ConfinedResolver::new(vec![dir.path().to_path_buf()]);
        assert!(r.locate("helpers").is_ok());
        assert!(r.locate("helpers.rhai").is_ok());
        assert!(
            r.locate("../../etc/passwd")
                .unwrap_err()
                .to_string()
                .contains("not allowed")
        );
        assert!(
            r.locate("/etc/passwd")
                .unwrap_err()
                .to_string()
                .contains("not allowed")
        );
        assert!(
            r.locate("sub/../helpers")
                .unwrap_err()
                .to_string()
                .contains("not allowed")
        );
        assert!(
            r.locate("missing")
                .unwrap_err()
                .to_string()
                .contains("cannot find")
        );
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_out_of_the_root_are_refused() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.rhai"), "42").unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(
            outside.path().join("secret.rhai"),
            dir.path().join("link.rhai"),
        )
        .unwrap();
        let r = ConfinedResolver::new(vec![dir.path().to_path_buf()]);
        assert!(matches!(r.locate("link"), Err(ImportRefused::Outside(..))));
    }

    // Guards against modules importing each other: the program overflowed its stack and
    // aborted.
    #[test]
    fn modules_importing_each_other_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.rhai"), "import \"b\" as b; fn a() { 1 }").unwrap();
        std::fs::write(dir.path().join("b.rhai"), "import \"a\" as a; fn b() { 2 }").unwrap();
        crate::script::engine::stable_hashing();
        let mut engine = Engine::new();
        engine.set_module_resolver(ConfinedResolver::new(vec![dir.path().to_path_buf()]));
        let err = engine.eval::<i64>("import \"a\" as a; 1").unwrap_err();
        assert!(
            err.to_string().contains(
                "modules import each other in a circle: `a.rhai` imports `b.rhai` imports `a.rhai`"
            ),
            "{err}"
        );
    }

    // Guards the depth of imports: a chain of 400 modules overflowed the stack.
    #[test]
    fn imports_nested_too_deep_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let n = MAX_IMPORT_DEPTH + 1;
        for i in 0..n {
            let text = format!("import \"m{}\" as m; fn f() {{ {i} }}", i + 1);
            std::fs::write(dir.path().join(format!("m{i}.rhai")), text).unwrap();
        }
        std::fs::write(dir.path().join(format!("m{n}.rhai")), "fn f() { 0 }").unwrap();
        // A fresh engine each time: the modules of one import stay in its resolver's cache.
        let engine = || {
            crate::script::engine::stable_hashing();
            let mut engine = Engine::new();
            engine.set_module_resolver(ConfinedResolver::new(vec![dir.path().to_path_buf()]));
            engine
        };
        // `m2` to `m17`: 16 modules, each inside the one before, are allowed; one more is not.
        assert!(engine().eval::<i64>("import \"m2\" as m; 1").is_ok());
        let err = engine().eval::<i64>("import \"m1\" as m; 1").unwrap_err();
        assert!(
            err.to_string().contains("imports nested more than 16 deep"),
            "{err}"
        );
    }

    #[test]
    fn imported_functions_work() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("helpers.rhai"), "fn two() { 2 }").unwrap();
        crate::script::engine::stable_hashing();
        let mut engine = Engine::new();
        engine.set_module_resolver(ConfinedResolver::new(vec![dir.path().to_path_buf()]));
        assert_eq!(
            engine
                .eval::<i64>("import \"helpers\" as h; h::two()")
                .unwrap(),
            2
        );
        assert!(
            engine
                .eval::<i64>("import \"/etc/passwd\" as h; 1")
                .is_err()
        );
    }
}
