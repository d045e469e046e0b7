//! Colours, sizes and stroke widths shared by every drawing of a layout. Colours are plain RGB so
//! front ends that do not use plotters (the terminal UI) can map them too.

use crate::layout::Tone;

/// An sRGB colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `#rrggbb`, as it appears in the SVG.
    pub fn hex(self) -> String {
        format!("#{:02X}{:02X}{:02X}", self.0, self.1, self.2)
    }
}

/// One colour per worker, in the order workers appear in the trace (blue, orange, purple, teal...).
pub const WORKERS: [Rgb; 6] = [
    Rgb(0x15, 0x65, 0xC0),
    Rgb(0xE6, 0x51, 0x00),
    Rgb(0x6A, 0x1B, 0x9A),
    Rgb(0x00, 0x79, 0x6B),
    Rgb(0xAD, 0x14, 0x57),
    Rgb(0x4E, 0x34, 0x2E),
];
/// Messages between lock-service nodes, and other traffic no worker takes part in.
pub const INFRA: Rgb = Rgb(0x54, 0x6E, 0x7A);
/// Danger: rejected accesses, payouts paid twice, overlapping beliefs, lost messages.
pub const DANGER: Rgb = Rgb(0xC6, 0x28, 0x28);
/// Accepted writes.
pub const OK: Rgb = Rgb(0x2E, 0x7D, 0x32);
/// Expiry and delay marks.
pub const TIMER: Rgb = Rgb(0x37, 0x47, 0x4F);
/// Lease renewals.
pub const RENEW: Rgb = Rgb(0x00, 0x83, 0x8F);
/// Body text.
pub const TEXT: Rgb = Rgb(0x1B, 0x1F, 0x24);
/// Secondary text (gutter, roles).
pub const MUTED: Rgb = Rgb(0x4A, 0x55, 0x60);
/// Lifelines. No other element uses this colour, so lifelines can be counted in the SVG.
pub const LIFELINE: Rgb = Rgb(0x8F, 0x9B, 0xA7);
/// Page background.
pub const BACKGROUND: Rgb = Rgb(0xFF, 0xFF, 0xFF);
/// Behind labels, so lines crossing them do not hurt reading.
pub const LABEL_BACKGROUND: Rgb = Rgb(0xFF, 0xFF, 0xFF);
/// Paused ("frozen") spans: fill and hatching.
pub const FROZEN_FILL: Rgb = Rgb(0xD6, 0xEE, 0xFA);
pub const FROZEN_HATCH: Rgb = Rgb(0x4F, 0xA3, 0xD1);
/// Crashed ("down") spans: fill and hatching.
pub const DOWN_FILL: Rgb = Rgb(0xE4, 0xE4, 0xE4);
pub const DOWN_HATCH: Rgb = Rgb(0x75, 0x75, 0x75);
/// The band behind the current step.
pub const CURRENT: Rgb = Rgb(0xFF, 0xCA, 0x28);
pub const CURRENT_POINTER: Rgb = Rgb(0xE0, 0x9A, 0x00);
/// Note boxes.
pub const NOTE_FILL: Rgb = Rgb(0xF3, 0xF5, 0xF7);
pub const NOTE_BORDER: Rgb = Rgb(0x90, 0xA0, 0xAE);
pub const FAULT_FILL: Rgb = Rgb(0xFF, 0xF4, 0xE0);
pub const FAULT_BORDER: Rgb = Rgb(0x8D, 0x6E, 0x63);
pub const GLOBAL_FILL: Rgb = Rgb(0xE8, 0xEA, 0xF6);
pub const GLOBAL_BORDER: Rgb = Rgb(0x39, 0x49, 0xAB);
pub const DANGER_FILL: Rgb = Rgb(0xFF, 0xEB, 0xEE);
/// The danger band (two workers believe they hold the lock): a tint strong enough for a
/// washed-out projector, with a solid bar at its left edge.
pub const DANGER_BAND_ALPHA: f64 = 0.26;
/// The tint behind a row where the database refused an access or paid twice: its own hue, so it
/// never reads as the danger band.
pub const REFUSED_ROW: Rgb = Rgb(0x7E, 0x57, 0xC2);
pub const REFUSED_ROW_ALPHA: f64 = 0.30;
/// Partition walls between lanes.
pub const PARTITION: Rgb = Rgb(0x39, 0x49, 0xAB);
pub const HEADER_FILL: Rgb = Rgb(0xEC, 0xEF, 0xF1);

/// Stroke width of message arrows. Only arrow shafts use it, so arrows can be counted in the SVG.
pub const ARROW_STROKE: u32 = 3;
/// Stroke width of lifelines.
pub const LIFELINE_STROKE: u32 = 2;

/// Font sizes, in px.
pub const LABEL_SIZE: f64 = 16.0;
pub const NOTE_SIZE: f64 = 15.0;
pub const GUTTER_SIZE: f64 = 14.0;
pub const HEADER_SIZE: f64 = 19.0;
pub const ROLE_SIZE: f64 = 14.0;
pub const LEGEND_SIZE: f64 = 15.0;
pub const TITLE_SIZE: f64 = 28.0;
pub const SUBTITLE_SIZE: f64 = 16.0;
pub const BODY_SIZE: f64 = 17.0;
pub const VERDICT_SIZE: f64 = 22.0;

/// The colour of a tone.
pub fn tone(t: Tone) -> Rgb {
    match t {
        Tone::Worker(i) => WORKERS[i % WORKERS.len()],
        Tone::Infra => INFRA,
        Tone::Danger => DANGER,
        Tone::Ok => OK,
        Tone::Timer => TIMER,
        Tone::Renew => RENEW,
    }
}
