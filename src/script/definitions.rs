//! Rhai definition files for editors (`sandtable defs`): the Rhai language server and the VS
//! Code Rhai extension read `.d.rhai` files that declare the functions a script may call, with
//! their docs. Rhai writes the host API and its standard library (`Engine::definitions`);
//! this module writes the ruleset's verbs and hooks in the same syntax.

/// Whether `name` can be declared: a Rhai identifier.
fn is_identifier(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// One script function as a definition: its doc as `///` lines, then `fn NAME(P: ?, ...) ->
/// ?;` (a script's parameters and result have no declared type). A name that is no
/// identifier gives a comment instead, so the file still parses.
pub fn script_fn(name: &str, params: &[&str], doc: &str) -> String {
    if !is_identifier(name) || !params.iter().all(|p| is_identifier(p)) {
        return format!("// `{name}` cannot be declared: it is not a Rhai name\n");
    }
    let mut out = String::new();
    for line in doc.trim().lines() {
        if line.trim().is_empty() {
            out.push_str("///\n");
        } else {
            out.push_str(&format!("/// {}\n", line.trim_end()));
        }
    }
    let params: Vec<String> = params.iter().map(|p| format!("{p}: ?")).collect();
    out.push_str(&format!("fn {name}({}) -> ?;\n", params.join(", ")));
    out
}

/// A hook as the function a house rule or an ability defines to answer it: its name, its
/// parameters' names and what it means.
pub fn hook(name: &str, params: &[&str], doc: &str) -> String {
    let doc = format!(
        "{}\n\nA hook of the ruleset: a house rule or an ability answers it by defining this function.",
        doc.trim()
    );
    script_fn(name, params, &doc)
}

/// Rhai's definition of the host API with its types said as the Rhai language server says
/// them: the vocabulary of `docs/api.md` has `string`, `array`, `map`, and `number`, `place`
/// and `any` for values of several types, where definition files have `String`, `Array`,
/// `Map` and `?`. Only the declarations change, not the docs. An indexer, which Rhai writes
/// as `fn index$get$(...)` and definition files cannot declare, becomes a comment; a result
/// Rhai leaves blank (`-> ;`, its standard library's number conversions) is left out.
pub fn editor_types(definitions: &str) -> String {
    let mut out = String::with_capacity(definitions.len());
    for line in definitions.split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix("fn index$get$") {
            out.push_str(&format!("// the indexer `x[key]`: {rest}"));
            continue;
        }
        let fixed = line.replace(") -> ;", ");");
        let line = fixed.as_str();
        let Some(open) = line
            .find('(')
            .filter(|_| line.starts_with("fn ") || line.starts_with("op "))
        else {
            out.push_str(line);
            continue;
        };
        out.push_str(&line[..open]);
        let rest = &line[open..];
        let mut word = String::new();
        let mut chars = rest.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_alphanumeric() || c == '_' {
                word.push(c);
                if chars
                    .peek()
                    .is_some_and(|n| n.is_alphanumeric() || *n == '_')
                {
                    continue;
                }
                // A parameter's name is followed by `:`; a type is not.
                let typed = chars.peek() != Some(&':');
                out.push_str(match word.as_str() {
                    "string" if typed => "String",
                    "array" if typed => "Array",
                    "map" if typed => "Map",
                    "any" | "number" | "place" if typed => "?",
                    w => w,
                });
                word.clear();
            } else {
                out.push(c);
            }
        }
    }
    out
}

/// A definition file of global functions: `module static;`, then each declaration.
pub fn file(declarations: impl IntoIterator<Item = String>) -> String {
    let mut out = String::from("module static;\n");
    for d in declarations {
        out.push('\n');
        out.push_str(&d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_function_is_declared_with_its_doc() {
        assert_eq!(
            script_fn("melee", &["attacker", "defender"], "Attack.\n\nThen more."),
            "/// Attack.\n///\n/// Then more.\nfn melee(attacker: ?, defender: ?) -> ?;\n"
        );
    }

    #[test]
    fn the_vocabulary_becomes_the_language_servers() {
        assert_eq!(
            editor_types(
                "/// a string\nfn get_a(place: place, n: number) -> string;\nop ==(Card, Card) -> any;\nfn index$get$(u: Unit) -> any;\nfn to_int(_: ?) -> ;\n"
            ),
            "/// a string\nfn get_a(place: ?, n: ?) -> String;\nop ==(Card, Card) -> ?;\n// the indexer `x[key]`: (u: Unit) -> any;\nfn to_int(_: ?);\n"
        );
    }

    // A hook's name comes from a shared file: one that is no Rhai name would break the file.
    #[test]
    fn a_name_that_is_not_rhai_is_a_comment() {
        assert!(script_fn("no way", &[], "").starts_with("// "));
        assert!(script_fn("ok", &["a-b"], "").starts_with("// "));
    }
}
