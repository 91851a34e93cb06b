//! Lines drawn only where they can be seen: a dashed line is made of one shape per dash, so a
//! line running far outside the view (to a start placed a hundred million units away, or an
//! outline at the deepest zoom) would be millions of shapes. Each segment is cut to the
//! painter's clip rectangle first.

use egui::{Painter, Pos2, Rect, Shape, Stroke};

/// Paints the dashed polyline through `points` as [`Shape::dashed_line`] does, but only its
/// parts within the painter's clip rectangle (a polyline wholly inside is drawn unchanged).
pub fn dashed_line(painter: &Painter, points: &[Pos2], stroke: Stroke, dash: f32, gap: f32) {
    painter.extend(dashed_shapes(
        painter.clip_rect(),
        points,
        stroke,
        dash,
        gap,
    ));
}

/// The dashes of [`dashed_line`] within `clip`.
pub fn dashed_shapes(
    clip: Rect,
    points: &[Pos2],
    stroke: Stroke,
    dash: f32,
    gap: f32,
) -> Vec<Shape> {
    let clip = clip.expand(stroke.width + dash);
    if points.iter().all(|&p| clip.contains(p)) {
        return Shape::dashed_line(points, stroke, dash, gap);
    }
    points
        .windows(2)
        .filter_map(|pair| clip_segment(clip, pair[0], pair[1]))
        .flat_map(|[a, b]| Shape::dashed_line(&[a, b], stroke, dash, gap))
        .collect()
}

/// The part of segment `a`–`b` inside `clip` (Liang–Barsky), or None when none is (or a
/// coordinate is not a number).
pub fn clip_segment(clip: Rect, a: Pos2, b: Pos2) -> Option<[Pos2; 2]> {
    if !(a.x.is_finite() && a.y.is_finite() && b.x.is_finite() && b.y.is_finite()) {
        return None;
    }
    let d = b - a;
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for (p, q) in [
        (-d.x, a.x - clip.min.x),
        (d.x, clip.max.x - a.x),
        (-d.y, a.y - clip.min.y),
        (d.y, clip.max.y - a.y),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
            continue;
        }
        let t = q / p;
        if p < 0.0 {
            t0 = t0.max(t);
        } else {
            t1 = t1.min(t);
        }
        if t0 > t1 {
            return None;
        }
    }
    Some([a + d * t0, a + d * t1])
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui::pos2;

    #[test]
    fn a_segment_is_cut_to_the_rectangle() {
        let clip = Rect::from_min_max(pos2(0.0, 0.0), pos2(100.0, 100.0));
        let [a, b] = clip_segment(clip, pos2(-50.0, 50.0), pos2(150.0, 50.0)).expect("crosses");
        assert_eq!((a, b), (pos2(0.0, 50.0), pos2(100.0, 50.0)));
        assert!(clip_segment(clip, pos2(-50.0, -1.0), pos2(150.0, -1.0)).is_none());
        assert!(clip_segment(clip, pos2(f32::NAN, 0.0), pos2(1.0, 1.0)).is_none());
        let inside = clip_segment(clip, pos2(10.0, 10.0), pos2(20.0, 30.0)).expect("inside");
        assert_eq!(inside, [pos2(10.0, 10.0), pos2(20.0, 30.0)]);
    }

    #[test]
    fn a_line_to_a_point_far_away_is_a_few_dashes() {
        let clip = Rect::from_min_max(pos2(0.0, 0.0), pos2(800.0, 600.0));
        let far = [pos2(400.0, 300.0), pos2(4.0e11, 300.0)];
        let shapes = dashed_shapes(clip, &far, Stroke::new(1.5, egui::Color32::WHITE), 4.0, 3.0);
        assert!(!shapes.is_empty() && shapes.len() < 100, "{}", shapes.len());
        let near = [pos2(10.0, 10.0), pos2(60.0, 10.0), pos2(60.0, 50.0)];
        let stroke = Stroke::new(1.5, egui::Color32::WHITE);
        assert_eq!(
            dashed_shapes(clip, &near, stroke, 4.0, 3.0).len(),
            Shape::dashed_line(&near, stroke, 4.0, 3.0).len()
        );
    }
}
