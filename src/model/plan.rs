//! PLAN.md: typed frontmatter (GSD-FORMATS §2.2–2.4), tasks and sections.
//!
//! Every field keeps the YAML node it came from (and so its span); unknown
//! keys are kept in `extra`, never dropped. Values of the wrong type are
//! recorded in `type_errors` for the linter instead of being coerced away.

use serde::Serialize;

use crate::doc::Span;
use crate::doc::elements::{self, Element, Opaque, TagProblem};
use crate::doc::yaml::{Node, Value};

use super::document::Document;
use super::ids::PlanId;
use super::task::Task;

/// The keys of the plan schema, in template order.
pub const PLAN_KEYS: &[&str] = &[
    "phase",
    "plan",
    "type",
    "wave",
    "depends_on",
    "files_modified",
    "autonomous",
    "requirements",
    "user_setup",
    "must_haves",
    "gap_closure",
    "objective",
];

/// Keys `verify plan-structure` requires.
pub const REQUIRED_KEYS: &[&str] = &[
    "phase",
    "plan",
    "type",
    "wave",
    "depends_on",
    "files_modified",
    "autonomous",
    "must_haves",
];

/// A must_haves artifact, in map or string form.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Artifact {
    Path(String),
    Spec {
        path: Option<String>,
        provides: Option<String>,
        min_lines: Option<i64>,
        exports: Vec<String>,
        contains: Option<String>,
    },
}

/// A must_haves key link, in map or string form.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum KeyLink {
    Text(String),
    Spec {
        from: Option<String>,
        to: Option<String>,
        via: Option<String>,
        pattern: Option<String>,
    },
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct MustHaves {
    pub truths: Vec<String>,
    pub artifacts: Vec<Artifact>,
    pub key_links: Vec<KeyLink>,
}

impl MustHaves {
    /// Whether anything here can be checked by a tool (a map artifact or a
    /// key link with a target); truths alone and string items cannot.
    pub fn is_checkable(&self) -> bool {
        self.artifacts
            .iter()
            .any(|a| matches!(a, Artifact::Spec { path: Some(_), .. }))
            || self.key_links.iter().any(|k| {
                matches!(
                    k,
                    KeyLink::Spec {
                        from: Some(_),
                        to: Some(_),
                        ..
                    }
                )
            })
    }

    pub fn is_empty(&self) -> bool {
        self.truths.is_empty() && self.artifacts.is_empty() && self.key_links.is_empty()
    }
}

/// One `user_setup` item.
#[derive(Debug, Clone, Default, Serialize)]
pub struct UserSetup {
    pub service: Option<String>,
    pub why: Option<String>,
    pub env_vars: Vec<serde_json::Value>,
    pub dashboard_config: Vec<serde_json::Value>,
    pub local_dev: Vec<String>,
}

/// A frontmatter value of the wrong type.
#[derive(Debug, Clone)]
pub struct TypeError {
    pub key: String,
    pub expected: &'static str,
    pub span: Span,
}

/// Typed plan frontmatter.
#[derive(Debug, Clone, Default)]
pub struct PlanFrontmatter {
    pub phase: Option<String>,
    pub plan: Option<String>,
    pub plan_type: Option<String>,
    pub wave: Option<i64>,
    pub depends_on: Vec<String>,
    pub files_modified: Vec<String>,
    pub autonomous: Option<bool>,
    pub requirements: Vec<String>,
    pub user_setup: Vec<UserSetup>,
    pub must_haves: Option<MustHaves>,
    pub gap_closure: Option<bool>,
    pub objective: Option<String>,
    /// Keys outside the schema, kept with their nodes.
    pub extra: Vec<(String, Node)>,
    pub type_errors: Vec<TypeError>,
}

impl PlanFrontmatter {
    pub fn from_node(root: &Node) -> Self {
        let mut fm = PlanFrontmatter::default();
        let Some(entries) = root.as_map() else {
            return fm;
        };
        for (k, v) in entries {
            let Some(key) = k.as_str() else { continue };
            match key {
                "phase" => fm.phase = scalar_text(v),
                "plan" => fm.plan = scalar_text(v),
                "type" => fm.plan_type = scalar_text(v),
                "wave" => match v
                    .as_i64()
                    .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
                {
                    Some(w) => fm.wave = Some(w),
                    None => {
                        fm.type_error(key, "an integer", v);
                        // GSD's executor reads `wave: 2a` with parseInt, as
                        // wave 2: the plan runs there, so the wave rules
                        // place it there too.
                        fm.wave = v.as_str().and_then(|s| {
                            let s = s.trim();
                            let n = s.bytes().take_while(u8::is_ascii_digit).count();
                            s[..n].parse().ok()
                        });
                    }
                },
                "depends_on" => fm.depends_on = list(&mut fm.type_errors, key, v),
                "files_modified" | "files-modified" => {
                    fm.files_modified = list(&mut fm.type_errors, key, v)
                }
                "autonomous" => match v.as_bool().or_else(|| v.as_str().and_then(parse_bool)) {
                    Some(b) => fm.autonomous = Some(b),
                    None => fm.type_error(key, "true or false", v),
                },
                "requirements" => fm.requirements = list(&mut fm.type_errors, key, v),
                "gap_closure" => {
                    fm.gap_closure = v.as_bool().or_else(|| v.as_str().and_then(parse_bool))
                }
                "objective" => fm.objective = scalar_text(v),
                "user_setup" => fm.user_setup = user_setup(v),
                "must_haves" => match &v.value {
                    Value::Map(_) => fm.must_haves = Some(must_haves(v)),
                    _ if v.is_null() => fm.must_haves = Some(MustHaves::default()),
                    _ => fm.type_error(key, "a mapping of truths, artifacts and key_links", v),
                },
                _ => fm.extra.push((key.to_owned(), v.clone())),
            }
        }
        fm
    }

    fn type_error(&mut self, key: &str, expected: &'static str, v: &Node) {
        self.type_errors.push(TypeError {
            key: key.to_owned(),
            expected,
            span: v.span,
        });
    }
}

fn parse_bool(s: &str) -> Option<bool> {
    match s.trim() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

fn scalar_text(v: &Node) -> Option<String> {
    if v.is_null() {
        None
    } else {
        v.as_str().map(str::to_owned)
    }
}

fn list(errors: &mut Vec<TypeError>, key: &str, v: &Node) -> Vec<String> {
    match &v.value {
        Value::Map(_) => {
            errors.push(TypeError {
                key: key.to_owned(),
                expected: "a list",
                span: v.span,
            });
            Vec::new()
        }
        _ => v.string_list(),
    }
}

fn opt_str(n: &Node, key: &str) -> Option<String> {
    n.get(key).and_then(scalar_text)
}

fn must_haves(v: &Node) -> MustHaves {
    let seq = |k: &str| v.get(k).and_then(Node::as_seq).unwrap_or(&[]);
    let truths = seq("truths")
        .iter()
        .filter_map(|n| n.as_str().map(str::to_owned))
        .collect();
    let artifacts = seq("artifacts")
        .iter()
        .map(|n| match &n.value {
            Value::Map(_) => Artifact::Spec {
                path: opt_str(n, "path"),
                provides: opt_str(n, "provides"),
                min_lines: n.get("min_lines").and_then(Node::as_i64),
                exports: n.get("exports").map(Node::string_list).unwrap_or_default(),
                contains: opt_str(n, "contains"),
            },
            _ => Artifact::Path(n.as_str().unwrap_or_default().to_owned()),
        })
        .collect();
    let key_links = seq("key_links")
        .iter()
        .map(|n| match &n.value {
            Value::Map(_) => KeyLink::Spec {
                from: opt_str(n, "from"),
                to: opt_str(n, "to"),
                via: opt_str(n, "via"),
                pattern: opt_str(n, "pattern"),
            },
            _ => KeyLink::Text(n.as_str().unwrap_or_default().to_owned()),
        })
        .collect();
    MustHaves {
        truths,
        artifacts,
        key_links,
    }
}

/// The items of the list under `key`, as JSON (empty when absent).
fn json_items(n: &Node, key: &str) -> Vec<serde_json::Value> {
    n.get(key)
        .and_then(Node::as_seq)
        .unwrap_or(&[])
        .iter()
        .map(Node::to_json)
        .collect()
}

fn user_setup(v: &Node) -> Vec<UserSetup> {
    v.as_seq()
        .unwrap_or(&[])
        .iter()
        .map(|n| UserSetup {
            service: opt_str(n, "service"),
            why: opt_str(n, "why"),
            env_vars: json_items(n, "env_vars"),
            dashboard_config: json_items(n, "dashboard_config"),
            local_dev: n
                .get("local_dev")
                .map(Node::string_list)
                .unwrap_or_default(),
        })
        .collect()
}

/// A plan file.
#[derive(Debug, Clone)]
pub struct Plan {
    pub doc: Document,
    /// The ID from the file name (None for a bare `PLAN.md`).
    pub id: Option<PlanId>,
    /// Named like `NN-MM[-slug]-PLAN.md` or `PLAN.md`.
    pub canonical_name: bool,
    pub fm: PlanFrontmatter,
    pub tasks: Vec<Task>,
    pub task_problems: Vec<TagProblem>,
    /// Top-level body blocks: objective, context, tasks, verification, …
    pub sections: Vec<Element>,
    /// `## Task N` / `### Task N` headings (the legacy markdown form).
    pub markdown_tasks: usize,
    /// A TDD `<feature>` block.
    pub feature: Option<Element>,
    pub unclosed_fences: Vec<Span>,
}

impl Plan {
    pub fn parse(doc: Document) -> Plan {
        let name = doc.file_name().to_owned();
        let id = PlanId::parse(&name);
        let canonical_name = name == "PLAN.md" || (id.is_some() && name.ends_with("-PLAN.md"));
        let fm = doc.fm().map(PlanFrontmatter::from_node).unwrap_or_default();
        let text = doc.text();
        let body = doc.body();
        let opaque = Opaque::scan(text, body);
        // One tag scan serves tasks, their children and the body sections.
        let mut all_tags = elements::tags(text, body, &opaque);
        elements::drop_prose_opens(&mut all_tags, text, "task");
        let (task_els, mut task_problems) = elements::named_from_tags(&all_tags, "task");
        TagProblem::find_fence_causes(&mut task_problems, text, &opaque);
        let tasks: Vec<Task> = task_els
            .iter()
            .enumerate()
            .map(|(i, el)| {
                let inner = elements::tags_within(&all_tags, el.content);
                Task::from_element(text, el, i + 1, doc.line_of(el.start_tag.start), inner)
            })
            .collect();
        let (sections, _) = elements::children_from_tags(&all_tags);
        let sections: Vec<Element> = sections.into_iter().filter(|e| e.name != "task").collect();
        let feature = sections.iter().find(|e| e.name == "feature").cloned();
        // The legacy `### Task N` form only matters when there are no XML tasks.
        let markdown_tasks = if tasks.is_empty() && feature.is_none() {
            crate::doc::markdown::Markdown::scan(text, body, doc.line_of(body.start))
                .headings
                .iter()
                .filter(|h| h.level >= 2 && h.text.slice(text).starts_with("Task "))
                .count()
        } else {
            0
        };
        let unclosed_fences = opaque.unclosed_fences.clone();
        Plan {
            doc,
            id,
            canonical_name,
            fm,
            tasks,
            task_problems,
            sections,
            markdown_tasks,
            feature,
            unclosed_fences,
        }
    }

    pub fn section(&self, name: &str) -> Option<&Element> {
        self.sections.iter().find(|e| e.name == name)
    }

    /// The text of a top-level block such as `<objective>`.
    pub fn section_text(&self, name: &str) -> Option<&str> {
        self.section(name)
            .map(|e| e.content.slice(self.doc.text()).trim())
    }

    /// A quick task's plan (`.planning/quick/…`): GSD's quick workflow
    /// names it after the task (`1-PLAN.md`, `260617-tt4-PLAN.md`) and gives
    /// it no phase, wave or dependencies.
    pub fn is_quick(&self) -> bool {
        self.doc.rel_path.iter().any(|c| c == "quick")
    }

    /// The ID to show: from the file name, else from frontmatter.
    pub fn display_id(&self) -> String {
        match &self.id {
            Some(id) => id.canonical(),
            None => match (&self.fm.phase, &self.fm.plan) {
                (Some(ph), Some(pl)) => {
                    let phase = ph.split('-').next().unwrap_or(ph);
                    format!("{phase}-{pl}")
                }
                _ => self.doc.file_name().trim_end_matches(".md").to_owned(),
            },
        }
    }

    /// Whether the plan is executable without a human (missing = true).
    pub fn autonomous(&self) -> bool {
        self.fm.autonomous != Some(false)
    }

    pub fn has_checkpoints(&self) -> bool {
        self.tasks.iter().any(|t| t.kind.is_checkpoint())
    }

    /// The first line of `<objective>`, else the frontmatter objective.
    pub fn objective(&self) -> Option<String> {
        self.section_text("objective")
            .and_then(|t| t.lines().map(str::trim).find(|l| !l.is_empty()))
            .map(str::to_owned)
            .or_else(|| self.fm.objective.clone())
    }

    /// The span to point at for a frontmatter key (its value), else the fence.
    pub fn key_span(&self, key: &str) -> Span {
        if let Some((_, v)) = self.doc.fm().and_then(|m| m.entry(key)) {
            return v.span;
        }
        match self.doc.split.frontmatter() {
            Some(f) => Span::new(f.open.start, f.open.start + 3),
            None => Span::empty(self.doc.body().start),
        }
    }
}
