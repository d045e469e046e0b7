//! `lockstep render ID|FILE -o out.svg`: draw a run as an SVG file (or on stdout with `-o -`):
//! the sequence timeline, or the lease chart.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::ValueEnum;
use lockstep_core::run as simulate;
use lockstep_render::{Options, TimeMode, run_lease_svg, run_svg};

use super::Ctx;
use crate::error::CliError;
use crate::load::load_with_text;

/// Draw a scenario's run as an SVG file: the sequence timeline, or a chart.
///
/// Exit status 2 for invalid input, a step past the end, or a file that cannot be written.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A built-in scenario id (see `lockstep list`), the path of a scenario file, or - for stdin.
    pub scenario: String,
    /// The SVG file to write; `-` writes to stdout.
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Place rows at their simulated time, so durations compare by length (timeline only).
    #[arg(long)]
    pub to_scale: bool,
    /// Draw the run up to step N (numbered as `lockstep run` prints them) and highlight it.
    #[arg(long, value_name = "N")]
    pub step: Option<usize>,
    /// Draw this chart instead of the timeline.
    #[arg(long, value_enum)]
    pub chart: Option<Chart>,
}

/// A chart to draw instead of the sequence timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Chart {
    /// Time across; who the service says holds the lock, who believes it does, who is paused.
    Lease,
}

pub fn exec(args: Args, ctx: &mut Ctx) -> Result<ExitCode, CliError> {
    if args.to_scale && args.chart == Some(Chart::Lease) {
        ctx.warn(&"--to-scale changes nothing with --chart lease: the lease chart's time axis is always to scale");
    }
    let (scenario, source) = load_with_text(&args.scenario)?;
    let run = simulate(&scenario);
    super::warn_unapplied(ctx, &args.scenario, (&scenario, &source), &run);
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
    }?;
    if args.output.as_os_str() == "-" {
        ctx.out.write_all(svg.as_bytes())?;
        return Ok(ExitCode::SUCCESS);
    }
    if args
        .output
        .extension()
        .is_none_or(|e| !e.eq_ignore_ascii_case("svg"))
    {
        ctx.warn(&format_args!(
            "{} will hold SVG whatever its name says: render draws SVG only (name it .svg, or \
             convert it with a tool such as resvg or rsvg-convert)",
            args.output.display()
        ));
    }
    std::fs::write(&args.output, &svg)
        .map_err(|source| super::write_failed(&args.output, source))?;
    writeln!(
        ctx.out,
        "wrote {} ({} bytes)",
        args.output.display(),
        svg.len()
    )?;
    Ok(ExitCode::SUCCESS)
}
