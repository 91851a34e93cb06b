//! Off-mesh links in the navmesh view: the Link tool (click the start, click the end; drag an
//! end to move it; click a link to select it), each link drawn as an arc with its arrow heads
//! and its cost, what the pointer is over said in words, and the panel's list of links with
//! their kind, way and cost.

use super::NavmeshScene;
use crate::app::camera::View;
use crate::geom::Vec2;
use crate::navmesh::links::{LinkCost, LinkKind, OffMeshLink, PathSegment};
use egui::{Color32, Pos2, Stroke, Ui};

/// What the Link tool makes, and the link it has in hand.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkTool {
    /// Its start, once clicked (the next click is its end).
    pub pending: Option<Vec2>,
    /// The kind of link made.
    pub kind: LinkKind,
    /// True to make links crossed from start to end only.
    pub one_way: bool,
    /// Their cost.
    pub cost: LinkCost,
    /// The link selected, by its number among the edits' links.
    pub selected: Option<usize>,
}

impl Default for LinkTool {
    fn default() -> Self {
        Self {
            pending: None,
            kind: LinkKind::Jump,
            one_way: false,
            cost: LinkCost::default(),
            selected: None,
        }
    }
}

/// The colour of a link of `kind`.
pub fn link_colour(kind: LinkKind) -> Color32 {
    match kind {
        LinkKind::Jump => Color32::from_rgb(255, 170, 60),
        LinkKind::Drop => Color32::from_rgb(120, 200, 255),
        LinkKind::Ladder => Color32::from_rgb(190, 150, 255),
        LinkKind::Teleport => Color32::from_rgb(255, 110, 200),
        LinkKind::Custom => Color32::from_rgb(200, 200, 200),
    }
}

/// The arc a link is drawn as, from `a` to `b` on screen: a quadratic curve bowed to the left
/// of its way by a quarter of its length (at least 12 pixels), as points.
pub fn arc_points(a: Pos2, b: Pos2) -> Vec<Pos2> {
    let d = b - a;
    let len = d.length();
    let normal = if len > 0.0 {
        egui::vec2(-d.y, d.x) / len
    } else {
        egui::vec2(0.0, -1.0)
    };
    let control = a + d * 0.5 + normal * (len * 0.25).max(12.0);
    (0..=24)
        .map(|k| {
            let t = k as f32 / 24.0;
            let u = 1.0 - t;
            Pos2::new(
                u * u * a.x + 2.0 * u * t * control.x + t * t * b.x,
                u * u * a.y + 2.0 * u * t * control.y + t * t * b.y,
            )
        })
        .collect()
}

/// A path on screen in pieces: each walk its polyline, each link the arc it is drawn as.
pub fn path_pieces(points: &[Pos2], segments: &[PathSegment]) -> Vec<Vec<Pos2>> {
    if segments.is_empty() {
        return vec![points.to_vec()];
    }
    segments
        .iter()
        .filter_map(|segment| {
            let (&a, &b) = (points.get(segment.first)?, points.get(segment.last)?);
            Some(match segment.link {
                Some(_) => arc_points(a, b),
                None => points.get(segment.first..=segment.last)?.to_vec(),
            })
        })
        .collect()
}

/// An arrow head at the end of `points`, pointing along its last step.
fn arrow_head(painter: &egui::Painter, points: &[Pos2], colour: Color32) {
    let [.., before, tip] = points else {
        return;
    };
    let dir = (*tip - *before).normalized();
    let side = egui::vec2(-dir.y, dir.x);
    let back = *tip - dir * 10.0;
    painter.add(egui::Shape::convex_polygon(
        vec![*tip, back + side * 5.0, back - side * 5.0],
        colour,
        Stroke::NONE,
    ));
}

/// How a link is drawn: the arc's width, the radius of the rings at its ends, the label's size.
#[derive(Debug, Clone, Copy)]
pub struct LinkLook {
    /// The arc's width.
    pub width: f32,
    /// The rings' radius (the label sits as far above the arc's top).
    pub ring: f32,
    /// The label's font size.
    pub text: f32,
}

/// Draws `link` from `from` to `to` on screen: an arc in its kind's colour, an arrow head at
/// each end it may be crossed towards, a ring at each end, `label` over its top; returns the
/// arc.
pub fn paint_link(
    painter: &egui::Painter,
    link: &OffMeshLink,
    [from, to]: [Pos2; 2],
    label: String,
    look: LinkLook,
) -> Vec<Pos2> {
    let colour = link_colour(link.kind);
    let points = arc_points(from, to);
    painter.add(egui::Shape::line(
        points.clone(),
        Stroke::new(look.width, colour),
    ));
    arrow_head(painter, &points, colour);
    if link.both_ways {
        let back: Vec<Pos2> = points.iter().rev().copied().collect();
        arrow_head(painter, &back, colour);
    }
    for end in [from, to] {
        painter.circle_stroke(end, look.ring, Stroke::new(1.5, colour));
    }
    if let Some(&top) = points.get(points.len() / 2) {
        painter.text(
            top + egui::vec2(0.0, -look.ring),
            egui::Align2::CENTER_BOTTOM,
            label,
            egui::FontId::proportional(look.text),
            colour,
        );
    }
    points
}

/// A link's cost in words: "4.0" (fixed) or "1.5 × length".
pub fn cost_words(cost: LinkCost) -> String {
    match cost {
        LinkCost::Fixed(c) => format!("{c:.1}"),
        LinkCost::PerLength(m) => format!("{m:.1} × length"),
    }
}

/// A link in a few words: "jump link 3, both ways, cost 4.0".
pub fn describe(number: usize, link: &OffMeshLink) -> String {
    let way = if link.both_ways {
        "both ways"
    } else {
        "one way"
    };
    format!(
        "{} link {number}, {way}, cost {} ({:.2} from {} to {})",
        link.kind.name(),
        cost_words(link.cost),
        link.cost_under(&crate::navmesh::areas::AreaCosts::default()),
        link.from,
        link.to
    )
}

impl NavmeshScene {
    /// The number (on the mesh) of the link whose arc passes within `tolerance` pixels of
    /// `pos`, the last drawn first.
    pub fn link_at(&self, pos: Pos2, view: View, tolerance: f32) -> Option<usize> {
        let s = |p: Vec2| view.screen_from_world(p);
        self.view.mesh().links().iter().rposition(|link| {
            arc_points(s(link.from), s(link.to))
                .windows(2)
                .any(|w| distance_to_segment(pos, w[0], w[1]) <= tolerance)
        })
    }

    /// Draws every link: its arc, arrow heads (at both ends when it goes both ways), its cost
    /// at the arc's top; the selected one and the ones the path crosses thicker; the start of a
    /// link being placed.
    pub(super) fn paint_links(&self, painter: &egui::Painter, view: View, pointer: Option<Pos2>) {
        let s = |p: Vec2| view.screen_from_world(p);
        let mesh = self.view.mesh();
        let crossed: Vec<usize> = self
            .query
            .timeline
            .path
            .as_ref()
            .map(|p| {
                p.segments
                    .iter()
                    .filter_map(|s| Some(s.link?.link))
                    .collect()
            })
            .unwrap_or_default();
        let first_edited = self.view.editor().base_link_count();
        let selected = self.edit.link.selected.map(|k| k + first_edited);
        let hovered = pointer.and_then(|p| self.link_at(p, view, 6.0));
        for (k, link) in mesh.links().iter().enumerate() {
            let width = if crossed.contains(&k) || selected == Some(k) || hovered == Some(k) {
                3.5
            } else {
                2.0
            };
            let look = LinkLook {
                width,
                ring: 4.0,
                text: 12.0,
            };
            let label = format!("{k}: {}", cost_words(link.cost));
            paint_link(painter, link, [s(link.from), s(link.to)], label, look);
        }
        if self.edit.tool == super::editing::Tool::Link
            && let Some(from) = self.edit.link.pending
        {
            let colour = link_colour(self.edit.link.kind);
            painter.circle_filled(s(from), 5.0, colour);
            if let Some(to) = pointer {
                let points = arc_points(s(from), to);
                crate::app::clipped::dashed_line(
                    painter,
                    &points,
                    Stroke::new(2.0, colour),
                    6.0,
                    4.0,
                );
            }
        }
    }

    /// The link the Link tool makes from `from` to `to`.
    fn new_link(&self, from: Vec2, to: Vec2) -> OffMeshLink {
        let floor_height = |p: Vec2| {
            let floors = self.view.mesh().floors_at(p);
            (floors.len() > 1)
                .then(|| floors.first().map(|f| f.height))
                .flatten()
        };
        let link = OffMeshLink::new(from, to)
            .kind(self.edit.link.kind)
            .costing(self.edit.link.cost)
            .heights(floor_height(from), floor_height(to));
        if self.edit.link.one_way {
            link.one_way()
        } else {
            link
        }
    }

    /// A click with the Link tool: on a link, selects it; else the start of a new link, or its
    /// end (the link is made).
    pub(super) fn link_click(&mut self, pos: Pos2, at: Vec2, view: View) {
        if self.edit.link.pending.is_none() {
            let first_edited = self.view.editor().base_link_count();
            if let Some(k) = self.link_at(pos, view, 6.0) {
                self.edit.link.selected = k.checked_sub(first_edited);
                if self.edit.link.selected.is_none() {
                    self.screen.pending_notice =
                        Some("That link is the mesh's own: it cannot be edited here".into());
                }
                return;
            }
            if self.view.mesh().triangle_at(at).is_none() {
                self.screen.pending_notice = Some("A link starts on the mesh".into());
                return;
            }
            self.edit.link.pending = Some(at);
            self.edit.link.selected = None;
            return;
        }
        let Some(from) = self.edit.link.pending.take() else {
            return;
        };
        if self.view.mesh().triangle_at(at).is_none() {
            self.edit.link.pending = Some(from);
            self.screen.pending_notice = Some("A link ends on the mesh".into());
            return;
        }
        let link = self.new_link(from, at);
        if let Some(k) = self.edit_mesh(|editor| editor.add_link(link)) {
            self.edit.link.selected = Some(k);
        }
    }

    /// The end of an edited link within grabbing distance of `press`: its number among the
    /// edits' links, the link, and true for its end (false: its start).
    pub(super) fn link_end_at(
        &self,
        press: Pos2,
        view: View,
    ) -> Option<(usize, OffMeshLink, bool)> {
        let grab = 8.0;
        self.view
            .editor()
            .links()
            .iter()
            .enumerate()
            .rev()
            .find_map(|(k, link)| {
                if view.screen_from_world(link.to).distance(press) < grab {
                    Some((k, link.clone(), true))
                } else if view.screen_from_world(link.from).distance(press) < grab {
                    Some((k, link.clone(), false))
                } else {
                    None
                }
            })
    }

    /// Removes the selected link; true when there was one.
    pub fn delete_selected_link(&mut self) -> bool {
        let Some(k) = self.edit.link.selected.take() else {
            return false;
        };
        self.edit_mesh(|editor| editor.remove_link(k)).is_some()
    }

    /// What the pointer is over, when it is a link: for the canvas's tooltip.
    pub(super) fn link_tooltip(&self, pos: Pos2, view: View) -> Option<String> {
        let k = self.link_at(pos, view, 6.0)?;
        let link = self.view.mesh().links().get(k)?;
        Some(describe(k, link))
    }

    /// The Link tool's settings, and the links added, each with its kind, way and cost, the
    /// selected one editable.
    pub(super) fn links_ui(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            egui::ComboBox::from_id_salt("new link kind")
                .selected_text(self.edit.link.kind.name())
                .show_ui(ui, |ui| {
                    for kind in LinkKind::ALL {
                        ui.selectable_value(&mut self.edit.link.kind, kind, kind.name());
                    }
                })
                .response
                .on_hover_text("What the Link tool makes: how an agent crosses it");
            ui.checkbox(&mut self.edit.link.one_way, "one way")
                .on_hover_text("Crossed from its start to its end only (a drop, say)");
        });
        cost_ui(ui, &mut self.edit.link.cost, "new link cost");
        let links = self.view.editor().links().to_vec();
        if links.is_empty() {
            ui.label(
                egui::RichText::new("No links: click a start, then an end, with the Link tool")
                    .weak(),
            );
            return;
        }
        let first = self.view.editor().base_link_count();
        for (k, link) in links.iter().enumerate() {
            let chosen = self.edit.link.selected == Some(k);
            let text = format!(
                "{}: {} {}",
                k + first,
                link.kind.name(),
                if link.both_ways {
                    "both ways"
                } else {
                    "one way"
                }
            );
            if ui
                .selectable_label(chosen, text)
                .on_hover_text(describe(k + first, link))
                .clicked()
            {
                self.edit.link.selected = if chosen { None } else { Some(k) };
            }
        }
        let Some(k) = self.edit.link.selected else {
            return;
        };
        let Some(mut link) = links.get(k).cloned() else {
            self.edit.link.selected = None;
            return;
        };
        let before = link.clone();
        ui.separator();
        ui.label(format!("Link {}", k + first));
        ui.horizontal(|ui| {
            egui::ComboBox::from_id_salt("selected link kind")
                .selected_text(link.kind.name())
                .show_ui(ui, |ui| {
                    for kind in LinkKind::ALL {
                        ui.selectable_value(&mut link.kind, kind, kind.name());
                    }
                });
            let mut one_way = !link.both_ways;
            ui.checkbox(&mut one_way, "one way")
                .on_hover_text("Crossed from its start to its end only");
            link.both_ways = !one_way;
        });
        cost_ui(ui, &mut link.cost, "selected link cost");
        if link != before {
            self.edit_mesh(|editor| editor.replace_link(k, link));
        }
        if ui
            .button("Delete link")
            .on_hover_text("Remove this link (Delete)")
            .clicked()
        {
            self.delete_selected_link();
        }
    }
}

/// A cost: fixed or per unit of length, and its value.
fn cost_ui(ui: &mut Ui, cost: &mut LinkCost, id: &str) {
    ui.push_id(id, |ui| {
        ui.horizontal(|ui| {
            let (mut fixed, mut value) = match *cost {
                LinkCost::Fixed(c) => (true, c),
                LinkCost::PerLength(m) => (false, m),
            };
            ui.label("Cost");
            ui.add(
                egui::DragValue::new(&mut value)
                    .range(0.0..=1000.0)
                    .speed(0.05)
                    .max_decimals(2),
            )
            .on_hover_text("What crossing it costs, against walking's 1 per unit of length");
            ui.radio_value(&mut fixed, false, "× length")
                .on_hover_text("Its length times this");
            ui.radio_value(&mut fixed, true, "fixed")
                .on_hover_text("This, however long it is");
            *cost = if fixed {
                LinkCost::Fixed(value)
            } else {
                LinkCost::PerLength(value)
            };
        });
    });
}

/// How far `p` is from the segment `a`–`b`, on screen.
pub fn distance_to_segment(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let v = |q: Pos2| Vec2::new(f64::from(q.x), f64::from(q.y));
    let near = crate::geom::closest_point_on_segment(v(a), v(b), v(p));
    v(p).distance(near) as f32
}
