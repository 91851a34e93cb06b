//! The front door of path queries: a [`Query`] on a mesh holds the options of a search (the
//! step cost model, the heuristic's weight, what each area type costs, the heights that choose
//! a floor where floors are stacked) apart from the mesh, as Detour's `dtNavMeshQuery` takes a
//! `dtQueryFilter`; [`NavMesh::path`] and [`NavMesh::shortest_path`] ask with the defaults.
//!
//! Both searches can report their steps to observers; a query without them reports nothing.

use super::anyangle::{OptimalPath, PolyanyaEvent, shortest_path_located};
use super::areas::{AreaCostError, AreaCosts};
use super::query::{CostModel, Path, QueryOptions, find_path_located};
use super::{Location, NavMesh};
use crate::geom::Vec2;
use crate::search::funnel::FunnelEvent;
use crate::search::{NoObserver, Observer, SearchEvent};

/// Path queries on one mesh with one set of options.
///
/// ```
/// use navlab_core::prelude::*;
///
/// // Two rooms joined by a doorway, in the XY plane.
/// let positions = [
///     [0.0, 0.0, 0.0], [4.0, 0.0, 0.0], [4.0, 4.0, 0.0], [0.0, 4.0, 0.0],
///     [4.0, 1.5, 0.0], [6.0, 1.5, 0.0], [6.0, 2.5, 0.0], [4.0, 2.5, 0.0],
///     [6.0, 0.0, 0.0], [10.0, 0.0, 0.0], [10.0, 4.0, 0.0], [6.0, 4.0, 0.0],
/// ];
/// let polygons = [
///     vec![0, 1, 4, 7, 2, 3],
///     vec![4, 5, 6, 7],
///     vec![8, 9, 10, 11, 6, 5],
/// ];
/// let options = BuildOptions { plane: Plane::Xy, ..BuildOptions::default() };
/// let mesh = NavMesh::from_polygons(&positions, &polygons, options)?;
///
/// let query = mesh.query().cost_model(CostModel::Straight);
/// let path = query.path([1.0, 3.5], [9.0, 3.5]).expect("finite points");
/// assert_eq!(path.status, PathStatus::Found);
/// // Round the doorway's upper corners.
/// assert_eq!(path.waypoints.len(), 4);
/// // Never shorter than the exact shortest path.
/// let shortest = query.shortest_path([1.0, 3.5], [9.0, 3.5]);
/// assert!(shortest.length <= path.length + 1e-9);
/// # Ok::<(), BuildError>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Query<'m> {
    mesh: &'m NavMesh,
    options: QueryOptions,
    start_height: Option<f64>,
    goal_height: Option<f64>,
}

impl<'m> Query<'m> {
    /// A query on `mesh`: centroid steps, weight 1 (optimal A* on the triangles' graph), and
    /// the mesh's area types at their built-in costs ([`AreaCosts::for_names`]).
    pub fn new(mesh: &'m NavMesh) -> Self {
        Self {
            mesh,
            options: QueryOptions {
                area_costs: AreaCosts::for_names(mesh.area_names()),
                ..QueryOptions::default()
            },
            start_height: None,
            goal_height: None,
        }
    }

    /// The same query with all of `options`.
    pub fn options(self, options: QueryOptions) -> Self {
        Self { options, ..self }
    }

    /// The same query measuring A*'s steps with `cost`.
    pub fn cost_model(mut self, cost: CostModel) -> Self {
        self.options.cost = cost;
        self
    }

    /// The same query with A*'s heuristic multiplied by `weight`: 1 is optimal A*, more is
    /// greedier, 0 is Dijkstra. A weight that is not finite counts as 1, a negative one as 0.
    pub fn heuristic_weight(mut self, weight: f64) -> Self {
        self.options.heuristic_weight = weight;
        self
    }

    /// The same query with the area type called `name` costing `cost` times its distance.
    pub fn area_cost(mut self, name: &str, cost: f64) -> Result<Self, AreaCostError> {
        self.options
            .area_costs
            .set_named(self.mesh.area_names(), name, cost)?;
        Ok(self)
    }

    /// The same query with the start and the goal on the floors nearest these heights, where
    /// floors are stacked (see [`NavMesh::locate_near_height`]); the lowest floor otherwise.
    pub fn heights(self, start: f64, goal: f64) -> Self {
        Self {
            start_height: Some(start),
            goal_height: Some(goal),
            ..self
        }
    }

    /// The options A* runs with.
    pub fn current_options(&self) -> QueryOptions {
        self.options
    }

    /// Where `start` and `goal` lie on the mesh (each snapped to it when off it), on the floors
    /// the heights choose; `None` when a point is not finite or the mesh has no triangle.
    pub fn locate(
        &self,
        start: impl Into<Vec2>,
        goal: impl Into<Vec2>,
    ) -> Option<(Location, Location)> {
        let start = self
            .mesh
            .locate_near_height(start.into(), self.start_height)?;
        let goal = self
            .mesh
            .locate_near_height(goal.into(), self.goal_height)?;
        Some((start, goal))
    }

    /// A path from `start` to `goal` as Detour finds one: A* over triangles gives the
    /// corridor, the funnel pulls the string through its portals. Points off the mesh snap to
    /// it; points on different islands give [`PathStatus::Unreachable`](super::PathStatus).
    /// `None` only when a point is not finite or the mesh has no triangle.
    pub fn path(&self, start: impl Into<Vec2>, goal: impl Into<Vec2>) -> Option<Path> {
        self.path_observed(start, goal, &mut NoObserver, &mut NoObserver)
    }

    /// [`path`](Self::path), sending each A* step to `search` (nodes are triangles) and each
    /// funnel step to `funnel`: a `Vec` records them.
    pub fn path_observed(
        &self,
        start: impl Into<Vec2>,
        goal: impl Into<Vec2>,
        search: &mut impl Observer<SearchEvent>,
        funnel: &mut impl Observer<FunnelEvent>,
    ) -> Option<Path> {
        let (start, goal) = self.locate(start, goal)?;
        Some(find_path_located(
            self.mesh,
            start,
            goal,
            self.options,
            search,
            &mut NoObserver,
            funnel,
        ))
    }

    /// The shortest path from `start` to `goal` (Polyanya: exact, any angle), each point
    /// snapped to the mesh when off it. It is the shortest by distance: area costs do not
    /// weigh in. Not found ([`OptimalPath::is_found`]) when the points are on different
    /// islands or not finite.
    pub fn shortest_path(&self, start: impl Into<Vec2>, goal: impl Into<Vec2>) -> OptimalPath {
        self.shortest_path_observed(start, goal, &mut NoObserver)
    }

    /// [`shortest_path`](Self::shortest_path), sending each search step to `observer`.
    pub fn shortest_path_observed(
        &self,
        start: impl Into<Vec2>,
        goal: impl Into<Vec2>,
        observer: &mut impl Observer<PolyanyaEvent>,
    ) -> OptimalPath {
        match self.locate(start, goal) {
            Some((start, goal)) => shortest_path_located(self.mesh, start, goal, observer),
            None => super::anyangle::not_found(),
        }
    }
}

impl NavMesh {
    /// A [`Query`] on this mesh with the default options.
    pub fn query(&self) -> Query<'_> {
        Query::new(self)
    }

    /// A path from `start` to `goal` with the default options: [`Query::path`].
    ///
    /// ```
    /// use navlab_core::prelude::*;
    ///
    /// let mesh = navlab_core::assets::ROOMS.read(ReadOptions::default())?;
    /// let path = mesh.path([1.0, 1.0], [5.0, -7.0]).expect("finite points");
    /// assert_eq!(path.status, PathStatus::Found);
    /// assert!(path.length > Vec2::new(1.0, 1.0).distance(Vec2::new(5.0, -7.0)));
    /// # Ok::<(), LoadError>(())
    /// ```
    pub fn path(&self, start: impl Into<Vec2>, goal: impl Into<Vec2>) -> Option<Path> {
        self.query().path(start, goal)
    }

    /// The exact shortest path from `start` to `goal`: [`Query::shortest_path`].
    ///
    /// ```
    /// use navlab_core::prelude::*;
    ///
    /// let mesh = navlab_core::assets::HOLE.read(ReadOptions::default())?;
    /// let shortest = mesh.shortest_path([1.0, 1.0], [9.0, 9.0]);
    /// let corridor = mesh.path([1.0, 1.0], [9.0, 9.0]).expect("finite points");
    /// assert!(shortest.is_found());
    /// assert!(shortest.length <= corridor.length + 1e-9);
    /// # Ok::<(), LoadError>(())
    /// ```
    pub fn shortest_path(&self, start: impl Into<Vec2>, goal: impl Into<Vec2>) -> OptimalPath {
        self.query().shortest_path(start, goal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::navmesh::query::find_path;

    #[test]
    fn a_query_answers_as_the_search_it_wraps() {
        let mesh = crate::assets::ROOMS
            .read(Default::default())
            .expect("loads");
        let (a, b) = (Vec2::new(1.0, 1.0), Vec2::new(5.0, -7.0));
        for cost in [
            CostModel::Centroid,
            CostModel::Midpoint,
            CostModel::Straight,
        ] {
            let options = QueryOptions {
                cost,
                area_costs: AreaCosts::for_names(mesh.area_names()),
                ..QueryOptions::default()
            };
            let direct = find_path(&mesh, a, b, options, &mut NoObserver, &mut NoObserver);
            let front = mesh.query().cost_model(cost).path([1.0, 1.0], (5.0, -7.0));
            assert_eq!(front, direct);
        }
        let exact = super::super::anyangle::shortest_path(&mesh, a, b, &mut NoObserver);
        assert_eq!(mesh.shortest_path(a, b), exact);
    }

    #[test]
    fn an_unknown_area_name_or_cost_out_of_range_is_refused() {
        let mesh = crate::assets::ROOMS
            .read(Default::default())
            .expect("loads");
        assert!(matches!(
            mesh.query().area_cost("lava", 2.0),
            Err(AreaCostError::UnknownName { .. })
        ));
        let ground = mesh.area_names().first().cloned().expect("ground");
        assert!(matches!(
            mesh.query().area_cost(&ground, 1e9),
            Err(AreaCostError::OutOfRange(_))
        ));
        assert!(mesh.query().area_cost(&ground, 2.0).is_ok());
    }

    #[test]
    fn points_that_are_not_finite_get_no_path() {
        let mesh = crate::assets::ROOMS
            .read(Default::default())
            .expect("loads");
        assert!(mesh.path([f64::NAN, 0.0], [1.0, 1.0]).is_none());
        assert!(
            !mesh
                .shortest_path([f64::INFINITY, 0.0], [1.0, 1.0])
                .is_found()
        );
    }
}
