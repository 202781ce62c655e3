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
    /// No such script in any of the folders.
    #[error("cannot find module `{0}` in the scripts folders")]
    NotFound(String),
}

pub use crate::limits::MAX_SCRIPT_BYTES;

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
                Err(_) => {}
            }
        }
        Err(ImportRefused::NotFound(path.to_string()))
    }

    fn load(&self, engine: &Engine, file: &Path) -> Result<Shared<Module>, Box<EvalAltResult>> {
        if let Some(m) = self.cache.0.borrow().get(file) {
            return Ok(m.clone());
        }
        let name = file.display().to_string();
        let size = std::fs::metadata(file).map_or(0, |m| m.len());
        if let Some(message) = crate::error::script_too_big(&name, size) {
            return Err(format!("module {message}").into());
        }
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read `{}`: {e}", file.display()))?;
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
        let module: Shared<Module> = Module::eval_ast_as_new(Scope::new(), &ast, engine)?.into();
        self.cache
            .0
            .borrow_mut()
            .insert(file.to_path_buf(), module.clone());
        Ok(module)
    }
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

    #[test]
    fn imported_functions_work() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("helpers.rhai"), "fn two() { 2 }").unwrap();
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
