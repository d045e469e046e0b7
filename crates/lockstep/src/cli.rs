//! The command line as clap sees it: global options and one subcommand per module of
//! [`crate::commands`] (each module owns its arguments, so adding a command is one module, one
//! variant here and one line in `commands::execute`).

use clap::{Parser, Subcommand, ValueEnum};

use crate::commands::{check, completions, explore, list, man, render, run, tui};

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
    Tui(tui::Args),
    Explore(explore::Args),
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

impl ColorWhen {
    pub fn for_clap(self) -> clap::ColorChoice {
        match self {
            ColorWhen::Auto => clap::ColorChoice::Auto,
            ColorWhen::Always => clap::ColorChoice::Always,
            ColorWhen::Never => clap::ColorChoice::Never,
        }
    }
}

/// The last `--color WHEN` or `--color=WHEN` among the arguments, read before clap parses them
/// (clap prints `--help` and usage errors while parsing). Arguments after `--` are not options.
pub fn color_in_args(args: impl IntoIterator<Item = std::ffi::OsString>) -> Option<ColorWhen> {
    let mut found = None;
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let Some(arg) = arg.to_str().map(str::to_owned) else {
            continue;
        };
        let value = match arg.as_str() {
            "--" => break,
            "--color" => args.next().and_then(|v| v.to_str().map(str::to_owned)),
            _ => arg.strip_prefix("--color=").map(str::to_owned),
        };
        if let Some(v) = value.and_then(|v| ColorWhen::from_str(&v, false).ok()) {
            found = Some(v);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<std::ffi::OsString> {
        args.iter().map(Into::into).collect()
    }

    #[test]
    fn color_is_found_before_parsing() {
        assert_eq!(
            color_in_args(os(&["lockstep", "--color", "never", "-h"])),
            Some(ColorWhen::Never)
        );
        assert_eq!(
            color_in_args(os(&["lockstep", "run", "--color=always"])),
            Some(ColorWhen::Always)
        );
        assert_eq!(color_in_args(os(&["lockstep", "run", "x"])), None);
        assert_eq!(
            color_in_args(os(&["lockstep", "--", "--color=always"])),
            None
        );
        assert_eq!(color_in_args(os(&["lockstep", "--color", "purple"])), None);
    }

    #[test]
    fn the_clap_definition_is_consistent() {
        use clap::CommandFactory;
        Args::command().debug_assert();
    }
}
