//! `lockstep man`: the manual page (roff), on stdout or as one page per command in a folder.
//! lockstep.1 adds what `--help` has no room for: the exit status and the environment.

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

/// The sections of lockstep.1 that clap_mangen cannot know, in roff.
const EXIT_STATUS_AND_ENVIRONMENT: &str = r#".SH "EXIT STATUS"
.TP
\fB0\fR
Success; for \fBcheck\fR, every outcome matches its \fIexpect\fR. A closed pipe (\fBlockstep list | head \-1\fR) ends quietly with 0.
.TP
\fB1\fR
\fBcheck\fR only: an outcome differs from its \fIexpect\fR, or a fault or explanation never applied (\fBrun\fR and \fBrender\fR only warn about those, on stderr).
.TP
\fB2\fR
Invalid input: a file that is not a valid scenario (the message names the file, line, column and field), an unknown id or missing file, options that do not go together, a step past the end of the run, or a file that cannot be written.
.SH ENVIRONMENT
.TP
\fBNO_COLOR\fR
Set to anything but the empty string: no colour (\fB\-\-color always\fR still colours).
.TP
\fBCLICOLOR_FORCE\fR
Set to 1: colour even when the output is not a terminal.
.TP
\fBCOLUMNS\fR
The width text is wrapped to (at least 40). Without it, the terminal's width, or 80 when the output is not a terminal.
"#;

/// lockstep.1: clap_mangen's sections, then the exit status and the environment.
fn top_page() -> Result<Vec<u8>, std::io::Error> {
    let man = clap_mangen::Man::new(Cli::command());
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    man.render_subcommands_section(&mut page)?;
    page.extend_from_slice(EXIT_STATUS_AND_ENVIRONMENT.as_bytes());
    man.render_version_section(&mut page)?;
    Ok(page)
}

pub fn exec(args: Args, ctx: &mut Ctx) -> Result<ExitCode, CliError> {
    match args.dir {
        None => ctx.out.write_all(&top_page()?)?,
        Some(dir) => {
            let failed = |source| CliError::WriteFile {
                path: dir.display().to_string(),
                source,
            };
            std::fs::create_dir_all(&dir).map_err(failed)?;
            clap_mangen::generate_to(Cli::command(), &dir).map_err(failed)?;
            // generate_to wrote the plain lockstep.1; this one has the extra sections.
            std::fs::write(dir.join("lockstep.1"), top_page().map_err(failed)?).map_err(failed)?;
            writeln!(ctx.out, "wrote the manual pages to {}", dir.display())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
