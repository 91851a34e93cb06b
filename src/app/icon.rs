//! The window's icon, drawn in code: three triangles of a navmesh, a path through them, S and G.

/// The icon's side, in pixels.
pub const SIZE: usize = 64;

const BACKGROUND: [u8; 3] = [30, 32, 38];
const TRIANGLE: [u8; 3] = [60, 96, 160];
const EDGE: [u8; 3] = [170, 175, 185];
const PATH: [u8; 3] = [240, 150, 60];
const START: [u8; 3] = [90, 200, 120];
const GOAL: [u8; 3] = [230, 80, 80];

type P = (f32, f32);

/// The outer triangle's corners and the inner vertex that splits it in three.
const CORNERS: [P; 3] = [(8.0, 54.0), (32.0, 10.0), (56.0, 54.0)];
const INNER: P = (33.0, 40.0);
/// The path: from S past the inner vertex to G.
const WAYPOINTS: [P; 3] = [(16.0, 49.0), (33.0, 40.0), (41.0, 22.0)];

/// The icon as RGBA (alpha not premultiplied), `SIZE` × `SIZE`.
pub fn app_icon() -> egui::IconData {
    let mut rgba = Vec::with_capacity(SIZE * SIZE * 4);
    for y in 0..SIZE {
        for x in 0..SIZE {
            rgba.extend_from_slice(&pixel((x as f32 + 0.5, y as f32 + 0.5)));
        }
    }
    egui::IconData {
        rgba,
        width: SIZE as u32,
        height: SIZE as u32,
    }
}

/// One pixel: layers painted over each other, each with the coverage of its shape (a pixel's
/// width of anti-aliasing from the shape's signed distance).
fn pixel(p: P) -> [u8; 4] {
    let cover = |distance: f32| (0.5 - distance).clamp(0.0, 1.0);
    let half = SIZE as f32 / 2.0;
    let background = rounded_square(p, (half, half), half - 1.0, 12.0);
    let mut colour = BACKGROUND.map(f32::from);
    let mut paint = |layer: [u8; 3], coverage: f32| {
        for (c, l) in colour.iter_mut().zip(layer) {
            *c += (f32::from(l) - *c) * coverage;
        }
    };
    paint(TRIANGLE, cover(triangle(p, CORNERS)));
    let edges = CORNERS
        .iter()
        .enumerate()
        .map(|(i, &a)| segment(p, a, CORNERS[(i + 1) % 3]))
        .chain(CORNERS.iter().map(|&a| segment(p, a, INNER)))
        .fold(f32::INFINITY, f32::min);
    paint(EDGE, cover(edges - 0.9));
    let path = segment(p, WAYPOINTS[0], WAYPOINTS[1]).min(segment(p, WAYPOINTS[1], WAYPOINTS[2]));
    paint(PATH, cover(path - 2.0));
    paint(START, cover(distance(p, WAYPOINTS[0]) - 5.5));
    paint(GOAL, cover(distance(p, WAYPOINTS[2]) - 5.5));
    let [r, g, b] = colour.map(|c| c.round() as u8);
    [r, g, b, (cover(background) * 255.0).round() as u8]
}

fn distance(a: P, b: P) -> f32 {
    (a.0 - b.0).hypot(a.1 - b.1)
}

/// Distance from `p` to the segment `a`–`b`.
fn segment(p: P, a: P, b: P) -> f32 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let t = (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
    distance(p, (a.0 + t * dx, a.1 + t * dy))
}

/// Signed distance to a triangle: negative inside.
fn triangle(p: P, [a, b, c]: [P; 3]) -> f32 {
    let edge = segment(p, a, b).min(segment(p, b, c)).min(segment(p, c, a));
    let side = |u: P, v: P| (v.0 - u.0) * (p.1 - u.1) - (v.1 - u.1) * (p.0 - u.0);
    let (s1, s2, s3) = (side(a, b), side(b, c), side(c, a));
    let inside = (s1 >= 0.0 && s2 >= 0.0 && s3 >= 0.0) || (s1 <= 0.0 && s2 <= 0.0 && s3 <= 0.0);
    if inside { -edge } else { edge }
}

/// Signed distance to a square of half-side `half` centred on `centre`, corners rounded by
/// `radius`: negative inside.
fn rounded_square(p: P, centre: P, half: f32, radius: f32) -> f32 {
    let qx = (p.0 - centre.0).abs() - (half - radius);
    let qy = (p.1 - centre.1).abs() - (half - radius);
    let outside = qx.max(0.0).hypot(qy.max(0.0));
    outside + qx.max(qy).min(0.0) - radius
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The icon fills its rounded square (transparent corners, opaque inside) and shows the
    /// path, S and G in their colours, at the places they are drawn.
    #[test]
    fn the_icon_shows_a_path_from_s_to_g_on_a_rounded_square() {
        let icon = app_icon();
        assert_eq!((icon.width, icon.height), (SIZE as u32, SIZE as u32));
        assert_eq!(icon.rgba.len(), SIZE * SIZE * 4);
        let at = |x: usize, y: usize| -> [u8; 4] {
            let i = (y * SIZE + x) * 4;
            [
                icon.rgba[i],
                icon.rgba[i + 1],
                icon.rgba[i + 2],
                icon.rgba[i + 3],
            ]
        };
        assert_eq!(at(0, 0)[3], 0, "a rounded corner");
        assert_eq!(at(SIZE - 1, SIZE - 1)[3], 0);
        assert_eq!(at(2, SIZE / 2)[3], 255, "the middle of a side");
        let rgb = |x, y| {
            let [r, g, b, _] = at(x, y);
            [r, g, b]
        };
        assert_eq!(rgb(16, 49), START);
        assert_eq!(rgb(41, 22), GOAL);
        assert_eq!(rgb(25, 44), PATH, "halfway along the path's first leg");
        assert_eq!(rgb(32, 50), TRIANGLE, "inside a triangle, off its edges");
        assert_eq!(rgb(4, 8), BACKGROUND, "outside the mesh");
    }
}
