//! Everything that stops a command. All of it exits with status 2, except a closed pipe on
//! stdout, which ends the command quietly (as `head` expects of the tools it reads from).

use lockstep_core::ScenarioError;
use lockstep_render::RenderError;

#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The scenario could not be found or read (no such id or file, a folder, too large).
    #[error("{0}")]
    Input(String),
    /// The file was read but is not a valid scenario.
    #[error(transparent)]
    Invalid(#[from] ScenarioError),
    /// Options that do not go together, and why.
    #[error("{0}")]
    Usage(String),
    /// Writing to stdout failed.
    #[error("cannot write output: {0}")]
    Io(#[from] std::io::Error),
    /// The picture could not be drawn (a step past the end of the run).
    #[error(transparent)]
    Render(#[from] RenderError),
    /// An output file could not be written.
    #[error("cannot write {path}: {source}")]
    WriteFile {
        path: String,
        source: std::io::Error,
    },
}

impl CliError {
    /// The reader of stdout went away (`lockstep list | head -1`): not an error worth a word.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, CliError::Io(e) if e.kind() == std::io::ErrorKind::BrokenPipe)
    }
}
