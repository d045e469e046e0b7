//! `lockstep explore`: a sweep over parameter ranges (`--vary`), or with no `--vary` a bounded
//! search over fault schedules, with the counterexample shrunk and written as a scenario file.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use lockstep_core::Scenario;
use lockstep_core::scenario::{FaultKind, FencingMode, Outcome};
use lockstep_explore::duration::{format_ms, parse_ms};
use lockstep_explore::search::{
    Bounds, Kinds, Progress, Search, counterexample_toml, describe_fault, describe_schedule,
    inapplicable, shrink,
};
use lockstep_explore::{Axis, RunOutcome, Sweep};

use super::Ctx;
use crate::error::CliError;
use crate::load::load;

/// The exit statuses, as `explore --help` states them.
const EXIT_STATUS: &str = "\
Exit status:
  0  no double write: the search covered its bounds, or no sweep combination double-writes
  1  a double write found (also when the output pipe closes early, e.g. `| head -1`)
  2  bad input (scenario, option or file)
  3  inconclusive: the search stopped at its state limit (--max-states) before covering its bounds";

/// Search for fault schedules that make a payout apply twice, or sweep parameters and map where it does.
///
/// Without --vary: a bounded breadth-first search over fault schedules (pauses, crashes,
/// restarts, clock jumps, failover) and same-instant delivery orders; the first double write
/// found has as few faults as any within the bounds, and is shrunk and can be written as a
/// scenario file (-o). Partitions, message delays and drops are not searched. With --vary: a
/// sweep of the scenario over parameter ranges, with its own faults.
#[derive(Debug, clap::Args)]
#[command(after_help = EXIT_STATUS)]
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
    /// Search: at most this many faults per schedule [default: 2].
    #[arg(long, value_name = "N")]
    max_faults: Option<usize>,
    /// Search: the kinds of fault to try (comma-separated): pause, crash, restart, clock-jump,
    /// failover [default: every kind that applies to the scenario].
    #[arg(long, value_name = "KINDS")]
    faults: Option<String>,
    /// Search: pause lengths to try (comma-separated durations), e.g. 1s,5s,10s
    /// [default: ½, 1 and 2 × the lock's TTL].
    #[arg(long, value_name = "DURATIONS")]
    pauses: Option<String>,
    /// Search: faults hit at multiples of this step, e.g. 250ms [default: the fault-free run's
    /// length / 32, rounded up to 50ms].
    #[arg(long, value_name = "DURATION")]
    step: Option<String>,
    /// Search: the last time a fault may hit, e.g. 12s [default: the end of the fault-free run].
    #[arg(long, value_name = "DURATION")]
    until: Option<String>,
    /// Search: at most this many times per schedule, where several messages are due at one node
    /// at the same instant, handle another one than the first sent first (0: the sent order only)
    /// [default: 1].
    #[arg(long, value_name = "N")]
    reorders: Option<usize>,
    /// Search: stop after this many distinct states; the answer is then inconclusive (exit 3)
    /// [default: 20000000].
    #[arg(long, value_name = "N")]
    max_states: Option<u64>,
    /// Search: report the counterexample as found, without shrinking it.
    #[arg(long)]
    no_shrink: bool,
}

impl Args {
    /// The search-only options given, by flag, so that a sweep can refuse them.
    fn search_options(&self) -> Vec<&'static str> {
        let given = [
            ("-o", self.output.is_some()),
            ("--max-faults", self.max_faults.is_some()),
            ("--faults", self.faults.is_some()),
            ("--pauses", self.pauses.is_some()),
            ("--step", self.step.is_some()),
            ("--until", self.until.is_some()),
            ("--reorders", self.reorders.is_some()),
            ("--max-states", self.max_states.is_some()),
            ("--no-shrink", self.no_shrink),
        ];
        given
            .into_iter()
            .filter(|(_, g)| *g)
            .map(|(f, _)| f)
            .collect()
    }
}

/// Runs `lockstep explore`; the exit statuses are in [`EXIT_STATUS`]. Output that can no longer
/// be written (a closed pipe) does not change the status: the search's answer is the status.
pub fn exec(args: Args, ctx: &mut Ctx) -> Result<ExitCode, CliError> {
    let mut out = PipeSafe::new(&mut *ctx.out);
    explore(&mut out, &mut *ctx.err, args)
}

/// A writer that, once its reader has gone (a broken pipe), drops further output instead of
/// failing, so that the command still ends with the status of its result.
struct PipeSafe<W> {
    inner: W,
    closed: bool,
}

impl<W: Write> PipeSafe<W> {
    fn new(inner: W) -> Self {
        PipeSafe {
            inner,
            closed: false,
        }
    }

    fn guard<T>(&mut self, done: T, r: std::io::Result<T>) -> std::io::Result<T> {
        match r {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(done)
            }
            other => other,
        }
    }
}

impl<W: Write> Write for PipeSafe<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        let r = self.inner.write(buf);
        self.guard(buf.len(), r)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.closed {
            return Ok(());
        }
        let r = self.inner.flush();
        self.guard((), r)
    }
}

fn explore(out: &mut impl Write, err: &mut dyn Write, args: Args) -> Result<ExitCode, CliError> {
    let scenario = load(&args.scenario)?;
    if args.vary.is_empty() {
        if args.map.is_some() {
            return Err(CliError::Input(
                "--map draws a sweep: give two --vary parameters".into(),
            ));
        }
        search(out, err, &scenario, &args)
    } else {
        if args.output.is_some() {
            return Err(CliError::Input(
                "-o writes a search's counterexample; a sweep (--vary) writes a map with --map"
                    .into(),
            ));
        }
        let refused = args.search_options();
        if !refused.is_empty() {
            return Err(CliError::Input(format!(
                "{} only apply to a search (no --vary); a sweep (--vary) runs the scenario with its own faults at each combination",
                refused.join(", ")
            )));
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

/// Refuses an output path whose directory does not exist before the search, not after it.
fn check_writable(path: &std::path::Path) -> Result<(), CliError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    if dir.is_dir() {
        Ok(())
    } else {
        Err(CliError::Input(format!(
            "-o {}: the directory {} does not exist",
            path.display(),
            dir.display()
        )))
    }
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

fn bounds(err: &mut dyn Write, scenario: &Scenario, args: &Args) -> Result<Bounds, CliError> {
    let mut b = Bounds::for_scenario(scenario);
    if let Some(n) = args.max_faults {
        b.max_faults = n;
    }
    if let Some(n) = args.reorders {
        b.max_reorders = n;
    }
    if let Some(n) = args.max_states {
        b.max_states = n;
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
    let until = match &args.until {
        Some(u) => durations(u)?.first().copied().unwrap_or(0),
        None => b.to_ms,
    };
    b.to_ms = until - until % b.step_ms.max(1);
    b.check().map_err(input)?;
    if b.step_ms > until.saturating_sub(b.from_ms) {
        writeln!(
            err,
            "warning: the step {} is longer than the window {}..{} (--until): faults hit only at {}",
            format_ms(b.step_ms as i64),
            format_ms(b.from_ms as i64),
            format_ms(until as i64),
            format_ms(b.from_ms as i64)
        )?;
    }
    Ok(b)
}

/// Says on stderr what of the scenario the search sets aside, and which requested fault kinds
/// cannot apply to it (and how to make them apply).
fn notes(
    err: &mut dyn Write,
    scenario: &Scenario,
    search: &Search,
    args: &Args,
) -> std::io::Result<()> {
    if args.faults.is_some() {
        for (kind, why) in inapplicable(search.workload(), search.bounds().kinds) {
            writeln!(err, "note: --faults {kind} left out: {why}")?;
        }
    }
    for f in &scenario.faults {
        let (what, unsearched) = match f.kind {
            FaultKind::Partition | FaultKind::Heal | FaultKind::Delay | FaultKind::Drop => (
                f.kind.as_str().to_string(),
                " (and it never partitions the network, delays or drops a message itself)"
                    .to_string(),
            ),
            _ => (describe_fault(f), String::new()),
        };
        writeln!(
            err,
            "note: the scenario's own {what} at {} is set aside: the search picks its own faults{unsearched}",
            format_ms(f.at_ms.unwrap_or(0) as i64)
        )?;
    }
    for o in &scenario.order {
        writeln!(
            err,
            "note: the scenario's own [[order]] entry at {} (to {}) is set aside: the search picks its own delivery orders",
            format_ms(o.at_ms as i64),
            o.to
        )?;
    }
    Ok(())
}

/// How often a search on a terminal says how far it has come.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// Runs the search to its end, `budget` simulator steps at a time; with `every`, says on `err`
/// (one line, rewritten in place, erased at the end) how far it has come at most that often.
fn run_search(
    search: &mut Search,
    err: &mut dyn Write,
    every: Option<std::time::Duration>,
    budget: u64,
) -> std::io::Result<Progress> {
    let started = Instant::now();
    let mut last = started;
    let mut shown = false;
    loop {
        match search.step(budget) {
            Progress::Running(stats) => {
                if let Some(every) = every
                    && last.elapsed() >= every
                {
                    last = Instant::now();
                    write!(
                        err,
                        "\r\x1b[2Ksearching: {} of at most {} states, schedules of {} fault(s), {:.0} s",
                        stats.states,
                        search.bounds().max_states,
                        stats.faults,
                        started.elapsed().as_secs_f64()
                    )?;
                    err.flush()?;
                    shown = true;
                }
            }
            done => {
                if shown {
                    write!(err, "\r\x1b[2K")?;
                }
                return Ok(done);
            }
        }
    }
}

fn search(
    out: &mut impl Write,
    err: &mut dyn Write,
    scenario: &Scenario,
    args: &Args,
) -> Result<ExitCode, CliError> {
    if let Some(path) = &args.output {
        check_writable(path)?;
    }
    let bounds = bounds(err, scenario, args)?;
    let mut search = Search::new(scenario, bounds).map_err(input)?;
    notes(err, scenario, &search, args)?;
    if args.faults.is_some() && search.menu().is_empty() && search.bounds().max_faults > 0 {
        return Err(CliError::Input(format!(
            "none of the fault kinds given to --faults can hit {} (see the notes above); a search without faults would only try delivery orders (say so with --max-faults 0)",
            scenario.name
        )));
    }
    let work = search.workload().clone();
    let names: Vec<&str> = work.workers.iter().map(|w| w.name.as_str()).collect();
    let mut setup = format!("workers {}", names.join(", "));
    if scenario.workers.len() == 1 {
        setup.push_str(&format!(
            " ({} added, a copy of {}, so that someone competes for the lock)",
            names[1], names[0]
        ));
    }
    let mut aside = Vec::new();
    if !scenario.faults.is_empty() {
        aside.push(format!("{} fault(s)", scenario.faults.len()));
    }
    if !scenario.order.is_empty() {
        aside.push(format!("{} [[order]] entry(ies)", scenario.order.len()));
    }
    if !aside.is_empty() {
        setup.push_str(&format!(
            "; the scenario's own {} set aside (see the notes on stderr)",
            aside.join(" and ")
        ));
    }
    writeln!(out, "search of {}: {setup}", scenario.name)?;
    writeln!(out, "bounds:\n{}", search.describe_bounds())?;
    let started = Instant::now();
    let live = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let progress = run_search(&mut search, err, live.then_some(PROGRESS_EVERY), 1 << 16)?;
    let secs = started.elapsed().as_secs_f64();
    let (stats, found) = match &progress {
        Progress::Found(f) => (f.stats, Some(f.schedule())),
        Progress::Exhausted { stats, .. } | Progress::Running(stats) => (*stats, None),
    };
    // A rate over a few milliseconds says nothing.
    let rate = if secs >= 0.05 {
        format!(": {:.0} states/s", stats.states as f64 / secs)
    } else {
        String::new()
    };
    writeln!(
        out,
        "explored {} distinct states ({} simulator steps, replays included; {} runs started, {} delivery-order changes queued) in {secs:.2} s{rate}",
        stats.states, stats.steps, stats.schedules, stats.reorders,
    )?;
    let Some(schedule) = found else {
        if let Some(path) = &args.output {
            writeln!(
                err,
                "note: no counterexample, so nothing was written to {}",
                path.display()
            )?;
        }
        if let Progress::Exhausted {
            complete: false, ..
        } = progress
        {
            writeln!(
                out,
                "inconclusive: stopped at the state limit of {} states (--max-states) before covering the bounds; no double write found so far, but this is not a proof",
                search.bounds().max_states
            )?;
            return Ok(ExitCode::from(3));
        } else {
            writeln!(out, "no double write within these bounds")?;
        }
        return Ok(ExitCode::SUCCESS);
    };
    writeln!(
        out,
        "double write with {} fault(s), as few as any within the bounds, and {} delivery-order choice(s) (the search stops at the first one it finds):",
        schedule.faults.len(),
        schedule.orders.len()
    )?;
    for line in describe_schedule(&schedule) {
        writeln!(out, "  {line}")?;
    }
    if scenario.expect == Outcome::Safe {
        let why = if scenario.resource.fencing == FencingMode::Writes {
            "; its fencing checks writes only, so both workers can read \"unpaid\" before either writes"
        } else {
            ""
        };
        writeln!(
            out,
            "note: {} expects safe, which holds only for its own faults and timing: this schedule double-writes{why}",
            scenario.name
        )?;
    }
    let final_schedule = if args.no_shrink {
        schedule
    } else {
        let small = shrink(&work, &schedule, search.bounds().to_ms);
        writeln!(
            out,
            "shrunk (fewer faults and order choices, shorter pauses with a margin, faults as late as they can be):"
        )?;
        for line in describe_schedule(&small) {
            writeln!(out, "  {line}")?;
        }
        let ties = small
            .orders
            .iter()
            .filter(|o| !schedule.orders.contains(o))
            .count();
        if ties > 0 {
            writeln!(
                out,
                "  it hangs on {ties} same-instant tie(s): the order the run took is written as [[order]] entries above; the other order is safe"
            )?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_search_says_how_far_it_has_come_and_erases_it_at_the_end() {
        let scenario = lockstep_core::catalogue::load("fenced-every-access")
            .unwrap()
            .unwrap();
        let mut bounds = Bounds::for_scenario(&scenario);
        bounds.kinds = Kinds::parse("pause").unwrap();
        bounds.max_faults = 1;
        let mut search = Search::new(&scenario, bounds.clone()).unwrap();
        let mut err = Vec::new();
        let every = Some(std::time::Duration::ZERO);
        let done = run_search(&mut search, &mut err, every, 100).unwrap();
        assert!(matches!(done, Progress::Exhausted { complete: true, .. }));
        let text = String::from_utf8(err).unwrap();
        assert!(
            text.contains("searching: ") && text.contains("of at most 20000000 states"),
            "{text}"
        );
        assert!(text.ends_with("\r\x1b[2K"), "{text:?}");
        // Off a terminal, nothing.
        let mut search = Search::new(&scenario, bounds).unwrap();
        let mut err = Vec::new();
        run_search(&mut search, &mut err, None, 100).unwrap();
        assert!(err.is_empty());
    }
}
