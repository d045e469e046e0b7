//! `lockstep completions SHELL`: the shell's completion script for lockstep, on stdout.

use std::process::ExitCode;

use clap::CommandFactory;
use clap_complete::Shell;

use super::Ctx;
use crate::cli::Args as Cli;
use crate::error::CliError;

/// Print a shell completion script (bash, zsh, fish, elvish, powershell)
///
/// bash: lockstep completions bash > ~/.local/share/bash-completion/completions/lockstep
/// zsh:  lockstep completions zsh > ~/.zfunc/_lockstep  (with ~/.zfunc in fpath)
/// fish: lockstep completions fish > ~/.config/fish/completions/lockstep.fish
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: Shell,
}

pub fn exec(args: Args, ctx: &mut Ctx) -> Result<ExitCode, CliError> {
    let mut cmd = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "lockstep", &mut script);
    ctx.out.write_all(&script)?;
    Ok(ExitCode::SUCCESS)
}
