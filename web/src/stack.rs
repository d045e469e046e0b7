//! The timeline as a stack of `<svg>` elements laid exactly over one another: the first
//! (`#ls-timeline`) holds the title, description, background and title block, then each drawing
//! layer's unchanging groups in chunks of [`CHUNK`] steps, each chunk its own `<svg>`, then the
//! layer's changing pieces in one more, and last the verdict footer. Chromium repaints a whole
//! `<svg>` when anything in it changes: chunked, a step repaints a few small `<svg>`s instead of
//! one of some 10,000 elements. The stacking order is the layers' drawing order, so the page
//! shows what one `<svg>` of the same pieces would.

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
    pub live: &'a str,
}

fn open(out: &mut String, id: &str, size: (u32, u32), extra: &str) {
    let (w, h) = size;
    out.push_str(&format!(
        "<svg id=\"{id}\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         xmlns=\"http://www.w3.org/2000/svg\"{extra}>"
    ));
}

/// The stack's HTML (a run of sibling `<svg>` elements) for a page of `size` px.
pub fn stack(size: (u32, u32), layers: &[Layer]) -> String {
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
    for (i, layer) in layers.iter().enumerate() {
        let head = format!(
            "<g class=\"ls-shift\"><g class=\"ls-layer {}\" data-layer=\"{}\">",
            layer.class, layer.name
        );
        for (k, chunk) in layer.groups.chunks(CHUNK).enumerate() {
            open(&mut out, &chunk_id(i, k), size, over);
            out.push_str(&head);
            for g in chunk {
                out.push_str("<g>");
                out.push_str(g);
                out.push_str("</g>");
            }
            out.push_str("</g></g></svg>");
        }
        open(&mut out, &live_id(i), size, over);
        out.push_str(&format!(
            "<g class=\"ls-shift\"><g id=\"{}\" class=\"ls-layer ls-live {}\" data-layer=\"{}\">{}</g></g></svg>",
            live_layer_id(layer.name),
            layer.class,
            layer.name,
            layer.live
        ));
    }
    open(&mut out, "ls-top", size, over);
    out.push_str("<g id=\"ls-after\"></g></svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_stack_in_order_in_chunks() {
        let many: Vec<String> = (0..CHUNK + 1)
            .map(|i| format!("<text>{i}</text>"))
            .collect();
        let layers = [
            Layer {
                name: "a",
                class: "",
                groups: many.iter().map(String::as_str).collect(),
                live: "",
            },
            Layer {
                name: "b",
                class: "hits",
                groups: Vec::new(),
                live: "<rect/>",
            },
        ];
        let html = stack((10, 20), &layers);
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
                "ls-top"
            ]
        );
        // Every group once, in order; the first chunk is full.
        let c1 = html.find("ls-c0-1").unwrap();
        assert!(html[..c1].contains(&format!("<text>{}</text>", CHUNK - 1)));
        assert!(html[c1..].contains(&format!("<text>{CHUNK}</text>")));
        assert!(html.contains(
            "<g id=\"ls-b-live\" class=\"ls-layer ls-live hits\" data-layer=\"b\"><rect/>"
        ));
        assert_eq!(html.matches("viewBox=\"0 0 10 20\"").count(), ids.len());
    }
}
