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

use super::{DeckRef, DiceAsker, FaceFeed, Res, Shared, host_error, volatile};
use crate::game::state::{Drawn, StateError};
use crate::host::cards::{Card, Colour, Deck, Suit};

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
                    match cards {
                        Ok(cards) if !cards.is_empty() => typed.extend(cards),
                        Ok(_) => note = "no card was typed; ".into(),
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

/// Registers the card and deck functions and the `Card` and `Deck` types.
pub(super) fn register(
    engine: &mut Engine,
    state: &Shared,
    source: &ManualCards,
    budget: &crate::script::engine::Budget,
) {
    engine.register_type_with_name::<Card>("Card");
    engine.register_type_with_name::<DeckRef>("Deck");
    engine
        .register_fn("card", |text: &str| -> Res<Card> {
            Card::parse(text).map_err(|e| host_error(e.to_string()))
        })
        .register_get("rank", |c: &mut Card| INT::from(c.rank()))
        .register_get("suit", |c: &mut Card| {
            c.suit().map_or("", suit_name).to_string()
        })
        .register_get("colour", |c: &mut Card| colour_name(c.colour()).to_string())
        .register_get("is_face", |c: &mut Card| c.is_face())
        .register_get("is_joker", |c: &mut Card| c.is_joker())
        .register_get("is_ace", |c: &mut Card| c.is_ace())
        .register_get("is_red", |c: &mut Card| c.colour() == Colour::Red)
        .register_get("is_black", |c: &mut Card| c.colour() == Colour::Black)
        .register_get("name", |c: &mut Card| match c.suit() {
            Some(s) => format!("{} of {}", c.rank_name(), suit_name(s)),
            None => format!("{} joker", colour_name(c.colour())),
        })
        .register_fn("to_string", |c: &mut Card| c.to_string())
        .register_fn("to_debug", |c: &mut Card| c.to_string())
        .register_fn("==", |a: Card, b: Card| a == b)
        .register_fn("!=", |a: Card, b: Card| a != b);

    let st = state.clone();
    volatile!(engine, "deck", move |name: &str| -> Res<DeckRef> {
        st.borrow().deck(name).map_err(host_error)?;
        Ok(DeckRef(name.into()))
    });
    let st = state.clone();
    volatile!(engine, "new_deck", move |name: &str,
                                        kind: &str|
          -> Res<DeckRef> {
        // A card is at most 6 characters with its separator: a longer list is over the limit.
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
        st.borrow_mut().add_deck(deck);
        Ok(DeckRef(name.into()))
    });
    let st = state.clone();
    volatile!(engine, "new_deck", move |name: &str,
                                        cards: Array|
          -> Res<DeckRef> {
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
        st.borrow_mut().add_deck(Deck::from_cards(name, list));
        Ok(DeckRef(name.into()))
    });

    let (st, src, b) = (state.clone(), source.clone(), budget.clone());
    volatile!(engine, "draw", move |d: &mut DeckRef| -> Res<Card> {
        let mut cards = draw(&st, &src, &b, &d.0, 1, Drawn::Kept).map_err(host_error)?;
        cards.pop().ok_or_else(|| host_error("no card drawn"))
    });
    let (st, src, b) = (state.clone(), source.clone(), budget.clone());
    volatile!(engine, "flip", move |d: &mut DeckRef| -> Res<Card> {
        let mut cards = draw(&st, &src, &b, &d.0, 1, Drawn::Flipped).map_err(host_error)?;
        cards.pop().ok_or_else(|| host_error("no card flipped"))
    });
    let (st, src, b) = (state.clone(), source.clone(), budget.clone());
    volatile!(engine, "draw", move |d: &mut DeckRef,
                                    n: INT|
          -> Res<Array> {
        let n = count(n, "the number of cards")?;
        let cards = draw(&st, &src, &b, &d.0, n, Drawn::Kept).map_err(host_error)?;
        Ok(cards.into_iter().map(Dynamic::from).collect())
    });
    let (st, src) = (state.clone(), source.clone());
    volatile!(engine, "peek", move |d: &mut DeckRef| -> Res<Dynamic> {
        let state = st.borrow();
        let deck = state.deck(&d.0).map_err(host_error)?;
        looked_at(&src, deck)?;
        Ok(deck.peek().map_or(Dynamic::UNIT, Dynamic::from))
    });
    let (st, src) = (state.clone(), source.clone());
    volatile!(engine, "peek", move |d: &mut DeckRef,
                                    n: INT|
          -> Res<Array> {
        let n = count(n, "the number of cards")?;
        let state = st.borrow();
        let deck = state.deck(&d.0).map_err(host_error)?;
        looked_at(&src, deck)?;
        Ok(deck.peek_n(n).into_iter().map(Dynamic::from).collect())
    });
    let st = state.clone();
    volatile!(engine, "discard", move |d: &mut DeckRef,
                                       card: Card|
          -> Res<()> {
        st.borrow_mut().discard(&d.0, card).map_err(host_error)
    });
    // While a program gives each card's position, the order a shuffle makes means nothing:
    // the shuffle draws nothing from the generator.
    let (st, src) = (state.clone(), source.clone());
    volatile!(engine, "shuffle", move |d: &mut DeckRef| -> Res<()> {
        let mut s = st.borrow_mut();
        match *src.borrow() {
            Some(CardSource::Positions { .. }) => s.shuffle_hidden(&d.0, false),
            _ => s.shuffle(&d.0),
        }
        .map_err(host_error)
    });
    let (st, src) = (state.clone(), source.clone());
    volatile!(engine, "reshuffle", move |d: &mut DeckRef| -> Res<()> {
        let mut s = st.borrow_mut();
        match *src.borrow() {
            Some(CardSource::Positions { .. }) => s.shuffle_hidden(&d.0, true),
            _ => s.reshuffle(&d.0),
        }
        .map_err(host_error)
    });
    let st = state.clone();
    engine.register_get("count", move |d: &mut DeckRef| -> Res<INT> {
        Ok(st.borrow().deck(&d.0).map_err(host_error)?.len() as INT)
    });
    let st = state.clone();
    engine.register_get("discards", move |d: &mut DeckRef| -> Res<INT> {
        Ok(st.borrow().deck(&d.0).map_err(host_error)?.discard_count() as INT)
    });
    engine
        .register_get("name", |d: &mut DeckRef| d.0.clone())
        .register_fn("to_string", |d: &mut DeckRef| format!("deck {}", d.0))
        .register_fn("to_debug", |d: &mut DeckRef| format!("deck {}", d.0));
}
