//! Off-mesh links looked for on the level's navmesh: each point tried along the navmesh's
//! border drawn at the last stage, kept (an arc with its kind's colour and arrow heads) or
//! left out (a thin line in its reason's colour), the reason on hover; the counts by reason in
//! the panel; the kept links carried into the navmesh view.

use super::LevelScene;
use crate::app::camera::View;
use crate::app::legend::LegendRow;
use crate::app::navmesh_scene::links::{
    LinkLook, arc_points, distance_to_segment, link_colour, paint_link,
};
use crate::geom::Vec2;
use crate::level::{BuildSettings, LinkCandidate, LinkSearch, Rejection, Stage};
use crate::navmesh::NavMesh;
use crate::navmesh::links::{LinkKind, OffMeshLink};
use egui::{Color32, Pos2, RichText, Stroke, Ui};

/// Levels with more faces than this are not searched for links in the window (every landing
/// found is checked for room above against every face).
pub const MAX_FACES_FOR_LINKS: usize = 100_000;

/// The links looked for along a build's navmesh.
#[derive(Debug)]
pub struct FoundLinks {
    /// How far the agent may jump and drop.
    pub search: LinkSearch,
    /// Every point tried, with its verdict.
    pub candidates: Vec<LinkCandidate>,
    /// The candidates kept as links, in the links' order.
    pub kept: Vec<usize>,
}

impl FoundLinks {
    /// Looks along `mesh` (the navmesh built from the level of `positions` and `faces` with
    /// `settings`).
    pub fn find(
        mesh: &NavMesh,
        positions: &[[f64; 3]],
        faces: &[Vec<usize>],
        settings: &BuildSettings,
    ) -> Self {
        let search = LinkSearch::for_agent(settings);
        let candidates = crate::level::find_links(mesh, positions, faces, settings, &search);
        let kept = crate::level::kept_candidates(&candidates, &search);
        Self {
            search,
            candidates,
            kept,
        }
    }

    /// The links kept, numbered as the navmesh view numbers them on a mesh with no others.
    pub fn links(&self) -> Vec<OffMeshLink> {
        self.kept
            .iter()
            .filter_map(|&k| self.candidates.get(k)?.link(&self.search))
            .collect()
    }

    /// The number of the link candidate `k` was kept as.
    fn link_number(&self, k: usize) -> Option<usize> {
        self.kept.iter().position(|&kept| kept == k)
    }

    /// How many links of `kind` were kept.
    fn kept_of(&self, kind: LinkKind) -> usize {
        self.kept
            .iter()
            .filter(|&&k| {
                self.candidates
                    .get(k)
                    .is_some_and(|c| c.verdict == Ok(kind))
            })
            .count()
    }

    /// How many points were left out for each reason (by the reason's name), in
    /// [`REASONS`]' order, the reasons with none left out.
    fn left_out(&self) -> Vec<(&'static str, &'static str, Color32, usize)> {
        REASONS
            .iter()
            .filter_map(|&(name, words, colour)| {
                let n = self
                    .candidates
                    .iter()
                    .filter(|c| c.verdict.is_err_and(|r| r.name() == name))
                    .count();
                (n > 0).then_some((name, words, colour, n))
            })
            .collect()
    }
}

/// Each reason a point is left out: its name, a few words, its colour.
const REASONS: [(&str, &str, Color32); 6] = [
    ("no_landing", "no landing", Color32::from_rgb(150, 152, 160)),
    ("too_far", "too far", Color32::from_rgb(205, 205, 215)),
    ("too_high", "too high", Color32::from_rgb(240, 90, 90)),
    ("too_deep", "too deep", Color32::from_rgb(190, 60, 120)),
    (
        "no_clearance",
        "no clearance above",
        Color32::from_rgb(215, 80, 215),
    ),
    (
        "off_the_mesh",
        "lands off the mesh",
        Color32::from_rgb(245, 170, 40),
    ),
];

/// The colour a point left out for `reason` is drawn in.
fn reason_colour(reason: Rejection) -> Color32 {
    REASONS
        .iter()
        .find(|(name, _, _)| *name == reason.name())
        .map_or(Color32::GRAY, |&(_, _, colour)| colour)
}

/// Where a candidate left out is drawn to: where it was looked for, or with no landing a
/// short tick out of the border (the level's outer border has many, and they lead nowhere;
/// the whole way when hovered).
fn drawn_end(c: &LinkCandidate) -> Vec2 {
    match c.verdict {
        Err(Rejection::NoLanding) => c.from.lerp(c.to, 0.25),
        _ => c.to,
    }
}

impl LevelScene {
    /// The links found on the build shown, when they are looked for.
    pub fn found_links(&self) -> Option<&FoundLinks> {
        self.built.as_ref()?.links.as_ref()
    }

    /// The links kept on the build shown, when they are looked for (none when not).
    pub fn links_found(&self) -> Vec<OffMeshLink> {
        self.found_links()
            .filter(|_| self.settings.links)
            .map(FoundLinks::links)
            .unwrap_or_default()
    }

    /// Whether the links show on the canvas: looked for, at the last stage.
    fn links_shown(&self) -> bool {
        self.settings.links && self.stage() == Some(Stage::Detail)
    }

    /// Draws the points tried and the links kept; returns the kept links' ends.
    pub(super) fn paint_links(
        &self,
        painter: &egui::Painter,
        view: View,
        pointer: Option<Pos2>,
    ) -> Vec<Pos2> {
        let Some(found) = self.found_links().filter(|_| self.links_shown()) else {
            return Vec::new();
        };
        let s = |p: Vec2| view.screen_from_world(p);
        let hovered = pointer.and_then(|p| self.candidate_at(p, view));
        let cut = self.cut;
        let shown = |c: &LinkCandidate| {
            cut.is_none_or(|h| c.from_height <= h + 1e-9 && c.to_height <= h + 1e-9)
        };
        // The points left out first, thin, under the kept links.
        for (k, c) in found.candidates.iter().enumerate() {
            if !shown(c) || found.link_number(k).is_some() {
                continue;
            }
            let (colour, width) = match c.verdict {
                Err(reason) => (reason_colour(reason), 1.0),
                // Kept by another link beside it.
                Ok(kind) => (link_colour(kind).gamma_multiply(0.6), 1.0),
            };
            let width = if hovered == Some(k) { 3.0 } else { width };
            let to = if hovered == Some(k) {
                c.to
            } else {
                drawn_end(c)
            };
            let (a, b) = (s(c.from), s(to));
            painter.line_segment([a, b], Stroke::new(width, colour.gamma_multiply(0.8)));
            painter.circle_filled(a, 2.0, colour);
        }
        let mut ends = Vec::new();
        for (number, &k) in found.kept.iter().enumerate() {
            let Some(c) = found.candidates.get(k).filter(|c| shown(c)) else {
                continue;
            };
            let Some(link) = c.link(&found.search) else {
                continue;
            };
            let look = LinkLook {
                width: if hovered == Some(k) { 3.5 } else { 2.0 },
                ring: 3.0,
                text: 11.0,
            };
            let ends_on_screen = [s(link.from), s(link.to)];
            paint_link(painter, &link, ends_on_screen, number.to_string(), look);
            ends.extend(ends_on_screen);
        }
        ends
    }

    /// The candidate drawn nearest `pos` (within 6 pixels), a kept link before the others.
    fn candidate_at(&self, pos: Pos2, view: View) -> Option<usize> {
        let found = self.found_links().filter(|_| self.links_shown())?;
        let s = |p: Vec2| view.screen_from_world(p);
        let near = |k: usize| {
            let c = found.candidates.get(k)?;
            let d = if found.link_number(k).is_some() {
                let points = arc_points(s(c.from), s(c.to));
                points
                    .windows(2)
                    .map(|w| distance_to_segment(pos, w[0], w[1]))
                    .fold(f32::INFINITY, f32::min)
            } else {
                distance_to_segment(pos, s(c.from), s(drawn_end(c)))
            };
            (d <= 6.0).then_some(d)
        };
        let kept = found
            .kept
            .iter()
            .filter_map(|&k| Some((k, near(k)?)))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        kept.or_else(|| {
            (0..found.candidates.len())
                .filter_map(|k| Some((k, near(k)?)))
                .min_by(|a, b| a.1.total_cmp(&b.1))
        })
        .map(|(k, _)| k)
    }

    /// What the candidate under `pos` is, when there is one.
    pub(super) fn link_hover_text(&self, pos: Pos2, view: View) -> Option<String> {
        let k = self.candidate_at(pos, view)?;
        let found = self.found_links()?;
        let c = found.candidates.get(k)?;
        let from = format!(
            "from ({:.2}, {:.2}) at height {:.2}",
            c.from.x, c.from.y, c.from_height
        );
        Some(match (c.verdict, found.link_number(k)) {
            (Ok(kind), Some(number)) => {
                let way = match c.link(&found.search) {
                    Some(link) if link.both_ways => "both ways",
                    _ => "one way",
                };
                format!(
                    "{} link {number}, {way}: {from} to ({:.2}, {:.2}) at {:.2}, {:.2} across",
                    kind.name(),
                    c.to.x,
                    c.to.y,
                    c.to_height,
                    c.from.distance(c.to)
                )
            }
            (Ok(kind), None) => format!(
                "a {} {from}: not a link of its own, a link beside it joins the same floors",
                kind.name()
            ),
            (Err(reason), _) => format!("left out {from}: {}", reason.words()),
        })
    }

    /// The legend's rows for the links, when they show.
    pub(super) fn link_legend(&self) -> Vec<LegendRow> {
        let Some(found) = self.found_links().filter(|_| self.links_shown()) else {
            return Vec::new();
        };
        let mut rows = Vec::new();
        for kind in [LinkKind::Jump, LinkKind::Drop] {
            let n = found.kept_of(kind);
            if n > 0 {
                rows.push(LegendRow::line(
                    link_colour(kind),
                    2.0,
                    format!("{} link found ({n})", kind.name()),
                ));
            }
        }
        for (_, words, colour, n) in found.left_out() {
            rows.push(LegendRow::line(
                colour,
                1.0,
                format!("left out: {words} ({n})"),
            ));
        }
        rows
    }

    /// The panel's section: look for links or not, and what was found.
    pub(super) fn links_ui(&mut self, ui: &mut Ui) {
        ui.label(RichText::new("Off-mesh links").strong());
        let search = LinkSearch::for_agent(&self.settings.build);
        let tip = format!(
            "Look along the navmesh's border for jumps and drops to another floor: a gap of up to \
             {:.2} (2 + 2 × radius), a drop of up to {:.2} (2 × agent height), a jump up of up \
             to {:.2} (2 × max climb), with room above the way. Shown at the last stage; Open \
             in navmesh view takes the links kept",
            search.max_distance, search.max_drop, search.max_jump_up
        );
        if ui
            .checkbox(&mut self.settings.links, "Look for jumps and drops")
            .on_hover_text(tip)
            .changed()
        {
            self.rebuild();
        }
        if !self.settings.links {
            return;
        }
        if self.level.faces.len() > MAX_FACES_FOR_LINKS {
            ui.label(format!(
                "Not looked for: the level has more than {MAX_FACES_FOR_LINKS} faces \
                 (navlab build --links looks)"
            ));
            return;
        }
        let Some(found) = self.found_links() else {
            return;
        };
        let (jumps, drops) = (found.kept_of(LinkKind::Jump), found.kept_of(LinkKind::Drop));
        ui.label(format!(
            "{} points tried along the border: {} links kept ({jumps} jumps, {drops} drops)",
            found.candidates.len(),
            found.kept.len()
        ));
        for (name, words, colour, n) in found.left_out() {
            ui.horizontal(|ui| {
                let (rect, _) =
                    ui.allocate_exact_size(egui::vec2(14.0, 10.0), egui::Sense::hover());
                ui.painter().line_segment(
                    [rect.left_center(), rect.right_center()],
                    Stroke::new(2.0, colour),
                );
                ui.label(format!("left out, {words}: {n}"))
                    .on_hover_text(format!("`{name}` in navlab build --links --json"));
            });
        }
        if self.stage() != Some(Stage::Detail) {
            ui.label(RichText::new("Step to the last stage (the detail mesh) to see them.").weak());
        }
    }
}
