//! lockstep-render
