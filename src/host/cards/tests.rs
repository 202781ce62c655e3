//! Unit tests of `cards`.

use super::*;

fn card(s: &str) -> Card {
    Card::parse(s).unwrap_or_else(|e| panic!("`{s}` should parse: {e}"))
}

fn suited(rank: u8, suit: Suit) -> Card {
    Card::Suited { rank, suit }
}

const RED_JOKER: Card = Card::Joker {
    colour: Colour::Red,
};
const BLACK_JOKER: Card = Card::Joker {
    colour: Colour::Black,
};

#[test]
fn a_card_is_taken_from_any_place_in_the_pile() {
    let mut d = Deck::parse_list("d", "AS 2S 3S 4S").unwrap();
    assert!(d.in_order());
    assert_eq!(d.draw_at(2).unwrap(), card("3S"));
    assert_eq!(d.cards(), [card("AS"), card("2S"), card("4S")]);
    assert_eq!(d.draw_at(0).unwrap(), card("AS"));
    assert_eq!(d.take(card("4S")).unwrap(), card("4S"));
    d.discard(card("AS")).unwrap();
    assert_eq!(
        d.take(card("AS")).unwrap_err().to_string(),
        "`A♠` is not in the draw pile of the `d` deck: it is in the discards"
    );
    assert_eq!(
        d.take(card("KH")).unwrap_err().to_string(),
        "`K♥` is not in the draw pile of the `d` deck: drawn already, or not in this deck"
    );
    assert_eq!(d.cards(), [card("2S")]);
    d.reshuffle_hidden();
    assert!(!d.in_order());
    assert_eq!(d.len(), 2);
    assert_eq!(d.discard_count(), 0);
    d.draw_at(0).unwrap();
    d.draw_at(5).unwrap();
    assert!(matches!(d.draw_at(0), Err(CardError::Empty { .. })));
    let mut rng = GameRng::new(1);
    let mut e = Deck::standard("e", false);
    e.shuffle(&mut rng);
    assert!(!e.in_order());
}

// --- cards -------------------------------------------------------------------------------

#[test]
fn display_uses_rank_and_suit_symbol() {
    assert_eq!(suited(1, Suit::Spades).to_string(), "A♠");
    assert_eq!(suited(10, Suit::Hearts).to_string(), "10♥");
    assert_eq!(suited(12, Suit::Hearts).to_string(), "Q♥");
    assert_eq!(suited(13, Suit::Clubs).to_string(), "K♣");
    assert_eq!(suited(11, Suit::Diamonds).to_string(), "J♦");
    assert_eq!(suited(7, Suit::Diamonds).to_string(), "7♦");
    assert_eq!(RED_JOKER.to_string(), "RJOKER");
    assert_eq!(BLACK_JOKER.to_string(), "BJOKER");
    assert_eq!(suited(10, Suit::Hearts).code(), "10H");
    assert_eq!(suited(1, Suit::Spades).code(), "AS");
    assert_eq!(RED_JOKER.code(), "RJOKER");
}

#[test]
fn parse_accepts_letters_symbols_and_aliases() {
    assert_eq!(card("QH"), suited(12, Suit::Hearts));
    assert_eq!(card("qh"), suited(12, Suit::Hearts));
    assert_eq!(card("10S"), suited(10, Suit::Spades));
    assert_eq!(card("TS"), suited(10, Suit::Spades));
    assert_eq!(card("ts"), suited(10, Suit::Spades));
    assert_eq!(card("AD"), suited(1, Suit::Diamonds));
    assert_eq!(card("1D"), suited(1, Suit::Diamonds));
    assert_eq!(card("KC"), suited(13, Suit::Clubs));
    assert_eq!(card("Q♥"), suited(12, Suit::Hearts));
    assert_eq!(card("10♠"), suited(10, Suit::Spades));
    assert_eq!(card("2♤"), suited(2, Suit::Spades));
    assert_eq!(card("  9c \t"), suited(9, Suit::Clubs));
    assert_eq!(card("JOKER"), BLACK_JOKER);
    assert_eq!(card("joker"), BLACK_JOKER);
    assert_eq!(card("BJOKER"), BLACK_JOKER);
    assert_eq!(card("JOKER-BLACK"), BLACK_JOKER);
    assert_eq!(card("RJOKER"), RED_JOKER);
    assert_eq!(card("joker-red"), RED_JOKER);
    assert_eq!("JH".parse::<Card>(), Ok(suited(11, Suit::Hearts)));
}

#[test]
fn parse_rejects_non_cards_with_a_clear_message() {
    let e = Card::parse("ZZ").unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown card `ZZ`: write a rank (A, 2-10, J, Q, K) then a suit (S, H, D, C), or JOKER"
    );
    assert_eq!(
        Card::parse("  11H ").unwrap_err(),
        CardError::UnknownCard { text: "11H".into() }
    );
    for bad in [
        "",
        " ",
        "H",
        "0H",
        "1",
        "AX",
        "AAS",
        "10",
        "-2S",
        "JOKERS",
        "ß",
        "♠",
        "2♠♠",
        "１S",
        "JOKER-GREEN",
        "🃏",
    ] {
        assert!(Card::parse(bad).is_err(), "`{bad}` should not parse");
    }
}

#[test]
fn all_54_cards_round_trip_through_display_code_and_parse() {
    let cards = Deck::standard("all", true).cards();
    assert_eq!(cards.len(), 54);
    for c in cards {
        assert_eq!(card(&c.to_string()), c, "display of {c:?}");
        assert_eq!(card(&c.code()), c, "code of {c:?}");
        assert_eq!(card(&c.code().to_lowercase()), c, "lowercase code of {c:?}");
    }
}

#[test]
fn rank_suit_and_names() {
    let qh = suited(12, Suit::Hearts);
    assert_eq!(qh.rank(), 12);
    assert_eq!(qh.suit(), Some(Suit::Hearts));
    assert_eq!(qh.rank_name(), "Queen");
    assert_eq!(RED_JOKER.rank(), 0);
    assert_eq!(RED_JOKER.suit(), None);
    assert_eq!(RED_JOKER.rank_name(), "Joker");
    let names: Vec<&str> = (1..=13)
        .map(|r| suited(r, Suit::Clubs).rank_name())
        .collect();
    assert_eq!(
        names,
        [
            "Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King"
        ]
    );
    // Only a hand-built card can have a bad rank; it still displays without panicking.
    let odd = suited(14, Suit::Spades);
    assert_eq!(odd.rank_name(), "?");
    assert_eq!(odd.to_string(), "?♠");
    assert_eq!(Card::suited(14, Suit::Spades), None);
    assert_eq!(Card::suited(0, Suit::Spades), None);
    assert_eq!(
        Card::suited(13, Suit::Spades),
        Some(suited(13, Suit::Spades))
    );
}

#[test]
fn face_ace_and_joker_tests() {
    let all = Deck::standard("all", true).cards();
    let faces: Vec<String> = all
        .iter()
        .filter(|c| c.is_face())
        .map(|c| c.code())
        .collect();
    assert_eq!(faces.len(), 12);
    assert_eq!(&faces[..3], ["JS", "QS", "KS"]);
    assert_eq!(all.iter().filter(|c| c.is_ace()).count(), 4);
    assert_eq!(all.iter().filter(|c| c.is_joker()).count(), 2);
    assert!(!suited(10, Suit::Hearts).is_face());
    assert!(!RED_JOKER.is_face() && !RED_JOKER.is_ace());
}

#[test]
fn colours_follow_suits_and_jokers() {
    assert_eq!(suited(5, Suit::Hearts).colour(), Colour::Red);
    assert_eq!(suited(5, Suit::Diamonds).colour(), Colour::Red);
    assert_eq!(suited(5, Suit::Spades).colour(), Colour::Black);
    assert_eq!(suited(5, Suit::Clubs).colour(), Colour::Black);
    assert_eq!(RED_JOKER.colour(), Colour::Red);
    assert_eq!(BLACK_JOKER.colour(), Colour::Black);
    let all = Deck::standard("all", true).cards();
    assert_eq!(all.iter().filter(|c| c.colour() == Colour::Red).count(), 27);
    assert_eq!(Suit::Hearts.letter(), 'H');
    assert_eq!(Suit::Clubs.symbol(), '♣');
    assert_eq!(Suit::from_char('d'), Some(Suit::Diamonds));
    assert_eq!(Suit::from_char('x'), None);
}

#[test]
fn cards_sort_by_rank_then_suit_with_jokers_last() {
    let mut hand = [RED_JOKER, card("KS"), card("2H"), card("2S"), card("AC")];
    hand.sort();
    let codes: Vec<String> = hand.iter().map(Card::code).collect();
    assert_eq!(codes, ["AC", "2S", "2H", "KS", "RJOKER"]);
}

// --- serde, through serde's own value types (no format crate needed) ---------------------

/// A serializer that only accepts a string, and hands it back.
struct StringOnly;

#[derive(Debug)]
struct NotAString;

impl fmt::Display for NotAString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a string")
    }
}

impl std::error::Error for NotAString {}

impl serde::ser::Error for NotAString {
    fn custom<T: fmt::Display>(_: T) -> Self {
        NotAString
    }
}

macro_rules! refuse {
        ($($name:ident($($t:ty),*)),* $(,)?) => {
            $(fn $name(self, $(_: $t),*) -> Result<String, NotAString> { Err(NotAString) })*
        };
    }

impl Serializer for StringOnly {
    type Ok = String;
    type Error = NotAString;
    type SerializeSeq = serde::ser::Impossible<String, NotAString>;
    type SerializeTuple = serde::ser::Impossible<String, NotAString>;
    type SerializeTupleStruct = serde::ser::Impossible<String, NotAString>;
    type SerializeTupleVariant = serde::ser::Impossible<String, NotAString>;
    type SerializeMap = serde::ser::Impossible<String, NotAString>;
    type SerializeStruct = serde::ser::Impossible<String, NotAString>;
    type SerializeStructVariant = serde::ser::Impossible<String, NotAString>;

    fn serialize_str(self, v: &str) -> Result<String, NotAString> {
        Ok(v.to_string())
    }

    refuse!(
        serialize_bool(bool),
        serialize_i8(i8),
        serialize_i16(i16),
        serialize_i32(i32),
        serialize_i64(i64),
        serialize_u8(u8),
        serialize_u16(u16),
        serialize_u32(u32),
        serialize_u64(u64),
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_char(char),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str),
        serialize_unit_variant(&'static str, u32, &'static str),
    );

    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<String, NotAString> {
        Err(NotAString)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<String, NotAString> {
        Err(NotAString)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String, NotAString> {
        Err(NotAString)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, NotAString> {
        Err(NotAString)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, NotAString> {
        Err(NotAString)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, NotAString> {
        Err(NotAString)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, NotAString> {
        Err(NotAString)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, NotAString> {
        Err(NotAString)
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, NotAString> {
        Err(NotAString)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, NotAString> {
        Err(NotAString)
    }
}

fn from_text(s: &str) -> Result<Card, serde::de::value::Error> {
    use serde::de::IntoDeserializer;
    Card::deserialize(s.into_deserializer())
}

#[test]
fn serde_writes_the_display_text_and_reads_any_spelling() {
    assert_eq!(card("10H").serialize(StringOnly).unwrap(), "10♥");
    assert_eq!(RED_JOKER.serialize(StringOnly).unwrap(), "RJOKER");
    for c in Deck::standard("all", true).cards() {
        assert_eq!(from_text(&c.serialize(StringOnly).unwrap()).unwrap(), c);
    }
    assert_eq!(from_text("qh").unwrap(), card("Q♥"));
    let e = from_text("ZZ").unwrap_err().to_string();
    assert!(e.starts_with("unknown card `ZZ`"), "{e}");
}

// --- decks -------------------------------------------------------------------------------

fn codes(cards: &[Card]) -> Vec<String> {
    cards.iter().map(Card::code).collect()
}

#[test]
fn new_deck_draws_in_documented_order() {
    let mut deck = Deck::standard("chance", true);
    assert_eq!(deck.len(), 54);
    assert_eq!(deck.name(), "chance");
    let first = deck.draw_n(14).unwrap();
    assert_eq!(
        codes(&first),
        [
            "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AH"
        ]
    );
    let all = Deck::standard("x", true).cards();
    assert_eq!(all[26].code(), "AD");
    assert_eq!(all[39].code(), "AC");
    assert_eq!(codes(&all[51..]), ["KC", "BJOKER", "RJOKER"]);
    assert_eq!(Deck::standard("x", false).len(), 52);
    assert_eq!(
        Deck::standard("x", false).cards().last().unwrap().code(),
        "KC"
    );
}

#[test]
fn draw_takes_the_top_and_does_not_discard() {
    let mut deck = Deck::parse_list("d", "AS, 10H, JOKER").unwrap();
    assert_eq!(deck.draw(), Ok(card("AS")));
    assert_eq!(deck.draw(), Ok(card("10H")));
    assert_eq!(deck.len(), 1);
    assert_eq!(deck.discard_count(), 0);
    assert_eq!(deck.draw(), Ok(BLACK_JOKER));
    assert!(deck.is_empty());
}

#[test]
fn drawing_from_an_empty_deck_says_what_to_do() {
    let mut deck = Deck::parse_list("chance", "AS 2S 3S").unwrap();
    for c in deck.draw_n(3).unwrap() {
        deck.discard(c).unwrap();
    }
    let e = deck.draw().unwrap_err();
    assert_eq!(
        e,
        CardError::Empty {
            deck: "chance".into(),
            discards: 3
        }
    );
    assert_eq!(
        e.to_string(),
        "the `chance` deck is empty (3 cards in its discards; reshuffle them)"
    );
    let e = Deck::from_cards("none", vec![]).draw().unwrap_err();
    assert_eq!(
        e.to_string(),
        "the `none` deck is empty (and its discards are empty too)"
    );
}

#[test]
fn draw_n_is_all_or_nothing() {
    let mut deck = Deck::parse_list("d", "AS, 2S, 3S").unwrap();
    let e = deck.draw_n(4).unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot draw 4 cards from the `d` deck: only 3 left"
    );
    assert_eq!(deck.len(), 3, "a failed draw_n takes nothing");
    assert_eq!(deck.draw_n(0), Ok(vec![]));
    assert_eq!(codes(&deck.draw_n(2).unwrap()), ["AS", "2S"]);
    assert_eq!(codes(&deck.draw_n(1).unwrap()), ["3S"]);
    assert_eq!(
        deck.draw_n(1).unwrap_err().to_string(),
        "cannot draw 1 card from the `d` deck: only 0 left"
    );
}

#[test]
fn peek_does_not_remove() {
    let deck = Deck::parse_list("d", "KH, QH, JH").unwrap();
    assert_eq!(deck.peek(), Some(card("KH")));
    assert_eq!(codes(&deck.peek_n(2)), ["KH", "QH"]);
    assert_eq!(codes(&deck.peek_n(10)), ["KH", "QH", "JH"]);
    assert_eq!(deck.len(), 3);
    assert_eq!(Deck::from_cards("e", vec![]).peek(), None);
    assert!(Deck::from_cards("e", vec![]).peek_n(3).is_empty());
}

#[test]
fn discard_then_reshuffle_restores_counts() {
    let mut rng = GameRng::new(3);
    let mut deck = Deck::standard("d", false);
    deck.shuffle(&mut rng);
    let hand = deck.draw_n(10).unwrap();
    for c in &hand {
        deck.discard(*c).unwrap();
    }
    assert_eq!((deck.len(), deck.discard_count()), (42, 10));
    assert_eq!(deck.discards(), &hand[..]);
    deck.reshuffle(&mut rng);
    assert_eq!((deck.len(), deck.discard_count()), (52, 0));
    let mut cards = deck.cards();
    cards.sort();
    let mut fresh = Deck::standard("d", false).cards();
    fresh.sort();
    assert_eq!(cards, fresh);
}

#[test]
fn truncate_to_twelve_for_one_card_per_turn() {
    // The Tin Army: a deck of the first 12 cards of a shuffled deck, one per turn.
    let mut rng = GameRng::new(12);
    let mut deck = Deck::standard("turns", false);
    deck.shuffle(&mut rng);
    let top12 = deck.peek_n(12);
    deck.truncate_to(12).unwrap();
    assert_eq!(deck.cards(), top12);
    assert_eq!((deck.len(), deck.set_aside_count()), (12, 40));
    for _ in 0..12 {
        let c = deck.draw().unwrap();
        deck.discard(c).unwrap();
    }
    assert!(deck.draw().is_err());
    deck.reshuffle(&mut rng);
    assert_eq!(deck.len(), 12, "set-aside cards never come back");
    let e = deck.truncate_to(13).unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot cut the `turns` deck down to 13 cards: it holds only 12"
    );
    assert_eq!(deck.len(), 12);
    deck.truncate_to(0).unwrap();
    assert!(deck.is_empty());
    assert_eq!(deck.set_aside_count(), 52);
}

#[test]
fn shuffles_are_deterministic_by_seed() {
    let shuffled = |seed| {
        let mut deck = Deck::standard("d", true);
        deck.shuffle(&mut GameRng::new(seed));
        deck
    };
    assert_eq!(shuffled(1), shuffled(1));
    assert_ne!(shuffled(1).cards(), shuffled(2).cards());
    assert_ne!(shuffled(1).cards(), Deck::standard("d", true).cards());
}

#[test]
fn shuffled_deck_holds_each_card_once() {
    let mut deck = Deck::standard("d", true);
    deck.shuffle(&mut GameRng::new(8));
    let cards = deck.cards();
    let unique: std::collections::HashSet<Card> = cards.iter().copied().collect();
    assert_eq!((cards.len(), unique.len()), (54, 54));
}

#[test]
fn only_a_card_out_of_the_deck_may_be_discarded() {
    // Discards took any card, and one card again and again: a deck's discards grew
    // without end (20,000 discards in one call held 489 MB).
    let mut deck = Deck::parse_list("orders", "AS 2S 2S").unwrap();
    let refused = |deck: &mut Deck, c: &str| deck.discard(card(c)).unwrap_err().to_string();
    assert_eq!(
        refused(&mut deck, "KH"),
        "`K♥` cannot go on the discards of the `orders` deck: it is not one of the deck's cards"
    );
    assert!(refused(&mut deck, "AS").contains("it is in the draw pile"));
    let two = deck.draw_n(2).unwrap();
    assert_eq!(two, [card("AS"), card("2S")]);
    deck.discard(card("2S")).unwrap();
    // The other two of spades is still in the pile.
    assert!(refused(&mut deck, "2S").contains("in the discards already"));
    deck.discard(card("AS")).unwrap();
    assert!(refused(&mut deck, "AS").contains("in the discards already"));
    assert_eq!(deck.discard_count(), 2);
    assert_eq!(deck.undiscard(), Some(card("AS")));
    deck.rediscard(card("AS"));
    assert_eq!(deck.discards(), [card("2S"), card("AS")]);
}

#[test]
fn shuffle_leaves_discards_alone() {
    let mut deck = Deck::parse_list("d", "AS 2S 3S 4S").unwrap();
    let c = deck.draw().unwrap();
    deck.discard(c).unwrap();
    deck.shuffle(&mut GameRng::new(1));
    assert_eq!((deck.len(), deck.discards()), (3, &[card("AS")][..]));
}

#[test]
fn add_to_bottom_comes_out_last() {
    let mut deck = Deck::parse_list("d", "AS, 2S").unwrap();
    deck.add_to_bottom(RED_JOKER);
    assert_eq!(codes(&deck.cards()), ["AS", "2S", "RJOKER"]);
    let mut empty = Deck::from_cards("e", vec![]);
    empty.add_to_bottom(card("5D"));
    assert_eq!(empty.draw(), Ok(card("5D")));
}

#[test]
fn parse_list_reports_the_bad_card() {
    assert_eq!(
        Deck::parse_list("d", "AS, 10H, ZZ, KC").unwrap_err(),
        CardError::UnknownCard { text: "ZZ".into() }
    );
    assert!(Deck::parse_list("d", "").unwrap().is_empty());
    assert_eq!(Deck::parse_list("d", " ,AS,,\n2♠ ").unwrap().len(), 2);
    assert_eq!(
        Deck::parse_list("d", "Q♥ JOKER-RED").unwrap().cards(),
        [card("QH"), RED_JOKER]
    );
}
