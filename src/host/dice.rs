//! Dice expressions: parsing, normalising and rolling them.
//!
//! A dice expression is what a wargamer writes on a quick-reference sheet: `3d6+1`, `4d6kh3`,
//! `10d6>=4`, `2d6!`, `(d6+1)*2`. This module owns the language (a hand-written parser), the
//! syntax tree ([`Node`], kept public so other code can work out exact odds) and rolling it
//! with the session's [`GameRng`].
//!
//! Grammar (whitespace may stand between tokens; `d`, `k`, `h` and `l` in either case):
//!
//! ```text
//! expr     := term (('+' | '-') term)*
//! term     := unary ('*' unary)*
//! unary    := '-' unary | atom
//! atom     := number | dice | '(' expr ')'
//! dice     := [number] 'd' (number | '%') modifier*     d6 = 1d6, d% = 1d100
//! modifier := '!' [number]                   explode, at most n times per die (default 100)
//!           | 'kh' number | 'kl' number | 'k' number     keep highest / lowest (k = kh)
//!           | ('>=' | '<=' | '>' | '<' | '=') number     count successes
//! ```
//!
//! Conventions:
//! - A dice group takes at most one modifier of each kind, written in any order; they apply in
//!   the order explode, keep, count. Bonus dice from explosions join the group (right after the
//!   die that caused them) and can be kept or dropped like the others.
//! - When dice tie for a keep, the die rolled first is kept, so results never depend on sorting.
//! - A group is worth the sum of its kept dice, or with a target the number of kept dice that
//!   meet it. `0d6` rolls nothing and is worth 0, so scripts can build `"{n}d6"` for any n.
//! - Arithmetic is on `i64` with checked operations: overflow is an error, never a panic.
//! - Every limit ([`MAX_DICE`], [`MAX_SIDES`], ...) is a public constant, and breaking one is a
//!   [`DiceError`]. Errors carry a character offset and length into the source text, so the
//!   caller can underline the offending characters; nothing here panics on any input.
//! - [`Display`](fmt::Display) of a [`DiceExpr`] is the normalised text (`d6` → `1d6`,
//!   `4D6 K3 + 1` → `4d6kh3+1`), which parses back to the same tree. [`Display`](fmt::Display)
//!   of a [`Roll`] is one line for the table, e.g. `[5, 3, ~1, 6] + 1 = 15`: `~` marks a
//!   dropped die, `!` one that exploded, `*` a success.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::host::rng::GameRng;

pub use crate::limits::MAX_DICE;
pub use crate::limits::MAX_EXPR_LEN;
pub use crate::limits::MAX_NESTING;
pub use crate::limits::MAX_NUMBER;
pub use crate::limits::MAX_SIDES;
pub use crate::limits::MAX_TOTAL_DICE;

/// Characters quoted either side of a problem when an error quotes a long expression
/// ([`DiceError::excerpt`]).
pub const EXCERPT_CONTEXT: usize = 30;
/// How many times one die may explode when `!` gives no cap.
pub const DEFAULT_EXPLODE_CAP: u32 = 100;

// ---------------------------------------------------------------------------------------------
// Syntax tree
// ---------------------------------------------------------------------------------------------

/// A node of the syntax tree of a dice expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// A constant.
    Number(i64),
    /// A group of dice such as `4d6kh3`.
    Dice(DiceGroupSpec),
    /// `-x`.
    Neg(Box<Node>),
    /// `a + b`.
    Add(Box<Node>, Box<Node>),
    /// `a - b`.
    Sub(Box<Node>, Box<Node>),
    /// `a * b`.
    Mul(Box<Node>, Box<Node>),
}

/// One dice group as written: how many dice, how many sides, and its modifiers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DiceGroupSpec {
    /// Dice written (bonus dice from explosions come on top).
    pub count: u32,
    /// Sides of each die, `1..=MAX_SIDES`.
    pub sides: u32,
    /// `Some(cap)` when the dice explode: each die may cause at most `cap` bonus dice
    /// (`Some(0)`, written `!0`, never explodes).
    pub explode: Option<u32>,
    /// Which dice count towards the group.
    pub keep: Option<Keep>,
    /// With a target, the group is worth the number of kept dice that meet it.
    pub target: Option<Target>,
}

/// Which dice of a group are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Keep {
    /// The `n` highest dice (`khn` or `kn`).
    Highest(u32),
    /// The `n` lowest dice (`kln`).
    Lowest(u32),
}

impl Keep {
    /// How many dice are kept.
    pub fn count(&self) -> u32 {
        match *self {
            Keep::Highest(n) | Keep::Lowest(n) => n,
        }
    }
}

/// A success target such as `>=5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    /// How a die is compared with `value`.
    pub cmp: Cmp,
    /// The number a die is compared with.
    pub value: i64,
}

impl Target {
    /// Whether a die showing `v` is a success.
    pub fn hits(&self, v: i64) -> bool {
        match self.cmp {
            Cmp::Ge => v >= self.value,
            Cmp::Le => v <= self.value,
            Cmp::Gt => v > self.value,
            Cmp::Lt => v < self.value,
            Cmp::Eq => v == self.value,
        }
    }
}

/// A comparison in a success target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cmp {
    /// `>=`
    Ge,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `<`
    Lt,
    /// `=`
    Eq,
}

impl Cmp {
    /// The comparison as written.
    pub fn symbol(&self) -> &'static str {
        match self {
            Cmp::Ge => ">=",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Lt => "<",
            Cmp::Eq => "=",
        }
    }
}

impl fmt::Display for DiceGroupSpec {
    /// Normalised: count always written, `%` as `100`, modifiers in the order explode, keep,
    /// target, `!` without its cap when the cap is the default.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}d{}", self.count, self.sides)?;
        match self.explode {
            Some(DEFAULT_EXPLODE_CAP) => f.write_str("!")?,
            Some(cap) => write!(f, "!{cap}")?,
            None => {}
        }
        match self.keep {
            Some(Keep::Highest(n)) => write!(f, "kh{n}")?,
            Some(Keep::Lowest(n)) => write!(f, "kl{n}")?,
            None => {}
        }
        if let Some(t) = self.target {
            write!(f, "{}{}", t.cmp.symbol(), t.value)?;
        }
        Ok(())
    }
}

impl Node {
    /// Binding strength, to know where the normalised text needs parentheses.
    fn precedence(&self) -> u8 {
        match self {
            Node::Add(..) | Node::Sub(..) => 1,
            Node::Mul(..) => 2,
            Node::Neg(_) => 3,
            Node::Number(n) if *n < 0 => 3,
            Node::Number(_) | Node::Dice(_) => 4,
        }
    }

    fn dice_count(&self) -> u64 {
        match self {
            Node::Number(_) => 0,
            Node::Dice(g) => u64::from(g.count),
            Node::Neg(x) => x.dice_count(),
            Node::Add(a, b) | Node::Sub(a, b) | Node::Mul(a, b) => {
                a.dice_count().saturating_add(b.dice_count())
            }
        }
    }
}

/// A step of writing a tree without recursion.
enum Piece<'a> {
    Text(&'static str),
    Node(&'a Node),
}

/// Pushes `node` onto a stack of pieces (written last-in first-out), in parentheses when it
/// binds more loosely than `min` requires.
fn push_operand<'a>(stack: &mut Vec<Piece<'a>>, node: &'a Node, min: u8) {
    if node.precedence() < min {
        stack.extend([Piece::Text(")"), Piece::Node(node), Piece::Text("(")]);
    } else {
        stack.push(Piece::Node(node));
    }
}

impl fmt::Display for Node {
    /// The normalised text: no spaces, and parentheses only where the tree needs them (the
    /// right operand of `-` or `*` keeps its parentheses, so the text parses back to this tree).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // An explicit stack rather than recursion: a chain of a thousand `-` is a legal tree.
        let mut stack = vec![Piece::Node(self)];
        while let Some(piece) = stack.pop() {
            let node = match piece {
                Piece::Text(text) => {
                    f.write_str(text)?;
                    continue;
                }
                Piece::Node(node) => node,
            };
            match node {
                Node::Number(n) => write!(f, "{n}")?,
                Node::Dice(g) => write!(f, "{g}")?,
                Node::Neg(x) => {
                    push_operand(&mut stack, x, 3);
                    stack.push(Piece::Text("-"));
                }
                Node::Add(a, b) | Node::Sub(a, b) => {
                    push_operand(&mut stack, b, 2);
                    stack.push(Piece::Text(if matches!(node, Node::Add(..)) {
                        "+"
                    } else {
                        "-"
                    }));
                    push_operand(&mut stack, a, 1);
                }
                Node::Mul(a, b) => {
                    push_operand(&mut stack, b, 3);
                    stack.push(Piece::Text("*"));
                    push_operand(&mut stack, a, 2);
                }
            }
        }
        Ok(())
    }
}

/// A parsed dice expression, ready to roll any number of times.
#[derive(Clone, Debug)]
pub struct DiceExpr {
    root: Node,
    /// Character spans of the dice groups in the source, in roll order, so that errors found
    /// while rolling (too many explosions) can point at their group. Empty when built from a
    /// [`Node`].
    group_spans: Vec<(usize, usize)>,
    /// Length of the source in characters, for errors that concern the whole expression.
    source_len: usize,
    /// The normalised text and each group's text in roll order, worked out once: a roll
    /// carries them, and formatting them anew on every roll would cost more than the dice.
    text: String,
    group_texts: Vec<String>,
}

/// The text of each dice group of a tree, left to right (the order they are rolled in).
fn group_texts(root: &Node) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        match node {
            Node::Number(_) => {}
            Node::Dice(spec) => out.push(spec.to_string()),
            Node::Neg(x) => stack.push(x),
            Node::Add(a, b) | Node::Sub(a, b) | Node::Mul(a, b) => {
                stack.push(b);
                stack.push(a);
            }
        }
    }
    out
}

impl PartialEq for DiceExpr {
    /// Two expressions are equal when their trees are; spacing in the source does not matter.
    fn eq(&self, other: &Self) -> bool {
        self.root == other.root
    }
}

impl DiceExpr {
    /// Parses `src`. Errors say what was expected and point at the offending characters.
    pub fn parse(src: &str) -> Result<DiceExpr, DiceError> {
        let len = src.chars().count();
        if len > MAX_EXPR_LEN {
            return Err(DiceError::new(
                format!("expression too long: {len} characters (at most {MAX_EXPR_LEN})"),
                MAX_EXPR_LEN,
                len - MAX_EXPR_LEN,
            ));
        }
        let mut parser = Parser::new(src);
        let root = parser.parse_expr(0)?;
        let tok = parser.peek()?;
        if tok.kind != Tok::End {
            return Err(parser.trailing_error(tok));
        }
        Ok(DiceExpr {
            text: root.to_string(),
            group_texts: group_texts(&root),
            root,
            group_spans: parser.group_spans,
            source_len: len,
        })
    }

    /// The syntax tree, e.g. to work out exact odds.
    pub fn node(&self) -> &Node {
        &self.root
    }

    /// How many dice the expression writes (the sum of its groups' counts, before explosions).
    pub fn dice_count(&self) -> u64 {
        self.root.dice_count()
    }

    /// Whether the expression rolls no dice at all (`2+3`, `0d6`), so its total never varies.
    pub fn is_constant(&self) -> bool {
        self.dice_count() == 0
    }

    /// Rolls the expression. Fails only when a limit is broken (explosions past
    /// [`MAX_TOTAL_DICE`]) or the arithmetic overflows.
    pub fn roll(&self, rng: &mut GameRng) -> Result<Roll, DiceError> {
        self.roll_with(&mut |sides| rng.die(sides))
    }

    /// Rolls with `face(sides)` giving each die, so tests can script the dice.
    pub fn roll_with(&self, face: &mut dyn FnMut(u32) -> u32) -> Result<Roll, DiceError> {
        // A tree built by hand has not been through the parser's checks.
        let written = self.dice_count();
        if written > u64::from(MAX_DICE) {
            return Err(self.whole_error(format!(
                "too many dice: {written} (at most {MAX_DICE} in one roll)"
            )));
        }
        let mut roller = Roller {
            expr: self,
            face,
            budget: MAX_TOTAL_DICE,
            groups: Vec::new(),
        };
        let total = roller.eval(&self.root)?;
        Ok(Roll {
            expr: self.text.clone(),
            total,
            groups: roller.groups,
        })
    }

    /// An error about the whole expression.
    fn whole_error(&self, message: String) -> DiceError {
        DiceError::new(message, 0, self.source_len)
    }

    /// An error about the `index`th dice group (the whole expression if its span is unknown).
    fn group_error(&self, index: usize, message: String) -> DiceError {
        match self.group_spans.get(index) {
            Some(&(offset, len)) => DiceError::new(message, offset, len),
            None => self.whole_error(message),
        }
    }
}

impl From<Node> for DiceExpr {
    /// Wraps a tree built by hand. Rolling it still checks every limit.
    fn from(root: Node) -> Self {
        let source_len = root.to_string().chars().count();
        DiceExpr {
            text: root.to_string(),
            group_texts: group_texts(&root),
            root,
            group_spans: Vec::new(),
            source_len,
        }
    }
}

impl FromStr for DiceExpr {
    type Err = DiceError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DiceExpr::parse(s)
    }
}

impl fmt::Display for DiceExpr {
    /// The normalised text, e.g. `4d6kh3+1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Parses and rolls `src` in one go.
pub fn roll(src: &str, rng: &mut GameRng) -> Result<Roll, DiceError> {
    DiceExpr::parse(src)?.roll(rng)
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/// A bad dice expression, or a roll that broke a limit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct DiceError {
    /// What went wrong, lowercase: what was expected and what was found.
    pub message: String,
    /// Where the problem starts, in characters (not bytes) from the start of the source; equal
    /// to the source's length when the problem is the end of input.
    pub offset: usize,
    /// How many characters the problem covers, at least 1.
    pub len: usize,
    /// How to fix it, where there is a clear fix.
    pub help: Option<String>,
}

impl DiceError {
    fn new(message: String, offset: usize, len: usize) -> Self {
        DiceError {
            message,
            offset,
            len: len.max(1),
            help: None,
        }
    }

    fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// `src` quoted for a one-line message: all of it when it is short (`` `1d6+2x` ``), else
    /// a window of [`EXCERPT_CONTEXT`] characters either side of the problem, with `…` where
    /// it is cut, and where the problem is (`` `…1d6+1d6+x` (character 400001 of 400001) ``),
    /// so that a huge expression is never repeated whole.
    pub fn excerpt(&self, src: &str) -> String {
        let chars: Vec<char> = src.chars().collect();
        if chars.len() <= 2 * EXCERPT_CONTEXT {
            return format!("`{src}`");
        }
        let from = self.offset.saturating_sub(EXCERPT_CONTEXT).min(chars.len());
        let to = (self.offset + EXCERPT_CONTEXT).min(chars.len()).max(from);
        let lead = if from > 0 { "…" } else { "" };
        let tail = if to < chars.len() { "…" } else { "" };
        let shown: String = chars[from..to].iter().collect();
        format!(
            "`{lead}{shown}{tail}` (character {} of {})",
            self.offset + 1,
            chars.len()
        )
    }

    /// The error's span as a byte range of `src` (for miette), clamped to `src`: a problem at
    /// the end of input gives an empty range at the end.
    pub fn byte_range(&self, src: &str) -> Range<usize> {
        let byte_at = |chars: usize| src.char_indices().nth(chars).map_or(src.len(), |(b, _)| b);
        let start = byte_at(self.offset);
        let end = byte_at(self.offset.saturating_add(self.len)).max(start);
        start..end
    }
}

// ---------------------------------------------------------------------------------------------
// Lexer
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Num(u32),
    D,
    K,
    H,
    L,
    Bang,
    Percent,
    Plus,
    Minus,
    Star,
    LParen,
    RParen,
    Cmp(Cmp),
    End,
}

/// A token and its span in characters.
#[derive(Clone, Copy, Debug)]
struct Token {
    kind: Tok,
    start: usize,
    len: usize,
}

impl Token {
    fn end(&self) -> usize {
        self.start + self.len
    }
}

/// Reads the token at or after `pos` (skipping whitespace). Lexing is on demand so that the
/// first error reported is the leftmost one.
fn lex(chars: &[char], mut pos: usize) -> Result<Token, DiceError> {
    while chars.get(pos).is_some_and(|c| c.is_whitespace()) {
        pos += 1;
    }
    let Some(&c) = chars.get(pos) else {
        return Ok(Token {
            kind: Tok::End,
            start: chars.len(),
            len: 1,
        });
    };
    let one = |kind| {
        Ok(Token {
            kind,
            start: pos,
            len: 1,
        })
    };
    match c {
        '0'..='9' => lex_number(chars, pos),
        'd' | 'D' => one(Tok::D),
        'k' | 'K' => one(Tok::K),
        'h' | 'H' => one(Tok::H),
        'l' | 'L' => one(Tok::L),
        '!' => one(Tok::Bang),
        '%' => one(Tok::Percent),
        '+' => one(Tok::Plus),
        '-' => one(Tok::Minus),
        '*' => one(Tok::Star),
        '(' => one(Tok::LParen),
        ')' => one(Tok::RParen),
        '=' => one(Tok::Cmp(Cmp::Eq)),
        '>' | '<' => {
            let or_equal = chars.get(pos + 1) == Some(&'=');
            let cmp = match (c, or_equal) {
                ('>', true) => Cmp::Ge,
                ('>', false) => Cmp::Gt,
                ('<', true) => Cmp::Le,
                _ => Cmp::Lt,
            };
            Ok(Token {
                kind: Tok::Cmp(cmp),
                start: pos,
                len: if or_equal { 2 } else { 1 },
            })
        }
        _ => {
            let shown: String = if c.is_control() {
                c.escape_debug().collect()
            } else {
                c.to_string()
            };
            let err = DiceError::new(format!("unexpected character `{shown}`"), pos, 1);
            Err(match c {
                '×' | 'x' | 'X' | '·' => err.with_help("multiply with `*`, e.g. `2*d6`"),
                '/' | '÷' => err.with_help("division is not supported"),
                '≥' => err.with_help("write `>=`"),
                '≤' => err.with_help("write `<=`"),
                _ => err,
            })
        }
    }
}

fn lex_number(chars: &[char], start: usize) -> Result<Token, DiceError> {
    let mut end = start;
    // Saturating, so a thousand digits cannot overflow; anything past MAX_NUMBER is an error.
    let mut value: u64 = 0;
    while let Some(d) = chars.get(end).and_then(|c| c.to_digit(10)) {
        value = value.saturating_mul(10).saturating_add(u64::from(d));
        end += 1;
    }
    // `2.5` or `2,5`: say the number must be whole rather than complain about the `.`.
    if matches!(chars.get(end), Some('.' | ','))
        && chars.get(end + 1).is_some_and(char::is_ascii_digit)
    {
        let mut frac_end = end + 1;
        while chars.get(frac_end).is_some_and(char::is_ascii_digit) {
            frac_end += 1;
        }
        let text: String = chars[start..frac_end].iter().collect();
        return Err(DiceError::new(
            format!("expected a whole number, found `{}`", shorten(&text)),
            start,
            frac_end - start,
        )
        .with_help("dice expressions use whole numbers only"));
    }
    if value > MAX_NUMBER as u64 {
        let text: String = chars[start..end].iter().collect();
        return Err(DiceError::new(
            format!(
                "number `{}` is too large (at most {MAX_NUMBER})",
                shorten(&text)
            ),
            start,
            end - start,
        ));
    }
    Ok(Token {
        // Fits: MAX_NUMBER < u32::MAX.
        kind: Tok::Num(value as u32),
        start,
        len: end - start,
    })
}

/// Long text cut short for a message (the span still covers all of it).
fn shorten(text: &str) -> String {
    const KEEP: usize = 24;
    if text.chars().count() > KEEP {
        let head: String = text.chars().take(KEEP).collect();
        format!("{head}…")
    } else {
        text.to_string()
    }
}

// ---------------------------------------------------------------------------------------------
// Parser
// ---------------------------------------------------------------------------------------------

struct Parser {
    chars: Vec<char>,
    /// Where the next token is looked for (just past the last one consumed).
    pos: usize,
    peeked: Option<Token>,
    /// The last token consumed, to say what an expression that stops short lacks.
    last: Option<Tok>,
    /// Dice written so far, to enforce MAX_DICE as groups come.
    dice_so_far: u64,
    group_spans: Vec<(usize, usize)>,
}

impl Parser {
    fn new(src: &str) -> Self {
        Parser {
            chars: src.chars().collect(),
            pos: 0,
            peeked: None,
            last: None,
            dice_so_far: 0,
            group_spans: Vec::new(),
        }
    }

    fn peek(&mut self) -> Result<Token, DiceError> {
        if let Some(tok) = self.peeked {
            return Ok(tok);
        }
        let tok = lex(&self.chars, self.pos)?;
        self.peeked = Some(tok);
        Ok(tok)
    }

    fn bump(&mut self) -> Result<Token, DiceError> {
        let tok = self.peek()?;
        self.peeked = None;
        self.pos = tok.end();
        self.last = Some(tok.kind);
        Ok(tok)
    }

    fn text(&self, tok: Token) -> String {
        let end = tok.end().min(self.chars.len());
        self.chars[tok.start.min(end)..end].iter().collect()
    }

    /// How a token reads in "found ..." messages.
    fn found(&self, tok: Token) -> String {
        match tok.kind {
            Tok::End => "end of input".to_string(),
            _ => format!("`{}`", shorten(&self.text(tok))),
        }
    }

    /// The text so far completed with a die after `op`, for a help line.
    fn example(&self, op: &str) -> String {
        let text: String = self.chars.iter().collect();
        let text = shorten(text.trim_end());
        match op {
            "(" => format!("{text}1d6)"),
            _ => format!("{text}1d6"),
        }
    }

    fn parse_expr(&mut self, depth: usize) -> Result<Node, DiceError> {
        let mut lhs = self.parse_term(depth)?;
        loop {
            match self.peek()?.kind {
                Tok::Plus => {
                    self.bump()?;
                    let rhs = self.parse_term(depth)?;
                    lhs = Node::Add(Box::new(lhs), Box::new(rhs));
                }
                Tok::Minus => {
                    self.bump()?;
                    let rhs = self.parse_term(depth)?;
                    lhs = Node::Sub(Box::new(lhs), Box::new(rhs));
                }
                _ => return Ok(lhs),
            }
        }
    }

    fn parse_term(&mut self, depth: usize) -> Result<Node, DiceError> {
        let mut lhs = self.parse_unary(depth)?;
        while self.peek()?.kind == Tok::Star {
            self.bump()?;
            let rhs = self.parse_unary(depth)?;
            lhs = Node::Mul(Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }

    fn parse_unary(&mut self, depth: usize) -> Result<Node, DiceError> {
        // A loop, not recursion: a long run of `-` must not deepen the stack.
        let mut negations = 0usize;
        while self.peek()?.kind == Tok::Minus {
            self.bump()?;
            negations += 1;
        }
        let mut node = self.parse_atom(depth)?;
        for _ in 0..negations {
            node = Node::Neg(Box::new(node));
        }
        Ok(node)
    }

    fn parse_atom(&mut self, depth: usize) -> Result<Node, DiceError> {
        let tok = self.peek()?;
        match tok.kind {
            Tok::Num(n) => {
                self.bump()?;
                if self.peek()?.kind == Tok::D {
                    self.parse_dice(Some(tok))
                } else {
                    Ok(Node::Number(i64::from(n)))
                }
            }
            Tok::D => self.parse_dice(None),
            Tok::LParen => {
                if depth >= MAX_NESTING {
                    return Err(DiceError::new(
                        format!("too many nested parentheses (at most {MAX_NESTING})"),
                        tok.start,
                        1,
                    ));
                }
                self.bump()?;
                let inner = self.parse_expr(depth + 1)?;
                let close = self.peek()?;
                if close.kind != Tok::RParen {
                    return Err(DiceError::new(
                        format!("expected `)`, found {}", self.found(close)),
                        close.start,
                        close.len,
                    )
                    .with_help(format!("close the `(` at character {}", tok.start + 1)));
                }
                self.bump()?;
                Ok(inner)
            }
            Tok::End => {
                // The expression stops short: say after what, in a player's words.
                let after = match self.last {
                    Some(Tok::Plus) => Some("+"),
                    Some(Tok::Minus) => Some("-"),
                    Some(Tok::Star) => Some("*"),
                    Some(Tok::LParen) => Some("("),
                    _ => None,
                };
                Err(match after {
                    Some(op) => DiceError::new(
                        format!(
                            "the expression ends after `{op}`: it needs a number or dice after it"
                        ),
                        tok.start,
                        tok.len,
                    )
                    .with_help(format!("e.g. `{}`", self.example(op))),
                    None => DiceError::new(
                        "nothing written: write dice such as `3d6`".to_string(),
                        tok.start,
                        tok.len,
                    ),
                })
            }
            _ => {
                let err = DiceError::new(
                    format!("expected a number, dice or `(`, found {}", self.found(tok)),
                    tok.start,
                    tok.len,
                );
                Err(match tok.kind {
                    Tok::Plus => err.with_help("a leading `+` is not needed"),
                    _ => err,
                })
            }
        }
    }

    /// A dice group; `count` is the number token before the `d`, if any. The next token is `d`.
    fn parse_dice(&mut self, count: Option<Token>) -> Result<Node, DiceError> {
        let d = self.bump()?;
        let start = count.map_or(d.start, |t| t.start);
        let count_value = match count.map(|t| t.kind) {
            Some(Tok::Num(n)) => n,
            _ => 1,
        };

        let sides_tok = self.peek()?;
        let sides = match sides_tok.kind {
            Tok::Num(n) if (1..=MAX_SIDES).contains(&n) => n,
            Tok::Num(n) => {
                return Err(DiceError::new(
                    format!("a die must have 1 to {MAX_SIDES} sides, found {n}"),
                    sides_tok.start,
                    sides_tok.len,
                ));
            }
            Tok::Percent => 100,
            _ => {
                return Err(DiceError::new(
                    format!(
                        "expected a number of sides after `d`, found {}",
                        self.found(sides_tok)
                    ),
                    sides_tok.start,
                    sides_tok.len,
                )
                .with_help("write the sides after the `d`, e.g. `d6` or `d%`"));
            }
        };
        self.bump()?;

        let mut spec = DiceGroupSpec {
            count: count_value,
            sides,
            explode: None,
            keep: None,
            target: None,
        };
        let mut keep_span = (0, 1);
        loop {
            let tok = self.peek()?;
            match tok.kind {
                Tok::Bang => {
                    if spec.explode.is_some() {
                        return Err(self.duplicate(tok, "explode only once"));
                    }
                    self.bump()?;
                    let cap = match self.peek()?.kind {
                        Tok::Num(n) => {
                            self.bump()?;
                            n
                        }
                        _ => DEFAULT_EXPLODE_CAP,
                    };
                    spec.explode = Some(cap);
                }
                Tok::K => {
                    if spec.keep.is_some() {
                        return Err(self.duplicate(tok, "have only one keep modifier"));
                    }
                    self.bump()?;
                    let (lowest, written) = match self.peek()?.kind {
                        Tok::H => {
                            self.bump()?;
                            (false, "kh")
                        }
                        Tok::L => {
                            self.bump()?;
                            (true, "kl")
                        }
                        _ => (false, "k"),
                    };
                    let n = self.expect_number(format!(
                        "expected how many dice to keep after `{written}`"
                    ))?;
                    keep_span = (tok.start, self.pos - tok.start);
                    spec.keep = Some(if lowest {
                        Keep::Lowest(n)
                    } else {
                        Keep::Highest(n)
                    });
                }
                Tok::H | Tok::L => {
                    return Err(DiceError::new(
                        format!("unexpected {}", self.found(tok)),
                        tok.start,
                        tok.len,
                    )
                    .with_help("keep the highest dice with `kh3`, the lowest with `kl1`"));
                }
                Tok::Cmp(cmp) => {
                    if spec.target.is_some() {
                        return Err(self.duplicate(tok, "have only one success target"));
                    }
                    self.bump()?;
                    let value = self.expect_number(format!(
                        "expected a target number after `{}`",
                        cmp.symbol()
                    ))?;
                    spec.target = Some(Target {
                        cmp,
                        value: i64::from(value),
                    });
                }
                _ => break,
            }
        }
        let span = (start, self.pos - start);

        if let Some(keep) = spec.keep {
            let n = keep.count();
            if n == 0 {
                return Err(DiceError::new(
                    "cannot keep 0 dice: keep at least 1".to_string(),
                    keep_span.0,
                    keep_span.1,
                ));
            }
            if n > spec.count {
                let help = if spec.count == 0 {
                    "roll at least one die".to_string()
                } else {
                    let fixed = DiceGroupSpec {
                        keep: Some(match keep {
                            Keep::Highest(_) => Keep::Highest(spec.count),
                            Keep::Lowest(_) => Keep::Lowest(spec.count),
                        }),
                        ..spec.clone()
                    };
                    format!("write {fixed} or roll more dice")
                };
                return Err(DiceError::new(
                    format!(
                        "keep {n} of {} dice: cannot keep more dice than are rolled",
                        spec.count
                    ),
                    keep_span.0,
                    keep_span.1,
                )
                .with_help(help));
            }
        }

        self.dice_so_far += u64::from(spec.count);
        if self.dice_so_far > u64::from(MAX_DICE) {
            return Err(DiceError::new(
                format!(
                    "too many dice: {} (at most {MAX_DICE} in one roll)",
                    self.dice_so_far
                ),
                span.0,
                span.1,
            ));
        }
        self.group_spans.push(span);
        Ok(Node::Dice(spec))
    }

    fn duplicate(&self, tok: Token, what: &str) -> DiceError {
        DiceError::new(
            format!(
                "a dice group can {what}: found a second {}",
                self.found(tok)
            ),
            tok.start,
            tok.len,
        )
    }

    fn expect_number(&mut self, expected: String) -> Result<u32, DiceError> {
        let tok = self.peek()?;
        match tok.kind {
            Tok::Num(n) => {
                self.bump()?;
                Ok(n)
            }
            _ => Err(DiceError::new(
                format!("{expected}, found {}", self.found(tok)),
                tok.start,
                tok.len,
            )),
        }
    }

    /// The error for a token left over after a whole expression.
    fn trailing_error(&self, tok: Token) -> DiceError {
        match tok.kind {
            Tok::RParen => DiceError::new("unmatched `)`".to_string(), tok.start, 1),
            _ => {
                let err = DiceError::new(
                    format!(
                        "expected `+`, `-`, `*` or end of input, found {}",
                        self.found(tok)
                    ),
                    tok.start,
                    tok.len,
                );
                match tok.kind {
                    Tok::Bang | Tok::K | Tok::H | Tok::L | Tok::Cmp(_) | Tok::Percent => err
                        .with_help(
                            "modifiers such as `!`, `kh3` and `>=5` follow a dice group like `3d6`",
                        ),
                    Tok::Num(_) | Tok::LParen | Tok::D => {
                        err.with_help("put an operator between the two, e.g. `*`")
                    }
                    _ => err,
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Rolling
// ---------------------------------------------------------------------------------------------

struct Roller<'a> {
    expr: &'a DiceExpr,
    face: &'a mut dyn FnMut(u32) -> u32,
    /// Dice still allowed in this roll, explosions included.
    budget: usize,
    groups: Vec<RolledGroup>,
}

impl Roller<'_> {
    /// Evaluates left to right with explicit stacks rather than recursion, so a deep tree
    /// costs heap, not stack (debug builds spend kilobytes of stack per recursive call).
    fn eval(&mut self, root: &Node) -> Result<i64, DiceError> {
        enum Step<'a> {
            Visit(&'a Node),
            Neg,
            Add,
            Sub,
            Mul,
        }
        let mut steps = vec![Step::Visit(root)];
        let mut values: Vec<i64> = Vec::new();
        while let Some(step) = steps.pop() {
            let value = match step {
                Step::Visit(node) => match node {
                    Node::Number(n) => Some(*n),
                    Node::Dice(spec) => Some(self.roll_group(spec)?),
                    Node::Neg(x) => {
                        steps.extend([Step::Neg, Step::Visit(x)]);
                        continue;
                    }
                    Node::Add(a, b) | Node::Sub(a, b) | Node::Mul(a, b) => {
                        let op = match node {
                            Node::Add(..) => Step::Add,
                            Node::Sub(..) => Step::Sub,
                            _ => Step::Mul,
                        };
                        // Popped in reverse: `a` is rolled before `b`.
                        steps.extend([op, Step::Visit(b), Step::Visit(a)]);
                        continue;
                    }
                },
                Step::Neg => values.pop().and_then(i64::checked_neg),
                Step::Add | Step::Sub | Step::Mul => {
                    // Each operator's operands were pushed just before it, so both are there.
                    let (Some(b), Some(a)) = (values.pop(), values.pop()) else {
                        return Err(self.overflow());
                    };
                    match step {
                        Step::Add => a.checked_add(b),
                        Step::Sub => a.checked_sub(b),
                        _ => a.checked_mul(b),
                    }
                }
            };
            values.push(value.ok_or_else(|| self.overflow())?);
        }
        values.pop().ok_or_else(|| self.overflow())
    }

    fn overflow(&self) -> DiceError {
        self.expr.whole_error(format!(
            "arithmetic overflow: the result does not fit between {} and {}",
            i64::MIN,
            i64::MAX
        ))
    }

    fn roll_group(&mut self, spec: &DiceGroupSpec) -> Result<i64, DiceError> {
        let index = self.groups.len();
        // Checks the parser made, repeated for trees built by hand.
        if !(1..=MAX_SIDES).contains(&spec.sides) {
            return Err(self.expr.group_error(
                index,
                format!(
                    "a die must have 1 to {MAX_SIDES} sides, found {}",
                    spec.sides
                ),
            ));
        }
        if let Some(keep) = spec.keep
            && !(1..=spec.count).contains(&keep.count())
        {
            return Err(self.expr.group_error(
                index,
                format!(
                    "keep {} of {} dice: keep at least 1 and no more than are rolled",
                    keep.count(),
                    spec.count
                ),
            ));
        }

        let mut dice = Vec::with_capacity(spec.count.min(MAX_DICE) as usize);
        for _ in 0..spec.count {
            let mut explosions = 0u32;
            loop {
                if self.budget == 0 {
                    return Err(self
                        .expr
                        .group_error(
                            index,
                            format!(
                                "too many dice: explosions took the roll past {MAX_TOTAL_DICE} dice"
                            ),
                        )
                        .with_help("cap the explosions per die, e.g. `!5`"));
                }
                self.budget -= 1;
                let value = (self.face)(spec.sides);
                let exploded =
                    value == spec.sides && spec.explode.is_some_and(|cap| explosions < cap);
                dice.push(Die {
                    value,
                    kept: true,
                    exploded,
                    bonus: explosions > 0,
                    success: None,
                });
                if !exploded {
                    break;
                }
                explosions += 1;
            }
        }

        if let Some(keep) = spec.keep {
            // Ties go to the die rolled first, so the same dice always give the same marks.
            let mut order: Vec<usize> = (0..dice.len()).collect();
            match keep {
                Keep::Highest(_) => order.sort_by(|&a, &b| dice[b].value.cmp(&dice[a].value)),
                Keep::Lowest(_) => order.sort_by_key(|&i| dice[i].value),
            }
            for &i in order.iter().skip(keep.count() as usize) {
                dice[i].kept = false;
            }
        }

        let value = match spec.target {
            Some(target) => {
                let mut hits = 0i64;
                for die in dice.iter_mut().filter(|d| d.kept) {
                    let hit = target.hits(i64::from(die.value));
                    die.success = Some(hit);
                    hits += i64::from(hit);
                }
                hits
            }
            // At most MAX_TOTAL_DICE dice of at most MAX_SIDES: far inside i64.
            None => dice
                .iter()
                .filter(|d| d.kept)
                .map(|d| i64::from(d.value))
                .sum(),
        };

        self.groups.push(RolledGroup {
            spec: match self.expr.group_texts.get(index) {
                Some(text) => text.clone(),
                None => spec.to_string(),
            },
            sides: spec.sides,
            dice,
            value,
        });
        Ok(value)
    }
}

// ---------------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------------

/// The result of rolling an expression: every die, and the total.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Roll {
    /// The expression, normalised (`4d6kh3+1`).
    pub expr: String,
    /// The value of the whole expression.
    pub total: i64,
    /// The dice groups, in the order they appear in the expression.
    pub groups: Vec<RolledGroup>,
}

/// One rolled dice group.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RolledGroup {
    /// The group as written, normalised (`3d6!`).
    pub spec: String,
    /// Sides of each die.
    pub sides: u32,
    /// Every die in roll order, each bonus die right after the die that caused it.
    pub dice: Vec<Die>,
    /// The group's value: the sum of the kept dice, or the number of kept successes.
    pub value: i64,
}

/// One rolled die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Die {
    /// The face showing.
    pub value: u32,
    /// Whether the die counts (false when a keep modifier dropped it).
    pub kept: bool,
    /// This die rolled its maximum and caused another die.
    pub exploded: bool,
    /// This die came from an explosion.
    pub bonus: bool,
    /// With a success target: whether this kept die met it. `None` without a target and for
    /// dropped dice, which do not count.
    pub success: Option<bool>,
}

impl Roll {
    /// The kept dice of all groups, in roll order.
    pub fn kept_values(&self) -> Vec<u32> {
        self.dice().filter(|d| d.kept).map(|d| d.value).collect()
    }

    /// Every die of all groups, kept or dropped, in roll order.
    pub fn all_values(&self) -> Vec<u32> {
        self.dice().map(|d| d.value).collect()
    }

    /// The highest kept die, if any die was kept.
    pub fn highest(&self) -> Option<u32> {
        self.dice().filter(|d| d.kept).map(|d| d.value).max()
    }

    /// The lowest kept die, if any die was kept.
    pub fn lowest(&self) -> Option<u32> {
        self.dice().filter(|d| d.kept).map(|d| d.value).min()
    }

    /// Successes over all groups that have a target (0 when none has).
    pub fn successes(&self) -> i64 {
        // A group with a target is worth exactly its successful kept dice.
        self.dice().filter(|d| d.success == Some(true)).count() as i64
    }

    /// How many dice were rolled, bonus dice included.
    pub fn dice_count(&self) -> usize {
        self.groups.iter().map(|g| g.dice.len()).sum()
    }

    fn dice(&self) -> impl Iterator<Item = &Die> {
        self.groups.iter().flat_map(|g| g.dice.iter())
    }
}

impl fmt::Display for RolledGroup {
    /// The dice in brackets: `~3` dropped, `6!` exploded, `5*` a success; e.g. `[6!*, 2, ~1]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, die) in self.dice.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            if !die.kept {
                f.write_str("~")?;
            }
            write!(f, "{}", die.value)?;
            if die.exploded {
                f.write_str("!")?;
            }
            if die.success == Some(true) {
                f.write_str("*")?;
            }
        }
        f.write_str("]")
    }
}

impl fmt::Display for Roll {
    /// One line for the table: the expression with each dice group replaced by its dice, binary
    /// operators spaced, then the total. `3d6+1` → `[4, 2, 6] + 1 = 13`, `4d6kh3` →
    /// `[5, 3, ~1, 6] = 14`, `3d6!` → `[6!, 2, 3, 1] = 12`, `5d6>=5` → `[5*, 2, 6*, 1, 3] = 2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.render_expr() {
            Some(text) => write!(f, "{text} = {}", self.total),
            // A hand-made or edited Roll whose expression and groups disagree: still say it all.
            None => {
                write!(f, "{}:", self.expr)?;
                for g in &self.groups {
                    write!(f, " {g}")?;
                }
                write!(f, " = {}", self.total)
            }
        }
    }
}

impl Roll {
    /// Walks the tokens of `expr` (flat, no recursion: `expr` may come from a saved file),
    /// putting each group's dice where the group is written. `None` if they do not match up.
    fn render_expr(&self) -> Option<String> {
        let chars: Vec<char> = self.expr.chars().collect();
        let mut out = String::new();
        let mut pos = 0;
        let mut groups = self.groups.iter();
        // Whether the last thing written was an operand, which makes a `-` binary.
        let mut after_operand = false;
        loop {
            let tok = lex(&chars, pos).ok()?;
            pos = tok.end();
            match tok.kind {
                Tok::End => break,
                Tok::Num(_) | Tok::D => {
                    let is_group = tok.kind == Tok::D || lex(&chars, pos).ok()?.kind == Tok::D;
                    if is_group {
                        pos = skip_group(&chars, pos)?;
                        out.push_str(&groups.next()?.to_string());
                    } else {
                        out.extend(&chars[tok.start..tok.end()]);
                    }
                    after_operand = true;
                }
                Tok::Plus | Tok::Star | Tok::Minus if after_operand => {
                    let op = match tok.kind {
                        Tok::Plus => " + ",
                        Tok::Star => " * ",
                        _ => " - ",
                    };
                    out.push_str(op);
                    after_operand = false;
                }
                Tok::Minus => out.push('-'),
                Tok::LParen => out.push('('),
                Tok::RParen => {
                    out.push(')');
                    after_operand = true;
                }
                _ => return None,
            }
        }
        if groups.next().is_some() {
            return None;
        }
        Some(out)
    }
}

/// Skips the rest of a dice group whose first token ended at `pos` (a `d`, or a count before
/// its `d`); returns where the group ends.
fn skip_group(chars: &[char], mut pos: usize) -> Option<usize> {
    loop {
        let tok = lex(chars, pos).ok()?;
        match tok.kind {
            Tok::D
            | Tok::Num(_)
            | Tok::Percent
            | Tok::Bang
            | Tok::K
            | Tok::H
            | Tok::L
            | Tok::Cmp(_) => {
                pos = tok.end();
            }
            _ => return Some(pos),
        }
    }
}

#[cfg(test)]
mod tests;
