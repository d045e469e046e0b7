//! The app's state and how each [`Action`] changes it. Nothing here touches the terminal, so
//! every transition is tested without one.

use std::path::{Path, PathBuf};
use std::time::Duration;

use lockstep_core::{Scenario, catalogue};
use lockstep_render::{Caption, draw_timeline};
use ratatui::layout::Rect;

use crate::action::{Action, Focus};
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
            (Screen::Picker, _) => Focus::Picker,
            (Screen::Viewer, Overlay::Help) => Focus::Help,
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
        }
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
        verdict: Some(v.verdict()),
    };
    let svg = draw_timeline(&v.layout, &caption).map_err(|e| e.to_string())?;
    let branch = if v.branch.is_some() { "-what-if" } else { "" };
    let name = format!("lockstep-{}{branch}-step-{}.svg", v.scenario.name, v.pos());
    let path = dir.join(name);
    std::fs::write(&path, svg).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(std::path::absolute(&path).unwrap_or(path))
}
