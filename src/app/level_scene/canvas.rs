//! The level seen from above at the stage shown: the faces coloured by height (walkable or too
//! steep), the grid's cells as the stage left them (one texture pixel per cell), the contours,
//! the polygons and the detail mesh; the point asked about and the cross-section's line; the
//! clicks that ask and the drags that draw a section.

use super::{LevelScene, LevelTool};
use crate::app::camera::View;
use crate::app::legend::LegendRow;
use crate::geom::Vec2;
use crate::level::{BuildRecord, Reason, Stage};
use egui::{Color32, Pos2, Sense, Shape, Stroke, Ui};
use std::collections::HashMap;

/// The canvas's background.
const BACKGROUND: Color32 = Color32::from_rgb(24, 26, 31);
/// A face or span too steep to walk.
pub(super) const STEEP: Color32 = Color32::from_rgb(150, 62, 58);
/// A span that is not walkable (nothing to do with this stage).
pub(super) const SOLID: Color32 = Color32::from_rgb(70, 72, 78);
/// Spans the low hanging obstacles filter made walkable.
const MADE_WALKABLE: Color32 = Color32::from_rgb(80, 150, 255);
/// Spans the ledge filter dropped.
const LEDGE: Color32 = Color32::from_rgb(240, 90, 40);
/// Spans the low ceiling filter dropped.
const LOW_CEILING: Color32 = Color32::from_rgb(215, 80, 215);
/// Spans the erosion dropped.
const ERODED: Color32 = Color32::from_rgb(245, 170, 40);
/// Spans of islands the regions stage dropped.
const DROPPED_REGION: Color32 = Color32::from_rgb(230, 45, 45);
/// The raw contours.
const RAW_CONTOUR: Color32 = Color32::from_rgb(255, 255, 255);
/// The simplified contours.
const CONTOUR: Color32 = Color32::from_rgb(255, 225, 90);
/// Polygon outlines.
const POLYGON_EDGE: Color32 = Color32::from_rgb(20, 24, 30);
/// The point asked about.
const ASKED: Color32 = Color32::from_rgb(255, 255, 255);
/// Marked volumes.
const AREA: Color32 = Color32::from_rgb(255, 150, 60);
/// The cross-section's line.
pub(super) const SECTION: Color32 = Color32::from_rgb(0, 230, 230);

/// A colour for a height between `range`'s ends: deep blue low, through green, to sand high.
pub(super) fn height_colour(y: f64, [low, high]: [f64; 2]) -> Color32 {
    let t = if high > low {
        ((y - low) / (high - low)).clamp(0.0, 1.0)
    } else {
        0.5
    };
    let stops = [
        (0.0, [48.0, 88.0, 160.0]),
        (0.5, [70.0, 160.0, 110.0]),
        (1.0, [225.0, 205.0, 130.0]),
    ];
    let (a, b) = if t <= 0.5 {
        (stops[0], stops[1])
    } else {
        (stops[1], stops[2])
    };
    let f = ((t - a.0) / (b.0 - a.0)) as f32;
    let mix = |i: usize| (a.1[i] + (b.1[i] - a.1[i]) * f).round() as u8;
    Color32::from_rgb(mix(0), mix(1), mix(2))
}

/// A colour of its own for region `region` (neighbouring numbers far apart).
pub(super) fn region_colour(region: u16) -> Color32 {
    let hue = (f32::from(region) * 0.618_034).fract();
    egui::ecolor::Hsva::new(hue, 0.55, 0.85, 1.0).into()
}

/// The textures of the cell stages, made once per build, stage and cut.
#[derive(Default)]
pub struct StageTextures {
    /// By step (0: the level before the build) and cut.
    made: HashMap<(usize, Option<u64>), egui::TextureHandle>,
}

impl StageTextures {
    /// Forgets them (a new build).
    pub fn clear(&mut self) {
        self.made.clear();
    }

    fn get(
        &mut self,
        ctx: &egui::Context,
        record: &BuildRecord,
        stage: Option<Stage>,
        cut: Option<f64>,
        heights: [f64; 2],
    ) -> Option<egui::TextureId> {
        let key = (stage.map_or(0, |s| s.index() + 1), cut.map(f64::to_bits));
        if let std::collections::hash_map::Entry::Vacant(slot) = self.made.entry(key) {
            let image = cell_image(record, stage, cut, heights)?;
            slot.insert(ctx.load_texture(
                format!("level stage {}", key.0),
                image,
                egui::TextureOptions::NEAREST,
            ));
        }
        self.made.get(&key).map(egui::TextureHandle::id)
    }
}

/// Whether the stage is drawn cell by cell (the level before the build is drawn as its height
/// map: the top of each cell's spans, walkable or not).
fn is_cell_stage(stage: Option<Stage>) -> bool {
    !matches!(
        stage,
        Some(Stage::Triangles | Stage::Polygons | Stage::Detail)
    )
}

/// One pixel per cell: the top span (at or below the cut) as `stage` left it; before the first
/// stage, the top span's height.
fn cell_image(
    record: &BuildRecord,
    stage: Option<Stage>,
    cut: Option<f64>,
    heights: [f64; 2],
) -> Option<egui::ColorImage> {
    let [w, d] = record.grid.map(usize::from);
    if w == 0 || d == 0 {
        return None;
    }
    let mut pixels = vec![Color32::TRANSPARENT; w * d];
    let cut_cells = cut.map(|y| ((y - record.origin[1]) / record.cell_height).floor());
    let below_cut = |top: u16| cut_cells.is_none_or(|c| f64::from(top) <= c);
    let Some(stage) = stage else {
        for z in 0..d {
            for x in 0..w {
                let top = record
                    .spans_of(x as u16, z as u16)
                    .filter(|(_, s)| below_cut(s.max))
                    .last();
                if let (Some((_, span)), Some(pixel)) = (top, pixels.get_mut(z * w + x)) {
                    *pixel = height_colour(record.world_y(span.max), heights);
                }
            }
        }
        return Some(egui::ColorImage::new([w, d], pixels));
    };
    let filter = match stage {
        Stage::Rasterised => Some(0),
        Stage::LowHangingObstacles => Some(1),
        Stage::Ledges => Some(2),
        Stage::LowCeilings => Some(3),
        _ => None,
    };
    for z in 0..d {
        for x in 0..w {
            let (cx, cz) = (x as u16, z as u16);
            let colour = if let Some(filter) = filter {
                let Some((_, span)) = record
                    .spans_of(cx, cz)
                    .filter(|(_, s)| below_cut(s.max))
                    .last()
                else {
                    continue;
                };
                let y = record.world_y(span.max);
                let now = span.walkable[filter];
                let before = filter.checked_sub(1).map_or(now, |f| span.walkable[f]);
                match (before, now, filter) {
                    (false, true, _) => MADE_WALKABLE,
                    (true, false, 2) => LEDGE,
                    (true, false, _) => LOW_CEILING,
                    (_, true, _) => height_colour(y, heights),
                    (false, false, 0) => STEEP,
                    (false, false, _) => SOLID,
                }
            } else {
                let Some((_, span)) = record
                    .compact_of(cx, cz)
                    .filter(|(_, s)| below_cut(s.y))
                    .last()
                else {
                    continue;
                };
                let y = record.world_y(span.y);
                match stage {
                    Stage::Compact => height_colour(y, heights),
                    Stage::Erosion if !span.kept_by_erosion => ERODED,
                    Stage::Erosion => height_colour(y, heights),
                    Stage::DistanceField if !span.kept_by_erosion => SOLID,
                    Stage::DistanceField => {
                        let t = f64::from(span.distance) / f64::from(record.max_distance.max(1));
                        let v = (40.0 + 215.0 * t.clamp(0.0, 1.0)) as u8;
                        Color32::from_rgb(v, v, v)
                    }
                    _ if !span.kept_by_erosion => SOLID,
                    _ if span.region == 0 => DROPPED_REGION,
                    Stage::Regions => region_colour(span.region),
                    _ => region_colour(span.region).gamma_multiply(0.45),
                }
            };
            if let Some(pixel) = pixels.get_mut(z * w + x) {
                *pixel = colour;
            }
        }
    }
    Some(egui::ColorImage::new([w, d], pixels))
}

impl LevelScene {
    /// Marks the ground of the rectangle from `a` to `b` with the area type chosen: at any
    /// height, or at and below the height cut when there is one.
    pub fn mark_rectangle(&mut self, a: Vec2, b: Vec2) {
        let (x0, x1) = (a.x.min(b.x), a.x.max(b.x));
        let (z0, z1) = (a.y.min(b.y), a.y.max(b.y));
        let [low, high] = self.level.height_range();
        let volume = crate::level::MarkedVolume {
            points: vec![[x0, z0], [x1, z0], [x1, z1], [x0, z1]],
            min_y: low - 1.0,
            max_y: self.cut.unwrap_or(high) + 1.0,
            area: self.marking.clone(),
        };
        self.add_volume(volume);
    }

    /// The canvas: clicks ask why, drags draw a section or mark an area, the stage is drawn.
    pub(super) fn canvas_ui(&mut self, ui: &mut Ui) {
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Level canvas"));
        let rect = response.rect;
        self.canvas_rect = Some(rect);
        let camera = self.camera.for_canvas(self.level.bounds(), rect);
        let view = View { camera, rect };
        painter.rect_filled(rect, 0.0, BACKGROUND);
        if response.dragged_by(egui::PointerButton::Middle)
            || response.dragged_by(egui::PointerButton::Secondary)
        {
            self.camera.pan(response.drag_delta());
        }
        self.camera.zoom_with_wheel(ui, &response);
        let pointer = response
            .interact_pointer_pos()
            .map(|p| view.world_from_screen(p));
        match self.tool {
            LevelTool::Why => {
                if response.clicked()
                    && let Some(at) = pointer
                {
                    let floor = self.floor_under_cut([at.x, at.y]);
                    self.ask([at.x, at.y], floor);
                }
            }
            LevelTool::Section => {
                // Press, moves and release can reach egui in one frame (a quick stroke after a
                // slow frame): no drag is seen then, the events say where it went.
                let (pressed, released) = ui.input(|i| {
                    let mut at = (None, None);
                    for event in &i.events {
                        if let egui::Event::PointerButton {
                            pos,
                            button: egui::PointerButton::Primary,
                            pressed,
                            ..
                        } = event
                        {
                            if *pressed {
                                at = (Some(*pos), None);
                            } else if at.0.is_some() {
                                at.1 = Some(*pos);
                            }
                        }
                    }
                    at
                });
                if let (Some(from), Some(to)) = (pressed, released)
                    && rect.contains(from)
                    && from.distance(to) > 3.0
                {
                    self.set_section(Some([
                        view.world_from_screen(from),
                        view.world_from_screen(to),
                    ]));
                }
                if response.drag_started_by(egui::PointerButton::Primary) {
                    // From where the button went down, not where the drag was first seen.
                    self.section_from = ui
                        .input(|i| i.pointer.press_origin())
                        .map(|p| view.world_from_screen(p))
                        .or(pointer);
                }
                if let (Some(from), Some(to)) = (self.section_from, pointer)
                    && response.dragged_by(egui::PointerButton::Primary)
                {
                    self.set_section(Some([from, to]));
                }
                if response.drag_stopped() {
                    // The release may come in the frame of the last move: its place ends the line.
                    let end = ui
                        .input(|i| i.pointer.latest_pos())
                        .map(|p| view.world_from_screen(p))
                        .or(pointer);
                    if let (Some(from), Some(to)) = (self.section_from, end) {
                        self.set_section(Some([from, to]));
                    }
                    self.section_from = None;
                }
            }
            LevelTool::Area => {
                if response.drag_started_by(egui::PointerButton::Primary) {
                    self.area_from = ui
                        .input(|i| i.pointer.press_origin())
                        .map(|p| view.world_from_screen(p))
                        .or(pointer);
                }
                if response.drag_stopped() {
                    let end = ui
                        .input(|i| i.pointer.latest_pos())
                        .map(|p| view.world_from_screen(p))
                        .or(pointer);
                    if let (Some(from), Some(to)) = (self.area_from.take(), end) {
                        self.mark_rectangle(from, to);
                    }
                }
            }
        }
        let marks = self.paint(ui.ctx(), &painter, view, response.hover_pos());
        // The rectangle being marked.
        if let (Some(from), Some(to), LevelTool::Area) = (
            self.area_from,
            response
                .interact_pointer_pos()
                .map(|p| view.world_from_screen(p)),
            self.tool,
        ) {
            let rect =
                egui::Rect::from_two_pos(view.screen_from_world(from), view.screen_from_world(to));
            painter.rect_stroke(rect, 0.0, Stroke::new(2.0, AREA), egui::StrokeKind::Middle);
        }
        let caption = crate::app::camera::paint_caption(&painter, rect, self.caption());
        self.legend_rect = None;
        if self.settings.legend {
            let keep = crate::app::legend::KeepClear {
                marks: &marks,
                taken: &[caption],
                lines: &[],
                shows: &|_| 1,
            };
            self.legend_rect =
                crate::app::legend::paint_legend(&painter, rect, &self.legend(), &keep);
        }
        if let Some(pos) = response.hover_pos() {
            let at = view.world_from_screen(pos);
            let text = match self.link_hover_text(pos, view) {
                Some(link) => format!("{link}\n{}", self.hover_text(at)),
                None => self.hover_text(at),
            };
            let _ = response.on_hover_text_at_pointer(text);
        }
    }

    /// The surface to ask about at `at`: the highest at or below the cut (the top one
    /// without a cut).
    fn floor_under_cut(&self, at: [f64; 2]) -> Option<usize> {
        let cut = self.cut?;
        let built = self.built.as_ref()?;
        let surfaces = crate::level::surface_heights(&built.record, at);
        surfaces.iter().rposition(|&y| y <= cut + 1e-9)
    }

    fn caption(&self) -> String {
        let stage = self
            .stage()
            .map_or("The level, coloured by height", Stage::title);
        match (&self.built, &self.error) {
            (_, Some(error)) => format!("{stage} · no navmesh: {error}"),
            (Some(built), _) => {
                let sentence = self
                    .stage()
                    .map(|s| built.sentence(s).to_owned())
                    .unwrap_or_else(|| {
                        format!(
                            "{} faces; step forward to rasterise, filter and build.",
                            self.level.faces.len()
                        )
                    });
                let links = match (self.stage(), self.found_links()) {
                    (Some(Stage::Detail), Some(found)) if self.settings.links => format!(
                        " Off-mesh links: {} kept of {} points tried along the border (hover one).",
                        found.kept.len(),
                        found.candidates.len()
                    ),
                    _ => String::new(),
                };
                format!("{stage}: {sentence}{links}")
            }
            _ => format!("{stage} · building…"),
        }
    }

    /// Draws the stage; returns the marks a legend must leave in sight.
    fn paint(
        &mut self,
        ctx: &egui::Context,
        painter: &egui::Painter,
        view: View,
        pointer: Option<Pos2>,
    ) -> Vec<Pos2> {
        let heights = self.level.height_range();
        let stage = self.stage();
        let built = self.built.clone();
        let cut = self.cut;
        let shown_face = |ys: [f64; 3]| cut.is_none_or(|c| ys.iter().all(|&y| y <= c + 1e-9));
        // The faces that face up (from above, one that faces down is its back), lowest first so
        // that what is above is mostly drawn over what is below (the height map drawn once there
        // is a build is exact); at the first stage, walkable or steep, the walkable drawn over
        // the steep (where the ground is is what the stage sorts out); faint behind the others.
        let faces_faint = stage != Some(Stage::Triangles);
        let level = &self.level;
        let walkable_of = |k: usize| {
            built
                .as_ref()
                .map(|b| &b.record)
                .filter(|r| r.triangles.len() == level.triangles().len())
                .and_then(|r| r.walkable_triangles.get(k).copied())
        };
        let passes: &[Option<bool>] = if stage == Some(Stage::Triangles) {
            &[Some(false), Some(true)]
        } else {
            &[None]
        };
        for &pass in passes {
            for &k in level.by_height() {
                let walkable = walkable_of(k);
                let Some(corners) = level.triangles().get(k) else {
                    continue;
                };
                if pass.is_some_and(|p| walkable.is_some_and(|w| w != p))
                    || !shown_face(corners.map(|v| v[1]))
                {
                    continue;
                }
                let mean = corners.iter().map(|v| v[1]).sum::<f64>() / 3.0;
                let mut fill = match (stage, walkable) {
                    (Some(Stage::Triangles), Some(false)) => STEEP,
                    _ => height_colour(mean, heights),
                };
                if faces_faint {
                    fill = fill.gamma_multiply(0.25);
                }
                let points: Vec<Pos2> = corners
                    .iter()
                    .map(|v| view.screen_from_world(Vec2::new(v[0], v[2])))
                    .collect();
                painter.add(Shape::convex_polygon(
                    points,
                    fill,
                    Stroke::new(0.5, Color32::from_black_alpha(90)),
                ));
            }
        }
        if let Some(built) = &built {
            let record = &built.record;
            if is_cell_stage(stage)
                && let Some(texture) = self.textures.get(ctx, record, stage, cut, heights)
            {
                let [w, d] = record.grid.map(f64::from);
                let min = view.screen_from_world(Vec2::new(record.origin[0], record.origin[2]));
                let max = view.screen_from_world(Vec2::new(
                    record.origin[0] + w * record.cell_size,
                    record.origin[2] + d * record.cell_size,
                ));
                painter.image(
                    texture,
                    egui::Rect::from_two_pos(min, max),
                    egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
                    Color32::WHITE,
                );
            }
            let contours = match stage {
                Some(Stage::RawContours) => Some((&record.raw_contours, RAW_CONTOUR, 1.0)),
                Some(Stage::Contours) => Some((&record.contours, CONTOUR, 2.0)),
                _ => None,
            };
            if let Some((contours, colour, width)) = contours {
                for contour in contours {
                    if !cut.is_none_or(|c| {
                        contour
                            .points
                            .iter()
                            .all(|p| p[1] <= c + record.cell_height)
                    }) {
                        continue;
                    }
                    let mut points: Vec<Pos2> = contour
                        .points
                        .iter()
                        .map(|p| view.screen_from_world(Vec2::new(p[0], p[2])))
                        .collect();
                    if let Some(&first) = points.first() {
                        points.push(first);
                    }
                    painter.add(Shape::line(points, Stroke::new(width, colour)));
                }
            }
            if stage == Some(Stage::Polygons) {
                let mesh = &record.polygons;
                for (p, polygon) in mesh.polygons.iter().enumerate() {
                    let corners: Vec<[f64; 3]> = polygon
                        .iter()
                        .filter_map(|&v| mesh.positions.get(v).copied())
                        .collect();
                    if !cut.is_none_or(|c| corners.iter().all(|v| v[1] <= c + record.cell_height)) {
                        continue;
                    }
                    let island = record.polygon_islands.get(p).copied().unwrap_or(0);
                    let points: Vec<Pos2> = corners
                        .iter()
                        .map(|v| view.screen_from_world(Vec2::new(v[0], v[2])))
                        .collect();
                    painter.add(Shape::convex_polygon(
                        points,
                        region_colour(island as u16 + 1),
                        Stroke::new(1.5, POLYGON_EDGE),
                    ));
                }
            }
            if stage == Some(Stage::Detail) {
                for triangle in built
                    .detail_by_height
                    .iter()
                    .filter_map(|&k| record.detail.get(k))
                {
                    if !shown_face(triangle.map(|v| v[1] - record.cell_height)) {
                        continue;
                    }
                    let mean = triangle.iter().map(|v| v[1]).sum::<f64>() / 3.0;
                    let points: Vec<Pos2> = triangle
                        .iter()
                        .map(|v| view.screen_from_world(Vec2::new(v[0], v[2])))
                        .collect();
                    painter.add(Shape::convex_polygon(
                        points,
                        height_colour(mean, heights),
                        Stroke::new(0.7, Color32::from_black_alpha(140)),
                    ));
                }
            }
        }
        for volume in self.volumes.iter() {
            let mut points: Vec<Pos2> = crate::level::convex_hull(&volume.points)
                .iter()
                .map(|&[x, z]| view.screen_from_world(Vec2::new(x, z)))
                .collect();
            if let Some(&first) = points.first() {
                points.push(first);
                painter.add(Shape::dashed_line(
                    &points,
                    Stroke::new(2.0, AREA),
                    6.0,
                    4.0,
                ));
                crate::app::camera::paint_tag(
                    painter,
                    first + egui::vec2(4.0, 16.0),
                    volume.area.clone(),
                    AREA,
                );
            }
        }
        let mut marks = self.paint_links(painter, view, pointer);
        if let Some([a, b]) = self.section {
            let (a, b) = (view.screen_from_world(a), view.screen_from_world(b));
            painter.line_segment([a, b], Stroke::new(2.5, SECTION));
            painter.circle_filled(a, 4.0, SECTION);
            painter.circle_stroke(b, 5.0, Stroke::new(2.0, SECTION));
            marks.extend([a, b]);
        }
        if let Some(why) = &self.why {
            let at = view.screen_from_world(Vec2::new(why.at[0], why.at[1]));
            let colour = if why.is_kept() {
                Color32::from_rgb(90, 230, 120)
            } else {
                Color32::from_rgb(255, 90, 90)
            };
            painter.circle_filled(at, 6.0, colour);
            painter.circle_stroke(at, 6.0, Stroke::new(2.0, ASKED));
            let short = match why.reason {
                Reason::Kept { .. } => "on the navmesh".to_owned(),
                _ => why.stage.map_or("no ground", Stage::title).to_owned(),
            };
            crate::app::camera::paint_tag(
                &painter.clone(),
                at + egui::vec2(9.0, -8.0),
                short,
                Color32::WHITE,
            );
            marks.push(at);
        }
        marks
    }

    /// What the pointer is over: the point, the cell and its spans at the stage shown.
    fn hover_text(&self, at: Vec2) -> String {
        let mut text = format!("({:.2}, {:.2})", at.x, at.y);
        if let Some(built) = &self.built {
            let record = &built.record;
            if let Some((x, z)) = record.cell_at(at.x, at.y) {
                text.push_str(&format!("\ncell {x}, {z}"));
                let tops: Vec<String> = record
                    .spans_of(x, z)
                    .map(|(_, s)| {
                        format!(
                            "{:.2}{}",
                            record.world_y(s.max),
                            if s.walkable[3] { "" } else { " (not walkable)" }
                        )
                    })
                    .collect();
                if !tops.is_empty() {
                    text.push_str(&format!("\nspan tops: {}", tops.join(", ")));
                }
            }
        }
        if self.tool == LevelTool::Why {
            text.push_str("\nclick: why is there (no) navmesh here?");
        }
        text
    }

    /// What the canvas's colours and marks mean at the stage shown.
    pub(super) fn legend(&self) -> Vec<LegendRow> {
        let heights = self.level.height_range();
        let low = height_colour(heights[0], heights);
        let high = height_colour(heights[1], heights);
        let mut rows = vec![
            LegendRow::fill(low, format!("low (y = {:.1})", heights[0])),
            LegendRow::fill(high, format!("high (y = {:.1})", heights[1])),
        ];
        match self.stage() {
            None => {}
            Some(Stage::Triangles) => rows.push(LegendRow::fill(STEEP, "too steep or facing down")),
            Some(Stage::Rasterised) => rows.push(LegendRow::fill(STEEP, "top not walkable")),
            Some(Stage::LowHangingObstacles) => {
                rows.push(LegendRow::fill(
                    MADE_WALKABLE,
                    "made walkable (within a climb)",
                ));
                rows.push(LegendRow::fill(SOLID, "not walkable"));
            }
            Some(Stage::Ledges) => {
                rows.push(LegendRow::fill(LEDGE, "dropped: beside a drop (ledge)"));
                rows.push(LegendRow::fill(SOLID, "not walkable"));
            }
            Some(Stage::LowCeilings) => {
                rows.push(LegendRow::fill(LOW_CEILING, "dropped: ceiling too low"));
                rows.push(LegendRow::fill(SOLID, "not walkable"));
            }
            Some(Stage::Compact) => {}
            Some(Stage::Erosion) => rows.push(LegendRow::fill(
                ERODED,
                "dropped: within the radius of a wall",
            )),
            Some(Stage::DistanceField) => {
                rows.truncate(0);
                rows.push(LegendRow::fill(
                    Color32::from_rgb(40, 40, 40),
                    "at a border",
                ));
                rows.push(LegendRow::fill(Color32::WHITE, "farthest from a border"));
            }
            Some(Stage::Regions | Stage::RawContours | Stage::Contours) => {
                rows.truncate(0);
                rows.push(LegendRow::fill(
                    region_colour(1),
                    "a region (one colour each)",
                ));
                rows.push(LegendRow::fill(DROPPED_REGION, "dropped: island too small"));
                match self.stage() {
                    Some(Stage::RawContours) => {
                        rows.push(LegendRow::line(RAW_CONTOUR, 1.0, "contour along the cells"))
                    }
                    Some(Stage::Contours) => {
                        rows.push(LegendRow::line(CONTOUR, 2.0, "simplified contour"))
                    }
                    _ => {}
                }
            }
            Some(Stage::Polygons) => {
                rows.truncate(0);
                rows.push(LegendRow::fill(
                    region_colour(1),
                    "polygon (one colour per island)",
                ));
            }
            Some(Stage::Detail) => {}
        }
        rows.extend(self.link_legend());
        if self.section.is_some() {
            rows.push(LegendRow::line(SECTION, 2.5, "cross-section"));
        }
        if !self.volumes.is_empty() {
            rows.push(LegendRow::line(AREA, 2.0, "marked area (its type named)").dashed());
        }
        if self.why.is_some() {
            rows.push(LegendRow::fill(
                Color32::from_rgb(255, 90, 90),
                "asked: not on the navmesh",
            ));
            rows.push(LegendRow::fill(
                Color32::from_rgb(90, 230, 120),
                "asked: on the navmesh",
            ));
        }
        rows
    }
}
