//! Task interchange. Every format goes through one task model (`ConvTask`).
//! So far: GSD `<task>` XML (a whole PLAN.md or a bare fragment) and MSW
//! task JSON; a GSD → MSW → GSD round trip reproduces the tasks block byte
//! for byte, because the MSW side carries GSD's layout (attribute order and
//! quoting, child order, whitespace) in a `gsd` object.

pub mod escape;
pub mod gsd_xml;
pub mod msw;

use serde::{Deserialize, Serialize};

/// How one child of a GSD task was written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChildLayout {
    pub name: String,
    /// The start tag as written (`<verify>`).
    pub start_tag: String,
    /// Blank text before and after the content (the content is trimmed).
    pub lead: String,
    pub trail: String,
    /// Text before this child (after the previous one or the start tag).
    pub gap: String,
    /// `files` as written, when the list is the same as split from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<String>,
}

/// Everything needed to write a task back exactly as it was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    pub start_tag: String,
    pub children: Vec<ChildLayout>,
    /// Text after the last child, before `</task>`.
    pub tail: String,
    /// Text between the previous task (or the block start) and this one.
    pub before: String,
}

/// One task, in the model every format converts through.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ConvTask {
    pub id: String,
    pub name: String,
    pub files: Vec<String>,
    pub action: String,
    pub verify: String,
    pub done: String,
    /// GSD task type (`auto`, `checkpoint:human-verify`, …).
    #[serde(rename = "type", default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Other start-tag attributes, in order (`tdd`, `gate`, …).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attributes: Vec<(String, String)>,
    /// Other children (`behavior`, `what-built`, …), in order, verbatim.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<(String, String)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gsd: Option<Layout>,
}

/// Why a conversion failed (all are input problems: exit 2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConvertError {
    #[error("not valid JSON: {message} (line {line}, column {column})")]
    Json {
        message: String,
        line: usize,
        column: usize,
    },
    #[error("task {index} has no name")]
    NoName { index: usize },
    #[error("the input is empty")]
    Empty,
    #[error("unknown format `{0}`")]
    UnknownFormat(String),
    #[error("{0}")]
    Other(String),
}

/// The formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    GsdXml,
    MswJson,
}

impl Format {
    pub const ALL: &'static [(&'static str, Format)] =
        &[("gsd-xml", Format::GsdXml), ("msw-json", Format::MswJson)];

    pub fn parse(s: &str) -> Result<Format, ConvertError> {
        Format::ALL
            .iter()
            .find(|(n, _)| *n == s)
            .map(|(_, f)| *f)
            .ok_or_else(|| ConvertError::UnknownFormat(s.to_owned()))
    }

    /// Guess from the content: JSON arrays are MSW tasks; `<task` is GSD.
    pub fn detect(text: &str) -> Result<Format, ConvertError> {
        let t = text.trim_start_matches('\u{feff}').trim_start();
        if t.is_empty() {
            return Err(ConvertError::Empty);
        }
        if t.starts_with('[') || t.starts_with('{') {
            return Ok(Format::MswJson);
        }
        if t.contains("<task") {
            return Ok(Format::GsdXml);
        }
        Err(ConvertError::Other(
            "cannot tell the input's format; pass --from".into(),
        ))
    }
}
