//! Lossless text: bytes, spans, frontmatter, YAML with spans, pseudo-XML
//! elements and markdown lines. This layer knows nothing about GSD.

pub mod conflict;
pub mod elements;
pub mod excerpt;
pub mod frontmatter;
pub mod markdown;
pub mod source;
pub mod span;
pub mod yaml;
pub mod yaml_fast;

pub use source::{NewlineStyle, Source};
pub use span::{Edit, EditError, Span, apply_edits};
