//! The brush both map scenes paint with: the cells a stroke covers between two frames, a
//! stroke that began and ended within one frame's input, and the palette's buttons.

use crate::app::tile_paint::tile_color;
use crate::grid::{Cell, Tile};
use egui::{Color32, Pos2, Stroke, Ui};

/// Where a brush stroke goes on from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StrokeFrom {
    /// The cell painted last in this stroke.
    Painted(Cell),
    /// A new stroke, from the cell the button went down on (the press and the first moves can
    /// arrive in one frame: the pointer is then already further on).
    Pressed(Cell),
}

impl StrokeFrom {
    /// A stroke going on from `last`, else a new one from the cell `pressed` on (else from the
    /// pointer's cell itself).
    pub fn new(last: Option<Cell>, pressed: Option<Cell>) -> Option<Self> {
        last.map(Self::Painted).or(pressed.map(Self::Pressed))
    }
}

/// The pointer's positions in a primary press that began and ended within this frame's input
/// (press, moves, release), when it began on `canvas` (not on a window over it).
pub fn stroke_within_frame(ui: &Ui, canvas: &egui::Response) -> Option<Vec<Pos2>> {
    let path = ui.input(|input| {
        let mut path: Option<Vec<Pos2>> = None;
        for event in &input.events {
            match *event {
                egui::Event::PointerButton {
                    pos,
                    button: egui::PointerButton::Primary,
                    pressed,
                    ..
                } => {
                    if pressed {
                        path = Some(vec![pos]);
                    } else if let Some(mut points) = path.take() {
                        points.push(pos);
                        return Some(points);
                    }
                }
                egui::Event::PointerMoved(pos) => {
                    if let Some(points) = &mut path {
                        points.push(pos);
                    }
                }
                _ => {}
            }
        }
        None
    })?;
    let first = *path.first()?;
    let on_canvas =
        canvas.rect.contains(first) && ui.ctx().layer_id_at(first) == Some(canvas.layer_id);
    on_canvas.then_some(path)
}

/// The cells a brush drawn to `cell` covers: a Bresenham line from `from` (without its first
/// cell when that one is already painted), or `cell` alone when the stroke starts there.
pub fn stroke_cells(from: Option<StrokeFrom>, cell: Cell) -> impl Iterator<Item = Cell> {
    let signed = |(x, y): Cell| (x as i64, y as i64);
    let (start, skip) = match from {
        Some(StrokeFrom::Painted(last)) => (last, last != cell),
        Some(StrokeFrom::Pressed(pressed)) => (pressed, false),
        None => (cell, false),
    };
    crate::grid::bresenham::Line::new(signed(start), signed(cell))
        .skip(usize::from(skip))
        .filter_map(|(x, y)| Some((usize::try_from(x).ok()?, usize::try_from(y).ok()?)))
}

/// A palette button: the tile's colour and name, outlined when it is the one chosen.
pub fn tile_button(tile: Tile, selected: bool) -> egui::Button<'static> {
    let ink = if matches!(tile, Tile::Wall | Tile::Hole) {
        Color32::WHITE
    } else {
        Color32::BLACK
    };
    egui::Button::new(egui::RichText::new(tile.name()).color(ink))
        .fill(tile_color(tile))
        .stroke(if selected {
            Stroke::new(2.5, Color32::YELLOW)
        } else {
            Stroke::NONE
        })
        .selected(selected)
}

/// What a tile is, for its palette button.
pub fn tile_help(tile: Tile) -> &'static str {
    match tile {
        Tile::Grass => "Grass: walkable (cost 1 by default)",
        Tile::Sand => "Sand: walkable, slow (cost 2 by default)",
        Tile::Water => "Water: swimmable (cost 3 by default)",
        Tile::Wall => "Wall: blocks movement and sight",
        Tile::Hole => "Hole: blocks movement, not sight",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stroke_joins_its_cells_without_repainting_the_last() {
        let cells = |from, cell| stroke_cells(from, cell).collect::<Vec<_>>();
        assert_eq!(cells(None, (4, 2)), [(4, 2)]);
        let painted = |c| Some(StrokeFrom::Painted(c));
        assert_eq!(cells(painted((4, 2)), (4, 2)), [(4, 2)]);
        // A new stroke whose first frame is already two cells on starts where it was pressed.
        let pressed = Some(StrokeFrom::Pressed((2, 2)));
        assert_eq!(cells(pressed, (4, 2)), [(2, 2), (3, 2), (4, 2)]);
        assert_eq!(
            StrokeFrom::new(Some((1, 1)), Some((2, 2))),
            painted((1, 1)),
            "going on"
        );
        let joined = cells(painted((0, 0)), (5, 2));
        assert_eq!(joined.first(), Some(&(1, 0)));
        assert_eq!(joined.last(), Some(&(5, 2)));
        let mut at = (0usize, 0usize);
        for &c in &joined {
            assert!(
                c.0.abs_diff(at.0) <= 1 && c.1.abs_diff(at.1) <= 1,
                "{joined:?}"
            );
            at = c;
        }
    }
}
