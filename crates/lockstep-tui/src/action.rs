//! What the user asked for: terminal events turned into [`Action`]s, depending on what is on
//! screen (typing filters the picker; the same keys step the viewer).

use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

/// Everything the app can be asked to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Quit,
    /// Close the overlay, or leave the picker for the run it came from.
    Back,
    /// Picker: add a character to the filter.
    Type(char),
    Backspace,
    /// Move a list cursor (picker, fault menu).
    Up,
    Down,
    /// Open the picked scenario, or apply the picked what-if.
    Confirm,
    /// Move through the run.
    Step(isize),
    PageUp,
    PageDown,
    Home,
    End,
    TogglePlay,
    Faster,
    Slower,
    /// Open the scenario picker.
    Scenarios,
    ToggleTimeMode,
    ExportSvg,
    ToggleHelp,
    OpenFaults,
    /// Search for a double write from the run's scenario.
    Explore,
    /// Leave the what-if branch.
    Original,
    /// Fault menu: a longer or shorter duration.
    Longer,
    Shorter,
    /// Mouse: a click at (column, row) of the screen.
    Click(u16, u16),
    /// Mouse wheel: lines to scroll (negative: up).
    Scroll(isize),
    /// The terminal changed size.
    Resize,
    /// Time to play the next step.
    Tick,
}

/// Where the keyboard goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    Picker,
    Viewer,
    Help,
    Faults,
    /// A search is running: Esc cancels it.
    Search,
}

/// Lines one wheel notch scrolls.
const WHEEL_LINES: isize = 3;

/// The action for a terminal event, if any.
pub fn from_event(event: &Event, focus: Focus) -> Option<Action> {
    match event {
        Event::Key(key) if key.kind != KeyEventKind::Release => from_key(key, focus),
        Event::Mouse(mouse) => from_mouse(mouse),
        Event::Resize(..) => Some(Action::Resize),
        _ => None,
    }
}

fn from_mouse(mouse: &MouseEvent) -> Option<Action> {
    match mouse.kind {
        MouseEventKind::Down(MouseButton::Left) => Some(Action::Click(mouse.column, mouse.row)),
        MouseEventKind::ScrollUp => Some(Action::Scroll(-WHEEL_LINES)),
        MouseEventKind::ScrollDown => Some(Action::Scroll(WHEEL_LINES)),
        _ => None,
    }
}

/// The action for a key press.
pub fn from_key(key: &KeyEvent, focus: Focus) -> Option<Action> {
    // In raw mode Ctrl-C is a key like any other: it always quits.
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return matches!(key.code, KeyCode::Char('c' | 'C')).then_some(Action::Quit);
    }
    match focus {
        Focus::Help => Some(Action::ToggleHelp),
        Focus::Search => matches!(key.code, KeyCode::Esc).then_some(Action::Back),
        Focus::Faults => match key.code {
            KeyCode::Up | KeyCode::Char('k') => Some(Action::Up),
            KeyCode::Down | KeyCode::Char('j') => Some(Action::Down),
            KeyCode::Right | KeyCode::Char('+' | '=' | 'l') => Some(Action::Longer),
            KeyCode::Left | KeyCode::Char('-' | 'h') => Some(Action::Shorter),
            KeyCode::Enter => Some(Action::Confirm),
            KeyCode::Esc | KeyCode::Char('f' | 'q') => Some(Action::Back),
            _ => None,
        },
        Focus::Picker => match key.code {
            KeyCode::Up => Some(Action::Up),
            KeyCode::Down => Some(Action::Down),
            KeyCode::PageUp => Some(Action::PageUp),
            KeyCode::PageDown => Some(Action::PageDown),
            KeyCode::Enter => Some(Action::Confirm),
            KeyCode::Backspace => Some(Action::Backspace),
            KeyCode::Esc => Some(Action::Back),
            KeyCode::Char(c) => Some(Action::Type(c)),
            _ => None,
        },
        Focus::Viewer => match key.code {
            KeyCode::Left | KeyCode::Char('h') => Some(Action::Step(-1)),
            KeyCode::Right | KeyCode::Char('l') => Some(Action::Step(1)),
            KeyCode::Char(' ') => Some(Action::TogglePlay),
            KeyCode::Char('+' | '=') => Some(Action::Faster),
            KeyCode::Char('-' | '_') => Some(Action::Slower),
            KeyCode::Home | KeyCode::Char('g') => Some(Action::Home),
            KeyCode::End | KeyCode::Char('G') => Some(Action::End),
            KeyCode::PageUp => Some(Action::PageUp),
            KeyCode::PageDown => Some(Action::PageDown),
            KeyCode::Char('s') => Some(Action::Scenarios),
            KeyCode::Char('t') => Some(Action::ToggleTimeMode),
            KeyCode::Char('e') => Some(Action::ExportSvg),
            KeyCode::Char('?') => Some(Action::ToggleHelp),
            KeyCode::Char('f') => Some(Action::OpenFaults),
            KeyCode::Char('u') => Some(Action::Original),
            KeyCode::Char('x') => Some(Action::Explore),
            KeyCode::Char('q') | KeyCode::Esc => Some(Action::Quit),
            _ => None,
        },
    }
}

/// Every key the viewer understands, for the help overlay: (keys, what they do).
pub const HELP: &[(&str, &str)] = &[
    ("Right  l", "next step"),
    ("Left  h", "previous step"),
    ("Space", "play / pause"),
    ("+  -", "play faster / slower"),
    ("Home  g", "first step"),
    ("End  G", "last step"),
    ("PageDown  PageUp", "10 steps forward / back"),
    ("f", "what-if menu: inject a fault or toggle a setting here"),
    ("u", "leave the what-if branch, back to the original run"),
    (
        "x",
        "search for faults that break this scenario; opens the counterexample",
    ),
    ("t", "logical / to-scale time"),
    ("e", "export the current view as SVG"),
    ("s", "scenario picker (type to filter, Enter opens)"),
    ("?", "this help (any key closes it)"),
    ("q  Esc  Ctrl-C", "quit"),
    ("mouse click", "jump to the clicked event"),
    ("mouse wheel", "scroll the timeline"),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn the_same_letter_steps_the_viewer_and_filters_the_picker() {
        let l = key(KeyCode::Char('l'));
        assert_eq!(from_key(&l, Focus::Viewer), Some(Action::Step(1)));
        assert_eq!(from_key(&l, Focus::Picker), Some(Action::Type('l')));
        let q = key(KeyCode::Char('q'));
        assert_eq!(from_key(&q, Focus::Viewer), Some(Action::Quit));
        assert_eq!(from_key(&q, Focus::Picker), Some(Action::Type('q')));
    }

    #[test]
    fn ctrl_c_quits_from_everywhere() {
        let c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
        for focus in [
            Focus::Picker,
            Focus::Viewer,
            Focus::Help,
            Focus::Faults,
            Focus::Search,
        ] {
            assert_eq!(from_key(&c, focus), Some(Action::Quit));
        }
    }

    #[test]
    fn every_viewer_key_of_the_issue_is_bound() {
        let cases = [
            (KeyCode::Left, Action::Step(-1)),
            (KeyCode::Char('h'), Action::Step(-1)),
            (KeyCode::Right, Action::Step(1)),
            (KeyCode::Char(' '), Action::TogglePlay),
            (KeyCode::Char('+'), Action::Faster),
            (KeyCode::Char('-'), Action::Slower),
            (KeyCode::Home, Action::Home),
            (KeyCode::End, Action::End),
            (KeyCode::PageUp, Action::PageUp),
            (KeyCode::PageDown, Action::PageDown),
            (KeyCode::Char('s'), Action::Scenarios),
            (KeyCode::Char('t'), Action::ToggleTimeMode),
            (KeyCode::Char('e'), Action::ExportSvg),
            (KeyCode::Char('?'), Action::ToggleHelp),
            (KeyCode::Char('f'), Action::OpenFaults),
            (KeyCode::Char('u'), Action::Original),
            (KeyCode::Char('x'), Action::Explore),
            (KeyCode::Esc, Action::Quit),
        ];
        for (code, action) in cases {
            assert_eq!(
                from_key(&key(code), Focus::Viewer),
                Some(action),
                "{code:?}"
            );
        }
    }

    #[test]
    fn key_releases_are_ignored_and_the_wheel_scrolls() {
        let mut release = key(KeyCode::Right);
        release.kind = KeyEventKind::Release;
        assert_eq!(from_event(&Event::Key(release), Focus::Viewer), None);
        let wheel = MouseEvent {
            kind: MouseEventKind::ScrollDown,
            column: 3,
            row: 4,
            modifiers: KeyModifiers::NONE,
        };
        assert_eq!(
            from_event(&Event::Mouse(wheel), Focus::Viewer),
            Some(Action::Scroll(3))
        );
    }
}
