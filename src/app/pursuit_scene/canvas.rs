//! The pursuit canvas: left clicks that add or remove mobs, send the kitten or paint the map,
//! and the map drawn with the trail, the agents, their rays and whiskers.

use super::{PursuitScene, PursuitTool};
use crate::app::brush::{StrokeFrom, stroke_cells, stroke_within_frame};
use crate::app::camera::View;
use crate::app::tile_paint::{TileContent, content_key, paint_tiles};
use crate::geom::Vec2;
use crate::grid::bresenham::{Line, first_blocking};
use crate::grid::{Cell, MapDocument, Tile, TileMap};
use crate::navmesh::Bounds;
use crate::pursuit::mob::cell_of;
use crate::pursuit::{BODY_HALF, MobState, Sight};
use egui::{Color32, Pos2, Sense, Shape, Stroke, Ui};

impl PursuitScene {
    /// Paints `cells` with `tile` in the simulation and in the editor's map (one undo step per
    /// stroke); a blocking tile is refused where someone stands.
    fn paint_cells(
        &mut self,
        grid: &mut MapDocument,
        cells: impl Iterator<Item = Cell>,
        tile: Tile,
    ) {
        for c in cells {
            if self.world.set_tile(c, tile) {
                grid.paint_tile(c, tile);
                self.stroke_open = true;
                self.map_revision = Some(grid.revision());
            } else {
                self.notice = Some(format!(
                    "Not painted at {},{}: someone stands there.",
                    c.0, c.1
                ));
            }
        }
    }

    /// The map canvas with the agents, the trail and the rays. Paints into the map document
    /// `grid`, so that edits join the editor's undo history.
    pub fn canvas_ui(&mut self, ui: &mut Ui, grid: &mut MapDocument) {
        let (response, painter) = ui.allocate_painter(ui.available_size(), Sense::click_and_drag());
        response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Pursuit canvas"));
        let rect = response.rect;
        self.canvas_rect = Some(rect);
        let map_size = (self.world.map().width(), self.world.map().height());
        let bounds = Bounds {
            min: Vec2::new(0.0, 0.0),
            max: Vec2::new(map_size.0 as f64, map_size.1 as f64),
        };
        let camera = self.camera.for_canvas(bounds, rect);
        let view = View { camera, rect };
        painter.rect_filled(rect, 0.0, Color32::from_rgb(24, 26, 31));
        let world_at = |pos: Pos2| view.world_from_screen(pos);
        let cell_at = move |pos: Pos2| -> Option<Cell> {
            let w = view.world_from_screen(pos);
            (w.x >= 0.0 && w.y >= 0.0)
                .then_some((w.x as usize, w.y as usize))
                .filter(|&(x, y)| x < map_size.0 && y < map_size.1)
        };
        let pointer = response.interact_pointer_pos();
        if response.secondary_clicked()
            && let Some(p) = pointer
        {
            self.kitten_go_to(world_at(p));
        }
        let primary_down = ui.input(|i| i.pointer.primary_down());
        match self.tool {
            PursuitTool::Paint(tile) => {
                // Press, moves and release can reach egui in one frame: no press is seen held.
                let in_one_frame: Option<Vec<Cell>> = stroke_within_frame(ui, &response)
                    .map(|points| points.into_iter().filter_map(cell_at).collect());
                if let Some(cells) = in_one_frame {
                    let mut last = None;
                    for cell in cells {
                        let line = stroke_cells(last.map(StrokeFrom::Painted), cell);
                        self.paint_cells(grid, line, tile);
                        last = Some(cell);
                    }
                } else if response.is_pointer_button_down_on()
                    && primary_down
                    && let Some(cell) = pointer.and_then(cell_at)
                {
                    let pressed = ui.input(|i| i.pointer.press_origin()).and_then(cell_at);
                    let line = stroke_cells(StrokeFrom::new(self.stroke_last, pressed), cell);
                    self.paint_cells(grid, line, tile);
                    self.stroke_last = Some(cell);
                }
                if !primary_down {
                    self.stroke_last = None;
                }
                if !primary_down && std::mem::take(&mut self.stroke_open) {
                    grid.end_stroke();
                    self.map_revision = Some(grid.revision());
                }
            }
            PursuitTool::AddMob => {
                if response.clicked()
                    && let Some(p) = pointer
                {
                    self.add_mob(world_at(p));
                }
            }
            PursuitTool::RemoveMob => {
                if response.clicked()
                    && let Some(p) = pointer
                {
                    let at = world_at(p);
                    let nearest = self
                        .world
                        .mobs
                        .iter()
                        .enumerate()
                        .map(|(i, m)| (i, m.body.position.distance(at)))
                        .filter(|&(_, d)| d < 1.0)
                        .min_by(|a, b| a.1.total_cmp(&b.1));
                    if let Some((i, _)) = nearest {
                        self.remove_mob(i);
                    }
                }
            }
            PursuitTool::KittenGoTo => {
                if response.clicked()
                    && let Some(p) = pointer
                {
                    self.kitten_go_to(world_at(p));
                }
            }
        }
        if response.dragged_by(egui::PointerButton::Middle)
            || response.dragged_by(egui::PointerButton::Secondary)
        {
            self.camera.pan(response.drag_delta());
        }
        self.camera.zoom_with_wheel(ui, &response);
        self.paint(&painter, view);
        let caption = crate::app::camera::paint_caption(&painter, rect, self.caption());
        self.legend_rect = None;
        if self.settings.legend {
            // Off the kitten, the mobs, the caption, and as much of the map as it can.
            let marks: Vec<Pos2> = std::iter::once(self.world.kitten.body.position)
                .chain(self.world.mobs.iter().map(|m| m.body.position))
                .map(|p| view.screen_from_world(p))
                .collect();
            let shows = |at: Pos2| u32::from(cell_at(at).is_some());
            let keep = crate::app::legend::KeepClear {
                marks: &marks,
                taken: &[caption],
                lines: &[],
                shows: &shows,
            };
            self.legend_rect =
                crate::app::legend::paint_legend(&painter, rect, &self.legend(), &keep);
        }
        if let Some(pos) = response.hover_pos() {
            let at = world_at(pos);
            let _ = response.on_hover_ui_at_pointer(|ui| self.hover_ui(ui, at));
        }
    }

    /// What is under the pointer: the tile, and the kitten or a mob if one is there.
    fn hover_ui(&self, ui: &mut Ui, at: Vec2) {
        let (x, y) = (at.x.floor() as i64, at.y.floor() as i64);
        if let Some(tile) = self.world.map().get_signed(x, y) {
            let what = match tile {
                Tile::Wall => "blocks movement and sight",
                Tile::Hole => "blocks movement, not sight",
                Tile::Sand | Tile::Water => "slows agents",
                Tile::Grass => "open ground",
            };
            ui.label(format!("tile {x},{y}: {} ({what})", tile.name()));
        }
        if self.world.kitten.body.position.distance(at) < 0.6 {
            let k = &self.world.kitten;
            ui.label(format!(
                "kitten: {:.2} tiles/s, trail {} points",
                k.body.velocity.length(),
                self.world.trail.len()
            ));
        }
        for (i, mob) in self.world.mobs.iter().enumerate() {
            if mob.body.position.distance(at) < 0.6 {
                ui.label(format!(
                    "mob {}: {}, {:.2} tiles/s, caught {}",
                    i + 1,
                    mob.state.name(),
                    mob.body.velocity.length(),
                    crate::words::count(mob.catches as usize, "time")
                ));
            }
        }
    }

    fn paint(&self, painter: &egui::Painter, view: View) {
        let world = &self.world;
        let map = world.map();
        // Bresenham tiles of the rays of the selected mob (or of all when there are few).
        let mut ray_tiles: std::collections::HashMap<Cell, Color32> = Default::default();
        let kitten = world.kitten.body.position;
        let few = world.mobs.len() <= 4;
        if self.settings.show_rays {
            for (i, mob) in world.mobs.iter().enumerate() {
                if !(few || self.selected == Some(i)) {
                    continue;
                }
                let from = cell_of(mob.body.position);
                let to = cell_of(kitten);
                let blocked = first_blocking(map, from, to);
                for (x, y) in Line::new(from, to) {
                    if x < 0 || y < 0 {
                        break;
                    }
                    let cell = (x as usize, y as usize);
                    if Some((x, y)) == blocked {
                        ray_tiles.insert(cell, Color32::from_rgb(240, 40, 40));
                        break;
                    }
                    ray_tiles.entry(cell).or_insert(if blocked.is_some() {
                        Color32::from_rgb(230, 120, 120)
                    } else {
                        Color32::from_rgb(140, 230, 140)
                    });
                }
            }
        }
        // What the tiles show: the map (every change to it bumps the revision) and the rays.
        let mut rays: Vec<(Cell, [u8; 4])> = ray_tiles
            .iter()
            .map(|(&cell, color)| (cell, color.to_array()))
            .collect();
        rays.sort_unstable();
        let content = content_key((self.map_revision, rays));
        paint_tiles(
            painter,
            view,
            map,
            tiles_texture_id(),
            Some(TileContent::fixed(content)),
            |cell| ray_tiles.get(&cell).copied(),
        );
        let scale = view.camera.scale as f32;
        let screen = |p: Vec2| view.screen_from_world(p);

        // The trail, fading with age.
        let now = world.time();
        let decay = world.trail.decay.max(1e-6);
        let dot = (scale * 0.12).clamp(1.5, 5.0);
        for point in world.trail.points() {
            let fresh = (1.0 - (now - point.born) / decay).clamp(0.0, 1.0) as f32;
            let alpha = (40.0 + 215.0 * fresh) as u8;
            painter.circle_filled(
                screen(point.position),
                dot,
                Color32::from_rgba_unmultiplied(255, 120, 200, alpha),
            );
        }
        // The kitten's path.
        let k = &world.kitten;
        if k.path_index < k.path.len() {
            let mut points = vec![screen(kitten)];
            points.extend(k.path[k.path_index..].iter().map(|&p| screen(p)));
            crate::app::clipped::dashed_line(
                painter,
                &points,
                Stroke::new(1.5, KITTEN_ROUTE),
                6.0,
                4.0,
            );
        }
        // Rays and whiskers.
        if self.settings.show_rays {
            for (i, mob) in world.mobs.iter().enumerate() {
                let strong = self.selected == Some(i) || few;
                let width = if strong { 2.0 } else { 1.0 };
                let from = mob.body.position;
                let clear = ray_is_clear(map, mob, kitten);
                let color = if clear {
                    RAY_CLEAR
                } else {
                    Color32::from_rgba_unmultiplied(240, 70, 70, if strong { 220 } else { 90 })
                };
                painter.line_segment([screen(from), screen(kitten)], Stroke::new(width, color));
                if let (Sight::Trail(_), Some(target)) = (mob.sight, mob.target) {
                    painter.line_segment(
                        [screen(from), screen(target)],
                        Stroke::new(width, TRAIL_TARGET),
                    );
                    painter.circle_stroke(
                        screen(target),
                        (scale * 0.3).clamp(4.0, 12.0),
                        Stroke::new(2.0, Color32::from_rgb(250, 200, 60)),
                    );
                }
                for whisker in &mob.whiskers {
                    let end = whisker.hit.map_or(whisker.to, |h| {
                        whisker.from.lerp(
                            whisker.to,
                            h.distance / whisker.from.distance(whisker.to).max(1e-9),
                        )
                    });
                    let c = if whisker.hit.is_some() {
                        Color32::from_rgb(255, 150, 60)
                    } else {
                        Color32::from_gray(170)
                    };
                    painter.line_segment([screen(whisker.from), screen(end)], Stroke::new(1.0, c));
                }
            }
        }
        // Agents: their true size when zoomed in, never smaller than a readable marker.
        let radius = (scale * BODY_HALF as f32).max(8.0);
        for (i, mob) in world.mobs.iter().enumerate() {
            let at = screen(mob.body.position);
            painter.circle_filled(at, radius, MOB);
            painter.circle_stroke(at, radius + 1.5, Stroke::new(2.5, state_color(mob.state)));
            if self.selected == Some(i) {
                painter.circle_stroke(at, radius + 5.0, Stroke::new(1.0, Color32::WHITE));
            }
            painter.text(
                at,
                egui::Align2::CENTER_CENTER,
                format!("{}", i + 1),
                egui::FontId::proportional(radius * 1.1),
                Color32::WHITE,
            );
        }
        let at = screen(kitten);
        // The kitten: an orange head with two ears and a white ring, seen at any zoom.
        let fur = KITTEN;
        for side in [-1.0, 1.0] {
            let ear = [
                at + egui::vec2(side * radius * 0.95, -radius * 0.35),
                at + egui::vec2(side * radius * 0.85, -radius * 1.45),
                at + egui::vec2(side * radius * 0.25, -radius * 0.9),
            ];
            painter.add(Shape::convex_polygon(
                ear.to_vec(),
                fur,
                Stroke::new(1.5, Color32::WHITE),
            ));
        }
        painter.circle_filled(at, radius, fur);
        painter.circle_stroke(at, radius + 1.5, Stroke::new(2.0, Color32::WHITE));
        painter.text(
            at,
            egui::Align2::CENTER_CENTER,
            "K",
            egui::FontId::proportional(radius * 1.1),
            Color32::BLACK,
        );
    }
}

impl PursuitScene {
    /// The legend's rows: the agents and the ring of each mob's state, the trail, and (when
    /// drawn) the rays.
    pub fn legend(&self) -> Vec<crate::app::legend::LegendRow> {
        use crate::app::legend::LegendRow;
        let mob = |state: MobState, text: &str| LegendRow {
            fill: MOB,
            stroke: Stroke::new(2.5, state_color(state)),
            dashed: false,
            text: text.to_string(),
            mark: None,
        };
        let mut rows = vec![
            LegendRow::fill(KITTEN, "kitten"),
            mob(MobState::Chasing, "mob chasing: sees the kitten"),
            mob(MobState::Tracking, "mob tracking: follows the trail"),
            mob(MobState::Lost, "mob lost"),
            LegendRow::fill(TRAIL, "smell trail (fades with age)"),
            LegendRow::line(KITTEN_ROUTE, 1.5, "kitten's route").dashed(),
        ];
        if self.settings.show_rays {
            rows.push(LegendRow::line(RAY_CLEAR, 2.0, "ray to the kitten: clear"));
            rows.push(LegendRow::line(
                RAY_BLOCKED,
                2.0,
                "ray to the kitten: blocked",
            ));
            rows.push(LegendRow::line(
                TRAIL_TARGET,
                2.0,
                "to the trail point followed",
            ));
        }
        rows
    }
}

const KITTEN: Color32 = Color32::from_rgb(255, 170, 60);
const MOB: Color32 = Color32::from_rgb(150, 60, 190);
const TRAIL: Color32 = Color32::from_rgb(255, 120, 200);
const KITTEN_ROUTE: Color32 = Color32::from_rgb(255, 200, 120);
const RAY_CLEAR: Color32 = Color32::from_rgb(90, 230, 90);
const RAY_BLOCKED: Color32 = Color32::from_rgb(240, 70, 70);
const TRAIL_TARGET: Color32 = Color32::from_rgb(250, 200, 60);

/// Names the texture the pursuit canvas draws a zoomed-out map with.
pub fn tiles_texture_id() -> egui::Id {
    egui::Id::unique("pursuit tiles")
}

/// The colour of a state: red chasing, amber tracking, grey lost.
pub fn state_color(state: MobState) -> Color32 {
    match state {
        MobState::Chasing => Color32::from_rgb(235, 60, 60),
        MobState::Tracking => Color32::from_rgb(245, 190, 50),
        MobState::Lost => Color32::from_gray(140),
    }
}

/// Whether `mob`'s ray to the kitten (at `kitten`) is drawn clear: what its rays found at its
/// last look; before its first (a run not started, a mob just added) what they would find, as
/// its ray's tiles show.
fn ray_is_clear(map: &TileMap, mob: &crate::pursuit::Mob, kitten: Vec2) -> bool {
    if mob.timeline.is_empty() {
        first_blocking(map, cell_of(mob.body.position), cell_of(kitten)).is_none()
    } else {
        mob.sight == Sight::Kitten
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pursuit::{PursuitConfig, World};

    /// Before the first step every mob's ray is drawn as the map has it (it has not looked
    /// yet); after it, as the mob saw it.
    #[test]
    fn a_ray_is_drawn_clear_by_the_map_until_the_mob_looks_then_by_its_look() {
        let mut map = TileMap::new(12, 5).expect("size");
        map.set((6, 1), Tile::Wall);
        let mut world =
            World::new(map, PursuitConfig::default(), Vec2::new(10.5, 2.5)).expect("kitten placed");
        let seeing = world.add_mob(Vec2::new(1.5, 2.5)).expect("placed");
        let behind = world.add_mob(Vec2::new(1.5, 0.5)).expect("placed");
        let kitten = world.kitten.body.position;
        let clear = |world: &World, i: usize| ray_is_clear(world.map(), &world.mobs[i], kitten);
        assert!(world.mobs.iter().all(|m| m.timeline.is_empty()));
        assert!(clear(&world, seeing));
        assert!(!clear(&world, behind), "the wall at 6,1 is on its ray");
        world.step(&mut crate::search::NoObserver);
        for i in [seeing, behind] {
            assert_eq!(clear(&world, i), world.mobs[i].sight == Sight::Kitten);
        }
        assert!(clear(&world, seeing));
    }
}
