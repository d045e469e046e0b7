//! A node's note on the lease chart sits on the lane of the node it is about: the new leader
//! says "node-1's 1 uncommitted entry will be overwritten", and node-1's lane is where it goes.

mod common;

use lockstep_core::topology::Role;
use lockstep_render::lease::svg::LeasePage;
use lockstep_render::lease::{IncidentKind, lease_chart};
use lockstep_render::{Caption, Options};

#[test]
fn the_overwritten_entry_is_told_on_node_1s_lane() {
    let (scenario, run) = common::load("consensus-isolated-leader");
    let chart = lease_chart(&run.trace, &Options::default());
    let note = chart
        .incidents
        .iter()
        .find(|i| i.text.contains("uncommitted entry will be overwritten"))
        .expect("the overwritten entry is told");
    assert_eq!(note.node, "node-1", "{note:?}");
    // Drawn in node-1's band, under its lane's line and above node-2's.
    let caption = Caption::for_run(&scenario, &run);
    let page = LeasePage::new(&chart, &caption);
    let y_of = |text: &str| {
        page.texts
            .iter()
            .find(|t| t.text.text == text)
            .map(|t| t.text.rect.center().y)
            .unwrap_or_else(|| panic!("no {text:?} drawn"))
    };
    let lane = |name: &str| {
        page.texts
            .iter()
            .filter(|t| t.text.text == name)
            .map(|t| t.text.rect.center().y)
            .next_back()
            .unwrap_or_else(|| panic!("no lane {name}"))
    };
    let y = y_of("node-1's 1 uncommitted entry will be overwritten");
    assert!(
        lane("node-1") < y && y < lane("node-2"),
        "the note at y {y}"
    );
}

#[test]
fn every_note_a_node_makes_about_another_node_is_on_that_nodes_lane() {
    let mut checked = 0;
    for (id, _, run) in common::catalogue() {
        let chart = lease_chart(&run.trace, &Options::default());
        let ps = &run.trace.participants;
        for e in &run.trace.events {
            let from = &ps[usize::from(e.from)].name;
            let Some(about) = ps
                .iter()
                .filter(|p| p.role.is_lock_service() || p.role == Role::Database)
                .find(|p| p.name != *from && e.label.starts_with(&format!("{}'s ", p.name)))
            else {
                continue;
            };
            let Some(inc) = chart
                .incidents
                .iter()
                .find(|i| i.kind == IncidentKind::Service && i.text.ends_with(&e.label))
            else {
                continue;
            };
            checked += 1;
            assert_eq!(inc.node, about.name, "{id}: {:?} said by {from}", e.label);
        }
    }
    assert!(checked >= 1, "no note about another node");
}
