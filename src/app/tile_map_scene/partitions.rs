//! The tile-map lab's Partitions window: the paper's four partitions of the map (grid, quadtree,
//! visibility graph, navmesh) built and searched from S to G on a worker thread, a table of what
//! each gave, and the chosen one drawn over the map with its path before and after straightening.

use crate::app::camera::View;
use crate::app::latest_worker::LatestWorker;
use crate::geom::Vec2;
use crate::grid::free_segment::HalfPoint;
use crate::grid::{Cell, Connectivity, TileMap};
use crate::partitions::{
    BuiltPartitions, Partition, PartitionComparison, build_partitions, search_partitions,
};
use egui::{Color32, Pos2, Rect, Shape, Stroke, Ui};
use std::time::Duration;

/// Most shapes drawn for one partition; beyond it the structure is not drawn (the window says
/// so), the paths still are.
pub const MAX_DRAWN: usize = 60_000;

/// Colour of the path through the nodes' centres.
const RAW_COLOR: Color32 = Color32::from_rgb(255, 140, 40);
/// Colour of the path pulled straight.
const STRAIGHT_COLOR: Color32 = Color32::from_rgb(80, 230, 250);
/// Fill of the nodes A* expanded.
const EXPANDED_COLOR: Color32 = Color32::from_rgba_premultiplied(110, 40, 140, 110);
/// Ring round the visibility graph's corners A* expanded.
const EXPANDED_RING: Color32 = Color32::from_rgb(200, 110, 255);
/// Colour of the partition's outlines and links.
const STRUCTURE_COLOR: Color32 = Color32::from_rgba_premultiplied(200, 200, 255, 110);

/// What a comparison is asked for: owned, to run on the worker.
struct PartitionJob {
    map: TileMap,
    /// The map's revision, given back with the answer.
    revision: u64,
    from: Cell,
    to: Cell,
    connectivity: Connectivity,
    /// The partitions of this very map and connectivity, when built already: only the
    /// searches run (S or G moved).
    built: Option<BuiltPartitions>,
}

impl PartitionJob {
    fn run(self) -> Answer {
        let built = self
            .built
            .unwrap_or_else(|| build_partitions(&self.map, self.connectivity));
        Answer {
            revision: self.revision,
            comparison: search_partitions(built, &self.map, self.from, self.to),
        }
    }
}

/// A comparison and the revision of the map it was made on.
struct Answer {
    revision: u64,
    comparison: PartitionComparison,
}

/// The window's state.
#[derive(Debug)]
pub struct PartitionsView {
    /// Whether the window is open (and its overlay drawn).
    pub open: bool,
    /// The partition drawn over the map.
    pub shown: Partition,
    /// Draw the partition's squares, links or triangles (not only its paths).
    pub draw_structure: bool,
    /// Shade the nodes A* expanded.
    pub draw_expanded: bool,
    /// How many of them, in the order A* took them (`None`: all); the last one shown is
    /// outlined. A new comparison or another partition shows all again.
    pub expansions_shown: Option<usize>,
    /// The latest comparison answered.
    pub comparison: Option<PartitionComparison>,
    /// The map revision [`comparison`](Self::comparison) was made on.
    compared_revision: u64,
    /// The map revision, start, goal and connectivity of the newest comparison asked for.
    asked: Option<(u64, Cell, Cell, Connectivity)>,
    worker: LatestWorker<PartitionJob, Answer>,
    generation: u64,
}

impl Default for PartitionsView {
    fn default() -> Self {
        Self {
            open: false,
            shown: Partition::QuadTree,
            draw_structure: true,
            draw_expanded: true,
            expansions_shown: None,
            comparison: None,
            compared_revision: 0,
            asked: None,
            worker: LatestWorker::new("navlab partitions", PartitionJob::run),
            generation: 0,
        }
    }
}

impl PartitionsView {
    /// While the window is open, asks for a new comparison when the map (its `revision`), the
    /// start, the goal or the connectivity changed, and takes an answer that arrived. Returns
    /// true while one is being worked on. When only S or G moved, the partitions already built
    /// are searched again rather than rebuilt.
    pub fn follow(
        &mut self,
        map: &TileMap,
        revision: u64,
        (from, to): (Cell, Cell),
        connectivity: Connectivity,
    ) -> bool {
        if !self.open {
            return false;
        }
        let key = (revision, from, to, connectivity);
        if self.asked != Some(key) {
            self.asked = Some(key);
            self.generation += 1;
            let built = self
                .comparison
                .as_ref()
                .filter(|c| {
                    self.compared_revision == revision && c.built.connectivity == connectivity
                })
                .map(|c| c.built.clone());
            let job = PartitionJob {
                map: map.clone(),
                revision,
                from,
                to,
                connectivity,
                built,
            };
            if let Some(answer) = self.worker.answer_or_submit(self.generation, job, true) {
                self.receive(answer);
            }
        }
        if let Some(answer) = self.worker.take() {
            self.receive(answer);
        }
        self.worker.is_busy()
    }

    fn receive(&mut self, answer: Answer) {
        self.compared_revision = answer.revision;
        self.comparison = Some(answer.comparison);
        self.expansions_shown = None;
    }

    /// The nodes shaded as expanded (see [`expansions_shown`](Self::expansions_shown)), in
    /// the order A* took them, in the shown partition's numbering.
    pub fn expanded_in_view(&self) -> &[usize] {
        let Some(result) = self.comparison.as_ref().and_then(|c| c.result(self.shown)) else {
            return &[];
        };
        let all = &result.expanded_nodes;
        let n = self.expansions_shown.unwrap_or(all.len()).min(all.len());
        all.get(..n).unwrap_or_default()
    }

    /// Forgets the comparison (a new map was loaded).
    pub fn clear(&mut self) {
        self.comparison = None;
        self.asked = None;
        self.worker.forget();
    }

    /// Waits up to `timeout` for the comparison being worked on (screenshots, tests).
    pub fn wait(&mut self, timeout: Duration) {
        if let Some(answer) = self.worker.wait(timeout) {
            self.receive(answer);
        }
    }

    /// The window (when open): the table, the choice of what to draw, and a copy of the JSON.
    /// It first opens at the bottom-left corner of `canvas` (start and goal are more often
    /// near the top-left and bottom-right corners of a map).
    pub fn window_ui(&mut self, ctx: &egui::Context, canvas: Option<Rect>) {
        let mut open = self.open;
        let mut window = egui::Window::new("Partitions")
            .open(&mut open)
            .default_width(560.0)
            .resizable(true);
        if let Some(canvas) = canvas {
            window = window
                .pivot(egui::Align2::LEFT_BOTTOM)
                .default_pos(canvas.left_bottom() + egui::vec2(8.0, -8.0));
        }
        window.show(ctx, |ui| self.contents_ui(ui));
        self.open = open;
    }

    fn contents_ui(&mut self, ui: &mut Ui) {
        ui.label(
            "The paper's four ways to cut the map into search nodes, each searched by A* from S to G. \
             The path through the nodes' centres (orange) is then pulled straight (cyan). The grid \
             and the quadtree weigh steps by terrain cost; the visibility graph and the navmesh \
             by distance alone.",
        );
        if self.worker.is_busy() {
            ui.horizontal(|ui| {
                ui.spinner();
                ui.label("building and searching…");
            });
        }
        let Some(comparison) = &self.comparison else {
            return;
        };
        egui::Grid::new("partitions_table")
            .striped(true)
            .num_columns(8)
            .show(ui, |ui| {
                for (heading, tip) in [
                    ("Partition", "Choose the one drawn over the map"),
                    ("Nodes", "Cells, squares, wall corners or triangles (passable ones)"),
                    ("Links", "Pairs of nodes a step joins"),
                    (
                        "Expanded",
                        "Nodes A* expanded from S to G (shaded violet on the map)",
                    ),
                    (
                        "Path",
                        "Length through the centres of the nodes A* chose (corners for the visibility graph, centroids for the navmesh)",
                    ),
                    (
                        "Straight",
                        "Length once pulled straight: line-of-sight smoothing (grid, quadtree), the funnel (navmesh); the visibility graph's path is straight already, and the shortest at any angle",
                    ),
                    ("Build ms", "Time to build the partition from the map"),
                    ("Search ms", "Time to search it and pull the path straight"),
                ] {
                    ui.strong(heading).on_hover_text(tip);
                }
                ui.end_row();
                let length = |v: f64| {
                    if v.is_finite() {
                        format!("{v:.2}")
                    } else {
                        "none".to_string()
                    }
                };
                for partition in Partition::ALL {
                    if ui
                        .radio_value(&mut self.shown, partition, partition.name())
                        .on_hover_text(format!(
                            "Draw the {} and its paths over the map",
                            partition.name()
                        ))
                        .changed()
                    {
                        self.expansions_shown = None;
                    }
                    if let Some(r) = comparison.result(partition) {
                        ui.label(format!(
                            "{} {}",
                            crate::words::thousands(r.nodes),
                            partition.node_name()
                        ));
                        ui.label(crate::words::thousands(r.links));
                        ui.label(crate::words::thousands(r.expanded));
                        ui.label(length(r.raw_length()));
                        ui.label(length(r.straight_length()));
                        ui.label(format!("{:.1}", r.build_time.as_secs_f64() * 1e3));
                        ui.label(format!("{:.1}", r.search_time.as_secs_f64() * 1e3));
                    } else if let Some((_, why)) =
                        comparison.refused.iter().find(|(p, _)| *p == partition)
                    {
                        ui.label("not built").on_hover_text(why);
                    }
                    ui.end_row();
                }
            });
        ui.horizontal(|ui| {
            ui.checkbox(&mut self.draw_structure, "Draw the partition")
                .on_hover_text(
                    "Outline its squares, links or triangles (the paths are drawn either way)",
                );
            ui.checkbox(&mut self.draw_expanded, "Shade expanded")
                .on_hover_text("Shade the cells, squares, corners or triangles A* expanded");
            if ui
                .button("Copy as JSON")
                .on_hover_text("The comparison as `navlab partitions --json` prints it")
                .clicked()
            {
                ui.ctx().copy_text(comparison.to_json().to_string());
            }
        });
        if let Some(result) = comparison.result(self.shown)
            && self.draw_expanded
            && !result.expanded_nodes.is_empty()
        {
            let all = result.expanded_nodes.len();
            let mut shown = self.expansions_shown.unwrap_or(all).min(all);
            let slider = ui
                .add(
                    crate::app::playback::grouped_digits(
                        egui::Slider::new(&mut shown, 0..=all).step_by(1.0),
                    )
                    .text("Expansions shown"),
                )
                .on_hover_text(
                    "Step through the order A* expanded this partition's nodes (arrow keys once the slider has focus); the last one shown is outlined",
                );
            if slider.changed() {
                self.expansions_shown = (shown < all).then_some(shown);
            }
        }
        if let Some((_, why)) = comparison.refused.iter().find(|(p, _)| *p == self.shown) {
            ui.colored_label(
                crate::app::ink::on_panel(ui.visuals(), crate::app::ink::WARNING),
                why,
            );
        } else if self.draw_structure && structure_size(comparison, self.shown) > MAX_DRAWN {
            ui.label(format!(
                "The {} has over {} pieces: only its paths are drawn.",
                self.shown.name(),
                crate::words::thousands(MAX_DRAWN)
            ));
        }
    }

    /// Draws the chosen partition and its two paths over the map (when the window is open).
    pub fn paint_overlay(&self, painter: &egui::Painter, view: View) {
        let (true, Some(comparison)) = (self.open, &self.comparison) else {
            return;
        };
        let at = |p: Vec2| view.screen_from_world(p);
        let nodes = self.expanded_in_view();
        let expanded = comparison
            .result(self.shown)
            .filter(|_| self.draw_expanded && nodes.len() <= MAX_DRAWN)
            .map(|r| expanded_shapes(comparison, r.partition, nodes, painter.clip_rect(), &at))
            .unwrap_or_default();
        // Areas go under the outlines; the visibility graph's corners over its links.
        let points = self.shown == Partition::Visibility;
        if !points {
            painter.extend(expanded.iter().cloned());
        }
        let thin = Stroke::new(1.0, STRUCTURE_COLOR);
        if self.draw_structure && structure_size(comparison, self.shown) <= MAX_DRAWN {
            let visible = painter.clip_rect();
            let mut shapes = Vec::new();
            match self.shown {
                Partition::Grid => {}
                Partition::QuadTree => {
                    let squares = comparison.built.quadtree.get().map(|q| q.squares());
                    for s in squares.unwrap_or_default() {
                        if !s.tile.is_passable() {
                            continue;
                        }
                        let (x, y, n) = (s.x as f64, s.y as f64, s.size as f64);
                        let r =
                            Rect::from_min_max(at(Vec2::new(x, y)), at(Vec2::new(x + n, y + n)));
                        if r.intersects(visible) {
                            shapes.push(Shape::rect_stroke(r, 0.0, thin, egui::StrokeKind::Inside));
                        }
                    }
                }
                Partition::Visibility => {
                    if let Some(graph) = comparison.built.visibility.get() {
                        for (a, b) in graph.links() {
                            shapes.push(Shape::line_segment(
                                [at(a.to_vec2()), at(b.to_vec2())],
                                thin,
                            ));
                        }
                        for c in graph.corners() {
                            shapes.push(Shape::circle_filled(at(c.to_vec2()), 2.5, Color32::WHITE));
                        }
                    }
                }
                Partition::NavMesh => {
                    if let Some(mesh) = comparison.built.mesh.get() {
                        for edge in mesh.edges() {
                            let [a, b] = edge.vertices;
                            let (Some(&a), Some(&b)) =
                                (mesh.vertices().get(a), mesh.vertices().get(b))
                            else {
                                continue;
                            };
                            shapes.push(Shape::line_segment([at(a), at(b)], thin));
                        }
                    }
                }
            }
            painter.extend(shapes);
        }
        if points {
            painter.extend(expanded);
        }
        let Some(result) = comparison.result(self.shown) else {
            return;
        };
        let line = |points: &[Vec2]| points.iter().map(|&p| at(p)).collect::<Vec<Pos2>>();
        if result.partition != Partition::Visibility {
            let raw = line(&result.raw);
            painter.add(Shape::line(raw.clone(), Stroke::new(2.0, RAW_COLOR)));
            for p in raw {
                painter.circle_filled(p, 2.5, RAW_COLOR);
            }
        }
        let straight = line(&result.straight);
        painter.add(Shape::line(
            straight.clone(),
            Stroke::new(3.0, STRAIGHT_COLOR),
        ));
        for p in straight {
            painter.circle_filled(p, 3.5, STRAIGHT_COLOR);
        }
    }
}

/// `nodes` of `partition` (as its search expanded them) filled — the visibility graph's points
/// ringed — and the last one outlined; those outside `visible` are left out.
fn expanded_shapes(
    comparison: &PartitionComparison,
    partition: Partition,
    nodes: &[usize],
    visible: Rect,
    at: &impl Fn(Vec2) -> Pos2,
) -> Vec<Shape> {
    let shaded = NodeStyle {
        fill: EXPANDED_COLOR,
        stroke: Stroke::NONE,
        ring: Stroke::new(3.0, EXPANDED_RING),
        ring_radius: 7.0,
    };
    let outlined = NodeStyle {
        fill: Color32::TRANSPARENT,
        stroke: Stroke::new(2.5, Color32::WHITE),
        ring: Stroke::new(2.5, Color32::WHITE),
        ring_radius: 10.0,
    };
    let mut shapes = node_shapes(comparison, partition, nodes, visible, at, shaded);
    if let Some(last) = nodes.last() {
        let last = std::slice::from_ref(last);
        shapes.extend(node_shapes(
            comparison, partition, last, visible, at, outlined,
        ));
    }
    shapes
}

/// How [`node_shapes`] draws: areas (cells, squares, triangles) filled and stroked, points
/// ringed.
#[derive(Clone, Copy)]
struct NodeStyle {
    fill: Color32,
    stroke: Stroke,
    ring: Stroke,
    ring_radius: f32,
}

/// `nodes` of `partition` as shapes in `style`, those outside `visible` left out.
fn node_shapes(
    comparison: &PartitionComparison,
    partition: Partition,
    nodes: &[usize],
    visible: Rect,
    at: &impl Fn(Vec2) -> Pos2,
    style: NodeStyle,
) -> Vec<Shape> {
    let built = &comparison.built;
    let square = |x: f64, y: f64, side: f64| {
        let r = Rect::from_two_pos(at(Vec2::new(x, y)), at(Vec2::new(x + side, y + side)));
        r.intersects(visible).then(|| {
            let kind = egui::StrokeKind::Outside;
            Shape::Rect(egui::epaint::RectShape::new(
                r,
                0.0,
                style.fill,
                style.stroke,
                kind,
            ))
        })
    };
    let nodes = nodes.iter().copied();
    match partition {
        Partition::Grid => {
            let width = comparison.map_width.max(1);
            nodes
                .filter_map(|n| square((n % width) as f64, (n / width) as f64, 1.0))
                .collect()
        }
        Partition::QuadTree => {
            let squares = built
                .quadtree
                .get()
                .map(|q| q.squares())
                .unwrap_or_default();
            nodes
                .filter_map(|n| squares.get(n))
                .filter_map(|s| square(s.x as f64, s.y as f64, s.size as f64))
                .collect()
        }
        Partition::Visibility => {
            let Some(graph) = built.visibility.get() else {
                return Vec::new();
            };
            // Corners, then the start and the goal (see `VisibilityGraph::find_path`).
            let corners = graph.corner_count();
            let point = |n: usize| match n.checked_sub(corners) {
                None => graph.corner(n),
                Some(0) => Some(HalfPoint::centre(comparison.from)),
                Some(1) => Some(HalfPoint::centre(comparison.to)),
                Some(_) => None,
            };
            nodes
                .filter_map(point)
                .map(|p| Shape::circle_stroke(at(p.to_vec2()), style.ring_radius, style.ring))
                .collect()
        }
        Partition::NavMesh => {
            let Some(mesh) = built.mesh.get() else {
                return Vec::new();
            };
            nodes
                .filter(|&t| t < mesh.triangles().len())
                .map(|t| mesh.corners(t).map(at))
                .filter(|ps| Rect::from_points(ps).intersects(visible))
                .map(|ps| Shape::convex_polygon(ps.to_vec(), style.fill, style.stroke))
                .collect()
        }
    }
}

/// How many shapes drawing `partition`'s structure takes.
fn structure_size(comparison: &PartitionComparison, partition: Partition) -> usize {
    let built = &comparison.built;
    match partition {
        Partition::Grid => 0,
        Partition::QuadTree => built.quadtree.get().map_or(0, |q| q.passable_count()),
        Partition::Visibility => built
            .visibility
            .get()
            .map_or(0, |g| g.link_count() + g.corner_count()),
        Partition::NavMesh => built.mesh.get().map_or(0, |m| m.edges().len()),
    }
}
