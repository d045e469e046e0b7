//! The smallest change that turns one run of SVG elements into another: a step's changing pieces
//! (lockstep-render's per-step layers, the title block) are mostly the same elements as the step
//! before's, and every element put into the page again costs the browser its style, layout and
//! paint (a lane's footer text, the in-flight arrows' dashes). So a step keeps the elements whose
//! text is unchanged, in order, and puts in only the rest.

/// The top-level elements of a run of SVG markup, in order (whitespace between them dropped).
/// The markup is lockstep-render's: tags, escaped text, no comments or CDATA, so every `<`
/// starts a tag. Markup that does not close its elements yields None.
pub fn elements(markup: &str) -> Option<Vec<&str>> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = None;
    let mut rest = 0;
    while let Some(i) = markup[rest..].find('<').map(|i| rest + i) {
        let end = markup[i..].find('>').map(|j| i + j)?;
        let tag = &markup[i..=end];
        if depth == 0 {
            start = Some(i);
        }
        if tag.starts_with("</") {
            depth = depth.checked_sub(1)?;
        } else if !tag.ends_with("/>") {
            depth += 1;
        }
        if depth == 0 {
            out.push(&markup[start?..=end]);
        }
        rest = end + 1;
    }
    (depth == 0).then_some(out)
}

/// What to do to the page's copy of `old` to make it `new`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Indexes into `old` of the elements to remove.
    pub remove: Vec<usize>,
    /// Runs of `new` to put in: (the index into `old` of the kept element to put them before, or
    /// None for the end; the range of `new`).
    pub insert: Vec<(Option<usize>, std::ops::Range<usize>)>,
}

impl Plan {
    /// Whether the plan changes nothing.
    pub fn is_empty(&self) -> bool {
        self.remove.is_empty() && self.insert.is_empty()
    }
}

/// Above this many cells (old x new elements), [`plan`] gives up and the caller replaces the
/// whole run: the table would cost more than putting the elements in again.
const MAX_CELLS: usize = 1 << 20;

/// The plan that keeps the longest run of elements `old` and `new` share in order (a longest
/// common subsequence); None when they are too many to compare.
pub fn plan(old: &[&str], new: &[&str]) -> Option<Plan> {
    // Equal ends are kept without the table (the usual case: a step changes a few elements).
    let head = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let tail = old[head..]
        .iter()
        .rev()
        .zip(new[head..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (o, n) = (&old[head..old.len() - tail], &new[head..new.len() - tail]);
    if o.len().saturating_mul(n.len()) > MAX_CELLS {
        return None;
    }
    // lcs[i][j]: the longest common subsequence of o[i..] and n[j..].
    let w = n.len() + 1;
    let mut lcs = vec![0u32; (o.len() + 1) * w];
    for i in (0..o.len()).rev() {
        for j in (0..n.len()).rev() {
            lcs[i * w + j] = if o[i] == n[j] {
                lcs[(i + 1) * w + j + 1] + 1
            } else {
                lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
            };
        }
    }
    // Walk the table: each old element is kept or removed, each new one kept or inserted before
    // the next kept old element.
    let mut kept_old = vec![false; o.len()];
    let mut kept_new = vec![false; n.len()];
    let (mut i, mut j) = (0, 0);
    while i < o.len() && j < n.len() {
        if o[i] == n[j] {
            kept_old[i] = true;
            kept_new[j] = true;
            i += 1;
            j += 1;
        } else if lcs[(i + 1) * w + j] >= lcs[i * w + j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    let remove = (0..o.len())
        .filter(|&i| !kept_old[i])
        .map(|i| head + i)
        .collect();
    // The kept old elements in order, to find what each inserted run goes before.
    let anchors: Vec<usize> = (0..o.len()).filter(|&i| kept_old[i]).collect();
    let mut insert = Vec::new();
    let mut next_anchor = 0;
    let mut j = 0;
    while j < n.len() {
        if kept_new[j] {
            next_anchor += 1;
            j += 1;
            continue;
        }
        let from = j;
        while j < n.len() && !kept_new[j] {
            j += 1;
        }
        // Before the next kept element, or the kept tail, or at the end.
        let before = match anchors.get(next_anchor) {
            Some(&a) => Some(head + a),
            None if tail > 0 => Some(old.len() - tail),
            None => None,
        };
        insert.push((before, head + from..head + j));
    }
    Some(Plan { remove, insert })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Applies a plan to a list the way the page applies it to its elements.
    fn apply(old: &[&str], new: &[&str], p: &Plan) -> Vec<String> {
        let mut items: Vec<(Option<usize>, String)> = old
            .iter()
            .enumerate()
            .map(|(i, s)| (Some(i), s.to_string()))
            .collect();
        for (before, range) in &p.insert {
            let at = match before {
                Some(b) => items.iter().position(|(i, _)| *i == Some(*b)).unwrap(),
                None => items.len(),
            };
            for (k, s) in new[range.clone()].iter().enumerate() {
                items.insert(at + k, (None, s.to_string()));
            }
        }
        items.retain(|(i, _)| i.is_none_or(|i| !p.remove.contains(&i)));
        items.into_iter().map(|(_, s)| s).collect()
    }

    #[test]
    fn splits_top_level_elements_of_plotters_markup() {
        let svg = "<rect x=\"1\"/>\n<text x=\"2\">\nA &lt; B\n</text>\n<g><line/><g/></g>\n";
        assert_eq!(
            elements(svg).unwrap(),
            [
                "<rect x=\"1\"/>",
                "<text x=\"2\">\nA &lt; B\n</text>",
                "<g><line/><g/></g>"
            ]
        );
        assert_eq!(elements("").unwrap(), Vec::<&str>::new());
        assert_eq!(elements("<g><rect/>"), None);
        assert_eq!(elements("</g>"), None);
        assert_eq!(elements("<g"), None);
    }

    #[test]
    fn a_plan_turns_old_into_new_keeping_what_is_shared() {
        let cases: &[(&[&str], &[&str])] = &[
            (&["a", "b", "c"], &["a", "b", "c"]),
            (&["a", "b", "c"], &["a", "x", "c"]),
            (&["a", "b", "c"], &["x", "a", "b", "c", "y"]),
            (&[], &["a", "b"]),
            (&["a", "b"], &[]),
            (&["a", "b", "c", "d"], &["b", "d", "e"]),
            (&["a", "a", "b"], &["b", "a", "a"]),
            (&["x", "a", "y"], &["a", "z"]),
        ];
        for (old, new) in cases {
            let p = plan(old, new).unwrap();
            assert_eq!(apply(old, new, &p), *new, "{old:?} -> {new:?}: {p:?}");
        }
        // Nothing changes: nothing is done. One element changes: only it is replaced.
        assert!(plan(&["a", "b"], &["a", "b"]).unwrap().is_empty());
        let p = plan(&["a", "b", "c"], &["a", "x", "c"]).unwrap();
        assert_eq!(p.remove, [1]);
        assert_eq!(p.insert, [(Some(2), 1..2)]);
    }

    proptest::proptest! {
        /// A plan always produces `new`, and keeps as many elements as the longest common
        /// subsequence (counted by brute force on small lists).
        #[test]
        fn the_longest_shared_run_is_kept(
            old in proptest::collection::vec(0..4usize, 0..8),
            new in proptest::collection::vec(0..4usize, 0..8),
        ) {
            let words = ["a", "b", "c", "d"];
            let old: Vec<&str> = old.iter().map(|&i| words[i]).collect();
            let new: Vec<&str> = new.iter().map(|&i| words[i]).collect();
            let p = plan(&old, &new).unwrap();
            proptest::prop_assert_eq!(apply(&old, &new, &p), new.clone());
            proptest::prop_assert_eq!(old.len() - p.remove.len(), lcs_len(&old, &new));
        }
    }

    fn lcs_len(a: &[&str], b: &[&str]) -> usize {
        match (a.split_first(), b.split_first()) {
            (Some((x, ra)), Some((y, rb))) if x == y => 1 + lcs_len(ra, rb),
            (Some((_, ra)), Some((_, rb))) => lcs_len(ra, b).max(lcs_len(a, rb)),
            _ => 0,
        }
    }
}
