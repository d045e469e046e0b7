//! The errors of rendering: a step past the end of the run, or plotters failing to draw.

use thiserror::Error;

/// Why a picture could not be drawn.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum RenderError {
    /// `upto_step` names a step the run does not have.
    #[error("step {step} is beyond the end of the run: it has {steps} steps (use 0 to {steps})")]
    StepOutOfRange { step: usize, steps: usize },
    /// The plotters backend reported an error.
    #[error("cannot draw the SVG: {0}")]
    Draw(String),
}

/// Checks that `upto_step` (if any) is within a run of `steps` steps.
pub fn check_step(upto_step: Option<usize>, steps: usize) -> Result<(), RenderError> {
    match upto_step {
        Some(step) if step > steps => Err(RenderError::StepOutOfRange { step, steps }),
        _ => Ok(()),
    }
}
