//! The tile-map scene's left panel: the map's file buttons, Build navmesh and Partitions, the
//! agent radius, the palette and tools, the algorithm and its options, the tile costs, and the
//! answer's numbers; and the palette's keys.

use super::{TileMapScene, Tool};
use crate::app::brush::{tile_button, tile_help};
use crate::app::commands::UiCommand;
use crate::app::scene::Shared;
use crate::grid::{AlgorithmKind, Connectivity, Heuristic, MapDocument, Tile};
use egui::Ui;

/// What the agent radius does, for its tooltip.
const AGENT_RADIUS_TIP: &str = "The navmesh keeps this far from every wall, hole and the map's edge (along each axis), so an agent's centre can go anywhere on it; in eighths of a tile. 0 covers the passable tiles exactly. Used by Build navmesh; the map shades in pink the ground it leaves out.";

impl TileMapScene {
    /// The tile the brush paints with (wall while placing the start or goal).
    pub fn brush_tile(&self) -> Tile {
        match self.tool {
            Tool::Paint(tile) | Tool::Rectangle(tile) | Tool::Fill(tile) => tile,
            Tool::Start | Tool::Goal => Tile::Wall,
        }
    }

    /// Selects the tile to paint with, keeping the rectangle or fill mode if one is on.
    pub fn choose_tile(&mut self, tile: Tile) {
        self.tool = match self.tool {
            Tool::Rectangle(_) => Tool::Rectangle(tile),
            Tool::Fill(_) => Tool::Fill(tile),
            _ => Tool::Paint(tile),
        };
    }

    /// Switches between filling rectangles and painting freely, with the same tile.
    pub fn toggle_rectangle(&mut self) {
        self.tool = match self.tool {
            Tool::Rectangle(tile) => Tool::Paint(tile),
            _ => Tool::Rectangle(self.brush_tile()),
        };
    }

    /// Switches between filling regions and painting freely, with the same tile.
    pub fn toggle_fill(&mut self) {
        self.tool = match self.tool {
            Tool::Fill(tile) => Tool::Paint(tile),
            _ => Tool::Fill(self.brush_tile()),
        };
    }

    /// The palette's keys (see [`super::PAINTING`]), for when no text field has the keyboard:
    /// 1–5 choose the tile (in the palette's order), R switches rectangle filling on and off,
    /// G region filling, P the Partitions window, C compares every algorithm.
    pub(super) fn palette_keys(&mut self, ui: &Ui, map: &MapDocument) {
        use super::MapKey;
        for key in crate::app::keys::pressed(ui, super::PAINTING) {
            match key {
                MapKey::Compare if !self.is_comparing() => self.compare_in_background(),
                MapKey::Partitions => self.partitions.open = !self.partitions.open,
                MapKey::Tile(k) => {
                    if let Some(&tile) = Tile::ALL.get(k) {
                        self.choose_tile(tile);
                    }
                }
                MapKey::Rectangle => self.toggle_rectangle(),
                MapKey::Fill => self.toggle_fill(),
                MapKey::Lockstep => self.set_lockstep(!self.settings.lockstep, map),
                MapKey::Walk if self.settings.algorithm == AlgorithmKind::DStarLite => {
                    self.toggle_walk(map)
                }
                _ => {}
            }
        }
    }

    /// The whole left panel.
    pub(super) fn controls_ui(&mut self, ui: &mut Ui, shared: &mut Shared) {
        ui.horizontal(|ui| {
            for command in [
                UiCommand::NewMap,
                UiCommand::OpenMap,
                UiCommand::SaveMap,
                UiCommand::SaveMapAs,
            ] {
                shared.button(ui, command);
            }
        });
        ui.horizontal(|ui| {
            shared.button(ui, UiCommand::BuildMesh);
            if shared.building_mesh {
                ui.spinner();
                ui.label("building…");
            }
            if ui
                .selectable_label(self.partitions.open, "Partitions")
                .on_hover_text(
                    "The four partitions of “Path search in virtual scenes” (grid, quadtree, visibility graph, navmesh) of this map, searched from S to G and compared, the chosen one drawn over the map (P)",
                )
                .clicked()
            {
                self.partitions.open = !self.partitions.open;
            }
        });
        ui.horizontal(|ui| {
            use crate::navmesh::from_map::AGENT_RADIUS_STEP;
            ui.add(
                egui::Slider::new(&mut self.settings.agent_radius, 0.0..=8.0)
                    .step_by(AGENT_RADIUS_STEP)
                    .text("Agent radius"),
            )
            .on_hover_text(AGENT_RADIUS_TIP);
        });
        ui.separator();
        self.tools_ui(ui, shared);
        ui.separator();
        self.algorithm_ui(ui, shared.map);
        ui.separator();
        self.lockstep_controls_ui(ui, shared.map);
        if self.settings.algorithm == AlgorithmKind::DStarLite && !self.settings.lockstep {
            ui.separator();
            self.walk_ui(ui, shared.map);
        }
        ui.separator();
        self.stats_ui(ui);
    }

    /// D* Lite's agent: walk, stop or step it, where it stands, and what the last repair did
    /// against a fresh A*.
    fn walk_ui(&mut self, ui: &mut Ui, map: &MapDocument) {
        ui.label("The agent");
        let Some(walk) = self.walk.as_ref() else {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                "D* Lite's walking agent is kept on maps of up to 512 K cells: on this one its first search is shown, as of any other algorithm.",
            );
            return;
        };
        let (walking, arrived) = (walk.walking, walk.arrived());
        let mut toggle = false;
        let mut step = false;
        ui.horizontal(|ui| {
            let label = if walking {
                "Stop"
            } else if arrived {
                "Walk again"
            } else {
                "Walk"
            };
            toggle = ui
                .button(label)
                .on_hover_text(
                    "The agent walks its path, four cells a second (W). Paint across the path ahead of it: D* Lite repairs the path from where it stands.",
                )
                .clicked();
            step = ui
                .add_enabled(!arrived, egui::Button::new("One step"))
                .on_hover_text("The agent takes one step along its path")
                .clicked();
        });
        let (x, y) = walk.agent();
        let whereabouts = match walk.path() {
            _ if arrived => format!("The agent is at the goal, {x},{y}."),
            Some((path, cost)) => format!(
                "The agent is at {x},{y}: {} steps to the goal, cost {cost:.2}.",
                path.len().saturating_sub(1)
            ),
            None => format!("The agent is at {x},{y}: no way on. It waits; paint a way open."),
        };
        ui.label(whereabouts);
        match walk.last_repair {
            Some(r) => {
                let share = if r.fresh_astar > 0 {
                    format!(
                        " ({:.0} %)",
                        100.0 * r.expanded as f64 / r.fresh_astar as f64
                    )
                } else {
                    String::new()
                };
                ui.label(format!(
                    "Last repair, from {},{} after {} {} changed: {} cells taken from the open list, against the {} a fresh A* from there expands{share}; {} look-aheads worked out again.",
                    r.from.0,
                    r.from.1,
                    r.edited,
                    if r.edited == 1 { "tile" } else { "tiles" },
                    r.expanded,
                    r.fresh_astar,
                    r.updated,
                ));
                if r.expanded > r.fresh_astar {
                    ui.weak(
                        "More than a fresh search: the edit cut a route by which many cells' costs to the goal went, and each is worked out again. Repairs pay where an edit changes few of them.",
                    );
                }
            }
            None => {
                ui.weak(
                    "Paint across the path ahead of the agent: D* Lite repairs it from where the agent stands, and the steps shown become the repair's.",
                );
            }
        }
        if toggle {
            self.toggle_walk(map);
        }
        if step && let Some(walk) = self.walk.as_mut() {
            walk.step();
        }
    }

    /// The palette, the rectangle and fill tools, placing S and G, Undo and Redo.
    fn tools_ui(&mut self, ui: &mut Ui, shared: &mut Shared) {
        ui.label("Paint");
        ui.horizontal_wrapped(|ui| {
            for (key, tile) in Tile::ALL.into_iter().enumerate() {
                let selected =
                    !matches!(self.tool, Tool::Start | Tool::Goal) && self.brush_tile() == tile;
                if ui
                    .add(tile_button(tile, selected))
                    .on_hover_text(format!("{} (key {})", tile_help(tile), key + 1))
                    .clicked()
                {
                    self.choose_tile(tile);
                }
            }
        });
        ui.horizontal_wrapped(|ui| {
            if ui
                .selectable_label(matches!(self.tool, Tool::Rectangle(_)), "Rectangle")
                .on_hover_text(
                    "Drag from corner to corner to fill with the selected tile (R; again to paint freely)",
                )
                .clicked()
            {
                self.toggle_rectangle();
            }
            if ui
                .selectable_label(matches!(self.tool, Tool::Fill(_)), "Fill")
                .on_hover_text(
                    "Click to fill the cell's region (its tile, reached by side steps) with the selected tile (G; again to paint freely)",
                )
                .clicked()
            {
                self.toggle_fill();
            }
            if ui
                .selectable_label(self.tool == Tool::Start, "Place start")
                .on_hover_text("Click a cell to put the start there")
                .clicked()
            {
                self.tool = Tool::Start;
            }
            if ui
                .selectable_label(self.tool == Tool::Goal, "Place goal")
                .on_hover_text("Click a cell to put the goal there")
                .clicked()
            {
                self.tool = Tool::Goal;
            }
        });
        ui.horizontal(|ui| {
            shared.button(ui, UiCommand::Undo);
            shared.button(ui, UiCommand::Redo);
        });
    }

    /// The algorithm, its heuristic, weight and budget, the moves and the tile costs.
    fn algorithm_ui(&mut self, ui: &mut Ui, map: &mut MapDocument) {
        let options = &mut self.settings;
        let mut changed = false;
        ui.label("Algorithm");
        ui.horizontal_wrapped(|ui| {
            for kind in AlgorithmKind::ALL {
                changed |= ui
                    .radio_value(&mut options.algorithm, kind, kind.name())
                    .changed();
            }
        });
        ui.add_enabled_ui(options.algorithm.uses_heuristic(), |ui| {
            egui::ComboBox::from_label("Heuristic")
                .selected_text(options.heuristic.name())
                .show_ui(ui, |ui| {
                    for h in Heuristic::ALL {
                        changed |= ui
                            .selectable_value(&mut options.heuristic, h, h.name())
                            .changed();
                    }
                });
        });
        if options.algorithm == AlgorithmKind::AStar {
            changed |= ui
                .add(egui::Slider::new(&mut options.weight, 0.0..=5.0).text("Weight"))
                .on_hover_text("1 = optimal; above 1 greedier, faster, not optimal")
                .changed();
        }
        if options.algorithm == AlgorithmKind::IdaStar {
            changed |= ui
                .add(
                    crate::app::playback::grouped_digits(
                        egui::Slider::new(&mut options.budget, 1_000..=10_000_000)
                            .logarithmic(true),
                    )
                    .text("Node budget"),
                )
                .on_hover_text("IDA* gives up after this many expansions, and says so")
                .changed();
        }
        ui.horizontal(|ui| {
            ui.label("Moves");
            changed |= ui
                .radio_value(
                    &mut options.connectivity,
                    Connectivity::Eight,
                    "8 directions",
                )
                .changed();
            changed |= ui
                .radio_value(
                    &mut options.connectivity,
                    Connectivity::Four,
                    "4 directions",
                )
                .changed();
        });
        ui.checkbox(&mut options.legend, "Legend")
            .on_hover_text("What the colours on the map mean, at the canvas's bottom left");
        let mut costs = map.map.costs;
        let one_tile_cost = match self.one_tile_cost {
            Some((revision, uniform)) if revision == map.revision() => uniform,
            _ if !matches!(
                options.algorithm,
                AlgorithmKind::Jps | AlgorithmKind::JpsPlus
            ) =>
            {
                true
            }
            _ => {
                let uniform = crate::grid::jps::uniform_cost(&map.map).is_some();
                self.one_tile_cost = Some((map.revision(), uniform));
                uniform
            }
        };
        let jps = matches!(
            options.algorithm,
            AlgorithmKind::Jps | AlgorithmKind::JpsPlus
        );
        if jps && !(one_tile_cost && options.connectivity == Connectivity::Eight) {
            let why = if options.connectivity == Connectivity::Four {
                "JPS prunes moves in eight directions: with four it searches as A*."
            } else {
                "JPS's pruning needs every open tile to cost the same: on this map the tiles cost differently, so it searches as A*."
            };
            ui.colored_label(ui.visuals().warn_fg_color, why);
            if options.connectivity == Connectivity::Eight
                && ui
                    .button("Every tile costs as grass")
                    .on_hover_text("Set the sand and water costs to grass's, so that JPS prunes")
                    .clicked()
            {
                costs.sand = costs.grass;
                costs.water = costs.grass;
            }
        }
        if options.algorithm == AlgorithmKind::ThetaStar {
            ui.weak(
                "Theta* measures length between cell centres, at any angle: every passable tile counts as ground, tile costs are not weighed.",
            );
        }
        if options.algorithm == AlgorithmKind::JpsPlus {
            if map.map.cell_count() > crate::grid::jps_plus::JPS_PLUS_MAX_CELLS {
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    "JPS+ builds its tables for maps of up to 2048 × 2048 cells: on this one it searches as JPS.",
                );
            }
            ui.checkbox(&mut options.jump_distances, "Jump distances")
                .on_hover_text(
                    "Draw JPS+'s table in each cell: towards each of the eight directions, the steps to the next jump point that way, or minus the open steps before a wall. Zoom in to read them.",
                );
            let small = self
                .camera
                .get()
                .is_some_and(|c| c.scale < super::canvas::JUMP_NUMBERS_MIN_CELL);
            if options.jump_distances && small {
                ui.weak("Zoom in to read them (the wheel, over the map).");
            }
        }
        ui.label("Tile costs");
        for (label, value) in [
            ("Grass", &mut costs.grass),
            ("Sand", &mut costs.sand),
            ("Water", &mut costs.water),
        ] {
            ui.add(egui::Slider::new(value, 0.1..=10.0).text(format!("{label} cost")));
        }
        // A change of costs is a change of the map: every view of it follows.
        changed |= map.set_costs(costs);
        if changed {
            self.rerun(map);
        }
    }
}
