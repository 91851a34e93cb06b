//! The layers of a Tiled map, whatever its format, turned into one tile map: terrain layer by
//! layer, then walls from collision layers, solid tiles and solid objects.

use super::objects::covered_cells;
use super::*;

/// The line a layer starts on, for an error message.
pub(super) type LineOfLayer<'a> = &'a dyn Fn(&Layer) -> Option<usize>;

/// How the error about a missing tile size starts (the readers add its line).
pub(super) const NO_TILE_SIZE: &str = "the map's tile size";

/// Terrains first, layer by layer (a later layer's tile covers an earlier one's): a tile's own
/// terrain (its class or `terrain` property), else its layer's `terrain` property. Then walls
/// where the collision layers have a tile or an object, wherever a tile marked solid is placed,
/// and under objects marked solid: walls win over terrain. Layer offsets move tiles and objects:
/// objects by any amount, tiles by whole tiles only (an error otherwise). Objects cover the
/// cells whose centres they hold; `tile_size` (pixels) places them.
/// `file` and `line_of` name a layer's place in errors.
pub(super) fn map_from_layers(
    (width, height): (usize, usize),
    tile_size: [f64; 2],
    layers: Vec<Layer>,
    tile_kinds: &TileKinds,
    (file, line_of): (&str, LineOfLayer<'_>),
) -> Result<TiledImport, MapError> {
    let by_property = layers.iter().any(|l| l.solid);
    let is_collision = |l: &Layer| {
        l.terrain == Some(Tile::Wall)
            || if by_property {
                l.solid
            } else {
                let name = l.name.to_lowercase();
                SOLID_NAMES.iter().any(|w| name.contains(w))
            }
    };
    let is_solid = |gid: &u32| tile_kinds.get(gid) == Some(&Tile::Wall);
    let mut used_solid_tiles = BTreeSet::new();
    for layer in &layers {
        used_solid_tiles.extend(
            layer
                .gids()
                .iter()
                .map(|g| g & GID_MASK)
                .filter(|g| is_solid(g)),
        );
    }
    let solid_objects: usize = layers
        .iter()
        .filter(|l| !is_collision(l))
        .map(|l| match &l.content {
            Content::Objects(objects) => objects
                .iter()
                .filter(|o| o.solid && (o.area.is_some() || o.template.is_some()))
                .count(),
            Content::Tiles(_) => 0,
        })
        .sum();
    let chosen: Vec<&Layer> = layers.iter().filter(|l| is_collision(l)).collect();
    let mut map = TileMap::new(width, height).ok_or_else(|| MapError::Invalid {
        file: file.to_string(),
        message: format!("a {width} × {height} map is not allowed"),
    })?;
    // Every tile layer covers the map exactly, whatever it holds.
    for layer in &layers {
        if let Content::Tiles(gids) = &layer.content
            && gids.len() != width * height
        {
            return Err(MapError::at(
                file,
                line_of(layer),
                format!(
                    "layer {} has {} cells, the map {width} × {height} = {}",
                    crate::input::quoted(&layer.name),
                    gids.len(),
                    width * height
                ),
            ));
        }
    }
    let place = |map: &mut TileMap, layer: &Layer, pick: &dyn Fn(u32) -> Option<Tile>| {
        place_layer_tiles(map, layer, tile_size, pick)
            .map_err(|message| MapError::at(file, line_of(layer), message))
    };
    let mut terrain_placed = false;
    for layer in &layers {
        if let Content::Tiles(_) = layer.content {
            let terrain_of = |gid: u32| {
                tile_kinds
                    .get(&gid)
                    .copied()
                    .or(layer.terrain)
                    .filter(|&t| t != Tile::Wall)
            };
            terrain_placed |= place(&mut map, layer, &terrain_of)?;
        }
    }
    let terrain_cells = map.tiles().iter().filter(|&&t| t != Tile::Grass).count();
    if chosen.is_empty() && used_solid_tiles.is_empty() && solid_objects == 0 && !terrain_placed {
        let names: Vec<String> = layers
            .iter()
            .map(|l| crate::input::quoted(&l.name))
            .collect();
        return Err(MapError::Invalid {
            file: file.to_string(),
            message: format!(
                "no collision layer among the tile and object layers ({}) and no placed tile or \
                 object marked solid: in Tiled, give the layer whose tiles or shapes block \
                 movement (or those tiles, in the tileset, or those objects) the bool property \
                 `solid` set to true",
                if names.is_empty() {
                    "there are none".to_string()
                } else {
                    names.join(", ")
                }
            ),
        });
    }
    for layer in &layers {
        let whole = is_collision(layer);
        match &layer.content {
            Content::Tiles(_) => {
                if !whole && used_solid_tiles.is_empty() {
                    continue;
                }
                let wall = |gid: u32| ((whole && gid != 0) || is_solid(&gid)).then_some(Tile::Wall);
                place(&mut map, layer, &wall)?;
            }
            Content::Objects(objects) => {
                for object in objects.iter().filter(|o| whole || o.solid) {
                    if let Some(template) = &object.template {
                        return Err(MapError::at(
                            file,
                            object.line.or_else(|| line_of(layer)),
                            format!(
                                "an object of layer {} takes its shape from the template \
                                 {}, which navlab does not read: in Tiled, select it \
                                 and use Detach (from the template)",
                                crate::input::quoted(&layer.name),
                                crate::input::quoted(template)
                            ),
                        ));
                    }
                    let Some(shape) = &object.area else {
                        continue;
                    };
                    let [tw, th] = tile_size;
                    if !(tw.is_finite() && th.is_finite() && tw > 0.0 && th > 0.0) {
                        return Err(MapError::Invalid {
                            file: file.to_string(),
                            message: format!(
                                "{NO_TILE_SIZE} (tilewidth × tileheight) is missing or not \
                                 positive, and the objects of layer {} are placed in pixels",
                                crate::input::quoted(&layer.name)
                            ),
                        });
                    }
                    let placed = ObjectShape {
                        x: shape.x + layer.offset.0,
                        y: shape.y + layer.offset.1,
                        ..shape.clone()
                    };
                    for cell in covered_cells(&placed, width, height, tw, th) {
                        map.set(cell, Tile::Wall);
                    }
                }
            }
        }
    }
    Ok(TiledImport {
        map,
        wall_layers: chosen.iter().map(|l| l.name.clone()).collect(),
        solid_tiles: used_solid_tiles.len(),
        solid_objects,
        terrain_cells,
    })
}

/// Sets the cells under a tile layer's tiles to what `pick` makes of their gid (flip flags
/// removed; empty cells are not asked), moved by the layer's offset, whole tiles only; cells
/// moved off the map are dropped. True when `pick` gave a tile for any; the message of an
/// error says what is wrong with the layer.
pub(super) fn place_layer_tiles(
    map: &mut TileMap,
    layer: &Layer,
    tile_size: [f64; 2],
    pick: &dyn Fn(u32) -> Option<Tile>,
) -> Result<bool, String> {
    let Content::Tiles(gids) = &layer.content else {
        return Ok(false);
    };
    let (width, height) = (map.width(), map.height());
    let picked: Vec<(usize, Tile)> = gids
        .iter()
        .enumerate()
        .filter_map(|(i, &gid)| {
            let gid = gid & GID_MASK;
            if gid == 0 {
                None
            } else {
                pick(gid).map(|t| (i, t))
            }
        })
        .collect();
    if picked.is_empty() {
        return Ok(false);
    }
    let (dx, dy) = whole_tile_offset(layer.offset, tile_size).ok_or_else(|| {
        format!(
            "layer {} is offset by {} × {} px, not a whole number of {} × {} px tiles, so its \
             tiles fall between cells: in Tiled, set its offset (and its groups') to whole tiles",
            crate::input::quoted(&layer.name),
            layer.offset.0,
            layer.offset.1,
            tile_size[0],
            tile_size[1]
        )
    })?;
    for (i, tile) in picked {
        let x = (i % width) as i64 + dx;
        let y = (i / width) as i64 + dy;
        if let (Ok(x), Ok(y)) = (usize::try_from(x), usize::try_from(y))
            && x < width
            && y < height
        {
            map.set((x, y), tile);
        }
    }
    Ok(true)
}

/// A tile layer's `offset` in pixels as whole tiles, if it is one (none is).
pub(super) fn whole_tile_offset(offset: (f64, f64), [tw, th]: [f64; 2]) -> Option<(i64, i64)> {
    if offset == (0.0, 0.0) {
        return Some((0, 0));
    }
    let whole = |pixels: f64, size: f64| {
        let tiles = pixels / size;
        let rounded = tiles.round();
        let fits = size > 0.0 && (tiles - rounded).abs() < 1e-9 && rounded.abs() < 1e9;
        fits.then_some(rounded as i64)
    };
    Some((whole(offset.0, tw)?, whole(offset.1, th)?))
}
