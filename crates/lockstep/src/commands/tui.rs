//! `lockstep tui [ID|FILE]` and `lockstep` with no arguments on a terminal: the terminal UI.

use std::io::IsTerminal;
use std::process::ExitCode;

use super::Ctx;
use crate::error::CliError;
use crate::load::load;

/// Step through runs in the terminal: the scenario picker, or one run (an id or a file).
/// Exit status: 2 for invalid input or when stdout is not a terminal.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A built-in scenario id or the path of a scenario file; none opens the picker.
    pub scenario: Option<String>,
}

/// Whether the terminal UI can run: stdout must be a terminal.
pub fn have_terminal() -> bool {
    std::io::stdout().is_terminal()
}

/// Opens the picker, or one scenario's run. A scenario that cannot be loaded is reported (with
/// its location in the file) before anything is drawn.
pub fn exec(args: Args, ctx: &mut Ctx) -> Result<ExitCode, CliError> {
    let scenario = args.scenario.as_deref().map(load).transpose()?;
    if !have_terminal() {
        return Err(CliError::Input(
            "the terminal UI needs a terminal: stdout is not one (try `lockstep run`)".into(),
        ));
    }
    // Nothing of ours is buffered while the UI owns the screen.
    ctx.out.flush()?;
    let result = match scenario {
        Some(s) => lockstep_tui::run_scenario(s),
        None => lockstep_tui::run_picker(),
    };
    result.map_err(|e| CliError::Input(format!("terminal: {e}")))?;
    Ok(ExitCode::SUCCESS)
}
