//! The `lockstep` command: parse the arguments, set up stdout and stderr (colour, width), run the
//! command, and turn its result into an exit status.

mod cli;
mod commands;
mod error;
mod load;
mod term;
mod text;

use std::process::ExitCode;

use clap::{CommandFactory, Parser};

use crate::cli::Args;
use crate::commands::Ctx;
use crate::term::Term;

fn main() -> ExitCode {
    let args = Args::parse();
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
        None => print_help(&mut ctx),
    }
    // Buffered output can still fail (a closed pipe) when it is flushed.
    .and_then(|code| {
        ctx.out.flush()?;
        Ok(code)
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
