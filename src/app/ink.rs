//! Colours for the panels' text and charts: the bright ones chosen to stand out on dark panels are darkened
//! on light panels (the Light theme), so that they keep their contrast.

use egui::{Color32, Visuals};

/// The colour `t` of the way along `stops` (0 the first, 1 the last; outside or not a number,
/// the nearer end), each stretch between two stops an even blend: the colour scales of the
/// height and clearance fills.
pub fn ramp(stops: &[[f32; 3]], t: f64) -> Color32 {
    let [.., _, _] = stops else {
        return stops.first().map_or(Color32::GRAY, |&[r, g, b]| {
            Color32::from_rgb(r.round() as u8, g.round() as u8, b.round() as u8)
        });
    };
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    } as f32;
    let x = t * (stops.len() - 1) as f32;
    let k = (x.floor() as usize).min(stops.len() - 2);
    let f = x - k as f32;
    let [a, b] = [stops[k], stops[k + 1]];
    let c = |i: usize| (a[i] + (b[i] - a[i]) * f).round() as u8;
    Color32::from_rgb(c(0), c(1), c(2))
}

/// Warnings and notices (on dark panels).
pub const WARNING: Color32 = Color32::from_rgb(240, 190, 80);
/// Errors (on dark panels).
pub const ERROR: Color32 = Color32::from_rgb(240, 90, 90);
/// An all-clear (on dark panels).
pub const ALL_CLEAR: Color32 = Color32::from_rgb(120, 220, 140);

/// How much of a bright colour's red, green and blue is kept on a light panel.
const ON_LIGHT: f32 = 0.55;

/// `colour` as panel text: as given on dark panels, darkened on light ones.
pub fn on_panel(visuals: &Visuals, colour: Color32) -> Color32 {
    if visuals.dark_mode {
        colour
    } else {
        let darker = |c: u8| (f32::from(c) * ON_LIGHT).round() as u8;
        Color32::from_rgb(darker(colour.r()), darker(colour.g()), darker(colour.b()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// WCAG relative luminance of an sRGB colour.
    fn luminance(c: Color32) -> f64 {
        let linear = |v: u8| {
            let v = f64::from(v) / 255.0;
            if v <= 0.04045 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * linear(c.r()) + 0.7152 * linear(c.g()) + 0.0722 * linear(c.b())
    }

    /// WCAG contrast ratio, 1 (none) to 21 (black on white).
    fn contrast(a: Color32, b: Color32) -> f64 {
        let (la, lb) = (luminance(a), luminance(b));
        (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
    }

    /// The panels' bright text colours (warnings, errors, the all-clear, the pursuit's mob
    /// states) reach WCAG's 3:1 for text against either theme's panels; on dark panels unchanged.
    #[test]
    fn bright_colours_stay_readable_on_both_themes() {
        let colours = [
            crate::app::pursuit_scene::state_color(crate::pursuit::MobState::Chasing),
            crate::app::pursuit_scene::state_color(crate::pursuit::MobState::Tracking),
            crate::app::pursuit_scene::state_color(crate::pursuit::MobState::Lost),
            WARNING,
            ERROR,
            ALL_CLEAR,
        ];
        let bars = crate::app::tile_map_scene::comparison::BAR_COLOURS;
        for visuals in [Visuals::dark(), Visuals::light()] {
            // The comparison's bars stand on the plots' background.
            let backgrounds = [
                (visuals.panel_fill, &colours[..]),
                (visuals.extreme_bg_color, &bars[..]),
            ];
            for (background, colours) in backgrounds {
                for &colour in colours {
                    let ink = on_panel(&visuals, colour);
                    let ratio = contrast(ink, background);
                    assert!(
                        ratio >= 3.0,
                        "{colour:?} as {ink:?} on {background:?}: {ratio:.2} (dark {})",
                        visuals.dark_mode
                    );
                }
            }
        }
        assert_eq!(on_panel(&Visuals::dark(), colours[1]), colours[1]);
        // Undarkened, the tracking amber is too faint on a light panel: the reason for this.
        let light = Visuals::light();
        assert!(contrast(colours[1], light.panel_fill) < 3.0);
    }
}
