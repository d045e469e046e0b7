//! `lockstep check [ID|FILE|FOLDER]...`: run scenarios and compare each outcome with its
//! `expect`. Every scenario gets a line, whatever happened to the others, and the exit status is
//! the worst of them: 0 all as expected, 1 a mismatch, 2 invalid input.

use std::process::ExitCode;

use lockstep_core::{catalogue, run as simulate};

use super::Ctx;
use crate::error::CliError;
use crate::load::{Target, load, targets};
use crate::text::style;
use crate::text::wrap::{hanging, paint};

/// Run scenarios and compare each outcome with its `expect` (all built-ins if none given).
///
/// A folder stands for every .toml file in it. Every scenario is reported; the exit status is
/// the worst: 0 all match, 1 a mismatch, 2 invalid input.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Built-in ids, scenario files or folders of them.
    #[arg(value_name = "SCENARIO")]
    pub scenarios: Vec<String>,
}

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
    detail: String,
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
                detail: why,
            };
        }
    };
    let scenario = match load(&arg) {
        Ok(s) => s,
        Err(e) => {
            return Entry {
                label: arg,
                status: Status::Invalid,
                detail: e.to_string(),
            };
        }
    };
    let got = simulate(&scenario).verdict.outcome;
    if got == scenario.expect {
        Entry {
            label: arg,
            status: Status::Passed,
            detail: got.to_string(),
        }
    } else {
        Entry {
            label: arg,
            status: Status::Failed,
            detail: format!("expected {}, got {got}", scenario.expect),
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
        hanging(
            &mut text,
            &prefix,
            5 + 2 + label_width + 2,
            &e.detail,
            anstyle::Style::new(),
            ctx.term.width,
            7,
        );
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
