//! The app's state and how each [`Action`] changes it. Nothing here touches the terminal, so
//! every transition is tested without one.

use std::path::{Path, PathBuf};
use std::time::Duration;

use lockstep_core::{Scenario, catalogue};
use lockstep_render::{Caption, draw_timeline};
use ratatui::layout::Rect;

use crate::action::{Action, Focus};
use crate::explore::{self, Report, Worker};
use crate::picker::Picker;
use crate::ui::{self, picker as picker_ui, timeline};
use crate::viewer::{PAGE_STEPS, Viewer};
use crate::whatif::FaultMenu;

/// Which screen is up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    Picker,
    Viewer,
}

/// What is drawn over the viewer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Overlay {
    None,
    Help,
    Faults(FaultMenu),
    /// A search ended without a double write: what it covered, one line each (any key closes).
    NothingFound(Vec<String>),
}

/// The whole app.
#[derive(Debug, Clone)]
pub struct App {
    pub screen: Screen,
    pub picker: Picker,
    pub viewer: Option<Viewer>,
    pub overlay: Overlay,
    /// A one-line message for the user (where an export went, why a change was refused).
    pub status: Option<String>,
    pub quit: bool,
    /// The terminal's size at the last draw, to place mouse clicks.
    pub size: Rect,
    /// Where `e` writes SVG files.
    pub export_dir: PathBuf,
    /// The search `x` started, while it runs.
    pub search: Option<explore::Running>,
    /// What the last search found, named for the verdict bar while its counterexample is open:
    /// (the counterexample's scenario name, the line).
    pub found: Option<(String, String)>,
}

impl App {
    /// The app on the picker.
    pub fn picker() -> App {
        App {
            screen: Screen::Picker,
            picker: Picker::new(),
            viewer: None,
            overlay: Overlay::None,
            status: None,
            quit: false,
            size: Rect::new(0, 0, ui::GOOD_WIDTH, ui::GOOD_HEIGHT),
            export_dir: PathBuf::from("."),
            search: None,
            found: None,
        }
    }

    /// The app viewing one scenario.
    pub fn viewing(scenario: Scenario) -> App {
        let mut app = App::picker();
        app.picker.select_id(&scenario.name);
        app.viewer = Some(Viewer::new(scenario));
        app.screen = Screen::Viewer;
        app
    }

    /// Where keys go now.
    pub fn focus(&self) -> Focus {
        match (self.screen, &self.overlay) {
            (Screen::Viewer, _) if self.search.is_some() => Focus::Search,
            (Screen::Picker, _) => Focus::Picker,
            (Screen::Viewer, Overlay::Help | Overlay::NothingFound(_)) => Focus::Help,
            (Screen::Viewer, Overlay::Faults(_)) => Focus::Faults,
            (Screen::Viewer, Overlay::None) => Focus::Viewer,
        }
    }

    /// How long to wait for input before the next played step; None (wait for ever) unless a
    /// run is playing.
    pub fn tick_interval(&self) -> Option<Duration> {
        let v = self.viewer.as_ref()?;
        (self.screen == Screen::Viewer && v.playing)
            .then(|| Duration::from_millis(1000 / u64::from(v.steps_per_second())))
    }

    /// Applies one action.
    pub fn update(&mut self, action: Action) {
        if action == Action::Quit {
            if let Some(s) = self.search.take() {
                s.cancel();
            }
            self.quit = true;
            return;
        }
        if !matches!(action, Action::Tick | Action::Resize) {
            self.status = None;
        }
        match self.focus() {
            Focus::Picker => self.update_picker(action),
            Focus::Help => {
                if action != Action::Tick {
                    self.overlay = Overlay::None;
                }
            }
            Focus::Faults => self.update_faults(action),
            Focus::Viewer => self.update_viewer(action),
            Focus::Search => {
                if action == Action::Back {
                    self.cancel_search();
                }
            }
        }
    }

    /// Starts a search from the run's scenario as shown (its what-ifs included) and hands back its worker for the caller to run
    /// (on a thread of its own: see [`App::update`]'s `Explore`); None if it cannot start, with
    /// the reason in the status line.
    pub fn start_search(&mut self) -> Option<Worker> {
        let v = self.viewer.as_mut()?;
        v.playing = false;
        let scenario = explore::shown(v);
        self.start_search_within(&scenario, explore::bounds_for(&scenario))
    }

    /// [`App::start_search`] within the given bounds.
    pub fn start_search_within(
        &mut self,
        scenario: &Scenario,
        bounds: explore::Bounds,
    ) -> Option<Worker> {
        match explore::start(scenario, bounds) {
            Ok((running, worker)) => {
                self.overlay = Overlay::None;
                self.search = Some(running);
                Some(worker)
            }
            Err(e) => {
                self.status = Some(e);
                None
            }
        }
    }

    /// Stops the search: its thread sees the flag before its next step and ends.
    pub fn cancel_search(&mut self) {
        if let Some(s) = self.search.take() {
            s.cancel();
            self.status = Some(format!("search from {} cancelled", s.from));
        }
    }

    /// Takes in every report the search has sent; true if anything changed.
    pub fn poll_search(&mut self) -> bool {
        let mut changed = false;
        while let Some(running) = self.search.as_mut() {
            match running.try_next() {
                explore::Next::Report(report) => {
                    changed = true;
                    self.receive(report);
                }
                explore::Next::Nothing => break,
                explore::Next::Gone => {
                    self.search = None;
                    self.status = Some("the search stopped without an answer".into());
                    return true;
                }
            }
        }
        changed
    }

    fn receive(&mut self, report: Report) {
        let Some(running) = self.search.as_mut() else {
            return;
        };
        match report {
            Report::Running(stats) => running.progress(stats),
            Report::Found {
                scenario,
                faults,
                stats,
            } => {
                running.progress(stats);
                let line = format!(
                    "counterexample found from {} ({} states): {} → a payout applied twice",
                    running.from,
                    stats.states,
                    faults.join("; ")
                );
                self.found = Some((scenario.name.clone(), line));
                self.picker.select_id(&running.from);
                self.search = None;
                self.viewer = Some(Viewer::new(*scenario));
                self.screen = Screen::Viewer;
                self.overlay = Overlay::None;
            }
            Report::Exhausted { stats, complete } => {
                let cut = if complete {
                    ""
                } else {
                    " (stopped at the state bound)"
                };
                let mut lines = vec![format!(
                    "no double write within these bounds{cut}: {} states explored from {}",
                    stats.states, running.from
                )];
                lines.extend(running.bounds.iter().cloned());
                self.status = Some(lines[0].clone());
                self.overlay = Overlay::NothingFound(lines);
                self.search = None;
            }
        }
    }

    /// The verdict bar's line about the counterexample on screen, if it is one `x` found.
    pub fn found_line(&self) -> Option<&str> {
        let v = self.viewer.as_ref()?;
        let (name, line) = self.found.as_ref()?;
        (v.scenario.name == *name && v.branch.is_none()).then_some(line.as_str())
    }

    fn update_picker(&mut self, action: Action) {
        let p = &mut self.picker;
        match action {
            Action::Type(c) => p.type_char(c),
            Action::Backspace => p.backspace(),
            Action::Up => p.move_by(-1),
            Action::Down => p.move_by(1),
            Action::PageUp => p.move_by(-(PAGE_STEPS as isize)),
            Action::PageDown => p.move_by(PAGE_STEPS as isize),
            Action::Scroll(lines) => p.move_by(lines.signum()),
            Action::Confirm => self.open_selected(),
            Action::Click(col, row) => {
                let list = picker_ui::list_area(self.size);
                if list.contains((col, row).into()) {
                    let first = picker_ui::first_shown(p.selected, usize::from(list.height));
                    let index = first + usize::from(row - list.y);
                    if index < p.visible().len() {
                        if index == p.selected {
                            self.open_selected();
                        } else {
                            p.selected = index;
                        }
                    }
                }
            }
            Action::Back if !p.filter.is_empty() => {
                p.filter.clear();
                p.selected = 0;
            }
            Action::Back if self.viewer.is_some() => self.screen = Screen::Viewer,
            Action::Back => self.quit = true,
            _ => {}
        }
    }

    fn open_selected(&mut self) {
        let Some(entry) = self.picker.current() else {
            return;
        };
        match catalogue::load(entry.id) {
            Some(Ok(scenario)) => {
                self.viewer = Some(Viewer::new(scenario));
                self.screen = Screen::Viewer;
                self.overlay = Overlay::None;
            }
            Some(Err(e)) => self.status = Some(e.to_string()),
            None => {}
        }
    }

    fn update_faults(&mut self, action: Action) {
        let Overlay::Faults(menu) = &mut self.overlay else {
            return;
        };
        match action {
            Action::Up => menu.move_by(-1),
            Action::Down => menu.move_by(1),
            Action::Scroll(lines) => menu.move_by(lines.signum()),
            Action::Longer => menu.adjust_seconds(1),
            Action::Shorter => menu.adjust_seconds(-1),
            Action::Back => self.overlay = Overlay::None,
            Action::Confirm => {
                let change = menu.selected_change();
                self.overlay = Overlay::None;
                if let (Some(change), Some(v)) = (change, self.viewer.as_mut())
                    && let Err(e) = v.apply(change)
                {
                    self.status = Some(format!("cannot branch here: {e}"));
                }
            }
            _ => {}
        }
    }

    fn update_viewer(&mut self, action: Action) {
        let Some(v) = self.viewer.as_mut() else {
            self.screen = Screen::Picker;
            return;
        };
        match action {
            Action::Step(d) => {
                v.playing = false;
                v.step_by(d);
            }
            Action::PageUp => v.step_by(-(PAGE_STEPS as isize)),
            Action::PageDown => v.step_by(PAGE_STEPS as isize),
            Action::Home => v.seek(0),
            Action::End => {
                v.playing = false;
                v.seek(usize::MAX);
            }
            Action::TogglePlay => v.toggle_play(),
            Action::Tick => v.tick(),
            Action::Faster => v.faster(),
            Action::Slower => v.slower(),
            Action::ToggleTimeMode => v.toggle_time_mode(),
            Action::Scenarios => {
                v.playing = false;
                self.picker.select_id(&v.scenario.name);
                self.screen = Screen::Picker;
            }
            Action::ToggleHelp => self.overlay = Overlay::Help,
            Action::Explore => {
                if let Some(worker) = self.start_search() {
                    std::thread::spawn(move || worker.run());
                }
            }
            Action::OpenFaults => {
                v.playing = false;
                let future = lockstep_core::Trace {
                    participants: v.active().full.participants.clone(),
                    events: v.active().full.events[v.pos()..].to_vec(),
                };
                let ttl = v.active().session.sim().params.lock.ttl_ms;
                self.overlay = Overlay::Faults(FaultMenu::new(&v.inspection, ttl, &future));
            }
            Action::Original if !v.back_to_original() => {
                self.status = Some("this is the original run: f makes a what-if".into());
            }
            Action::ExportSvg => {
                self.status = Some(match export(v, &self.export_dir) {
                    Ok(path) => format!("wrote {}", path.display()),
                    Err(e) => format!("export failed: {e}"),
                });
            }
            Action::Click(col, row) => {
                let area = ui::areas(self.size).timeline;
                if area.contains((col, row).into()) && row >= area.y + timeline::HEADER_LINES {
                    let grid = timeline::Grid::new(&v.layout, area, v.scroll, v.diverged_at);
                    if let Some(r) = grid.row_at(row - area.y - timeline::HEADER_LINES) {
                        let step = v.layout.rows[r].step;
                        v.playing = false;
                        v.seek(step);
                    }
                }
            }
            Action::Scroll(lines) => {
                let area = ui::areas(self.size).timeline;
                let top = timeline::Grid::new(&v.layout, area, v.scroll, v.diverged_at).top;
                v.scroll_by(top, lines);
            }
            _ => {}
        }
    }
}

/// Writes the view on screen as an SVG file; returns its path.
fn export(v: &Viewer, dir: &Path) -> Result<PathBuf, String> {
    let caption = Caption {
        title: v.scenario.title.clone(),
        name: v.scenario.name.clone(),
        summary: v.scenario.summary.clone(),
        verdict: Some(v.verdict().clone()),
        seen_width: None,
    };
    let svg = draw_timeline(&v.layout, &caption).map_err(|e| e.to_string())?;
    let branch = if v.branch.is_some() { "-what-if" } else { "" };
    let name = format!("lockstep-{}{branch}-step-{}.svg", v.scenario.name, v.pos());
    let path = dir.join(name);
    std::fs::write(&path, svg).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(std::path::absolute(&path).unwrap_or(path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_core::Outcome;

    fn viewing(id: &str) -> App {
        App::viewing(catalogue::load(id).unwrap().unwrap())
    }

    fn viewer(app: &App) -> &Viewer {
        app.viewer.as_ref().unwrap()
    }

    #[test]
    fn the_picker_opens_the_typed_scenario_and_s_comes_back_to_it() {
        let mut app = App::picker();
        assert_eq!(app.focus(), Focus::Picker);
        for c in "fenced-gc".chars() {
            app.update(Action::Type(c));
        }
        app.update(Action::Confirm);
        assert_eq!(app.screen, Screen::Viewer);
        assert_eq!(viewer(&app).scenario.name, "fenced-gc-pause");
        app.update(Action::Scenarios);
        assert_eq!(app.screen, Screen::Picker);
        assert_eq!(app.picker.current().unwrap().id, "fenced-gc-pause");
        // Esc in the picker goes back to the run that was open.
        app.update(Action::Back);
        assert_eq!(app.screen, Screen::Viewer);
        assert!(!app.quit);
    }

    #[test]
    fn a_click_in_the_picker_selects_then_opens() {
        let mut app = App::picker();
        let list = picker_ui::list_area(app.size);
        app.update(Action::Click(list.x + 4, list.y + 5));
        assert_eq!(app.picker.selected, 5);
        assert_eq!(app.screen, Screen::Picker);
        app.update(Action::Click(list.x + 4, list.y + 5));
        assert_eq!(app.screen, Screen::Viewer);
        assert_eq!(viewer(&app).scenario.name, app.picker.entries[5].id);
    }

    #[test]
    fn esc_clears_the_filter_then_quits_the_picker() {
        let mut app = App::picker();
        app.update(Action::Type('x'));
        app.update(Action::Back);
        assert!(app.picker.filter.is_empty());
        assert!(!app.quit);
        app.update(Action::Back);
        assert!(app.quit);
    }

    #[test]
    fn stepping_paging_home_and_end() {
        let mut app = viewing("fenced-gc-pause");
        let total = viewer(&app).total();
        app.update(Action::Step(1));
        app.update(Action::Step(1));
        assert_eq!(viewer(&app).pos(), 2);
        app.update(Action::Step(-1));
        assert_eq!(viewer(&app).pos(), 1);
        app.update(Action::PageDown);
        assert_eq!(viewer(&app).pos(), 1 + PAGE_STEPS);
        app.update(Action::PageUp);
        assert_eq!(viewer(&app).pos(), 1);
        app.update(Action::End);
        assert_eq!(viewer(&app).pos(), total);
        assert!(viewer(&app).at_end());
        app.update(Action::Step(1));
        assert_eq!(viewer(&app).pos(), total, "no step past the end");
        app.update(Action::Home);
        assert_eq!(viewer(&app).pos(), 0);
        app.update(Action::Step(-1));
        assert_eq!(viewer(&app).pos(), 0, "no step before the start");
    }

    #[test]
    fn playing_ticks_only_while_playing_and_stops_at_the_end() {
        let mut app = viewing("naive-happy-path");
        assert_eq!(app.tick_interval(), None, "paused: wait for input for ever");
        app.update(Action::TogglePlay);
        assert_eq!(app.tick_interval(), Some(Duration::from_millis(250)));
        app.update(Action::Faster);
        assert_eq!(app.tick_interval(), Some(Duration::from_millis(125)));
        app.update(Action::Slower);
        app.update(Action::Slower);
        assert_eq!(app.tick_interval(), Some(Duration::from_millis(500)));
        app.update(Action::Tick);
        assert_eq!(viewer(&app).pos(), 1);
        let total = viewer(&app).total();
        for _ in 0..total + 5 {
            app.update(Action::Tick);
        }
        assert_eq!(viewer(&app).pos(), total);
        assert!(!viewer(&app).playing);
        assert_eq!(app.tick_interval(), None);
    }

    #[test]
    fn a_fault_branches_the_run_and_u_goes_back_to_the_original() {
        let mut app = viewing("fenced-gc-pause");
        app.update(Action::Step(3));
        app.update(Action::OpenFaults);
        assert_eq!(app.focus(), Focus::Faults);
        // The first choice pauses the first worker; +1 s makes it 11 s.
        app.update(Action::Longer);
        app.update(Action::Down);
        app.update(Action::Up);
        app.update(Action::Confirm);
        assert_eq!(app.focus(), Focus::Viewer);
        let v = viewer(&app);
        assert!(v.branch.is_some());
        assert_eq!(v.diverged_at, Some(3));
        assert_eq!(v.pos(), 4, "the step that records the change");
        assert_eq!(v.layout.rows[3].label, "A paused for 11000 ms");
        assert_eq!(v.whatifs().len(), 1);
        // The timeline marks where the branch left the original run: just before step 4.
        let v = viewer(&app);
        let grid = timeline::Grid::new(&v.layout, ui::areas(app.size).timeline, None, Some(3));
        let at = grid
            .lines
            .iter()
            .position(|l| matches!(l, timeline::Line::Diverged(_)))
            .expect("a divergence line");
        assert_eq!(grid.lines[at + 1], timeline::Line::Row(3));
        app.update(Action::Original);
        let v = viewer(&app);
        assert!(v.branch.is_none());
        assert_eq!(v.pos(), 3);
        app.update(Action::Original);
        assert!(app.status.as_deref().unwrap().contains("original run"));
    }

    #[test]
    fn turning_fencing_off_breaks_the_fenced_run() {
        let mut app = viewing("fenced-gc-pause");
        app.update(Action::OpenFaults);
        let Overlay::Faults(menu) = &app.overlay else {
            panic!("menu open")
        };
        let fencing = menu
            .choices
            .iter()
            .position(|c| matches!(c, crate::whatif::Choice::Fencing(_)))
            .unwrap();
        // writes -> enforce -> permissive -> off: three branches in a row.
        for _ in 0..3 {
            app.update(Action::OpenFaults);
            for _ in 0..fencing {
                app.update(Action::Down);
            }
            app.update(Action::Confirm);
        }
        assert_eq!(viewer(&app).inspection.db.fencing.as_str(), "off");
        app.update(Action::End);
        assert_eq!(viewer(&app).verdict().outcome, Outcome::DoubleWrite);
        assert_eq!(viewer(&app).diverged_at, Some(0));
    }

    #[test]
    fn help_and_menu_close_and_q_quits() {
        let mut app = viewing("naive-happy-path");
        app.update(Action::ToggleHelp);
        assert_eq!(app.focus(), Focus::Help);
        app.update(Action::Step(1));
        assert_eq!(app.focus(), Focus::Viewer);
        assert_eq!(viewer(&app).pos(), 0, "the key only closed the help");
        app.update(Action::OpenFaults);
        app.update(Action::Back);
        assert_eq!(app.focus(), Focus::Viewer);
        assert!(viewer(&app).branch.is_none());
        app.update(Action::Quit);
        assert!(app.quit);
    }

    #[test]
    fn a_click_on_a_row_jumps_to_its_step_and_the_wheel_scrolls() {
        let mut app = viewing("fenced-gc-pause");
        app.update(Action::End);
        let area = ui::areas(app.size).timeline;
        let v = viewer(&app);
        let grid = timeline::Grid::new(&v.layout, area, v.scroll, v.diverged_at);
        let y = area.y + timeline::HEADER_LINES + 2;
        let expected = v.layout.rows[grid.row_at(2).unwrap()].step;
        app.update(Action::Click(area.x + 5, y));
        assert_eq!(viewer(&app).pos(), expected);
        app.update(Action::End);
        app.update(Action::Scroll(-3));
        let v = viewer(&app);
        let total_lines = v.layout.rows.len();
        assert_eq!(v.scroll, Some(total_lines - grid.height - 3));
        // A click outside the timeline changes nothing.
        app.update(Action::Click(app.size.width - 1, 0));
        assert_eq!(viewer(&app).pos(), viewer(&app).total());
    }

    #[test]
    fn t_toggles_to_scale_time() {
        let mut app = viewing("naive-gc-pause");
        app.update(Action::End);
        // Lines showing time passing between rows.
        let gaps = |app: &App| {
            let v = viewer(app);
            timeline::Grid::new(&v.layout, ui::areas(app.size).timeline, None, None)
                .lines
                .iter()
                .filter(|l| matches!(l, timeline::Line::Gap(_)))
                .count()
        };
        let logical = gaps(&app);
        app.update(Action::ToggleTimeMode);
        assert_eq!(viewer(&app).time_mode, lockstep_render::TimeMode::ToScale);
        let scaled = gaps(&app);
        // To scale a second is ~40 px of the layout (the picture fits a slide), a terminal
        // line 24 px, and each row keeps its own line: the pause shows as several lines of
        // time passing, where logical time has none.
        assert!(
            scaled >= logical + 5,
            "the 10 s pause takes room: {scaled} gap lines to scale, {logical} logical"
        );
    }

    #[test]
    fn e_exports_the_view_and_says_where() {
        let dir = std::env::temp_dir().join(format!("lockstep-tui-export-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut app = viewing("fenced-gc-pause");
        app.export_dir = dir.clone();
        app.update(Action::Step(5));
        app.update(Action::ExportSvg);
        let status = app.status.clone().unwrap();
        let path = dir.join("lockstep-fenced-gc-pause-step-5.svg");
        assert!(
            status.starts_with("wrote ") && status.contains("step-5.svg"),
            "{status}"
        );
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(
            svg.starts_with("<svg") || svg.starts_with("<?xml"),
            "{}",
            &svg[..40]
        );
        app.export_dir = dir.join("missing").join("dir");
        app.update(Action::ExportSvg);
        assert!(app.status.clone().unwrap().starts_with("export failed"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
