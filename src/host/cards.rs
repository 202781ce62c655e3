//! Playing cards and decks: activation decks, event decks and the like.
//!
//! Conventions:
//! - Ranks are numbers: 1 is the Ace, 11 Jack, 12 Queen, 13 King; jokers have rank 0.
//! - A card displays as rank then suit symbol (`A♠`, `10♥`, `Q♦`); jokers as `RJOKER` and
//!   `BJOKER`. Parsing is forgiving (case, letters or symbols, `T` or `10`, `1` for Ace) and
//!   serde stores a card as its display text.
//! - A [`Deck`] has a draw pile, discards, and cards set aside for good. Drawing does not
//!   discard: the caller decides where a drawn card goes ([`Deck::discard`], or nowhere).
//! - Every random choice goes through the session's [`GameRng`], so a seed gives the same
//!   shuffles everywhere. Errors are [`CardError`] values; nothing here panics.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::host::rng::GameRng;

/// A suit, in new-deck order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Suit {
    /// ♠, black.
    Spades,
    /// ♥, red.
    Hearts,
    /// ♦, red.
    Diamonds,
    /// ♣, black.
    Clubs,
}

impl Suit {
    /// The four suits in new-deck order.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The suit's symbol: ♠ ♥ ♦ ♣.
    pub fn symbol(self) -> char {
        match self {
            Suit::Spades => '♠',
            Suit::Hearts => '♥',
            Suit::Diamonds => '♦',
            Suit::Clubs => '♣',
        }
    }

    /// The suit's letter: S H D C.
    pub fn letter(self) -> char {
        match self {
            Suit::Spades => 'S',
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
            Suit::Clubs => 'C',
        }
    }

    /// Red for hearts and diamonds, black for spades and clubs.
    pub fn colour(self) -> Colour {
        match self {
            Suit::Hearts | Suit::Diamonds => Colour::Red,
            Suit::Spades | Suit::Clubs => Colour::Black,
        }
    }

    /// The suit for a letter (either case) or symbol, filled or outlined.
    pub fn from_char(c: char) -> Option<Suit> {
        match c {
            'S' | 's' | '♠' | '♤' => Some(Suit::Spades),
            'H' | 'h' | '♥' | '♡' => Some(Suit::Hearts),
            'D' | 'd' | '♦' | '♢' => Some(Suit::Diamonds),
            'C' | 'c' | '♣' | '♧' => Some(Suit::Clubs),
            _ => None,
        }
    }
}

impl fmt::Display for Suit {
    /// The symbol, e.g. `♠`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}

/// A card's colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Colour {
    /// Hearts, diamonds and the red joker.
    Red,
    /// Spades, clubs and the black joker.
    Black,
}

impl fmt::Display for Colour {
    /// `red` or `black`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Colour::Red => "red",
            Colour::Black => "black",
        })
    }
}

/// A playing card. Ordered by rank then suit, jokers last (useful for sorting a hand).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Card {
    /// A card of a suit; `rank` is 1 (Ace) to 13 (King).
    Suited {
        /// 1 = Ace, 2-10, 11 = Jack, 12 = Queen, 13 = King.
        rank: u8,
        /// The suit.
        suit: Suit,
    },
    /// A joker.
    Joker {
        /// Which of the two jokers.
        colour: Colour,
    },
}

impl Card {
    /// A suited card, or `None` if `rank` is not 1..=13.
    pub fn suited(rank: u8, suit: Suit) -> Option<Card> {
        (1..=13)
            .contains(&rank)
            .then_some(Card::Suited { rank, suit })
    }

    /// The rank: 1 (Ace) to 13 (King), 0 for a joker.
    pub fn rank(&self) -> u8 {
        match *self {
            Card::Suited { rank, .. } => rank,
            Card::Joker { .. } => 0,
        }
    }

    /// The suit, `None` for a joker.
    pub fn suit(&self) -> Option<Suit> {
        match *self {
            Card::Suited { suit, .. } => Some(suit),
            Card::Joker { .. } => None,
        }
    }

    /// The colour: the suit's, or the joker's own.
    pub fn colour(&self) -> Colour {
        match *self {
            Card::Suited { suit, .. } => suit.colour(),
            Card::Joker { colour } => colour,
        }
    }

    /// Jack, Queen or King.
    pub fn is_face(&self) -> bool {
        matches!(self, Card::Suited { rank: 11..=13, .. })
    }

    /// Either joker.
    pub fn is_joker(&self) -> bool {
        matches!(self, Card::Joker { .. })
    }

    /// An Ace.
    pub fn is_ace(&self) -> bool {
        matches!(self, Card::Suited { rank: 1, .. })
    }

    /// The rank in words: `Ace`, `2` ... `10`, `Jack`, `Queen`, `King`, `Joker` (`?` for a
    /// rank outside 1..=13, which only a hand-built card can have).
    pub fn rank_name(&self) -> &'static str {
        const NAMES: [&str; 14] = [
            "?", "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King",
        ];
        match *self {
            Card::Joker { .. } => "Joker",
            Card::Suited { rank, .. } => NAMES.get(usize::from(rank)).copied().unwrap_or("?"),
        }
    }

    /// The rank as printed in a corner: `A`, `2` ... `10`, `J`, `Q`, `K`.
    fn rank_symbol(rank: u8) -> &'static str {
        const SYMBOLS: [&str; 14] = [
            "?", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
        ];
        SYMBOLS.get(usize::from(rank)).copied().unwrap_or("?")
    }

    /// The card in plain ASCII: `AS`, `10H`, `QD`, `RJOKER` (parses back to the same card).
    pub fn code(&self) -> String {
        match *self {
            Card::Suited { rank, suit } => format!("{}{}", Card::rank_symbol(rank), suit.letter()),
            Card::Joker { .. } => self.to_string(),
        }
    }

    /// What [`Card::parse`] reads, as a regular expression (ECMA-262, for the scenario schema
    /// editors check against): a rank and a suit, or a joker, in any case, with spaces around.
    pub const PATTERN: &'static str = "^\\s*(?:[BbRr]?[Jj][Oo][Kk][Ee][Rr]|[Jj][Oo][Kk][Ee][Rr]-(?:[Bb][Ll][Aa][Cc][Kk]|[Rr][Ee][Dd])|(?:[AaTtJjQqKk1-9]|10)\\s*[SsHhDdCc♠♤♥♡♦♢♣♧])\\s*$";

    /// Reads a card: `QH`, `10S`, `TS`, `AD`, `1D`, `Q♥`, `10♠`, `JOKER` (the black joker),
    /// `BJOKER`, `RJOKER`, `JOKER-RED`, `JOKER-BLACK`; any case, surrounding spaces ignored.
    pub fn parse(s: &str) -> Result<Card, CardError> {
        let text = s.trim();
        let unknown = || CardError::UnknownCard {
            text: text.to_string(),
        };
        let upper = text.to_uppercase();
        match upper.as_str() {
            "JOKER" | "BJOKER" | "JOKER-BLACK" => {
                return Ok(Card::Joker {
                    colour: Colour::Black,
                });
            }
            "RJOKER" | "JOKER-RED" => {
                return Ok(Card::Joker {
                    colour: Colour::Red,
                });
            }
            _ => {}
        }
        let suit_char = upper.chars().next_back().ok_or_else(unknown)?;
        let suit = Suit::from_char(suit_char).ok_or_else(unknown)?;
        let rank_text = upper[..upper.len() - suit_char.len_utf8()].trim_end();
        let rank = match rank_text {
            "A" | "1" => 1,
            "T" | "10" => 10,
            "J" => 11,
            "Q" => 12,
            "K" => 13,
            _ => match rank_text.as_bytes() {
                [d @ b'2'..=b'9'] => d - b'0',
                _ => return Err(unknown()),
            },
        };
        Ok(Card::Suited { rank, suit })
    }
}

impl fmt::Display for Card {
    /// `A♠`, `10♥`, `Q♦`, `K♣`; jokers `RJOKER` and `BJOKER`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Card::Suited { rank, suit } => write!(f, "{}{}", Card::rank_symbol(rank), suit),
            Card::Joker {
                colour: Colour::Red,
            } => f.write_str("RJOKER"),
            Card::Joker {
                colour: Colour::Black,
            } => f.write_str("BJOKER"),
        }
    }
}

impl FromStr for Card {
    type Err = CardError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Card::parse(s)
    }
}

impl Serialize for Card {
    /// As the display text, e.g. `"10♥"`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    /// From any text [`Card::parse`] accepts.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CardVisitor;

        impl serde::de::Visitor<'_> for CardVisitor {
            type Value = Card;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a card such as `QH`, `10♠` or `JOKER`")
            }

            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Card, E> {
                Card::parse(v).map_err(E::custom)
            }
        }

        deserializer.deserialize_str(CardVisitor)
    }
}

/// Something that went wrong with a card or a deck.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CardError {
    /// Text that is not a card.
    #[error(
        "unknown card `{text}`: write a rank (A, 2-10, J, Q, K) then a suit (S, H, D, C), or JOKER"
    )]
    UnknownCard {
        /// The text, trimmed.
        text: String,
    },
    /// A draw from an empty draw pile.
    #[error("the `{deck}` deck is empty ({})", discards_note(*.discards))]
    Empty {
        /// The deck's name.
        deck: String,
        /// How many cards wait in its discards.
        discards: usize,
    },
    /// A draw of more cards than are left; nothing was drawn.
    #[error("cannot draw {wanted} {} from the `{deck}` deck: only {left} left", plural(*.wanted))]
    TooFew {
        /// The deck's name.
        deck: String,
        /// How many cards were asked for.
        wanted: usize,
        /// How many are in the draw pile.
        left: usize,
    },
    /// A card discarded that is not out of the deck: never one of its cards, or in its pile,
    /// its discards or set aside already.
    #[error("`{card}` cannot go on the discards of the `{deck}` deck: {why}")]
    NotOut {
        /// The deck's name.
        deck: String,
        /// The card.
        card: Card,
        /// Why, in words.
        why: &'static str,
    },
    /// A card that is not in the draw pile (typed in by a player).
    #[error("`{card}` is not in the draw pile of the `{deck}` deck: {place}")]
    NotInPile {
        /// The deck's name.
        deck: String,
        /// The card.
        card: Card,
        /// Where it is instead, in words.
        place: &'static str,
    },
    /// A cut down to more cards than the draw pile holds.
    #[error("cannot cut the `{deck}` deck down to {wanted} {}: it holds only {len}", plural(*.wanted))]
    BadTruncate {
        /// The deck's name.
        deck: String,
        /// How many cards were to be kept.
        wanted: usize,
        /// How many are in the draw pile.
        len: usize,
    },
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "card" } else { "cards" }
}

fn discards_note(discards: usize) -> String {
    match discards {
        0 => "and its discards are empty too".to_string(),
        n => format!("{n} {} in its discards; reshuffle them", plural(n)),
    }
}

/// A named deck: a draw pile, discards, and cards set aside for good.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deck {
    name: String,
    /// The top card is the last element, so drawing is `pop`.
    draw_pile: Vec<Card>,
    /// Oldest first.
    discards: Vec<Card>,
    /// Cards cut away by [`Deck::truncate_to`]; they never come back.
    set_aside: Vec<Card>,
    /// Whether the draw pile's order is known to the players: a deck made in a given order
    /// and not shuffled since. Once shuffled, its order is hidden: each card left is as
    /// likely as any other to come next, which is how exact odds and typed-in cards treat it.
    /// (Saves made before this was kept have none: their decks count as shuffled.)
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    in_order: bool,
    /// Every card the deck was made with, sorted: a card may go on the discards only while
    /// it is out of the deck (drawn and not put back), so the discards never grow past the
    /// deck. (Saves made before this was kept have none: their cards are those in the pile,
    /// the discards and set aside.)
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    all: Vec<Card>,
}

impl Deck {
    /// A new, unshuffled deck of 52 cards (54 with `jokers`) in new-deck order, top first:
    /// spades A to K, hearts A to K, diamonds A to K, clubs A to K, then the black joker and
    /// the red joker. So the first draw from it is `A♠`.
    pub fn standard(name: impl Into<String>, jokers: bool) -> Deck {
        let mut cards: Vec<Card> = Suit::ALL
            .iter()
            .flat_map(|&suit| (1..=13).map(move |rank| Card::Suited { rank, suit }))
            .collect();
        if jokers {
            cards.push(Card::Joker {
                colour: Colour::Black,
            });
            cards.push(Card::Joker {
                colour: Colour::Red,
            });
        }
        Deck::from_cards(name, cards)
    }

    /// A deck of `cards`, the first one on top.
    pub fn from_cards(name: impl Into<String>, mut cards: Vec<Card>) -> Deck {
        let mut all = cards.clone();
        all.sort();
        cards.reverse();
        Deck {
            name: name.into(),
            draw_pile: cards,
            discards: Vec::new(),
            set_aside: Vec::new(),
            in_order: true,
            all,
        }
    }

    /// The bytes the deck holds, as counted against the game's byte limits
    /// (`limits::MAX_TABLE_BYTES`): the same however its cards lie, since a card is in its
    /// pile, its discards, set aside or out, never in two places.
    pub fn bytes(&self) -> usize {
        let held = self.draw_pile.len() + self.discards.len() + self.set_aside.len();
        std::mem::size_of::<Deck>()
            + self.name.len()
            + std::mem::size_of::<Card>() * 2 * self.all.len().max(held)
    }

    /// A deck from a list such as `"AS, 10H, JOKER"` (commas or whitespace between cards), the
    /// first one on top. Fails on the first card that does not parse.
    pub fn parse_list(name: impl Into<String>, list: &str) -> Result<Deck, CardError> {
        let cards = list
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .map(Card::parse)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Deck::from_cards(name, cards))
    }

    /// The deck's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Shuffles the draw pile (the discards stay where they are).
    pub fn shuffle(&mut self, rng: &mut GameRng) {
        rng.shuffle(&mut self.draw_pile);
        self.in_order = false;
    }

    /// Whether the draw pile is in an order the players know (made so, never shuffled).
    pub fn in_order(&self) -> bool {
        self.in_order
    }

    /// Shuffles without drawing on a generator: the pile keeps its order in memory but counts
    /// as shuffled, for when every draw says which card it takes (exact odds, typed-in cards).
    pub fn shuffle_hidden(&mut self) {
        self.in_order = false;
    }

    /// As [`Deck::reshuffle`], without drawing on a generator (see [`Deck::shuffle_hidden`]).
    pub fn reshuffle_hidden(&mut self) {
        self.draw_pile.append(&mut self.discards);
        self.in_order = false;
    }

    /// Takes the card at `position` from the top (0 is the top card): the draw of a shuffled
    /// pile whose order is hidden, each position as likely as another.
    pub fn draw_at(&mut self, position: usize) -> Result<Card, CardError> {
        let len = self.draw_pile.len();
        if len == 0 {
            return self.draw();
        }
        Ok(self.draw_pile.remove(len - 1 - position.min(len - 1)))
    }

    /// Takes `card` out of the draw pile, wherever it is (a card drawn at the table and typed
    /// in); fails, changing nothing, when the pile does not hold it.
    pub fn take(&mut self, card: Card) -> Result<Card, CardError> {
        match self.draw_pile.iter().rposition(|c| *c == card) {
            Some(i) => Ok(self.draw_pile.remove(i)),
            None => Err(CardError::NotInPile {
                deck: self.name.clone(),
                card,
                place: if self.discards.contains(&card) {
                    "it is in the discards"
                } else if self.set_aside.contains(&card) {
                    "it was set aside"
                } else {
                    "drawn already, or not in this deck"
                },
            }),
        }
    }

    /// Takes the top card. It is not discarded: call [`Deck::discard`] when it is done with.
    pub fn draw(&mut self) -> Result<Card, CardError> {
        self.draw_pile.pop().ok_or_else(|| CardError::Empty {
            deck: self.name.clone(),
            discards: self.discards.len(),
        })
    }

    /// Takes the top `n` cards, top first; if fewer than `n` are left, takes none and fails.
    pub fn draw_n(&mut self, n: usize) -> Result<Vec<Card>, CardError> {
        if n > self.draw_pile.len() {
            return Err(CardError::TooFew {
                deck: self.name.clone(),
                wanted: n,
                left: self.draw_pile.len(),
            });
        }
        let mut drawn = self.draw_pile.split_off(self.draw_pile.len() - n);
        // split_off leaves them bottom-to-top; the caller wants them in draw order.
        drawn.reverse();
        Ok(drawn)
    }

    /// The top card, left in place.
    pub fn peek(&self) -> Option<Card> {
        self.draw_pile.last().copied()
    }

    /// Up to `n` cards from the top, top first, left in place.
    pub fn peek_n(&self, n: usize) -> Vec<Card> {
        self.draw_pile.iter().rev().take(n).copied().collect()
    }

    /// Puts a card on the discards. Only a card out of the deck (drawn and not put back) may
    /// go there: one that was never the deck's, or is in its pile, its discards or set aside,
    /// is refused and nothing changes.
    pub fn discard(&mut self, card: Card) -> Result<(), CardError> {
        let here = |pile: &[Card]| pile.iter().filter(|c| **c == card).count();
        let held = here(&self.draw_pile) + here(&self.discards) + here(&self.set_aside);
        // A deck from an old save knows only the cards it holds.
        let made = if self.all.is_empty() {
            held
        } else {
            here(&self.all)
        };
        if held < made {
            self.discards.push(card);
            return Ok(());
        }
        let why = if made == 0 {
            "it is not one of the deck's cards"
        } else if here(&self.discards) > 0 {
            "it is in the discards already"
        } else if here(&self.draw_pile) > 0 {
            "it is in the draw pile: draw it first"
        } else {
            "it was set aside"
        };
        Err(CardError::NotOut {
            deck: self.name.clone(),
            card,
            why,
        })
    }

    /// Takes the last card put on the discards back off them (undoing [`Deck::discard`]).
    pub fn undiscard(&mut self) -> Option<Card> {
        self.discards.pop()
    }

    /// Puts a card on the discards again (redoing [`Deck::discard`] after
    /// [`Deck::undiscard`]).
    pub fn rediscard(&mut self, card: Card) {
        self.discards.push(card);
    }

    /// Puts the discards back into the draw pile and shuffles the whole pile. Cards set aside
    /// stay out.
    pub fn reshuffle(&mut self, rng: &mut GameRng) {
        self.draw_pile.append(&mut self.discards);
        self.shuffle(rng);
    }

    /// Keeps only the top `n` cards of the draw pile; the rest are set aside for good (e.g.
    /// "a deck of the first 12 cards of a shuffled deck", one per turn). Fails, changing
    /// nothing, if the pile holds fewer than `n`.
    pub fn truncate_to(&mut self, n: usize) -> Result<(), CardError> {
        let len = self.draw_pile.len();
        if n > len {
            return Err(CardError::BadTruncate {
                deck: self.name.clone(),
                wanted: n,
                len,
            });
        }
        // The top is the end of the pile, so the cards cut away are at the front.
        self.set_aside.extend(self.draw_pile.drain(..len - n));
        Ok(())
    }

    /// Puts a card at the bottom of the draw pile.
    pub fn add_to_bottom(&mut self, card: Card) {
        self.draw_pile.insert(0, card);
    }

    /// Cards in the draw pile.
    pub fn len(&self) -> usize {
        self.draw_pile.len()
    }

    /// Whether the draw pile is empty (there may still be discards).
    pub fn is_empty(&self) -> bool {
        self.draw_pile.is_empty()
    }

    /// Cards in the discards.
    pub fn discard_count(&self) -> usize {
        self.discards.len()
    }

    /// Cards set aside by [`Deck::truncate_to`].
    pub fn set_aside_count(&self) -> usize {
        self.set_aside.len()
    }

    /// The draw pile, top first.
    pub fn cards(&self) -> Vec<Card> {
        self.draw_pile.iter().rev().copied().collect()
    }

    /// The discards, oldest first.
    pub fn discards(&self) -> &[Card] {
        &self.discards
    }

    /// The cards set aside by [`Deck::truncate_to`].
    pub fn set_aside(&self) -> &[Card] {
        &self.set_aside
    }

    /// Every card the deck holds: its draw pile, its discards and the cards set aside (not
    /// those drawn and kept).
    pub fn held(&self) -> impl Iterator<Item = &Card> {
        self.draw_pile
            .iter()
            .chain(&self.discards)
            .chain(&self.set_aside)
    }
}

#[cfg(test)]
mod tests;
