//! The `lockstep` command: argument parsing and dispatch to the CLI commands.

mod cli;
mod explore_cmd;
mod export;
mod text;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

/// See why distributed locks fail: simulate lock services, workers and a fencing-aware database.
#[derive(Debug, Parser)]
#[command(name = "lockstep", version, about, long_about = None)]
struct Args {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the built-in scenarios: id, title and expected outcome.
    List,
    /// Run a scenario (a built-in id or a TOML file) and print its timeline and verdict.
    Run {
        /// A built-in scenario id (see `lockstep list`) or the path of a scenario file.
        scenario: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Text format: leave out the explanations.
        #[arg(long)]
        brief: bool,
    },
    /// Run scenarios and compare each outcome with its `expect` (all built-ins if none given).
    /// Exit status: 0 all match, 1 a mismatch, 2 invalid input.
    Check {
        /// Built-in ids or scenario files.
        scenarios: Vec<String>,
    },
    /// Draw a scenario's run as an SVG file: the sequence timeline, or a chart.
    /// Exit status: 2 for invalid input, a step past the end, or a file that cannot be written.
    Render {
        /// A built-in scenario id (see `lockstep list`) or the path of a scenario file.
        scenario: String,
        /// The SVG file to write.
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
        /// Place rows at their simulated time, so durations compare by length.
        #[arg(long)]
        to_scale: bool,
        /// Draw the run up to step N (numbered as `lockstep run` prints them) and highlight it.
        #[arg(long, value_name = "N")]
        step: Option<usize>,
        /// Draw this chart instead of the timeline.
        #[arg(long, value_enum)]
        chart: Option<export::Chart>,
    },
    /// Find double writes: sweep parameter ranges (--vary), or search fault schedules.
    /// Exit status: 0 none found, 1 a double write found, 2 invalid input.
    Explore(explore_cmd::ExploreArgs),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// A readable timeline, one line per event, then the verdict.
    Text,
    /// The lockstep-trace/1 JSON document (docs/trace-format.md).
    Json,
    /// The sequence timeline as an SVG document.
    Svg,
    /// A Mermaid `sequenceDiagram`.
    Mermaid,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let mut stdout = std::io::stdout().lock();
    let result = match args.command {
        None => {
            use clap::CommandFactory;
            let mut cmd = Args::command();
            let _ = cmd.print_help();
            println!();
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::List) => cli::list(&mut stdout),
        Some(Command::Run {
            scenario,
            format,
            brief,
        }) => match format {
            Format::Text | Format::Json => {
                cli::run(&mut stdout, &scenario, format == Format::Json, brief)
            }
            Format::Svg | Format::Mermaid => {
                export::run(&mut stdout, &scenario, format == Format::Svg)
            }
        },
        Some(Command::Check { scenarios }) => cli::check(&mut stdout, &scenarios),
        Some(Command::Render {
            scenario,
            output,
            to_scale,
            step,
            chart,
        }) => export::render(
            &mut stdout,
            &scenario,
            &output,
            export::RenderArgs {
                to_scale,
                step,
                chart,
            },
        ),
        Some(Command::Explore(args)) => explore_cmd::explore(&mut stdout, args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("lockstep: {e}");
            ExitCode::from(2)
        }
    }
}
