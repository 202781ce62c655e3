//! Unit tests of `geometry`.

use super::*;
use serde::de::value::{Error as DeError, MapDeserializer, SeqDeserializer};
use serde::de::{Deserializer, IntoDeserializer, Visitor};

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn a_limit_is_met_allowing_rounding_dust_only() {
    assert!(at_most(2.0, 2.0));
    assert!(at_most(2.0 + 0.5 * MEASURE_TOLERANCE, 2.0));
    assert!(!at_most(2.001, 2.0));
    assert!(at_least(2.0 - 0.5 * MEASURE_TOLERANCE, 2.0));
    assert!(!at_least(1.999, 2.0));
    // Much finer than the slack for bases placed by hand.
    assert!(!at_most(2.0 + CONTACT_TOLERANCE, 2.0));
    assert!(!at_most(f64::NAN, 2.0) && !at_least(f64::NAN, 2.0));
    assert!(!at_most(2.0, f64::NAN) && !at_least(2.0, f64::NAN));
}

#[test]
fn compass_words_are_bearings_clockwise_from_north() {
    assert_eq!(compass_bearing("north"), Some(0.0));
    assert_eq!(compass_bearing("east"), Some(90.0));
    assert_eq!(compass_bearing("south"), Some(180.0));
    assert_eq!(compass_bearing("west"), Some(270.0));
    assert_eq!(compass_bearing("North"), None);
    assert_eq!(compass_bearing("up"), None);
    // Each is the way from the middle of the table to its edge of that name.
    let middle = p(24.0, 18.0);
    for (word, edge) in [
        ("north", p(24.0, 36.0)),
        ("east", p(48.0, 18.0)),
        ("south", p(24.0, 0.0)),
        ("west", p(0.0, 18.0)),
    ] {
        assert_eq!(compass_bearing(word), Some(middle.bearing_to(edge)));
    }
}

fn assert_close(a: f64, b: f64) {
    assert!(close(a, b), "{a} is not {b}");
}

fn assert_near(a: Point, b: Point) {
    assert!(close(a.x, b.x) && close(a.y, b.y), "{a:?} is not {b:?}");
}

fn round(x: f64, y: f64, diameter: f64) -> Footprint {
    Footprint::new(p(x, y), 0.0, Base::Round { diameter })
}

fn rect(x: f64, y: f64, facing: f64, width: f64, depth: f64) -> Footprint {
    Footprint::new(p(x, y), facing, Base::Rect { width, depth })
}

#[test]
fn distance_of_a_3_4_5_triangle_is_5() {
    assert_close(p(0.0, 0.0).distance(p(3.0, 4.0)), 5.0);
    assert_close(p(1.0, 1.0).distance(p(-2.0, -3.0)), 5.0);
}

#[test]
fn bearings_run_clockwise_from_north() {
    let o = p(0.0, 0.0);
    assert_close(o.bearing_to(p(0.0, 2.0)), 0.0);
    assert_close(o.bearing_to(p(2.0, 0.0)), 90.0);
    assert_close(o.bearing_to(p(0.0, -2.0)), 180.0);
    assert_close(o.bearing_to(p(-2.0, 0.0)), 270.0);
    assert_close(o.bearing_to(p(1.0, 1.0)), 45.0);
    assert_close(o.bearing_to(p(-1.0, 1.0)), 315.0);
}

#[test]
fn bearing_of_a_3_4_5_triangle_is_atan_3_over_4() {
    // tan(bearing) = east / north = 3 / 4, so 36.87 degrees
    assert_close(p(0.0, 0.0).bearing_to(p(3.0, 4.0)), 36.869_897_645_844_02);
}

#[test]
fn bearing_to_the_same_point_or_nan_is_zero() {
    assert_eq!(p(2.0, 3.0).bearing_to(p(2.0, 3.0)), 0.0);
    assert_eq!(p(0.0, 0.0).bearing_to(p(f64::NAN, 1.0)), 0.0);
}

#[test]
fn offset_walks_along_a_bearing() {
    assert_near(p(1.0, 1.0).offset(90.0, 5.0), p(6.0, 1.0));
    assert_near(p(1.0, 1.0).offset(180.0, 2.0), p(1.0, -1.0));
    assert_near(p(0.0, 0.0).offset(36.869_897_645_844_02, 5.0), p(3.0, 4.0));
}

#[test]
fn offset_then_bearing_and_distance_round_trip() {
    let from = p(10.0, -4.0);
    let to = from.offset(247.5, 7.25);
    assert_close(from.bearing_to(to), 247.5);
    assert_close(from.distance(to), 7.25);
}

#[test]
fn display_trims_to_two_decimals() {
    assert_eq!(p(3.0, 4.5).to_string(), "(3, 4.5)");
    assert_eq!(p(2.10, 7.0).to_string(), "(2.1, 7)");
    assert_eq!(p(1.234, -0.001).to_string(), "(1.23, 0)");
    assert_eq!(p(-12.5, 100.0).to_string(), "(-12.5, 100)");
}

#[test]
fn feet_are_twelve_inches() {
    assert_eq!(ft(2.5), 30.0);
    assert_eq!(ft(6.0), 72.0);
}

#[test]
fn normalize_degrees_wraps_into_0_to_360() {
    assert_eq!(normalize_degrees(-90.0), 270.0);
    assert_eq!(normalize_degrees(360.0), 0.0);
    assert_eq!(normalize_degrees(725.0), 5.0);
    assert_eq!(normalize_degrees(-1e-20), 0.0);
    assert_eq!(normalize_degrees(f64::NAN), 0.0);
    assert_eq!(normalize_degrees(f64::INFINITY), 0.0);
}

#[test]
fn angle_off_is_signed_and_right_is_positive() {
    assert_eq!(angle_off(350.0, 10.0), 20.0);
    assert_eq!(angle_off(10.0, 350.0), -20.0);
    assert_eq!(angle_off(0.0, 180.0), 180.0);
    assert_eq!(angle_off(90.0, 270.0), 180.0);
    assert_eq!(angle_off(0.0, 181.0), -179.0);
    assert_eq!(angle_off(f64::NAN, 10.0), 0.0);
}

#[test]
fn validate_accepts_positive_bases() {
    assert_eq!(Base::Round { diameter: 1.2 }.validate(), Ok(()));
    assert_eq!(
        Base::Rect {
            width: 1.5,
            depth: 3.0
        }
        .validate(),
        Ok(())
    );
}

#[test]
fn validate_rejects_zero_negative_and_nan_sizes() {
    let zero = Base::Round { diameter: 0.0 }
        .validate()
        .unwrap_err()
        .to_string();
    assert_eq!(
        zero,
        "round base diameter must be a positive number of inches, got 0"
    );
    let negative = Base::Rect {
        width: 1.0,
        depth: -2.0,
    };
    assert!(
        negative
            .validate()
            .unwrap_err()
            .to_string()
            .starts_with("base depth")
    );
    let nan = Base::Rect {
        width: f64::NAN,
        depth: 2.0,
    };
    assert!(
        nan.validate()
            .unwrap_err()
            .to_string()
            .starts_with("base width")
    );
}

/// A map value that deserialises as a number, or as `Some(number)` for an option: the
/// primitive deserializers in serde refuse options.
struct Num(f64);

impl<'de> Deserializer<'de> for Num {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        v.visit_f64(self.0)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, DeError> {
        v.visit_some(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
        byte_buf unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}

impl<'de> IntoDeserializer<'de, DeError> for Num {
    type Deserializer = Num;

    fn into_deserializer(self) -> Num {
        self
    }
}

fn base_from(fields: &[(&'static str, f64)]) -> Result<Base, String> {
    let map = fields.iter().map(|&(k, v)| (k, Num(v)));
    Base::deserialize(MapDeserializer::<_, DeError>::new(map)).map_err(|e| e.to_string())
}

#[test]
fn base_deserialises_from_round_or_width_and_depth() {
    assert_eq!(
        base_from(&[("round", 1.2)]),
        Ok(Base::Round { diameter: 1.2 })
    );
    assert_eq!(
        base_from(&[("width", 1.5), ("depth", 3.0)]),
        Ok(Base::Rect {
            width: 1.5,
            depth: 3.0
        })
    );
}

#[test]
fn base_deserialising_rejects_unknown_mixed_missing_and_bad_sizes() {
    assert!(
        base_from(&[("radius", 1.0)])
            .unwrap_err()
            .to_string()
            .contains("radius")
    );
    assert!(
        base_from(&[("round", 1.0), ("width", 2.0)])
            .unwrap_err()
            .to_string()
            .contains("only `round`")
    );
    assert!(
        base_from(&[("width", 2.0)])
            .unwrap_err()
            .to_string()
            .contains("`width` and `depth`")
    );
    assert!(
        base_from(&[("round", -1.0)])
            .unwrap_err()
            .to_string()
            .contains("must be a positive")
    );
}

#[test]
fn base_serialises_as_round_or_width_and_depth() {
    let round = BaseSpec::from(Base::Round { diameter: 1.2 });
    assert_eq!(
        round,
        BaseSpec {
            round: Some(1.2),
            width: None,
            depth: None
        }
    );
    let rect = Base::Rect {
        width: 1.5,
        depth: 3.0,
    };
    assert_eq!(Base::try_from(BaseSpec::from(rect)), Ok(rect));
}

#[test]
fn point_serialises_as_a_two_element_array() {
    let seq = SeqDeserializer::<_, DeError>::new([3.0, 4.5].into_iter());
    assert_eq!(Point::deserialize(seq), Ok(p(3.0, 4.5)));
    assert_eq!(<[f64; 2]>::from(p(3.0, 4.5)), [3.0, 4.5]);
}

#[test]
fn corners_of_a_rect_base_facing_north() {
    let corners = rect(10.0, 10.0, 0.0, 2.0, 1.0).corners().unwrap();
    let expected = [p(9.0, 10.5), p(11.0, 10.5), p(11.0, 9.5), p(9.0, 9.5)];
    for (c, e) in corners.into_iter().zip(expected) {
        assert_near(c, e);
    }
}

#[test]
fn corners_of_a_rect_base_facing_east_turn_with_it() {
    // facing east, the front is the east edge and the right-hand side is south
    let corners = rect(10.0, 10.0, 90.0, 2.0, 1.0).corners().unwrap();
    let expected = [p(10.5, 11.0), p(10.5, 9.0), p(9.5, 9.0), p(9.5, 11.0)];
    for (c, e) in corners.into_iter().zip(expected) {
        assert_near(c, e);
    }
}

#[test]
fn round_bases_have_no_corners() {
    assert_eq!(round(0.0, 0.0, 1.0).corners(), None);
}

#[test]
fn contains_follows_the_rotated_rect() {
    let base = rect(10.0, 10.0, 90.0, 2.0, 1.0);
    assert!(base.contains(p(10.4, 10.9)));
    assert!(base.contains(p(10.5, 10.0)), "edge counts");
    assert!(
        !base.contains(p(10.9, 10.0)),
        "0.9 ahead of a 1 inch deep base"
    );
    assert!(!base.contains(p(f64::NAN, 10.0)));
}

#[test]
fn contains_follows_the_round_base() {
    let base = round(0.0, 0.0, 2.0);
    assert!(base.contains(p(0.6, 0.8)), "on the edge");
    assert!(!base.contains(p(0.6, 0.81)));
}

#[test]
fn distance_to_point_from_a_round_base_is_centre_distance_less_radius() {
    assert_close(round(0.0, 0.0, 2.0).distance_to_point(p(3.0, 4.0)), 4.0);
    assert_eq!(round(0.0, 0.0, 2.0).distance_to_point(p(0.5, 0.0)), 0.0);
}

#[test]
fn distance_to_point_from_a_rect_corner_is_a_3_4_5_triangle() {
    // corner (1, 0.5) to (4, 4.5) is 3 across and 4 up
    assert_close(
        rect(0.0, 0.0, 0.0, 2.0, 1.0).distance_to_point(p(4.0, 4.5)),
        5.0,
    );
    // along the side: straight out from the east edge
    assert_close(
        rect(0.0, 0.0, 0.0, 2.0, 1.0).distance_to_point(p(4.0, 0.2)),
        3.0,
    );
}

#[test]
fn distance_to_point_turns_with_the_base() {
    // 4 right of and 4.5 ahead of a 2 by 1 base facing 30 degrees: 3 beyond its side
    // and 4 beyond its front, so 5 from its front-right corner
    let base = rect(10.0, 10.0, 30.0, 2.0, 1.0);
    let target = p(10.0, 10.0).offset(30.0, 4.5).offset(120.0, 4.0);
    assert_close(base.distance_to_point(target), 5.0);
    assert!(base.contains(p(10.0, 10.0).offset(120.0, 0.9)));
    assert!(!base.contains(p(10.0, 10.0).offset(30.0, 0.9)));
}

#[test]
fn distance_to_point_is_nan_for_nan_input() {
    assert!(
        round(0.0, 0.0, 1.0)
            .distance_to_point(p(f64::NAN, 0.0))
            .is_nan()
    );
}

#[test]
fn edge_distance_between_round_bases() {
    // centres 5 apart, radii 0.5 and 1
    assert_close(
        round(0.0, 0.0, 1.0).edge_distance(&round(3.0, 4.0, 2.0)),
        3.5,
    );
    assert_eq!(
        round(0.0, 0.0, 1.0).edge_distance(&round(1.0, 0.0, 2.0)),
        0.0
    );
}

#[test]
fn edge_distance_between_round_and_rect_bases_either_way() {
    // rect corner (1, 0.5) to round centre (4, 4.5) is 5, less radius 1
    let r = rect(0.0, 0.0, 0.0, 2.0, 1.0);
    let c = round(4.0, 4.5, 2.0);
    assert_close(r.edge_distance(&c), 4.0);
    assert_close(c.edge_distance(&r), 4.0);
}

#[test]
fn edge_distance_between_rect_corners_is_a_3_4_5_triangle() {
    // corners (1, 0.5) and (4, 4.5)
    let a = rect(0.0, 0.0, 0.0, 2.0, 1.0);
    let b = rect(5.0, 5.0, 0.0, 2.0, 1.0);
    assert_close(a.edge_distance(&b), 5.0);
}

#[test]
fn edge_distance_from_a_diamond_point_to_a_flat_edge() {
    // a 2 inch square turned 45 degrees reaches sqrt(2) east of its centre;
    // the other square's west edge is at 2 + sqrt(2)
    let diamond = rect(0.0, 0.0, 45.0, 2.0, 2.0);
    let square = rect(3.0 + 2f64.sqrt(), 0.0, 0.0, 2.0, 2.0);
    assert_close(diamond.edge_distance(&square), 2.0);
}

#[test]
fn edge_distance_is_zero_for_overlap_containment_and_touching() {
    let big = rect(0.0, 0.0, 0.0, 10.0, 10.0);
    assert_eq!(big.edge_distance(&rect(1.0, 1.0, 30.0, 1.0, 1.0)), 0.0);
    assert_eq!(rect(1.0, 1.0, 30.0, 1.0, 1.0).edge_distance(&big), 0.0);
    assert_eq!(big.edge_distance(&rect(5.0, 5.0, 45.0, 2.0, 2.0)), 0.0);
    let left = rect(0.0, 0.0, 0.0, 2.0, 1.0);
    assert_eq!(left.edge_distance(&rect(2.0, 0.0, 0.0, 2.0, 1.0)), 0.0);
    let turned = rect(2.0, 0.0, 180.0, 2.0, 1.0);
    assert_eq!(left.edge_distance(&turned), 0.0, "touching after rotation");
}

#[test]
fn bases_that_touch_do_not_overlap() {
    // Round bases of 1 inch: touching at 1 apart, and within the tolerance each way.
    assert!(!round(0.0, 0.0, 1.0).overlaps(&round(1.0, 0.0, 1.0)));
    assert!(!round(0.0, 0.0, 1.0).overlaps(&round(0.95, 0.0, 1.0)));
    assert!(round(0.0, 0.0, 1.0).overlaps(&round(0.85, 0.0, 1.0)));
    assert!((round(0.0, 0.0, 1.0).overlap(&round(0.85, 0.0, 1.0)) - 0.15).abs() < 1e-9);
    assert_eq!(round(0.0, 0.0, 1.0).overlap(&round(3.0, 0.0, 1.0)), 0.0);
    // Rectangles side by side, then turned about and still touching.
    let left = rect(0.0, 0.0, 0.0, 2.0, 1.0);
    assert!(!left.overlaps(&rect(2.0, 0.0, 0.0, 2.0, 1.0)));
    assert!(!left.overlaps(&rect(2.0, 0.0, 180.0, 2.0, 1.0)));
    let into = rect(1.5, 0.0, 0.0, 2.0, 1.0);
    assert!(left.overlaps(&into));
    assert!(
        (left.overlap(&into) - 0.5).abs() < 1e-6,
        "{}",
        left.overlap(&into)
    );
    // A round base half an inch into a rectangle's side.
    let r = round(1.0 + 0.5, 0.0, 2.0);
    assert!(left.overlaps(&r));
    assert!(
        (left.overlap(&r) - 0.5).abs() < 1e-6,
        "{}",
        left.overlap(&r)
    );
    // One inside the other overlaps by the smaller's smallest size.
    let big = rect(0.0, 0.0, 0.0, 10.0, 10.0);
    assert!((big.overlap(&rect(1.0, 1.0, 30.0, 1.0, 2.0)) - 1.0).abs() < 1e-6);
    assert!(!big.overlaps(&rect(f64::NAN, 0.0, 0.0, 1.0, 1.0)));
}

#[test]
fn extents_apart_only_when_the_bases_do_not_meet() {
    let gap = 1e-6;
    // Two long thin strips side by side at 45 degrees: their boxes overlap, they do not.
    let a = rect(0.0, 0.0, 45.0, 0.2, 100.0);
    let b = Footprint {
        pos: p(0.0, 0.0).offset(135.0, 0.3),
        ..a
    };
    assert!(a.extent().apart(&b.extent(), gap));
    assert!(a.edge_distance(&b) > 0.09);
    // Touching, crossing and one inside the other are never apart.
    let left = rect(0.0, 0.0, 0.0, 2.0, 1.0);
    assert!(
        !left
            .extent()
            .apart(&rect(2.0, 0.0, 180.0, 2.0, 1.0).extent(), gap)
    );
    assert!(
        !a.extent()
            .apart(&rect(0.0, 0.0, 135.0, 0.2, 100.0).extent(), gap)
    );
    assert!(
        !rect(0.0, 0.0, 0.0, 10.0, 10.0)
            .extent()
            .apart(&round(1.0, 1.0, 1.0).extent(), gap)
    );
    assert!(
        !round(0.0, 0.0, 1.0)
            .extent()
            .apart(&round(1.0, 0.0, 1.0).extent(), gap)
    );
    assert!(
        round(0.0, 0.0, 1.0)
            .extent()
            .apart(&round(1.1, 0.0, 1.0).extent(), gap)
    );
    // A round base by a rectangle's side.
    assert!(left.extent().apart(&round(2.1, 0.0, 0.2).extent(), gap));
    assert!(!left.extent().apart(&round(1.05, 0.0, 0.2).extent(), gap));
}

#[test]
fn bounds_hold_a_turned_base() {
    let (lo, hi) = rect(0.0, 0.0, 90.0, 2.0, 1.0).bounds();
    assert_near(lo, p(-0.5, -1.0));
    assert_near(hi, p(0.5, 1.0));
    let (lo, hi) = round(3.0, 4.0, 2.0).bounds();
    assert_near(lo, p(2.0, 3.0));
    assert_near(hi, p(4.0, 5.0));
}

#[test]
fn in_contact_allows_the_tolerance_gap() {
    let left = rect(0.0, 0.0, 0.0, 2.0, 1.0);
    let near = rect(2.04, 0.0, 0.0, 2.0, 1.0);
    let far = rect(2.06, 0.0, 0.0, 2.0, 1.0);
    assert!(left.in_contact(&near, CONTACT_TOLERANCE));
    assert!(!left.in_contact(&far, CONTACT_TOLERANCE));
    assert!(!left.in_contact(&rect(f64::NAN, 0.0, 0.0, 2.0, 1.0), 1.0));
}

#[test]
fn intersects_segment_with_a_round_base() {
    let base = round(0.0, 0.0, 2.0);
    assert!(base.intersects_segment(p(-5.0, 0.9), p(5.0, 0.9)));
    assert!(!base.intersects_segment(p(-5.0, 1.1), p(5.0, 1.1)));
    assert!(
        !base.intersects_segment(p(-5.0, 0.0), p(-2.0, 0.0)),
        "stops short"
    );
}

#[test]
fn distance_to_segment_from_a_round_base() {
    let base = round(0.0, 0.0, 1.2);
    // a line passing 1.6 inches from the centre clears the edge by 1
    assert_close(base.distance_to_segment(p(-5.0, 1.6), p(5.0, 1.6)), 1.0);
    // a segment that stops short is measured from its end
    assert_close(base.distance_to_segment(p(-5.0, 0.0), p(-3.6, 0.0)), 3.0);
    assert_eq!(base.distance_to_segment(p(-5.0, 0.3), p(5.0, 0.3)), 0.0);
    assert!(
        base.distance_to_segment(p(f64::NAN, 0.0), p(1.0, 0.0))
            .is_nan()
    );
}

#[test]
fn distance_to_segment_from_a_rect_base() {
    // 2 wide, 4 deep, facing east: it lies along x, from -2 to 2, y from -1 to 1
    let base = rect(0.0, 0.0, 90.0, 2.0, 4.0);
    assert_close(base.distance_to_segment(p(-5.0, 2.5), p(5.0, 2.5)), 1.5);
    assert_close(base.distance_to_segment(p(3.0, -5.0), p(3.0, 5.0)), 1.0);
    // through the middle, and wholly inside
    assert_eq!(base.distance_to_segment(p(0.0, -5.0), p(0.0, 5.0)), 0.0);
    assert_eq!(base.distance_to_segment(p(-0.5, 0.0), p(0.5, 0.0)), 0.0);
    // past a corner: a 3-4-5 triangle from (2, 1)
    assert_close(base.distance_to_segment(p(5.0, 5.0), p(5.0, 9.0)), 5.0);
}

#[test]
fn intersects_segment_with_a_rect_base() {
    // a 2 inch square turned 45 degrees reaches sqrt(2) = 1.414 north of its centre
    let diamond = rect(0.0, 0.0, 45.0, 2.0, 2.0);
    assert!(diamond.intersects_segment(p(-5.0, 1.4), p(5.0, 1.4)));
    assert!(!diamond.intersects_segment(p(-5.0, 1.42), p(5.0, 1.42)));
    assert!(
        diamond.intersects_segment(p(-0.1, 0.0), p(0.1, 0.0)),
        "wholly inside"
    );
    assert!(!diamond.intersects_segment(p(f64::NAN, 0.0), p(0.1, 0.0)));
}

#[test]
fn tiny_soldiers_frontal_zone_is_45_degrees_either_side() {
    let o = p(0.0, 0.0);
    assert!(in_arc(0.0, o, p(1.0, 1.0), 45.0), "exactly on the edge");
    assert!(in_arc(0.0, o, p(-1.0, 1.0), 45.0));
    assert!(!in_arc(0.0, o, p(1.0, 0.9), 45.0), "48 degrees off");
    assert!(
        in_arc(90.0, o, p(3.0, -2.0), 45.0),
        "facing east, 34 degrees right"
    );
}

#[test]
fn the_tin_army_180_degree_arc_is_half_angle_90() {
    let o = p(0.0, 0.0);
    assert!(in_arc(0.0, o, p(5.0, 0.0), 90.0), "square to the side");
    assert!(!in_arc(0.0, o, p(5.0, -0.1), 90.0), "just behind");
    assert!(
        in_arc(270.0, o, p(0.0, 5.0), 90.0),
        "facing west, north is to the right"
    );
}

#[test]
fn playmobil_rear_is_outside_the_front_half() {
    let o = p(0.0, 0.0);
    assert!(!in_arc(0.0, o, p(0.0, -5.0), 90.0));
    assert!(!in_arc(0.0, o, p(3.0, -4.0), 90.0));
    assert!(in_arc(0.0, o, p(3.0, 4.0), 90.0));
}

#[test]
fn in_arc_tolerates_rounding_on_the_edge() {
    // (1, sqrt 3) is 30 degrees off north in a 30-60-90 triangle, but atan2 gives
    // 30.0000000000000036
    assert!(in_arc(0.0, p(0.0, 0.0), p(1.0, 3f64.sqrt()), 30.0));
    assert!(!in_arc(0.0, p(0.0, 0.0), p(1.01, 3f64.sqrt()), 30.0));
}

#[test]
fn in_arc_counts_the_same_point_and_refuses_nan() {
    let o = p(1.0, 1.0);
    assert!(in_arc(0.0, o, o, 0.0));
    assert!(!in_arc(f64::NAN, o, p(1.0, 2.0), 90.0));
    assert!(!in_arc(0.0, o, p(1.0, 2.0), f64::NAN));
    assert!(!in_arc(0.0, o, p(1.0, 2.0), -1.0));
}

#[test]
fn grapeshot_cone_is_8_inches_and_45_degrees() {
    let o = p(0.0, 0.0);
    let grape = |t: Point| in_cone(o, 0.0, 8.0, 45.0, t);
    assert!(grape(p(0.0, 8.0)), "at full range");
    assert!(!grape(p(0.0, 8.1)));
    assert!(grape(p(3.0, 4.0)), "5 inches at 36.9 degrees");
    assert!(!grape(p(4.0, 3.0)), "5 inches at 53.1 degrees");
    assert!(grape(p(5.6, 5.6)), "7.92 inches on the edge of the cone");
    assert!(!grape(p(5.7, 5.7)), "8.06 inches");
}

#[test]
fn scatter_moves_along_the_rolled_bearing() {
    assert_near(scatter(p(10.0, 10.0), 180.0, 3.0), p(10.0, 7.0));
    assert_near(scatter(p(10.0, 10.0), 270.0, 4.0), p(6.0, 10.0));
}

#[test]
fn segments_that_cross_touch_or_overlap_intersect() {
    let (a, b) = (p(0.0, 0.0), p(4.0, 4.0));
    assert!(segments_intersect(a, b, p(0.0, 4.0), p(4.0, 0.0)), "cross");
    assert!(segments_intersect(a, b, p(2.0, 2.0), p(5.0, 0.0)), "touch");
    assert!(
        segments_intersect(a, b, p(3.0, 3.0), p(6.0, 6.0)),
        "overlap"
    );
}

#[test]
fn segments_apart_do_not_intersect() {
    let (a, b) = (p(0.0, 0.0), p(4.0, 4.0));
    assert!(
        !segments_intersect(a, b, p(5.0, 5.0), p(6.0, 6.0)),
        "same line"
    );
    assert!(
        !segments_intersect(a, b, p(1.0, 0.0), p(5.0, 4.0)),
        "parallel"
    );
    assert!(!segments_intersect(a, b, p(3.0, 0.0), p(2.1, 1.9)), "short");
    assert!(!segments_intersect(a, b, p(f64::NAN, 0.0), p(2.0, 2.0)));
}

#[test]
fn point_segment_distance_to_the_middle_and_past_the_end() {
    let (a, b) = (p(0.0, 0.0), p(6.0, 0.0));
    assert_close(point_segment_distance(p(3.0, 4.0), a, b), 4.0);
    assert_close(point_segment_distance(p(10.0, 3.0), a, b), 5.0);
    assert_close(point_segment_distance(p(3.0, 4.0), a, a), 5.0);
}

#[test]
fn segment_segment_distance_between_ends_is_a_3_4_5_triangle() {
    // nearest ends (4, 0) and (7, 4)
    let d = segment_segment_distance(p(0.0, 0.0), p(4.0, 0.0), p(7.0, 4.0), p(7.0, 8.0));
    assert_close(d, 5.0);
    let crossing = segment_segment_distance(p(0.0, 0.0), p(4.0, 4.0), p(0.0, 4.0), p(4.0, 0.0));
    assert_eq!(crossing, 0.0);
}

#[test]
fn point_in_a_triangle_including_its_boundary() {
    let tri = [p(0.0, 0.0), p(4.0, 0.0), p(0.0, 3.0)];
    assert!(point_in_polygon(p(1.0, 1.0), &tri));
    assert!(point_in_polygon(p(4.0, 0.0), &tri), "vertex");
    assert!(point_in_polygon(p(2.0, 1.5), &tri), "on the hypotenuse");
    assert!(
        !point_in_polygon(p(3.0, 2.0), &tri),
        "beyond the hypotenuse"
    );
    assert!(!point_in_polygon(p(-0.1, 1.0), &tri));
}

#[test]
fn point_in_a_concave_l_shape() {
    let l = [
        p(0.0, 0.0),
        p(4.0, 0.0),
        p(4.0, 1.0),
        p(1.0, 1.0),
        p(1.0, 4.0),
        p(0.0, 4.0),
    ];
    assert!(point_in_polygon(p(3.0, 0.5), &l));
    assert!(point_in_polygon(p(0.5, 3.0), &l));
    assert!(!point_in_polygon(p(3.0, 3.0), &l), "in the notch");
}

#[test]
fn point_in_polygon_is_false_for_degenerate_input() {
    assert!(!point_in_polygon(p(0.0, 0.0), &[]));
    assert!(!point_in_polygon(p(0.0, 0.0), &[p(0.0, 0.0), p(1.0, 0.0)]));
    let tri = [p(0.0, 0.0), p(4.0, 0.0), p(0.0, 3.0)];
    assert!(!point_in_polygon(p(f64::NAN, 1.0), &tri));
}

#[test]
fn segment_intersects_polygon_when_crossing_or_inside() {
    let square = [p(0.0, 0.0), p(2.0, 0.0), p(2.0, 2.0), p(0.0, 2.0)];
    assert!(segment_intersects_polygon(
        p(-1.0, 1.0),
        p(3.0, 1.0),
        &square
    ));
    assert!(segment_intersects_polygon(
        p(0.5, 0.5),
        p(1.5, 1.5),
        &square
    ));
    assert!(
        segment_intersects_polygon(p(-1.0, 3.0), p(3.0, -1.0), &square),
        "corner"
    );
    assert!(!segment_intersects_polygon(
        p(-1.0, 3.0),
        p(3.0, 3.0),
        &square
    ));
    assert!(!segment_intersects_polygon(p(-1.0, 1.0), p(3.0, 1.0), &[]));
}

#[test]
fn segment_circle_distance_is_the_closest_approach_to_the_centre() {
    assert_close(
        segment_circle_distance(p(0.0, 0.0), p(6.0, 0.0), p(3.0, 4.0)),
        4.0,
    );
    assert_close(
        segment_circle_distance(p(0.0, 0.0), p(6.0, 0.0), p(9.0, 4.0)),
        5.0,
    );
}
