//! Whole screens at 120x40 (and 80x24, and too small) through ratatui's TestBackend, as insta
//! snapshots of the text on screen.

use lockstep_core::{Tag, catalogue};
use lockstep_tui::App;
use lockstep_tui::action::Action;
use lockstep_tui::app::Overlay;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn screen(app: &mut App, w: u16, h: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    terminal
        .draw(|f| {
            app.size = f.area();
            f.render_widget(&*app, f.area());
        })
        .unwrap();
    let buf = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut line = String::new();
        for x in 0..buf.area.width {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The app viewing `id` at the first step whose event matches `pred`.
fn at(id: &str, pred: impl Fn(&lockstep_core::TraceEvent) -> bool) -> App {
    let scenario = catalogue::load(id).unwrap().unwrap();
    let mut app = App::viewing(scenario);
    let v = app.viewer.as_mut().unwrap();
    let step = v
        .active()
        .full
        .events
        .iter()
        .position(pred)
        .expect("the event happens")
        + 1;
    v.seek(step);
    app
}

fn rejected(e: &lockstep_core::TraceEvent) -> bool {
    matches!(e.tag, Some(Tag::AccessRejected { .. }))
}

#[test]
fn picker() {
    let mut app = App::picker();
    let s = screen(&mut app, 120, 40);
    assert!(s.contains("naive-happy-path"));
    insta::assert_snapshot!(s);
}

#[test]
fn picker_filtered() {
    let mut app = App::picker();
    for c in "redlock".chars() {
        app.update(Action::Type(c));
    }
    let s = screen(&mut app, 120, 40);
    assert!(!s.contains("naive-happy-path"));
    insta::assert_snapshot!(s);
}

#[test]
fn fenced_gc_pause_at_the_rejected_write() {
    let mut app = at("fenced-gc-pause", rejected);
    let s = screen(&mut app, 120, 40);
    assert!(s.contains("rejected — 33 < last_token 34"), "{s}");
    assert!(s.contains('⊘'), "the rejection has its own mark: {s}");
    insta::assert_snapshot!(s);
}

#[test]
fn naive_gc_pause_at_the_second_write() {
    let mut app = at("naive-gc-pause", |e| {
        matches!(e.tag, Some(Tag::Duplicate { .. }))
    });
    let s = screen(&mut app, 120, 40);
    assert!(s.contains('▲'), "the duplicate has its own mark: {s}");
    assert!(s.contains("double-write"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn help_overlay() {
    let mut app = at("fenced-gc-pause", rejected);
    app.update(Action::ToggleHelp);
    let s = screen(&mut app, 120, 40);
    assert!(s.contains("PageDown"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn fault_menu() {
    let scenario = catalogue::load("naive-gc-pause").unwrap().unwrap();
    let mut app = App::viewing(scenario);
    app.update(Action::Step(3));
    app.update(Action::OpenFaults);
    assert!(matches!(app.overlay, Overlay::Faults(_)));
    let s = screen(&mut app, 120, 40);
    assert!(s.contains("pause A for 10 s"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn a_branched_what_if_run() {
    let scenario = catalogue::load("redlock-happy-path").unwrap().unwrap();
    let mut app = App::viewing(scenario);
    app.update(Action::Step(20));
    app.update(Action::OpenFaults);
    app.update(Action::Confirm);
    app.update(Action::End);
    let s = screen(&mut app, 120, 40);
    // Step 20 delivers the last OK to A, whose reaction goes on to step 23 (its status read):
    // the pause lands after it.
    assert!(
        s.contains("what-if branch from step 23: step 23: pause A"),
        "{s}"
    );
    assert!(s.contains("double-write"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn fenced_gc_pause_at_80x24() {
    let mut app = at("fenced-gc-pause", rejected);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("⊘"), "{s}");
    assert!(!s.contains("too small"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn too_small() {
    let mut app = at("fenced-gc-pause", rejected);
    let s = screen(&mut app, 60, 20);
    assert!(s.contains("needs at least 80x24"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn search_progress_overlay() {
    let mut app = App::viewing(catalogue::load("naive-happy-path").unwrap().unwrap());
    let _worker = app.start_search().expect("the search starts");
    // Fixed figures: the real ones depend on the machine's speed.
    let running = app.search.as_mut().unwrap();
    running.stats = lockstep_explore::search::Stats {
        states: 12_345,
        steps: 40_000,
        schedules: 321,
        faults: 1,
        ..Default::default()
    };
    running.rate = 250_000;
    let s = screen(&mut app, 120, 40);
    assert!(s.contains("states explored"), "{s}");
    assert!(s.contains("Esc cancels"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn counterexample_found_by_x() {
    let mut app = App::viewing(catalogue::load("naive-happy-path").unwrap().unwrap());
    app.start_search().expect("the search starts").run();
    app.poll_search();
    // Step past the first fault: it is drawn as a highlighted note.
    let v = app.viewer.as_mut().unwrap();
    let fault = v
        .active()
        .full
        .events
        .iter()
        .position(|e| e.kind == lockstep_core::EventKind::Fault)
        .expect("the counterexample has a fault");
    v.seek(fault + 2);
    let s = screen(&mut app, 120, 40);
    assert!(s.contains("naive-happy-path-counterexample"), "{s}");
    assert!(
        s.contains("counterexample found from naive-happy-path"),
        "{s}"
    );
    assert!(s.contains("A paused for"), "{s}");
    // ... in the fault colours.
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).unwrap();
    terminal.draw(|f| f.render_widget(&app, f.area())).unwrap();
    let buf = terminal.backend().buffer();
    let row = s.lines().position(|l| l.contains("A paused for")).unwrap() as u16;
    let fault = lockstep_tui::ui::theme::fault_note();
    assert!(
        (0..120).any(|x| buf[(x, row)].bg == fault.bg.unwrap()),
        "the fault note is highlighted"
    );
    insta::assert_snapshot!(s);
}
