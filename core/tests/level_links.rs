//! Links found on built levels: a platform a short jump across a gap is joined and one too far
//! is not; a high floor is too high and a ledge drops to the floor below; on the built-in level
//! and on Recast's `nav_test.obj`, the kept links join floors the build leaves apart (a path
//! that had none then has one), and every candidate left out is checked against its reason by
//! sampling the navmesh again.

mod common;
use common::levels::Level;
use navlab_core::geom::Vec2;
use navlab_core::level::{
    BuildSettings, LinkCandidate, LinkSearch, Rejection, build_navmesh, find_links, kept_links,
};
use navlab_core::navmesh::links::LinkKind;
use navlab_core::navmesh::{NavMesh, PathStatus, QueryOptions, find_path};
use navlab_core::search::NoObserver;

fn built(positions: &[[f64; 3]], faces: &[Vec<usize>]) -> (NavMesh, Vec<LinkCandidate>) {
    let settings = BuildSettings::default();
    let mesh = build_navmesh(positions, faces, &settings)
        .expect("builds")
        .into_navmesh()
        .expect("a navmesh");
    let search = LinkSearch::for_agent(&settings);
    let candidates = find_links(&mesh, positions, faces, &settings, &search);
    (mesh, candidates)
}

/// Checks each candidate against what it says: a kept one lands on a floor of the navmesh
/// within reach; one left for no landing, too far, too high or too deep has no floor of the
/// navmesh within reach in the height range along its way (sampled finely).
fn check_verdicts(mesh: &NavMesh, candidates: &[LinkCandidate], search: &LinkSearch) {
    let climb = BuildSettings::default().agent_max_climb;
    for c in candidates {
        let dir = c.to - c.from;
        let len = dir.length();
        let out = if len > 0.0 {
            dir * (1.0 / len)
        } else {
            continue;
        };
        // A floor other than the one it stands on, in the height range, within reach.
        let landing_within_reach = (1..=400).any(|k| {
            let p = c.from + out * (search.max_distance * k as f64 / 400.0);
            mesh.floors_at(p).iter().any(|f| {
                let dh = f.height - c.from_height;
                let other_floor = mesh.island_of(f.triangle) != c.from_island || dh.abs() > climb;
                other_floor && dh <= search.max_jump_up && dh >= -search.max_drop
            })
        });
        match c.verdict {
            Ok(kind) => {
                assert!(len <= search.max_distance + 1e-9, "{c:?}");
                let dh = c.to_height - c.from_height;
                assert!(dh <= search.max_jump_up && dh >= -search.max_drop, "{c:?}");
                assert!(
                    mesh.floors_at(c.to)
                        .iter()
                        .any(|f| (f.height - c.to_height).abs() < 1e-9),
                    "{c:?}"
                );
                assert_eq!(kind == LinkKind::Drop, dh < -climb, "{c:?}");
            }
            Err(
                Rejection::NoLanding
                | Rejection::TooFar(_)
                | Rejection::TooHigh(_)
                | Rejection::TooDeep(_),
            ) => assert!(!landing_within_reach, "{c:?}"),
            Err(Rejection::NoClearance | Rejection::OffTheMesh) => {}
        }
        if let Err(Rejection::TooFar(d)) = c.verdict {
            assert!(d > search.max_distance, "{c:?}");
        }
    }
}

#[test]
fn a_short_gap_is_jumped_a_long_one_is_too_far_and_a_ledge_drops() {
    // A floor; across a 1-unit gap east, a platform at the same height; across a 4-unit gap
    // north, another; and on the floor a block 2 high (a ledge to drop from, too high to jump
    // onto).
    let mut level = Level::default();
    level
        .add_box([0.0, -0.2, 0.0], [10.0, 0.0, 10.0])
        .add_box([11.0, -0.2, 0.0], [16.0, 0.0, 10.0])
        .add_box([0.0, -0.2, 14.0], [10.0, 0.0, 20.0])
        .add_box([2.0, 0.0, 2.0], [6.0, 2.0, 6.0]);
    let (mesh, candidates) = built(&level.positions, &level.faces);
    let settings = BuildSettings::default();
    let search = LinkSearch::for_agent(&settings);
    check_verdicts(&mesh, &candidates, &search);
    let kept = kept_links(&candidates, &search);
    let east =
        |c: &LinkCandidate| c.from.x > 9.0 && c.from.x < 11.0 && c.from.y > 2.0 && c.from.y < 8.0;
    assert!(
        candidates
            .iter()
            .any(|c| east(c) && c.verdict == Ok(LinkKind::Jump)),
        "a jump across the short gap"
    );
    assert!(
        candidates
            .iter()
            .filter(|c| c.from.y > 9.0 && c.from.y < 10.0 && c.from.x > 1.0 && c.from.x < 9.0)
            .all(|c| c.verdict.is_err()),
        "nothing across the long gap"
    );
    assert!(
        candidates
            .iter()
            .any(|c| matches!(c.verdict, Err(Rejection::TooFar(_)))),
        "the long gap is too far"
    );
    assert!(
        candidates
            .iter()
            .any(|c| c.verdict == Ok(LinkKind::Drop) && c.from_height > 1.5),
        "off the block, a drop"
    );
    assert!(
        candidates
            .iter()
            .any(|c| matches!(c.verdict, Err(Rejection::TooHigh(_)))),
        "onto the block, too high"
    );
    // With the links, the east platform is reached from the floor; without, it is not.
    let (a, b) = (Vec2::new(8.0, 8.0), Vec2::new(14.0, 5.0));
    let plain = find_path(
        &mesh,
        a,
        b,
        QueryOptions::default(),
        &mut NoObserver,
        &mut NoObserver,
    )
    .expect("a query");
    assert_eq!(plain.status, PathStatus::Unreachable);
    let linked = mesh.clone().with_links(kept).expect("links");
    let path = find_path(
        &linked,
        a,
        b,
        QueryOptions::default(),
        &mut NoObserver,
        &mut NoObserver,
    )
    .expect("a query");
    assert_eq!(path.status, PathStatus::Found);
    assert!(path.crosses_links());
}

/// Checks that some kept link joins two islands of the navmesh (`mesh`, of the level of
/// `candidates`): a path from its start to its end is unreachable on the navmesh alone and
/// found with the kept links.
fn check_a_link_joins_islands(mesh: &NavMesh, candidates: &[LinkCandidate], search: &LinkSearch) {
    let joining: Vec<&LinkCandidate> = candidates
        .iter()
        .filter(|c| c.verdict.is_ok() && c.to_island.is_some_and(|i| i != c.from_island))
        .collect();
    assert!(!joining.is_empty(), "some link joins two islands");
    let c = joining[0];
    let linked = mesh
        .clone()
        .with_links(kept_links(candidates, search))
        .expect("links");
    let (a, b) = (c.from, c.to);
    let locate = |m: &NavMesh, p: Vec2, h: f64| m.locate_near_height(p, Some(h)).expect("on it");
    let plain = navlab_core::navmesh::query::find_path_located(
        mesh,
        locate(mesh, a, c.from_height),
        locate(mesh, b, c.to_height),
        QueryOptions::default(),
        &mut NoObserver,
        &mut NoObserver,
        &mut NoObserver,
    );
    assert_eq!(
        plain.status,
        PathStatus::Unreachable,
        "{c:?} {:?} {:?}",
        plain.start,
        plain.goal
    );
    let joined = navlab_core::navmesh::query::find_path_located(
        &linked,
        locate(&linked, a, c.from_height),
        locate(&linked, b, c.to_height),
        QueryOptions::default(),
        &mut NoObserver,
        &mut NoObserver,
        &mut NoObserver,
    );
    // A border point may lie a rounding error off its triangle (snapped): still a path.
    assert_ne!(joined.status, PathStatus::Unreachable);
    assert!(joined.crosses_links());
}

#[test]
fn on_the_built_in_level_a_ledge_drops_the_platform_is_jumped_to_and_every_verdict_holds() {
    let level = navlab_core::assets::PROVING_GROUND.read().expect("reads");
    let (mesh, candidates) = built(&level.positions, &level.polygons);
    let search = LinkSearch::for_agent(&BuildSettings::default());
    check_verdicts(&mesh, &candidates, &search);
    let climb = BuildSettings::default().agent_max_climb;
    assert!(
        candidates
            .iter()
            .any(|c| c.verdict == Ok(LinkKind::Drop) && c.from_height - c.to_height > 2.0 * climb),
        "a drop from the upper floor"
    );
    assert_eq!(
        mesh.island_count(),
        2,
        "the platform is an island of its own"
    );
    check_a_link_joins_islands(&mesh, &candidates, &search);
    // Up onto the platform by a jump, and down from it.
    let platform =
        |p: Vec2, h: f64| (1.5..=6.5).contains(&p.x) && (2.0..=7.0).contains(&p.y) && h > 1.0;
    assert!(candidates.iter().any(|c| c.verdict == Ok(LinkKind::Jump)
        && !platform(c.from, c.from_height)
        && platform(c.to, c.to_height)));
}

#[test]
fn on_recasts_demo_level_the_links_join_islands_the_build_leaves_apart() {
    let Some(path) = common::testdata("meshes/obj/nav_test.obj") else {
        return;
    };
    let raw = navlab_core::navmesh::obj::parse_raw(
        &std::fs::read(&path).expect("reads"),
        "nav_test.obj",
        navlab_core::navmesh::Plane::Xz,
    )
    .expect("parses");
    let (mesh, candidates) = built(&raw.positions, &raw.polygons);
    let search = LinkSearch::for_agent(&BuildSettings::default());
    check_verdicts(&mesh, &candidates, &search);
    check_a_link_joins_islands(&mesh, &candidates, &search);
}
