//! `lockstep run ID|FILE`: simulate a scenario and print its timeline and verdict (text), the
//! trace document (JSON), or a picture (SVG, Mermaid).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::ValueEnum;
use lockstep_core::document::TraceDocument;
use lockstep_core::run as simulate;
use lockstep_render::{Options, run_mermaid, run_svg};

use super::Ctx;
use crate::error::CliError;
use crate::load::load_with_text;
use crate::text::{TextOptions, timeline};

/// Run a scenario (a built-in id or a TOML file) and print its timeline and verdict.
///
/// Exit status 0, or 2 for invalid input (the message names the file, line, column and field).
/// A fault or explanation that never applied gets a warning on stderr, after the timeline.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A built-in scenario id (see `lockstep list`), the path of a scenario file, or - for stdin.
    pub scenario: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Leave out the explanations (text format only).
    #[arg(long)]
    pub brief: bool,
    /// Print every event, without folding repeated rounds (retries) into one line (text only).
    #[arg(long)]
    pub no_fold: bool,
    /// Write the output to this file instead of stdout (`-` is stdout).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// A readable timeline, one line per event, then the verdict.
    Text,
    /// The lockstep-trace/1 JSON document (docs/trace-format.md).
    Json,
    /// The sequence timeline as an SVG document.
    Svg,
    /// A Mermaid `sequenceDiagram`, with the verdict as its last note.
    Mermaid,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Svg => "svg",
            Format::Mermaid => "mermaid",
        }
    }
}

pub fn exec(args: Args, ctx: &mut Ctx) -> Result<ExitCode, CliError> {
    if args.format != Format::Text {
        let text_only = [("--brief", args.brief), ("--no-fold", args.no_fold)];
        if let Some((flag, _)) = text_only.iter().find(|(_, set)| *set) {
            let why = match args.format {
                Format::Json => "the JSON document always holds every event and its explanation",
                _ => "pictures show labels only, never the explanations, and never fold",
            };
            return Err(CliError::Usage(format!(
                "{flag} only shapes the text timeline (--format text), and this is --format {}: \
                 {why}; leave out {flag}",
                args.format.name()
            )));
        }
    }
    let to_file = args.output.as_ref().is_some_and(|o| o.as_os_str() != "-");
    let (scenario, source) = load_with_text(&args.scenario)?;
    let run = simulate(&scenario);
    let text = match args.format {
        Format::Text => timeline(
            &scenario,
            &run,
            &TextOptions {
                width: if to_file {
                    // Not a terminal: 80 columns, or COLUMNS, as for a pipe.
                    crate::term::choose_width(std::env::var("COLUMNS").ok().as_deref(), None)
                } else {
                    ctx.term.width
                },
                explain: !args.brief,
                fold: !args.no_fold,
            },
        ),
        Format::Json => {
            let doc = TraceDocument::new(&scenario, &run.trace, &run.verdict);
            let mut json = serde_json::to_string_pretty(&doc)
                .map_err(|e| CliError::Input(format!("cannot encode JSON: {e}")))?;
            json.push('\n');
            json
        }
        Format::Svg => run_svg(&scenario, &run, &Options::default())?,
        Format::Mermaid => run_mermaid(&scenario, &run),
    };
    match args.output.filter(|o| o.as_os_str() != "-") {
        None => ctx.out.write_all(text.as_bytes())?,
        Some(file) => {
            // The colour codes are for terminals: a file gets the plain text.
            let text = anstream::adapter::strip_str(&text).to_string();
            std::fs::write(&file, &text).map_err(|source| super::write_failed(&file, source))?;
            writeln!(ctx.out, "wrote {} ({} bytes)", file.display(), text.len())?;
        }
    }
    // After the timeline, next to the verdict: printed first, a long timeline scrolls it away.
    ctx.out.flush()?;
    super::warn_unapplied(ctx, &args.scenario, (&scenario, &source), &run);
    Ok(ExitCode::SUCCESS)
}
