//! The verdict under the run wraps to the part of the page a reader sees (`Caption::seen_width`):
//! on a phone its headline ran off the window's right edge ("…paid exactly", review 27).

mod common;

use lockstep_render::svg::Page;
use lockstep_render::{Caption, Options, layout};

/// The footer's words, in order, whatever their lines.
fn words(page: &Page) -> Vec<String> {
    page.footer
        .iter()
        .flat_map(|t| t.text.text.split_whitespace().map(str::to_string))
        .collect()
}

#[test]
fn the_verdict_wraps_to_the_width_seen_and_keeps_every_word() {
    for id in ["fenced-gc-pause", "consensus-session-suspended"] {
        let (scenario, run) = common::load(id);
        let options = Options {
            upto_step: Some(run.trace.events.len()),
            unfold_retries: true,
            ..Options::default()
        }
        .for_scenario(&scenario);
        let l = layout(&run.trace, &options);
        let whole = Page::new(&l, &Caption::for_run(&scenario, &run));
        for seen in [620.0, 1000.0] {
            let caption = Caption {
                seen_width: Some(seen),
                ..Caption::for_run(&scenario, &run)
            };
            let page = Page::new(&l, &caption);
            for t in &page.footer {
                assert!(
                    t.text.rect.x1 <= seen,
                    "{id} at {seen}: {:?} reaches {}",
                    t.text.text,
                    t.text.rect.x1
                );
            }
            assert_eq!(words(&page), words(&whole), "{id} at {seen}");
            // Only the footer grows: the picture stays where it was.
            assert_eq!(page.layout_dy, whole.layout_dy);
            assert_eq!(page.width, whole.width);
        }
        let narrow = Page::new(
            &l,
            &Caption {
                seen_width: Some(620.0),
                ..Caption::for_run(&scenario, &run)
            },
        );
        assert!(
            narrow.footer.len() > whole.footer.len(),
            "{id}: not wrapped"
        );
        assert!(narrow.height > whole.height);
    }
}
