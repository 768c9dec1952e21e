//! ROADMAP.md: milestones, `<details>` blocks, the phase checklist, phase
//! detail sections (goal, depends on, requirements, plan lists) and the
//! progress table — each with the line or span it came from.
//!
//! Tolerates the shapes GSD-FORMATS §4.1 and §4.6 list: heading levels 2–4,
//! `**Goal**:` and `**Goal:**`, `Phase N:` / `Phase N —`, headings inside
//! `<details>`, 4- and 5-column progress tables, `**Plans**: TBD`.

use serde::Serialize;

use crate::doc::Span;
use crate::doc::markdown::{Checkbox, Markdown, label_line};

use super::document::Document;
use super::ids::{PhaseId, PlanId};
use super::requirements::find_req_ids;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MilestoneStatus {
    Shipped,
    InProgress,
    Planned,
    Unknown,
}

#[derive(Debug, Clone, Serialize)]
pub struct Milestone {
    pub version: Option<String>,
    pub title: String,
    pub status: MilestoneStatus,
    pub line: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct DetailsBlock {
    pub summary: String,
    #[serde(skip)]
    pub span: Span,
    pub line: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct ChecklistEntry {
    pub phase: PhaseId,
    pub name: String,
    pub checked: bool,
    #[serde(skip)]
    pub checkbox: Checkbox,
    pub line: usize,
    pub in_details: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct PlanEntry {
    pub id: PlanId,
    pub checked: Option<bool>,
    pub line: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct PhaseDetail {
    pub id: PhaseId,
    pub name: String,
    pub line: usize,
    #[serde(skip)]
    pub section: Span,
    pub goal: Option<String>,
    pub depends_on: Option<String>,
    pub requirements: Vec<String>,
    /// The `**Plans**:` value as written (`2 plans`, `TBD`, `1/2 plans executed`).
    pub plans_label: Option<String>,
    pub plans: Vec<PlanEntry>,
    pub success_criteria: Vec<String>,
    pub in_details: bool,
    /// The version of the milestone heading this phase sits under.
    pub milestone: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ProgressRow {
    pub phase: Option<PhaseId>,
    pub label: String,
    pub plans_complete: Option<(u64, u64)>,
    pub status: String,
    pub completed: String,
    pub line: usize,
    #[serde(skip)]
    pub cells: Vec<Span>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ProgressTable {
    pub columns: Vec<String>,
    pub rows: Vec<ProgressRow>,
    pub line: usize,
}

#[derive(Debug, Clone)]
pub struct Roadmap {
    pub doc: Document,
    pub md: Markdown,
    pub milestones: Vec<Milestone>,
    pub details: Vec<DetailsBlock>,
    pub checklist: Vec<ChecklistEntry>,
    pub phases: Vec<PhaseDetail>,
    pub progress: Option<ProgressTable>,
}

/// `Phase 2.1: Name`, `Phase 3 — Name`, `**Phase 1: Foundation** - base`.
/// Returns the ID and the name.
pub fn parse_phase_title(s: &str) -> Option<(PhaseId, String)> {
    let s = s
        .trim()
        .trim_start_matches("**")
        .trim_start_matches(['✅', '🚧', '📋', ' ']);
    let idx = s.find("Phase ")?;
    if idx > 12 {
        return None;
    }
    let rest = &s[idx + 6..];
    let (id, after) = match PhaseId::parse_prefix(rest) {
        Some((id, after)) => (id, after),
        None => {
            // Custom IDs: `Phase AUTH-FLOW: name`.
            let end = rest.find(':')?;
            (PhaseId::parse(&rest[..end])?, &rest[end..])
        }
    };
    let after_trim = after.trim_start();
    let sep = ["**:", ":**", ":", "—", "–", " - ", "-"]
        .iter()
        .find(|p| after_trim.starts_with(**p));
    if sep.is_none()
        && !(after_trim.is_empty() || after_trim.starts_with("**") || after.starts_with(' '))
    {
        return None;
    }
    let name = match sep {
        Some(p) => &after_trim[p.len()..],
        None => after_trim,
    };
    let name = name.split("**").next().unwrap_or(name);
    let name = name.split(" - ").next().unwrap_or(name);
    let name = name.trim().trim_end_matches("(INSERTED)").trim().to_owned();
    Some((id, name))
}

fn find_version(s: &str) -> Option<String> {
    let b = s.as_bytes();
    for (i, _) in s.match_indices('v') {
        if i > 0 && b[i - 1].is_ascii_alphanumeric() {
            continue;
        }
        let rest = &s[i + 1..];
        let n = rest
            .bytes()
            .take_while(|c| c.is_ascii_digit() || *c == b'.')
            .count();
        let v = rest[..n].trim_end_matches('.');
        if v.contains('.') && v.starts_with(|c: char| c.is_ascii_digit()) {
            return Some(format!("v{v}"));
        }
    }
    None
}

fn status_of(s: &str) -> MilestoneStatus {
    let l = s.to_ascii_lowercase();
    if s.contains('✅') || l.contains("shipped") || l.contains("complete") {
        MilestoneStatus::Shipped
    } else if s.contains('🚧')
        || l.contains("in progress")
        || l.contains("current")
        || l.contains("active")
    {
        MilestoneStatus::InProgress
    } else if s.contains('📋') || l.contains("planned") {
        MilestoneStatus::Planned
    } else {
        MilestoneStatus::Unknown
    }
}

impl Roadmap {
    pub fn parse(doc: Document) -> Roadmap {
        let text = doc.text();
        let body = doc.body();
        let md = Markdown::scan(text, body, doc.line_of(body.start));
        let details = details_blocks(&doc, &md);
        let in_details = |at: usize| details.iter().any(|d| d.span.contains(at));

        let mut milestones = Vec::new();
        let mut checklist = Vec::new();
        for item in &md.list_items {
            let content = item.content.slice(text);
            if let Some(cb) = item.checkbox
                && let Some((phase, name)) = parse_phase_title(content)
            {
                checklist.push(ChecklistEntry {
                    phase,
                    name,
                    checked: cb.checked,
                    checkbox: cb,
                    line: item.line.number,
                    in_details: in_details(item.line.span.start),
                });
                continue;
            }
            if (content.contains("**v")
                || (content.starts_with(['✅', '🚧', '📋']) && find_version(content).is_some()))
                && let Some(version) = find_version(content)
            {
                let title = content
                    .split("**")
                    .nth(1)
                    .unwrap_or(content)
                    .trim()
                    .to_owned();
                milestones.push(Milestone {
                    version: Some(version),
                    title,
                    status: status_of(content),
                    line: item.line.number,
                });
            }
        }
        let milestone_headings: Vec<(usize, String, &crate::doc::markdown::Heading)> = md
            .headings
            .iter()
            .filter(|h| h.level <= 3 && parse_phase_title(h.text.slice(text)).is_none())
            .filter_map(|h| find_version(h.text.slice(text)).map(|v| (h.line.span.start, v, h)))
            .collect();
        if milestones.is_empty() {
            for (_, v, h) in &milestone_headings {
                let t = h.text.slice(text);
                milestones.push(Milestone {
                    version: Some(v.clone()),
                    title: t.to_owned(),
                    status: status_of(t),
                    line: h.line.number,
                });
            }
        }

        let mut phases = Vec::new();
        for (i, h) in md.headings.iter().enumerate() {
            if !(2..=4).contains(&h.level) {
                continue;
            }
            let Some((id, name)) = parse_phase_title(h.text.slice(text)) else {
                continue;
            };
            // The section runs to the next heading of the same or higher level.
            let section = md.section(i, body.end);
            let mut detail = PhaseDetail {
                id,
                name,
                line: h.line.number,
                section,
                goal: None,
                depends_on: None,
                requirements: Vec::new(),
                plans_label: None,
                plans: Vec::new(),
                success_criteria: Vec::new(),
                in_details: in_details(h.line.span.start),
                milestone: milestone_headings
                    .iter()
                    .rfind(|(at, _, _)| *at < h.line.span.start)
                    .map(|(_, v, _)| v.clone()),
            };
            let mut in_criteria = false;
            for line in md.lines_in(section).skip(1) {
                if line.in_fence {
                    continue;
                }
                let s = line.span.slice(text);
                if let Some(l) = label_line(text, line.span) {
                    let label = l.label.slice(text).to_ascii_lowercase();
                    let value = l.value.slice(text).to_owned();
                    in_criteria = label.starts_with("success criteria");
                    match label.as_str() {
                        "goal" => detail.goal = Some(value),
                        "depends on" => detail.depends_on = Some(value),
                        "requirements" => detail.requirements = find_req_ids(&value),
                        "plans" if l.bold => detail.plans_label = Some(value),
                        _ => {}
                    }
                    if !label.starts_with("success criteria") && label != "plans" {
                        continue;
                    }
                    if label == "plans" {
                        continue;
                    }
                }
                if in_criteria {
                    let t = s.trim();
                    let n = t.bytes().take_while(u8::is_ascii_digit).count();
                    if n > 0 && t[n..].starts_with(". ") {
                        detail.success_criteria.push(t[n + 2..].trim().to_owned());
                        continue;
                    } else if let Some(r) = t.strip_prefix("- ") {
                        detail.success_criteria.push(r.trim().to_owned());
                        continue;
                    } else if !t.is_empty() {
                        in_criteria = false;
                    }
                }
            }
            for item in md.list_items_in(section) {
                let content = item.content.slice(text);
                let token = content.trim_start_matches("**");
                let token = token.split([':', ' ', '*', '—']).next().unwrap_or("");
                if let Some(id) = PlanId::parse(token)
                    && token.len() >= 4
                {
                    detail.plans.push(PlanEntry {
                        id,
                        checked: item.checkbox.map(|c| c.checked),
                        line: item.line.number,
                    });
                }
            }
            phases.push(detail);
        }
        let progress = progress_table(&doc, &md);
        Roadmap {
            doc,
            md,
            milestones,
            details,
            checklist,
            phases,
            progress,
        }
    }

    /// The phase detail for an ID, preferring ones outside `<details>`.
    pub fn phase(&self, id: &PhaseId) -> Option<&PhaseDetail> {
        let mut found: Vec<&PhaseDetail> = self.phases.iter().filter(|p| p.id.same(id)).collect();
        found.sort_by_key(|p| p.in_details);
        found.into_iter().next()
    }

    pub fn checklist_entry(&self, id: &PhaseId) -> Option<&ChecklistEntry> {
        let mut found: Vec<&ChecklistEntry> =
            self.checklist.iter().filter(|p| p.phase.same(id)).collect();
        found.sort_by_key(|p| p.in_details);
        found.into_iter().next()
    }

    /// Phases of the active part of the roadmap: those not inside a
    /// `<details>` (shipped) block. Checklist-only phases are included.
    pub fn active_phase_ids(&self) -> Vec<PhaseId> {
        let mut ids: Vec<PhaseId> = Vec::new();
        for p in self.phases.iter().filter(|p| !p.in_details) {
            if !ids.iter().any(|i| i.same(&p.id)) {
                ids.push(p.id.clone());
            }
        }
        for c in self.checklist.iter().filter(|c| !c.in_details) {
            if !ids.iter().any(|i| i.same(&c.phase)) {
                ids.push(c.phase.clone());
            }
        }
        ids.sort();
        ids
    }

    /// Every phase ID mentioned anywhere in headings, checklist or table.
    pub fn all_phase_ids(&self) -> Vec<PhaseId> {
        let mut ids: Vec<PhaseId> = self.phases.iter().map(|p| p.id.clone()).collect();
        ids.extend(self.checklist.iter().map(|c| c.phase.clone()));
        if let Some(t) = &self.progress {
            ids.extend(t.rows.iter().filter_map(|r| r.phase.clone()));
        }
        ids.sort();
        ids.dedup_by(|a, b| a.same(b));
        ids
    }

    pub fn progress_row(&self, id: &PhaseId) -> Option<&ProgressRow> {
        self.progress
            .as_ref()?
            .rows
            .iter()
            .find(|r| r.phase.as_ref().is_some_and(|p| p.same(id)))
    }
}

fn details_blocks(doc: &Document, md: &Markdown) -> Vec<DetailsBlock> {
    let text = doc.text();
    let mut out = Vec::new();
    let mut open: Vec<(usize, usize)> = Vec::new();
    for line in &md.lines {
        if line.in_fence {
            continue;
        }
        let s = line.span.slice(text).trim();
        if s.starts_with("<details") {
            open.push((line.span.start, line.number));
        }
        if s.contains("</details>")
            && let Some((start, number)) = open.pop()
        {
            let span = Span::new(start, line.full.end);
            let inner = span.slice(text);
            let summary = inner
                .find("<summary>")
                .and_then(|a| {
                    inner[a + 9..]
                        .find("</summary>")
                        .map(|b| inner[a + 9..a + 9 + b].trim().to_owned())
                })
                .unwrap_or_default();
            out.push(DetailsBlock {
                summary,
                span,
                line: number,
            });
        }
    }
    out
}

fn progress_table(doc: &Document, md: &Markdown) -> Option<ProgressTable> {
    let text = doc.text();
    let rows = &md.table_rows;
    let header_i = rows.iter().position(|r| {
        let cells: Vec<String> = r
            .cells
            .iter()
            .map(|c| c.slice(text).to_ascii_lowercase())
            .collect();
        cells.first().is_some_and(|c| c.contains("phase"))
            && cells
                .iter()
                .any(|c| c.contains("plans") || c.contains("status"))
    })?;
    let header = &rows[header_i];
    let columns: Vec<String> = header
        .cells
        .iter()
        .map(|c| c.slice(text).to_owned())
        .collect();
    let lower: Vec<String> = columns.iter().map(|c| c.to_ascii_lowercase()).collect();
    let col = |pred: &dyn Fn(&str) -> bool| lower.iter().position(|c| pred(c));
    let plans_col = col(&|c| c.contains("plans"));
    let status_col = col(&|c| c.contains("status"));
    let completed_col = col(&|c| c.contains("completed") || c.contains("date"));
    let mut out = Vec::new();
    let mut prev_line = header.line.number;
    for row in &rows[header_i + 1..] {
        if row.line.number != prev_line + 1 {
            break;
        }
        prev_line = row.line.number;
        if row.separator {
            continue;
        }
        let cell = |i: Option<usize>| {
            i.and_then(|i| row.cells.get(i))
                .map(|c| c.slice(text).to_owned())
                .unwrap_or_default()
        };
        let label = cell(Some(0));
        let phase = parse_phase_cell(&label);
        let plans_complete = cell(plans_col).split_once('/').and_then(|(a, b)| {
            let a = a.trim().trim_matches('*').parse().ok()?;
            let b = b
                .trim()
                .trim_matches('*')
                .split_whitespace()
                .next()?
                .parse()
                .ok()?;
            Some((a, b))
        });
        out.push(ProgressRow {
            phase,
            label,
            plans_complete,
            status: cell(status_col),
            completed: cell(completed_col),
            line: row.line.number,
            cells: row.cells.clone(),
        });
    }
    Some(ProgressTable {
        columns,
        rows: out,
        line: header.line.number,
    })
}

fn parse_phase_cell(s: &str) -> Option<PhaseId> {
    let t = s.trim().trim_matches('*').trim();
    let t = t.strip_prefix("Phase ").unwrap_or(t);
    PhaseId::parse_prefix(t).map(|(id, _)| id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phase_titles() {
        let (id, name) = parse_phase_title("Phase 2.1: Hotfix (INSERTED)").unwrap();
        assert_eq!((id.unpadded(), name.as_str()), ("2.1".into(), "Hotfix"));
        let (id, name) = parse_phase_title("**Phase 1: Foundation** - base").unwrap();
        assert_eq!((id.unpadded(), name.as_str()), ("1".into(), "Foundation"));
        let (_, name) = parse_phase_title("Phase 3 — UI polish").unwrap();
        assert_eq!(name, "UI polish");
        assert!(parse_phase_title("Phases 1-4 shipped").is_none());
        assert_eq!(find_version("🚧 v1.10 Ralph").as_deref(), Some("v1.10"));
    }
}
