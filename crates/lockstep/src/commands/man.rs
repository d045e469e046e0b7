//! `lockstep man`: the manual page (roff), on stdout or as one page per command in a folder.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::CommandFactory;

use super::Ctx;
use crate::cli::Args as Cli;
use crate::error::CliError;

/// Print the manual page (view it with `lockstep man | man -l -`).
///
/// With --dir, write lockstep.1 and a page per command (lockstep-run.1, ...) into that folder.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Write the pages into this folder instead of printing lockstep.1.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

pub fn exec(args: Args, ctx: &mut Ctx) -> Result<ExitCode, CliError> {
    let cmd = Cli::command();
    match args.dir {
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(cmd).render(&mut page)?;
            ctx.out.write_all(&page)?;
        }
        Some(dir) => {
            let failed = |source| CliError::WriteFile {
                path: dir.display().to_string(),
                source,
            };
            std::fs::create_dir_all(&dir).map_err(failed)?;
            clap_mangen::generate_to(cmd, &dir).map_err(failed)?;
            writeln!(ctx.out, "wrote the manual pages to {}", dir.display())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
