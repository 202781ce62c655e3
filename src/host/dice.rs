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
mod tests {
    use super::*;

    // A script's bad expression was quoted whole: 400 KB of message for a 400,000-character
    // expression.
    #[test]
    fn an_error_quotes_a_long_expression_by_a_window() {
        let short = "1d6+2x";
        let e = DiceExpr::parse(short).unwrap_err();
        assert_eq!(e.excerpt(short), "`1d6+2x`");
        let long = format!("{}x", "1d6+".repeat(100));
        let e = DiceExpr::parse(&long).unwrap_err();
        let quoted = e.excerpt(&long);
        assert!(quoted.starts_with("`…"), "{quoted}");
        assert!(quoted.ends_with("+x` (character 401 of 401)"), "{quoted}");
        assert!(
            quoted.chars().count() < 2 * EXCERPT_CONTEXT + 40,
            "{quoted}"
        );
        let huge = "1d6+".repeat(100_000);
        let e = DiceExpr::parse(&huge).unwrap_err();
        assert!(e.excerpt(&huge).len() < 200, "{}", e.excerpt(&huge));
    }

    fn parse(src: &str) -> DiceExpr {
        DiceExpr::parse(src).unwrap_or_else(|e| panic!("`{src}` should parse: {e}"))
    }

    fn err(src: &str) -> DiceError {
        match DiceExpr::parse(src) {
            Ok(e) => panic!("`{src}` should not parse, got `{e}`"),
            Err(e) => e,
        }
    }

    /// Rolls `src` with the dice given in order, so results can be worked out by hand.
    fn scripted(src: &str, faces: &[u32]) -> Roll {
        let mut faces = faces.iter().copied();
        let roll = parse(src)
            .roll_with(&mut |_| faces.next().expect("script ran out of dice"))
            .unwrap();
        assert_eq!(faces.next(), None, "script has unused dice");
        roll
    }

    fn constant(src: &str) -> i64 {
        let expr = parse(src);
        assert!(expr.is_constant());
        expr.roll(&mut GameRng::new(0)).unwrap().total
    }

    fn group(count: u32, sides: u32) -> DiceGroupSpec {
        DiceGroupSpec {
            count,
            sides,
            explode: None,
            keep: None,
            target: None,
        }
    }

    // --- parsing and the normalised text -----------------------------------------------------

    #[test]
    fn parse_normalises_spacing_case_and_defaults() {
        let cases = [
            (" 4D6 K3 + 1 ", "4d6kh3+1"),
            ("d6", "1d6"),
            ("d%", "1d100"),
            ("D%!", "1d100!"),
            ("3d6>=4kl2!", "3d6!kl2>=4"),
            ("2d6!100", "2d6!"),
            ("2d6!0", "2d6!0"),
            ("2d6 ! 5", "2d6!5"),
            ("4d6KL1", "4d6kl1"),
            ("5d6 < 3", "5d6<3"),
            ("5d6<=3", "5d6<=3"),
            ("5d6>3", "5d6>3"),
            ("5d6=3", "5d6=3"),
            ("0d6", "0d6"),
            ("3 d6", "3d6"),
        ];
        for (src, want) in cases {
            assert_eq!(parse(src).to_string(), want, "normalising `{src}`");
        }
    }

    #[test]
    fn parse_builds_the_expected_tree() {
        let n = |v| Box::new(Node::Number(v));
        let keep3 = DiceGroupSpec {
            keep: Some(Keep::Highest(3)),
            ..group(4, 6)
        };
        assert_eq!(
            parse("4d6kh3+1").node(),
            &Node::Add(Box::new(Node::Dice(keep3)), n(1))
        );
        assert_eq!(
            parse("-2*3").node(),
            &Node::Mul(Box::new(Node::Neg(n(2))), n(3))
        );
        assert_eq!(
            parse("1-2-3").node(),
            &Node::Sub(Box::new(Node::Sub(n(1), n(2))), n(3))
        );
        let all = DiceGroupSpec {
            explode: Some(2),
            keep: Some(Keep::Lowest(1)),
            target: Some(Target {
                cmp: Cmp::Le,
                value: 3,
            }),
            ..group(1, 100)
        };
        assert_eq!(parse("d%<=3kl1!2").node(), &Node::Dice(all));
    }

    #[test]
    fn arithmetic_follows_precedence() {
        assert_eq!(constant("2+3*4"), 14);
        assert_eq!(constant("(2+3)*4"), 20);
        assert_eq!(constant("1-2-3"), -4);
        assert_eq!(constant("-2*3"), -6);
        assert_eq!(constant("--5"), 5);
        assert_eq!(constant("10-(2-3)"), 11);
        assert_eq!(constant("2*-3"), -6);
    }

    #[test]
    fn display_keeps_only_needed_parentheses() {
        let cases = [
            ("1-(2+3)", "1-(2+3)"),
            ("(1-2)+3", "1-2+3"),
            ("2*(3*4)", "2*(3*4)"),
            ("(2*3)*4", "2*3*4"),
            ("-(2*3)", "-(2*3)"),
            ("-(2+d6)", "-(2+1d6)"),
            ("((7))", "7"),
            ("-(-1)", "--1"),
            ("(1+2)*(3-d4)", "(1+2)*(3-1d4)"),
        ];
        for (src, want) in cases {
            assert_eq!(parse(src).to_string(), want, "normalising `{src}`");
        }
    }

    #[test]
    fn normalised_text_parses_back_to_the_same_tree() {
        for src in [
            "4d6kh3+1",
            "1-(2+3)*-d8!3kl1",
            "2*(3*4)",
            "--(1d6>=4)",
            "(d%+d20)*(2-d6!0)",
            "1000000000*10000d1000000",
        ] {
            let expr = parse(src);
            assert_eq!(parse(&expr.to_string()), expr, "round trip of `{src}`");
        }
    }

    #[test]
    fn dice_count_and_is_constant() {
        assert_eq!(parse("3d6+2d8kh1").dice_count(), 5);
        assert_eq!(parse("d6").dice_count(), 1);
        assert!(parse("2+3").is_constant());
        assert!(parse("0d6+1").is_constant());
        assert!(!parse("d6").is_constant());
    }

    #[test]
    fn target_hits_each_comparison() {
        let t = |cmp| Target { cmp, value: 4 };
        assert_eq!([3, 4, 5].map(|v| t(Cmp::Ge).hits(v)), [false, true, true]);
        assert_eq!([3, 4, 5].map(|v| t(Cmp::Le).hits(v)), [true, true, false]);
        assert_eq!([3, 4, 5].map(|v| t(Cmp::Gt).hits(v)), [false, false, true]);
        assert_eq!([3, 4, 5].map(|v| t(Cmp::Lt).hits(v)), [true, false, false]);
        assert_eq!([3, 4, 5].map(|v| t(Cmp::Eq).hits(v)), [false, true, false]);
    }

    // --- errors ------------------------------------------------------------------------------

    #[test]
    fn missing_sides_points_at_end_of_input() {
        let e = err("3d");
        assert_eq!(
            e.message,
            "expected a number of sides after `d`, found end of input"
        );
        assert_eq!((e.offset, e.len), (2, 1));
        assert_eq!(e.byte_range("3d"), 2..2);
        let e = err("d");
        assert_eq!((e.offset, e.len), (1, 1));
        let e = err("2dk3");
        assert_eq!(e.message, "expected a number of sides after `d`, found `k`");
        assert_eq!(e.offset, 2);
    }

    #[test]
    fn unicode_times_sign_is_an_unexpected_character() {
        let e = err("3d6×2");
        assert_eq!(e.message, "unexpected character `×`");
        assert_eq!((e.offset, e.len), (3, 1));
        assert_eq!(e.help.as_deref(), Some("multiply with `*`, e.g. `2*d6`"));
        // `×` is two bytes in UTF-8.
        assert_eq!(e.byte_range("3d6×2"), 3..5);
        assert_eq!(e.to_string(), e.message);
    }

    #[test]
    fn keeping_more_dice_than_rolled_is_an_error_with_a_fix() {
        let e = err("2d6kh3");
        assert_eq!(
            e.message,
            "keep 3 of 2 dice: cannot keep more dice than are rolled"
        );
        assert_eq!(e.help.as_deref(), Some("write 2d6kh2 or roll more dice"));
        assert_eq!((e.offset, e.len), (3, 3));
        assert_eq!(
            err("2d6!kl3").help.as_deref(),
            Some("write 2d6!kl2 or roll more dice")
        );
        assert_eq!(err("0d6k1").help.as_deref(), Some("roll at least one die"));
        let e = err("2d6 k0");
        assert_eq!(e.message, "cannot keep 0 dice: keep at least 1");
        assert_eq!((e.offset, e.len), (4, 2));
        assert!(DiceExpr::parse("2d6kh2").is_ok());
    }

    #[test]
    fn too_many_dice_is_an_error_at_the_group_that_crosses_the_limit() {
        let e = err("20000d6");
        assert_eq!(
            e.message,
            "too many dice: 20000 (at most 10000 in one roll)"
        );
        assert_eq!((e.offset, e.len), (0, 7));
        let e = err("5000d6+5000d6+1d6");
        assert_eq!(
            e.message,
            "too many dice: 10001 (at most 10000 in one roll)"
        );
        assert_eq!((e.offset, e.len), (14, 3));
        assert_eq!(parse("5000d6+5000d6").dice_count(), 10_000);
    }

    #[test]
    fn sides_must_be_between_one_and_a_million() {
        let e = err("d0");
        assert_eq!(e.message, "a die must have 1 to 1000000 sides, found 0");
        assert_eq!((e.offset, e.len), (1, 1));
        let e = err("0d0");
        assert_eq!(e.offset, 2);
        assert_eq!(err("1d1000001").offset, 2);
        assert_eq!(parse("1d1000000").to_string(), "1d1000000");
    }

    #[test]
    fn numbers_above_a_billion_are_errors() {
        let e = err("99999999999999999999d6");
        assert_eq!(
            e.message,
            "number `99999999999999999999` is too large (at most 1000000000)"
        );
        assert_eq!((e.offset, e.len), (0, 20));
        assert_eq!(err("1+1000000001").offset, 2);
        assert_eq!(constant("1000000000"), 1_000_000_000);
        assert_eq!(constant("0000000000007"), 7);
    }

    #[test]
    fn expressions_longer_than_the_limit_are_errors() {
        let ok = "1+".repeat(499) + "10";
        assert_eq!(ok.chars().count(), 1000);
        assert_eq!(constant(&ok), 509);
        let long = ok + "0";
        let e = err(&long);
        assert_eq!(
            e.message,
            "expression too long: 1001 characters (at most 1000)"
        );
        assert_eq!((e.offset, e.len), (1000, 1));
    }

    #[test]
    fn nesting_deeper_than_64_is_an_error() {
        let ok = format!("{}1{}", "(".repeat(64), ")".repeat(64));
        assert_eq!(constant(&ok), 1);
        let deep = format!("{}1{}", "(".repeat(65), ")".repeat(65));
        let e = err(&deep);
        assert_eq!(e.message, "too many nested parentheses (at most 64)");
        assert_eq!((e.offset, e.len), (64, 1));
        // Ten thousand is caught by the length limit before any parsing.
        let e = err(&"(".repeat(10_000));
        assert_eq!(e.offset, MAX_EXPR_LEN);
    }

    #[test]
    fn long_runs_of_minus_and_plus_do_not_overflow_the_stack() {
        // The deepest trees a 1000-character expression allows, on a test thread's 2 MB stack.
        let minus = "-".repeat(999) + "1";
        assert_eq!(constant(&minus), -1);
        let expr = parse(&minus);
        assert_eq!(expr.to_string(), minus);
        assert_eq!(expr.clone(), expr);
        assert!(format!("{expr:?}").starts_with("DiceExpr"));
        let sum = "1+".repeat(499) + "d6";
        let roll = parse(&sum).roll(&mut GameRng::new(1)).unwrap();
        assert!((500..=505).contains(&roll.total));
        assert!(roll.to_string().ends_with(&format!(" = {}", roll.total)));
    }

    #[test]
    fn each_modifier_may_appear_once_per_group() {
        let e = err("1d6!!");
        assert_eq!(
            e.message,
            "a dice group can explode only once: found a second `!`"
        );
        assert_eq!(e.offset, 4);
        let e = err("2d6kh1kl1");
        assert_eq!(
            e.message,
            "a dice group can have only one keep modifier: found a second `k`"
        );
        assert_eq!(e.offset, 6);
        let e = err("5d6>=5<2");
        assert_eq!(
            e.message,
            "a dice group can have only one success target: found a second `<`"
        );
        assert_eq!(e.offset, 6);
    }

    #[test]
    fn fractional_numbers_are_errors() {
        let e = err("5d6>=4.5");
        assert_eq!(e.message, "expected a whole number, found `4.5`");
        assert_eq!((e.offset, e.len), (5, 3));
        assert_eq!(err("2,5d6").message, "expected a whole number, found `2,5`");
    }

    #[test]
    fn empty_input_expects_something_at_the_end() {
        let e = err("");
        assert_eq!(e.message, "nothing written: write dice such as `3d6`");
        assert_eq!((e.offset, e.len), (0, 1));
        assert_eq!(e.byte_range(""), 0..0);
        let e = err("   ");
        assert_eq!(e.offset, 3);
        let e = err("1+");
        assert_eq!(e.offset, 2);
    }

    #[test]
    fn leftover_tokens_and_unbalanced_parentheses_are_errors() {
        let e = err("3 4");
        assert_eq!(
            e.message,
            "expected `+`, `-`, `*` or end of input, found `4`"
        );
        assert_eq!(e.offset, 2);
        let e = err("1d6)");
        assert_eq!(e.message, "unmatched `)`");
        assert_eq!(e.offset, 3);
        let e = err("(1d6");
        assert_eq!(e.message, "expected `)`, found end of input");
        assert_eq!(e.offset, 4);
        assert_eq!(e.help.as_deref(), Some("close the `(` at character 1"));
        let e = err("3!");
        assert_eq!(e.offset, 1);
        assert!(e.help.unwrap().contains("follow a dice group"));
        let e = err("1d6kh");
        assert_eq!(
            e.message,
            "expected how many dice to keep after `kh`, found end of input"
        );
        let e = err("1d6>=");
        assert_eq!(
            e.message,
            "expected a target number after `>=`, found end of input"
        );
        let e = err("1d6h2");
        assert_eq!(e.message, "unexpected `h`");
        assert_eq!(e.offset, 3);
        let e = err("+3");
        assert_eq!(e.help.as_deref(), Some("a leading `+` is not needed"));
        let e = err("1d6>=-1");
        assert_eq!(e.message, "expected a target number after `>=`, found `-`");
    }

    #[test]
    fn error_messages_are_lowercase() {
        for src in [
            "", "d", "Q", "1d6)", "(", "2d6kh3", "20000d6", "1.5", "d0", "1d6!!",
        ] {
            let e = err(src);
            let first = e.message.chars().next().unwrap();
            assert!(!first.is_uppercase(), "`{src}`: {}", e.message);
        }
    }

    #[test]
    fn byte_range_converts_character_offsets() {
        let src = "é×+x";
        let e = err(src);
        // `é` is 2 bytes and `×` 2 bytes: character 0 is bytes 0..2.
        assert_eq!((e.offset, e.len), (0, 1));
        assert_eq!(e.byte_range(src), 0..2);
        let e = DiceError::new("m".into(), 1, 2);
        assert_eq!(e.byte_range(src), 2..5);
        let e = DiceError::new("m".into(), 9, 1);
        assert_eq!(e.byte_range(src), 6..6);
    }

    // --- rolling, with dice worked out by hand -----------------------------------------------

    #[test]
    fn sum_plus_constant_displays_dice_then_total() {
        let roll = scripted("3d6+1", &[4, 2, 6]);
        assert_eq!(roll.to_string(), "[4, 2, 6] + 1 = 13");
        assert_eq!(roll.total, 13);
        assert_eq!(roll.expr, "3d6+1");
        assert_eq!(roll.groups[0].spec, "3d6");
        assert_eq!(roll.groups[0].value, 12);
    }

    #[test]
    fn keep_highest_marks_dropped_dice() {
        let roll = scripted("4d6kh3", &[5, 3, 1, 6]);
        assert_eq!(roll.to_string(), "[5, 3, ~1, 6] = 14");
        assert_eq!(roll.kept_values(), vec![5, 3, 6]);
        assert_eq!(roll.all_values(), vec![5, 3, 1, 6]);
        assert_eq!(roll.highest(), Some(6));
        assert_eq!(roll.lowest(), Some(3));
        assert_eq!(roll.dice_count(), 4);
        assert_eq!(roll.successes(), 0);
    }

    #[test]
    fn keep_ties_go_to_the_die_rolled_first() {
        assert_eq!(scripted("3d6kl2", &[4, 4, 4]).to_string(), "[4, 4, ~4] = 8");
        assert_eq!(
            scripted("3d6kh1", &[6, 6, 2]).to_string(),
            "[6, ~6, ~2] = 6"
        );
        assert_eq!(scripted("3d6k2", &[1, 5, 3]).to_string(), "[~1, 5, 3] = 8");
    }

    #[test]
    fn exploding_die_is_followed_by_its_bonus_die() {
        let roll = scripted("3d6!", &[6, 2, 3, 1]);
        assert_eq!(roll.to_string(), "[6!, 2, 3, 1] = 12");
        let dice = &roll.groups[0].dice;
        assert!(dice[0].exploded && !dice[0].bonus);
        assert!(!dice[1].exploded && dice[1].bonus);
        assert!(!dice[2].bonus);
        assert_eq!(roll.dice_count(), 4);
    }

    #[test]
    fn explosion_cap_stops_the_chain() {
        let roll = scripted("1d6!2", &[6, 6, 6]);
        // The third 6 is at the cap, so it causes nothing and is not marked.
        assert_eq!(roll.to_string(), "[6!, 6!, 6] = 18");
        assert_eq!(scripted("1d6!0", &[6]).to_string(), "[6] = 6");
        assert_eq!(scripted("2d6", &[6, 6]).to_string(), "[6, 6] = 12");
    }

    #[test]
    fn success_counting_marks_hits() {
        let roll = scripted("5d6>=5", &[5, 2, 6, 1, 3]);
        assert_eq!(roll.to_string(), "[5*, 2, 6*, 1, 3] = 2");
        assert_eq!(roll.successes(), 2);
        assert_eq!(roll.groups[0].dice[1].success, Some(false));
        assert_eq!(scripted("3d6=1", &[1, 2, 1]).total, 2);
        assert_eq!(scripted("3d6<3", &[1, 2, 3]).total, 2);
    }

    #[test]
    fn modifiers_apply_explode_then_keep_then_count() {
        // Written in the "wrong" order on purpose. Dice: 6 explodes into 1, then 5.
        // Keep the highest two of [6, 1, 5]: 6 and 5. Both are >= 5: two successes.
        let roll = scripted("2d6>=5kh2!", &[6, 1, 5]);
        assert_eq!(roll.expr, "2d6!kh2>=5");
        assert_eq!(roll.to_string(), "[6!*, ~1, 5*] = 2");
        // A dropped die is not judged.
        assert_eq!(roll.groups[0].dice[1].success, None);
        assert_eq!(roll.successes(), 2);
    }

    #[test]
    fn operators_and_constants_appear_in_the_roll_line() {
        assert_eq!(
            scripted("2*(1d6+1)-1d4", &[3, 2]).to_string(),
            "2 * ([3] + 1) - [2] = 6"
        );
        assert_eq!(scripted("-1d6", &[4]).to_string(), "-[4] = -4");
        assert_eq!(scripted("1d6--2", &[1]).to_string(), "[1] - -2 = 3");
        assert_eq!(scripted("d%", &[42]).to_string(), "[42] = 42");
        assert_eq!(scripted("2+3", &[]).to_string(), "2 + 3 = 5");
        assert_eq!(scripted("0d6+1", &[]).to_string(), "[] + 1 = 1");
    }

    #[test]
    fn successes_add_up_over_groups_and_ignore_plain_groups() {
        let roll = scripted("2d6>=4+1d6+2d6=6", &[4, 1, 6, 6, 6]);
        assert_eq!(roll.successes(), 1 + 2);
        assert_eq!(roll.total, 1 + 6 + 2);
        assert_eq!(roll.highest(), Some(6));
        assert_eq!(roll.lowest(), Some(1));
    }

    #[test]
    fn mismatched_roll_still_displays_everything() {
        let mut roll = scripted("1d6+1d6", &[3, 4]);
        roll.groups.pop();
        roll.total = 3;
        assert_eq!(roll.to_string(), "1d6+1d6: [3] = 3");
        roll.expr = "((((".into();
        assert_eq!(roll.to_string(), "((((: [3] = 3");
    }

    #[test]
    fn d1_explodes_up_to_the_cap() {
        let mut rng = GameRng::new(1);
        let roll = roll("1d1!", &mut rng).unwrap();
        assert_eq!(roll.dice_count(), 101);
        assert_eq!(roll.total, 101);
        let roll = roll_str("1d1!3");
        assert_eq!(roll.to_string(), "[1!, 1!, 1!, 1] = 4");
    }

    fn roll_str(src: &str) -> Roll {
        roll(src, &mut GameRng::new(9)).unwrap()
    }

    #[test]
    fn explosions_past_the_dice_limit_are_an_error() {
        // 990 dice, each a chain of 101: 99,990 dice, just inside the limit.
        assert_eq!(roll_str("990d1!").dice_count(), 99_990);
        let e = roll("1+1000d1!", &mut GameRng::new(1)).unwrap_err();
        assert_eq!(
            e.message,
            "too many dice: explosions took the roll past 100000 dice"
        );
        assert_eq!((e.offset, e.len), (2, 7));
    }

    #[test]
    fn overflow_is_an_error_not_a_panic() {
        assert_eq!(constant("1000000000*1000000000"), 1_000_000_000_000_000_000);
        let e = roll("1000000000*1000000000*10", &mut GameRng::new(1)).unwrap_err();
        assert!(
            e.message.starts_with("arithmetic overflow"),
            "{}",
            e.message
        );
        assert_eq!((e.offset, e.len), (0, 24));
        let e = roll(
            "-1000000000*1000000000*10-1000000000*1000000000*10",
            &mut GameRng::new(1),
        );
        assert!(e.is_err());
    }

    #[test]
    fn hand_built_trees_are_checked_when_rolled() {
        let mut rng = GameRng::new(1);
        let bad_sides = DiceExpr::from(Node::Dice(group(1, 0)));
        assert_eq!(
            bad_sides.roll(&mut rng).unwrap_err().message,
            "a die must have 1 to 1000000 sides, found 0"
        );
        let bad_keep = DiceExpr::from(Node::Dice(DiceGroupSpec {
            keep: Some(Keep::Highest(5)),
            ..group(2, 6)
        }));
        assert!(bad_keep.roll(&mut rng).is_err());
        let too_many = DiceExpr::from(Node::Dice(group(u32::MAX, 6)));
        assert_eq!(
            too_many.roll(&mut rng).unwrap_err().message,
            "too many dice: 4294967295 (at most 10000 in one roll)"
        );
        let min = DiceExpr::from(Node::Neg(Box::new(Node::Number(i64::MIN))));
        assert!(min.roll(&mut rng).is_err());
        let fine = DiceExpr::from(Node::Add(
            Box::new(Node::Dice(group(2, 1))),
            Box::new(Node::Number(-3)),
        ));
        assert_eq!(fine.to_string(), "2d1+-3");
        assert_eq!(fine.roll(&mut rng).unwrap().total, -1);
    }

    // --- the real generator ------------------------------------------------------------------

    #[test]
    fn same_seed_gives_the_same_roll() {
        let expr = parse("10d6!kh5+d20-d%");
        let a = expr.roll(&mut GameRng::new(42)).unwrap();
        let b = expr.roll(&mut GameRng::new(42)).unwrap();
        assert_eq!(a, b);
        let c = expr.roll(&mut GameRng::new(43)).unwrap();
        assert_ne!(a.all_values(), c.all_values());
    }

    #[test]
    fn rolled_dice_stay_within_their_sides() {
        let mut rng = GameRng::new(11);
        let expr = parse("20d7!+10d1+5d3kl2");
        for _ in 0..500 {
            let roll = expr.roll(&mut rng).unwrap();
            for g in &roll.groups {
                assert!(g.dice.iter().all(|d| (1..=g.sides).contains(&d.value)));
            }
            assert_eq!(roll.groups[2].dice.iter().filter(|d| d.kept).count(), 2);
        }
    }

    /// Mean total of `n` seeded rolls.
    fn mean(src: &str, n: u32) -> f64 {
        let expr = parse(src);
        let mut rng = GameRng::new(2024);
        let sum: i64 = (0..n).map(|_| expr.roll(&mut rng).unwrap().total).sum();
        sum as f64 / f64::from(n)
    }

    #[test]
    fn d6_faces_come_up_evenly() {
        let expr = parse("1d6");
        let mut rng = GameRng::new(77);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[expr.roll(&mut rng).unwrap().total as usize - 1] += 1;
        }
        // Expected 10,000 each; one standard deviation is about 91.
        for c in counts {
            assert!((9_500..10_500).contains(&c), "counts {counts:?}");
        }
    }

    #[test]
    fn means_match_the_known_values() {
        // Exact means: 3d6 10.5; 4d6kh3 1231/1296*10 + ... = 12.2446; 5d6>=5 5/3;
        // exploding d6 3.5 * 6/5 = 4.2 (less a negligible amount for the cap).
        let cases = [
            ("3d6", 10.5, 0.1),
            ("4d6kh3", 12.2446, 0.1),
            ("5d6>=5", 5.0 / 3.0, 0.05),
            ("1d6!", 4.2, 0.1),
            ("2d6kl1", 2.5278, 0.05),
        ];
        for (src, want, tolerance) in cases {
            let got = mean(src, 60_000);
            assert!(
                (got - want).abs() < tolerance,
                "{src}: mean {got}, want {want}"
            );
        }
    }

    // --- weird input -------------------------------------------------------------------------

    /// Parses, and if that works rolls and displays; checks every error points into `src`.
    fn survive(src: &str, rng: &mut GameRng) {
        match DiceExpr::parse(src) {
            Err(e) => {
                let chars = src.chars().count();
                assert!(e.len >= 1, "`{src}`: {e:?}");
                assert!(e.offset <= chars, "`{src}`: {e:?}");
                assert!(src.get(e.byte_range(src)).is_some(), "`{src}`: {e:?}");
                assert!(!e.message.is_empty());
            }
            Ok(expr) => {
                let text = expr.to_string();
                if text.chars().count() <= MAX_EXPR_LEN {
                    assert_eq!(parse(&text), expr, "round trip of `{src}` via `{text}`");
                }
                if let Ok(roll) = expr.roll(rng) {
                    let line = roll.to_string();
                    assert!(
                        line.ends_with(&format!("= {}", roll.total)),
                        "`{src}`: {line}"
                    );
                    assert!(!line.contains(':'), "`{src}` fell back: {line}");
                }
            }
        }
    }

    #[test]
    fn weird_strings_never_panic() {
        let mut rng = GameRng::new(5);
        let deep = "(".repeat(10_000);
        let deep_closed = format!("{}1{}", "(".repeat(300), ")".repeat(300));
        let weird = [
            "",
            " ",
            "   ",
            "\t\n",
            "d",
            "D",
            "0d6",
            "d0",
            "99999999999999999999d6",
            "3d6×2",
            "1d1!",
            "%",
            "d%%",
            "!",
            "k",
            "kh",
            "1d6kh",
            "1d6k",
            "((",
            "))",
            "()",
            "(1",
            "1)",
            "1++1",
            "1**2",
            "--",
            "-",
            "1d6!!!",
            "d6d6",
            "1dd6",
            "6d",
            "1d6>=",
            ">=5",
            "1d6>==5",
            "1d6=>5",
            "2.5",
            ".5",
            "5.",
            "1,",
            "é",
            "🎲",
            "\u{0}",
            "\u{202e}3d6",
            "3d6 ×",
            "1d6 kh 1",
            "d%!0kl1>=50",
            "10000d1000000",
            "1000000000d1",
            "0d6kh1",
            "2d6kh0",
            "1d1!1000000000",
            "-(((-1)))",
            "1d6!kh1!",
            "1 d 6",
            "1d 6",
            "d-6",
            "d+6",
            "4294967296d6",
            "1d4294967296",
            "٣d6",
            "３d6",
            "1d6>=٣",
            "d６",
            &deep,
            &deep_closed,
        ];
        for src in weird {
            survive(src, &mut rng);
        }
    }

    #[test]
    fn random_strings_never_panic_and_round_trip() {
        let alphabet: Vec<char> = "0123456789dDkKhHlL!%+-*()<>= ×x.,1166".chars().collect();
        let mut rng = GameRng::new(99);
        let mut parsed = 0;
        for _ in 0..4_000 {
            let len = rng.below(16) as usize;
            let src: String = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
                .collect();
            if DiceExpr::parse(&src).is_ok() {
                parsed += 1;
            }
            survive(&src, &mut rng);
        }
        // Enough of them parse for the round trip to have been exercised.
        assert!(parsed > 100, "only {parsed} parsed");
    }
}
