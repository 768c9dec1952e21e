//! The rules, grouped by what they read. Each is a plain function over the
//! workspace; `lint::registry` lists them with their codes.

pub mod config;
pub mod deps;
pub mod files;
pub mod frontmatter;
pub mod plan;
pub mod project;
pub mod roadmap;
pub mod state;
