//! Where a run's scenario came from: a built-in, or a file the user uploaded, pasted or linked
//! (with its text, for the share link, and its warnings).

use std::rc::Rc;

use lockstep_core::Scenario;
#[cfg(not(target_arch = "wasm32"))]
use lockstep_core::scenario::ScenarioError;

/// Where a scenario came from.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    Builtin(String),
    /// A file the user uploaded or pasted: its name, its text (the link carries it) and the
    /// scenario it parsed to (in the browser by the lazily loaded TOML module, see app/own.rs).
    Own {
        file: String,
        toml: String,
        scenario: Rc<Scenario>,
        /// What is legal but unlike a real deployment in it, located (`lockstep` prints the same).
        warnings: Vec<String>,
        /// Where in it the fields a run can report as never applied are: path, line and column
        /// (see `lockstep_core::scenario::unapplied_places`).
        places: Vec<(String, usize, usize)>,
    },
}

impl Source {
    /// Parses a scenario file into an own source (natively; the browser's main module has no TOML
    /// parser and asks web/toml for the scenario instead).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn own(file: &str, toml: &str) -> Result<Source, ScenarioError> {
        let scenario = lockstep_core::parse_scenario(file, toml.as_bytes())?;
        let warnings = lockstep_core::scenario::warnings(file, toml, &scenario)
            .iter()
            .map(ToString::to_string)
            .collect();
        Ok(Source::Own {
            file: file.to_string(),
            toml: toml.to_string(),
            places: lockstep_core::scenario::unapplied_places(toml, &scenario),
            scenario: Rc::new(scenario),
            warnings,
        })
    }
}
