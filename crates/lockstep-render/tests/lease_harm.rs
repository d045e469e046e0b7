//! The "paid twice" band never runs through a symbol: on redis-sentinel-split-brain it crossed
//! the last renewal diamond and half covered the warning at the end of A's bar.

mod common;

use lockstep_render::geom::Rect;
use lockstep_render::layout::MarkKind;
use lockstep_render::lease::lease_chart;
use lockstep_render::lease::svg::LeasePage;
use lockstep_render::{Caption, Options};

#[test]
fn no_symbol_lies_under_a_paid_twice_band() {
    let mut bands = 0;
    for (id, scenario, run) in common::catalogue() {
        let caption = Caption::for_run(&scenario, &run);
        let page = LeasePage::new(&lease_chart(&run.trace, &Options::default()), &caption);
        bands += page.harm.len();
        for band in &page.harm {
            for &(kind, at) in &page.marks {
                // The duplicate's warning stands on a white disc 13 px across.
                let r = if kind == MarkKind::Duplicate {
                    13.0
                } else {
                    10.0
                };
                let symbol = Rect::new(at.x - r, at.y - r, at.x + r, at.y + r);
                assert!(
                    !symbol.overlaps(band),
                    "{id}: {kind:?} at {at:?} under the band {band:?}"
                );
            }
            for &(_, at) in &page.note_dots {
                let dot = Rect::new(at.x - 6.0, at.y - 6.0, at.x + 6.0, at.y + 6.0);
                assert!(!dot.overlaps(band), "{id}: a dot at {at:?} under {band:?}");
            }
        }
    }
    assert!(bands >= 5, "only {bands} paid-twice bands in the catalogue");
}
