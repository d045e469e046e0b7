//! One stable sort shared by every element type, so the browser's wasm carries one copy of it.
//!
//! `slice::sort_by` is generic over the element and the comparison: each call site compiles its
//! own copy of the standard library's driftsort, about 4 KB of wasm. With some forty call sites
//! across the core, the renderer and the app, that was 157 KB of the browser module (measured
//! with twiggy). Here only a list of positions is sorted, through one comparison behind a
//! `dyn`; each call site adds the small generic code that gathers the elements back in order.
//! The order is the same as `sort_by`'s: stable, equal elements keep their relative order.

use std::cmp::Ordering;

/// Sorts `items` stably by `compare`, as `<[T]>::sort_by` does.
pub fn sort_by<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    if items.len() < 2 {
        return;
    }
    let order = {
        let items: &[T] = items;
        sorted_positions(items.len(), &mut |a, b| compare(&items[a], &items[b]))
    };
    permute(items, &order);
}

/// Sorts `items` stably by the key `key` gives, as `<[T]>::sort_by_key` does.
pub fn sort_by_key<T, K: Ord>(items: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// The positions `0..len` in the order `compare` puts the elements at them (stable). Not
/// generic: the one place the standard sort is instantiated.
fn sorted_positions(len: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

/// Rearranges `items` so that position `i` holds what was at `order[i]`, in place, by swaps.
fn permute<T>(items: &mut [T], order: &[usize]) {
    // `now_at[k]`: where the element first at k sits now; `first_at[p]`: which element sits at p.
    let mut now_at: Vec<usize> = (0..order.len()).collect();
    let mut first_at = now_at.clone();
    for (i, &wanted) in order.iter().enumerate() {
        let from = now_at[wanted];
        if from != i {
            items.swap(i, from);
            let displaced = first_at[i];
            now_at[displaced] = from;
            first_at[from] = displaced;
        }
        now_at[wanted] = i;
        first_at[i] = wanted;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The same order as the standard library's stable sort, ties included.
        #[test]
        fn agrees_with_std_sort_by(items in proptest::collection::vec((0u8..6, any::<u16>()), 0..200)) {
            let mut ours = items.clone();
            sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
            let mut std = items;
            std.sort_by_key(|p| p.0);
            prop_assert_eq!(ours, std);
        }

        #[test]
        fn agrees_with_std_sort_by_key(items in proptest::collection::vec(any::<(i8, u8)>(), 0..200)) {
            let mut ours = items.clone();
            sort_by_key(&mut ours, |p| p.0);
            let mut std = items;
            std.sort_by_key(|p| p.0);
            prop_assert_eq!(ours, std);
        }
    }

    #[test]
    fn sorts_owned_values_without_losing_any() {
        let mut words: Vec<String> = ["delta", "alpha", "charlie", "bravo", "alpha"]
            .iter()
            .map(|w| w.to_string())
            .collect();
        sort_by(&mut words, |a, b| a.cmp(b));
        assert_eq!(words, ["alpha", "alpha", "bravo", "charlie", "delta"]);
    }
}
