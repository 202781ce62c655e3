//! Transcripts in the documentation, replayed: each fenced block marked `<!-- replay -->`
//! (or `<!-- replay: COMMAND -->`) on the line before it is run again through the built
//! binary, and what the block shows is compared with what the program prints. The
//! convention is described in `docs/testing.md`.
//!
//! A block is one of two kinds:
//! - a shell transcript: its first line is `$ COMMAND` (continued by lines ending in `\`),
//!   the rest what the command prints, standard error in its place among standard output.
//!   Lines `> LINE` are the lines typed at the prompt, fed to the command unless it reads
//!   from a pipe of its own (`echo ... | sandtable play`);
//! - a prompt session: lines `turn 1 · vikings > LINE` (or `> LINE`) and what each prints;
//!   the marker names the command (`<!-- replay: sandtable play --seed 3 -->`), and what
//!   the command prints before the first line shown is not shown. `; first: LINE; LINE`
//!   after the command gives lines played before the block's, unseen (a line may be the
//!   answer to a question, a card typed under `:cards manual`).
//!
//! A line `...` in a block stands for lines cut from the output, one or more. Rewritten
//! (`UPDATE_GOLDEN=1`), a block with cuts keeps the lines it showed that the program still
//! prints, in order, and a cut wherever lines now come between them.
//!
//! Each block runs in a fresh temporary folder that holds a copy of the project's
//! `scripts/`, `scenarios/` and `examples/` (and the files the document shows under a line
//! `` `my-project/PATH`: `` or in a block marked `<!-- file: NAME -->`), with `HOME` there, `NO_COLOR=1` and the binary first on `PATH`
//! as `sandtable`.

use std::path::{Path, PathBuf};

/// The marker that opens a replayed block, on the line before its fence.
pub const MARKER: &str = "<!-- replay";

/// The marker of a transcript that is deliberately not replayed, with the reason.
pub const NOT_REPLAYED: &str = "<!-- not replayed:";

/// The marker of a block that is a file the replayed blocks use: `<!-- file: NAME -->`.
pub const FILE: &str = "<!-- file:";

/// One replayed block of a document.
#[derive(Debug, Clone)]
pub struct Block {
    /// The document's line number of the block's first line (after the fence), from 1.
    pub line: usize,
    /// The command given in the marker, if any.
    pub command: Option<String>,
    /// Lines played before the block's own, unseen.
    pub first: Vec<String>,
    /// Byte range of the block's body (between the fences) in the document.
    pub body: std::ops::Range<usize>,
}

impl Block {
    /// The block's text in `doc`.
    pub fn text<'a>(&self, doc: &'a str) -> &'a str {
        &doc[self.body.clone()]
    }
}

/// Every fenced block of `doc`: the byte range of its body, its first line's number and the
/// line before its opening fence.
pub fn fenced_blocks(doc: &str) -> Vec<(std::ops::Range<usize>, usize, String)> {
    let mut blocks = Vec::new();
    let mut offset = 0;
    let mut previous = String::new();
    let mut open: Option<(usize, usize, String)> = None;
    for (n, line) in doc.split_inclusive('\n').enumerate() {
        let trimmed = line.trim_end_matches('\n');
        match &open {
            None if trimmed.starts_with("```") => {
                open = Some((offset + line.len(), n + 2, previous.clone()));
            }
            Some((start, first, before)) if trimmed == "```" => {
                blocks.push((*start..offset, *first, before.clone()));
                open = None;
            }
            _ => {}
        }
        previous = trimmed.to_string();
        offset += line.len();
    }
    blocks
}

/// The replayed blocks of `doc`.
pub fn blocks(doc: &str) -> Vec<Block> {
    fenced_blocks(doc)
        .into_iter()
        .filter_map(|(body, line, before)| {
            let rest = before.trim().strip_prefix(MARKER)?;
            let rest = rest.strip_suffix("-->")?.trim();
            let (command, first) = match rest.strip_prefix(':') {
                None if rest.is_empty() => (None, Vec::new()),
                None => return None,
                Some(given) => {
                    let mut parts = given.split("; first:");
                    let command = parts.next().unwrap_or("").trim().to_string();
                    let first = parts
                        .next()
                        .map(|l| l.split(';').map(|l| l.trim().to_string()).collect())
                        .unwrap_or_default();
                    (Some(command), first)
                }
            };
            Some(Block {
                line,
                command,
                first,
                body,
            })
        })
        .collect()
}

/// The prompt's input on `line`, if it is a prompt: `> LINE` or `turn N · ... > LINE`.
fn input(line: &str) -> Option<&str> {
    if let Some(rest) = line.strip_prefix("> ") {
        return Some(rest);
    }
    let rest = line.strip_prefix("turn ")?;
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    let rest = rest[digits..].strip_prefix(" · ")?;
    let at = rest.find(" > ")?;
    Some(&rest[at + 3..])
}

/// Whether the block's prompts are the terminal's (`turn 1 · vikings > `) rather than the
/// pipe's echo (`> `).
fn full_prompts(lines: &[&str]) -> bool {
    lines
        .iter()
        .any(|l| !l.starts_with("> ") && input(l).is_some())
}

/// The prompt the game shows after the output lines `seen`: its turn, phase and side, as
/// the program announces them (`turn 2: romans to play`, `phase: men move`).
struct PromptState {
    turn: String,
    side: String,
    phase: String,
}

impl PromptState {
    fn follow(&mut self, line: &str) {
        if let Some(rest) = line.strip_prefix("turn ") {
            if let Some((turn, side)) = rest.split_once(": ")
                && let Some(side) = side.strip_suffix(" to play")
                && turn.chars().all(|c| c.is_ascii_digit())
            {
                self.turn = turn.to_string();
                self.side = side.to_string();
            }
        } else if let Some(phase) = line.strip_prefix("phase: ") {
            self.phase = phase.to_string();
        }
    }

    fn prompt(&self) -> String {
        if self.phase.is_empty() {
            format!("turn {} · {} > ", self.turn, self.side)
        } else {
            format!("turn {} · {} · {} > ", self.turn, self.phase, self.side)
        }
    }
}

/// The folder a block runs in, and the binary's folder on its `PATH`.
pub struct Table {
    dir: tempfile::TempDir,
}

impl Table {
    /// A temporary folder with a copy of the project's scripts, scenarios and examples, and
    /// `files` (path and text) written into it.
    pub fn new(files: &[(String, String)]) -> Table {
        let dir = tempfile::tempdir().expect("a temporary folder");
        for top in ["scripts", "scenarios", "examples"] {
            copy(&super::project().join(top), &dir.path().join(top));
        }
        for (name, text) in files {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("a folder");
            std::fs::write(path, text).expect("a file");
        }
        let bin = dir.path().join(".bin");
        std::fs::create_dir_all(&bin).expect("a folder for the binary");
        std::os::unix::fs::symlink(super::BINARY, bin.join("sandtable")).expect("a link");
        Table { dir }
    }

    /// Runs `command` in `sh` in the folder, standard error into standard output, feeding
    /// it `stdin`; returns what it printed.
    pub fn run(&self, command: &str, stdin: Option<&str>) -> String {
        let dir = self.dir.path();
        let script = format!(
            "export HOME='{home}' PATH='{home}/.bin':\"$PATH\"; unset XDG_DATA_HOME SANDTABLE_DATA; {{\n{command}\n}} 2>&1",
            home = dir.display()
        );
        let out = super::run_program("sh", dir, &["-c", &script], stdin.or(Some("")));
        out.no_panic();
        out.stdout
    }
}

/// Copies the folder `from` to `to`, at any depth (links are not followed).
fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder");
    for entry in std::fs::read_dir(from)
        .expect("the project's folder")
        .flatten()
    {
        let kind = entry.file_type().expect("a file type");
        let target = to.join(entry.file_name());
        if kind.is_dir() {
            copy(&entry.path(), &target);
        } else if kind.is_file() {
            std::fs::copy(entry.path(), target).expect("a copy");
        }
    }
}

/// The files a document shows under a line `` `my-project/PATH`: ``, or in a block marked
/// `<!-- file: NAME -->`: each path with the body of its block.
pub fn shown_files(doc: &str) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut rest = doc;
    while let Some(at) = rest.find("\n`my-project/") {
        rest = &rest[at + 2..];
        let name = &rest[..rest.find('`').expect("the file name's closing backtick")];
        let body = &rest[rest.find("```").expect("the file's block")..];
        let body = &body[body.find('\n').expect("the block's first line") + 1..];
        let body = &body[..body.find("```").expect("the block's end")];
        files.push((name.to_string(), body.to_string()));
    }
    for (body, _, before) in fenced_blocks(doc) {
        let Some(name) = before
            .trim()
            .strip_prefix(FILE)
            .and_then(|n| n.strip_suffix("-->"))
        else {
            continue;
        };
        files.push((name.trim().to_string(), doc[body].to_string()));
    }
    files
}

/// The block as the program now prints it: `shown` (the block's text) replayed in `table`.
pub fn replay(table: &Table, block: &Block, shown: &str) -> String {
    let lines: Vec<&str> = shown.lines().collect();
    // A shell transcript's command line, shown as it is (the marker may give the command
    // run in its place: one that first edits a file, say).
    let mut header: Option<String> = None;
    let mut shell = String::new();
    let mut used = 0;
    if lines.first().is_some_and(|l| l.starts_with("$ ")) {
        for line in &lines {
            used += 1;
            let line = line.strip_prefix("$ ").unwrap_or(line);
            match line.strip_suffix('\\') {
                Some(part) => shell.push_str(&format!("{part}\\\n")),
                None => {
                    shell.push_str(line);
                    break;
                }
            }
        }
        header = Some(lines[..used].join("\n"));
    }
    let body = &lines[used..];
    let command = match (&block.command, header.is_some()) {
        (Some(command), _) => command.clone(),
        (None, true) => shell,
        (None, false) => panic!(
            "line {}: a replayed block starts with `$ COMMAND`, or its marker names the command",
            block.line
        ),
    };
    let inputs: Vec<&str> = body.iter().filter_map(|l| input(l)).collect();
    let piped = command.contains('|');
    let mut stdin = String::new();
    if !piped {
        for line in block
            .first
            .iter()
            .map(String::as_str)
            .chain(inputs.iter().copied())
        {
            stdin.push_str(line);
            stdin.push('\n');
        }
    }
    let printed = table.run(&command, Some(&stdin));
    let printed: Vec<&str> = printed.lines().collect();
    let full = full_prompts(body);
    // The program's lines, each echo of an input given its prompt, and cut into chunks: what
    // comes before the first input shown, then each input with what it prints.
    let mut state = PromptState {
        turn: String::new(),
        side: String::new(),
        phase: String::new(),
    };
    let mut unseen = block.first.iter();
    let mut next_unseen = unseen.next();
    let mut want = inputs.iter().peekable();
    let mut chunks: Vec<Vec<String>> = vec![Vec::new()];
    let mut started = header.is_some();
    for line in &printed {
        let echoed = line.strip_prefix("> ");
        // A hidden line is echoed as typed at the prompt (`> LINE`), or as the answer to a
        // question the game asked (`draw a card ...: KH` under `:cards manual`).
        if let Some(hidden) = next_unseen
            && match echoed {
                Some(text) => text == hidden,
                None => line.ends_with(&format!(": {hidden}")),
            }
        {
            next_unseen = unseen.next();
            continue;
        }
        if let (Some(text), Some(wanted)) = (echoed, want.peek())
            && next_unseen.is_none()
            && text == **wanted
        {
            want.next();
            started = true;
            let prompt = if full { state.prompt() } else { "> ".into() };
            chunks.push(vec![format!("{prompt}{text}")]);
            continue;
        }
        state.follow(line);
        if started {
            chunks.last_mut().expect("a chunk").push(line.to_string());
        }
    }
    // The block's own chunks, to keep its cuts.
    let mut own: Vec<Vec<&str>> = vec![Vec::new()];
    for line in body {
        if input(line).is_some() {
            own.push(vec![line]);
        } else {
            own.last_mut().expect("a chunk").push(line);
        }
    }
    let mut out: Vec<String> = header.into_iter().collect();
    for (i, chunk) in chunks.iter().enumerate() {
        match own.get(i) {
            Some(mine) if mine.contains(&"...") => out.extend(excerpt(mine, chunk)),
            _ => out.extend(chunk.iter().cloned()),
        }
    }
    let mut text = out.join("\n");
    text.push('\n');
    text
}

/// The lines of `shown` (which cuts lines with `...`) that `printed` still holds, in order,
/// with a cut wherever printed lines come between two of them, before the first or after
/// the last.
fn excerpt(shown: &[&str], printed: &[String]) -> Vec<String> {
    let kept: Vec<&str> = shown.iter().copied().filter(|l| *l != "...").collect();
    let (n, m) = (kept.len(), printed.len());
    // The longest common subsequence, from the ends.
    let mut table = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            table[i][j] = if kept[i] == printed[j] {
                table[i + 1][j + 1] + 1
            } else {
                table[i + 1][j].max(table[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut matched = Vec::new();
    while i < n && j < m {
        if kept[i] == printed[j] {
            matched.push(j);
            i += 1;
            j += 1;
        } else if table[i + 1][j] >= table[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    let mut out = Vec::new();
    let mut last: Option<usize> = None;
    for &j in &matched {
        let gap = match last {
            None => j > 0,
            Some(l) => j > l + 1,
        };
        if gap {
            out.push("...".to_string());
        }
        out.push(printed[j].clone());
        last = Some(j);
    }
    if last.map_or(m > 0, |l| l + 1 < m) {
        out.push("...".to_string());
    }
    out
}

/// Replays every marked block of the document at `path` (relative to the project);
/// returns the document with each block as the program prints it, and the blocks that
/// differ (line number, shown, printed).
pub fn replay_document(path: &str) -> (String, Vec<(usize, String, String)>, usize) {
    let file: PathBuf = super::project().join(path);
    let doc = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{path}: {e}"));
    let files = shown_files(&doc);
    let mut rewritten = String::new();
    let mut at = 0;
    let mut differ = Vec::new();
    let found = blocks(&doc);
    for block in &found {
        let table = Table::new(&files);
        let shown = block.text(&doc);
        let printed = replay(&table, block, shown);
        if printed != shown {
            differ.push((block.line, shown.to_string(), printed.clone()));
        }
        rewritten.push_str(&doc[at..block.body.start]);
        rewritten.push_str(&printed);
        at = block.body.end;
    }
    rewritten.push_str(&doc[at..]);
    (rewritten, differ, found.len())
}
