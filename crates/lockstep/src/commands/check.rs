//! `lockstep check [ID|FILE|FOLDER]...`: run scenarios and compare each outcome with its
//! `expect`, and fail any whose faults or explanations never applied. Every scenario gets a line,
//! whatever happened to the others, and the exit status is the worst of them: 0 all as expected,
//! 1 a mismatch or an unapplied fault, 2 invalid input.

use std::process::ExitCode;

use lockstep_core::{catalogue, run as simulate};

use super::Ctx;
use crate::error::CliError;
use crate::load::{Target, load_with_text, targets};
use crate::text::style;
use crate::text::wrap::{hanging_deeper, paint};

/// Run scenarios and compare each outcome with its `expect` (all built-ins if none given).
///
/// A folder stands for every .toml file in it (not in its subfolders); - is stdin. A fault or
/// explanation that never applied fails the scenario. Every scenario is reported; the exit status
/// is the worst: 0 all match, 1 a mismatch or something that never applied, 2 invalid input.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Built-in ids, scenario files or folders of them.
    #[arg(value_name = "SCENARIO")]
    pub scenarios: Vec<String>,
}

/// Details that would wrap into fewer columns than this go under their label instead of beside it.
const NARROW_DETAILS: usize = 40;

/// What became of one scenario, worst last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Status {
    Passed,
    Failed,
    Invalid,
}

impl Status {
    fn exit_code(self) -> u8 {
        match self {
            Status::Passed => 0,
            Status::Failed => 1,
            Status::Invalid => 2,
        }
    }
}

/// One line of the report.
struct Entry {
    label: String,
    status: Status,
    /// What happened: one item per line.
    details: Vec<String>,
}

pub fn exec(args: Args, ctx: &mut Ctx) -> Result<ExitCode, CliError> {
    let args = if args.scenarios.is_empty() {
        catalogue::ids().map(String::from).collect()
    } else {
        args.scenarios
    };
    let entries: Vec<Entry> = targets(&args).into_iter().map(check_one).collect();
    report(&entries, ctx)?;
    let worst = entries
        .iter()
        .map(|e| e.status)
        .max()
        .unwrap_or(Status::Passed);
    Ok(ExitCode::from(worst.exit_code()))
}

fn check_one(target: Target) -> Entry {
    let arg = match target {
        Target::Scenario(arg) => arg,
        Target::BadFolder { path, why } => {
            return Entry {
                label: path,
                status: Status::Invalid,
                details: vec![why],
            };
        }
    };
    let label = crate::load::shown_as(&arg).to_string();
    let (scenario, source) = match load_with_text(&arg) {
        Ok(loaded) => loaded,
        Err(e) => {
            // The label already names the file: `bad.toml  7:10: lock.ttl_ms: …`, not the path twice.
            let message = e.to_string();
            let detail = message
                .strip_prefix(&format!("{label}:"))
                .map_or(message.as_str(), str::trim_start)
                .to_string();
            return Entry {
                label,
                status: Status::Invalid,
                details: vec![detail],
            };
        }
    };
    let run = simulate(&scenario);
    let got = run.verdict.outcome;
    let mut problems = Vec::new();
    if got != scenario.expect {
        problems.push(format!("expected {}, got {got}", scenario.expect));
    }
    // A fault that never fired proves nothing, whatever the outcome.
    problems.extend(
        super::located_unapplied(&scenario, &source, &run)
            .into_iter()
            .map(|(place, u)| match place {
                Some((line, column)) => format!("never applied: {line}:{column}: {u}"),
                None => format!("never applied: {u}"),
            }),
    );
    if problems.is_empty() {
        Entry {
            label,
            status: Status::Passed,
            details: vec![got.to_string()],
        }
    } else {
        Entry {
            label,
            status: Status::Failed,
            details: problems,
        }
    }
}

fn report(entries: &[Entry], ctx: &mut Ctx) -> Result<(), CliError> {
    let label_width = entries
        .iter()
        .map(|e| e.label.chars().count())
        .max()
        .unwrap_or(0);
    let mut text = String::new();
    for e in entries {
        let (word, word_style) = match e.status {
            Status::Passed => ("ok", style::passed()),
            Status::Failed => ("FAIL", style::failed()),
            Status::Invalid => ("error", style::failed()),
        };
        let prefix = format!(
            "{}  {:<label_width$}  ",
            paint(word_style, &format!("{word:<5}")),
            e.label
        );
        let mut col = 5 + 2 + label_width + 2;
        let mut prefix = prefix;
        let room = ctx.term.width.saturating_sub(col);
        let too_long = |d: &String| textwrap::core::display_width(d) > room;
        if room < NARROW_DETAILS && e.details.iter().any(too_long) {
            // Long paths on a narrow terminal: beside them a long message would wrap into a strip
            // a few words wide, so it goes on its own lines under the label.
            text.push_str(prefix.trim_end());
            text.push('\n');
            col = 5 + 2;
            prefix = " ".repeat(col);
        }
        for (i, detail) in e.details.iter().enumerate() {
            let prefix = if i == 0 {
                prefix.clone()
            } else {
                " ".repeat(col)
            };
            hanging_deeper(
                &mut text,
                &prefix,
                col,
                detail,
                anstyle::Style::new(),
                ctx.term.width,
                7,
            );
        }
    }
    let count = |s: Status| entries.iter().filter(|e| e.status == s).count();
    let mut summary = format!(
        "{} passed, {} failed",
        count(Status::Passed),
        count(Status::Failed)
    );
    let invalid = count(Status::Invalid);
    if invalid > 0 {
        summary.push_str(&format!(", {invalid} invalid"));
    }
    text.push_str(&paint(style::heading(), &summary));
    text.push('\n');
    ctx.out.write_all(text.as_bytes())?;
    Ok(())
}
