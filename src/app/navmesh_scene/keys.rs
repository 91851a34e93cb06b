//! The navmesh scene's keys and mouse actions: one table that the handlers (the scene's tick,
//! the replay keys, the editing tools) and the help window all read.

use super::Tool;
use crate::app::keys::KeyRow;
use egui::Key;

/// What a key of the navmesh scene asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeshKey {
    /// Back to where A\* or the funnel starts.
    PreviousPhase,
    /// On to where the funnel starts.
    NextPhase,
    /// The step that expands the triangle under the pointer (again: the next one).
    Expansion,
    /// Start or pause the agent walking the path.
    Walk,
    /// The start or goal placed last to the floor below.
    FloorDown,
    /// Take a tool in hand.
    Tool(Tool),
    /// Close the polygon being drawn.
    ClosePolygon,
    /// Remove the selected shapes.
    Delete,
    /// Drop the polygon's last corner, or remove the selected shapes.
    Backspace,
    /// Open or close the door under the pointer.
    Door,
    /// Drop the polygon being drawn, then back to the start/goal tool.
    Escape,
}

/// The navmesh scene's mouse actions, for the help window.
pub(super) const MOUSE: &[KeyRow<MeshKey>] = &[
    KeyRow::mouse("Left click", "set the start"),
    KeyRow::mouse("Right click / Shift+click", "set the goal"),
    KeyRow::mouse("Drag S or G", "move it; the search re-runs live"),
    KeyRow::mouse("Drag elsewhere", "pan"),
    KeyRow::mouse("Wheel / pinch", "zoom at the cursor"),
];

/// The navmesh scene's keys (besides the playback's): what the handlers and the help read.
pub const KEYS: &[KeyRow<MeshKey>] = &[
    KeyRow {
        shown: "Page Up / Page Down",
        does: "A*'s first step / the funnel's",
        keys: &[
            (Key::PageUp, MeshKey::PreviousPhase),
            (Key::PageDown, MeshKey::NextPhase),
        ],
    },
    KeyRow {
        shown: "E",
        does: "go to the step that expands the triangle under the pointer (again: the next one)",
        keys: &[(Key::E, MeshKey::Expansion)],
    },
    KeyRow {
        shown: "W",
        does: "walk the path: start / pause the agent",
        keys: &[(Key::W, MeshKey::Walk)],
    },
    KeyRow {
        shown: "L",
        does: "where floors overlap: the start or goal (placed last) to the floor below",
        keys: &[(Key::L, MeshKey::FloorDown)],
    },
    KeyRow {
        shown: "N / V / R / C / P / B / D / K",
        does: "tools: start/goal, select, rectangle, circle, polygon, paint, doors, link",
        keys: &[
            (Key::N, MeshKey::Tool(Tool::Navigate)),
            (Key::V, MeshKey::Tool(Tool::Select)),
            (Key::R, MeshKey::Tool(Tool::Rectangle)),
            (Key::C, MeshKey::Tool(Tool::Circle)),
            (Key::P, MeshKey::Tool(Tool::Polygon)),
            (Key::B, MeshKey::Tool(Tool::Paint)),
            (Key::D, MeshKey::Tool(Tool::Doors)),
            (Key::K, MeshKey::Tool(Tool::Link)),
        ],
    },
    KeyRow {
        shown: "Enter / double click",
        does: "close the polygon being drawn",
        keys: &[(Key::Enter, MeshKey::ClosePolygon)],
    },
    KeyRow {
        shown: "Delete / Backspace",
        does: "remove the selected shapes, or with the Link tool the selected link (Backspace, while drawing a polygon: its last corner)",
        keys: &[
            (Key::Delete, MeshKey::Delete),
            (Key::Backspace, MeshKey::Backspace),
        ],
    },
    KeyRow {
        shown: "O",
        does: "open or close the door under the pointer",
        keys: &[(Key::O, MeshKey::Door)],
    },
    KeyRow {
        shown: "Escape",
        does: "drop the polygon or link being drawn, then back to the start/goal tool",
        keys: &[(Key::Escape, MeshKey::Escape)],
    },
    KeyRow::mouse("Middle drag", "pan, with any tool"),
];
