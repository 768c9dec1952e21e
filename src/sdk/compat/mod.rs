//! Views of the tree the way gsd-sdk 1.42.3 reports it, for JSON parity:
//! its line-based frontmatter reading, its flattened legacy config, and
//! the data tables it ships (model catalog, config key schema). Each view
//! is derived from gsd's own reading or the file text; nothing here writes.

pub mod config;
pub mod fm_lines;
pub mod js;
pub mod js_regex;
pub mod must_haves;
pub mod roadmap_text;
pub mod sanitize;
pub mod state_fields;
