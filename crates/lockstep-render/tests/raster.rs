//! Every built-in scenario's pictures rasterise (resvg) to something that is not blank: lines,
//! fills and, when the machine has fonts, text.

mod common;

use lockstep_render::{Caption, Options, TimeMode, lease_svg, timeline_svg};
use resvg::{tiny_skia, usvg};

/// Rasterises at a third of the size (enough to count ink, and quicker in debug builds).
fn rasterise(svg: &str, opt: &usvg::Options) -> tiny_skia::Pixmap {
    let tree = usvg::Tree::from_str(svg, opt).expect("resvg parses the SVG");
    let size = tree.size().to_int_size();
    let (w, h) = (size.width().div_ceil(3), size.height().div_ceil(3));
    let mut pixmap = tiny_skia::Pixmap::new(w, h).expect("non-empty picture");
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(1.0 / 3.0, 1.0 / 3.0),
        &mut pixmap.as_mut(),
    );
    pixmap
}

/// (pixels that are not white background, pixels dark enough to be text or outlines).
fn ink(p: &tiny_skia::Pixmap) -> (usize, usize) {
    let mut inked = 0;
    let mut dark = 0;
    for px in p.pixels() {
        let c = px.demultiply();
        let (r, g, b, a) = (c.red(), c.green(), c.blue(), c.alpha());
        if a > 0 && (r < 245 || g < 245 || b < 245) {
            inked += 1;
        }
        if a > 200 && u16::from(r) + u16::from(g) + u16::from(b) < 360 {
            dark += 1;
        }
    }
    (inked, dark)
}

#[test]
fn every_picture_has_ink() {
    let mut opt = usvg::Options::default();
    opt.fontdb_mut().load_system_fonts();
    let fonts = !opt.fontdb.is_empty();
    for (id, scenario, run) in common::catalogue() {
        let caption = Caption::for_run(&scenario, &run);
        let pictures = [
            (
                "logical",
                timeline_svg(&run.trace, &caption, &Options::default()),
            ),
            (
                "to-scale",
                timeline_svg(
                    &run.trace,
                    &caption,
                    &Options {
                        time_mode: TimeMode::ToScale,
                        ..Options::default()
                    },
                ),
            ),
            (
                "lease",
                lease_svg(&run.trace, &caption, &Options::default()),
            ),
        ];
        for (what, svg) in pictures {
            let svg = svg.expect("draws");
            let p = rasterise(&svg, &opt);
            let total = (p.width() * p.height()) as usize;
            let (inked, dark) = ink(&p);
            assert!(
                inked * 100 > total * 3,
                "{id} {what}: only {inked} of {total} pixels drawn"
            );
            if fonts {
                // Text is dark: titles, labels, notes (to scale, idle seconds are white space).
                assert!(
                    dark * 1000 > total * 2,
                    "{id} {what}: only {dark} dark pixels (no text?)"
                );
            }
        }
    }
}

#[test]
fn a_blank_picture_fails_the_check() {
    let blank = r##"<svg xmlns="http://www.w3.org/2000/svg" width="210" height="120"><rect width="210" height="120" fill="#FFFFFF"/></svg>"##;
    let p = rasterise(blank, &usvg::Options::default());
    assert_eq!(ink(&p), (0, 0));
}
