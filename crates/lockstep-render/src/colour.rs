//! Colour arithmetic for checking the palette in style.rs: compositing as a browser does, WCAG 2
//! contrast, and CIE76 distance, used by style's own tests and tests/colours.rs.

use crate::style::Rgb;

/// An sRGB colour (0..1 per channel), or a linear one where a function says so.
pub type Mixed = [f64; 3];

pub fn solid(c: Rgb) -> Mixed {
    [c.0, c.1, c.2].map(|v| f64::from(v) / 255.0)
}

/// `c` at `alpha` over `under` (sRGB values, as a browser composites).
pub fn over(c: Rgb, alpha: f64, under: Mixed) -> Mixed {
    let c = solid(c);
    [0, 1, 2].map(|i| alpha * c[i] + (1.0 - alpha) * under[i])
}

/// One sRGB channel, linearised.
pub fn linear(c: f64) -> f64 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

pub fn to_linear(c: Mixed) -> Mixed {
    c.map(linear)
}

/// WCAG 2 relative luminance.
pub fn luminance(c: Mixed) -> f64 {
    let [r, g, b] = to_linear(c);
    0.2126 * r + 0.7152 * g + 0.0722 * b
}

/// WCAG 2 contrast ratio.
pub fn contrast(a: Mixed, b: Mixed) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// CIE L*a*b* (D65) of linear RGB.
pub fn lab(linear_rgb: Mixed) -> Mixed {
    let [r, g, b] = linear_rgb;
    let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
    let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
    let f = |t: f64| {
        if t > 0.008856 {
            t.cbrt()
        } else {
            7.787 * t + 16.0 / 116.0
        }
    };
    [
        116.0 * f(y) - 16.0,
        500.0 * (f(x) - f(y)),
        200.0 * (f(y) - f(z)),
    ]
}

/// CIE76 colour difference between two linear RGB colours.
pub fn delta_e(a: Mixed, b: Mixed) -> f64 {
    let (p, q) = (lab(a), lab(b));
    (0..3).map(|i| (p[i] - q[i]).powi(2)).sum::<f64>().sqrt()
}

/// CIE76 distance between two palette colours.
pub fn distance(a: Rgb, b: Rgb) -> f64 {
    delta_e(to_linear(solid(a)), to_linear(solid(b)))
}
