//! `lockstep tui [ID|FILE]` and `lockstep` with no arguments: the terminal UI.

use std::io::IsTerminal;
use std::process::ExitCode;

use crate::cli::{self, CliError};

/// Whether the terminal UI can run: stdout must be a terminal.
pub fn have_terminal() -> bool {
    std::io::stdout().is_terminal()
}

/// Opens the picker, or one scenario's run. A scenario that cannot be loaded is reported (with
/// its location in the file) before anything is drawn.
pub fn tui(scenario: Option<&str>) -> Result<ExitCode, CliError> {
    let scenario = scenario.map(cli::load).transpose()?;
    if !have_terminal() {
        return Err(CliError::Input(
            "the terminal UI needs a terminal: stdout is not one (try `lockstep run`)".into(),
        ));
    }
    let result = match scenario {
        Some(s) => lockstep_tui::run_scenario(s),
        None => lockstep_tui::run_picker(),
    };
    result.map_err(|e| CliError::Input(format!("terminal: {e}")))?;
    Ok(ExitCode::SUCCESS)
}
