//! Hatching as SVG patterns: plotters cannot fill with a pattern, so a hatched area is drawn as a
//! rectangle filled with a reserved colour, and [`finish`] turns that colour into a reference to a
//! `<pattern>` defined once. A long pause or crash is then one element, not hundreds of lines.

use crate::style::{self, Rgb};

/// A kind of hatching: line colour, distance between lines along the vertical, whether the
/// other diagonal is drawn too, and the lines' width.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Hatch {
    pub color: Rgb,
    pub step: f64,
    pub both: bool,
    pub width: f64,
}

/// Every hatching the drawings use; its index names its pattern and its reserved colour.
pub(crate) const HATCHES: [Hatch; 9] = [
    Hatch {
        color: style::FROZEN_HATCH,
        step: 9.0,
        both: false,
        width: 1.0,
    },
    Hatch {
        color: style::DOWN_HATCH,
        step: 9.0,
        both: true,
        width: 1.0,
    },
    Hatch {
        color: style::FROZEN_HATCH,
        step: 7.0,
        both: false,
        width: 1.0,
    },
    Hatch {
        color: style::DOWN_HATCH,
        step: 7.0,
        both: true,
        width: 1.0,
    },
    Hatch {
        color: style::DANGER,
        step: style::DANGER_HATCH_STEP,
        both: false,
        // Bold enough to show at slide size: the pattern tells the band from the refused row.
        width: 2.0,
    },
    Hatch {
        color: style::FROZEN_HATCH,
        step: 8.0,
        both: false,
        width: 1.0,
    },
    Hatch {
        color: style::DANGER,
        step: 8.0,
        both: false,
        width: 1.0,
    },
    Hatch {
        color: style::PARTITION,
        step: 8.0,
        both: false,
        width: 1.0,
    },
    // A stale belief in the lease chart: bold red stripes over the worker's washed bar.
    Hatch {
        color: style::DANGER,
        step: style::STALE_HATCH_STEP,
        both: false,
        width: 3.0,
    },
];

/// The reserved fill colour of hatching `i` (no other element uses these colours).
pub(crate) fn sentinel(i: usize) -> Rgb {
    Rgb(0x01, 0x02, 0x10 + i as u8)
}

/// The index of a hatching, if it is one of [`HATCHES`].
pub(crate) fn index_of(color: Rgb, step: f64, both: bool) -> Option<usize> {
    HATCHES
        .iter()
        .position(|h| h.color == color && h.step == step && h.both == both)
}

/// Replaces the reserved fills of `svg` by pattern references and defines the patterns used.
pub(crate) fn finish(svg: String) -> String {
    let (mut out, used) = refer_and_list(&svg);
    if used.is_empty() {
        return out;
    }
    match out
        .find("<svg")
        .and_then(|s| out[s..].find('>').map(|e| s + e + 1))
    {
        Some(at) => {
            out.insert_str(at, &format!("\n{}", defs(used)));
            out
        }
        None => out,
    }
}

/// `svg` with its reserved fills turned into references to the patterns (defined elsewhere: a
/// front end that assembles a picture from parts defines them once with [`defs`]).
pub(crate) fn refer(svg: &str) -> String {
    refer_and_list(svg).0
}

/// The dash lengths a dashed line may have, each drawn at a reserved stroke width (no real line
/// is 95 or 98 px wide) that [`refer_and_list`] rewrites as a 2 px dashed stroke.
const DASHES: [(u32, &str); 2] = [(95, "5 5"), (98, "8 8")];

/// The reserved stroke width of a dashed line with dashes `dash` long (5 unless it is 8).
pub(crate) fn dash_width(dash: f64) -> u32 {
    if dash >= 8.0 {
        DASHES[1].0
    } else {
        DASHES[0].0
    }
}

/// `svg` with the reserved widths of dashed lines written as dashes.
fn dashes(svg: String) -> String {
    let mut out = svg;
    for (width, pattern) in DASHES {
        let reserved = format!("stroke-width=\"{width}\"");
        if out.contains(&reserved) {
            out = out.replace(
                &reserved,
                &format!("stroke-width=\"2\" stroke-dasharray=\"{pattern}\""),
            );
        }
    }
    out
}

/// `svg` with its reserved fills turned into pattern references, and which patterns it uses:
/// one pass over the text (a 10,000-event picture is megabytes; a scan and a copy per pattern
/// took a tenth of the time to draw it).
fn refer_and_list(svg: &str) -> (String, Vec<usize>) {
    // Every reserved fill is `fill="#0102` and then two hex digits 10..(10 + HATCHES.len()).
    let prefix = format!("fill=\"{}", &sentinel(0).hex()[..5]);
    let mut out = String::with_capacity(svg.len() + svg.len() / 16);
    let mut used = [false; HATCHES.len()];
    let mut rest = svg;
    while let Some(at) = rest.find(&prefix) {
        let after = &rest[at + prefix.len()..];
        let which = after
            .get(..3)
            .filter(|t| t.ends_with('"'))
            .and_then(|t| u8::from_str_radix(&t[..2], 16).ok())
            .and_then(|b| b.checked_sub(0x10))
            .map(usize::from)
            .filter(|&i| i < HATCHES.len());
        match which {
            Some(i) => {
                out.push_str(&rest[..at]);
                out.push_str(&format!("fill=\"url(#lockstep-hatch-{i})\""));
                used[i] = true;
                rest = &after[3..];
            }
            None => {
                out.push_str(&rest[..at + prefix.len()]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    let used = (0..HATCHES.len()).filter(|&i| used[i]).collect();
    (font_sizes(dashes(out)), used)
}

/// `svg` with its font sizes to a hundredth of a pixel: plotters writes the size it was given
/// divided by its own scale, so 15 px came out as `font-size="15.000000000000002"`.
fn font_sizes(svg: String) -> String {
    const ATTR: &str = "font-size=\"";
    if !svg.contains(ATTR) {
        return svg;
    }
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg.as_str();
    while let Some(at) = rest.find(ATTR) {
        let value = &rest[at + ATTR.len()..];
        let Some(end) = value.find('"') else { break };
        out.push_str(&rest[..at + ATTR.len()]);
        match value[..end].parse::<f64>() {
            Ok(size) => out.push_str(&format!("{}", (size * 100.0).round() / 100.0)),
            Err(_) => out.push_str(&value[..end]),
        }
        rest = &value[end..];
    }
    out.push_str(rest);
    out
}

/// A `<defs>` element defining the patterns of `HATCHES` numbered `which`.
pub(crate) fn defs(which: impl IntoIterator<Item = usize>) -> String {
    let mut defs = String::new();
    for i in which {
        let h = HATCHES[i];
        let id = format!("lockstep-hatch-{i}");
        // Vertical lines `w` apart, turned 45°: diagonals `step` apart along the vertical, as
        // lines y = x + k drawn every `step` would be.
        let w = h.step / std::f64::consts::SQRT_2;
        let c = h.color.hex();
        let lw = h.width;
        let other = if h.both {
            format!(
                r#"<line x1="0" y1="0" x2="{w:.2}" y2="0" stroke="{c}" stroke-width="{lw}" opacity="0.8"/>"#
            )
        } else {
            String::new()
        };
        defs.push_str(&format!(
            concat!(
                r#"<pattern id="{id}" width="{w:.2}" height="{w:.2}" patternUnits="userSpaceOnUse" "#,
                r#"patternTransform="rotate(45)">"#,
                r#"<line x1="0" y1="0" x2="0" y2="{w:.2}" stroke="{c}" stroke-width="{lw}" opacity="0.8"/>"#,
                "{other}</pattern>"
            ),
            id = id,
            w = w,
            c = c,
            lw = lw,
            other = other
        ));
    }
    format!("<defs>{defs}</defs>")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn font_sizes_are_written_to_a_hundredth() {
        let svg = r#"<text font-size="15.000000000000002">a</text><text font-size="12.5">b</text><text font-size="x">c</text>"#;
        assert_eq!(
            font_sizes(svg.to_string()),
            r#"<text font-size="15">a</text><text font-size="12.5">b</text><text font-size="x">c</text>"#
        );
    }

    #[test]
    fn a_reserved_fill_becomes_a_pattern_defined_once() {
        let svg = format!(
            "<svg width=\"10\">\n<rect fill=\"{0}\"/><rect fill=\"{0}\"/></svg>",
            sentinel(1).hex()
        );
        let out = finish(svg);
        assert_eq!(out.matches("<pattern").count(), 1);
        assert_eq!(out.matches("url(#lockstep-hatch-1)").count(), 2);
        assert!(!out.contains(&sentinel(1).hex()));
        assert!(out.find("<defs>") < out.find("<rect"));
    }

    #[test]
    fn reserved_colours_are_used_by_nothing_else() {
        let taken = [
            style::BACKGROUND,
            style::TEXT,
            style::MUTED,
            style::LIFELINE,
            style::DANGER,
        ];
        for i in 0..HATCHES.len() {
            assert!(!taken.contains(&sentinel(i)));
        }
    }
}
