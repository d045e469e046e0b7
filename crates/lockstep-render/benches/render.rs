//! Layout and SVG of long traces: a ~10,000-event trace (naive-gc-pause played 244 times back to
//! back) in both time modes, and a generated 200-worker contention run (~7,000 events, 202 lanes).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use lockstep_core::{Trace, parse_scenario, run};
use lockstep_render::{Caption, Options, TimeMode, draw_timeline, layout};

/// The events of naive-gc-pause repeated until there are at least `events`, each copy later in
/// time than the last and with its own message ids.
fn concatenated(events: usize) -> Trace {
    let scenario = lockstep_core::catalogue::load("naive-gc-pause")
        .and_then(Result::ok)
        .expect("built-in parses");
    let one = run(&scenario).trace;
    let span = one.events.last().map_or(0, |e| e.time_ms) + 1000;
    let ids = one
        .events
        .iter()
        .filter_map(|e| e.message)
        .max()
        .unwrap_or(0)
        + 1;
    let mut trace = Trace {
        participants: one.participants.clone(),
        events: Vec::with_capacity(events + one.events.len()),
    };
    let mut copy = 0;
    while trace.events.len() < events {
        for e in &one.events {
            let mut e = e.clone();
            e.time_ms += copy * span;
            e.message = e.message.map(|m| m + copy * ids);
            trace.events.push(e);
        }
        copy += 1;
    }
    trace
}

/// 200 workers started 400 ms apart contend for one Redis lock; every fourth pauses for 7 s.
fn contention() -> Trace {
    let mut toml = String::from(
        "name = \"render-contention\"\ntitle = \"Many workers contend for one lock\"\n\
         summary = \"A generated long run for the render benchmark.\"\nseed = 7\nexpect = \"double-write\"\n\n\
         [lock]\nkind = \"redis\"\nttl_ms = 5000\n\n[resource]\nfencing = \"off\"\npayouts = 3\namount_cents = 100\n",
    );
    for i in 0..200 {
        toml.push_str(&format!(
            "\n[[workers]]\nname = \"W{i}\"\nstart_ms = {}\nwork_ms = 2000\nretry_ms = 100\nacquire_timeout_ms = 600000\n",
            i * 400
        ));
    }
    for i in (0..200).step_by(4) {
        toml.push_str(&format!(
            "\n[[faults]]\nat_ms = {}\nkind = \"pause\"\ntarget = \"W{i}\"\nduration_ms = 7000\n",
            i * 400 + 500
        ));
    }
    let scenario = parse_scenario("render-contention.toml", toml.as_bytes())
        .expect("generated scenario is valid");
    run(&scenario).trace
}

fn bench(c: &mut Criterion, name: &str, trace: &Trace) {
    let caption = Caption::titled(name);
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    group.throughput(Throughput::Elements(trace.events.len() as u64));
    for (mode, m) in [
        (TimeMode::Logical, "logical"),
        (TimeMode::ToScale, "to-scale"),
    ] {
        let options = Options {
            time_mode: mode,
            ..Options::default()
        };
        let svg = draw_timeline(&layout(trace, &options), &caption).expect("draws");
        println!(
            "{name} {m}: {} events, {} lanes, SVG {} bytes ({:.1} MB)",
            trace.events.len(),
            trace.participants.len(),
            svg.len(),
            svg.len() as f64 / 1e6
        );
        group.bench_function(format!("layout/{m}"), |b| {
            b.iter(|| layout(black_box(trace), &options))
        });
        group.bench_function(format!("layout+svg/{m}"), |b| {
            b.iter(|| draw_timeline(&layout(black_box(trace), &options), &caption))
        });
    }
    group.finish();
}

fn long_trace(c: &mut Criterion) {
    bench(c, "concatenated-10k", &concatenated(10_000));
}

fn many_workers(c: &mut Criterion) {
    bench(c, "contention-200-workers", &contention());
}

criterion_group!(benches, long_trace, many_workers);
criterion_main!(benches);
