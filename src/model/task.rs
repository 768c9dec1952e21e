//! A `<task>` element of a plan: type, attributes and verbatim children.

use serde::Serialize;

use crate::doc::Span;
use crate::doc::elements::{self, Element};

/// The task kinds GSD knows, plus whatever else users write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TaskType {
    Auto,
    HumanVerify,
    Decision,
    HumanAction,
    /// `type="tdd"`, a non-standard spelling of a TDD task.
    Tdd,
    /// `type="tracer"`: the thin end-to-end slice GSD's planner now puts
    /// first in every plan (an auto task that proves the path works).
    Tracer,
    /// `type="code"`: what GSD's own `template fill plan` writes for each
    /// task of the plan it drafts (1.42.3 and GSD Core 1.14.0 alike); run
    /// as an auto task (batch 32, anshu018+Polymarket).
    Code,
    /// Another `checkpoint:*` kind.
    OtherCheckpoint(String),
    /// Anything else (`manual`, `feature`, …).
    Other(String),
}

impl TaskType {
    pub fn parse(raw: Option<&str>) -> TaskType {
        match raw.map(str::trim) {
            None | Some("") | Some("auto") => TaskType::Auto,
            Some("checkpoint:human-verify") => TaskType::HumanVerify,
            Some("checkpoint:decision") => TaskType::Decision,
            Some("checkpoint:human-action") => TaskType::HumanAction,
            Some("tdd") => TaskType::Tdd,
            Some("tracer") => TaskType::Tracer,
            Some("code") => TaskType::Code,
            Some(s) if s.starts_with("checkpoint") => TaskType::OtherCheckpoint(s.to_owned()),
            Some(s) => TaskType::Other(s.to_owned()),
        }
    }

    pub fn as_str(&self) -> &str {
        match self {
            TaskType::Auto => "auto",
            TaskType::HumanVerify => "checkpoint:human-verify",
            TaskType::Decision => "checkpoint:decision",
            TaskType::HumanAction => "checkpoint:human-action",
            TaskType::Tdd => "tdd",
            TaskType::Tracer => "tracer",
            TaskType::Code => "code",
            TaskType::OtherCheckpoint(s) | TaskType::Other(s) => s,
        }
    }

    pub fn is_checkpoint(&self) -> bool {
        matches!(
            self,
            TaskType::HumanVerify
                | TaskType::Decision
                | TaskType::HumanAction
                | TaskType::OtherCheckpoint(_)
        )
    }

    pub fn is_standard(&self) -> bool {
        !matches!(
            self,
            TaskType::Other(_) | TaskType::OtherCheckpoint(_) | TaskType::Tdd
        )
    }

    /// Children a task of this type must have, and ones it should have.
    pub fn schema(&self) -> (&'static [&'static str], &'static [&'static str]) {
        match self {
            TaskType::Auto
            | TaskType::Tdd
            | TaskType::Tracer
            | TaskType::Code
            | TaskType::Other(_) => (&["name", "action"], &["files", "verify", "done"]),
            TaskType::HumanVerify => (&["what-built", "how-to-verify"], &["resume-signal"]),
            TaskType::Decision => (&["decision", "options"], &["resume-signal"]),
            TaskType::HumanAction => (&["action"], &["resume-signal"]),
            TaskType::OtherCheckpoint(_) => (&[], &["resume-signal"]),
        }
    }
}

impl Serialize for TaskType {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// One child element of a task, with its inner text kept verbatim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Child {
    pub name: compact_str::CompactString,
    /// The element from start tag to end tag.
    #[serde(skip)]
    pub span: Span,
    /// The inner text span.
    #[serde(skip)]
    pub content_span: Span,
    /// The inner text, exactly as written.
    pub content: String,
}

/// A task as written in a plan.
#[derive(Debug, Clone, Serialize)]
pub struct Task {
    /// 1-based position in the plan.
    pub index: usize,
    #[serde(rename = "type")]
    pub kind: TaskType,
    /// The `type` attribute as written (None when absent).
    #[serde(skip)]
    pub type_raw: Option<String>,
    pub attributes: Vec<(String, String)>,
    pub tdd: bool,
    pub gate: Option<String>,
    #[serde(skip)]
    pub span: Span,
    #[serde(skip)]
    pub start_tag: Span,
    #[serde(skip)]
    pub content_span: Span,
    /// 1-based line of the start tag.
    pub line: usize,
    pub children: Vec<Child>,
    /// Known child tags opened but never closed (`<action>` without `</action>`).
    #[serde(skip)]
    pub unclosed_children: Vec<(compact_str::CompactString, Span)>,
}

/// Child names gsd recognises; others are kept but not reported when unclosed.
pub const KNOWN_CHILDREN: &[&str] = &[
    "name",
    "files",
    "action",
    "verify",
    "done",
    "read_first",
    "behavior",
    "implementation",
    "acceptance_criteria",
    "automated",
    "what-built",
    "how-to-verify",
    "resume-signal",
    "decision",
    "context",
    "options",
    "instructions",
    "verification",
];

impl Task {
    /// Build a task from its element and the tags inside it; `line` is the
    /// start tag's line.
    pub fn from_element(
        text: &str,
        el: &Element,
        index: usize,
        line: usize,
        inner_tags: &[elements::Tag],
    ) -> Task {
        let attributes = elements::attributes(el.attr_text(text));
        let attr = |k: &str| {
            attributes
                .iter()
                .find(|(a, _)| a.eq_ignore_ascii_case(k))
                .map(|(_, v)| v.clone())
        };
        let type_raw = attr("type");
        let (found, unmatched) = elements::children_from_tags(inner_tags);
        let children = found
            .iter()
            .map(|c| Child {
                name: c.name.clone(),
                span: c.span(),
                content_span: c.content,
                content: c.content.slice(text).to_owned(),
            })
            .collect();
        // A child tag named in a sentence (`must contain <name> and …`) is
        // prose, not a child left open.
        let unclosed_children = unmatched
            .into_iter()
            .filter(|t| {
                t.kind == elements::TagKind::Open
                    && KNOWN_CHILDREN.contains(&t.name.as_str())
                    && !elements::after_prose(text, t.span.start)
            })
            .map(|t| (t.name, t.span))
            .collect();
        Task {
            index,
            kind: TaskType::parse(type_raw.as_deref()),
            tdd: attr("tdd").is_some_and(|v| v == "true"),
            gate: attr("gate"),
            type_raw,
            attributes,
            span: el.span(),
            start_tag: el.start_tag,
            content_span: el.content,
            line,
            children,
            unclosed_children,
        }
    }

    pub fn child(&self, name: &str) -> Option<&Child> {
        self.children
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name))
    }

    pub fn has(&self, name: &str) -> bool {
        self.child(name).is_some() || (name.eq_ignore_ascii_case("name") && self.name().is_some())
    }

    /// The trimmed text of a child.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.child(name).map(|c| c.content.trim())
    }

    /// `<name>…</name>`, else a `name="…"` (or `title="…"`) attribute:
    /// older and hand-written forms that real plans still use.
    pub fn name(&self) -> Option<&str> {
        self.text("name").or_else(|| {
            ["name", "title"].iter().find_map(|want| {
                self.attributes
                    .iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case(want))
                    .map(|(_, v)| v.as_str())
            })
        })
    }

    /// A label for messages: the name, or "Task N".
    pub fn label(&self) -> String {
        match self.name() {
            Some(n) if !n.is_empty() => n.to_owned(),
            _ => format!("Task {}", self.index),
        }
    }

    /// `<files>` split on commas and line breaks.
    pub fn files(&self) -> Vec<String> {
        split_list(self.text("files").unwrap_or(""))
    }
}

/// Split a comma- or line-separated list, dropping bullets and blanks.
pub fn split_list(s: &str) -> Vec<String> {
    s.split([',', '\n'])
        .map(|p| {
            p.trim()
                .trim_start_matches("- ")
                .trim()
                .trim_matches('`')
                .to_owned()
        })
        .filter(|p| !p.is_empty())
        .collect()
}

/// The commands a `<verify>` text declares: its `<automated>` commands when
/// it has any, else its backticked commands (`cargo test`). Both the Ralph
/// verifier and conversions read checks this way.
pub fn verify_commands(verify: &str) -> Vec<String> {
    let range = Span::new(0, verify.len());
    let opaque = elements::Opaque::scan(verify, range);
    let tags = elements::tags(verify, range, &opaque);
    let (els, _) = elements::children_from_tags(&tags);
    let automated: Vec<String> = els
        .iter()
        .filter(|e| e.name == "automated")
        .map(|e| e.content.slice(verify).trim().to_owned())
        .filter(|c| !c.is_empty())
        .collect();
    if !automated.is_empty() {
        return automated;
    }
    backticked(verify)
}

/// Backticked commands in a piece of text (`cargo test`), one line each.
pub fn backticked(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(a) = rest.find('`') {
        let after = &rest[a + 1..];
        let Some(b) = after.find('`') else { break };
        let cmd = after[..b].trim();
        if !cmd.is_empty() && !cmd.contains('\n') {
            out.push(cmd.to_owned());
        }
        rest = &after[b + 1..];
    }
    out
}
