//! The URL hash's parsing and writing: every part round-trips, and a mangled one is named.
use super::*;
use lockstep_core::Change;
use lockstep_core::scenario::FencingMode;

#[test]
fn a_full_view_round_trips() {
    let view = View {
        scenario: "my-own".into(),
        source: Some("name = \"my-own\"\n# ünïcode\n".into()),
        step: StepTarget::At(17),
        time_mode: TimeMode::ToScale,
        chart: Chart::Lease,
        whatifs: vec![WhatIf {
            at_step: 4,
            change: Change::SetFencing {
                fencing: FencingMode::Enforce,
            },
        }],
        presenter: true,
        controls: Controls::Full,
        file: Some("my own (2).toml".into()),
        speed: 0,
    };
    let hash = view.to_hash();
    assert!(
        hash.starts_with("#scenario=my-own&step=17&mode=scale&chart=lease&speed=0.5&present=1")
    );
    assert!(hash.ends_with("&file=my%20own%20%282%29.toml"), "{hash}");
    assert_eq!(View::parse(&hash), Ok(Some(view)));
}

#[test]
fn a_play_speed_round_trips_and_a_bad_one_is_named() {
    let v = View::parse("#scenario=fenced-gc-pause&speed=2")
        .unwrap()
        .unwrap();
    assert_eq!(SPEEDS[v.speed], 2.0);
    assert_eq!(v.to_hash(), "#scenario=fenced-gc-pause&speed=2");
    // The default speed is not written.
    assert_eq!(
        View::of("fenced-gc-pause").to_hash(),
        "#scenario=fenced-gc-pause"
    );
    let (view, ignored) = View::parse_keeping("#scenario=fenced-gc-pause&speed=3")
        .unwrap()
        .unwrap();
    assert_eq!(view.speed, DEFAULT_SPEED);
    assert_eq!(
        ignored.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["the link's “speed=3” is not valid: a play speed in steps per second: 0.5, 1, 2, 4 or 8"]
    );
}

#[test]
fn a_bad_file_name_is_named_and_the_scenario_still_opens() {
    let src = pack("name = \"mine\"");
    let (view, ignored) = View::parse_keeping(&format!("#scenario=mine&src={src}&file=a/b"))
        .unwrap()
        .unwrap();
    assert_eq!(view.file_name(), "mine.toml");
    assert_eq!(
        ignored.iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["the link's “file=a/b” is not valid: a file name such as mine.toml"]
    );
}

#[test]
fn the_documented_short_forms_parse() {
    let v = View::parse("#scenario=fenced-gc-pause&step=end")
        .unwrap()
        .unwrap();
    assert_eq!(v.scenario, "fenced-gc-pause");
    assert_eq!(v.step, StepTarget::End);
    assert_eq!(v.time_mode, TimeMode::Logical);
    let v = View::parse("scenario=naive-gc-pause&step=7&controls=none")
        .unwrap()
        .unwrap();
    assert_eq!(v.step, StepTarget::At(7));
    assert_eq!(v.controls, Controls::None);
    assert_eq!(View::parse("#"), Ok(None));
    assert_eq!(View::parse(""), Ok(None));
}

#[test]
fn mangled_hashes_say_which_part_is_wrong() {
    let msg = |h: &str| View::parse(h).unwrap_err().to_string();
    assert!(msg("#scenario=x&step=seven").contains("“step=seven”"));
    assert!(msg("#step=3").contains("no scenario"));
    assert!(msg("#scenario=x&mode=fast").contains("“logical” or “scale”"));
    assert!(msg("#scenario=x&whatif=%%%").contains("“whatif” part is damaged"));
    assert!(msg("#scenario=x&src=AAAA").contains("“src” part is damaged"));
    assert!(msg("#scenario=x&colour=red").contains("unknown part “colour”"));
    assert!(msg("#scenario=x&==??").contains("unknown part “==??”"));
    // The reason reads on from "damaged:" ("damaged: is cut short" had lost its subject).
    assert!(
        msg("#scenario=x&src=AAAA").contains("damaged: it "),
        "{}",
        msg("#scenario=x&src=AAAA")
    );
    assert!(msg("#scenario=<script>").contains("scenario id"));
    // A valid payload that is not what-if JSON.
    let h = format!("#scenario=x&whatif={}", pack("[{\"at_step\":1}]"));
    assert!(msg(&h).contains("not a list of what-if changes"));
}

#[test]
fn an_embed_hash_names_the_step_and_the_controls() {
    let mut v = View::of("fenced-gc-pause");
    assert_eq!(
        v.to_embed_hash(),
        "#scenario=fenced-gc-pause&step=0&controls=minimal"
    );
    v.step = StepTarget::At(12);
    v.controls = Controls::Full;
    assert_eq!(
        v.to_embed_hash(),
        "#scenario=fenced-gc-pause&step=12&controls=full"
    );
    assert_eq!(View::parse(&v.to_embed_hash()), Ok(Some(v)));
}

#[test]
fn every_problem_of_a_hash_is_reported() {
    let e = View::parse("#scenario=nope&step=abc").unwrap_err();
    let msg = e.to_string();
    assert_eq!(e.0.len(), 2, "{msg}");
    assert!(msg.contains("“step=abc”"), "{msg}");
    assert!(msg.contains("no built-in scenario “nope”"), "{msg}");
    // An uploaded scenario's name is not a built-in id, and needs not be.
    let own = format!("#scenario=mine&src={}", pack("name = \"mine\""));
    assert!(View::parse(&own).unwrap().is_some());
    let e = View::parse("#mode=fast&chart=pie").unwrap_err();
    assert_eq!(e.0.len(), 3, "{e}");
    assert_eq!(e.0[2], HashError::NoScenario);
}

#[test]
fn a_misspelt_scenario_names_the_builtins_it_is_closest_to() {
    let msg = View::parse("#scenario=fenced-gc-psuse&step=3")
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("“fenced-gc-psuse”; did you mean “fenced-gc-pause”?"),
        "{msg}"
    );
    // Nothing near: no guess.
    let msg = View::parse("#scenario=zookeeper").unwrap_err().to_string();
    assert!(!msg.contains("did you mean"), "{msg}");
}

#[test]
fn a_bad_step_or_mode_keeps_the_scenario_and_names_each_bad_part() {
    let (view, ignored) = View::parse_keeping("#scenario=fenced-gc-pause&step=abc&mode=weird")
        .unwrap()
        .unwrap();
    assert_eq!(view.scenario, "fenced-gc-pause");
    assert_eq!(view.step, StepTarget::Start);
    assert_eq!(view.time_mode, TimeMode::Logical);
    let msg = HashErrors(ignored.clone()).to_string();
    assert_eq!(ignored.len(), 2, "{msg}");
    assert!(
        msg.contains("step=abc") && msg.contains("mode=weird"),
        "{msg}"
    );
    // The valid parts are kept.
    let (view, ignored) =
        View::parse_keeping("#scenario=naive-gc-pause&step=7&mode=fast&chart=lease")
            .unwrap()
            .unwrap();
    assert_eq!((view.step, view.chart), (StepTarget::At(7), Chart::Lease));
    assert_eq!(ignored.len(), 1);
    // A scenario that cannot be opened still fails, with every problem named.
    let e = View::parse_keeping("#scenario=nope&step=abc").unwrap_err();
    assert_eq!(e.0.len(), 2, "{e}");
    // A damaged what-if opens the run as written and says why, in words for a reader.
    let (view, ignored) = View::parse_keeping("#scenario=fenced-gc-pause&whatif=garbage!!")
        .unwrap()
        .unwrap();
    assert!(view.whatifs.is_empty());
    let msg = HashErrors(ignored).to_string();
    assert!(
        msg.contains("“whatif” part is damaged") && msg.contains("cut or edited"),
        "{msg}"
    );
    // A damaged uploaded scenario is named as the fault, not its id.
    let e = View::parse_keeping("#scenario=my-test&src=AAAAgarbage").unwrap_err();
    assert_eq!(e.0.len(), 1, "{e}");
    assert!(e.to_string().contains("“src” part is damaged"), "{e}");
    assert!(View::parse_keeping("#step=abc").is_err());
    // The strict reading still refuses the link.
    assert!(View::parse("#scenario=fenced-gc-pause&step=abc").is_err());
    // A part given twice: the last is used, and the link says so.
    let (view, ignored) = View::parse_keeping("#scenario=fenced-gc-pause&step=5&step=9")
        .unwrap()
        .unwrap();
    assert_eq!(view.step, StepTarget::At(9));
    assert_eq!(ignored, vec![HashError::Repeated("step".into())]);
}

#[test]
fn percent_escapes_are_decoded() {
    let v = View::parse("#scenario%3Dx").unwrap_err();
    assert!(matches!(v.0[0], HashError::UnknownKey(_)));
    let v = View::parse("#scenario=fenced%2Dgc-pause").unwrap().unwrap();
    assert_eq!(v.scenario, "fenced-gc-pause");
}

#[test]
fn a_payload_cut_short_says_so_wherever_it_was_cut() {
    // Cut at any length, a packed scenario is either too short to decode or to inflate: a
    // reader is told it was cut, not that it holds characters a link never has.
    let packed = pack(&"name = \"mine\"\n".repeat(20));
    for cut in 1..packed.len() {
        let why = unpack(&packed[..cut]).expect_err("a cut payload");
        assert!(why.contains("cut short"), "cut at {cut}: {why}");
    }
    let edited = format!("{}!{}", &packed[..4], &packed[5..]);
    assert!(unpack(&edited).unwrap_err().contains("never has"));
}

#[test]
fn payload_bombs_are_refused() {
    let big = "a".repeat(MAX_INFLATED + 1);
    assert!(unpack(&pack(&big)).is_err());
}

#[test]
fn a_suggestion_keeps_the_rest_of_the_link() {
    assert_eq!(
        with_scenario(
            "#scenario=fenced-gc-psuse&step=7&controls=full",
            "fenced-gc-pause"
        ),
        "#scenario=fenced-gc-pause&step=7&controls=full"
    );
    assert_eq!(
        with_scenario("#step=7&scenario=x", "naive-gc-pause"),
        "#step=7&scenario=naive-gc-pause"
    );
    assert_eq!(
        with_scenario("", "naive-gc-pause"),
        "#scenario=naive-gc-pause"
    );
}
