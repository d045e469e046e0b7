//! Helpers the golden-number model tests share: run a scenario written inline, and check that
//! lines appear in order and that others never appear.

use lockstep_core::{Run, parse_scenario, run};

/// Runs a scenario whose text is `head` followed by `body`; a parse error names the text.
pub fn run_text(head: &str, body: &str) -> Run {
    let text = format!("{head}{body}");
    let s = parse_scenario("test.toml", text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    run(&s)
}

/// Each of `expect` appears in `lines`, in that order; no line contains any of `absent`.
pub fn check_in_order(lines: &[String], expect: &[&str], absent: &[&str]) {
    let mut at = 0;
    for want in expect {
        match lines[at..].iter().position(|l| l == want) {
            Some(i) => at += i + 1,
            None => panic!("missing {want:?} (in order) in:\n{}", lines.join("\n")),
        }
    }
    for not in absent {
        assert!(
            !lines.iter().any(|l| l.contains(not)),
            "unexpected {not:?} in:\n{}",
            lines.join("\n")
        );
    }
}

/// The run's events as "time label", the form golden lines are written in.
#[allow(dead_code)] // not every test file reads events this way
pub fn lines(r: &Run) -> Vec<String> {
    r.trace
        .events
        .iter()
        .map(|e| format!("{} {}", e.time_ms, e.label))
        .collect()
}

/// The explanation of the event `label` at `time_ms`, or "" when there is none.
#[allow(dead_code)] // not every test file reads explanations
pub fn explanation<'r>(r: &'r Run, time_ms: u64, label: &str) -> &'r str {
    r.trace
        .events
        .iter()
        .find(|e| e.time_ms == time_ms && e.label == label)
        .map_or("", |e| e.explanation.as_str())
}

/// The header of an inline scenario that expects `safe`.
#[allow(dead_code)] // not every test file writes scenarios inline
pub const HEAD: &str = "name = \"t\"\ntitle = \"t\"\nsummary = \"s\"\nexpect = \"safe\"\n";

/// Three consensus nodes; A holds the lock for 4 s; B asks at 100 ms and is cut off from node-1
/// at 50 ms. `client` goes into each worker (`on_suspended` makes it ZooKeeper-style); `extra`
/// adds faults, links and options.
#[allow(dead_code)] // not every test file uses this cast
pub fn two(client: &str, extra: &str) -> String {
    format!(
        "seed = 1\n[lock]\nkind = \"consensus\"\nttl_ms = 6000\nfirst_token = 33\nnodes = 3\n\
         [[workers]]\nname = \"A\"\nwork_ms = 4000\nrenew_every_ms = 1000\n{client}\
         [[workers]]\nname = \"B\"\nstart_ms = 100\nwork_ms = 500\nrenew_every_ms = 1000\n{client}\
         [[faults]]\nat_ms = 50\nkind = \"partition\"\ngroups = [[\"B\"], [\"node-1\"]]\n{extra}"
    )
}

/// Two ZooKeeper-style clients; A's delete never reaches node-2, and node-1's machine fails at
/// 4012 ms, just as B sends its own delete there, and restarts at 4500 ms.
#[allow(dead_code)] // not every test file uses this cast
pub fn zk_delete_to_failed_host() -> String {
    let zk = "on_suspended = \"continue\"\n";
    format!(
        "seed = 1\n[lock]\nkind = \"consensus\"\nttl_ms = 6000\nfirst_token = 33\nnodes = 3\n\
         [[workers]]\nname = \"A\"\nwork_ms = 4000\nrenew_every_ms = 1000\n{zk}\
         [[workers]]\nname = \"B\"\nstart_ms = 100\nwork_ms = 500\nrenew_every_ms = 1000\n{zk}\
         [[faults]]\nkind = \"drop\"\nmatch = \"append: delete lock:batch-42/1\"\nto = \"node-2\"\n\
         [[faults]]\nat_ms = 4012\nkind = \"crash\"\ntarget = \"node-1\"\nhost = true\n\
         [[faults]]\nat_ms = 4500\nkind = \"restart\"\ntarget = \"node-1\"\n"
    )
}

/// Three consensus nodes; B is cut off from node-1 and node-2 at 50 ms; A's delete never reaches
/// node-2 and node-3 misses two `commit:`s; node-1's machine fails at 4012 ms and node-2's at
/// 4411 ms, as node-3 wins term 2 with node-2's vote, so node-3 never hears from a majority.
/// `extra` adds faults, links and options.
#[allow(dead_code)] // not every test file uses this cast
pub fn leader_without_quorum(extra: &str) -> String {
    format!(
        "seed = 1\n[lock]\nkind = \"consensus\"\nttl_ms = 6000\nfirst_token = 33\nnodes = 3\n\
         [[workers]]\nname = \"A\"\nwork_ms = 4000\nrenew_every_ms = 1000\n\
         [[workers]]\nname = \"B\"\nstart_ms = 100\nwork_ms = 500\nrenew_every_ms = 1000\n\
         [[faults]]\nat_ms = 50\nkind = \"partition\"\ngroups = [[\"B\"], [\"node-1\", \"node-2\"]]\n\
         [[faults]]\nkind = \"drop\"\nmatch = \"append: delete lock:batch-42/1\"\nto = \"node-2\"\n\
         [[faults]]\nkind = \"drop\"\nmatch = \"commit:\"\nto = \"node-3\"\n\
         [[faults]]\nkind = \"drop\"\nmatch = \"commit:\"\nto = \"node-3\"\n\
         [[faults]]\nat_ms = 4012\nkind = \"crash\"\ntarget = \"node-1\"\nhost = true\n\
         [[faults]]\nat_ms = 4411\nkind = \"crash\"\ntarget = \"node-2\"\nhost = true\n{extra}"
    )
}
