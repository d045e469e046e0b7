//! The CLI commands: `list`, `run`, `check` (the drawing exports are in `export`).

use std::io::Write;
use std::process::ExitCode;

use lockstep_core::catalogue;
use lockstep_core::document::TraceDocument;
use lockstep_core::{Scenario, parse_scenario, run as simulate};

use crate::text;

/// Anything that stops a command: bad input or a failed write to stdout.
#[derive(Debug)]
pub enum CliError {
    /// The scenario could not be found or read.
    Input(String),
    /// The file was read but is not a valid scenario.
    Invalid(lockstep_core::ScenarioError),
    Io(std::io::Error),
    /// The picture could not be drawn (a step past the end of the run).
    Render(lockstep_render::RenderError),
    /// An output file could not be written.
    WriteFile {
        path: String,
        source: std::io::Error,
    },
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::Input(m) => f.write_str(m),
            CliError::Invalid(e) => write!(f, "{e}"),
            CliError::Io(e) => write!(f, "cannot write output: {e}"),
            CliError::Render(e) => write!(f, "{e}"),
            CliError::WriteFile { path, source } => write!(f, "cannot write {path}: {source}"),
        }
    }
}

impl From<std::io::Error> for CliError {
    fn from(e: std::io::Error) -> Self {
        CliError::Io(e)
    }
}

/// A built-in id or a file path.
pub fn load(arg: &str) -> Result<Scenario, CliError> {
    if let Some(parsed) = catalogue::load(arg) {
        return parsed.map_err(CliError::Invalid);
    }
    let path = std::path::Path::new(arg);
    if !path.exists() {
        return Err(CliError::Input(format!(
            "`{arg}` is neither a built-in scenario nor a file; `lockstep list` shows the built-ins"
        )));
    }
    let bytes =
        std::fs::read(path).map_err(|e| CliError::Input(format!("{arg}: cannot read: {e}")))?;
    parse_scenario(arg, &bytes).map_err(CliError::Invalid)
}

pub fn list(out: &mut impl Write) -> Result<ExitCode, CliError> {
    let width = catalogue::ids().map(str::len).max().unwrap_or(0);
    for id in catalogue::ids() {
        let s = load(id)?;
        writeln!(out, "{id:<width$}  {:<13}  {}", s.expect.as_str(), s.title)?;
    }
    Ok(ExitCode::SUCCESS)
}

pub fn run(out: &mut impl Write, arg: &str, json: bool, brief: bool) -> Result<ExitCode, CliError> {
    let scenario = load(arg)?;
    let result = simulate(&scenario);
    if json {
        let doc = TraceDocument::new(&scenario, &result.trace, &result.verdict);
        let text = serde_json::to_string_pretty(&doc)
            .map_err(|e| CliError::Input(format!("cannot encode JSON: {e}")))?;
        writeln!(out, "{text}")?;
    } else {
        out.write_all(text::timeline(&scenario, &result, !brief).as_bytes())?;
    }
    Ok(ExitCode::SUCCESS)
}

pub fn check(out: &mut impl Write, args: &[String]) -> Result<ExitCode, CliError> {
    let targets: Vec<String> = if args.is_empty() {
        catalogue::ids().map(String::from).collect()
    } else {
        args.to_vec()
    };
    let mut scenarios = Vec::new();
    for t in &targets {
        scenarios.push(load(t)?);
    }
    let width = scenarios.iter().map(|s| s.name.len()).max().unwrap_or(0);
    let mut failed = 0;
    for s in &scenarios {
        let got = simulate(s).verdict.outcome;
        if got == s.expect {
            writeln!(out, "ok    {:<width$}  {}", s.name, got)?;
        } else {
            failed += 1;
            writeln!(
                out,
                "FAIL  {:<width$}  expected {}, got {}",
                s.name, s.expect, got
            )?;
        }
    }
    writeln!(out, "{} passed, {failed} failed", scenarios.len() - failed)?;
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
