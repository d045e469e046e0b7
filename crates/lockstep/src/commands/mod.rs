//! One module per subcommand: its arguments (a clap `Args` struct) and what it does.

pub mod check;
pub mod completions;
pub mod explore;
pub mod list;
pub mod man;
pub mod render;
pub mod run;
pub mod tui;

use std::io::Write;
use std::process::ExitCode;

use crate::cli::Command;
use crate::error::CliError;
use crate::term::Term;

/// Where a command writes: stdout for its result, stderr for warnings, and the terminal's width.
pub struct Ctx<'a> {
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
    pub term: Term,
}

impl std::fmt::Debug for Ctx<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ctx").field("term", &self.term).finish()
    }
}

impl Ctx<'_> {
    /// A warning on stderr: the command goes on.
    pub fn warn(&mut self, message: &dyn std::fmt::Display) {
        crate::term::warning(self.err, message);
    }
}

/// Warns about each fault and explanation of the scenario that never applied: a scenario written
/// to show a failure must not seem to pass because its fault never fired.
pub fn warn_unapplied(
    ctx: &mut Ctx,
    arg: &str,
    (scenario, text): (&lockstep_core::Scenario, &str),
    run: &lockstep_core::Run,
) {
    let file = crate::load::shown_as(arg);
    for (place, u) in located_unapplied(scenario, text, run) {
        match place {
            Some((line, column)) => ctx.warn(&format_args!("{file}:{line}:{column}: {u}")),
            None => ctx.warn(&format_args!("{file}: {u}")),
        }
    }
}

/// Each fault and explanation of `scenario` (read from `text`) that never applied in `run`, with
/// its line and column in `text` where the file has the field (to be located as a scenario error
/// is).
pub fn located_unapplied(
    scenario: &lockstep_core::Scenario,
    text: &str,
    run: &lockstep_core::Run,
) -> Vec<(Option<(usize, usize)>, lockstep_core::Unapplied)> {
    let places = lockstep_core::scenario::unapplied_places(text, scenario);
    run.unapplied()
        .into_iter()
        .map(|u| (u.place(&places), u))
        .collect()
}

pub fn execute(command: Command, ctx: &mut Ctx) -> Result<ExitCode, CliError> {
    match command {
        Command::List(args) => list::exec(args, ctx),
        Command::Run(args) => run::exec(args, ctx),
        Command::Check(args) => check::exec(args, ctx),
        Command::Render(args) => render::exec(args, ctx),
        Command::Completions(args) => completions::exec(args, ctx),
        Command::Man(args) => man::exec(args, ctx),
        Command::Tui(args) => tui::exec(args, ctx),
        Command::Explore(args) => explore::exec(args, ctx),
    }
}

/// Why the output file could not be written, naming the missing folder when that is the cause
/// (the OS says only "No such file or directory").
pub fn write_failed(path: &std::path::Path, source: std::io::Error) -> CliError {
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(parent) = parent.filter(|p| !p.is_dir())
        && source.kind() == std::io::ErrorKind::NotFound
    {
        return CliError::Usage(format!(
            "cannot write {}: there is no folder {} (lockstep does not create folders)",
            path.display(),
            parent.display()
        ));
    }
    CliError::WriteFile {
        path: path.display().to_string(),
        source,
    }
}
