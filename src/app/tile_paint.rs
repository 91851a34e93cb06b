//! Draws a tile map: one rectangle per tile while tiles are large on screen, else one texture of
//! the visible part with a texel per screen pixel, so a frame's work never grows with the map.

use super::camera::View;
use crate::geom::Vec2;
use crate::grid::{Cell, Tile, TileMap};
use egui::{Color32, Rect, Shape, Stroke};

/// Below this many screen pixels per tile the map is drawn as a texture (a 2048² map fitted in
/// the window would otherwise be four million rectangles a frame, seconds each).
const TEXTURE_BELOW_PIXELS: f64 = 3.0;

/// Samples per texel along each axis when a texel covers several tiles (their colours averaged).
const MAX_SAMPLES: usize = 4;

/// The colour of a tile kind.
pub fn tile_color(tile: Tile) -> Color32 {
    match tile {
        Tile::Grass => Color32::from_rgb(110, 170, 90),
        Tile::Sand => Color32::from_rgb(222, 200, 130),
        Tile::Water => Color32::from_rgb(70, 130, 200),
        Tile::Wall => Color32::from_rgb(60, 60, 66),
        Tile::Hole => Color32::from_rgb(20, 20, 22),
    }
}

/// `a` mixed with `t` of `b`.
pub fn blend(a: Color32, b: Color32, t: f32) -> Color32 {
    let mix = |x: u8, y: u8| (f32::from(x) * (1.0 - t) + f32::from(y) * t).round() as u8;
    Color32::from_rgb(mix(a.r(), b.r()), mix(a.g(), b.g()), mix(a.b(), b.b()))
}

/// What the tiles show, for keeping their texture between frames: `key` identifies the map's
/// and the overlay's state apart from the replay's step; `step` is that step. A texture drawn
/// for the same key, step and view is drawn again as it is; for the same key at another step,
/// only the texels of the cells `changed` names are drawn again.
pub struct TileContent<'a> {
    /// The map's and the overlay's state, but the step.
    pub key: u64,
    /// The replay's step shown.
    pub step: usize,
    /// Cells marked at this step alone (the node being expanded): drawn again when the step
    /// moves.
    pub marked: Vec<Cell>,
    /// The cells whose look differs between two steps (either way), or `None` when there are
    /// too many to say: then the whole texture is drawn again.
    pub changed: &'a dyn Fn(usize, usize) -> Option<Vec<Cell>>,
}

impl TileContent<'_> {
    /// Content with no steps: `key` alone says what the tiles show.
    pub fn fixed(key: u64) -> TileContent<'static> {
        TileContent {
            key,
            step: 0,
            marked: Vec::new(),
            changed: &|_, _| None,
        }
    }
}

/// Most texels patched in place when the step moves; past them the texture is made again
/// (one patch per texel costs more than a whole raster at some point).
const MAX_PATCHED_TEXELS: usize = 4096;

/// Paints the visible tiles of `map`, each blended with `overlay`'s colour when it gives one,
/// and grid lines when tiles are large enough to tell apart. `id` names the texture kept
/// between frames for this canvas; `content` says what the tiles show, when the caller can
/// tell (see [`TileContent`]), else `None`: the texture is then made every frame.
pub fn paint_tiles(
    painter: &egui::Painter,
    view: View,
    map: &TileMap,
    id: egui::Id,
    content: Option<TileContent<'_>>,
    overlay: impl Fn(Cell) -> Option<Color32>,
) {
    let color_of = |cell: Cell| {
        let base = tile_color(map.get(cell).unwrap_or_default());
        overlay(cell).map_or(base, |o| blend(base, o, 0.65))
    };
    let visible = view.visible_world();
    let x0 = visible.min.x.floor().max(0.0) as usize;
    let y0 = visible.min.y.floor().max(0.0) as usize;
    let x1 = (visible.max.x.ceil().max(0.0) as usize).min(map.width());
    let y1 = (visible.max.y.ceil().max(0.0) as usize).min(map.height());
    if x0 >= x1 || y0 >= y1 {
        return;
    }
    let pixels_per_point = f64::from(painter.ctx().pixels_per_point());
    if view.camera.scale * pixels_per_point < TEXTURE_BELOW_PIXELS {
        paint_as_texture(painter, view, id, content, (x0, y0, x1, y1), color_of);
        return;
    }
    let mut mesh = egui::Mesh::default();
    for y in y0..y1 {
        for x in x0..x1 {
            let a = view.screen_from_world(Vec2::new(x as f64, y as f64));
            let b = view.screen_from_world(Vec2::new(x as f64 + 1.0, y as f64 + 1.0));
            mesh.add_colored_rect(Rect::from_min_max(a, b), color_of((x, y)));
        }
    }
    painter.add(Shape::mesh(mesh));
    if view.camera.scale > 10.0 {
        let stroke = Stroke::new(1.0, Color32::from_black_alpha(60));
        for x in x0..=x1 {
            let a = view.screen_from_world(Vec2::new(x as f64, y0 as f64));
            let b = view.screen_from_world(Vec2::new(x as f64, y1 as f64));
            painter.line_segment([a, b], stroke);
        }
        for y in y0..=y1 {
            let a = view.screen_from_world(Vec2::new(x0 as f64, y as f64));
            let b = view.screen_from_world(Vec2::new(x1 as f64, y as f64));
            painter.line_segment([a, b], stroke);
        }
    }
}

/// A content key for [`paint_tiles`] from whatever identifies what the tiles show.
pub fn content_key(shown: impl std::hash::Hash) -> u64 {
    use std::hash::Hasher;
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    shown.hash(&mut hasher);
    hasher.finish()
}

/// A texture of tiles and what it shows.
#[derive(Clone)]
struct TileTexture {
    texture: egui::TextureHandle,
    /// The caller's content key, the tiles and the texture's size.
    shows: Option<(u64, [usize; 4], [usize; 2])>,
    /// The step shown and the cells marked at it.
    step: usize,
    marked: Vec<Cell>,
    /// How many times it was made.
    made: u64,
    /// How many times it was patched (some texels drawn again for another step).
    patched: u64,
}

/// How many times the tile texture of canvas `id` has been made (none while tiles are drawn
/// as rectangles): a frame that changes nothing it shows does not make it again, nor does a
/// step of the replay, which patches it ([`textures_patched`]).
pub fn textures_made(ctx: &egui::Context, id: egui::Id) -> u64 {
    ctx.data(|data| data.get_temp::<TileTexture>(id).map_or(0, |t| t.made))
}

/// The texture the tiles of canvas `id` were last drawn with, if they were drawn as one.
pub fn tile_texture(ctx: &egui::Context, id: egui::Id) -> Option<egui::TextureId> {
    ctx.data(|data| data.get_temp::<TileTexture>(id).map(|t| t.texture.id()))
}

/// How many times the tile texture of canvas `id` has been patched for a step of the replay.
pub fn textures_patched(ctx: &egui::Context, id: egui::Id) -> u64 {
    ctx.data(|data| data.get_temp::<TileTexture>(id).map_or(0, |t| t.patched))
}

/// Tiles `x0..x1` × `y0..y1` as one texture over their place on screen.
fn paint_as_texture(
    painter: &egui::Painter,
    view: View,
    id: egui::Id,
    content: Option<TileContent<'_>>,
    tiles: (usize, usize, usize, usize),
    color_of: impl Fn(Cell) -> Color32,
) {
    let (x0, y0, x1, y1) = tiles;
    let rect = Rect::from_min_max(
        view.screen_from_world(Vec2::new(x0 as f64, y0 as f64)),
        view.screen_from_world(Vec2::new(x1 as f64, y1 as f64)),
    );
    let ctx = painter.ctx();
    let pixels_per_point = ctx.pixels_per_point();
    let texels = |tiles: usize, points: f32| {
        let pixels = (points * pixels_per_point).ceil().max(1.0) as usize;
        tiles.min(pixels)
    };
    let size = [
        texels(x1 - x0, rect.width()),
        texels(y1 - y0, rect.height()),
    ];
    let shows = content
        .as_ref()
        .map(|content| (content.key, [x0, y0, x1, y1], size));
    let kept = ctx.data(|data| data.get_temp::<TileTexture>(id));
    let texture = match (kept, content) {
        (Some(kept), Some(content)) if shows.is_some() && kept.shows == shows => {
            if kept.step != content.step {
                patch(ctx, id, kept, content, tiles, size, &color_of)
            } else {
                kept.texture
            }
        }
        (kept, content) => {
            let image = egui::ColorImage::new(size, raster(tiles, size, &color_of));
            let made = kept.as_ref().map_or(0, |kept| kept.made) + 1;
            let patched = kept.as_ref().map_or(0, |kept| kept.patched);
            let texture = match kept {
                Some(mut kept) => {
                    kept.texture.set(image, egui::TextureOptions::NEAREST);
                    kept.texture
                }
                None => ctx.load_texture("tile map", image, egui::TextureOptions::NEAREST),
            };
            let (step, marked) = content.map_or((0, Vec::new()), |c| (c.step, c.marked));
            ctx.data_mut(|data| {
                data.insert_temp(
                    id,
                    TileTexture {
                        texture: texture.clone(),
                        shows,
                        step,
                        marked,
                        made,
                        patched,
                    },
                )
            });
            texture
        }
    };
    let uv = Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0));
    painter.image(texture.id(), rect, uv, Color32::WHITE);
}

/// Draws again the texels of `kept` over the cells that changed between its step and
/// `content`'s (and those marked at either), or the whole texture when there are too many.
fn patch(
    ctx: &egui::Context,
    id: egui::Id,
    mut kept: TileTexture,
    content: TileContent<'_>,
    tiles: (usize, usize, usize, usize),
    size: [usize; 2],
    color_of: &impl Fn(Cell) -> Color32,
) -> egui::TextureHandle {
    let (x0, y0, x1, y1) = tiles;
    let cells = (content.changed)(kept.step, content.step)
        .filter(|cells| cells.len() <= MAX_PATCHED_TEXELS);
    let mut texels: Vec<[usize; 2]> = cells
        .iter()
        .flatten()
        .chain(&kept.marked)
        .chain(&content.marked)
        .filter(|&&(x, y)| (x0..x1).contains(&x) && (y0..y1).contains(&y))
        .map(|&(x, y)| {
            [
                texel_of(x - x0, x1 - x0, size[0]),
                texel_of(y - y0, y1 - y0, size[1]),
            ]
        })
        .collect();
    texels.sort_unstable();
    texels.dedup();
    let whole = cells.is_none() || texels.len() > MAX_PATCHED_TEXELS;
    if whole {
        let image = egui::ColorImage::new(size, raster(tiles, size, color_of));
        kept.texture.set(image, egui::TextureOptions::NEAREST);
        kept.made += 1;
    } else {
        for [i, j] in texels {
            let color = texel_color(tiles, size, [i, j], color_of);
            let image = egui::ColorImage::new([1, 1], vec![color]);
            kept.texture
                .set_partial([i, j], image, egui::TextureOptions::NEAREST);
        }
        kept.patched += 1;
    }
    kept.step = content.step;
    kept.marked = content.marked;
    let texture = kept.texture.clone();
    ctx.data_mut(|data| data.insert_temp(id, kept));
    texture
}

/// Tiles covered by texel `i` of `n` across `tiles` tiles: `[start, end)` (offsets from the
/// first tile). Every tile is in exactly one texel.
fn texel_span(tiles: usize, n: usize, i: usize) -> (usize, usize) {
    (i * tiles / n, ((i + 1) * tiles / n).max(i * tiles / n + 1))
}

/// The texel of `n` across `tiles` tiles that covers tile `t` (an offset from the first).
fn texel_of(t: usize, tiles: usize, n: usize) -> usize {
    let mut i = (t * n / tiles.max(1)).min(n.saturating_sub(1));
    while i > 0 && texel_span(tiles, n, i).0 > t {
        i -= 1;
    }
    while i + 1 < n && texel_span(tiles, n, i).1 <= t {
        i += 1;
    }
    i
}

/// The colour of texel `[i, j]` of an image of `size` texels over tiles `x0..x1` × `y0..y1`:
/// the average of up to `MAX_SAMPLES` × `MAX_SAMPLES` of the tiles it covers, spread evenly.
fn texel_color(
    (x0, y0, x1, y1): (usize, usize, usize, usize),
    [width, height]: [usize; 2],
    [i, j]: [usize; 2],
    color_of: &impl Fn(Cell) -> Color32,
) -> Color32 {
    let samples = |(start, end): (usize, usize)| {
        let count = (end - start).min(MAX_SAMPLES);
        (0..count).map(move |s| start + (2 * s + 1) * (end - start) / (2 * count))
    };
    let (r0, r1) = texel_span(y1 - y0, height, j);
    let (c0, c1) = texel_span(x1 - x0, width, i);
    let (mut sum, mut n) = ([0u32; 3], 0u32);
    for y in samples((y0 + r0, y0 + r1)) {
        for x in samples((x0 + c0, x0 + c1)) {
            let c = color_of((x, y));
            sum[0] += u32::from(c.r());
            sum[1] += u32::from(c.g());
            sum[2] += u32::from(c.b());
            n += 1;
        }
    }
    let mean = |s: u32| (s + n / 2).checked_div(n).unwrap_or(0) as u8;
    Color32::from_rgb(mean(sum[0]), mean(sum[1]), mean(sum[2]))
}

/// The colours of tiles `x0..x1` × `y0..y1` in an image of `size` texels, row by row: a texel
/// covering one tile has its colour, one covering several the average of up to
/// `MAX_SAMPLES` × `MAX_SAMPLES` of them spread evenly.
pub fn raster(
    tiles: (usize, usize, usize, usize),
    size: [usize; 2],
    color_of: impl Fn(Cell) -> Color32,
) -> Vec<Color32> {
    let [width, height] = size;
    let mut pixels = Vec::with_capacity(width * height);
    for j in 0..height {
        for i in 0..width {
            pixels.push(texel_color(tiles, size, [i, j], &color_of));
        }
    }
    pixels
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tile's colour from its position: distinct for each of the first 256 × 256 tiles.
    fn by_position((x, y): Cell) -> Color32 {
        Color32::from_rgb(x as u8, y as u8, 7)
    }

    #[test]
    fn one_texel_per_tile_gives_each_tile_its_colour() {
        let pixels = raster((3, 5, 8, 9), [5, 4], by_position);
        let expected: Vec<Color32> = (5..9)
            .flat_map(|y| (3..8).map(move |x| by_position((x, y))))
            .collect();
        assert_eq!(pixels, expected);
    }

    #[test]
    fn a_texel_over_several_tiles_averages_them_and_every_tile_is_in_one_texel() {
        // 12 tiles in 3 texels across: four each, all sampled (4 ≤ MAX_SAMPLES).
        let pixels = raster((0, 0, 12, 1), [3, 1], by_position);
        let reds: Vec<u8> = pixels.iter().map(|c| c.r()).collect();
        // Means of 0..4, 4..8, 8..12, rounded: 1.5 → 2, 5.5 → 6, 9.5 → 10.
        assert_eq!(reds, [2, 6, 10]);
        // Uneven division still covers each tile once: 10 tiles in 3 texels.
        let walls = |(x, _): Cell| {
            if x == 9 {
                Color32::BLACK
            } else {
                Color32::WHITE
            }
        };
        let pixels = raster((0, 0, 10, 1), [3, 1], walls);
        assert!(pixels[2].r() < 255, "the last tile shows: {pixels:?}");
        assert_eq!(&pixels[..2], [Color32::WHITE, Color32::WHITE]);
    }

    #[test]
    fn a_huge_texel_samples_a_bounded_number_of_tiles() {
        let count = std::cell::Cell::new(0usize);
        let pixels = raster((0, 0, 8192, 8192), [2, 2], |cell| {
            count.set(count.get() + 1);
            by_position(cell)
        });
        assert_eq!(pixels.len(), 4);
        assert_eq!(count.get(), 4 * MAX_SAMPLES * MAX_SAMPLES);
    }

    /// Each tile's texel covers it, for every way of dividing tiles among texels.
    #[test]
    fn the_texel_of_a_tile_is_the_one_whose_span_holds_it() {
        for tiles in 1..60 {
            for n in 1..=tiles {
                for t in 0..tiles {
                    let i = texel_of(t, tiles, n);
                    let (start, end) = texel_span(tiles, n, i);
                    assert!(
                        i < n && start <= t && t < end,
                        "{tiles} tiles, {n} texels: tile {t} in texel {i} ({start}..{end})"
                    );
                }
            }
        }
    }
}
