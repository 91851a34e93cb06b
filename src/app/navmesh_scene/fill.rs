//! The navmesh canvas's fill, kept from frame to frame: each triangle in view in its search,
//! area, island, heat or height colour, with the mesh's edges and the areas' outlines, built
//! again only when what it shows changed and recoloured in place where a replay step changed
//! triangles' statuses.

use super::NavmeshScene;
use super::canvas::{
    BORDER, CLOSED, CORRIDOR, CURRENT, EDGE, NON_MANIFOLD, OPEN, UNSEEN, mean_edge_length, mix,
    push_segment,
};
use crate::app::camera::View;
use crate::navmesh::TriId;
use crate::search::NodeStatus;
use egui::{Color32, Pos2, Rect};

impl NavmeshScene {
    /// The fill this frame shows in `view`: the last frame's when nothing it shows changed
    /// (recoloured where a replay step changed triangles' statuses), else built again. Debug
    /// builds check a kept fill against a fresh one.
    pub(super) fn kept_fill(&self, view: View) -> CachedFill {
        let key = self.fill_key(view);
        let shown = self.replay_shown();
        let mut cache = self
            .view
            .fill_cache()
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let kept = match cache.as_mut().filter(|cached| cached.key == key) {
            Some(cached) if cached.shown == shown => true,
            Some(cached)
                if cached.statuses.len() == self.query.replay.search.node_count()
                    && cached.shown.same_but_statuses(&shown) =>
            {
                self.recolour(cached, shown.clone());
                true
            }
            _ => false,
        };
        match cache.as_ref().filter(|_| kept) {
            Some(cached) => {
                #[cfg(debug_assertions)]
                {
                    let fresh = self.build_fill(view);
                    assert!(
                        *cached.fill == fresh.mesh,
                        "a kept fill must be this frame's"
                    );
                    assert!(
                        *cached.lines == fresh.lines,
                        "kept edges must be this frame's"
                    );
                    assert_eq!(
                        cached.outlines.as_deref(),
                        fresh.outlines.as_ref(),
                        "kept area outlines must be this frame's"
                    );
                }
                cached.clone()
            }
            None => {
                let built = self.build_fill(view);
                let fill = CachedFill {
                    key,
                    shown,
                    statuses: self.query.replay.search.statuses().to_vec(),
                    fill: std::sync::Arc::new(built.mesh),
                    lines: std::sync::Arc::new(built.lines),
                    outlines: built.outlines.map(std::sync::Arc::new),
                    visible: std::sync::Arc::new(built.visible),
                    slot_of: std::sync::Arc::new(built.slot_of),
                    largest_area: built.largest_area,
                };
                *cache = Some(fill.clone());
                fill
            }
        }
    }

    /// The key of the fill this frame shows in `view`.
    fn fill_key(&self, view: View) -> FillKey {
        FillKey {
            mesh: std::sync::Arc::as_ptr(self.view.mesh()) as usize,
            triangles: self.view.mesh().triangles().len(),
            vertices: self.view.mesh().vertices().len(),
            revision: self.edit.revision,
            draw_order: self.view.draw_order().len(),
            camera: [
                view.camera.center[0],
                view.camera.center[1],
                view.camera.scale,
            ],
            rect: view.rect,
            height_colours: self.settings.display.height_colours,
            clearance: self.clearance_key(),
            edges: self.settings.display.edges,
            colour_islands: self.diagnostics.colour_islands,
            heat: self.diagnostics.quality.heat_fingerprint(),
        }
    }

    /// What the fill shows of the replayed search this frame.
    fn replay_shown(&self) -> ReplayShown {
        let replay = &self.query.replay;
        ReplayShown {
            revision: replay.search.revision(),
            current: replay.current(),
            finished: replay.search.is_finished(),
            optimal_phase: replay.in_optimal_phase(),
            corridor: self
                .query
                .timeline
                .path
                .as_ref()
                .map(|path| path.corridor.clone())
                .unwrap_or_default(),
        }
    }

    /// Brings `cached` to `shown`, which differs from what it shows only in some triangles'
    /// statuses and the triangle being expanded: those triangles are coloured again in place.
    fn recolour(&self, cached: &mut CachedFill, shown: ReplayShown) {
        let statuses = self.query.replay.search.statuses();
        let mut changed: Vec<TriId> = cached
            .statuses
            .iter()
            .zip(statuses)
            .enumerate()
            .filter(|(_, (was, is))| was != is)
            .map(|(t, _)| t)
            .collect();
        cached.statuses.clear();
        cached.statuses.extend_from_slice(statuses);
        changed.extend(cached.shown.current);
        changed.extend(shown.current);
        cached.shown = shown;
        if self.settings.display.height_colours || self.settings.display.clearance_colours {
            return; // the fill is coloured by height or clearance, whatever the search
        }
        let area_colours = self.area_colours();
        let fill = std::sync::Arc::make_mut(&mut cached.fill);
        for t in changed {
            let Some(&k) = cached.slot_of.get(t).filter(|&&k| k != u32::MAX) else {
                continue; // not in view
            };
            let in_corridor = cached.shown.finished && cached.shown.corridor.contains(&t);
            let colour = self.fill_colour(t, in_corridor, &area_colours);
            let first = 3 * k as usize;
            for vertex in fill.vertices.iter_mut().skip(first).take(3) {
                vertex.color = colour;
            }
        }
    }

    /// The area types' colours, by area id (ground has none: transparent).
    fn area_colours(&self) -> Vec<Color32> {
        self.view
            .mesh()
            .area_names()
            .iter()
            .enumerate()
            .map(|(a, name)| super::area_colour(a as u8, name))
            .collect()
    }

    /// The colour triangle `t` is filled with (unless heights colour the fill): its island,
    /// its heat, the search's colour for it, or its area's, the search's mixed with its area's.
    fn fill_colour(&self, t: TriId, in_corridor: bool, area_colours: &[Color32]) -> Color32 {
        if let Some(colour) = self.clearance_fill(t) {
            return colour;
        }
        let heat = self.diagnostics.quality.heat(t);
        let color = if self.diagnostics.colour_islands {
            super::diagnostics::island_colour(self.view.mesh().island_of(t))
        } else if let Some(excess) = heat {
            super::quality::heat_colour(excess)
        } else if self.query.replay.current() == Some(t) {
            CURRENT
        } else if in_corridor {
            CORRIDOR
        } else if self.query.replay.in_optimal_phase() {
            // A*'s frontier is not the subject once Polyanya searches.
            UNSEEN
        } else {
            match self.query.replay.search.status(t) {
                NodeStatus::Open => OPEN,
                NodeStatus::Closed => CLOSED,
                _ => UNSEEN,
            }
        };
        let area = area_colours
            .get(usize::from(self.view.mesh().area_type(t)))
            .copied()
            .unwrap_or(Color32::TRANSPARENT);
        if area == Color32::TRANSPARENT || self.diagnostics.colour_islands || heat.is_some() {
            color
        } else if color == UNSEEN {
            area
        } else {
            mix(color, area, 0.3)
        }
    }

    /// The mesh's fill as this frame shows it: each triangle in view in its search, area,
    /// island, heat or height colour, lowest floor first, and the triangles in view.
    fn build_fill(&self, view: View) -> BuiltFill {
        let mesh = self.view.mesh();
        let visible = view.visible_world();
        let vertices = mesh.vertices();
        let screen: Vec<Pos2> = vertices
            .iter()
            .map(|&v| view.screen_from_world(v))
            .collect();
        let in_view = |corners: [u32; 3]| {
            let [a, b, c] = corners.map(|v| vertices.get(v as usize).copied().unwrap_or_default());
            let (min_x, max_x) = (a.x.min(b.x).min(c.x), a.x.max(b.x).max(c.x));
            let (min_y, max_y) = (a.y.min(b.y).min(c.y), a.y.max(b.y).max(c.y));
            max_x >= visible.min.x
                && min_x <= visible.max.x
                && max_y >= visible.min.y
                && min_y <= visible.max.y
        };
        // Lowest floor first, so that the higher is seen where floors overlap; read front to
        // back with each triangle's corners beside it.
        let made_now;
        let order = if self.view.draw_order().len() == mesh.triangles().len() {
            self.view.draw_order()
        } else {
            made_now = super::floors::draw_order(mesh);
            &made_now
        };
        let visible_draw: Vec<super::floors::DrawTriangle> = order
            .iter()
            .copied()
            .filter(|&[_, a, b, c]| in_view([a, b, c]))
            .collect();
        let visible_tris: Vec<TriId> = visible_draw.iter().map(|d| d[0] as usize).collect();
        let d = &self.settings.display;
        let heights = (d.height_colours && !d.clearance_colours).then(|| {
            let [low, high] = mesh.height_span();
            let span = (high - low).max(f64::MIN_POSITIVE);
            mesh.heights()
                .iter()
                .map(|h| super::floors::height_colour((h - low) / span))
                .collect::<Vec<Color32>>()
        });

        // Which triangles the corridor holds (shown once A* has finished).
        let path = self.query.timeline.path.as_ref();
        let mut in_corridor = vec![false; mesh.triangles().len()];
        if self.query.replay.search.is_finished()
            && let Some(path) = path
        {
            for &t in &path.corridor {
                if let Some(flag) = in_corridor.get_mut(t) {
                    *flag = true;
                }
            }
        }

        let area_colours = self.area_colours();
        // Fills.
        let mut fill = egui::Mesh::default();
        fill.reserve_triangles(visible_tris.len());
        fill.reserve_vertices(visible_tris.len() * 3);
        for &[t, a, b, c] in &visible_draw {
            let t = t as usize;
            let color = self.fill_colour(t, in_corridor[t], &area_colours);
            let i = fill.vertices.len() as u32;
            // Too narrow for the radius asked for: greyed over the heights too.
            let narrow = heights.is_some() && self.clearance_fill(t).is_some();
            for v in [a, b, c].map(|v| v as usize) {
                let color = match &heights {
                    Some(by_height) if !narrow => by_height.get(v).copied().unwrap_or(color),
                    _ => color,
                };
                fill.colored_vertex(screen.get(v).copied().unwrap_or(Pos2::ZERO), color);
            }
            fill.add_triangle(i, i + 1, i + 2);
        }
        let largest_area = visible_tris
            .iter()
            .filter_map(|&t| mesh.triangles().get(t))
            .map(|t| t.area)
            .fold(0.0, f64::max);
        let mut slot_of = vec![u32::MAX; mesh.triangles().len()];
        for (k, &t) in visible_tris.iter().enumerate() {
            if let Some(slot) = slot_of.get_mut(t) {
                *slot = k as u32;
            }
        }
        let lines = self.build_lines(view, &visible_tris);
        let outlines = self.build_area_outlines(view, &visible_tris);
        BuiltFill {
            mesh: fill,
            lines,
            outlines,
            visible: visible_tris,
            slot_of,
            largest_area,
        }
    }

    /// The mesh's edges in view: every edge when zoomed in enough to see them, borders and
    /// non-manifold edges always.
    fn build_lines(&self, view: View, visible_tris: &[TriId]) -> egui::Mesh {
        let mesh = self.view.mesh();
        let vertices = mesh.vertices();
        let screen = |v: usize| view.screen_from_world(vertices[v]);
        let mean_edge_px = mean_edge_length(mesh) * view.camera.scale;
        let draw_all = self.settings.display.edges && mean_edge_px > 4.0;
        let mut lines = egui::Mesh::default();
        let mut push_edge = |e: usize| {
            let edge = &mesh.edges()[e];
            let [a, b] = edge.vertices.map(screen);
            if edge.is_non_manifold() {
                push_segment(&mut lines, a, b, 3.0, NON_MANIFOLD);
            } else if edge.is_border() {
                push_segment(&mut lines, a, b, 2.0, BORDER);
            } else {
                push_segment(&mut lines, a, b, 1.0, EDGE);
            }
        };
        let narrow = self.narrow_portals();
        if draw_all {
            let mut edge_seen = vec![false; mesh.edges().len()];
            for &t in visible_tris {
                for e in mesh.triangles()[t].edges {
                    if !std::mem::replace(&mut edge_seen[e], true) {
                        push_edge(e);
                    }
                }
            }
        } else {
            let clip = view.rect.expand(4.0);
            for &e in self.view.outline_edges() {
                let [a, b] = mesh.edges()[e].vertices.map(screen);
                if clip.intersects(Rect::from_two_pos(a, b)) {
                    push_edge(e);
                }
            }
        }
        // The portals no disc of the radius asked for crosses, over the rest.
        for [a, b] in narrow {
            let (a, b) = (view.screen_from_world(a), view.screen_from_world(b));
            push_segment(&mut lines, a, b, 3.0, super::clearance::NARROW_PORTAL);
        }
        lines
    }

    /// The outline of each area in view (its edges to another area type or to a wall), in its
    /// colour, drawn over the search's; none when islands are coloured or the mesh has one
    /// area type.
    fn build_area_outlines(&self, view: View, visible_tris: &[TriId]) -> Option<egui::Mesh> {
        if self.diagnostics.colour_islands || self.view.areas_present() <= 1 {
            return None;
        }
        let mesh = self.view.mesh();
        let vertices = mesh.vertices();
        let screen = |v: usize| view.screen_from_world(vertices[v]);
        let area_colours = self.area_colours();
        let mut outline = egui::Mesh::default();
        for &t in visible_tris {
            let own = mesh.area_type(t);
            let Some(&colour) = area_colours.get(usize::from(own)) else {
                continue;
            };
            if colour == Color32::TRANSPARENT {
                continue;
            }
            for (k, &e) in mesh.triangles()[t].edges.iter().enumerate() {
                let edge = &mesh.edges()[e];
                let same = edge.triangles.len() == 2
                    && edge.triangles.iter().all(|&u| mesh.area_type(u) == own);
                if !same {
                    let [a, b] = [k, (k + 1) % 3].map(|i| screen(mesh.triangles()[t].vertices[i]));
                    push_segment(&mut outline, a, b, 3.0, colour);
                }
            }
        }
        Some(outline)
    }
}

/// What the canvas's fill shows apart from the replayed search: the mesh (its address, size
/// and edit revision), the view, the colouring asked for, and a fingerprint of the heat map.
/// Under an unchanged key the fill of the last frame is kept, recoloured where the search
/// changed.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct FillKey {
    mesh: usize,
    triangles: usize,
    vertices: usize,
    revision: u64,
    draw_order: usize,
    camera: [f64; 3],
    rect: Rect,
    height_colours: bool,
    clearance: (bool, u64, bool),
    edges: bool,
    colour_islands: bool,
    heat: Option<u64>,
}

/// What the fill shows of the replayed search.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ReplayShown {
    /// The search replay's revision: the same one shows the same statuses.
    revision: crate::search::Revision,
    current: Option<TriId>,
    finished: bool,
    optimal_phase: bool,
    corridor: Vec<TriId>,
}

impl ReplayShown {
    /// True when `other` differs from this at most in statuses and the triangle expanded
    /// (what one step of A* changes).
    fn same_but_statuses(&self, other: &Self) -> bool {
        self.finished == other.finished
            && self.optimal_phase == other.optimal_phase
            && self.corridor == other.corridor
    }
}

/// A fill built for one key, kept for the frames after it.
#[derive(Debug, Clone)]
pub(super) struct CachedFill {
    key: FillKey,
    shown: ReplayShown,
    /// The statuses it shows, by triangle (what a step is compared with).
    statuses: Vec<NodeStatus>,
    pub(super) fill: std::sync::Arc<egui::Mesh>,
    /// The edges drawn over it, and the areas' outlines.
    pub(super) lines: std::sync::Arc<egui::Mesh>,
    pub(super) outlines: Option<std::sync::Arc<egui::Mesh>>,
    /// The triangles in view, lowest floor first.
    pub(super) visible: std::sync::Arc<Vec<TriId>>,
    /// Each triangle's place among them (`u32::MAX` when out of view): its corners are the
    /// fill's vertices from three times that.
    slot_of: std::sync::Arc<Vec<u32>>,
    /// The area of the largest of them.
    pub(super) largest_area: f64,
}

/// A fill and the triangles in view.
struct BuiltFill {
    mesh: egui::Mesh,
    lines: egui::Mesh,
    outlines: Option<egui::Mesh>,
    visible: Vec<TriId>,
    slot_of: Vec<u32>,
    largest_area: f64,
}

/// Where a fingerprint starts.
pub(super) const FINGERPRINT_SEED: u64 = 0xcbf2_9ce4_8422_2325;

/// Folds `x` into the fingerprint `h` (FNV-1a over whole words): cheap, and any change of one
/// word changes the result.
pub(super) fn fingerprint(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x0000_0100_0000_01b3)
}
