//! Unit tests of `scenario`.

use super::*;
use crate::host::geometry::compass_bearing;

#[test]
fn an_edge_lies_along_its_compass_bearing() {
    for edge in [Edge::North, Edge::East, Edge::South, Edge::West] {
        let word = format!("{edge:?}").to_lowercase();
        assert_eq!(Some(edge.bearing()), compass_bearing(&word), "{word}");
    }
}
