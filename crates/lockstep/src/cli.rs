//! The command line as clap sees it: global options and one subcommand per module of
//! [`crate::commands`] (each module owns its arguments, so adding a command is one module, one
//! variant here and one line in `commands::execute`).

use clap::{Parser, Subcommand, ValueEnum};

use crate::commands::{check, completions, list, man, render, run};

/// See why distributed locks fail: simulate lock services, workers and a fencing-aware database.
#[derive(Debug, Parser)]
#[command(name = "lockstep", version, about, long_about = None, max_term_width = 100)]
pub struct Args {
    /// Colour the output: auto (on a terminal, unless NO_COLOR is set), always or never.
    #[arg(
        long,
        value_enum,
        value_name = "WHEN",
        default_value_t = ColorWhen::Auto,
        global = true
    )]
    pub color: ColorWhen,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    List(list::Args),
    Run(run::Args),
    Check(check::Args),
    Render(render::Args),
    Completions(completions::Args),
    Man(man::Args),
}

/// `--color` (its help says what each value does).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    Auto,
    Always,
    Never,
}

impl ColorWhen {
    pub fn choice(self) -> anstream::ColorChoice {
        match self {
            ColorWhen::Auto => anstream::ColorChoice::Auto,
            ColorWhen::Always => anstream::ColorChoice::Always,
            ColorWhen::Never => anstream::ColorChoice::Never,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clap_definition_is_consistent() {
        use clap::CommandFactory;
        Args::command().debug_assert();
    }
}
