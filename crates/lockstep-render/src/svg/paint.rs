//! Drawing primitives on plotters' SVG backend: shapes at layout coordinates (f64, offset by the
//! page), text that plotters never measures, hatching, and the mark symbols.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::error::RenderError;
use crate::geom::{Point, Rect};
use crate::layout::MarkKind;
use crate::style::{self, Rgb};
use crate::text::{Align, MONO, TextBox};

/// Plotters writes `font-size` as the requested size divided by this.
const PLOTTERS_FONT_SCALE: f64 = 1.24;

fn color(c: Rgb) -> RGBColor {
    RGBColor(c.0, c.1, c.2)
}

fn px(v: f64) -> i32 {
    v.round() as i32
}

fn draw_err<E: std::error::Error + Send + Sync>(e: DrawingAreaErrorKind<E>) -> RenderError {
    RenderError::Draw(e.to_string())
}

/// Draws on an SVG drawing area with every y shifted by `dy`.
pub(crate) struct Painter<'a, 'b> {
    pub area: &'a DrawingArea<SVGBackend<'b>, Shift>,
    pub dy: f64,
}

impl Painter<'_, '_> {
    fn p(&self, p: Point) -> (i32, i32) {
        (px(p.x), px(p.y + self.dy))
    }

    pub fn fill_rect(&self, r: Rect, c: Rgb, alpha: f64) -> Result<(), RenderError> {
        let style = color(c).mix(alpha).filled();
        self.area
            .draw(&Rectangle::new(
                [
                    self.p(Point::new(r.x0, r.y0)),
                    self.p(Point::new(r.x1, r.y1)),
                ],
                style,
            ))
            .map_err(draw_err)
    }

    /// A rectangle's outline, as one closed polyline of the given width.
    /// A rectangle's outline, as an SVG `<rect fill="none">`: a closed `<polyline>` would do in a
    /// browser, but ImageMagick fills closed polylines black.
    pub fn stroke_rect(&self, r: Rect, c: Rgb, width: u32) -> Result<(), RenderError> {
        self.area
            .draw(&Rectangle::new(
                [
                    self.p(Point::new(r.x0, r.y0)),
                    self.p(Point::new(r.x1, r.y1)),
                ],
                color(c).stroke_width(width),
            ))
            .map_err(draw_err)
    }

    /// A rectangle's outline `width` px thick, as four filled bars inside `r`: plotters writes a
    /// stroked `<rect>` without its width, so [`Painter::stroke_rect`] is always 1 px.
    pub fn frame_rect(&self, r: Rect, c: Rgb, width: f64) -> Result<(), RenderError> {
        let w = width.min(r.width() / 2.0).min(r.height() / 2.0);
        for edge in [
            Rect::new(r.x0, r.y0, r.x1, r.y0 + w),
            Rect::new(r.x0, r.y1 - w, r.x1, r.y1),
            Rect::new(r.x0, r.y0 + w, r.x0 + w, r.y1 - w),
            Rect::new(r.x1 - w, r.y0 + w, r.x1, r.y1 - w),
        ] {
            self.fill_rect(edge, c, 1.0)?;
        }
        Ok(())
    }

    pub fn line(&self, pts: &[Point], c: Rgb, width: u32, alpha: f64) -> Result<(), RenderError> {
        let pts: Vec<(i32, i32)> = pts.iter().map(|&p| self.p(p)).collect();
        self.area
            .draw(&PathElement::new(
                pts,
                color(c).mix(alpha).stroke_width(width),
            ))
            .map_err(draw_err)
    }

    /// A 2 px line from `a` to `b` in dashes and gaps `dash` long (5 or 8): one element with a
    /// reserved width that [`super::patterns`] turns into a `stroke-dasharray` (plotters cannot
    /// write one; a `<polyline>` per dash made a Redlock picture twice its size).
    pub fn dashed(&self, a: Point, b: Point, c: Rgb, dash: f64) -> Result<(), RenderError> {
        self.line(&[a, b], c, super::patterns::dash_width(dash), 1.0)
    }

    pub fn polygon(&self, pts: &[Point], c: Rgb, alpha: f64) -> Result<(), RenderError> {
        let pts: Vec<(i32, i32)> = pts.iter().map(|&p| self.p(p)).collect();
        self.area
            .draw(&Polygon::new(pts, color(c).mix(alpha).filled()))
            .map_err(draw_err)
    }

    pub fn circle(
        &self,
        at: Point,
        r: f64,
        c: Rgb,
        fill: bool,
        width: u32,
    ) -> Result<(), RenderError> {
        let style = if fill {
            color(c).filled()
        } else {
            color(c).stroke_width(width)
        };
        self.area
            .draw(&Circle::new(self.p(at), r.round().max(1.0) as u32, style))
            .map_err(draw_err)
    }

    /// A label, vertically centred on its anchor. Plotters' SVG backend writes each line as a
    /// `<text>` element without measuring it.
    pub fn text(&self, t: &TextBox, c: Rgb) -> Result<(), RenderError> {
        if t.text.is_empty() {
            return Ok(());
        }
        let weight = if t.bold {
            FontStyle::Bold
        } else {
            FontStyle::Normal
        };
        let h = match t.align {
            Align::Left => HPos::Left,
            Align::Center => HPos::Center,
            Align::Right => HPos::Right,
        };
        let font = FontDesc::new(FontFamily::Name(MONO), t.size * PLOTTERS_FONT_SCALE, weight);
        let rgb = color(c);
        let style = TextStyle::from(font)
            .color(&rgb)
            .pos(Pos::new(h, VPos::Center));
        for (line, y) in t.lines() {
            self.area
                .draw(&Text::new(
                    line,
                    self.p(Point::new(t.anchor.x, y)),
                    style.clone(),
                ))
                .map_err(draw_err)?;
        }
        Ok(())
    }

    /// A label on a white box (so lines under it do not hurt reading).
    pub fn boxed_text(&self, t: &TextBox, c: Rgb) -> Result<(), RenderError> {
        self.fill_rect(
            t.rect,
            style::LABEL_BACKGROUND,
            style::LABEL_BACKGROUND_ALPHA,
        )?;
        self.text(t, c)
    }

    /// Diagonal hatching inside `r`, every `step` px; `both` adds the other diagonal.
    /// The hatchings of [`super::patterns::HATCHES`] are one rectangle filled with a pattern.
    pub fn hatch(&self, r: Rect, c: Rgb, step: f64, both: bool) -> Result<(), RenderError> {
        if let Some(i) = super::patterns::index_of(c, step, both) {
            return self.fill_rect(r, super::patterns::sentinel(i), 1.0);
        }
        // Lines y = x + k (down-right), clipped to the rectangle.
        let mut k = r.y0 - r.x1 + step;
        while k < r.y1 - r.x0 {
            let xa = r.x0.max(r.y0 - k);
            let xb = r.x1.min(r.y1 - k);
            if xb > xa {
                self.line(&[Point::new(xa, xa + k), Point::new(xb, xb + k)], c, 1, 0.8)?;
            }
            k += step;
        }
        if both {
            // Lines y = -x + k (down-left).
            let mut k = r.y0 + r.x0 + step;
            while k < r.y1 + r.x1 {
                let xa = r.x0.max(k - r.y1);
                let xb = r.x1.min(k - r.y0);
                if xb > xa {
                    self.line(&[Point::new(xa, k - xa), Point::new(xb, k - xb)], c, 1, 0.8)?;
                }
                k += step;
            }
        }
        Ok(())
    }

    /// A mark's symbol centred at `at`: each kind has its own shape, not only its own colour.
    /// An etcd session's keepalive: a hollow slate diamond, unlike a lock renewal's solid teal
    /// one, since the session lease is not the lock.
    pub fn session_renewal(&self, at: Point) -> Result<(), RenderError> {
        let corners = [
            Point::new(at.x, at.y - 9.0),
            Point::new(at.x + 9.0, at.y),
            Point::new(at.x, at.y + 9.0),
            Point::new(at.x - 9.0, at.y),
        ];
        self.polygon(&corners, style::BACKGROUND, 1.0)?;
        // Two open halves: ImageMagick fills a closed polyline black.
        self.line(&corners[..3], style::MUTED, 2, 1.0)?;
        self.line(&[corners[2], corners[3], corners[0]], style::MUTED, 2, 1.0)
    }

    pub fn mark(&self, kind: MarkKind, at: Point, tint: Rgb) -> Result<(), RenderError> {
        let o = |dx: f64, dy: f64| at.shifted(dx, dy);
        match kind {
            MarkKind::WriteAccepted => {
                self.circle(at, 10.0, style::BACKGROUND, true, 1)?;
                self.circle(at, 10.0, style::OK, false, 2)?;
                self.line(
                    &[o(-5.0, 0.0), o(-1.5, 4.5), o(5.5, -4.5)],
                    style::OK,
                    2,
                    1.0,
                )
            }
            MarkKind::AccessRejected => {
                self.circle(at, 11.0, style::DANGER, true, 1)?;
                self.fill_rect(
                    Rect::new(at.x - 7.0, at.y - 2.0, at.x + 7.0, at.y + 2.0),
                    style::BACKGROUND,
                    1.0,
                )
            }
            MarkKind::Duplicate => {
                self.polygon(
                    &[o(0.0, -11.0), o(11.0, 9.0), o(-11.0, 9.0)],
                    style::DANGER,
                    1.0,
                )?;
                self.fill_rect(
                    Rect::new(at.x - 1.5, at.y - 5.0, at.x + 1.5, at.y + 2.0),
                    style::BACKGROUND,
                    1.0,
                )?;
                self.fill_rect(
                    Rect::new(at.x - 1.5, at.y + 4.0, at.x + 1.5, at.y + 7.0),
                    style::BACKGROUND,
                    1.0,
                )
            }
            MarkKind::Expired => {
                self.polygon(
                    &[o(-7.0, -10.0), o(7.0, -10.0), o(0.0, 0.0)],
                    style::TIMER,
                    1.0,
                )?;
                self.polygon(
                    &[o(-7.0, 10.0), o(7.0, 10.0), o(0.0, 0.0)],
                    style::TIMER,
                    1.0,
                )?;
                self.line(&[o(-8.0, -10.0), o(8.0, -10.0)], style::TIMER, 2, 1.0)?;
                self.line(&[o(-8.0, 10.0), o(8.0, 10.0)], style::TIMER, 2, 1.0)
            }
            MarkKind::Renewed => {
                self.polygon(
                    &[o(0.0, -10.0), o(10.0, 0.0), o(0.0, 10.0), o(-10.0, 0.0)],
                    style::RENEW,
                    1.0,
                )?;
                self.polygon(
                    &[o(0.0, -4.0), o(4.0, 0.0), o(0.0, 4.0), o(-4.0, 0.0)],
                    style::BACKGROUND,
                    1.0,
                )
            }
            MarkKind::Lost => {
                self.line(&[o(-8.0, -8.0), o(8.0, 8.0)], style::DANGER, 4, 1.0)?;
                self.line(&[o(-8.0, 8.0), o(8.0, -8.0)], style::DANGER, 4, 1.0)
            }
            MarkKind::Delayed => {
                self.circle(at, 10.0, style::BACKGROUND, true, 1)?;
                self.circle(at, 10.0, style::TIMER, false, 2)?;
                self.line(
                    &[o(0.0, -6.0), o(0.0, 0.0), o(5.0, 0.0)],
                    style::TIMER,
                    2,
                    1.0,
                )
            }
            MarkKind::Paused => {
                let c = style::FROZEN_HATCH;
                self.fill_rect(
                    Rect::new(at.x - 7.0, at.y - 8.0, at.x - 2.0, at.y + 8.0),
                    c,
                    1.0,
                )?;
                self.fill_rect(
                    Rect::new(at.x + 2.0, at.y - 8.0, at.x + 7.0, at.y + 8.0),
                    c,
                    1.0,
                )
            }
            MarkKind::InFlight => {
                self.circle(at, 7.0, tint, true, 1)?;
                self.circle(at, 3.0, style::BACKGROUND, true, 1)
            }
            MarkKind::Sender => {
                // Solid and dark whatever the sender's colour, ringed in white so it stands out
                // on a bar or a shaft.
                self.circle(at, 7.0, style::BACKGROUND, true, 1)?;
                self.circle(at, 5.0, style::TEXT, true, 1)
            }
        }
    }
}
