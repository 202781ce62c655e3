//! What is defined where the scripts run, read from the engine's metadata: every function
//! with its arities and its parameters' and result's types, the properties of the host's
//! types, and the keyword functions Rhai handles itself.
//!
//! Types are read from two vocabularies at once: the Rust types Rhai records for a function
//! registered without parameter information (`i64`, `&str`, `Dynamic`,
//! `sandtable::script::value::UnitRef`, `core::result::Result<f64, ...>`), and the words the
//! host API is documented with (`INT`, `FLOAT`, `number`, `string`, `bool`, `Unit`, `Point`,
//! `place`, `Roll`, `Card`, `Deck`, `array`, `map`, `()`, `any`). Both become a [`Ty`].

use std::collections::{BTreeMap, BTreeSet};

use rhai::Engine;

use crate::host::suggest::did_you_mean;

/// Rhai's keyword functions, which the evaluator answers itself (they are in no package), with
/// the arities they take (`None`: any). `print` and `debug` are in packages too.
pub const KEYWORDS: &[(&str, Option<usize>)] = &[
    ("type_of", Some(1)),
    ("Fn", Some(1)),
    ("call", None),
    ("curry", None),
    ("is_def_var", Some(1)),
    ("is_def_fn", None),
    ("is_shared", Some(1)),
    ("print", None),
    ("debug", None),
];

/// A value's type as far as a script's text shows it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ty {
    /// Nothing is known (`Dynamic`, `any`).
    Any,
    /// A whole number (`INT`, `i64`).
    Int,
    /// A decimal number (`FLOAT`, `f64`).
    Float,
    /// A whole or a decimal number (`number`).
    Number,
    /// A string.
    Str,
    /// `true` or `false`.
    Bool,
    /// A character.
    Char,
    /// An array.
    Array,
    /// An object map.
    Map,
    /// A function pointer or a closure.
    Fn,
    /// Nothing, `()`.
    Nothing,
    /// A range (`0..10`).
    Range,
    /// A blob.
    Blob,
    /// Where something stands: a `Point`, a `Unit` or `[x, y]` (`place`).
    Place,
    /// One of the host's types, by the name it is registered with: `Unit`, `Point`, `Roll`...
    Host(String),
}

impl Ty {
    /// Reads a type as the engine's metadata gives it, in either vocabulary (see the module
    /// doc); `engine` names the host's types registered under a name of their own.
    pub fn read(engine: &Engine, raw: &str) -> Ty {
        let mut t = raw.trim();
        loop {
            let before = t;
            t = t.trim_start_matches("&mut ").trim_start_matches('&').trim();
            for prefix in ["rhai::", "types::dynamic::"] {
                t = t.strip_prefix(prefix).unwrap_or(t);
            }
            for wrapper in ["core::result::Result<", "Result<", "RhaiResultOf<"] {
                if let Some(inner) = t.strip_prefix(wrapper).and_then(|r| r.strip_suffix('>')) {
                    t = first_argument(inner).trim();
                }
            }
            if t == before {
                break;
            }
        }
        if t.contains("::") {
            let mapped = engine.map_type_name(t);
            if mapped != t {
                return Ty::named(mapped);
            }
            if t.starts_with("alloc::vec::Vec<") {
                return Ty::Array;
            }
            if t.contains("BTreeMap<") {
                return Ty::Map;
            }
            if t.ends_with("::Dynamic") {
                return Ty::Any;
            }
            if t.ends_with("::String") {
                return Ty::Str;
            }
            return Ty::Any;
        }
        Ty::named(t)
    }

    /// A type by its name in either vocabulary; a name of neither (starting with a capital)
    /// is a host type's.
    pub fn named(name: &str) -> Ty {
        match name.trim() {
            "INT" | "int" | "i64" | "i32" | "i16" | "i8" | "i128" | "u64" | "u32" | "u16"
            | "u8" | "u128" | "usize" | "isize" => Ty::Int,
            "FLOAT" | "float" | "f64" | "f32" => Ty::Float,
            "number" => Ty::Number,
            "string" | "str" | "String" | "ImmutableString" | "&str" => Ty::Str,
            "bool" => Ty::Bool,
            "char" => Ty::Char,
            "array" | "Array" => Ty::Array,
            "map" | "Map" => Ty::Map,
            "Fn" | "FnPtr" => Ty::Fn,
            "()" => Ty::Nothing,
            "blob" | "Blob" => Ty::Blob,
            "place" => Ty::Place,
            "range" | "range=" | "ExclusiveRange" | "InclusiveRange" => Ty::Range,
            n if n.starts_with("Range<") || n.starts_with("RangeInclusive<") => Ty::Range,
            n if n.starts_with(|c: char| c.is_ascii_uppercase())
                && n.chars().all(|c| c.is_alphanumeric() || c == '_')
                && n != "Dynamic" =>
            {
                Ty::Host(n.to_string())
            }
            _ => Ty::Any,
        }
    }

    /// Whether a value of this type may be given where `param` is expected, as far as is known
    /// (anything unknown fits).
    pub fn fits(&self, param: &Ty) -> bool {
        match (self, param) {
            (Ty::Any, _) | (_, Ty::Any) => true,
            (Ty::Int | Ty::Float | Ty::Number, Ty::Int | Ty::Float | Ty::Number) => true,
            (Ty::Host(h), Ty::Place) => h == "Point" || h == "Unit",
            (Ty::Array, Ty::Place) | (Ty::Place, _) | (_, Ty::Place) => true,
            (a, b) => a == b,
        }
    }

    /// The type in a house-ruler's words, with its article: "a unit", "a number".
    pub fn in_words(&self) -> String {
        match self {
            Ty::Any => "any value".into(),
            Ty::Int => "a whole number".into(),
            Ty::Float => "a decimal number".into(),
            Ty::Number => "a number".into(),
            Ty::Str => "a string".into(),
            Ty::Bool => "true or false".into(),
            Ty::Char => "a character".into(),
            Ty::Array => "an array".into(),
            Ty::Map => "an object map".into(),
            Ty::Fn => "a function".into(),
            Ty::Nothing => "nothing (`()`)".into(),
            Ty::Range => "a range".into(),
            Ty::Blob => "a blob".into(),
            Ty::Place => "a place (a point, a unit or `[x, y]`)".into(),
            Ty::Host(h) => format!("a {}", h.to_lowercase()),
        }
    }
}

/// The first of a type's generic arguments (`T` of `T, Box<E>`), minding nested brackets.
fn first_argument(list: &str) -> &str {
    let mut depth = 0usize;
    for (i, c) in list.char_indices() {
        match c {
            '<' | '(' => depth += 1,
            '>' | ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => return &list[..i],
            _ => {}
        }
    }
    list
}

/// One way a function can be called: its parameters' types (a method's object first) and its
/// result's.
#[derive(Clone, Debug, PartialEq)]
pub struct Sig {
    /// The parameters' names, where the metadata gives them.
    pub names: Vec<Option<String>>,
    /// The parameters' types.
    pub params: Vec<Ty>,
    /// The result's type.
    pub ret: Ty,
}

/// A property of a host type: its type, and whether scripts may set it.
#[derive(Clone, Debug, PartialEq)]
pub struct Property {
    /// What reading it gives (`Any` if it can only be set).
    pub ty: Ty,
    /// Whether it can be read.
    pub get: bool,
    /// Whether it can be set.
    pub set: bool,
}

/// What is defined where the scripts run: the engine's functions (the host API and Rhai's
/// packages) with their signatures, the properties of the registered types, and Rhai's
/// keyword functions.
#[derive(Clone, Debug, Default)]
pub struct Known {
    /// Every function callable by name, with each of its signatures.
    functions: BTreeMap<String, Vec<Sig>>,
    /// Each type's properties, by the type's name (`Unit`, and Rhai's own: `i64`...).
    properties: BTreeMap<Ty, BTreeMap<String, Property>>,
    /// The types that can be indexed with `[]` by a string (`u["defend"]`).
    indexed: BTreeSet<Ty>,
    /// The host's types.
    hosts: BTreeSet<String>,
}

impl Known {
    /// Reads what `engine` defines from its metadata (every package included).
    pub fn of(engine: &Engine) -> Known {
        let mut known = Known::default();
        // A thousand functions name a few dozen types: each is read once.
        let cache: std::cell::RefCell<std::collections::HashMap<String, Ty>> = Default::default();
        let read = |raw: &str| {
            if let Some(t) = cache.borrow().get(raw) {
                return t.clone();
            }
            let t = Ty::read(engine, raw);
            cache.borrow_mut().insert(raw.to_string(), t.clone());
            t
        };
        let entries = engine.collect_fn_metadata(
            None,
            |info| {
                let m = info.metadata;
                let mut names = Vec::with_capacity(m.num_params);
                let mut params = Vec::with_capacity(m.num_params);
                for i in 0..m.num_params {
                    let (name, ty) = match m.params_info.get(i) {
                        Some(p) => match p.split_once(':') {
                            Some((n, t)) => (n.trim(), read(t)),
                            None => (p.trim(), Ty::Any),
                        },
                        None => ("", Ty::Any),
                    };
                    let name = (!matches!(name, "" | "_" | "?")).then(|| name.to_string());
                    names.push(name);
                    params.push(ty);
                }
                Some((
                    m.name.to_string(),
                    Sig {
                        names,
                        params,
                        ret: read(&m.return_type),
                    },
                ))
            },
            true,
        );
        for (name, sig) in entries {
            if let Some(t) = sig.params.first().cloned() {
                // The host's types are those with properties or an indexer: Rhai's own
                // types with properties (numbers, strings, blobs) are not read as `Host`.
                if let Ty::Host(h) = &t
                    && name.contains('$')
                {
                    known.hosts.insert(h.clone());
                }
                if let Some(p) = name.strip_prefix("get$") {
                    let prop = known.property_entry(t, p);
                    prop.get = true;
                    prop.ty = sig.ret.clone();
                    continue;
                }
                if let Some(p) = name.strip_prefix("set$") {
                    known.property_entry(t, p).set = true;
                    continue;
                }
                if name == "index$get$" && sig.params.get(1) == Some(&Ty::Str) {
                    known.indexed.insert(t);
                    continue;
                }
            }
            if name.contains('$') {
                continue;
            }
            known.functions.entry(name).or_default().push(sig);
        }
        known
    }

    fn property_entry(&mut self, on: Ty, name: &str) -> &mut Property {
        self.properties
            .entry(on)
            .or_default()
            .entry(name.to_string())
            .or_insert(Property {
                ty: Ty::Any,
                get: false,
                set: false,
            })
    }

    /// The signatures of a function (none: no such function).
    pub fn signatures(&self, name: &str) -> &[Sig] {
        self.functions.get(name).map_or(&[], Vec::as_slice)
    }

    /// The arities a function takes (a method's object counted); `None` in the set means any.
    pub fn arities(&self, name: &str) -> BTreeSet<Option<usize>> {
        let mut arities: BTreeSet<Option<usize>> = self
            .signatures(name)
            .iter()
            .map(|s| Some(s.params.len()))
            .collect();
        if let Some((_, a)) = KEYWORDS.iter().find(|(k, _)| *k == name) {
            arities.insert(*a);
        }
        arities
    }

    /// Whether a function of that name and arity is defined (a keyword function included).
    pub fn has(&self, name: &str, arity: usize) -> bool {
        self.signatures(name)
            .iter()
            .any(|s| s.params.len() == arity)
            || KEYWORDS
                .iter()
                .any(|(k, a)| *k == name && a.is_none_or(|a| a == arity))
    }

    /// Whether anything of that name is defined, whatever its arity.
    pub fn has_name(&self, name: &str) -> bool {
        self.functions.contains_key(name) || KEYWORDS.iter().any(|(k, _)| *k == name)
    }

    /// Every function name, keywords included.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.functions
            .keys()
            .map(String::as_str)
            .chain(KEYWORDS.iter().map(|(k, _)| *k))
            .filter(|n| n.starts_with(|c: char| c.is_alphabetic() || c == '_'))
    }

    /// The names of the functions of that arity (keywords of any arity included).
    pub fn names_with_arity(&self, arity: usize) -> impl Iterator<Item = &str> {
        self.names().filter(move |n| self.has(n, arity))
    }

    /// The host's types, by the names they are registered with.
    pub fn host_types(&self) -> impl Iterator<Item = &str> {
        self.hosts.iter().map(String::as_str)
    }

    /// Whether `name` is one of the host's types.
    pub fn is_host(&self, ty: &Ty) -> bool {
        matches!(ty, Ty::Host(h) if self.hosts.contains(h))
    }

    /// A property of a type.
    pub fn property(&self, on: &Ty, name: &str) -> Option<&Property> {
        self.properties.get(on).and_then(|p| p.get(name))
    }

    /// The names of a type's properties.
    pub fn properties_of(&self, on: &Ty) -> Vec<&str> {
        self.properties
            .get(on)
            .map(|p| p.keys().map(String::as_str).collect())
            .unwrap_or_default()
    }

    /// Whether a type can be indexed by a string (`u["defend"]`).
    pub fn indexed_by_name(&self, on: &Ty) -> bool {
        self.indexed.contains(on)
    }

    /// The host types that have a property of that name.
    pub fn types_with_property(&self, name: &str) -> Vec<&Ty> {
        self.properties
            .iter()
            .filter(|(t, p)| self.is_host(t) && p.contains_key(name))
            .map(|(t, _)| t)
            .collect()
    }

    /// The signatures of a method of `on` taking `args` arguments besides its object.
    pub fn methods<'a>(
        &'a self,
        on: &'a Ty,
        name: &str,
        args: usize,
    ) -> impl Iterator<Item = &'a Sig> {
        self.signatures(name)
            .iter()
            .filter(move |s| s.params.len() == args + 1 && on.fits(&s.params[0]))
    }

    /// The names of every method a value of `on` has (functions whose first parameter takes
    /// it, counting only those typed for it, not those that take any value).
    pub fn method_names<'a>(&'a self, on: &'a Ty) -> impl Iterator<Item = &'a str> {
        self.functions
            .iter()
            .filter(move |(_, sigs)| {
                sigs.iter()
                    .any(|s| s.params.first().is_some_and(|p| p == on))
            })
            .map(|(n, _)| n.as_str())
            .filter(|n| n.starts_with(|c: char| c.is_alphabetic() || c == '_'))
    }
}

/// Arities in words: "2 arguments", "0 or 1 arguments".
pub fn arities_in_words(arities: &BTreeSet<usize>) -> String {
    let list: Vec<String> = arities.iter().map(ToString::to_string).collect();
    let n = match list.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [first @ .., last] => format!("{} or {last}", first.join(", ")),
    };
    if arities.len() == 1 && arities.contains(&1) {
        format!("{n} argument")
    } else {
        format!("{n} arguments")
    }
}

/// The closest of `candidates` to `word`, preferring those in `first`.
pub fn closest<'a>(
    word: &str,
    first: impl IntoIterator<Item = &'a str>,
    then: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    did_you_mean(word, first).or_else(|| did_you_mean(word, then))
}
