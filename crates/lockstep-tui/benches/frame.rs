//! Drawing speed: one whole frame (timeline, inspector, explanation, verdict) of a
//! 10,000-event run at 120x40, the layout the viewer makes at each step of it, and the time
//! from start to the picker's first frame.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use lockstep_core::parse_scenario;
use lockstep_tui::App;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// A worker renewing its lease every 250 ms for longer than the run may last: the run stops at
/// its 10,000-event limit, with four lanes like the catalogue's runs.
const LONG_RUN: &str = r#"
name = "tui-bench-long-run"
title = "A long heartbeat"
summary = "A worker renews its lease every 250 ms until the event limit."
seed = 1
expect = "not-processed"

[lock]
kind = "redis"
ttl_ms = 5000

[resource]
fencing = "off"
payouts = 3

[[workers]]
name = "A"
start_ms = 0
work_ms = 5000000
renew_every_ms = 250

[[workers]]
name = "B"
start_ms = 1000
work_ms = 2000
acquire_timeout_ms = 5000000

[limits]
max_time_ms = 6000000
max_events = 10000
"#;

fn bench(c: &mut Criterion) {
    let scenario = parse_scenario("long-run.toml", LONG_RUN.as_bytes()).expect("bench scenario");
    let mut app = App::viewing(scenario);
    let viewer = app.viewer.as_mut().expect("viewing");
    let total = viewer.total();
    assert!(total >= 10_000, "the run has {total} events");
    viewer.seek(total / 2);
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("test backend");
    c.bench_function("frame/10k-event-run-120x40", |b| {
        b.iter(|| {
            terminal
                .draw(|f| f.render_widget(&app, f.area()))
                .expect("draw");
            // Force a full repaint each time: otherwise ratatui only diffs an unchanged buffer.
            terminal.clear().expect("clear");
        })
    });
    c.bench_function("frame/10k-event-run-120x40-widgets-only", |b| {
        let area = ratatui::layout::Rect::new(0, 0, 120, 40);
        b.iter(|| {
            let mut buf = ratatui::buffer::Buffer::empty(area);
            ratatui::widgets::Widget::render(&app, area, &mut buf);
            black_box(buf);
        })
    });
    c.bench_function("frame/10k-event-run-timeline-pane-only", |b| {
        let v = app.viewer.as_ref().expect("viewing");
        let area = lockstep_tui::ui::areas(ratatui::layout::Rect::new(0, 0, 120, 40)).timeline;
        b.iter(|| {
            let mut buf = ratatui::buffer::Buffer::empty(area);
            let t = lockstep_tui::ui::timeline::Timeline {
                layout: &v.layout,
                scroll: None,
                diverged: None,
            };
            ratatui::widgets::Widget::render(t, area, &mut buf);
            black_box(buf);
        })
    });
    c.bench_function("step/10k-event-run-one-step-forward", |b| {
        let v = app.viewer.as_mut().expect("viewing");
        let mut forward = true;
        b.iter(|| {
            v.step_by(if forward { 1 } else { -1 });
            forward = !forward;
        })
    });
    c.bench_function("startup/picker-first-frame-120x40", |b| {
        b.iter(|| {
            let app = App::picker();
            let mut t = Terminal::new(TestBackend::new(120, 40)).expect("test backend");
            t.draw(|f| f.render_widget(&app, f.area())).expect("draw");
            black_box(t);
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
