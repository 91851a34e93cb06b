//! Golden pictures: every view set up by `navlab open`'s options (and, where no option says
//! it, a change of the window's state), drawn without a display by the CPU renderer at
//! 1280 × 800 and one pixel per point, and compared pixel by pixel with `tests/golden/NAME.png`.
//!
//! A failure writes `NAME.new.png` (the picture now) and `NAME.diff.png` (the pixels that
//! differ) beside the golden file; [`common::assert_golden`] states the tolerance. Look at
//! both; when the change is meant, rewrite the golden files with
//! `UPDATE_GOLDEN=1 cargo test --test golden` and look at each rewritten picture before
//! committing it (docs/testing.md).

mod common;

use clap::Parser;
use navlab::app::{NavlabApp, SceneKind};
use navlab::geom::Vec2;
use navlab::navmesh::edit::{Shape, ShapeKind};

/// The window's size in pixels (one pixel per point).
const SIZE: [usize; 2] = [1280, 800];

/// Draws what `navlab open ARGS` shows, changed by `tweak`, and compares it with the golden
/// picture `name`.
fn golden(name: &str, args: &[&str], tweak: impl FnOnce(&mut NavlabApp)) {
    // The durations the panels show (the comparison's, the partitions') read the same on
    // every run.
    navlab::clock::fix_readings(true);
    let command = std::iter::once("navlab")
        .chain(std::iter::once("open"))
        .chain(args.iter().copied());
    let open = match navlab::cli::Cli::try_parse_from(command) {
        Ok(navlab::cli::Cli {
            command: Some(navlab::cli::Command::Open(open)),
        }) => open,
        other => panic!("`navlab open {}` does not parse: {other:?}", args.join(" ")),
    };
    let launch = open.launch();
    let mut app = navlab::app::headless::launched_app(&launch, &mut |warning| {
        panic!("`navlab open {}` warns: {warning}", args.join(" "))
    })
    .expect("the picture's files open");
    tweak(&mut app);
    let theme = navlab::app::headless::picture_theme(&launch);
    let picture = navlab::app::screenshot::picture_of(&mut app, open.step, SIZE, theme);
    common::assert_golden(name, &picture);
}

fn nothing(_: &mut NavlabApp) {}

fn tile_map(app: &mut NavlabApp) {
    app.settings.scene = SceneKind::TileMap;
}

// --- the navmesh view --------------------------------------------------------------------

#[test]
fn navmesh_before_the_first_step() {
    golden("navmesh-start", &["--step", "0"], nothing);
}

#[test]
fn navmesh_in_the_middle_of_a_star() {
    golden("navmesh-astar", &["--step", "24"], nothing);
}

#[test]
fn navmesh_in_the_middle_of_the_funnel() {
    golden("navmesh-funnel", &["--step", "funnel-middle"], nothing);
}

#[test]
fn navmesh_at_the_path() {
    golden("navmesh-path", &["--step", "end"], nothing);
}

#[test]
fn navmesh_with_edges_off_shows_only_the_border() {
    golden("navmesh-edges-off", &["--step", "24"], |app| {
        app.scenes.navmesh.settings.display.edges = false;
    });
}

#[test]
fn navmesh_labelled_by_triangle_ids() {
    golden("navmesh-ids", &["--step", "24"], |app| {
        let display = &mut app.scenes.navmesh.settings.display;
        (display.triangle_ids, display.visit_numbers) = (true, false);
    });
}

#[test]
fn navmesh_with_polyanya_searching() {
    golden(
        "navmesh-polyanya",
        &[
            "assets/hole.obj",
            "--from",
            "3.866,2.379",
            "--to",
            "3.567,9.393",
            "--optimal",
            "--step",
            "optimal-middle",
        ],
        nothing,
    );
}

#[test]
fn navmesh_with_the_gap_to_the_shortest_path() {
    golden(
        "navmesh-gap",
        &[
            "assets/hole.obj",
            "--from",
            "3.866,2.379",
            "--to",
            "3.567,9.393",
            "--optimal",
        ],
        nothing,
    );
}

#[test]
fn navmesh_edited_with_an_obstacle_doors_and_mud() {
    golden("navmesh-edited", &["--step", "end"], |app| {
        let p = Vec2::new;
        let mud = navlab::navmesh::areas::built_in_names()
            .iter()
            .position(|name| name == "mud")
            .expect("mud is built in") as u8;
        let shapes = [
            Shape::rectangle(p(9.0, 1.5), p(11.0, 3.5), ShapeKind::Obstacle),
            Shape::circle(p(13.0, -5.0), 1.0, 12, ShapeKind::Obstacle),
            Shape::rectangle(p(12.0, -1.2), p(13.0, -0.8), ShapeKind::Door { open: true }),
            Shape::rectangle(p(7.2, -0.2), p(7.8, 0.6), ShapeKind::Door { open: false }),
            Shape::rectangle(p(5.0, -6.5), p(10.0, -3.0), ShapeKind::Area { area: mud }),
        ];
        for shape in shapes {
            let shape = shape.expect("a valid shape");
            app.scenes
                .navmesh
                .edit_mesh(|editor| editor.add_shape(shape))
                .expect("the shape cuts the mesh");
        }
    });
}

#[test]
fn navmesh_with_a_jump_and_a_drop_link() {
    golden(
        "navmesh-links",
        &[
            "--link",
            "2,0.5:5,-5.5",
            "--link",
            "12.5,1:12.5,-3,kind=drop,oneway",
            "--from",
            "1,1",
            "--to",
            "13,-6",
            "--optimal",
            "--step",
            "end",
        ],
        nothing,
    );
}

/// Two rooms joined by a narrow door and a wide corridor: coloured by clearance, an agent
/// radius no route has room for (the portal that stops it outlined), and two more agents
/// walking, the small one through the door, the larger round by the corridor.
/// The crowd through a doorway: 16 agents from the left room to the right, at tick 110.
const CROWD: &[&str] = &[
    "assets/doors.obj",
    "--step",
    "0",
    "--crowd",
    "16",
    "--crowd-radius",
    "0.25",
    "--crowd-starts",
    "0.5,0.5,7.5,7.5",
    "--crowd-goals",
    "9.5,0.5,16.5,7.5",
    "--crowd-tick",
    "110",
];

#[test]
fn a_crowd_queues_at_a_doorway() {
    golden("crowd", CROWD, nothing);
}

#[test]
fn one_agent_of_the_crowd_taken_apart() {
    let args: Vec<&str> = CROWD
        .iter()
        .copied()
        .chain(["--crowd-agent", "2"])
        .collect();
    golden("crowd-agent", &args, nothing);
}

#[test]
fn navmesh_coloured_by_clearance_with_agents_of_three_sizes() {
    golden(
        "navmesh-clearance",
        &[
            "assets/doors.obj",
            "--from",
            "2,4",
            "--to",
            "15,4",
            "--clearance",
            "1.2",
            "--agents",
            "0.3,0.6",
            "--walk",
        ],
        nothing,
    );
}

#[test]
fn navmesh_diagnostics_with_a_finding_selected() {
    golden(
        "navmesh-diagnostics",
        &[
            "assets/faulty.obj",
            "--from",
            "1,1",
            "--to",
            "5,1",
            "--diagnostics",
        ],
        nothing,
    );
}

#[test]
fn navmesh_floors_coloured_by_height() {
    golden("navmesh-heights", &["assets/stairs.obj"], |app| {
        app.scenes.navmesh.settings.display.height_colours = true;
    });
}

#[test]
fn navmesh_walked() {
    golden("navmesh-walk", &["--walk"], nothing);
}

#[test]
fn navmesh_corridor_quality_heat_map() {
    golden(
        "navmesh-quality",
        &["assets/maze.obj", "--quality", "200"],
        nothing,
    );
}

#[test]
fn navmesh_built_from_the_map() {
    golden("navmesh-from-map", &["--build-mesh"], nothing);
}

#[test]
fn navmesh_in_the_light_theme() {
    golden(
        "navmesh-light",
        &["--theme", "light", "--step", "funnel-middle"],
        nothing,
    );
}

// --- the tile-map view -------------------------------------------------------------------

#[test]
fn tile_map_breadth_first_mid_search() {
    golden("tile-map-bfs", &["--algo", "bfs", "--step", "60"], tile_map);
}

#[test]
fn tile_map_dijkstra_mid_search() {
    golden(
        "tile-map-dijkstra",
        &["--algo", "dijkstra", "--step", "60"],
        tile_map,
    );
}

#[test]
fn tile_map_a_star_mid_search() {
    golden(
        "tile-map-astar",
        &["--algo", "astar", "--step", "60"],
        tile_map,
    );
}

#[test]
fn tile_map_ida_star_mid_search() {
    golden(
        "tile-map-idastar",
        &["--algo", "idastar", "--step", "300"],
        tile_map,
    );
}

#[test]
fn tile_map_fringe_search_mid_search() {
    golden(
        "tile-map-fringe",
        &["--algo", "fringe", "--step", "120"],
        tile_map,
    );
}

#[test]
fn tile_map_jump_point_search_mid_search() {
    golden(
        "tile-map-jps",
        &["--algo", "jps", "--tile-costs", "1,1,1", "--step", "30"],
        tile_map,
    );
}

/// JPS+ mid-search, zoomed in on the map's left room with its jump distances drawn in every
/// cell.
#[test]
fn tile_map_jps_plus_with_its_jump_distances() {
    golden(
        "tile-map-jps-plus",
        &[
            "--algo",
            "jps-plus",
            "--tile-costs",
            "1,1,1",
            "--step",
            "12",
        ],
        |app| {
            app.settings.scene = SceneKind::TileMap;
            app.scenes.tile_map.settings.jump_distances = true;
            app.scenes.tile_map.camera.set(navlab::app::camera::Camera {
                center: [6.9, 6.0],
                scale: 48.0,
            });
        },
    );
}

/// Bidirectional A* mid-search: both halves on the map in their colours, the open list of the
/// half expanding.
#[test]
fn tile_map_bidirectional_astar_mid_search() {
    golden(
        "tile-map-bidir",
        &["--algo", "bidir", "--step", "150"],
        tile_map,
    );
}

/// Theta*'s any-angle path at the end of its search, on the map with every tile as grass.
#[test]
fn tile_map_theta_star_path() {
    golden(
        "tile-map-theta",
        &["--algo", "theta", "--tile-costs", "1,1,1", "--step", "end"],
        tile_map,
    );
}

/// D* Lite's agent eight steps along, a wall painted across its path ahead, the repair part
/// way: zoomed in on the wall, the inconsistent cells with their keys, the edited cells
/// outlined, the cell taken at this step; the open list by key beside it.
#[test]
fn tile_map_d_star_lite_repair_with_its_keys() {
    golden(
        "tile-map-dstar",
        &[
            "--algo",
            "dstar-lite",
            "--walk-steps",
            "8",
            "--paint",
            "15,5=wall",
            "--paint",
            "16,4=wall",
            "--paint",
            "17,3=wall",
            "--paint",
            "18,2=wall",
            "--step",
            "40",
        ],
        |app| {
            app.scenes.tile_map.camera.set(navlab::app::camera::Camera {
                center: [14.0, 4.0],
                scale: 44.0,
            });
        },
    );
}

/// A* and JPS in lockstep at the first expansion where they differ, every tile as grass: the
/// two searches one above the other, the two cells ringed, the panel with both open lists.
#[test]
fn tile_map_astar_and_jps_in_lockstep() {
    golden(
        "tile-map-lockstep",
        &[
            "--algo",
            "astar",
            "--lockstep",
            "jps",
            "--tile-costs",
            "1,1,1",
            "--step",
            "3",
        ],
        nothing,
    );
}

#[test]
fn tile_map_every_algorithm_compared() {
    golden("tile-map-compare", &["--compare", "--step", "60"], nothing);
}

#[test]
fn tile_map_partitions_visibility_graph() {
    golden(
        "tile-map-partitions",
        &["--partitions", "visibility"],
        nothing,
    );
}

#[test]
fn tile_map_in_the_light_theme() {
    golden(
        "tile-map-light",
        &["--theme", "light", "--algo", "astar", "--step", "60"],
        tile_map,
    );
}

// --- the pursuit -------------------------------------------------------------------------

#[test]
fn pursuit_after_three_seconds() {
    golden("pursuit", &["--pursuit", "--step", "180"], nothing);
}

// --- the level view ----------------------------------------------------------------------

#[test]
fn level_ledges_filtered() {
    golden("level-ledges", &["--level", "--step", "4"], nothing);
}

#[test]
fn level_regions() {
    golden("level-regions", &["--level", "--step", "9"], nothing);
}

#[test]
fn level_polygons() {
    golden("level-polygons", &["--level", "--step", "12"], nothing);
}

#[test]
fn level_links_found_at_the_detail_mesh() {
    golden("level-links", &["--level", "--step", "13"], nothing);
}

#[test]
fn level_why_under_the_low_beam_with_a_cross_section() {
    golden(
        "level-why",
        &[
            "--level",
            "--why",
            "3.75,12",
            "--floor",
            "0",
            "--section",
            "1,12",
            "8,12",
            "--step",
            "5",
        ],
        nothing,
    );
}
