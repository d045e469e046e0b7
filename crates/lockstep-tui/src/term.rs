//! The terminal loop: set the terminal up (raw mode, alternate screen, mouse), draw, wait for
//! input (for ever while paused, until the next step while playing) and put everything back on
//! quit, on Ctrl-C (a key in raw mode) and on panic.

use std::io::{self, stdout};
use std::time::{Duration, Instant};

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;

use crate::action::{self, Action};
use crate::app::App;

/// Runs the app until the user quits; the terminal is restored whatever happens.
pub fn run(mut app: App) -> io::Result<()> {
    // ratatui::try_init installs a panic hook that restores the terminal; ours runs first and
    // turns mouse reporting off, which ratatui's does not know about.
    let mut terminal = ratatui::try_init()?;
    let ratatui_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = execute!(stdout(), DisableMouseCapture);
        ratatui_hook(info);
    }));
    let result =
        execute!(stdout(), EnableMouseCapture).and_then(|()| event_loop(&mut terminal, &mut app));
    let _ = execute!(stdout(), DisableMouseCapture);
    ratatui::restore();
    result
}

/// How often the progress of a running search is redrawn.
const SEARCH_POLL: Duration = Duration::from_millis(100);

fn event_loop(terminal: &mut DefaultTerminal, app: &mut App) -> io::Result<()> {
    let mut next_tick = None;
    while !app.quit {
        terminal.draw(|frame| {
            app.size = frame.area();
            frame.render_widget(&*app, frame.area());
        })?;
        let action = match app.tick_interval() {
            // A search reports on a channel the terminal cannot wait on: look at it every
            // SEARCH_POLL while it runs (and only then), and redraw what it sent.
            _ if app.search.is_some() => {
                if event::poll(SEARCH_POLL)? {
                    read_action(app)?
                } else {
                    app.poll_search();
                    None
                }
            }
            None => {
                next_tick = None;
                read_action(app)?
            }
            Some(interval) => {
                let due = *next_tick.get_or_insert_with(|| Instant::now() + interval);
                let wait = due.saturating_duration_since(Instant::now());
                if event::poll(wait)? {
                    read_action(app)?
                } else {
                    next_tick = Some(due + interval);
                    Some(Action::Tick)
                }
            }
        };
        if let Some(action) = action {
            app.update(action);
        }
    }
    Ok(())
}

/// Blocks until the next terminal event and turns it into an action.
fn read_action(app: &App) -> io::Result<Option<Action>> {
    let event = event::read()?;
    Ok(action::from_event(&event, app.focus()))
}
