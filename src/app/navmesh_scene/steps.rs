//! The navmesh scene's steps: the open list at the step shown, the step list with its jumps to
//! where A* and the funnel start, the sentence of each step, and the keys that move between
//! them.

use super::NavmeshScene;
use crate::app::playback;
use crate::navmesh::{CostModel, EdgeStates, TriId};
use egui::Ui;

impl NavmeshScene {
    /// A*'s open list at the shown step, in the order A* takes it: triangles (centroid model),
    /// or with edge midpoints A*'s (triangle, entry edge) states, named "12 from 7".
    pub fn frontier_ui(&self, ui: &mut Ui) {
        let states = self.edge_states();
        let mesh = self.view.mesh();
        let note = match self.settings.cost {
            CostModel::Centroid => "",
            CostModel::Midpoint => {
                "With edge midpoints A* keeps a triangle once per edge it entered by: \"12 from 7\" \
                 is triangle 12 entered from 7, at their shared edge's midpoint."
            }
            CostModel::Straight => {
                "Heading for the goal, A* keeps a triangle once per edge it entered by: \"12 from \
                 7\" is triangle 12 entered from 7, where the line from the last crossing to the \
                 goal crosses their shared edge."
            }
        };
        playback::open_list_ui(
            ui,
            self.query
                .replay
                .search
                .frontier()
                .unwrap_or(&crate::search::Frontier::new()),
            crate::search::ExpansionOrder::LowestF,
            self.query.replay.search.is_finished(),
            ("", note),
            |node| match states {
                Some(states) => states.name(mesh, node),
                None => format!("triangle {node}"),
            },
        );
    }

    /// The edge states of the query shown (`None` for the centroid model, whose nodes are the
    /// triangles).
    fn edge_states(&self) -> Option<EdgeStates> {
        if !self.settings.cost.searches_edge_states() {
            return None;
        }
        let path = self.query.timeline.path.as_ref()?;
        Some(EdgeStates::new(self.view.mesh(), &path.start, &path.goal))
    }

    /// The triangle A* expands next, while its search is being replayed.
    pub fn next_to_expand(&self) -> Option<TriId> {
        if self.query.replay.search.is_finished() {
            return None;
        }
        let next = self
            .query
            .replay
            .search
            .frontier()?
            .next(crate::search::ExpansionOrder::LowestF, 1)?;
        let node = next.first()?.node;
        Some(match self.edge_states() {
            Some(states) => states.triangle_of(self.view.mesh(), node),
            None => node,
        })
    }

    /// The steps that begin a phase: A*'s first, the funnel's first and Polyanya's first
    /// (step `k` shows the timeline's step `k - 1`).
    fn phase_starts(&self) -> Vec<usize> {
        let (len, search) = (
            self.query.timeline.len(),
            self.query.timeline.search_steps(),
        );
        let optimal = self.query.timeline.optimal_start();
        let mut starts = Vec::new();
        if search > 0 {
            starts.push(1);
        }
        if optimal > search {
            starts.push(search + 1);
        }
        if len > optimal {
            starts.push(optimal + 1);
        }
        starts
    }

    /// Shows step `step`, paused (the step list follows).
    fn jump_to(&mut self, step: Option<usize>) {
        if let Some(step) = step {
            self.query.playback.playing = false;
            self.query.playback.cursor = step;
        }
    }

    /// Page Up / Page Down: back to where A* or the funnel starts, on to where the funnel
    /// starts; E: the step that expands the triangle under the pointer (of the keys pressed).
    pub fn replay_keys(&mut self, keys: &[super::MeshKey]) {
        use super::MeshKey;
        let starts = self.phase_starts();
        let cursor = self.query.playback.cursor;
        for key in keys {
            match key {
                MeshKey::NextPhase => self.jump_to(playback::next_start(&starts, cursor)),
                MeshKey::PreviousPhase => self.jump_to(playback::previous_start(&starts, cursor)),
                MeshKey::Expansion => {
                    let hovered = self
                        .screen
                        .hover_world
                        .and_then(|p| self.view.mesh().triangle_at(p));
                    self.jump_to(hovered.and_then(|t| self.next_expansion_of(t)));
                }
                _ => {}
            }
        }
    }

    /// The listing of the phase shown (A\* before any step: A\*, the funnel or Polyanya) and
    /// the line of the shown step.
    pub fn pseudocode_lit(
        &self,
    ) -> Option<(
        crate::search::pseudocode::Listing,
        Option<crate::search::pseudocode::LitLine>,
    )> {
        let k = self.query.playback.cursor.min(self.query.timeline.len());
        let first = first_pop(&self.query.timeline);
        match k
            .checked_sub(1)
            .map(|i| step_listing(&self.query.timeline, i, first))
        {
            None => Some((crate::search::pseudocode::Listing::NavmeshAStar, None)),
            Some(Some((listing, lit))) => Some((listing, Some(lit))),
            Some(None) => None,
        }
    }

    /// The pseudocode of the phase shown (A\* over the triangles, or the funnel), the shown
    /// step's line lit; returns the listing and line clicked (see
    /// [`go_to_line`](Self::go_to_line)).
    pub fn pseudocode_ui(
        &self,
        ui: &mut Ui,
    ) -> Option<(crate::search::pseudocode::Listing, usize)> {
        let shown = self.pseudocode_lit();
        egui::CollapsingHeader::new("Pseudocode")
            .default_open(true)
            .show(ui, |ui| match &shown {
                Some((listing, lit)) => {
                    crate::app::pseudocode_panel::pseudocode_ui(ui, *listing, lit.as_ref())
                        .map(|line| (*listing, line))
                }
                None => None,
            })
            .body_returned
            .flatten()
    }

    /// Goes to the next step of `listing`'s phase that runs its `line`.
    pub fn go_to_line(&mut self, (listing, line): (crate::search::pseudocode::Listing, usize)) {
        let timeline = &self.query.timeline;
        let first = first_pop(timeline);
        let target = crate::app::pseudocode_panel::next_step_on_line(
            line,
            self.query.playback.cursor,
            timeline.len(),
            |k| {
                step_listing(timeline, k.checked_sub(1)?, first)
                    .filter(|(l, _)| *l == listing)
                    .map(|(_, lit)| lit.line)
            },
        );
        self.jump_to(target);
        self.screen.follow_log = true;
        self.sync_replay();
    }

    /// The list of recorded steps; clicking one jumps there.
    pub fn event_log_ui(&mut self, ui: &mut Ui) {
        let starts = self.phase_starts();
        let optimal_start = (self.query.timeline.len() > self.query.timeline.optimal_start())
            .then(|| self.query.timeline.optimal_start() + 1);
        if starts.len() >= 2 {
            ui.horizontal(|ui| {
                ui.label("Go to");
                if ui
                    .small_button("A*")
                    .on_hover_text("The first step of A* (Page Up)")
                    .clicked()
                {
                    self.jump_to(starts.first().copied());
                }
                if ui
                    .small_button("Funnel")
                    .on_hover_text(
                        "The first step of the funnel, once A* has found the corridor (Page Down)",
                    )
                    .clicked()
                {
                    self.jump_to(starts.get(1).copied());
                }
                if optimal_start.is_some()
                    && ui
                        .small_button("Shortest")
                        .on_hover_text(
                            "The first step of Polyanya's search for the shortest path (Page Down)",
                        )
                        .clicked()
                {
                    self.jump_to(optimal_start);
                }
            });
        }
        let timeline = &self.query.timeline;
        let jumped = playback::event_log_ui(
            ui,
            &mut self.query.playback,
            timeline.len(),
            None,
            &mut self.screen.follow_log,
            |k| timeline.explain(k - 1),
        );
        if jumped {
            self.sync_replay();
        }
    }

    /// The sentence for the step just taken, for the canvas caption.
    pub fn current_explanation(&self) -> String {
        if let Some(walk) = &self.walk {
            return walk.caption();
        }
        if let Some(caption) = self.crowd_caption() {
            return caption;
        }
        match self.query.playback.cursor.min(self.query.timeline.len()) {
            0 => "Ready: press Play (Space) or step (Right arrow). Left click: start, right click: goal."
                .to_string(),
            k => self.query.timeline.explain(k - 1),
        }
    }
    /// The step that next expands triangle `t` after the shown step, or its first expansion
    /// when none comes later (`None`: A* never expanded it).
    fn next_expansion_of(&self, t: TriId) -> Option<usize> {
        self.query
            .timeline
            .expansion_steps()
            .next_after(t, self.query.playback.cursor)
    }
}

/// The index of the first step that takes a node in Polyanya's phase (the timeline's length
/// when there is none): the steps before it push the start's nodes.
fn first_pop(timeline: &crate::navmesh::timeline::Timeline) -> usize {
    use crate::navmesh::anyangle::PolyanyaEvent;
    use crate::navmesh::timeline::Step;
    let start = timeline.optimal_start().min(timeline.len());
    timeline.steps()[start..]
        .iter()
        .position(|s| {
            matches!(
                s,
                Step::Polyanya(PolyanyaEvent::Popped { .. } | PolyanyaEvent::Followed { .. })
            )
        })
        .map_or(timeline.len(), |k| start + k)
}

/// The listing step `i` (from 0) of `timeline` belongs to, and its line there; `first_pop` is
/// [`first_pop`]'s answer.
fn step_listing(
    timeline: &crate::navmesh::timeline::Timeline,
    i: usize,
    first_pop: usize,
) -> Option<(
    crate::search::pseudocode::Listing,
    crate::search::pseudocode::LitLine,
)> {
    use crate::navmesh::timeline::Step;
    use crate::search::pseudocode::{Listing, funnel_step};
    match timeline.steps().get(i)? {
        Step::Search(e) => Listing::NavmeshAStar
            .search_step(e, |t| format!("triangle {t}"))
            .map(|lit| (Listing::NavmeshAStar, lit)),
        Step::Funnel(e) => Some((Listing::Funnel, funnel_step(e))),
        Step::Polyanya(e) => Some((
            Listing::Polyanya,
            crate::navmesh::polyanya_lines::polyanya_step(e, i >= first_pop),
        )),
    }
}
