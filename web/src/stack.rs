//! The timeline as a stack of `<svg>` elements laid exactly over one another: the first
//! (`#ls-timeline`) holds the title, description, background and title block, then each drawing
//! layer's unchanging groups in chunks of [`CHUNK`] steps, each chunk its own `<svg>`, then the
//! layer's changing pieces in one more, and last the verdict footer. Chromium repaints a whole
//! `<svg>` when anything in it changes: chunked, a step repaints a few small `<svg>`s instead of
//! one of some 10,000 elements. The stacking order is the layers' drawing order, so the page
//! shows what one `<svg>` of the same pieces would. A pinned layer (the step column) is stacked
//! last, in a box that stays at the window's left while a wide picture scrolls sideways.

/// Groups per chunk.
pub const CHUNK: usize = 64;

/// The id of the `k`-th chunk of layer `layer`.
pub fn chunk_id(layer: usize, k: usize) -> String {
    format!("ls-c{layer}-{k}")
}

/// The id of the `<svg>` holding layer `layer`'s changing pieces.
pub fn live_id(layer: usize) -> String {
    format!("ls-live-{layer}")
}

/// The id of the group holding the changing pieces of the layer named `name` (the presenter's
/// pinned legend shows `ls-legend-live` with a `<use>`).
pub fn live_layer_id(name: &str) -> String {
    format!("ls-{name}-live")
}

/// One layer to stack: its name, extra classes, its groups (in step order) and what its
/// changing `<svg>` starts with.
#[derive(Debug)]
pub struct Layer<'a> {
    pub name: &'a str,
    pub class: &'a str,
    pub groups: Vec<&'a str>,
    /// Per group: the top and bottom of what it draws, in the layout's pixels (see
    /// `lockstep_render::svg::stepped::SteppedBase::reach`).
    pub reach: &'a [(f64, f64)],
    pub live: &'a str,
    /// Static marks drawn in an `<svg>` of their own just beneath this layer (the current step's
    /// outline goes beneath the arrows and labels, whose backings then keep it off the text).
    pub under: &'a str,
    /// Kept at the left of the window when the picture scrolls sideways (see [`stack`]).
    pub pinned: bool,
}

fn open(out: &mut String, id: &str, size: (u32, u32), extra: &str) {
    let (w, h) = size;
    out.push_str(&format!(
        "<svg id=\"{id}\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         xmlns=\"http://www.w3.org/2000/svg\"{extra}>"
    ));
}

/// The `<svg>`s of one layer: its groups in chunks, then its changing pieces.
fn push_layer(out: &mut String, i: usize, layer: &Layer, size: (u32, u32), extra: &str) {
    if !layer.under.is_empty() {
        open(out, &format!("ls-under-{i}"), size, extra);
        out.push_str(&format!(
            "<g class=\"ls-shift\"><g class=\"ls-layer ls-under\">{}</g></g></svg>",
            layer.under
        ));
    }
    let head = format!(
        "<g class=\"ls-shift\"><g class=\"ls-layer {}\" data-layer=\"{}\">",
        layer.class, layer.name
    );
    for (k, chunk) in layer.groups.chunks(CHUNK).enumerate() {
        open(out, &chunk_id(i, k), size, extra);
        out.push_str(&head);
        for g in chunk {
            out.push_str("<g>");
            out.push_str(g);
            out.push_str("</g>");
        }
        out.push_str("</g></g></svg>");
    }
    open(out, &live_id(i), size, extra);
    out.push_str(&format!(
        "<g class=\"ls-shift\"><g id=\"{}\" class=\"ls-layer ls-live {}\" data-layer=\"{}\">{}</g></g></svg>",
        live_layer_id(layer.name),
        layer.class,
        layer.name,
        layer.live
    ));
}

/// The stack's HTML (a run of sibling `<svg>` elements) for a page of `size` px. The pinned
/// layers go last, into a box `pin` px wide (in the page's pixels) that stays at the window's
/// left edge (style.css `.pin`): their `<svg>`s are the page's size, cut to the box.
pub fn stack(size: (u32, u32), layers: &[Layer], pin: f64) -> String {
    let mut out = String::with_capacity(1 << 16);
    open(
        &mut out,
        "ls-timeline",
        size,
        " role=\"img\" aria-labelledby=\"ls-title ls-desc\"",
    );
    out.push_str(
        "<title id=\"ls-title\"></title><desc id=\"ls-desc\"></desc><g id=\"ls-defs\"></g><g id=\"ls-before\"></g></svg>",
    );
    let over = " class=\"ls-over\" aria-hidden=\"true\"";
    for (i, layer) in layers.iter().enumerate().filter(|(_, l)| !l.pinned) {
        push_layer(&mut out, i, layer, size, over);
    }
    open(&mut out, "ls-top", size, over);
    out.push_str("<g id=\"ls-after\"></g></svg>");
    let width = f64::from(size.0.max(1));
    let pin = pin.clamp(1.0, width);
    out.push_str(&format!(
        "<div class=\"pin\" aria-hidden=\"true\" style=\"width: {:.4}%\"><div class=\"pin-box\">\
         <div class=\"pin-current\"></div><div class=\"pin-step\"></div>",
        pin / width * 100.0
    ));
    let inside = format!(
        " class=\"ls-pinned\" aria-hidden=\"true\" style=\"width: {:.4}%\"",
        width / pin * 100.0
    );
    for (i, layer) in layers.iter().enumerate().filter(|(_, l)| l.pinned) {
        push_layer(&mut out, i, layer, size, &inside);
    }
    out.push_str("</div></div>");
    out
}

/// How far above and below the window chunks are kept in the rendering at least, in the
/// layout's pixels (a short window: a phone's, an embed's).
pub const NEAR: f64 = 1_500.0;

/// One chunk's `<svg>` and how far down the page what it draws reaches, in the layout's pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct ChunkReach {
    pub id: String,
    pub top: f64,
    pub bottom: f64,
}

/// Every chunk of `layers`, as [`stack`] makes them, with its groups' reach.
pub fn chunk_reaches(layers: &[Layer]) -> Vec<ChunkReach> {
    let mut out = Vec::new();
    for (i, layer) in layers.iter().enumerate() {
        for (k, chunk) in layer.reach.chunks(CHUNK).enumerate() {
            let top = chunk.iter().map(|r| r.0).fold(f64::INFINITY, f64::min);
            let bottom = chunk.iter().map(|r| r.1).fold(f64::NEG_INFINITY, f64::max);
            out.push(ChunkReach {
                id: chunk_id(i, k),
                top,
                bottom,
            });
        }
    }
    out
}

/// Which chunks are far from the window `lo..hi` (in the layout's pixels): more than two
/// windows' height (and at least [`NEAR`]) above or below it. The page leaves those out of its
/// rendering (style.css `[data-far]`): the browser's work on a step then depends on the window,
/// not on the run's length. The chunks either side are kept ready for a scroll: a chunk put back
/// is drawn a frame or two late (with one window either side, a fast wheel left the picture
/// blank for up to three frames where it had been for one).
pub fn far_chunks(chunks: &[ChunkReach], lo: f64, hi: f64) -> Vec<bool> {
    let margin = (2.0 * (hi - lo)).max(NEAR);
    chunks
        .iter()
        .map(|c| c.bottom < lo - margin || c.top > hi + margin)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_stack_in_order_in_chunks() {
        let many: Vec<String> = (0..CHUNK + 1)
            .map(|i| format!("<text>{i}</text>"))
            .collect();
        let many_reach: Vec<(f64, f64)> = (0..=CHUNK).map(|i| (i as f64, i as f64 + 1.0)).collect();
        let layers = [
            Layer {
                name: "a",
                class: "",
                groups: many.iter().map(String::as_str).collect(),
                reach: &many_reach,
                live: "",
                under: "",
                pinned: false,
            },
            Layer {
                name: "b",
                class: "hits",
                groups: Vec::new(),
                reach: &[],
                live: "<rect/>",
                under: "",
                pinned: false,
            },
            Layer {
                name: "p",
                class: "",
                groups: vec!["<text>pinned</text>"],
                reach: &[(0.0, 20.0)],
                live: "",
                under: "",
                pinned: true,
            },
        ];
        let html = stack((10, 20), &layers, 4.0);
        let ids: Vec<&str> = html
            .split("<svg id=\"")
            .skip(1)
            .map(|s| s.split('"').next().unwrap())
            .collect();
        assert_eq!(
            ids,
            [
                "ls-timeline",
                "ls-c0-0",
                "ls-c0-1",
                "ls-live-0",
                "ls-live-1",
                "ls-top",
                "ls-c2-0",
                "ls-live-2"
            ]
        );
        // The pinned layer in its box, 4 of the page's 10 px wide, its <svg>s the page's width.
        let pin = html.find("<div class=\"pin\"").unwrap();
        assert!(html[pin..].contains("style=\"width: 40.0000%\""));
        assert!(
            html[pin..]
                .contains("class=\"ls-pinned\" aria-hidden=\"true\" style=\"width: 250.0000%\"")
        );
        assert!(html[pin..].contains("<text>pinned</text>"));
        // Every group once, in order; the first chunk is full.
        let c1 = html.find("ls-c0-1").unwrap();
        assert!(html[..c1].contains(&format!("<text>{}</text>", CHUNK - 1)));
        assert!(html[c1..].contains(&format!("<text>{CHUNK}</text>")));
        assert!(html.contains(
            "<g id=\"ls-b-live\" class=\"ls-layer ls-live hits\" data-layer=\"b\"><rect/>"
        ));
        assert_eq!(html.matches("viewBox=\"0 0 10 20\"").count(), ids.len());
        // Each chunk's reach is that of its groups, under the chunk's id.
        let reaches = chunk_reaches(&layers);
        let of = |id: &str| {
            reaches
                .iter()
                .find(|c| c.id == id)
                .map(|c| (c.top, c.bottom))
        };
        assert_eq!(of("ls-c0-0"), Some((0.0, CHUNK as f64)));
        assert_eq!(of("ls-c0-1"), Some((CHUNK as f64, CHUNK as f64 + 1.0)));
        assert_eq!(of("ls-c2-0"), Some((0.0, 20.0)));
        assert_eq!(reaches.len(), 3);
    }

    fn chunk(top: f64, bottom: f64) -> ChunkReach {
        ChunkReach {
            id: String::new(),
            top,
            bottom,
        }
    }

    #[test]
    fn chunks_more_than_two_windows_away_are_far() {
        // A 1,000 px window at 4,000..5,000: near is 2,000..7,000.
        let chunks = [
            chunk(0.0, 1_999.0),
            chunk(0.0, 2_000.0),
            chunk(4_100.0, 4_200.0),
            chunk(7_000.0, 8_000.0),
            chunk(7_001.0, 8_000.0),
            // The lanes reach the whole page.
            chunk(0.0, 15_000.0),
        ];
        assert_eq!(
            far_chunks(&chunks, 4_000.0, 5_000.0),
            [true, false, false, false, true, false]
        );
        // A 300 px window at 4,000..4,300 keeps 1,500 px either side: near is 2,500..5,800.
        let short = [
            chunk(0.0, 2_499.0),
            chunk(0.0, 2_500.0),
            chunk(5_801.0, 6_000.0),
        ];
        assert_eq!(far_chunks(&short, 4_000.0, 4_300.0), [true, false, true]);
    }
}
