//! Packs the shipped rulesets and scenarios (`scripts/`, `scenarios/`) into the binary, so
//! that an installed `sandtable` plays them without the clone it was built from
//! (`src/game/shipped.rs` unpacks them into the data folder and reads them from there,
//! through the same checks as any project's files).
//!
//! It writes `$OUT_DIR/shipped.rs`: a sorted list of `(path, bytes)`, each file's bytes
//! taken by `include_bytes!`. Only scripts, data and their documents (`.rhai`, `.yaml`,
//! `.yml`, `.md`) are packed, and no symbolic link is followed.

use std::path::{Path, PathBuf};

const FOLDERS: [&str; 2] = ["scripts", "scenarios"];
const KINDS: [&str; 4] = ["rhai", "yaml", "yml", "md"];

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let mut files = Vec::new();
    for folder in FOLDERS {
        println!("cargo:rerun-if-changed={folder}");
        walk(&root, Path::new(folder), &mut files);
    }
    println!("cargo:rerun-if-changed=build.rs");
    files.sort();
    let mut out = String::from(
        "/// The shipped files: each path (from the project folder, with `/`) and its bytes.\n\
         pub static FILES: &[(&str, &[u8])] = &[\n",
    );
    for rel in &files {
        let full = root.join(rel);
        out.push_str(&format!(
            "    ({:?}, include_bytes!({:?})),\n",
            rel,
            full.to_str().expect("a UTF-8 path")
        ));
    }
    out.push_str("];\n");
    let dest =
        PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it")).join("shipped.rs");
    std::fs::write(dest, out).expect("OUT_DIR is writable");
}

/// The packed files under `root/rel`, as `/`-separated paths from `root`.
fn walk(root: &Path, rel: &Path, files: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(root.join(rel)) else {
        return;
    };
    for entry in entries.flatten() {
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        let path = rel.join(&name);
        if kind.is_dir() {
            walk(root, &path, files);
        } else if kind.is_file()
            && Path::new(&name)
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| KINDS.contains(&e))
        {
            let parts: Vec<&str> = path.iter().filter_map(|p| p.to_str()).collect();
            files.push(parts.join("/"));
        }
    }
}
