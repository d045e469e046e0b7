//! `lockstep explore`: a sweep over parameter ranges (`--vary`), or with no `--vary` a bounded
//! search over fault schedules, with the counterexample shrunk and written as a scenario file.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use lockstep_core::Scenario;
use lockstep_explore::duration::{format_ms, parse_ms};
use lockstep_explore::search::{
    Bounds, Kinds, Progress, Search, counterexample_toml, describe_schedule, shrink,
};
use lockstep_explore::{Axis, RunOutcome, Sweep};

use super::Ctx;
use crate::error::CliError;
use crate::load::load;

/// Arguments of `lockstep explore`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A built-in scenario id (see `lockstep list`) or the path of a scenario file.
    scenario: String,
    /// Sweep a parameter: NAME=START..END/STEP (end included), e.g. pause=0s..20s/500ms.
    /// NAME: ttl, pause, pause-at, jump, jump-at, failover-at, delay, delay-at. Repeat to combine.
    #[arg(long, value_name = "SPEC")]
    vary: Vec<String>,
    /// Sweep: draw the safety map of the two varied parameters as an SVG file.
    #[arg(long, value_name = "FILE")]
    map: Option<PathBuf>,
    /// Search: write the (shrunk) counterexample as a scenario file.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Search: at most this many faults per schedule.
    #[arg(long, value_name = "N")]
    max_faults: Option<usize>,
    /// Search: the kinds of fault to try (comma-separated): pause, crash, restart, clock-jump, failover.
    #[arg(long, value_name = "KINDS")]
    faults: Option<String>,
    /// Search: pause lengths to try (comma-separated durations), e.g. 1s,5s,10s.
    #[arg(long, value_name = "DURATIONS")]
    pauses: Option<String>,
    /// Search: faults hit at multiples of this step (e.g. 250ms).
    #[arg(long, value_name = "DURATION")]
    step: Option<String>,
    /// Search: the last time a fault may hit (e.g. 12s).
    #[arg(long, value_name = "DURATION")]
    until: Option<String>,
    /// Search: at most this many times per schedule, where several messages are due at one node
    /// at the same instant, handle another one than the first sent first (0: the sent order only).
    #[arg(long, value_name = "N")]
    reorders: Option<usize>,
    /// Search: report the counterexample as found, without shrinking it.
    #[arg(long)]
    no_shrink: bool,
}

/// Runs `lockstep explore`. Exit status: 0 no double write, 1 a double write found, 2 bad input.
pub fn exec(args: Args, ctx: &mut Ctx) -> Result<ExitCode, CliError> {
    explore(&mut ctx.out, args)
}

fn explore(out: &mut impl Write, args: Args) -> Result<ExitCode, CliError> {
    let scenario = load(&args.scenario)?;
    if args.vary.is_empty() {
        if args.map.is_some() {
            return Err(CliError::Input(
                "--map draws a sweep: give two --vary parameters".into(),
            ));
        }
        search(out, &scenario, &args)
    } else {
        if args.output.is_some() {
            return Err(CliError::Input(
                "-o writes a search's counterexample; a sweep (--vary) writes a map with --map"
                    .into(),
            ));
        }
        sweep(out, &scenario, &args)
    }
}

fn input<E: std::fmt::Display>(e: E) -> CliError {
    CliError::Input(e.to_string())
}

fn sweep(out: &mut impl Write, scenario: &Scenario, args: &Args) -> Result<ExitCode, CliError> {
    let axes = args
        .vary
        .iter()
        .map(|spec| Axis::parse(spec))
        .collect::<Result<Vec<_>, _>>()
        .map_err(input)?;
    if args.map.is_some() && axes.len() != 2 {
        return Err(input(lockstep_explore::ExploreError::MapAxes(axes.len())));
    }
    let sweep = Sweep::new(scenario, axes).map_err(input)?;
    let started = Instant::now();
    let result = sweep.run();
    let secs = started.elapsed().as_secs_f64();
    let sizes: Vec<String> = result.axes.iter().map(|a| a.len().to_string()).collect();
    writeln!(
        out,
        "sweep of {}: {} runs ({}) in {secs:.2} s on {} threads",
        scenario.name,
        sweep.len(),
        sizes.join(" x "),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    )?;
    for a in &result.axes {
        writeln!(
            out,
            "  {} = {}..{} every {} ({})",
            a.param.name(),
            format_ms(a.start),
            format_ms(a.end),
            format_ms(a.step),
            a.param.describe()
        )?;
    }
    let counts = result.counts();
    let summary: Vec<String> = RunOutcome::ALL
        .iter()
        .filter_map(|o| counts.get(o).map(|n| format!("{o} {n}")))
        .collect();
    writeln!(out, "outcomes: {}", summary.join(", "))?;
    if let Some((i, problem)) = &result.first_invalid {
        let at: Vec<String> = result
            .axes
            .iter()
            .zip(result.values(*i))
            .map(|(a, v)| a.label(v))
            .collect();
        writeln!(
            out,
            "invalid combinations, e.g. {}: {problem}",
            at.join(" ")
        )?;
    }
    let doubles = result.describe(RunOutcome::DoubleWrite);
    if doubles.is_empty() {
        writeln!(out, "no combination double-writes")?;
    } else {
        writeln!(out, "double-writing combinations:")?;
        for line in &doubles {
            writeln!(out, "  {line}")?;
        }
    }
    if let Some(path) = &args.map {
        let svg = lockstep_render::map::safety_map_svg(&result, &scenario.name).map_err(input)?;
        std::fs::write(path, svg).map_err(|source| CliError::WriteFile {
            path: path.display().to_string(),
            source,
        })?;
        writeln!(out, "safety map written to {}", path.display())?;
    }
    Ok(if doubles.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn durations(text: &str) -> Result<Vec<u64>, CliError> {
    text.split(',')
        .map(|d| {
            let ms = parse_ms(d).map_err(CliError::Input)?;
            u64::try_from(ms)
                .map_err(|_| CliError::Input(format!("`{d}`: a pause cannot be negative")))
        })
        .collect()
}

fn bounds(scenario: &Scenario, args: &Args) -> Result<Bounds, CliError> {
    let mut b = Bounds::for_scenario(scenario);
    if let Some(n) = args.max_faults {
        b.max_faults = n;
    }
    if let Some(n) = args.reorders {
        b.max_reorders = n;
    }
    if let Some(kinds) = &args.faults {
        b.kinds = Kinds::parse(kinds).map_err(input)?;
    }
    if let Some(p) = &args.pauses {
        b.pauses_ms = durations(p)?;
    }
    if let Some(s) = &args.step {
        b.step_ms = durations(s)?.first().copied().unwrap_or(0);
    }
    if let Some(u) = &args.until {
        let until = durations(u)?.first().copied().unwrap_or(0);
        b.to_ms = until - until % b.step_ms.max(1);
    }
    b.check().map_err(input)?;
    Ok(b)
}

fn search(out: &mut impl Write, scenario: &Scenario, args: &Args) -> Result<ExitCode, CliError> {
    let bounds = bounds(scenario, args)?;
    let mut search = Search::new(scenario, bounds).map_err(input)?;
    let work = search.workload().clone();
    let names: Vec<&str> = work.workers.iter().map(|w| w.name.as_str()).collect();
    let mut setup = format!("workers {}", names.join(", "));
    if scenario.workers.len() == 1 {
        setup.push_str(&format!(
            " ({} added, a copy of {}, so that someone competes for the lock)",
            names[1], names[0]
        ));
    }
    if !scenario.faults.is_empty() {
        setup.push_str(&format!(
            "; the scenario's own {} fault(s) set aside",
            scenario.faults.len()
        ));
    }
    writeln!(out, "search of {}: {setup}", scenario.name)?;
    writeln!(out, "bounds:\n{}", search.describe_bounds())?;
    let started = Instant::now();
    let progress = search.run();
    let secs = started.elapsed().as_secs_f64();
    let (stats, found) = match &progress {
        Progress::Found(f) => (f.stats, Some(f.schedule())),
        Progress::Exhausted { stats, .. } | Progress::Running(stats) => (*stats, None),
    };
    writeln!(
        out,
        "explored {} states ({} steps, {} fault schedules, {} runs with a changed delivery order) in {secs:.2} s: {:.0} states/s",
        stats.states,
        stats.steps,
        stats.schedules,
        stats.reorders,
        stats.states as f64 / secs.max(1e-9)
    )?;
    let Some(schedule) = found else {
        if let Progress::Exhausted {
            complete: false, ..
        } = progress
        {
            writeln!(
                out,
                "stopped at the bound of {} states: no double write found, but this is not a proof",
                search.bounds().max_states
            )?;
        } else {
            writeln!(out, "no double write within these bounds")?;
        }
        return Ok(ExitCode::SUCCESS);
    };
    writeln!(
        out,
        "double write with {} fault(s), as few as any within the bounds, and {} delivery-order choice(s):",
        schedule.faults.len(),
        schedule.orders.len()
    )?;
    for line in describe_schedule(&schedule) {
        writeln!(out, "  {line}")?;
    }
    let final_schedule = if args.no_shrink {
        schedule
    } else {
        let small = shrink(&work, &schedule, search.bounds().to_ms);
        writeln!(
            out,
            "shrunk (fewer faults and order choices, shorter pauses, faults as late as they can be):"
        )?;
        for line in describe_schedule(&small) {
            writeln!(out, "  {line}")?;
        }
        small
    };
    if let Some(path) = &args.output {
        let toml =
            counterexample_toml(scenario, &work, &final_schedule).map_err(CliError::Input)?;
        std::fs::write(path, toml).map_err(|source| CliError::WriteFile {
            path: path.display().to_string(),
            source,
        })?;
        writeln!(
            out,
            "counterexample written to {}: lockstep run {}",
            path.display(),
            path.display()
        )?;
    }
    Ok(ExitCode::from(1))
}
