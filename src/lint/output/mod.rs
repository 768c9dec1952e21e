//! Renderers over the one `Diagnostic` type: human (miette), json, github
//! workflow annotations and SARIF 2.1.0. Each returns a string; printing is
//! the CLI's job.

pub mod github;
pub mod human;
pub mod json;
pub mod sarif;
