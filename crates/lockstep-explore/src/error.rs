//! What can go wrong before exploring starts: a malformed `--vary`, a parameter the scenario does
//! not have, bounds that make no sense.

use thiserror::Error;

/// Why a sweep or a search cannot start.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ExploreError {
    /// A `--vary` specification that does not parse.
    #[error("--vary {spec}: {message}")]
    BadRange { spec: String, message: String },
    /// A parameter that this scenario has nothing to vary for.
    #[error("--vary {spec}: {message}")]
    NotInScenario { spec: String, message: String },
    /// The same parameter named twice.
    #[error("--vary {name} is given twice; vary each parameter once")]
    Duplicate { name: String },
    /// Too many combinations to run.
    #[error(
        "the sweep has {combinations} combinations; at most {max} are allowed (use larger steps)"
    )]
    TooLarge { combinations: u128, max: u64 },
    /// A search bound that makes no sense.
    #[error("search bounds: {0}")]
    BadBounds(String),
    /// The map needs exactly two parameters.
    #[error("the safety map draws two parameters, one per axis; this sweep varies {0}")]
    MapAxes(usize),
    /// The scenario itself is not valid.
    #[error("the scenario is not valid: {0}")]
    InvalidScenario(String),
}
