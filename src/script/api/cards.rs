//! Cards: playing cards and the game's decks, each deck a handle on a deck the game keeps
//! (so drawing is logged and undone like any change). Cards are drawn from the top of the
//! pile, or, when a [`CardSource`] is set, as the players type them in (`:cards manual`) or
//! at the positions a program gives (exact odds walk every card this way).
//!
//! Registers:
//!
//! - `card(text)`: a card from how it is written;
//! - the type `Card`, with the properties `rank`, `suit`, `colour`, `name`, `is_face`,
//!   `is_joker`, `is_ace`, `is_red` and `is_black`, the operators `==` and `!=`, and
//!   `to_string` and `to_debug`;
//! - `deck(name)`, `new_deck(name, kind)` and `new_deck(name, cards)`: a handle on a deck;
//! - the type `Deck`, with the methods `draw()`, `draw(n)`, `flip()`, `peek()`, `peek(n)`,
//!   `discard(card)`, `shuffle()` and `reshuffle()`, the properties `count`, `discards` and
//!   `name`, and `to_string` and `to_debug`.

use std::cell::RefCell;
use std::rc::Rc;

use rhai::{Array, Dynamic, Engine, INT};

use super::{DeckRef, DiceAsker, FaceFeed, Res, Shared, host_error};
use crate::game::state::{Drawn, StateError};
use crate::host::cards::{Card, Colour, Deck, Suit};
use crate::script::metadata::{host, host_type};

/// Where drawn cards come from when not from the top of the pile (see [`CardSource`]).
pub type ManualCards = Rc<RefCell<Option<CardSource>>>;

/// Where each drawn card comes from when not from the top of the pile. Either way a shuffled
/// pile's order is hidden: any card left may come next.
pub enum CardSource {
    /// The players draw real cards and type each in (`:cards manual`): given a prompt, the
    /// line typed, or none at the end of input.
    Ask(DiceAsker),
    /// A program gives each card's position in a shuffled pile: given the cards in the pile,
    /// a position from 1 (the top) to that number. Shuffles then draw nothing from the
    /// generator, and `peek` at a shuffled pile sets `peeked` (its order is not hidden).
    Positions {
        /// Gives the position.
        feed: FaceFeed,
        /// Whether a script looked at a shuffled pile's order.
        peeked: bool,
    },
}

/// Draws `n` cards from `deck` as the card source says (see the module docs), then keeps them
/// or flips them onto the discards as `then` says; the error is the message for the players.
pub fn draw(
    st: &Shared,
    source: &ManualCards,
    budget: &crate::script::engine::Budget,
    deck: &str,
    n: usize,
    then: Drawn,
) -> Result<Vec<Card>, String> {
    let mut source = source.borrow_mut();
    let ask = match source.as_mut() {
        None => return Ok(st.borrow_mut().draw(deck, n, then)?),
        Some(CardSource::Positions { feed, .. }) => {
            return st
                .borrow_mut()
                .draw_chosen(deck, n, then, &mut |d: &mut Deck| {
                    if d.in_order() {
                        return Ok(d.draw()?);
                    }
                    let len = u32::try_from(d.len()).unwrap_or(u32::MAX);
                    let position = feed(len).max(1) as usize - 1;
                    Ok(d.draw_at(position)?)
                })
                .map_err(String::from);
        }
        Some(CardSource::Ask(ask)) => ask,
    };
    // Real cards: ask for each card (several may be typed at once), checking each against
    // the pile as it stands.
    let started = std::time::Instant::now();
    let mut typed: std::collections::VecDeque<Card> = std::collections::VecDeque::new();
    let mut ended = false;
    let mut note = String::new();
    let mut i = 0;
    let result = st
        .borrow_mut()
        .draw_chosen(deck, n, then, &mut |d: &mut Deck| loop {
            if let Some(card) = typed.pop_front() {
                match d.take(card) {
                    Ok(card) => {
                        i += 1;
                        return Ok(card);
                    }
                    Err(e) => {
                        note = format!("{e}; ");
                        typed.clear();
                    }
                }
            }
            if ended {
                return Err(StateError::NoCards);
            }
            let which = if n == 1 {
                "a card".to_string()
            } else {
                format!("card {} of {n}", i + 1)
            };
            let prompt = format!(
                "{note}draw {which} from the {deck} deck ({} in the pile): a card such as 7H, QS, JOKER: ",
                d.len()
            );
            note.clear();
            match ask(&prompt) {
                None => ended = true,
                Some(line) => {
                    let cards: Result<Vec<Card>, _> = line
                        .split(|c: char| c == ',' || c.is_whitespace())
                        .filter(|w| !w.is_empty())
                        .map(Card::parse)
                        .collect();
                    // An answer is taken whole or not at all: one card, or every card still
                    // to draw, each in the pile as it stands.
                    let left = n - i;
                    match cards {
                        Ok(cards) if cards.is_empty() => note = "no card was typed; ".into(),
                        Ok(cards) if cards.len() != 1 && cards.len() != left => {
                            note = if left == 1 {
                                format!(
                                    "`{}` is {} cards, and 1 was asked for; nothing was drawn; ",
                                    line.trim(),
                                    cards.len()
                                )
                            } else {
                                format!(
                                    "`{}` is {} cards, and {left} were asked for (type one, or all {left}); nothing was drawn; ",
                                    line.trim(),
                                    cards.len()
                                )
                            };
                        }
                        Ok(cards) => {
                            let mut pile = d.clone();
                            match cards.iter().try_for_each(|c| pile.take(*c).map(|_| ())) {
                                Ok(()) => typed.extend(cards),
                                // Of several, say that the good ones were not drawn either.
                                Err(e) if cards.len() > 1 => {
                                    note = format!("{e}; nothing was drawn; ")
                                }
                                Err(e) => note = format!("{e}; "),
                            }
                        }
                        Err(e) => note = format!("{e}; "),
                    }
                }
            }
        });
    budget.extend(started.elapsed());
    if ended {
        return Err("the input ended before the cards were given".into());
    }
    Ok(result?)
}

pub use crate::limits::MAX_DECK;

fn count(v: INT, what: &str) -> Res<usize> {
    usize::try_from(v).map_err(|_| host_error(format!("{what} must not be negative, got {v}")))
}

fn suit_name(s: Suit) -> &'static str {
    match s {
        Suit::Spades => "spades",
        Suit::Hearts => "hearts",
        Suit::Diamonds => "diamonds",
        Suit::Clubs => "clubs",
    }
}

fn colour_name(c: Colour) -> &'static str {
    match c {
        Colour::Red => "red",
        Colour::Black => "black",
    }
}

/// Notes a look at a deck's order: with cards typed in, a shuffled pile's order is at the
/// table, not here, so `peek` is refused; while a program gives positions, the look is
/// noted (the pile's order is then not hidden, and exact odds give way to an estimate).
fn looked_at(source: &ManualCards, deck: &Deck) -> Res<()> {
    if deck.in_order() {
        return Ok(());
    }
    match source.borrow_mut().as_mut() {
        Some(CardSource::Ask(_)) => Err(host_error(format!(
            "the `{}` deck is shuffled at the table (`:cards manual`): the rules cannot peek at its order here",
            deck.name()
        ))),
        Some(CardSource::Positions { peeked, .. }) => {
            *peeked = true;
            Ok(())
        }
        None => Ok(()),
    }
}

host_type!(
    /// A playing card: a plain value. `print(c)` and `` `${c}` `` give `Q♥`, `10♠`,
    /// `RJOKER`; `==` and `!=` compare two cards.
    ///
    /// ```rhai
    /// let c = card("QH");
    /// print(`${c} ${c.rank} ${c.suit} ${c.colour} ${c.name} ${c.is_face}`);
    /// let j = card("joker");
    /// print(`${j} ${j.rank} ${j.name} ${j.is_joker}`);
    /// print(card("10s") == card("T♠"));
    /// ```
    ///
    /// prints:
    ///
    /// ```text
    /// Q♥ 12 hearts red Queen of hearts true
    /// BJOKER 0 black joker true
    /// true
    /// ```
    Card as Card
);

host_type!(
    /// A handle on one of the game's decks: a draw pile and a discard pile. Drawing,
    /// discarding and shuffling change the game's deck, and are logged and undone like any
    /// change. `print(dk)` gives `deck NAME`.
    ///
    /// A drawn card goes nowhere until you `discard` it (or keep it); a flipped card is on
    /// the discards already, and logs one line where a draw and a discard log two. `flip()`
    /// reads real cards (`:cards manual`) and walks every card in `:odds` as `draw()` does.
    /// Drawing one card (`draw()` or `draw(1)`) from an empty pile raises the deck's own
    /// message, which says what to do: ``the `NAME` deck is empty (3 cards in its discards;
    /// reshuffle them)``, or ``the `NAME` deck is empty (and its discards are empty too)``.
    /// Drawing several from a pile with too few cards raises ``cannot draw N cards from the
    /// `NAME` deck: only M left`` and draws nothing. `draw(0)` raises `draw at least one
    /// card`, and a negative `n` raises `the number of cards must not be negative, got N`.
    ///
    /// Once shuffled, a pile's order is hidden from the players: any card left may come
    /// next. Two things rely on it. Exact odds (`:odds`, `odds --action`) walk every card a
    /// draw could take from a shuffled pile (see
    /// [odds](odds.md#the-odds-of-a-rules-action)); a script that peeks at a shuffled pile
    /// makes them an estimate. With real cards (`:cards manual`, see
    /// [the prompt](prompt.md#real-cards)) the players type each card they draw, which is
    /// taken out of the pile wherever it is, and `peek` at a shuffled pile raises ``the
    /// `NAME` deck is shuffled at the table (`:cards manual`): the rules cannot peek at its
    /// order here``. A deck made in a given order and never shuffled keeps its known order:
    /// it is drawn from the top.
    ///
    /// ```rhai
    /// let orders = new_deck("orders", "standard");
    /// print(orders.peek(3));
    /// let top = orders.draw();
    /// let more = orders.draw(3);
    /// orders.discard(top);
    /// print(`${orders.count} left, ${orders.discards} discarded`);
    /// orders.reshuffle();
    /// print(`${orders.count} left, ${orders.discards} discarded`);
    /// let events = new_deck("events", ["KS", card("2C")]);
    /// print(deck("events").draw(2));
    /// print(type_of(events.peek()));
    /// ```
    ///
    /// prints:
    ///
    /// ```text
    ///   new deck `orders` of 52 cards
    /// [A♠, 2♠, 3♠]
    ///   drew A♠ from the orders deck
    ///   drew 2♠ 3♠ 4♠ from the orders deck
    ///   discarded A♠ to the orders deck
    /// 48 left, 1 discarded
    ///   shuffled the orders deck's discards back into it
    /// 49 left, 0 discarded
    ///   new deck `events` of 2 cards
    ///   drew K♠ 2♣ from the events deck
    /// [K♠, 2♣]
    /// ()
    /// ```
    DeckRef as Deck
);

/// Registers the card and deck functions and the `Card` and `Deck` types.
pub(super) fn register(
    engine: &mut Engine,
    state: &Shared,
    source: &ManualCards,
    budget: &crate::script::engine::Budget,
) {
    engine.build_type::<Card>().build_type::<DeckRef>();
    host!(engine,
        /// Reads one [card](#how-cards-are-written). Logs nothing. Raises ``unknown card
        /// `TEXT`: write a rank (A, 2-10, J, Q, K) then a suit (S, H, D, C), or JOKER``.
        fn card(text: string) -> Card,
        |text: &str| -> Res<Card> { Card::parse(text).map_err(|e| host_error(e.to_string())) }
    );
    host!(engine,
        /// 1 (Ace) to 13 (King): Jack 11, Queen 12; 0 for a joker.
        get (c: Card) rank -> INT,
        |c: &mut Card| INT::from(c.rank())
    );
    host!(engine,
        /// `"spades"`, `"hearts"`, `"diamonds"` or `"clubs"`; `""` for a joker.
        get (c: Card) suit -> string,
        |c: &mut Card| c.suit().map_or("", suit_name).to_string()
    );
    host!(engine,
        /// `"red"` or `"black"` (a joker has its own colour).
        get (c: Card) colour -> string,
        |c: &mut Card| colour_name(c.colour()).to_string()
    );
    host!(engine,
        /// Whether it is a Jack, Queen or King.
        get (c: Card) is_face -> bool,
        |c: &mut Card| c.is_face()
    );
    host!(engine,
        /// Whether it is either joker.
        get (c: Card) is_joker -> bool,
        |c: &mut Card| c.is_joker()
    );
    host!(engine,
        /// Whether it is an Ace.
        get (c: Card) is_ace -> bool,
        |c: &mut Card| c.is_ace()
    );
    host!(engine,
        /// Whether it is a heart, a diamond or the red joker.
        get (c: Card) is_red -> bool,
        |c: &mut Card| c.colour() == Colour::Red
    );
    host!(engine,
        /// Whether it is a spade, a club or the black joker.
        get (c: Card) is_black -> bool,
        |c: &mut Card| c.colour() == Colour::Black
    );
    host!(engine,
        /// Its name in words: `"Queen of hearts"`, `"Ace of spades"`, `"10 of clubs"`,
        /// `"red joker"`.
        get (c: Card) name -> string,
        |c: &mut Card| match c.suit() {
            Some(s) => format!("{} of {}", c.rank_name(), suit_name(s)),
            None => format!("{} joker", colour_name(c.colour())),
        }
    );
    host!(engine,
        /// The card as it prints: rank and suit symbol (`A♠`, `10♥`), `BJOKER`, `RJOKER`.
        fn (c: Card) to_string() -> string,
        |c: &mut Card| c.to_string()
    );
    host!(engine,
        /// The card as it prints, as `to_string` (what `debug` gives).
        fn (c: Card) to_debug() -> string,
        |c: &mut Card| c.to_string()
    );
    host!(engine,
        /// Whether two cards are the same card.
        op (a: Card) == (b: Card) -> bool,
        |a: Card, b: Card| a == b
    );
    host!(engine,
        /// Whether two cards differ.
        op (a: Card) != (b: Card) -> bool,
        |a: Card, b: Card| a != b
    );

    let st = state.clone();
    host!(engine,
        /// The game's deck called `name`: one from the scenario's `decks:` or one a script
        /// made with `new_deck`. Logs nothing. Raises ``no deck called `NAME` `` (with a
        /// did-you-mean, or `this game has no decks`).
        fn deck(name: string) -> Deck,
        move |name: &str| -> Res<DeckRef> {
            st.borrow().deck(name).map_err(host_error)?;
            Ok(DeckRef(name.into()))
        }
    );
    let st = state.clone();
    host!(engine,
        /// Makes a deck and adds it to the game, replacing any deck of that name. `kind` is
        /// `"standard"` (52 cards), `"standard+jokers"` (54), or a list of cards in one
        /// string such as `"AS, 10H, JOKER"` (commas or spaces between them). The first card
        /// listed is on top. A deck made this way holds at most 1,000 cards; more raises `a
        /// deck holds at most 1000 cards`.
        ///
        /// The new deck is **not shuffled**: call `shuffle()` on it. A standard deck starts
        /// in new-deck order: spades Ace to King, then hearts, diamonds, clubs, then the
        /// black and the red joker, so its first card is `A♠`. Logs ``new deck `orders` of
        /// 52 cards``. Raises `unknown card ...` for a card that does not read.
        fn new_deck(name: string, kind: string) -> Deck,
        move |name: &str, kind: &str| -> Res<DeckRef> {
            // A card is at most 6 characters with its separator: a longer list is over the
            // limit.
            if kind.len() > MAX_DECK * 8 {
                return Err(host_error(format!("a deck holds at most {MAX_DECK} cards")));
            }
            let deck = match kind {
                "standard" => Deck::standard(name, false),
                "standard+jokers" => Deck::standard(name, true),
                list => Deck::parse_list(name, list).map_err(|e| host_error(e.to_string()))?,
            };
            if deck.len() > MAX_DECK {
                return Err(host_error(format!("a deck holds at most {MAX_DECK} cards")));
            }
            st.borrow_mut().add_deck(deck).map_err(host_error)?;
            Ok(DeckRef(name.into()))
        }
    );
    let st = state.clone();
    host!(engine,
        /// Makes a deck of the cards listed, as `new_deck(name, kind)` does: `cards` is an
        /// array of `Card` values or card texts, the first on top, at most 1,000. Not
        /// shuffled. Logs ``new deck `events` of 2 cards``.
        fn new_deck(name: string, cards: array) -> Deck,
        move |name: &str, cards: Array| -> Res<DeckRef> {
            if cards.len() > MAX_DECK {
                return Err(host_error(format!("a deck holds at most {MAX_DECK} cards")));
            }
            let mut list = Vec::new();
            for c in cards {
                let card = if let Some(card) = c.clone().try_cast::<Card>() {
                    card
                } else {
                    Card::parse(&c.to_string()).map_err(|e| host_error(e.to_string()))?
                };
                list.push(card);
            }
            st.borrow_mut()
                .add_deck(Deck::from_cards(name, list))
                .map_err(host_error)?;
            Ok(DeckRef(name.into()))
        }
    );

    let (st, src, b) = (state.clone(), source.clone(), budget.clone());
    host!(engine,
        /// Takes the top card (a card the players give, with `:cards manual`). Logs `drew A♠
        /// from the orders deck`.
        fn (dk: Deck) draw() -> Card,
        move |d: &mut DeckRef| -> Res<Card> {
            let mut cards = draw(&st, &src, &b, &d.0, 1, Drawn::Kept).map_err(host_error)?;
            cards.pop().ok_or_else(|| host_error("no card drawn"))
        }
    );
    let (st, src, b) = (state.clone(), source.clone(), budget.clone());
    host!(engine,
        /// Takes the top card and lays it face up on the discards, as a card flipped for a
        /// check is. Logs `flipped 7♥ from the orders deck`.
        fn (dk: Deck) flip() -> Card,
        move |d: &mut DeckRef| -> Res<Card> {
            let mut cards = draw(&st, &src, &b, &d.0, 1, Drawn::Flipped).map_err(host_error)?;
            cards.pop().ok_or_else(|| host_error("no card flipped"))
        }
    );
    let (st, src, b) = (state.clone(), source.clone(), budget.clone());
    host!(engine,
        /// Takes the top `n` cards, top first, as an array of `Card`; all or none. Logs `drew
        /// 2♠ 3♠ 4♠ from the orders deck`.
        fn (dk: Deck) draw(n: INT) -> array,
        move |d: &mut DeckRef, n: INT| -> Res<Array> {
            let n = count(n, "the number of cards")?;
            let cards = draw(&st, &src, &b, &d.0, n, Drawn::Kept).map_err(host_error)?;
            Ok(cards.into_iter().map(Dynamic::from).collect())
        }
    );
    let (st, src) = (state.clone(), source.clone());
    host!(engine,
        /// The top `Card`, left in place; `()` when the pile is empty. Logs nothing.
        fn (dk: Deck) peek() -> any,
        move |d: &mut DeckRef| -> Res<Dynamic> {
            let state = st.borrow();
            let deck = state.deck(&d.0).map_err(host_error)?;
            looked_at(&src, deck)?;
            Ok(deck.peek().map_or(Dynamic::UNIT, Dynamic::from))
        }
    );
    let (st, src) = (state.clone(), source.clone());
    host!(engine,
        /// Up to `n` cards from the top, left in place, as an array of `Card`. Logs nothing.
        fn (dk: Deck) peek(n: INT) -> array,
        move |d: &mut DeckRef, n: INT| -> Res<Array> {
            let n = count(n, "the number of cards")?;
            let state = st.borrow();
            let deck = state.deck(&d.0).map_err(host_error)?;
            looked_at(&src, deck)?;
            Ok(deck.peek_n(n).into_iter().map(Dynamic::from).collect())
        }
    );
    let st = state.clone();
    host!(engine,
        /// Puts a card on the discard pile. Logs `discarded A♠ to the orders deck`. Only a
        /// card out of the deck (drawn from it and not discarded since) may go there; any
        /// other is refused: `` `K♥` cannot go on the discards of the `orders` deck: it is not
        /// one of the deck's cards`` (or `it is in the discards already`, `it is in the draw
        /// pile: draw it first`).
        fn (dk: Deck) discard(card: Card) -> (),
        move |d: &mut DeckRef, card: Card| -> Res<()> {
            st.borrow_mut().discard(&d.0, card).map_err(host_error)
        }
    );
    // While a program gives each card's position, the order a shuffle makes means nothing:
    // the shuffle draws nothing from the generator.
    let (st, src) = (state.clone(), source.clone());
    host!(engine,
        /// Shuffles the draw pile; the discards stay where they are. Logs `shuffled the
        /// orders deck`.
        fn (dk: Deck) shuffle() -> (),
        move |d: &mut DeckRef| -> Res<()> {
            let mut s = st.borrow_mut();
            match *src.borrow() {
                Some(CardSource::Positions { .. }) => s.shuffle_hidden(&d.0, false),
                _ => s.shuffle(&d.0),
            }
            .map_err(host_error)
        }
    );
    let (st, src) = (state.clone(), source.clone());
    host!(engine,
        /// Puts the discards back and shuffles the whole pile. Logs `shuffled the orders
        /// deck's discards back into it`.
        fn (dk: Deck) reshuffle() -> (),
        move |d: &mut DeckRef| -> Res<()> {
            let mut s = st.borrow_mut();
            match *src.borrow() {
                Some(CardSource::Positions { .. }) => s.shuffle_hidden(&d.0, true),
                _ => s.reshuffle(&d.0),
            }
            .map_err(host_error)
        }
    );
    let st = state.clone();
    host!(engine,
        /// Cards left in the draw pile.
        get (dk: Deck) count -> INT,
        move |d: &mut DeckRef| -> Res<INT> {
            Ok(st.borrow().deck(&d.0).map_err(host_error)?.len() as INT)
        }
    );
    let st = state.clone();
    host!(engine,
        /// Cards on the discard pile.
        get (dk: Deck) discards -> INT,
        move |d: &mut DeckRef| -> Res<INT> {
            Ok(st.borrow().deck(&d.0).map_err(host_error)?.discard_count() as INT)
        }
    );
    host!(engine,
        /// The deck's name.
        get (dk: Deck) name -> string,
        |d: &mut DeckRef| d.0.clone()
    );
    host!(engine,
        /// `deck NAME`, what `print` and `` `${dk}` `` give.
        fn (dk: Deck) to_string() -> string,
        |d: &mut DeckRef| format!("deck {}", d.0)
    );
    host!(engine,
        /// `deck NAME`, what `debug` gives.
        fn (dk: Deck) to_debug() -> string,
        |d: &mut DeckRef| format!("deck {}", d.0)
    );
}
