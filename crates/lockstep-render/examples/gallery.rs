//! Renders every built-in scenario (logical, to scale, lease chart) to SVG and PNG for looking at:
//! `cargo run -p lockstep-render --example gallery -- OUT_DIR [ID...]`. PNGs taller than 1800 px
//! are also cut into parts (`ID-logical-1.png`, ...) so each fits a screen.

use lockstep_render::{Options, TimeMode, run_lease_svg, run_svg};
use resvg::{tiny_skia, usvg};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = std::path::PathBuf::from(args.first().map_or("/tmp/gallery", String::as_str));
    std::fs::create_dir_all(&out)?;
    let ids: Vec<String> = if args.len() > 1 {
        args[1..].to_vec()
    } else {
        lockstep_core::catalogue::ids().map(String::from).collect()
    };
    let mut opt = usvg::Options::default();
    opt.fontdb_mut().load_system_fonts();
    for id in &ids {
        let scenario = lockstep_core::catalogue::load(id).ok_or("unknown id")??;
        let run = lockstep_core::run(&scenario);
        for (mode, name) in [
            (TimeMode::Logical, "logical"),
            (TimeMode::ToScale, "scale"),
            (TimeMode::Logical, "lease"),
        ] {
            let options = Options {
                time_mode: mode,
                ..Options::default()
            };
            let svg = if name == "lease" {
                run_lease_svg(&scenario, &run, &options)?
            } else {
                run_svg(&scenario, &run, &options)?
            };
            std::fs::write(out.join(format!("{id}-{name}.svg")), &svg)?;
            let tree = usvg::Tree::from_str(&svg, &opt)?;
            let size = tree.size().to_int_size();
            let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("size")?;
            resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
            pixmap.save_png(out.join(format!("{id}-{name}.png")))?;
            let part_h = 1800;
            if size.height() > part_h {
                let parts = size.height().div_ceil(part_h);
                for k in 0..parts {
                    let h = part_h.min(size.height() - k * part_h);
                    let mut part = tiny_skia::Pixmap::new(size.width(), h).ok_or("size")?;
                    resvg::render(
                        &tree,
                        tiny_skia::Transform::from_translate(0.0, -((k * part_h) as f32)),
                        &mut part.as_mut(),
                    );
                    part.save_png(out.join(format!("{id}-{name}-{}.png", k + 1)))?;
                }
            }
            println!(
                "{id} {name}: {}x{} px, {} bytes",
                size.width(),
                size.height(),
                svg.len()
            );
        }
    }
    Ok(())
}
