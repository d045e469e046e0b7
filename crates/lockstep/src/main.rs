//! The `lockstep` command: parse the arguments, set up stdout and stderr (colour, width), run the
//! command, and turn its result into an exit status.

mod cli;
mod commands;
mod error;
mod load;
mod term;
mod text;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use crate::cli::{Args, ColorWhen};
use crate::commands::Ctx;
use crate::term::Term;

fn main() -> ExitCode {
    // clap prints help and usage errors itself, before `--color` is parsed: tell it first.
    let early = cli::color_in_args(std::env::args_os());
    let matches = Args::command()
        .color(early.map_or(clap::ColorChoice::Auto, ColorWhen::for_clap))
        .get_matches();
    let args = Args::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let choice = args.color.choice();
    let mut out = anstream::AutoStream::new(std::io::stdout().lock(), choice);
    let mut err = anstream::AutoStream::new(std::io::stderr().lock(), choice);
    let mut ctx = Ctx {
        out: &mut out,
        err: &mut err,
        term: Term::detect(),
    };
    let result = match args.command {
        Some(command) => commands::execute(command, &mut ctx),
        None if commands::tui::have_terminal() => commands::execute(
            cli::Command::Tui(commands::tui::Args { scenario: None }),
            &mut ctx,
        ),
        None => print_help(&mut ctx),
    }
    // Buffered output can still fail (a closed pipe) when it is flushed; a command that finished
    // keeps its status then (`lockstep explore ... | head -1` still exits 1 on a double write).
    .and_then(|code| match ctx.out.flush() {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(code),
        other => other.map(|()| code).map_err(error::CliError::from),
    });
    match result {
        Ok(code) => code,
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            term::error(ctx.err, &e);
            ExitCode::from(2)
        }
    }
}

/// No command: the help text.
fn print_help(ctx: &mut Ctx) -> Result<ExitCode, error::CliError> {
    let help = Args::command().render_help();
    write!(ctx.out, "{}", help.ansi())?;
    Ok(ExitCode::SUCCESS)
}
