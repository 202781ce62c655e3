//! Cards: playing cards and the game's decks, each deck a handle on a deck the game keeps
//! (so drawing is logged and undone like any change).
//!
//! Registers:
//!
//! - `card(text)`: a card from how it is written;
//! - the type `Card`, with the properties `rank`, `suit`, `colour`, `name`, `is_face`,
//!   `is_joker`, `is_ace`, `is_red` and `is_black`, the operators `==` and `!=`, and
//!   `to_string` and `to_debug`;
//! - `deck(name)`, `new_deck(name, kind)` and `new_deck(name, cards)`: a handle on a deck;
//! - the type `Deck`, with the methods `draw()`, `draw(n)`, `peek()`, `peek(n)`,
//!   `discard(card)`, `shuffle()` and `reshuffle()`, the properties `count`, `discards` and
//!   `name`, and `to_string` and `to_debug`.

use rhai::{Array, Dynamic, Engine, INT};

use super::{DeckRef, Res, Shared, host_error, volatile};
use crate::host::cards::{Card, Colour, Deck, Suit};

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

/// Registers the card and deck functions and the `Card` and `Deck` types.
pub(super) fn register(engine: &mut Engine, state: &Shared) {
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

    let st = state.clone();
    volatile!(engine, "draw", move |d: &mut DeckRef| -> Res<Card> {
        let mut cards = st.borrow_mut().draw(&d.0, 1).map_err(host_error)?;
        cards.pop().ok_or_else(|| host_error("no card drawn"))
    });
    let st = state.clone();
    volatile!(engine, "draw", move |d: &mut DeckRef,
                                    n: INT|
          -> Res<Array> {
        let n = count(n, "the number of cards")?;
        let cards = st.borrow_mut().draw(&d.0, n).map_err(host_error)?;
        Ok(cards.into_iter().map(Dynamic::from).collect())
    });
    let st = state.clone();
    volatile!(engine, "peek", move |d: &mut DeckRef| -> Res<Dynamic> {
        let state = st.borrow();
        Ok(state
            .deck(&d.0)
            .map_err(host_error)?
            .peek()
            .map_or(Dynamic::UNIT, Dynamic::from))
    });
    let st = state.clone();
    volatile!(engine, "peek", move |d: &mut DeckRef,
                                    n: INT|
          -> Res<Array> {
        let n = count(n, "the number of cards")?;
        let state = st.borrow();
        Ok(state
            .deck(&d.0)
            .map_err(host_error)?
            .peek_n(n)
            .into_iter()
            .map(Dynamic::from)
            .collect())
    });
    let st = state.clone();
    volatile!(engine, "discard", move |d: &mut DeckRef,
                                       card: Card|
          -> Res<()> {
        st.borrow_mut().discard(&d.0, card).map_err(host_error)
    });
    let st = state.clone();
    volatile!(engine, "shuffle", move |d: &mut DeckRef| -> Res<()> {
        st.borrow_mut().shuffle(&d.0).map_err(host_error)
    });
    let st = state.clone();
    volatile!(engine, "reshuffle", move |d: &mut DeckRef| -> Res<()> {
        st.borrow_mut().reshuffle(&d.0).map_err(host_error)
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
