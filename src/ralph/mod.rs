//! Ralph loops. So far: the behavioural verifier, which decides "done" by
//! running the plan's own checks instead of trusting the model.

pub mod checks;
pub mod doctor;
pub mod guard;
pub mod guidance;
pub mod history;
pub mod hook;
pub mod hook_command;
pub mod hook_io;
pub mod lifecycle;
pub mod report;
pub mod run;
pub mod settings;
pub mod start;
pub mod state;
pub mod verify;
