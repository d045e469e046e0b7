//! The generated stress scenario shared by the benches.

use lockstep_core::{Scenario, parse_scenario};

/// 64 workers: w0 holds the lock for 1000 ms while 63 others retry every millisecond
/// (about 100,000 events).
pub fn stress_scenario() -> Scenario {
    let mut text = String::from(
        "name = \"stress\"\ntitle = \"stress\"\nsummary = \"64 workers contend\"\nexpect = \"safe\"\n\
         [limits]\nmax_events = 1000000\n[lock]\nkind = \"redis\"\nttl_ms = 5000\n",
    );
    for i in 0..64 {
        let work = if i == 0 { 1000 } else { 10 };
        text.push_str(&format!(
            "[[workers]]\nname = \"w{i}\"\nstart_ms = {i}\nwork_ms = {work}\nretry_ms = 1\n"
        ));
    }
    parse_scenario("stress.toml", text.as_bytes()).expect("the stress scenario is valid")
}
