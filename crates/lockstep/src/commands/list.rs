//! `lockstep list`: the built-in scenarios, their expected outcomes and titles.

use std::process::ExitCode;

use anstyle::Style;
use lockstep_core::catalogue;

use super::Ctx;
use crate::error::CliError;
use crate::load::load;
use crate::text::style;
use crate::text::wrap::{hanging, paint};

/// List the built-in scenarios: id, expected outcome and title.
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn exec(_args: Args, ctx: &mut Ctx) -> Result<ExitCode, CliError> {
    let mut rows = Vec::new();
    for id in catalogue::ids() {
        let s = load(id)?;
        rows.push((id, s.expect, s.title));
    }
    let id_width = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let outcome_width = "not-processed".len();
    let title_col = id_width + 2 + outcome_width + 2;
    let width = ctx.term.width;
    // One line per scenario when every title fits; otherwise every title goes on its own
    // indented line under its id, which reads better than a ragged narrow column.
    let one_line = rows
        .iter()
        .all(|r| title_col + r.2.chars().count() <= width);
    let mut text = String::new();
    for (raw_id, expect, title) in &rows {
        let id = paint(style::heading(), &format!("{raw_id:<id_width$}"));
        let outcome = expect.as_str();
        if one_line {
            let outcome = paint(
                style::outcome(*expect),
                &format!("{outcome:<outcome_width$}"),
            );
            text.push_str(&format!("{id}  {outcome}  {title}\n"));
        } else if id_width + 2 + outcome_width <= width {
            // Continuation lines start with spaces, so the first word of each other line is an id.
            let outcome = paint(style::outcome(*expect), outcome);
            text.push_str(&format!("{id}  {outcome}\n"));
            hanging(&mut text, "    ", 4, title, Style::new(), width, 4);
        } else {
            // Too narrow even for the id and the outcome side by side: the id alone, then the
            // outcome and the title.
            text.push_str(&paint(style::heading(), raw_id));
            text.push('\n');
            let prefix = format!("    {}  ", paint(style::outcome(*expect), outcome));
            hanging(
                &mut text,
                &prefix,
                4 + outcome.len() + 2,
                title,
                Style::new(),
                width,
                6,
            );
        }
    }
    ctx.out.write_all(text.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
