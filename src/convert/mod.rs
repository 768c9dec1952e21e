//! Task interchange. Every format goes through one task model (`ConvTask`).
//! So far: GSD `<task>` XML (a whole PLAN.md or a bare fragment) and MSW
//! task JSON; a GSD → MSW → GSD round trip reproduces the tasks block byte
//! for byte, because the MSW side carries GSD's layout (attribute order and
//! quoting, child order, whitespace) in a `gsd` object.

pub mod escape;
pub mod gsd_xml;
pub mod loops;
pub mod msw;
pub mod stream;

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
    #[error("not valid JSON: {message}")]
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
    FeatureList,
    TasksMd,
    PrdJson,
    SpecMd,
}

impl Format {
    pub const ALL: &'static [(&'static str, Format)] = &[
        ("gsd-xml", Format::GsdXml),
        ("msw-json", Format::MswJson),
        ("feature-list", Format::FeatureList),
        ("tasks-md", Format::TasksMd),
        ("prd-json", Format::PrdJson),
        ("spec-md", Format::SpecMd),
    ];

    pub fn parse(s: &str) -> Result<Format, ConvertError> {
        Format::ALL
            .iter()
            .find(|(n, _)| *n == s)
            .map(|(_, f)| *f)
            .ok_or_else(|| ConvertError::UnknownFormat(s.to_owned()))
    }

    pub fn name(self) -> &'static str {
        Format::ALL
            .iter()
            .find(|(_, f)| *f == self)
            .map_or("?", |(n, _)| n)
    }

    /// Guess from the content.
    pub fn detect(text: &str) -> Result<Format, ConvertError> {
        let t = text.trim_start_matches('\u{feff}').trim_start();
        if t.is_empty() {
            return Err(ConvertError::Empty);
        }
        if t.starts_with('{') {
            let v: serde_json::Value = serde_json::from_str(t).map_err(|e| ConvertError::Json {
                message: e.to_string(),
                line: e.line(),
                column: e.column(),
            })?;
            return Ok(if v.get("features").is_some() {
                Format::FeatureList
            } else if v.get("userStories").is_some() {
                Format::PrdJson
            } else {
                Format::MswJson
            });
        }
        if t.starts_with('[') {
            return Ok(Format::MswJson);
        }
        if t.contains("<task") {
            return Ok(Format::GsdXml);
        }
        if t.contains("**Do**") || t.contains("**Done when**") || t.contains("**Verify**") {
            return Ok(Format::TasksMd);
        }
        if t.contains("- [ ]") || t.contains("- [x]") {
            return Ok(Format::SpecMd);
        }
        Err(ConvertError::Other(
            "cannot tell the input's format; pass --from".into(),
        ))
    }

    /// Read tasks in this format.
    pub fn read(self, text: &str) -> Result<Vec<ConvTask>, ConvertError> {
        if text.trim_start_matches('\u{feff}').trim().is_empty() {
            return Err(ConvertError::Empty);
        }
        match self {
            Format::GsdXml => gsd_xml::read(text).map(|b| b.tasks),
            Format::MswJson => msw::read(text),
            Format::FeatureList => loops::read_feature_list(text),
            Format::TasksMd => loops::read_tasks_md(text),
            Format::PrdJson => loops::read_prd_json(text),
            Format::SpecMd => loops::read_spec_md(text),
        }
    }

    /// Write tasks in this format (`xml_strict` for `gsd-xml` only).
    pub fn write(self, tasks: &[ConvTask], xml_strict: bool) -> String {
        stream::write_all(self, tasks, xml_strict)
    }

    /// What this format can hold: (fields, attributes, extra children).
    fn holds(
        self,
    ) -> (
        &'static [&'static str],
        &'static [&'static str],
        &'static [&'static str],
    ) {
        match self {
            Format::GsdXml | Format::MswJson => (&["*"], &["*"], &["*"]),
            Format::FeatureList => (
                &["name", "files", "action", "verify", "done"],
                &[
                    "category",
                    "priority",
                    "model",
                    "completed_iteration",
                    "passes",
                ],
                &["step", "notes"],
            ),
            Format::PrdJson => (
                &["name", "action"],
                &["priority", "passes"],
                &["criterion", "notes"],
            ),
            Format::TasksMd => (
                &["name", "files", "action", "verify", "done"],
                &["checked", "parallel", "verify_task"],
                &["commit"],
            ),
            Format::SpecMd => (&["name"], &["checked"], &[]),
        }
    }
}

/// Fields the target format cannot carry, as `task N: field` (for warnings,
/// or an error with `--strict`).
pub fn dropped(tasks: &[ConvTask], to: Format) -> Vec<String> {
    let mut out: Vec<String> = tasks
        .iter()
        .enumerate()
        .flat_map(|(i, t)| dropped_from(t, i + 1, to))
        .collect();
    out.dedup();
    out
}

/// What task number `n` loses in `to` (see [`dropped`]).
pub fn dropped_from(t: &ConvTask, n: usize, to: Format) -> Vec<String> {
    let (fields, attrs, extra) = to.holds();
    if fields == ["*"] {
        return Vec::new();
    }
    let mut out = Vec::new();
    let id_lost = match to {
        Format::TasksMd => !loops::tasks_md_id(&t.id),
        Format::SpecMd => t.id != n.to_string(),
        _ => false,
    };
    if id_lost {
        out.push(format!("task {n}: id {}", t.id));
    }
    for (f, empty) in [
        ("files", t.files.is_empty()),
        ("action", t.action.is_empty()),
        ("verify", t.verify.is_empty()),
        ("done", t.done.is_empty()),
        ("type", t.kind.is_empty() || t.kind == "auto"),
    ] {
        if !empty && !fields.contains(&f) {
            out.push(format!("task {n}: {f}"));
        }
    }
    for (k, _) in &t.attributes {
        if !attrs.contains(&k.as_str()) {
            out.push(format!("task {n}: attribute {k}"));
        }
    }
    for (k, _) in &t.extra {
        if !extra.contains(&k.as_str()) {
            out.push(format!("task {n}: <{k}>"));
        }
    }
    out.dedup();
    out
}
