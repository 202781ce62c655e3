//! The host API's own description of itself: every function is registered with its
//! parameters' names and types and its doc comment in Rhai's metadata ([`host!`],
//! [`host_type!`]), and read back from there ([`functions`], [`types`]) for the reference
//! (`docs/api.md`), `:help` and editors' definition files. No list of host functions is kept
//! anywhere else.
//!
//! Types are named in one vocabulary, that of `docs/api.md`'s "Types" table: `INT`, `FLOAT`,
//! `number` (INT or FLOAT), `string`, `bool`, `Unit`, `Point`, `place` (a Point, a Unit or
//! `[x, y]`), `Roll`, `Card`, `Deck`, `array`, `map`, `()` and `any`.
//!
//! The metadata is static text: registering copies it, and formats nothing.

use rhai::Engine;
use serde::Deserialize;

/// The types of [the vocabulary](self) a parameter or a result may have.
pub const TYPES: [&str; 15] = [
    "INT", "FLOAT", "number", "string", "bool", "Unit", "Point", "place", "Roll", "Card", "Deck",
    "array", "map", "()", "any",
];

/// Registers one host function on an engine with its name, parameters, result and doc, all
/// in Rhai's metadata, so that no function can be registered without them. The doc is the
/// `///` comment written before the signature; the signature is one of:
///
/// - `fn name(p: type, ...) -> type`: a function;
/// - `fn (u: Unit) name(p: type, ...) -> type`: a method of a type, whose closure takes the
///   receiver as `&mut`;
/// - `get (u: Unit) name -> type` and `set (u: Unit) name(v: type)`: a property;
/// - `index (u: Unit)[name: string] -> type`: reading `u[name]`;
/// - `op (a: Point) + (b: Point) -> type`: an operator.
///
/// Every one is registered as volatile, so the optimiser never folds a call (a roll, a read
/// of the game) into a constant.
macro_rules! host {
    ($engine:expr, #[doc = $first:literal] $(#[doc = $doc:literal])*
     fn $name:ident ($($p:ident : $t:tt),*) -> $ret:tt, $f:expr $(,)?) => {
        rhai::FuncRegistration::new(stringify!($name))
            .in_global_namespace()
            .with_volatility(true)
            .with_params_info([$(concat!(stringify!($p), ": ", stringify!($t)),)* stringify!($ret)])
            .with_comments([concat!("///", $first $(, "\n///", $doc)*)])
            .register_into_engine($engine, $f)
    };
    ($engine:expr, #[doc = $first:literal] $(#[doc = $doc:literal])*
     fn ($r:ident : $rt:tt) $name:ident ($($p:ident : $t:tt),*) -> $ret:tt, $f:expr $(,)?) => {
        rhai::FuncRegistration::new(stringify!($name))
            .in_global_namespace()
            .with_volatility(true)
            .with_params_info([
                concat!(stringify!($r), ": &mut ", stringify!($rt)),
                $(concat!(stringify!($p), ": ", stringify!($t)),)*
                stringify!($ret),
            ])
            .with_comments([concat!("///", $first $(, "\n///", $doc)*)])
            .register_into_engine($engine, $f)
    };
    ($engine:expr, #[doc = $first:literal] $(#[doc = $doc:literal])*
     get ($r:ident : $rt:tt) $name:ident -> $ret:tt, $f:expr $(,)?) => {
        rhai::FuncRegistration::new_getter(stringify!($name))
            .with_volatility(true)
            .with_params_info([concat!(stringify!($r), ": &mut ", stringify!($rt)), stringify!($ret)])
            .with_comments([concat!("///", $first $(, "\n///", $doc)*)])
            .register_into_engine($engine, $f)
    };
    ($engine:expr, #[doc = $first:literal] $(#[doc = $doc:literal])*
     set ($r:ident : $rt:tt) $name:ident ($v:ident : $t:tt), $f:expr $(,)?) => {
        rhai::FuncRegistration::new_setter(stringify!($name))
            .with_volatility(true)
            .with_params_info([
                concat!(stringify!($r), ": &mut ", stringify!($rt)),
                concat!(stringify!($v), ": ", stringify!($t)),
                "()",
            ])
            .with_comments([concat!("///", $first $(, "\n///", $doc)*)])
            .register_into_engine($engine, $f)
    };
    ($engine:expr, #[doc = $first:literal] $(#[doc = $doc:literal])*
     index ($r:ident : $rt:tt) [$k:ident : $kt:tt] -> $ret:tt, $f:expr $(,)?) => {
        rhai::FuncRegistration::new_index_getter()
            .with_volatility(true)
            .with_params_info([
                concat!(stringify!($r), ": &mut ", stringify!($rt)),
                concat!(stringify!($k), ": ", stringify!($kt)),
                stringify!($ret),
            ])
            .with_comments([concat!("///", $first $(, "\n///", $doc)*)])
            .register_into_engine($engine, $f)
    };
    ($engine:expr, #[doc = $first:literal] $(#[doc = $doc:literal])*
     op ($a:ident : $at:tt) $op:tt ($b:ident : $bt:tt) -> $ret:tt, $f:expr $(,)?) => {
        rhai::FuncRegistration::new(stringify!($op))
            .in_global_namespace()
            .with_volatility(true)
            .with_params_info([
                concat!(stringify!($a), ": ", stringify!($at)),
                concat!(stringify!($b), ": ", stringify!($bt)),
                stringify!($ret),
            ])
            .with_comments([concat!("///", $first $(, "\n///", $doc)*)])
            .register_into_engine($engine, $f)
    };
}
pub(crate) use host;

/// Gives a Rust type the name and the doc scripts see it by, as
/// `host_type!(/// doc ... Roll as Roll)`; the domain's `register` then calls
/// `engine.build_type::<Roll>()`.
macro_rules! host_type {
    (#[doc = $first:literal] $(#[doc = $doc:literal])* $ty:ty as $name:ident) => {
        impl rhai::CustomType for $ty {
            fn build(mut builder: rhai::TypeBuilder<Self>) {
                builder
                    .with_name(stringify!($name))
                    .with_comments(&[concat!("///", $first $(, "\n///", $doc)*)]);
            }
        }
    };
}
pub(crate) use host_type;

/// What a registered function is to a script.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// Called as `name(...)`.
    Function,
    /// Called on a value of a type, `u.name(...)` (or `name(u, ...)`).
    Method,
    /// A property read, `u.name`.
    Getter,
    /// A property set, `u.name = v`.
    Setter,
    /// Reading `u[key]`.
    Indexer,
    /// An operator, `a + b`.
    Operator,
}

/// One parameter: its name and its type in [the vocabulary](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: String,
}

/// One registered signature of a host function, as its metadata describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FnDoc {
    /// The name scripts use: a property's name, `[]` for the indexer, an operator itself.
    pub name: String,
    /// What it is to a script.
    pub kind: Kind,
    /// Its parameters, the receiver of a method, property or indexer first.
    pub params: Vec<Param>,
    /// Its result's type.
    pub returns: String,
    /// Its doc comment, in Markdown, without the `///`.
    pub doc: String,
}

impl FnDoc {
    /// How a script writes a call: `roll(expr: string) -> Roll`, `u.stat(name: string) ->
    /// any`, `u.hits -> INT`, `u.hits = value: INT`, `u[name: string] -> any`,
    /// `(a: Point) + (b: Point) -> Point`.
    pub fn signature(&self) -> String {
        let param = |p: &Param| format!("{}: {}", p.name, p.ty);
        let list = |ps: &[Param]| ps.iter().map(param).collect::<Vec<_>>().join(", ");
        let recv = self.params.first().map_or("_", |p| p.name.as_str());
        let rest = self.params.get(1..).unwrap_or_default();
        let returns = format!(" -> {}", self.returns);
        match self.kind {
            Kind::Function => format!("{}({}){returns}", self.name, list(&self.params)),
            Kind::Method => format!("{recv}.{}({}){returns}", self.name, list(rest)),
            Kind::Getter => format!("{recv}.{}{returns}", self.name),
            Kind::Setter => format!("{recv}.{} = {}", self.name, list(rest)),
            Kind::Indexer => format!("{recv}[{}]{returns}", list(rest)),
            Kind::Operator => format!(
                "({}) {} ({}){returns}",
                self.params.first().map(param).unwrap_or_default(),
                self.name,
                self.params.get(1).map(param).unwrap_or_default()
            ),
        }
    }

    /// The type a method, property, indexer or operator belongs to: its first parameter's.
    pub fn owner(&self) -> Option<&str> {
        match self.kind {
            Kind::Function => None,
            _ => self.params.first().map(|p| p.ty.as_str()),
        }
    }

    /// The first paragraph of the doc, on one line.
    pub fn summary(&self) -> String {
        summary(&self.doc)
    }
}

/// The first paragraph of a doc, on one line.
pub fn summary(doc: &str) -> String {
    doc.split("\n\n")
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A type scripts see, with its doc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeDoc {
    /// The name scripts see.
    pub name: String,
    /// Its doc comment, in Markdown, without the `///`.
    pub doc: String,
}

/// Rhai's JSON of an engine's metadata (`Engine::gen_fn_metadata_to_json`), in part.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Json {
    #[serde(default)]
    functions: Vec<JsonFn>,
    #[serde(default)]
    custom_types: Vec<JsonType>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsonFn {
    name: String,
    #[serde(rename = "type")]
    origin: String,
    num_params: usize,
    #[serde(default)]
    params: Vec<JsonParam>,
    #[serde(default)]
    return_type: String,
    #[serde(default)]
    doc_comments: Vec<String>,
}

#[derive(Deserialize)]
struct JsonParam {
    name: Option<String>,
    #[serde(rename = "type")]
    ty: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct JsonType {
    display_name: String,
    #[serde(default)]
    doc_comments: Vec<String>,
}

fn json(engine: &Engine) -> Json {
    engine
        .gen_fn_metadata_to_json(false)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or(Json {
            functions: Vec::new(),
            custom_types: Vec::new(),
        })
}

/// A type as the vocabulary names it: Rhai's JSON shows `INT` as `i64`, `FLOAT` as `f64`
/// and a result of `()` as nothing.
fn vocabulary(ty: &str) -> String {
    match ty.trim() {
        "i64" | "i32" => "INT".into(),
        "f64" | "f32" => "FLOAT".into(),
        "" => "()".into(),
        other => other.into(),
    }
}

/// A doc comment without its `///` (or `/** */`).
fn doc_text(comments: &[String]) -> String {
    let mut lines = Vec::new();
    for block in comments {
        if let Some(inner) = block.strip_prefix("/**") {
            lines.push(inner.trim_end_matches("*/").trim().to_string());
            continue;
        }
        for line in block.lines() {
            let line = line.trim_start().trim_start_matches("///");
            lines.push(line.strip_prefix(' ').unwrap_or(line).to_string());
        }
    }
    lines.join("\n").trim().to_string()
}

/// Every native function registered on `engine` outside Rhai's standard library, in the
/// order of their names (the script's) and then of their number of parameters. A function
/// registered without `host!` shows `_` for each unnamed parameter, `?` for an unknown type.
pub fn functions(engine: &Engine) -> Vec<FnDoc> {
    let mut all: Vec<FnDoc> = json(engine)
        .functions
        .into_iter()
        .filter(|f| f.origin == "native")
        .map(|f| {
            let mut method = false;
            let mut params: Vec<Param> = f
                .params
                .iter()
                .map(|p| {
                    let ty = p.ty.as_deref().unwrap_or("?");
                    let ty = ty.strip_prefix("&mut ").map_or(ty, |t| {
                        method = true;
                        t
                    });
                    Param {
                        name: p.name.clone().unwrap_or_else(|| "_".into()),
                        ty: vocabulary(ty),
                    }
                })
                .collect();
            while params.len() < f.num_params {
                params.push(Param {
                    name: "_".into(),
                    ty: "?".into(),
                });
            }
            let (name, kind) = if let Some(prop) = f.name.strip_prefix("get$") {
                (prop.to_string(), Kind::Getter)
            } else if let Some(prop) = f.name.strip_prefix("set$") {
                (prop.to_string(), Kind::Setter)
            } else if f.name.starts_with("index$") {
                ("[]".to_string(), Kind::Indexer)
            } else if !f.name.starts_with(|c: char| c.is_alphabetic() || c == '_') {
                (f.name.clone(), Kind::Operator)
            } else if method {
                (f.name.clone(), Kind::Method)
            } else {
                (f.name.clone(), Kind::Function)
            };
            FnDoc {
                name,
                kind,
                params,
                returns: vocabulary(&f.return_type),
                doc: doc_text(&f.doc_comments),
            }
        })
        .collect();
    all.sort_by(|a, b| {
        (&a.name, a.kind, a.params.len(), a.signature()).cmp(&(
            &b.name,
            b.kind,
            b.params.len(),
            b.signature(),
        ))
    });
    all
}

/// Every custom type registered on `engine` with a name, in the order of their names.
pub fn types(engine: &Engine) -> Vec<TypeDoc> {
    let mut all: Vec<TypeDoc> = json(engine)
        .custom_types
        .into_iter()
        .map(|t| TypeDoc {
            name: t.display_name,
            doc: doc_text(&t.doc_comments),
        })
        .collect();
    all.sort_by(|a, b| a.name.cmp(&b.name));
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `host!` registers reads back as written: the name, the parameters and their
    /// types, the result and the doc, and Rhai's definitions show the same.
    #[test]
    fn a_function_reads_back_as_host_registers_it() {
        let mut engine = crate::script::engine::raw();
        host!(&mut engine,
            /// Adds two numbers.
            ///
            /// More about it.
            fn add(a: INT, b: number) -> INT,
            |a: rhai::INT, b: rhai::INT| a + b
        );
        let all = functions(&engine);
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].signature(), "add(a: INT, b: number) -> INT");
        assert_eq!(all[0].kind, Kind::Function);
        assert_eq!(all[0].doc, "Adds two numbers.\n\nMore about it.");
        assert_eq!(all[0].summary(), "Adds two numbers.");
        let defs = engine
            .definitions()
            .include_standard_packages(false)
            .static_module();
        assert_eq!(
            defs,
            "/// Adds two numbers.\n///\n/// More about it.\nfn add(a: int, b: number) -> int;"
        );
    }
}
