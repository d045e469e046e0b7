//! Prints the layout of a built-in scenario: `cargo run -p lockstep-render --example describe -- ID [scale] [STEP]`.

use lockstep_render::{Options, TimeMode, layout};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let id = args.first().map_or("fenced-gc-pause", String::as_str);
    let Some(Ok(scenario)) = lockstep_core::catalogue::load(id) else {
        eprintln!("no built-in scenario {id}");
        std::process::exit(2);
    };
    let run = lockstep_core::run(&scenario);
    let options = Options {
        time_mode: if args.iter().any(|a| a == "scale") {
            TimeMode::ToScale
        } else {
            TimeMode::Logical
        },
        upto_step: args.iter().skip(1).find_map(|a| a.parse().ok()),
        ..Options::default()
    };
    let l = layout(&run.trace, &options);
    print!("{}", l.describe());
    println!("overlapping labels: {:?}", l.overlapping_labels());
}
