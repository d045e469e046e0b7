//! The drawing exports: `lockstep render` (an SVG file: the timeline or the lease chart) and
//! `lockstep run --format svg|mermaid` (to stdout).

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use clap::ValueEnum;
use lockstep_core::run as simulate;
use lockstep_render::{Caption, Options, TimeMode, mermaid, run_lease_svg, run_svg};

use crate::cli::{CliError, load};

/// A chart to draw instead of the sequence timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Chart {
    /// Time across; who the service says holds the lock, who believes it does, who is paused.
    Lease,
}

/// What `lockstep render` draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RenderArgs {
    pub to_scale: bool,
    pub step: Option<usize>,
    pub chart: Option<Chart>,
}

/// `lockstep render ID|FILE -o out.svg`: draws the run and writes the SVG file.
pub fn render(
    out: &mut impl Write,
    arg: &str,
    output: &Path,
    args: RenderArgs,
) -> Result<ExitCode, CliError> {
    let scenario = load(arg)?;
    let run = simulate(&scenario);
    let options = Options {
        time_mode: if args.to_scale {
            TimeMode::ToScale
        } else {
            TimeMode::Logical
        },
        upto_step: args.step,
        ..Options::default()
    };
    let svg = match args.chart {
        None => run_svg(&scenario, &run, &options),
        Some(Chart::Lease) => run_lease_svg(&scenario, &run, &options),
    }
    .map_err(CliError::Render)?;
    std::fs::write(output, &svg).map_err(|source| CliError::WriteFile {
        path: output.display().to_string(),
        source,
    })?;
    writeln!(out, "wrote {} ({} bytes)", output.display(), svg.len())?;
    Ok(ExitCode::SUCCESS)
}

/// `lockstep run ID|FILE --format svg|mermaid`: the timeline as SVG or as Mermaid text on stdout.
pub fn run(out: &mut impl Write, arg: &str, svg: bool) -> Result<ExitCode, CliError> {
    let scenario = load(arg)?;
    let run = simulate(&scenario);
    if svg {
        let text = run_svg(&scenario, &run, &Options::default()).map_err(CliError::Render)?;
        out.write_all(text.as_bytes())?;
    } else {
        let caption = Caption::for_run(&scenario, &run);
        out.write_all(mermaid(&run.trace, Some(&caption.title)).as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}
