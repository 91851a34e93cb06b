//! Search algorithms over any graph whose nodes are dense indices, reporting every step as an
//! event so that a user interface can record and replay them.

pub mod astar;
pub mod events;
pub mod funnel;

pub use astar::{AStarScratch, astar, astar_with_scratch};
pub use events::{NoObserver, Observer, SearchEvent, SearchOutcome, SearchResult};
