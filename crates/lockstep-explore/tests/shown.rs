//! A search from a front end searches the scenario as it is shown: what-if changes made while
//! stepping become the scenario's faults and settings.

use lockstep_core::scenario::{Fault, FaultKind, FencingMode};
use lockstep_core::{Change, Session, catalogue};
use lockstep_explore::search::{Bounds, Progress, Search, scenario_as_shown};

#[test]
fn what_ifs_become_the_scenarios_settings_and_faults() {
    let s = catalogue::load("fenced-gc-pause").unwrap().unwrap();
    assert_eq!(s.resource.fencing, FencingMode::Writes);
    let mut session = Session::new(&s);
    session.seek(3);
    session
        .apply(Change::SetFencing {
            fencing: FencingMode::Enforce,
        })
        .unwrap();
    session.seek(6);
    session.apply(Change::SetTtl { ttl_ms: 7000 }).unwrap();
    let pause = Fault {
        target: Some("B".into()),
        duration_ms: Some(1500),
        ..Fault::new(FaultKind::Pause)
    };
    session.apply(Change::Fault(pause)).unwrap();
    session.run_to_end();
    let events = session.events().to_vec();
    let shown = scenario_as_shown(&s, session.whatifs(), &events);
    assert_eq!(shown.resource.fencing, FencingMode::Enforce);
    assert_eq!(shown.lock.ttl_ms, 7000);
    assert_eq!(shown.faults.len(), s.faults.len() + 1);
    let added = shown.faults.last().unwrap();
    assert_eq!(added.kind, FaultKind::Pause);
    assert_eq!(added.target.as_deref(), Some("B"));
    assert_eq!(added.at_ms, Some(events[5].time_ms), "the time of step 6");
    lockstep_core::scenario::check(&shown).unwrap();
    // Nothing changed: the scenario as written.
    assert_eq!(scenario_as_shown(&s, &[], &events), s);
}

#[test]
fn a_search_from_the_shown_scenario_searches_the_design_on_screen() {
    let s = catalogue::load("fenced-gc-pause").unwrap().unwrap();
    let search = |scenario| {
        let mut b = Bounds::for_scenario(scenario);
        b.kinds = lockstep_explore::search::Kinds::parse("pause").unwrap();
        b.max_faults = 1;
        Search::new(scenario, b).unwrap().run()
    };
    // As written (fencing on writes only) one pause breaks it.
    assert!(matches!(search(&s), Progress::Found(_)));
    // With fencing switched to every access by a what-if, the same bounds find nothing.
    let mut session = Session::new(&s);
    session.seek(2);
    session
        .apply(Change::SetFencing {
            fencing: FencingMode::Enforce,
        })
        .unwrap();
    let shown = scenario_as_shown(&s, session.whatifs(), session.events());
    let progress = search(&shown);
    assert!(
        matches!(progress, Progress::Exhausted { complete: true, .. }),
        "{progress:?}"
    );
}
