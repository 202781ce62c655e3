//! Unit tests of `terrain`.

use super::*;

fn p(x: f64, y: f64) -> Point {
    Point::new(x, y)
}

fn assert_close(a: Option<f64>, b: f64) {
    match a {
        Some(a) if (a - b).abs() < 1e-9 => {}
        _ => panic!("{a:?} is not {b}"),
    }
}

fn rect(x: f64, y: f64, width: f64, depth: f64) -> Shape {
    Shape::Rect { x, y, width, depth }
}

fn circle(x: f64, y: f64, radius: f64) -> Shape {
    Shape::Circle {
        centre: p(x, y),
        radius,
    }
}

fn line(points: &[(f64, f64)], width: f64) -> Shape {
    Shape::Line {
        points: points.iter().map(|&(x, y)| p(x, y)).collect(),
        width,
    }
}

#[test]
fn kind_names_are_snake_case() {
    assert_eq!(TerrainKind::Woods.name(), "woods");
    assert_eq!(TerrainKind::Hill(Slope::Rocky).name(), "hill");
    assert_eq!(TerrainKind::LinearObstacle.name(), "linear_obstacle");
    assert_eq!(TerrainKind::Hill(Slope::Rocky).slope(), Some(Slope::Rocky));
    assert_eq!(TerrainKind::Town.slope(), None);
}

#[test]
fn parse_reads_every_kind_back_from_its_name() {
    let kinds = [
        TerrainKind::Woods,
        TerrainKind::Town,
        TerrainKind::Road,
        TerrainKind::Stream,
        TerrainKind::LinearObstacle,
        TerrainKind::Fortification,
    ];
    for kind in kinds {
        assert_eq!(TerrainKind::parse(kind.name(), None), Ok(kind));
    }
}

#[test]
fn parse_hill_defaults_to_gentle() {
    assert_eq!(
        TerrainKind::parse("hill", None),
        Ok(TerrainKind::Hill(Slope::Gentle))
    );
    assert_eq!(
        TerrainKind::parse("hill", Some("steep")),
        Ok(TerrainKind::Hill(Slope::Steep))
    );
}

#[test]
fn parse_rejects_slopes_off_hills_and_unknown_names() {
    let off_hill = TerrainKind::parse("woods", Some("steep"))
        .unwrap_err()
        .to_string();
    assert_eq!(
        off_hill,
        "only hills have a slope, but woods was given slope `steep`"
    );
    let unknown = TerrainKind::parse("forest", None).unwrap_err().to_string();
    assert_eq!(
        unknown,
        "unknown terrain kind `forest`: expected one of woods, hill, town, road, \
             stream, linear_obstacle, fortification"
    );
    let slope = TerrainKind::parse("hill", Some("sheer"))
        .unwrap_err()
        .to_string();
    assert!(slope.contains("unknown slope `sheer`"), "{slope}");
}

#[test]
fn sight_blocking_defaults_by_kind() {
    assert!(TerrainKind::Woods.blocks_sight_by_default());
    assert!(TerrainKind::Town.blocks_sight_by_default());
    assert!(TerrainKind::Fortification.blocks_sight_by_default());
    for slope in Slope::ALL {
        assert!(TerrainKind::Hill(slope).blocks_sight_by_default());
    }
    assert!(!TerrainKind::Road.blocks_sight_by_default());
    assert!(!TerrainKind::Stream.blocks_sight_by_default());
    assert!(!TerrainKind::LinearObstacle.blocks_sight_by_default());
}

#[test]
fn rect_contains_its_inside_and_edges() {
    let wood = rect(10.0, 10.0, 6.0, 4.0);
    assert!(wood.contains(p(12.0, 12.0)));
    assert!(wood.contains(p(16.0, 14.0)), "far corner");
    assert!(!wood.contains(p(16.1, 12.0)));
    assert!(!wood.contains(p(f64::NAN, 12.0)));
}

#[test]
fn circle_contains_a_3_4_5_point_on_its_edge() {
    assert!(circle(0.0, 0.0, 5.0).contains(p(3.0, 4.0)));
    assert!(!circle(0.0, 0.0, 5.0).contains(p(3.0, 4.1)));
}

#[test]
fn line_contains_points_within_half_its_width_including_round_ends() {
    let road = line(&[(0.0, 0.0), (10.0, 0.0)], 2.0);
    assert!(road.contains(p(5.0, 1.0)));
    assert!(!road.contains(p(5.0, 1.1)));
    assert!(road.contains(p(-0.6, -0.8)), "1 inch from the end");
    assert!(!road.contains(p(-0.8, -0.8)));
    assert!(!line(&[(0.0, 0.0)], 2.0).contains(p(0.0, 0.0)));
}

#[test]
fn polygon_contains_and_empty_polygon_contains_nothing() {
    let tri = Shape::Polygon(vec![p(0.0, 0.0), p(4.0, 0.0), p(0.0, 3.0)]);
    assert!(tri.contains(p(1.0, 1.0)));
    assert!(!tri.contains(p(3.0, 2.0)));
    assert!(!Shape::Polygon(vec![]).contains(p(0.0, 0.0)));
    assert_eq!(
        Shape::Polygon(vec![]).entry_distance(p(0.0, 0.0), p(1.0, 1.0)),
        None
    );
}

#[test]
fn entry_distance_into_a_rect() {
    let wood = rect(10.0, 10.0, 6.0, 4.0);
    assert_close(wood.entry_distance(p(0.0, 12.0), p(20.0, 12.0)), 10.0);
    assert_close(wood.entry_distance(p(20.0, 12.0), p(0.0, 12.0)), 4.0);
    assert_close(wood.entry_distance(p(12.0, 12.0), p(0.0, 0.0)), 0.0);
    assert_eq!(wood.entry_distance(p(0.0, 0.0), p(20.0, 0.0)), None);
    assert_eq!(
        wood.entry_distance(p(0.0, 12.0), p(9.0, 12.0)),
        None,
        "stops short"
    );
}

#[test]
fn entry_distance_into_a_rect_on_a_3_4_5_path() {
    // from (7, 6) along (3, 4) per 5 inches: reaches the corner (10, 10) after 5
    let wood = rect(10.0, 10.0, 6.0, 4.0);
    assert_close(wood.entry_distance(p(7.0, 6.0), p(13.0, 14.0)), 5.0);
}

#[test]
fn entry_distance_along_an_edge_starts_where_the_edge_does() {
    let wood = rect(10.0, 10.0, 6.0, 4.0);
    assert_close(wood.entry_distance(p(0.0, 10.0), p(20.0, 10.0)), 10.0);
}

#[test]
fn entry_distance_along_a_flat_polygon_meets_its_end() {
    // invalid (no area) but still touched: every edge is parallel to the path
    let flat = Shape::Polygon(vec![p(10.0, 0.0), p(15.0, 0.0), p(20.0, 0.0)]);
    assert_close(flat.entry_distance(p(0.0, 0.0), p(30.0, 0.0)), 10.0);
    assert_close(flat.entry_distance(p(30.0, 0.0), p(0.0, 0.0)), 10.0);
    assert_eq!(flat.entry_distance(p(0.0, 1.0), p(30.0, 1.0)), None);
}

#[test]
fn entry_distance_into_a_circle() {
    let pond = circle(6.0, 0.0, 2.0);
    assert_close(pond.entry_distance(p(0.0, 0.0), p(10.0, 0.0)), 4.0);
    // 10 inches to the centre along a 3-4-5 line, less the radius of 5
    let hill = circle(6.0, 8.0, 5.0);
    assert_close(hill.entry_distance(p(0.0, 0.0), p(12.0, 16.0)), 5.0);
    assert_eq!(hill.entry_distance(p(0.0, 0.0), p(1.8, 2.4)), None, "short");
    assert_eq!(
        pond.entry_distance(p(0.0, 3.0), p(10.0, 3.0)),
        None,
        "misses"
    );
    assert_eq!(
        pond.entry_distance(p(10.0, 0.0), p(20.0, 0.0)),
        None,
        "behind"
    );
}

#[test]
fn entry_distance_from_inside_or_on_a_circle_is_zero() {
    let hill = circle(0.0, 0.0, 5.0);
    assert_close(hill.entry_distance(p(3.0, 4.0), p(20.0, 0.0)), 0.0);
    assert_close(hill.entry_distance(p(2.9, 4.0), p(20.0, 0.0)), 0.0);
}

#[test]
fn a_path_ending_on_a_circle_edge_touches_it() {
    // (3, 4) is 5 from (6, 8): on the edge, though rounding puts the root past the end
    let hill = circle(6.0, 8.0, 5.0);
    let (a, b) = (p(0.1, 0.2), p(3.0, 4.0));
    assert_close(hill.entry_distance(a, b), a.distance(b));
}

#[test]
fn entry_distance_into_a_line_across_it() {
    // a stream along x = 10, 2 inches wide: its bank is at x = 9
    let stream = line(&[(10.0, 0.0), (10.0, 20.0)], 2.0);
    assert_close(stream.entry_distance(p(0.0, 5.0), p(20.0, 5.0)), 9.0);
    // along (3, 4) per 5: x reaches 9 after 15 inches
    assert_close(stream.entry_distance(p(0.0, 0.0), p(12.0, 16.0)), 15.0);
}

#[test]
fn entry_distance_into_a_line_through_its_round_end() {
    let wall = line(&[(10.0, 0.0), (20.0, 0.0)], 2.0);
    assert_close(wall.entry_distance(p(0.0, 0.0), p(30.0, 0.0)), 9.0);
    // passing 0.8 south of the end: the cap reaches x = 10 - 0.6
    assert_close(wall.entry_distance(p(0.0, -0.8), p(30.0, -0.8)), 9.4);
    assert_eq!(wall.entry_distance(p(0.0, -1.2), p(30.0, -1.2)), None);
}

#[test]
fn entry_distance_into_a_bent_line_finds_the_nearest_leg() {
    // a road north-south along x = 10 below y = 10, then west along y = 10
    let road = line(&[(0.0, 10.0), (10.0, 10.0), (10.0, 0.0)], 2.0);
    assert_close(road.entry_distance(p(20.0, 5.0), p(0.0, 5.0)), 9.0);
    assert_close(road.entry_distance(p(5.0, 0.0), p(5.0, 20.0)), 9.0);
    assert_close(road.entry_distance(p(10.5, 5.0), p(0.0, 5.0)), 0.0);
}

#[test]
fn entry_distance_is_none_for_nan() {
    let wood = rect(10.0, 10.0, 6.0, 4.0);
    assert_eq!(wood.entry_distance(p(f64::NAN, 0.0), p(20.0, 12.0)), None);
    assert!(!circle(0.0, 0.0, f64::NAN).crossed_by(p(-5.0, 0.0), p(5.0, 0.0)));
}

#[test]
fn validate_accepts_good_shapes() {
    assert_eq!(rect(0.0, 0.0, 1.0, 1.0).validate(), Ok(()));
    assert_eq!(circle(0.0, 0.0, 1.0).validate(), Ok(()));
    assert_eq!(line(&[(0.0, 0.0), (1.0, 0.0)], 1.0).validate(), Ok(()));
    let tri = Shape::Polygon(vec![p(0.0, 0.0), p(4.0, 0.0), p(0.0, 3.0)]);
    assert_eq!(tri.validate(), Ok(()));
}

#[test]
fn validate_rejects_too_few_points_and_bad_sizes() {
    let two = Shape::Polygon(vec![p(0.0, 0.0), p(1.0, 0.0)]);
    assert_eq!(
        two.validate().map_err(|e| e.to_string()),
        Err("polygon needs at least 3 points, got 2".into())
    );
    let flat = Shape::Polygon(vec![p(0.0, 0.0), p(1.0, 1.0), p(2.0, 2.0)]);
    assert!(flat.validate().unwrap_err().to_string().contains("no area"));
    assert_eq!(
        line(&[(0.0, 0.0)], 1.0)
            .validate()
            .map_err(|e| e.to_string()),
        Err("line needs at least 2 points, got 1".into())
    );
    assert_eq!(
        circle(0.0, 0.0, -1.0).validate().map_err(|e| e.to_string()),
        Err("circle radius must be a positive number of inches, got -1".into())
    );
    assert!(
        rect(0.0, 0.0, f64::NAN, 1.0)
            .validate()
            .unwrap_err()
            .to_string()
            .contains("rect width")
    );
    assert!(
        circle(f64::INFINITY, 0.0, 1.0)
            .validate()
            .unwrap_err()
            .to_string()
            .contains("centre")
    );
}

#[test]
fn feature_new_takes_sight_blocking_from_its_kind() {
    assert!(Feature::new("copse", TerrainKind::Woods, circle(0.0, 0.0, 3.0)).blocks_sight);
    let road = Feature::new(
        "road",
        TerrainKind::Road,
        line(&[(0.0, 0.0), (1.0, 0.0)], 1.0),
    );
    assert!(!road.blocks_sight);
}

#[test]
fn feature_spec_reads_kind_slope_and_optional_sight() {
    let spec = FeatureSpec {
        name: "ridge".into(),
        kind: "hill".into(),
        slope: Some("steep".into()),
        shape: circle(0.0, 0.0, 3.0),
        blocks_sight: None,
    };
    let ridge = Feature::try_from(spec).unwrap();
    assert_eq!(ridge.kind, TerrainKind::Hill(Slope::Steep));
    assert!(ridge.blocks_sight);
    let back = FeatureSpec::from(ridge.clone());
    assert_eq!(
        (back.kind.as_str(), back.slope.as_deref()),
        ("hill", Some("steep"))
    );
    assert_eq!(back.blocks_sight, None, "default not written");
    assert_eq!(Feature::try_from(back), Ok(ridge));
}

#[test]
fn feature_spec_rejects_bad_kind_and_shape_naming_the_feature() {
    let spec = |kind: &str, shape: Shape| FeatureSpec {
        name: "copse".into(),
        kind: kind.into(),
        slope: None,
        shape,
        blocks_sight: Some(false),
    };
    let bad_kind = Feature::try_from(spec("forest", circle(0.0, 0.0, 1.0)))
        .unwrap_err()
        .to_string();
    assert!(
        bad_kind.starts_with("terrain `copse`: unknown terrain kind"),
        "{bad_kind}"
    );
    let bad_shape = Feature::try_from(spec("woods", circle(0.0, 0.0, 0.0)))
        .unwrap_err()
        .to_string();
    assert!(
        bad_shape.starts_with("terrain `copse`: circle radius"),
        "{bad_shape}"
    );
    let open = Feature::try_from(spec("woods", circle(0.0, 0.0, 1.0))).unwrap();
    assert!(!open.blocks_sight, "override kept");
}

fn stream_and_wood() -> Terrain {
    Terrain {
        features: vec![
            Feature::new("wood", TerrainKind::Woods, rect(20.0, 0.0, 10.0, 10.0)),
            Feature::new(
                "stream",
                TerrainKind::Stream,
                line(&[(10.0, -10.0), (10.0, 20.0)], 2.0),
            ),
        ],
    }
}

#[test]
fn a_path_across_a_stream_into_a_wood_reports_both_in_order() {
    // stream bank at 9 inches, wood edge at 20: stream first though listed second
    let terrain = stream_and_wood();
    assert_eq!(terrain.crossed_by(p(0.0, 5.0), p(25.0, 5.0)), vec![1, 0]);
    assert_eq!(terrain.crossed_by(p(25.0, 5.0), p(0.0, 5.0)), vec![0, 1]);
    assert_eq!(
        terrain.crossed_by(p(0.0, 5.0), p(5.0, 5.0)),
        Vec::<usize>::new()
    );
}

#[test]
fn crossed_by_breaks_ties_by_index() {
    let terrain = Terrain {
        features: vec![
            Feature::new("north", TerrainKind::Woods, rect(10.0, 0.0, 5.0, 5.0)),
            Feature::new("south", TerrainKind::Woods, rect(10.0, -5.0, 5.0, 5.0)),
        ],
    };
    assert_eq!(terrain.crossed_by(p(0.0, 0.0), p(20.0, 0.0)), vec![0, 1]);
}

#[test]
fn a_point_in_a_rect_wood_is_at_the_wood() {
    let terrain = stream_and_wood();
    assert_eq!(terrain.at(p(25.0, 5.0)), vec![0]);
    assert_eq!(terrain.at(p(10.5, 5.0)), vec![1]);
    assert_eq!(terrain.at(p(0.0, 0.0)), Vec::<usize>::new());
}

fn hill_between() -> Terrain {
    let hill = TerrainKind::Hill(Slope::Gentle);
    let road = line(&[(0.0, 20.0), (30.0, 20.0)], 3.0);
    Terrain {
        features: vec![
            Feature::new("road", TerrainKind::Road, road),
            Feature::new("hill", hill, circle(15.0, 0.0, 5.0)),
        ],
    }
}

#[test]
fn a_hill_between_two_points_blocks_sight() {
    assert_eq!(
        hill_between().sight_blocker(p(0.0, 0.0), p(30.0, 0.0)),
        Some(1)
    );
}

#[test]
fn an_observer_on_the_hill_sees_over_it_and_is_seen() {
    let terrain = hill_between();
    assert_eq!(terrain.sight_blocker(p(13.0, 0.0), p(30.0, 0.0)), None);
    assert_eq!(terrain.sight_blocker(p(30.0, 0.0), p(13.0, 0.0)), None);
}

#[test]
fn a_road_does_not_block_sight() {
    assert_eq!(
        hill_between().sight_blocker(p(0.0, 20.0), p(30.0, 20.0)),
        None
    );
    assert_eq!(
        hill_between().sight_blocker(p(5.0, 10.0), p(5.0, 30.0)),
        None
    );
}

#[test]
fn sight_blocker_is_the_first_along_the_line() {
    let terrain = Terrain {
        features: vec![
            Feature::new("far", TerrainKind::Town, rect(20.0, -1.0, 2.0, 2.0)),
            Feature::new("near", TerrainKind::Woods, rect(10.0, -1.0, 2.0, 2.0)),
        ],
    };
    assert_eq!(terrain.sight_blocker(p(0.0, 0.0), p(30.0, 0.0)), Some(1));
    assert_eq!(terrain.sight_blocker(p(30.0, 0.0), p(0.0, 0.0)), Some(0));
}

#[test]
fn a_sampled_path_counts_the_middles_in_matching_ground() {
    let t = Terrain {
        features: vec![
            Feature::new("copse", TerrainKind::Woods, rect(2.0, -1.0, 2.0, 2.0)),
            Feature::new("lane", TerrainKind::Road, rect(0.0, -1.0, 10.0, 2.0)),
        ],
    };
    let woods = |f: &Feature| f.kind == TerrainKind::Woods;
    // 10" in tenths: 100 steps, middles at 0.05, 0.15, ...; 20 of them between 2 and 4.
    let s = t.sample_path(p(0.0, 0.0), p(10.0, 0.0), 10.0, woods);
    assert_eq!((s.steps, s.inside, s.features.clone()), (100, 20, vec![0]));
    assert!((s.step - 0.1).abs() < 1e-12);
    // Every feature matches: the lane at every middle, met first.
    let all = t.sample_path(p(0.0, 0.0), p(10.0, 0.0), 10.0, |_| true);
    assert_eq!((all.inside, all.features), (100, vec![1, 0]));
    // A short path still has one step; a path of no length has none.
    assert_eq!(
        t.sample_path(p(0.0, 0.0), p(0.01, 0.0), 10.0, woods).steps,
        1
    );
    assert_eq!(
        t.sample_path(p(3.0, 0.0), p(3.0, 0.0), 10.0, woods).steps,
        0
    );
}
