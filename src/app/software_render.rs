//! Draws egui's output into pixels on the CPU, with no window and no GPU: what `navlab open
//! --gif` renders its frames with, the same on every machine. egui's tessellated triangles
//! (vertex colours and texture coordinates, premultiplied, blended in gamma space as egui's own
//! painters do) are filled pixel by pixel, each clipped to its rectangle.

use egui::epaint::{ClippedPrimitive, Primitive, TextureId, Vertex};
use egui::{Color32, ColorImage, TexturesDelta};
use std::collections::HashMap;

/// The textures egui has asked for, kept between frames.
#[derive(Default)]
pub struct SoftwareRenderer {
    textures: HashMap<TextureId, ColorImage>,
}

impl SoftwareRenderer {
    /// Applies egui's texture changes of a frame (new textures, patches, frees), leaving
    /// `delta` empty (egui insists that every delta it hands out is applied).
    pub fn update_textures(&mut self, delta: &mut TexturesDelta) {
        for (id, deltas) in &delta.set {
            for change in deltas {
                let egui::ImageData::Color(image) = &change.image;
                match change.pos {
                    None => {
                        self.textures.insert(*id, (**image).clone());
                    }
                    Some([x0, y0]) => {
                        if let Some(texture) = self.textures.get_mut(id) {
                            let [w, h] = image.size;
                            for y in 0..h {
                                for x in 0..w {
                                    let (tx, ty) = (x0 + x, y0 + y);
                                    if tx < texture.size[0] && ty < texture.size[1] {
                                        texture.pixels[ty * texture.size[0] + tx] =
                                            image.pixels[y * w + x];
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        for id in &delta.free {
            self.textures.remove(id);
        }
        delta.clear();
    }

    /// The pixels of texture `id`, as egui's changes so far left them.
    pub fn texture(&self, id: TextureId) -> Option<&ColorImage> {
        self.textures.get(&id)
    }

    /// Draws `primitives` (tessellated at `pixels_per_point`) over `background` into an image
    /// `size` pixels large.
    pub fn render(
        &self,
        primitives: &[ClippedPrimitive],
        size: [usize; 2],
        pixels_per_point: f32,
        background: Color32,
    ) -> ColorImage {
        let [w, h] = size;
        let mut target = Target {
            width: w,
            height: h,
            pixels: vec![to_float(background); w * h],
        };
        for primitive in primitives {
            let Primitive::Mesh(mesh) = &primitive.primitive else {
                continue;
            };
            let clip = primitive.clip_rect * pixels_per_point;
            let clip = [
                clip.min.x.max(0.0).floor() as usize,
                clip.min.y.max(0.0).floor() as usize,
                (clip.max.x.ceil().max(0.0) as usize).min(w),
                (clip.max.y.ceil().max(0.0) as usize).min(h),
            ];
            let texture = self.textures.get(&mesh.texture_id);
            for triangle in mesh.indices.chunks_exact(3) {
                let corner = |k: usize| {
                    mesh.vertices
                        .get(triangle[k] as usize)
                        .copied()
                        .map(|v| Vertex {
                            pos: egui::pos2(v.pos.x * pixels_per_point, v.pos.y * pixels_per_point),
                            ..v
                        })
                };
                if let (Some(a), Some(b), Some(c)) = (corner(0), corner(1), corner(2)) {
                    target.fill(&[a, b, c], clip, texture);
                }
            }
        }
        ColorImage::new(
            size,
            target
                .pixels
                .iter()
                .map(|p| {
                    let byte = |v: f32| (v * 255.0).round().clamp(0.0, 255.0) as u8;
                    Color32::from_rgba_premultiplied(byte(p[0]), byte(p[1]), byte(p[2]), 255)
                })
                .collect(),
        )
    }
}

/// Premultiplied RGBA, 0 to 1, in gamma space.
type Rgba = [f32; 4];

fn to_float(c: Color32) -> Rgba {
    let [r, g, b, a] = c.to_array();
    [r, g, b, a].map(|v| f32::from(v) / 255.0)
}

struct Target {
    width: usize,
    height: usize,
    pixels: Vec<Rgba>,
}

impl Target {
    /// Fills one triangle, clipped to `[x0, y0, x1, y1)`: each pixel whose centre is inside
    /// (either winding) gets the corners' colours and texture coordinates interpolated,
    /// the texel under them multiplied in, blended over what is there.
    fn fill(&mut self, [a, b, c]: &[Vertex; 3], clip: [usize; 4], texture: Option<&ColorImage>) {
        let (pa, pb, pc) = (a.pos, b.pos, c.pos);
        let area = (pb.x - pa.x) * (pc.y - pa.y) - (pb.y - pa.y) * (pc.x - pa.x);
        if area.abs() < 1e-9 || !area.is_finite() {
            return;
        }
        let x0 = pa.x.min(pb.x).min(pc.x).floor().max(clip[0] as f32) as usize;
        let y0 = pa.y.min(pb.y).min(pc.y).floor().max(clip[1] as f32) as usize;
        let x1 = (pa.x.max(pb.x).max(pc.x).ceil().max(0.0) as usize)
            .min(clip[2])
            .min(self.width);
        let y1 = (pa.y.max(pb.y).max(pc.y).ceil().max(0.0) as usize)
            .min(clip[3])
            .min(self.height);
        let colours = [to_float(a.color), to_float(b.color), to_float(c.color)];
        for y in y0..y1 {
            let py = y as f32 + 0.5;
            for x in x0..x1 {
                let px = x as f32 + 0.5;
                // Barycentric weights of a, b and c (their signs agree inside).
                let wa = ((pb.x - px) * (pc.y - py) - (pb.y - py) * (pc.x - px)) / area;
                let wb = ((pc.x - px) * (pa.y - py) - (pc.y - py) * (pa.x - px)) / area;
                let wc = 1.0 - wa - wb;
                if wa < 0.0 || wb < 0.0 || wc < 0.0 {
                    continue;
                }
                let mut src: Rgba = [0.0; 4];
                for (k, value) in src.iter_mut().enumerate() {
                    *value = wa * colours[0][k] + wb * colours[1][k] + wc * colours[2][k];
                }
                if let Some(texture) = texture {
                    let u = wa * a.uv.x + wb * b.uv.x + wc * c.uv.x;
                    let v = wa * a.uv.y + wb * b.uv.y + wc * c.uv.y;
                    let texel = sample(texture, u, v);
                    for k in 0..4 {
                        src[k] *= texel[k];
                    }
                }
                let dst = &mut self.pixels[y * self.width + x];
                let keep = 1.0 - src[3];
                for k in 0..4 {
                    dst[k] = src[k] + dst[k] * keep;
                }
            }
        }
    }
}

/// The texel at (u, v) (nearest), premultiplied.
fn sample(texture: &ColorImage, u: f32, v: f32) -> Rgba {
    let [w, h] = texture.size;
    if w == 0 || h == 0 {
        return [1.0; 4];
    }
    let x = ((u * w as f32).floor().max(0.0) as usize).min(w - 1);
    let y = ((v * h as f32).floor().max(0.0) as usize).min(h - 1);
    texture
        .pixels
        .get(y * w + x)
        .map_or([1.0; 4], |&c| to_float(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rectangle painted through egui comes out where and in the colour it was painted, and
    /// text leaves glyph pixels in its colour.
    #[test]
    fn a_painted_rectangle_and_text_land_where_they_were_painted() {
        let ctx = egui::Context::default();
        let size = egui::vec2(64.0, 48.0);
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size)),
            ..Default::default()
        };
        let mut renderer = SoftwareRenderer::default();
        let mut image = None;
        for _ in 0..2 {
            let output = ctx.run_ui(input.clone(), |ui| {
                let painter = ui.painter();
                painter.rect_filled(
                    egui::Rect::from_min_max(egui::pos2(10.0, 10.0), egui::pos2(30.0, 20.0)),
                    0.0,
                    Color32::from_rgb(200, 40, 40),
                );
                painter.text(
                    egui::pos2(5.0, 30.0),
                    egui::Align2::LEFT_TOP,
                    "Hi",
                    egui::FontId::proportional(14.0),
                    Color32::WHITE,
                );
            });
            let mut output = output;
            renderer.update_textures(&mut output.textures_delta);
            let primitives = ctx.tessellate(output.shapes, output.pixels_per_point);
            image = Some(renderer.render(&primitives, [64, 48], 1.0, Color32::BLACK));
        }
        let image = image.expect("rendered");
        let at = |x: usize, y: usize| image.pixels[y * 64 + x];
        assert_eq!(at(20, 15), Color32::from_rgb(200, 40, 40));
        assert_eq!(at(40, 15), Color32::BLACK);
        let text = (30..46)
            .flat_map(|y| (5..25).map(move |x| (x, y)))
            .filter(|&(x, y)| at(x, y).r() > 200)
            .count();
        assert!(text > 10, "glyph pixels: {text}");
    }
}
