//! What "Find a counterexample" searches: the scenario as the viewer shows it, with the what-if
//! changes applied on screen made part of it (a switched fencing mode, TTL or idempotency is the
//! design being searched; what-if faults are set aside, like the scenario's own, for the search
//! to choose its own).

use lockstep_core::Scenario;
use lockstep_explore::search::scenario_as_shown;

use crate::viewer::Viewer;

/// The scenario a search from `viewer` starts from (and its counterexample is built on).
pub fn search_scenario(viewer: &Viewer) -> Scenario {
    scenario_as_shown(
        viewer.scenario(),
        viewer.whatifs(),
        &viewer.full_trace().events,
    )
}

#[cfg(test)]
mod tests {
    use lockstep_core::Change;
    use lockstep_core::scenario::{Fault, FaultKind, FencingMode};
    use lockstep_explore::search::{Bounds, Kinds, Progress, Search};

    use super::*;
    use crate::share::StepTarget;
    use crate::viewer::Source;

    #[test]
    fn the_search_starts_from_the_what_ifs_applied_on_screen() {
        let mut v = Viewer::open(Source::Builtin("fenced-gc-pause".into()), &[]).unwrap();
        assert_eq!(search_scenario(&v), *v.scenario(), "no what-if: the file");
        v.go(StepTarget::At(2));
        v.apply(Change::SetFencing {
            fencing: FencingMode::Enforce,
        })
        .unwrap();
        v.go(StepTarget::At(5));
        v.apply(Change::Fault(Fault {
            target: Some("B".into()),
            duration_ms: Some(800),
            ..Fault::new(FaultKind::Pause)
        }))
        .unwrap();
        let s = search_scenario(&v);
        assert_eq!(s.resource.fencing, FencingMode::Enforce);
        let pause = s.faults.last().unwrap();
        assert_eq!(pause.target.as_deref(), Some("B"));
        assert_eq!(pause.at_ms, Some(v.full_trace().events[4].time_ms));
        // The file's own design breaks under one pause; the one on screen does not.
        let within = |s: &Scenario| {
            let mut b = Bounds::for_scenario(s);
            b.kinds = Kinds::parse("pause").unwrap();
            b.max_faults = 1;
            Search::new(s, b).unwrap().run()
        };
        assert!(matches!(within(v.scenario()), Progress::Found(_)));
        assert!(matches!(
            within(&s),
            Progress::Exhausted { complete: true, .. }
        ));
    }
}
