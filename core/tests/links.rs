//! Off-mesh links in every search: a one-way drop joins two rooms one way only, a link dearer
//! than walking round is left, the corridor search's cost is brute-force Dijkstra's over its
//! graph with the links' edges, and Polyanya with links is exact against the visibility graph
//! with the links' edges added (random maps, random links), the A* and funnel path never
//! cheaper than it.

mod common;
use common::visibility::{OracleLink, on_mesh, oracle_with_links};
use navlab_core::geom::Vec2;
use navlab_core::grid::{Tile, TileMap};
use navlab_core::navmesh::anyangle::{OptimalPath, SearchFaces, shortest_path_walking};
use navlab_core::navmesh::links::{
    LinkCost, LinkKind, LinkParseError, LinkProblem, OffMeshLink, PathSegment, parse_link,
    path_cost,
};
use navlab_core::navmesh::query::{CostModel, Path, PathStatus, QueryOptions, find_path};
use navlab_core::navmesh::{NavMesh, areas::AreaCosts};
use navlab_core::search::NoObserver;
use proptest::prelude::*;

const MODELS: [CostModel; 3] = [
    CostModel::Centroid,
    CostModel::Midpoint,
    CostModel::Straight,
];

fn p(x: f64, y: f64) -> Vec2 {
    Vec2::new(x, y)
}

/// Two square rooms four apart side by side, not joined: [0, 4]² and [6, 10] × [0, 4].
fn two_rooms() -> NavMesh {
    common::mesh_2d(
        &[
            (0.0, 0.0),
            (4.0, 0.0),
            (4.0, 4.0),
            (0.0, 4.0),
            (6.0, 0.0),
            (10.0, 0.0),
            (10.0, 4.0),
            (6.0, 4.0),
        ],
        &[&[0, 1, 2, 3], &[4, 5, 6, 7]],
    )
}

fn corridor_path(mesh: &NavMesh, from: Vec2, to: Vec2, cost: CostModel) -> Path {
    let options = QueryOptions {
        cost,
        ..QueryOptions::default()
    };
    find_path(mesh, from, to, options, &mut NoObserver, &mut NoObserver).expect("a query")
}

/// Polyanya, walking polygons and triangles (which must agree).
fn optimal(mesh: &NavMesh, from: Vec2, to: Vec2) -> OptimalPath {
    let (s, t) = (
        mesh.locate(from).expect("start"),
        mesh.locate(to).expect("goal"),
    );
    let walk = |faces| shortest_path_walking(mesh, s, t, faces, &mut NoObserver);
    let (polygons, triangles) = (walk(SearchFaces::Polygons), walk(SearchFaces::Triangles));
    assert_eq!(polygons.is_found(), triangles.is_found(), "{from} → {to}");
    if polygons.is_found() {
        assert!(
            (polygons.cost - triangles.cost).abs() <= 1e-9 * polygons.cost.max(1.0),
            "{from} → {to}: {} on polygons, {} on triangles",
            polygons.cost,
            triangles.cost
        );
    }
    polygons
}

fn links_crossed(segments: &[PathSegment]) -> Vec<usize> {
    segments
        .iter()
        .filter_map(|s| s.link.map(|l| l.link))
        .collect()
}

/// Checks that each link segment runs from the link's start to its end (as crossed), each walk
/// stays on the mesh, the segments cover the waypoints in order, and the cost is the walks'
/// length plus the links' costs.
fn check_segments(mesh: &NavMesh, waypoints: &[Vec2], segments: &[PathSegment], cost: f64) {
    assert!(!segments.is_empty());
    assert_eq!(segments[0].first, 0);
    assert_eq!(segments.last().map(|s| s.last), Some(waypoints.len() - 1));
    for pair in segments.windows(2) {
        assert_eq!(pair[0].last, pair[1].first, "{segments:?}");
    }
    let placed = mesh.placed_links();
    for s in segments {
        match s.link {
            Some(l) => {
                assert_eq!(s.last, s.first + 1);
                let crossing = placed
                    .crossings()
                    .iter()
                    .find(|c| c.link == l.link && c.reversed == l.reversed)
                    .expect("the crossing");
                assert_eq!(waypoints[s.first], crossing.from.point);
                assert_eq!(waypoints[s.last], crossing.to.point);
            }
            None => assert!(on_mesh(mesh, &waypoints[s.first..=s.last])),
        }
    }
    let want = path_cost(waypoints, segments);
    assert!(
        (cost - want).abs() <= 1e-9 * want.max(1.0),
        "{cost} against {want}"
    );
}

#[test]
fn a_one_way_drop_joins_two_rooms_one_way_only() {
    let drop = OffMeshLink::new(p(3.5, 2.0), p(6.5, 2.0))
        .kind(LinkKind::Drop)
        .one_way();
    let mesh = two_rooms().with_links(vec![drop]).expect("links");
    let (a, b) = (p(1.0, 1.0), p(9.0, 3.0));
    for cost in MODELS {
        let there = corridor_path(&mesh, a, b, cost);
        assert_eq!(there.status, PathStatus::Found, "{cost:?}");
        assert_eq!(links_crossed(&there.segments), vec![0], "{cost:?}");
        check_segments(&mesh, &there.waypoints, &there.segments, there.cost);
        let want = a.distance(p(3.5, 2.0)) + 3.0 + p(6.5, 2.0).distance(b);
        assert!((there.cost - want).abs() < 1e-9, "{cost:?}: {}", there.cost);
        let back = corridor_path(&mesh, b, a, cost);
        assert_eq!(back.status, PathStatus::Unreachable, "{cost:?}");
    }
    let there = optimal(&mesh, a, b);
    assert!(there.is_found());
    assert_eq!(links_crossed(&there.segments), vec![0]);
    check_segments(&mesh, &there.waypoints, &there.segments, there.cost);
    let back = optimal(&mesh, b, a);
    assert!(!back.is_found());
    assert!(
        !back.connected,
        "no way back: the islands are not joined that way"
    );
    // Both ways, the way back crosses it reversed.
    let both = two_rooms()
        .with_links(vec![OffMeshLink::new(p(3.5, 2.0), p(6.5, 2.0))])
        .expect("links");
    let back = corridor_path(&both, b, a, CostModel::Straight);
    assert_eq!(back.status, PathStatus::Found);
    assert!(
        back.segments
            .iter()
            .any(|s| s.link.is_some_and(|l| l.reversed))
    );
    assert!(optimal(&both, b, a).is_found());
}

/// A U: two arms joined at the bottom, so the arms' tops are 14 apart walking and 2 apart
/// across the gap between them.
fn u_shape() -> NavMesh {
    common::mesh_2d(
        &[
            (0.0, 0.0),
            (6.0, 0.0),
            (6.0, 2.0),
            (0.0, 2.0),
            (0.0, 6.0),
            (2.0, 6.0),
            (2.0, 2.0),
            (4.0, 2.0),
            (4.0, 6.0),
            (6.0, 6.0),
        ],
        &[&[0, 1, 2, 7, 6, 3], &[3, 6, 5, 4], &[7, 2, 9, 8]],
    )
}

#[test]
fn a_link_dearer_than_walking_round_is_left_and_a_cheap_one_taken() {
    let (a, b) = (p(1.0, 5.0), p(5.0, 5.0));
    let walk = optimal(&u_shape(), a, b);
    assert!(walk.is_found());
    let across = |cost: f64| {
        u_shape()
            .with_links(vec![
                OffMeshLink::new(p(1.8, 5.0), p(4.2, 5.0)).costing(LinkCost::Fixed(cost)),
            ])
            .expect("links")
    };
    // Dearer than the walk round: left, by every search. (The corridor models price a walk
    // above its length, the midpoint model most: half as much again is clear of them all.)
    let dear = across(1.5 * walk.length);
    for cost in MODELS {
        let path = corridor_path(&dear, a, b, cost);
        assert!(links_crossed(&path.segments).is_empty(), "{cost:?}");
    }
    let exact = optimal(&dear, a, b);
    assert!(links_crossed(&exact.segments).is_empty());
    // At exactly the walk's length the exact search may take either; a hair more, the walk.
    let exact = optimal(&across(walk.length + 1e-6), a, b);
    assert!(links_crossed(&exact.segments).is_empty());
    assert!((exact.cost - walk.length).abs() < 1e-9);
    // Cheap: taken, and the cost is the walks' plus the link's.
    let cheap = across(1.0);
    let exact = optimal(&cheap, a, b);
    assert_eq!(links_crossed(&exact.segments), vec![0]);
    assert!(
        (exact.cost - (0.8 + 1.0 + 0.8)).abs() < 1e-9,
        "{}",
        exact.cost
    );
    for cost in MODELS {
        let path = corridor_path(&cheap, a, b, cost);
        assert_eq!(links_crossed(&path.segments), vec![0], "{cost:?}");
        assert!(
            (path.cost - exact.cost).abs() < 1e-9,
            "{cost:?}: {}",
            path.cost
        );
    }
}

#[test]
fn the_path_json_marks_the_link_segments() {
    let mesh = two_rooms()
        .with_links(vec![
            OffMeshLink::new(p(3.5, 2.0), p(6.5, 2.0)).kind(LinkKind::Drop),
        ])
        .expect("links");
    let path = corridor_path(&mesh, p(1.0, 2.0), p(9.0, 2.0), CostModel::Centroid);
    let json = path.to_json();
    let kinds: Vec<&str> = json["segments"]
        .as_array()
        .expect("segments")
        .iter()
        .map(|s| s["kind"].as_str().expect("kind"))
        .collect();
    assert_eq!(kinds, ["walk", "link", "walk"]);
    let link = &json["segments"][1];
    assert_eq!(link["link"], 0);
    assert_eq!(link["link_kind"], "drop");
    assert_eq!(
        json["waypoints"][link["from"].as_u64().expect("from") as usize][0],
        3.5
    );
    assert_eq!(
        json["waypoints"][link["to"].as_u64().expect("to") as usize][0],
        6.5
    );
    assert!((json["cost"].as_f64().expect("cost") - 8.0).abs() < 1e-12);
    // Without links: one walk, the cost its length.
    let plain = corridor_path(&two_rooms(), p(1.0, 2.0), p(3.0, 2.0), CostModel::Centroid);
    let json = plain.to_json();
    assert_eq!(json["segments"][0]["kind"], "walk");
    assert_eq!(json["cost"], json["length"]);
}

#[test]
fn links_read_from_text_and_written_back() {
    let names = navlab_core::navmesh::areas::built_in_names();
    let link = parse_link("1,2:3.5,4,-1,cost=2x,kind=ladder,oneway", &names).expect("parses");
    assert_eq!(link.from, p(1.0, 2.0));
    assert_eq!((link.to, link.to_height), (p(3.5, 4.0), Some(-1.0)));
    assert_eq!(link.cost, LinkCost::PerLength(2.0));
    assert_eq!(link.kind, LinkKind::Ladder);
    assert!(!link.both_ways);
    assert_eq!(parse_link(&link.to_text(&names), &names), Ok(link));
    let fixed = parse_link("0,0,1:5,0,cost=4", &names).expect("parses");
    assert_eq!(
        (fixed.from_height, fixed.cost),
        (Some(1.0), LinkCost::Fixed(4.0))
    );
    let water = parse_link(&format!("0,0:1,1,area={}", names[1]), &names).expect("parses");
    assert_eq!(water.area, Some(1));
    for (bad, why) in [
        ("1,2", LinkParseError::Shape),
        ("1,2:3", LinkParseError::Shape),
        ("1,2:3,4,wings", LinkParseError::Option),
        ("1,2:3,4,kind=fly", LinkParseError::Kind),
        ("1,2:3,nan", LinkParseError::Problem(LinkProblem::NotFinite)),
    ] {
        assert_eq!(parse_link(bad, &names), Err(why), "{bad}");
    }
    assert!(matches!(
        parse_link("1,2:3,4,cost=-1", &names),
        Err(LinkParseError::Problem(_))
    ));
    assert!(matches!(
        parse_link("1,2:3,4,area=lava", &names),
        Err(LinkParseError::Area { .. })
    ));
    assert!(
        two_rooms()
            .with_links(vec![OffMeshLink::new(p(f64::NAN, 0.0), p(1.0, 1.0))])
            .is_err()
    );
}

/// The centroid model's corridor cost is brute-force Dijkstra's over the centroid graph with
/// each link an edge: from the centroid of the triangle its start is in, to its start, across,
/// and on to the centroid of the triangle its end is in. Free teleports make the estimate
/// scale down to nothing; it must stay admissible.
#[test]
fn the_centroid_search_with_links_costs_what_dijkstra_says() {
    let mesh = u_shape();
    let placements = [
        vec![OffMeshLink::new(p(1.0, 5.5), p(5.0, 5.5)).costing(LinkCost::Fixed(0.0))],
        vec![
            OffMeshLink::new(p(0.5, 0.5), p(5.5, 5.5))
                .kind(LinkKind::Teleport)
                .costing(LinkCost::PerLength(0.1))
                .one_way(),
            OffMeshLink::new(p(1.5, 3.0), p(4.5, 3.0)).costing(LinkCost::Fixed(0.5)),
        ],
    ];
    for links in placements {
        let mesh = mesh.clone().with_links(links.clone()).expect("links");
        let tris = mesh.triangles();
        let mut edges = common::centroid_graph(&mesh);
        for c in mesh.placed_links().crossings() {
            let (a, b) = (c.from.triangle, c.to.triangle);
            let cost = links[c.link].cost_under(&AreaCosts::default());
            let step = tris[a].centroid.distance(c.from.point)
                + cost
                + c.to.point.distance(tris[b].centroid);
            edges.push((a, b, step));
        }
        for (from, to) in [(p(1.0, 1.0), p(5.0, 5.0)), (p(5.0, 5.0), p(0.5, 5.5))] {
            let path = corridor_path(&mesh, from, to, CostModel::Centroid);
            let (s, t) = (mesh.locate(from).expect("s"), mesh.locate(to).expect("t"));
            let want = common::dijkstra_oracle(tris.len(), &edges, s.triangle)[t.triangle];
            assert!(
                (path.corridor_cost - want).abs() < 1e-9,
                "{from} → {to}: {} against Dijkstra's {want}",
                path.corridor_cost
            );
        }
    }
}

fn arb_case() -> impl Strategy<Value = (Vec<bool>, Vec<(usize, usize)>, Vec<LinkPick>)> {
    (
        prop::collection::vec(prop::bool::weighted(0.3), 9 * 7),
        prop::collection::vec((0usize..9, 0usize..7), 4),
        prop::collection::vec(arb_link(), 1..4),
    )
}

/// A link between points of two open cells (by their number among the open cells; a point a
/// quarter or three quarters across), its cost as a multiplier or fixed, one way or both.
#[derive(Debug, Clone)]
struct LinkPick {
    from: (usize, bool),
    to: (usize, bool),
    cost: LinkCost,
    one_way: bool,
}

fn arb_link() -> impl Strategy<Value = LinkPick> {
    (
        (0usize..64, any::<bool>()),
        (0usize..64, any::<bool>()),
        prop_oneof![
            (0.0f64..1.5).prop_map(LinkCost::PerLength),
            (0.0f64..4.0).prop_map(LinkCost::Fixed)
        ],
        any::<bool>(),
    )
        .prop_map(|(from, to, cost, one_way)| LinkPick {
            from,
            to,
            cost,
            one_way,
        })
}

fn cell_point((x, y): (usize, usize), far: bool) -> Vec2 {
    let t = if far { 0.75 } else { 0.3 };
    p(x as f64 + t, y as f64 + 1.0 - t)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: common::cases_or(1_000),
        ..ProptestConfig::default()
    })]

    /// On meshes of random 9 × 7 maps with one to three random links: Polyanya's cost is the
    /// visibility graph's with the links' edges, on polygons and on triangles; its path crosses
    /// links from their start to their end and walks on the mesh; A* and the funnel, in every
    /// cost model, are never cheaper, and find a path exactly when it does.
    #[test]
    fn polyanya_with_links_is_exact((walls, picks, link_picks) in arb_case()) {
        let rows: Vec<Vec<Tile>> = walls
            .chunks(9)
            .map(|r| r.iter().map(|&w| if w { Tile::Wall } else { Tile::Grass }).collect())
            .collect();
        let map = TileMap::from_rows(rows).expect("map");
        let Ok(mesh) = navlab_core::navmesh::from_map::navmesh_from_map(&map, 0.0) else {
            return Ok(());
        };
        let open: Vec<(usize, usize)> = (0..7)
            .flat_map(|y| (0..9).map(move |x| (x, y)))
            .filter(|&c| map.get(c) == Some(Tile::Grass))
            .collect();
        if open.is_empty() {
            return Ok(());
        }
        let point = |(k, far): (usize, bool)| cell_point(open[k % open.len()], far);
        let links: Vec<OffMeshLink> = link_picks
            .iter()
            .map(|l| {
                let link = OffMeshLink::new(point(l.from), point(l.to)).costing(l.cost);
                if l.one_way { link.one_way() } else { link }
            })
            .collect();
        let mesh = mesh.with_links(links.clone()).expect("links");
        let mut oracle_links = Vec::new();
        for link in &links {
            let cost = link.cost_under(&AreaCosts::default());
            oracle_links.push(OracleLink { from: link.from, to: link.to, cost });
            if link.both_ways {
                oracle_links.push(OracleLink { from: link.to, to: link.from, cost });
            }
        }
        let points: Vec<Vec2> = picks
            .iter()
            .filter(|&&(x, y)| map.get((x, y)) == Some(Tile::Grass))
            .map(|&(x, y)| p(x as f64 + 0.5, y as f64 + 0.5))
            .collect();
        for pair in points.windows(2) {
            let (from, to) = (pair[0], pair[1]);
            let want = oracle_with_links(&mesh, from, to, &oracle_links);
            let got = optimal(&mesh, from, to);
            if !want.is_finite() {
                prop_assert!(!got.is_found(), "{from} → {to}: found {} where none is", got.cost);
                continue;
            }
            prop_assert!(got.is_found(), "{from} → {to}: none found, the oracle's {want}");
            prop_assert!((got.cost - want).abs() <= 1e-9 * want.max(1.0),
                "{from} → {to}: {} against the oracle's {want}: {:?}", got.cost, got.segments);
            check_segments(&mesh, &got.waypoints, &got.segments, got.cost);
            for cost in MODELS {
                let path = corridor_path(&mesh, from, to, cost);
                prop_assert!(path.status != PathStatus::Unreachable, "{cost:?}: {from} → {to}");
                prop_assert!(path.cost >= want - 1e-9 * want.max(1.0),
                    "{cost:?}: {from} → {to}: {} cheaper than the optimum {want}", path.cost);
                check_segments(&mesh, &path.waypoints, &path.segments, path.cost);
            }
        }
    }
}

/// Links are edits: added, kept through a cut, undone and redone, and the edited mesh's
/// searches cross them.
#[test]
fn links_are_edits_kept_through_cuts_and_undone() {
    use navlab_core::navmesh::edit::{MeshEditor, Shape, ShapeKind};
    let mut editor = MeshEditor::new(std::sync::Arc::new(two_rooms()));
    let (a, b) = (p(1.0, 2.0), p(9.0, 2.0));
    let reach = |editor: &MeshEditor| {
        corridor_path(editor.mesh(), a, b, CostModel::Straight).status == PathStatus::Found
    };
    assert!(!reach(&editor));
    let link = OffMeshLink::new(p(3.5, 2.0), p(6.5, 2.0));
    assert_eq!(editor.add_link(link.clone()), Ok(0));
    assert!(reach(&editor));
    assert_eq!(editor.mesh().links(), std::slice::from_ref(&link));
    // An obstacle cut elsewhere keeps the link, placed on the cut triangles.
    let rect = Shape::rectangle(p(7.0, 0.5), p(8.0, 3.5), ShapeKind::Obstacle).expect("rect");
    editor.add_shape(rect).expect("cut");
    assert_eq!(editor.mesh().links().len(), 1);
    assert!(reach(&editor));
    editor
        .replace_link(0, link.clone().one_way().kind(LinkKind::Drop))
        .expect("replaced");
    assert!(!editor.mesh().links()[0].both_ways);
    editor.remove_link(0).expect("removed");
    assert!(!reach(&editor));
    assert!(editor.undo());
    assert!(reach(&editor));
    assert!(editor.undo() && editor.undo());
    assert!(reach(&editor), "the link back as it was added");
    assert!(editor.undo());
    assert!(!reach(&editor) && editor.mesh().links().is_empty());
    assert!(editor.redo());
    assert!(reach(&editor));
    assert!(editor.remove_link(5).is_err());
    let bad = OffMeshLink::new(p(f64::INFINITY, 0.0), p(1.0, 1.0));
    assert!(editor.add_link(bad).is_err());
    assert_eq!(
        editor.mesh().links().len(),
        1,
        "a refused link leaves the mesh as it was"
    );
    // Several links at once: one edit, undone in one step; one bad link refuses them all.
    let more = vec![
        OffMeshLink::new(p(3.5, 1.0), p(6.5, 1.0)),
        OffMeshLink::new(p(3.5, 3.0), p(6.5, 3.0)).one_way(),
    ];
    assert_eq!(editor.add_links(more.clone()), Ok(1..3));
    assert_eq!(editor.mesh().links().get(1..), Some(more.as_slice()));
    assert!(editor.undo());
    assert_eq!(editor.mesh().links().len(), 1);
    let with_bad = vec![
        OffMeshLink::new(p(3.5, 1.0), p(6.5, 1.0)),
        OffMeshLink::new(p(f64::NAN, 0.0), p(1.0, 1.0)),
    ];
    assert!(editor.add_links(with_bad).is_err());
    assert_eq!(editor.mesh().links().len(), 1);
}

/// The sentence for a link the shortest path leaves says what the way through it would cost
/// against walking round; for one it takes, what walking round would cost.
#[test]
fn each_links_verdict_says_why_with_both_costs() {
    use navlab_core::navmesh::link_choice::weigh_links;
    let (a, b) = (p(1.0, 5.0), p(5.0, 5.0));
    let walk = optimal(&u_shape(), a, b).cost;
    for (fixed, taken) in [(20.0, false), (1.0, true)] {
        let mesh = u_shape()
            .with_links(vec![
                OffMeshLink::new(p(1.8, 5.0), p(4.2, 5.0)).costing(LinkCost::Fixed(fixed)),
            ])
            .expect("links");
        let (s, t) = (mesh.locate(a).expect("s"), mesh.locate(b).expect("t"));
        let verdicts = weigh_links(&mesh, s, t);
        assert_eq!(verdicts.len(), 1);
        let v = &verdicts[0];
        assert_eq!(v.taken, taken);
        let sentence = v.sentence();
        if taken {
            assert!((v.path_cost - 2.6).abs() < 1e-9, "{sentence}");
            assert!((v.other_cost - walk).abs() < 1e-9, "{sentence}");
            assert!(sentence.contains("is taken") && sentence.contains(&format!("{walk:.2}")));
        } else {
            assert!((v.path_cost - walk).abs() < 1e-9, "{sentence}");
            assert!(
                (v.other_cost - (0.8 + 20.0 + 0.8)).abs() < 1e-9,
                "{sentence}"
            );
            assert!(
                sentence.contains("is not taken")
                    && sentence.contains("21.60")
                    && sentence.contains(&format!("{walk:.2}")),
                "{sentence}"
            );
        }
    }
}

/// A*'s steps name the link they cross, in every cost model, and Polyanya's lines light the
/// link lines of its pseudocode.
#[test]
fn the_steps_name_the_links_they_cross() {
    use navlab_core::navmesh::timeline::{Step, Timeline};
    let mesh = two_rooms()
        .with_links(vec![
            OffMeshLink::new(p(3.5, 2.0), p(6.5, 2.0)).kind(LinkKind::Drop),
        ])
        .expect("links");
    for cost in MODELS {
        let options = QueryOptions {
            cost,
            ..QueryOptions::default()
        };
        let timeline = Timeline::record(&mesh, p(1.0, 1.0), p(9.0, 3.0), options).with_optimal(
            &mesh,
            p(1.0, 1.0),
            p(9.0, 3.0),
        );
        let crossing: Vec<String> = (0..timeline.search_steps())
            .map(|k| timeline.explain(k))
            .filter(|s| s.contains("by the drop link 0 (cost 3.00)"))
            .collect();
        assert!(!crossing.is_empty(), "{cost:?}");
        // The rooms share no edge: no walk reaches the far one.
        assert!(
            crossing
                .iter()
                .any(|s| s.ends_with(", where no walk reaches")),
            "{crossing:?}"
        );
        // The funnel's first walk ends at the link's start, and says so.
        let reaches = (timeline.search_steps()..timeline.optimal_start())
            .map(|k| timeline.explain(k))
            .filter(|s| s.contains("the walk reaches the start of the drop link 0"))
            .count();
        assert_eq!(reaches, 1, "{cost:?}");
        let lines: Vec<usize> = timeline
            .steps()
            .iter()
            .filter_map(|s| match s {
                Step::Polyanya(e) => {
                    Some(navlab_core::navmesh::polyanya_lines::polyanya_step(e, true).line)
                }
                _ => None,
            })
            .collect();
        assert!(lines.contains(&12) && lines.contains(&6), "{lines:?}");
        let sentences: Vec<String> = (timeline.optimal_start()..timeline.len())
            .map(|k| timeline.explain(k))
            .collect();
        assert!(
            sentences
                .iter()
                .any(|s| s.contains("cross the drop link 0"))
        );
    }
}

/// A step across a link says what walking round would give the triangle it reaches: with
/// centroid-to-centroid steps, the least sum of centroid distances from the start's triangle
/// to it (Dijkstra over the triangles' adjacency, written here), which the link beats.
#[test]
fn a_step_across_a_link_says_what_walking_round_would_give() {
    use navlab_core::navmesh::timeline::Timeline;
    let mesh = u_shape()
        .with_links(vec![
            OffMeshLink::new(p(1.0, 5.0), p(5.0, 5.0)).costing(LinkCost::Fixed(1.0)),
        ])
        .expect("links");
    let (a, b) = (p(1.0, 5.5), p(5.0, 5.5));
    let options = QueryOptions {
        cost: CostModel::Centroid,
        ..QueryOptions::default()
    };
    let timeline = Timeline::record(&mesh, a, b, options);
    let goal = mesh.locate(b).expect("goal").triangle;
    let start = mesh.locate(a).expect("start").triangle;
    // Walking only: Dijkstra by hand over centroids.
    let n = mesh.triangles().len();
    let mut dist = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    dist[start] = 0.0;
    for _ in 0..n {
        let Some(t) = (0..n)
            .filter(|&t| !done[t])
            .min_by(|&x, &y| dist[x].total_cmp(&dist[y]))
        else {
            break;
        };
        done[t] = true;
        for &(m, _) in mesh.neighbours(t) {
            let c = mesh.triangles()[t]
                .centroid
                .distance(mesh.triangles()[m].centroid);
            dist[m] = dist[m].min(dist[t] + c);
        }
    }
    let sentence = (0..timeline.search_steps())
        .map(|k| timeline.explain(k))
        .find(|s| s.contains(&format!("triangle {goal} from")) && s.contains("by the jump link 0"))
        .expect("the goal's triangle opened across the link");
    let want = format!(", instead of walking round (g would be {:.2})", dist[goal]);
    assert!(sentence.ends_with(&want), "{sentence}: want {want}");
}
