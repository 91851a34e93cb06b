//! Tiled objects as areas — rectangles, ellipses, polygons and tile objects, each rotated
//! about its position — and the map cells whose centres they cover.

/// A Tiled object's area, in the map's pixels (y down).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ObjectShape {
    /// The object's position: the top-left corner of a rectangle or ellipse, the origin of a
    /// polygon's points, the bottom-left corner of a tile object.
    pub x: f64,
    /// See `x`.
    pub y: f64,
    /// Degrees clockwise (on screen) about the position.
    pub rotation: f64,
    /// The outline, relative to the position before rotation.
    pub outline: Outline,
}

/// The kinds of object that enclose an area.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Outline {
    /// `[0, width] × [0, height]`.
    Rectangle { width: f64, height: f64 },
    /// The ellipse inscribed in the rectangle.
    Ellipse { width: f64, height: f64 },
    /// A closed polygon through these points.
    Polygon(Vec<(f64, f64)>),
    /// A placed tile: `[0, width] × [-height, 0]` (tile objects hang from their bottom-left).
    Tile { width: f64, height: f64 },
}

impl ObjectShape {
    /// The point `(px, py)` in the object's own frame (before rotation, from its position).
    fn local(&self, px: f64, py: f64) -> (f64, f64) {
        let (sin, cos) = (-self.rotation.to_radians()).sin_cos();
        let (dx, dy) = (px - self.x, py - self.y);
        (dx * cos - dy * sin, dx * sin + dy * cos)
    }

    /// The outline's corners (or points) in the object's own frame.
    fn corners(&self) -> Vec<(f64, f64)> {
        match &self.outline {
            Outline::Rectangle { width, height } | Outline::Ellipse { width, height } => {
                vec![(0.0, 0.0), (*width, 0.0), (*width, *height), (0.0, *height)]
            }
            Outline::Tile { width, height } => {
                vec![
                    (0.0, 0.0),
                    (*width, 0.0),
                    (*width, -*height),
                    (0.0, -*height),
                ]
            }
            Outline::Polygon(points) => points.clone(),
        }
    }

    /// True when the point (map pixels) is inside the area.
    pub fn contains(&self, px: f64, py: f64) -> bool {
        let (x, y) = self.local(px, py);
        match &self.outline {
            Outline::Rectangle { width, height } => {
                (0.0..=*width).contains(&x) && (0.0..=*height).contains(&y)
            }
            Outline::Tile { width, height } => {
                (0.0..=*width).contains(&x) && (-*height..=0.0).contains(&y)
            }
            Outline::Ellipse { width, height } => {
                let (a, b) = (width / 2.0, height / 2.0);
                a > 0.0 && b > 0.0 && ((x - a) / a).powi(2) + ((y - b) / b).powi(2) <= 1.0
            }
            Outline::Polygon(points) => {
                // Even-odd rule: count the edges a ray to the right crosses.
                let mut inside = false;
                for (i, &(ax, ay)) in points.iter().enumerate() {
                    let (bx, by) = points[(i + 1) % points.len()];
                    if (ay > y) != (by > y) && x < ax + (y - ay) * (bx - ax) / (by - ay) {
                        inside = !inside;
                    }
                }
                inside
            }
        }
    }

    /// The smallest axis-aligned box (map pixels) holding the area.
    fn bounds(&self) -> Option<[f64; 4]> {
        let (sin, cos) = self.rotation.to_radians().sin_cos();
        let placed = self
            .corners()
            .into_iter()
            .map(|(x, y)| (self.x + x * cos - y * sin, self.y + x * sin + y * cos));
        let mut bounds: Option<[f64; 4]> = None;
        for (x, y) in placed {
            if !(x.is_finite() && y.is_finite()) {
                return None;
            }
            let b = bounds.get_or_insert([x, y, x, y]);
            *b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
        }
        bounds
    }
}

/// The cells of a `width` × `height` map with tiles of `tile_width` × `tile_height` pixels
/// whose centres the area covers, row by row.
pub(crate) fn covered_cells(
    shape: &ObjectShape,
    width: usize,
    height: usize,
    tile_width: f64,
    tile_height: f64,
) -> Vec<(usize, usize)> {
    let Some([x0, y0, x1, y1]) = shape.bounds() else {
        return Vec::new();
    };
    // Cell c's centre is at (c + 0.5) tiles: the cells whose centres can lie in [lo, hi].
    let span = |lo: f64, hi: f64, tile: f64, cells: usize| {
        let first = (lo / tile - 0.5).ceil().max(0.0);
        let last = (hi / tile - 0.5).floor().min(cells as f64 - 1.0);
        (first as usize, last)
    };
    let (first_x, last_x) = span(x0, x1, tile_width, width);
    let (first_y, last_y) = span(y0, y1, tile_height, height);
    let mut cells = Vec::new();
    if last_x < 0.0 || last_y < 0.0 {
        return cells;
    }
    for cy in first_y..=last_y as usize {
        for cx in first_x..=last_x as usize {
            let centre = (
                (cx as f64 + 0.5) * tile_width,
                (cy as f64 + 0.5) * tile_height,
            );
            if shape.contains(centre.0, centre.1) {
                cells.push((cx, cy));
            }
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(x: f64, y: f64, rotation: f64, outline: Outline) -> ObjectShape {
        ObjectShape {
            x,
            y,
            rotation,
            outline,
        }
    }

    /// The covered cells of a 10 × 8 map of 16-pixel tiles, as a picture.
    fn picture(s: &ObjectShape) -> Vec<String> {
        let cells = covered_cells(s, 10, 8, 16.0, 16.0);
        (0..8)
            .map(|y| {
                (0..10)
                    .map(|x| if cells.contains(&(x, y)) { '#' } else { '.' })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn a_rectangle_covers_the_cells_whose_centres_it_holds() {
        // Pixels 20..60 × 10..40: centres 24, 40, 56 across and 24 down (8 is above 10, 40
        // is on the edge and counts).
        let r = shape(
            20.0,
            10.0,
            0.0,
            Outline::Rectangle {
                width: 40.0,
                height: 30.0,
            },
        );
        assert_eq!(
            picture(&r),
            [
                "..........",
                ".###......",
                ".###......",
                "..........",
                "..........",
                "..........",
                "..........",
                ".........."
            ]
        );
        // Off the map, or too thin to hold a centre: nothing.
        assert!(
            covered_cells(
                &shape(
                    -100.0,
                    -100.0,
                    0.0,
                    Outline::Rectangle {
                        width: 50.0,
                        height: 50.0
                    }
                ),
                10,
                8,
                16.0,
                16.0
            )
            .is_empty()
        );
        assert!(
            covered_cells(
                &shape(
                    1.0,
                    1.0,
                    0.0,
                    Outline::Rectangle {
                        width: 5.0,
                        height: 100.0
                    }
                ),
                10,
                8,
                16.0,
                16.0
            )
            .is_empty()
        );
    }

    #[test]
    fn rotation_turns_clockwise_about_the_position_and_tiles_hang_from_their_bottom() {
        // A 48 × 16 bar at (16, 16) turned 90° clockwise points down, to the left of x = 16.
        let bar = shape(
            16.0,
            16.0,
            90.0,
            Outline::Rectangle {
                width: 48.0,
                height: 16.0,
            },
        );
        assert_eq!(
            covered_cells(&bar, 10, 8, 16.0, 16.0),
            [(0, 1), (0, 2), (0, 3)]
        );
        let tile = shape(
            32.0,
            48.0,
            0.0,
            Outline::Tile {
                width: 32.0,
                height: 16.0,
            },
        );
        assert_eq!(covered_cells(&tile, 10, 8, 16.0, 16.0), [(2, 2), (3, 2)]);
    }

    #[test]
    fn ellipses_and_polygons_cover_their_inside() {
        let ellipse = shape(
            0.0,
            0.0,
            0.0,
            Outline::Ellipse {
                width: 80.0,
                height: 48.0,
            },
        );
        assert_eq!(
            picture(&ellipse)[..4],
            [".###......", "#####.....", ".###......", ".........."].map(String::from)
        );
        // A right triangle with its right angle at the bottom left (concave shapes work the
        // same way: even-odd).
        let triangle = shape(
            0.0,
            0.0,
            0.0,
            Outline::Polygon(vec![(0.0, 0.0), (0.0, 64.0), (64.0, 64.0)]),
        );
        assert_eq!(
            picture(&triangle)[..5],
            [
                "..........",
                "#.........",
                "##........",
                "###.......",
                ".........."
            ]
            .map(String::from)
        );
        let degenerate = shape(
            0.0,
            0.0,
            0.0,
            Outline::Ellipse {
                width: 0.0,
                height: 40.0,
            },
        );
        assert!(covered_cells(&degenerate, 10, 8, 16.0, 16.0).is_empty());
        let broken = shape(
            f64::NAN,
            0.0,
            0.0,
            Outline::Rectangle {
                width: 9.0,
                height: 9.0,
            },
        );
        assert!(covered_cells(&broken, 10, 8, 16.0, 16.0).is_empty());
    }
}
