//! lockstep-render: turns a lockstep trace into a [`layout::Layout`] (lanes, rows, arrows, notes,
//! spans, marks) and the layout into SVG (plotters' SVG backend), a lease chart and Mermaid text.
//! Shared by the terminal UI, the web app and the CLI; it knows no terminal and no browser and does
//! no I/O.

pub mod colour;
pub mod error;
pub mod geom;
pub mod layout;
pub mod lease;
pub mod map;
pub mod mermaid;
pub mod style;
pub mod svg;
pub mod text;

pub use error::RenderError;
pub use layout::{Layout, Options, TimeMode, layout, retry_folds};
pub use lease::svg::{Seen, lease_box_for, lease_svg, lease_svg_in, run_lease_svg};
pub use lease::{LeaseChart, lease_chart};
pub use mermaid::{mermaid, run_mermaid};
pub use svg::{Caption, draw_timeline, run_svg, timeline_svg};
