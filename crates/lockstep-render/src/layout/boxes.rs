//! The boxes a layout's words take (labels, notes, headers, ticks), and any two that overlap:
//! what tests and the front ends check a layout against.

use super::Layout;
use crate::geom::Rect;
use lockstep_core::sort;

impl Layout {
    /// The box each label occupies, including note and header boxes (which hold their text).
    pub fn label_boxes(&self) -> Vec<Rect> {
        let mut out: Vec<Rect> = Vec::new();
        for l in &self.lanes {
            out.push(l.header_box);
            out.push(l.footer_box);
        }
        out.extend(self.rows.iter().map(|r| r.gutter.rect));
        out.extend(self.arrows.iter().map(|a| a.label.rect));
        out.extend(self.flights.iter().map(|f| f.label.rect));
        out.extend(self.notes.iter().map(|n| n.rect));
        out.extend(self.legend.iter().map(|e| e.text.rect.union(&e.swatch)));
        out.extend(
            self.ticks
                .iter()
                .filter_map(|t| t.label.as_ref().map(|l| l.rect)),
        );
        out.extend(
            self.stretches
                .iter()
                .filter_map(|s| s.label.as_ref().map(|l| l.rect)),
        );
        out.extend(
            self.jumps
                .iter()
                .filter_map(|j| j.label.as_ref().map(|l| l.rect)),
        );
        out.extend(self.overlap_labels.iter().map(|b| b.rect));
        out.push(self.gutter_title.rect);
        // Empty labels (rows sharing a line, arrows sharing a group's label) take no room.
        out.retain(|r| r.width() > 0.0 && r.height() > 0.0);
        out
    }

    /// The pairs of label boxes that overlap (empty for every layout this crate makes).
    pub fn overlapping_labels(&self) -> Vec<(Rect, Rect)> {
        let mut boxes = self.label_boxes();
        sort::sort_by(&mut boxes, |a, b| a.y0.total_cmp(&b.y0));
        let mut out = Vec::new();
        for (i, a) in boxes.iter().enumerate() {
            for b in &boxes[i + 1..] {
                if b.y0 >= a.y1 {
                    break;
                }
                if a.overlaps(b) {
                    out.push((*a, *b));
                }
            }
        }
        out
    }
}
