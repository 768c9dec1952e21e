//! ROADMAP.md: milestones, `<details>` blocks, the phase checklist, phase
//! detail sections (goal, depends on, requirements, plan lists) and the
//! progress table — each with the line or span it came from.
//!
//! Tolerates the shapes GSD-FORMATS §4.1 and §4.6 list: heading levels 2–4,
//! `**Goal**:` and `**Goal:**`, `Phase N:` / `Phase N —`, headings inside
//! `<details>`, 4- and 5-column progress tables, `**Plans**: TBD`.

use std::collections::HashMap;

use serde::Serialize;

use crate::doc::Span;
use crate::doc::markdown::{Checkbox, Markdown, exact, label_line};

use super::document::Document;
use super::ids::{PhaseId, PhaseKey, PlanId};
use super::milestone::{self, Milestone, MilestoneMap, MilestoneSource, MilestoneStatus, Region};
use super::milestone::{find_version, is_milestone_heading};
use super::requirements::find_req_ids;
use super::words;

#[derive(Debug, Clone, Serialize)]
pub struct DetailsBlock {
    pub summary: String,
    /// `<details open>`: shown expanded, as an in-progress milestone often is.
    pub open: bool,
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
    /// Index into [`Roadmap::milestones`] (see [`super::milestone`]).
    #[serde(skip)]
    pub milestone: Option<usize>,
    /// In a shipped milestone.
    pub archived: bool,
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
    /// The `**Status**:` value as written (`Complete`, `Code-complete 2026-05-15; …`).
    pub status_label: Option<String>,
    pub plans: Vec<PlanEntry>,
    pub success_criteria: Vec<String>,
    /// Checkboxes in its section, (ticked, all): its plan list, criteria
    /// or task list, ticked as the work lands.
    pub boxes: (usize, usize),
    /// Index into [`Roadmap::milestones`] (see [`super::milestone`]).
    #[serde(skip)]
    pub milestone: Option<usize>,
    /// In a shipped milestone.
    pub archived: bool,
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
    /// The 5-column table's Milestone cell.
    #[serde(skip)]
    pub milestone_cell: Option<String>,
    #[serde(skip)]
    pub milestone: Option<usize>,
    pub archived: bool,
}

impl ProgressRow {
    /// The phase's name as the row gives it (`3. Payments Gateway`,
    /// `Phase 3: Payments`, `**03 — Payments**`), without its number; None
    /// when the cell holds the number alone.
    pub fn name(&self) -> Option<String> {
        let cell = self.label.trim().trim_matches(['*', '_']).trim();
        let cell = super::words::strip_phase_word(cell).unwrap_or(cell);
        let (_, rest) = PhaseId::parse_prefix(cell.trim_start())?;
        // A range row (`01-04`) names phases, not one phase's name (`3 -
        // 2FA Setup` is a name: the number runs into letters).
        let range = rest
            .trim_start()
            .strip_prefix(['-', '–', '—'])
            .and_then(|r| PhaseId::parse_prefix(r.trim_start()))
            .is_some_and(|(_, tail)| !tail.starts_with(|c: char| c.is_alphanumeric()));
        if range {
            return None;
        }
        let name = rest
            .trim_start_matches(|c: char| c.is_whitespace() || ".:-–—|：*_".contains(c))
            .trim_matches(['*', '_'])
            .trim();
        name.chars()
            .any(char::is_alphanumeric)
            .then(|| name.to_owned())
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct ProgressTable {
    pub columns: Vec<String>,
    pub rows: Vec<ProgressRow>,
    pub line: usize,
}

impl ProgressTable {
    /// `| Phase | Goal | Requirements |`: phases and their goals, no plan
    /// count and no status: they say nothing of progress.
    pub(crate) fn goals_only(&self) -> bool {
        !self.columns.iter().any(|c| {
            let c = c.to_ascii_lowercase();
            words::names_plans(&c) || words::names_status(&c)
        })
    }
}

#[derive(Debug, Clone)]
pub struct Roadmap {
    pub doc: Document,
    pub md: Markdown,
    pub milestones: Vec<Milestone>,
    pub details: Vec<DetailsBlock>,
    /// Which milestone each region of the file belongs to.
    pub regions: Vec<Region>,
    pub checklist: Vec<ChecklistEntry>,
    pub phases: Vec<PhaseDetail>,
    /// Every progress table, in file order: a roadmap often keeps one per
    /// milestone (`## Progress` for the shipped ones, another under the
    /// open milestone's heading).
    pub progress: Vec<ProgressTable>,
    /// Where each phase is named, for lookups by ID: a scan per lookup made
    /// every per-phase question quadratic in the phases (10,000 took 35 s
    /// to lint).
    index: HashMap<PhaseKey, Named>,
}

/// The positions (in file order) of one phase's entries.
#[derive(Debug, Clone, Default)]
struct Named {
    phases: Vec<usize>,
    checklist: Vec<usize>,
    rows: Vec<usize>,
}

/// `Phase 2.1: Name`, `Phase 3 — Name`, `**Phase 1: Foundation** - base`.
/// Returns the ID and the name.
pub fn parse_phase_title(s: &str) -> Option<(PhaseId, String)> {
    let s = s
        .trim()
        .trim_start_matches("**")
        .trim_start_matches(['✅', '🚧', '📋', ' ']);
    let (idx, rest) = words::find_phase_word(s)?;
    // `v0.2.5 — FASE 1A.5: Auth` heads a milestone that is one phase: the
    // version before the phase word makes it the milestone's heading.
    if idx > 12 || milestone::find_milestone_id(&s[..idx]).is_some() {
        return None;
    }
    // `Harden the Phase 38 schema proof`: a sentence that mentions a
    // phase, not an entry (words before the phase word).
    let before = &s.as_bytes()[..idx];
    if before
        .windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_lowercase())
    {
        return None;
    }
    let (id, after) = match PhaseId::parse_prefix(rest) {
        Some((id, after)) => (id, after),
        None => custom_phase_prefix(rest)?,
    };
    let after_trim = after.trim_start();
    let sep = [
        "**:", ":**", "**：", "：**", ":", "：", "—", "–", " - ", "-",
    ]
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
    // `**Phase 22 Status:**`, `Phase 3 notes:`: a label about the phase,
    // closed by its colon, heads a note and names no phase.
    if sep.is_none() && name.trim_end().ends_with([':', '：']) {
        return None;
    }
    // ` - ` / ` — ` / ` -- ` start a description (`Phase 7: Docker — Containerization …`).
    let name = [" - ", " — ", " -- ", " – "]
        .iter()
        .fold(name, |n, sep| n.split(sep).next().unwrap_or(n));
    let name = name.trim().trim_end_matches("(INSERTED)").trim().to_owned();
    Some((id, name))
}

/// A phase field that lists the phase's requirements under another name
/// (`Requirements Mapped`, `Requirements covered`, `Requirements addressed`).
fn is_requirements_label(label: &str) -> bool {
    label.strip_prefix("requirements ").is_some_and(|rest| {
        [
            "mapped",
            "covered",
            "addressed",
            "satisfied",
            "delivered",
            "in scope",
        ]
        .contains(&rest.trim())
    })
}

/// The requirement IDs a list item under an empty `**Requirements:**`
/// label defines: those before its description (`- [ ] **SETUP-01**:
/// Initialize …`, `- AUTH-01, AUTH-02`), `None` for a line that is no list
/// item.
fn listed_requirement(line: &str) -> Option<Vec<String>> {
    let t = line.trim_start();
    let item = t.strip_prefix("- ").or_else(|| t.strip_prefix("* "))?;
    let item = ["[ ] ", "[x] ", "[X] "]
        .iter()
        .find_map(|b| item.strip_prefix(b))
        .unwrap_or(item);
    let head = item.split([':', '：', '—', '(']).next().unwrap_or(item);
    Some(find_req_ids(head))
}

/// The milestone a roadmap's head names in a bold field line
/// (`**Milestone:** v1 — Name`, `**Current Milestone:** v1.2 Name`), before
/// its first section heading: the line and the field's value. (A plain
/// `milestone: v1.1` line there is a header copied from frontmatter, often
/// stale; STATE.md speaks for the milestone then.)
fn head_milestone_field<'t>(
    text: &'t str,
    md: &Markdown,
    body: Span,
) -> Option<(crate::doc::markdown::Line, &'t str)> {
    let head_end = md
        .headings
        .iter()
        .find(|h| h.level >= 2)
        .map_or(body.end, |h| h.line.span.start);
    md.lines_in(Span::new(body.start, head_end))
        .filter(|l| !l.in_fence)
        .find_map(|l| {
            let ll = label_line(text, l.span)?;
            let label = ll.label.slice(text).to_lowercase();
            // `**Milestone:** \`v0.2 portfolio expansion\``: the code span's text.
            let value = ll.value.slice(text).trim().trim_matches('`').trim();
            (ll.bold
                && matches!(label.as_str(), "milestone" | "current milestone")
                && (milestone::find_milestone_id(value).is_some()
                    || bare_number(value).is_some()
                    || names_a_milestone(value)))
            .then_some((*l, value))
        })
}

/// A head field's value that names a milestone by its title alone
/// (`**Milestone:** Polish & Filter`): words, not a placeholder or a note.
fn names_a_milestone(value: &str) -> bool {
    let v = value.trim().trim_matches(['`', '*', '_']).trim();
    let lower = v.to_lowercase();
    v.chars().next().is_some_and(char::is_alphabetic)
        && v.len() <= 60
        && !["tbd", "none", "n/a", "todo", "-", "unknown"].contains(&lower.as_str())
        && !lower.starts_with("see ")
}

/// A value that starts with a bare number (`1 — MVP`, `2`): the number.
fn bare_number(value: &str) -> Option<&str> {
    let n = value.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &value[n..];
    (n > 0 && n <= 3 && (rest.is_empty() || rest.starts_with([' ', ':', '.']))).then(|| &value[..n])
}

/// Whether a list entry's head opens by naming a milestone: its first
/// word (after a status word) holds the ID (`✅ **v1.0 MVP**`, `[v2.1](…)`,
/// `tools-v1.0`, `Complete **v1.4 …**`), or it
/// opens with the milestone word (`**Milestone 3: …**`). A version later in
/// the head is something the entry talks about (`**\`mailglass_inbound\`
/// (v0.5+) is intentionally absent.**`, `**Phase 7: v2.1 — …**`).
fn opens_with_milestone_id(head: &str) -> bool {
    let mut t = head.trim_start_matches(|c: char| !c.is_alphanumeric());
    // A status word may come first (`Complete **v1.4 …**`, `SHIPPED
    // **v5.0 …**`, `Active **v1.5 …**`).
    if let Some((word, rest)) = t.split_once(' ')
        && MilestoneStatus::of_value(word) != MilestoneStatus::Unknown
    {
        t = rest.trim_start_matches(|c: char| !c.is_alphanumeric());
    }
    let first = t.split([' ', ':', '：']).next().unwrap_or("");
    super::milestone::find_milestone_id(first).is_some()
        || (super::words::find_milestone_word(t).is_some_and(|(at, _, _)| at == 0)
            && super::milestone::find_milestone_id(t).is_some())
}

/// The part of a list entry that names it: its leading bold text
/// (`**Incorporated:** upstream's v0.19.0 …` names no milestone), else
/// what comes before a dash that starts a description, at most 80 bytes.
fn entry_head(content: &str) -> &str {
    let bare = content.trim_start_matches(['✅', '🚧', '📋', '🔄', '⏳', ' ']);
    if let Some(rest) = bare.strip_prefix("**")
        && let Some(end) = rest.find("**")
    {
        // `✅ **v1.0 MVP**`: the mark before the bold counts too.
        let lead = content.len() - bare.len();
        return &content[..lead + 2 + end];
    }
    let end = [" - ", " — ", " – "]
        .iter()
        .filter_map(|d| content.find(d))
        .min()
        .unwrap_or(content.len());
    let mut end = end.min(80);
    while !content.is_char_boundary(end) {
        end -= 1;
    }
    &content[..end]
}

/// A custom phase ID at the start of `rest` and what follows it: any ID
/// before a colon (`Phase AUTH-FLOW: name`), or one in capitals before a
/// dash (`Phase C — Name`, `Phase MVP – Name`; not `Phase overview — …`).
fn custom_phase_prefix(rest: &str) -> Option<(PhaseId, &str)> {
    let by_colon = rest
        .find([':', '：'])
        .and_then(|end| Some((PhaseId::parse(&rest[..end])?, &rest[end..])));
    by_colon.or_else(|| {
        let end = rest.find(' ')?;
        let token = &rest[..end];
        let capitals = token.len() <= 12
            && token.bytes().any(|b| b.is_ascii_uppercase())
            && token
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-' || b == b'_');
        let dash = ["—", "–", "- "]
            .iter()
            .any(|d| rest[end..].trim_start().starts_with(d));
        (capitals && dash).then(|| Some((PhaseId::parse(token)?, &rest[end..])))?
    })
}

/// A table of milestones with their phase ranges (`| Milestone | Phases |
/// … |` then `| **M1: Backend Core** | 1-3 | … |`): each row names a
/// milestone as an entry of the milestones list does, its phases the
/// range in its Phases cell, its status the Status cell's if the table has
/// one (batch 31, stimpson-dev+LitVault). The Phases column holds ranges
/// only where one of its cells is a range (`1-3`): a column of single
/// numbers is a count of phases (`| v1.6 | 6 | 6 | Shipped |`), and a
/// progress table (its first column a phase) is not a table of milestones.
fn milestone_table(text: &str, md: &Markdown, map: &mut MilestoneMap) {
    let cell = |r: &crate::doc::markdown::TableRow, i: usize| -> String {
        r.cells.get(i).map_or(String::new(), |c| {
            c.slice(text)
                .trim()
                .trim_matches(['*', '_'])
                .trim()
                .to_owned()
        })
    };
    for table in md.tables() {
        let header: Vec<String> = (0..table[0].cells.len())
            .map(|c| cell(&table[0], c).to_lowercase())
            .collect();
        if !header
            .first()
            .is_some_and(|h| h == "milestone" || h == "version")
        {
            continue;
        }
        let Some(pc) = header
            .iter()
            .position(|h| h == "phases" || h == "phase range")
        else {
            continue;
        };
        let sc = header.iter().position(|h| h == "status");
        let ranged = table[2..].iter().any(|r| {
            let p = cell(r, pc);
            p.contains(['-', '–']) && PhaseId::parse_prefix(&p).is_some()
        });
        if !ranged {
            continue;
        }
        for row in &table[2..] {
            let (name, phases) = (cell(row, 0), cell(row, pc));
            if !opens_with_milestone_id(&name) || PhaseId::parse_prefix(&phases).is_none() {
                continue;
            }
            // The Status cell as a value (`Shipped 2025-01-15`), else a mark
            // in the name (`✅ v1.0`), as a list entry's is read.
            let status = sc
                .map(|c| MilestoneStatus::of_value(&cell(row, c)))
                .filter(|s| *s != MilestoneStatus::Unknown)
                .unwrap_or_else(|| MilestoneStatus::of_text(&name));
            let entry = format!("{name} — Phases {phases}");
            map.add_with_status(&entry, row.line.number, MilestoneSource::List, status);
        }
    }
}

impl Roadmap {
    pub fn parse(doc: Document) -> Roadmap {
        let text = doc.text();
        let body = doc.body();
        let md = Markdown::scan(text, body, doc.line_of(body.start));
        let details = details_blocks(&doc, &md);
        let mut map = MilestoneMap::default();
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
                    milestone: None,
                    archived: false,
                });
                continue;
            }
            // `` - `v1.6 Async Agent Orchestration` - active ``: a version in
            // code type, as a marked one.
            let coded = content.strip_prefix(['`']).is_some_and(|r| {
                r.strip_prefix(['v', 'V'])
                    .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()))
            });
            let marked = content.starts_with(['✅', '🚧', '📋', '🔄', '[', '*'])
                || coded
                || content.contains("**v")
                || content.contains("[v");
            // `- v1.0: 1 → 2 → 2.1 (complete)`: an execution order per
            // milestone, the milestone named before the colon.
            let chain = || {
                content.split_once(':').is_some_and(|(name, _)| {
                    super::milestone::find_milestone_id(name).is_some()
                        && super::milestone::PhaseRange::chain(content).is_some()
                })
            };
            if (marked || chain())
                && opens_with_milestone_id(entry_head(content))
                && !super::milestone::names_requirement_scope(entry_head(content))
            {
                // `- [x] **v1.0: Name**`: a ticked milestone entry has shipped.
                let status = match item.checkbox {
                    Some(cb) if cb.checked => MilestoneStatus::Shipped,
                    _ => MilestoneStatus::of_text(content),
                };
                // `` `v1.6 Name` - active ``: the code span's marks are not its title.
                let plain;
                let content = if coded {
                    plain = content.replacen('`', "", 2);
                    plain.as_str()
                } else {
                    content
                };
                map.add_with_status(content, item.line.number, MilestoneSource::List, status);
            }
        }
        milestone_table(text, &md, &mut map);
        // A `<details>` whose summary names no milestone (`展开 Phase
        // 9-12`, `Show phases`) right under a milestone heading, before any
        // other heading: that milestone's phases folded away, not one more
        // milestone. Its region is the heading's (set below).
        let own_part = |i: usize| {
            let start = md.headings[i].line.span.start;
            let end = md
                .headings
                .get(i + 1)
                .map_or(body.end, |h| h.line.span.start);
            Span::new(start, end)
        };
        let folded_under = |d: &DetailsBlock| -> Option<usize> {
            if super::milestone::find_milestone_id(&d.summary).is_some() {
                return None;
            }
            md.headings.iter().enumerate().find_map(|(i, h)| {
                let t = h.text.slice(text);
                (h.level <= 3
                    && parse_phase_title(t).is_none()
                    && is_milestone_heading(t)
                    && super::milestone::find_milestone_id(t).is_some()
                    && own_part(i).covers(d.span))
                .then_some(i)
            })
        };
        let mut folded: Vec<(usize, Span)> = Vec::new();
        for d in &details {
            if let Some(h) = folded_under(d) {
                folded.push((h, d.span));
                continue;
            }
            let mut status = MilestoneStatus::of_text(&d.summary);
            // `<summary>Phase 1</summary>` over a staffing list,
            // `<summary>Roadmap Review</summary>` over an approvals table:
            // a folded note that names no milestone and gives no status.
            if status == MilestoneStatus::Unknown && !names_milestone(&d.summary) {
                continue;
            }
            if status == MilestoneStatus::Unknown {
                status = if d.open {
                    MilestoneStatus::InProgress
                } else {
                    MilestoneStatus::Shipped
                };
            }
            let milestone =
                map.add_with_status(&d.summary, d.line, MilestoneSource::Details, status);
            map.regions.push(Region {
                span: d.span,
                milestone,
            });
        }
        for (i, h) in md.headings.iter().enumerate() {
            let t = h.text.slice(text);
            if h.level > 3 || parse_phase_title(t).is_some() || !is_milestone_heading(t) {
                continue;
            }
            let section = md.section(i, body.end);
            // `**Status:** Complete ✓` under the heading speaks for it — not
            // one under its first phase's heading (`### Phase 1` then
            // `**Status**: completed` is that phase's).
            let own_end = md.headings[i + 1..]
                .iter()
                .map(|h| h.line.span.start)
                .find(|&at| at < section.end)
                .unwrap_or(section.end);
            let mut status = MilestoneStatus::of_text(t);
            let mut status_line = h.line.number;
            if status == MilestoneStatus::Unknown
                && let Some((number, st)) = md
                    .lines_in(section)
                    .skip(1)
                    .take(12)
                    .take_while(|l| l.span.start < own_end)
                    .filter(|l| !l.in_fence)
                    .find_map(|l| {
                        label_line(text, l.span)
                            .filter(|ll| ll.label.slice(text).eq_ignore_ascii_case("status"))
                            .map(|ll| (l.number, MilestoneStatus::of_value(ll.value.slice(text))))
                    })
            {
                status = st;
                status_line = number;
            }
            let milestone = map.add_with_status(t, h.line.number, MilestoneSource::Heading, status);
            let m = &mut map.milestones[milestone];
            if m.status_from == Some((MilestoneSource::Heading, h.line.number)) {
                m.status_from = Some((MilestoneSource::Heading, status_line));
            }
            map.regions.push(Region {
                span: section,
                milestone,
            });
            for (_, span) in folded.iter().filter(|(at, _)| *at == i) {
                map.regions.push(Region {
                    span: *span,
                    milestone,
                });
            }
        }
        // A line of prose that names the milestone with its status
        // (`_Milestone: v1.0 MVP_ ✅ **COMPLETE**`, `**Milestone:** M2 🚧`):
        // a mention, with no region of its own.
        for line in md.lines_in(body) {
            if line.in_fence {
                continue;
            }
            let t = line.span.slice(text).trim();
            let bare = t.trim_start_matches(['_', '*', '>', ' ']);
            let Some(rest) = bare
                .get(..10)
                .filter(|h| h.eq_ignore_ascii_case("milestone:"))
                .and_then(|_| bare.get(10..))
            else {
                continue;
            };
            if super::milestone::find_milestone_id(rest).is_some()
                && MilestoneStatus::of_text(bare) != MilestoneStatus::Unknown
            {
                let name = rest.trim_start_matches(['_', '*', ' ']);
                map.add_with_status(
                    name,
                    line.number,
                    MilestoneSource::Heading,
                    MilestoneStatus::of_text(bare),
                );
            }
        }
        // A roadmap about one milestone says so in its head
        // (`**Milestone:** v1 — AI-First Positioning`, before any section):
        // when nothing else names a milestone, the whole roadmap is its.
        if map.milestones.is_empty()
            && let Some((line, value)) = head_milestone_field(text, &md, body)
        {
            // `**Milestone:** 1 — MVP`: milestone 1.
            let numbered;
            let name = match bare_number(value) {
                Some(_) if milestone::find_milestone_id(value).is_none() => {
                    numbered = format!("Milestone {value}");
                    numbered.as_str()
                }
                _ => value,
            };
            let status = MilestoneStatus::of_text(name);
            let milestone =
                map.add_with_status(name, line.number, MilestoneSource::Heading, status);
            map.regions.push(Region {
                span: Span::new(line.span.start, body.end),
                milestone,
            });
        }
        // Checklist lines were read before the regions were known.
        for c in &mut checklist {
            c.milestone = map.region_at(c.checkbox.mark.start);
        }

        // Where each phase's details start: `### Phase 2: Name` headings,
        // each running to the next heading of the same or higher level; and
        // a line that is only `**Phase 2: Name**` (the `### Phase Details`
        // form GSD's new-project and roadmapper present), running to the
        // next such line or heading.
        let mut starts: Vec<(PhaseId, String, crate::doc::markdown::Line, Span)> = Vec::new();
        for (i, h) in md.headings.iter().enumerate() {
            if !(2..=4).contains(&h.level) {
                continue;
            }
            if let Some((id, name)) = parse_phase_title(h.text.slice(text)) {
                starts.push((id, name, h.line, md.section(i, body.end)));
            }
        }
        let bold: Vec<(PhaseId, String, crate::doc::markdown::Line)> = md
            .lines_in(body)
            .filter(|l| !l.in_fence)
            .filter_map(|l| {
                let inner = l
                    .span
                    .slice(text)
                    .trim()
                    .strip_prefix("**")?
                    .strip_suffix("**")?;
                // A numbered phase with a name: `**Phase Numbering:**` (a
                // label GSD's template writes) is no phase.
                let (id, name) = parse_phase_title(inner)
                    .filter(|(id, name)| !id.is_custom() && !name.is_empty())
                    .filter(|_| !inner.contains("**"))?;
                Some((id, name, *l))
            })
            .collect();
        // A list of phases with no checkboxes (`- **Phase 2**: TaskBox`,
        // its goal and plans indented under it) names them the same way,
        // for a phase no heading, bold line or checklist entry names.
        let mut bold = bold;
        let named: std::collections::HashSet<_> = starts
            .iter()
            .map(|(id, ..)| id.key())
            .chain(bold.iter().map(|(id, ..)| id.key()))
            .chain(checklist.iter().map(|c| c.phase.key()))
            .collect();
        for item in md
            .list_items
            .iter()
            .filter(|it| it.indent == 0 && it.checkbox.is_none())
        {
            let content = item.content.slice(text).trim();
            if !content.starts_with("**Phase ") {
                continue;
            }
            if let Some((id, name)) = parse_phase_title(content)
                .filter(|(id, name)| !id.is_custom() && !name.is_empty())
                .filter(|(id, _)| !named.contains(&id.key()))
            {
                bold.push((id, name, item.line));
            }
        }
        bold.sort_by_key(|(_, _, l)| l.number);
        for (k, (id, name, line)) in bold.iter().enumerate() {
            let next_bold = bold.get(k + 1).map(|(_, _, l)| l.span.start);
            let next_heading = md
                .headings
                .iter()
                .map(|h| h.line.span.start)
                .find(|&at| at > line.span.start);
            let stop = [next_bold, next_heading, Some(body.end)]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(body.end);
            starts.push((
                id.clone(),
                name.clone(),
                *line,
                Span::new(line.span.start, stop),
            ));
        }
        starts.sort_by_key(|(_, _, l, _)| l.number);

        let mut phases = Vec::new();
        for (id, name, start, section) in starts {
            let mut detail = PhaseDetail {
                id,
                name,
                line: start.number,
                section,
                goal: None,
                depends_on: None,
                requirements: Vec::new(),
                plans_label: None,
                status_label: None,
                plans: Vec::new(),
                success_criteria: Vec::new(),
                boxes: (0, 0),
                milestone: map.region_at(start.span.start),
                archived: false,
            };
            let mut in_criteria = false;
            // `**Requirements:**` with its IDs in a list under it
            // (`- [ ] **SETUP-01**: Initialize the backend`).
            let mut in_requirements = false;
            for line in md.lines_in(section).skip(1) {
                if line.in_fence {
                    continue;
                }
                let s = line.span.slice(text);
                if in_requirements {
                    match listed_requirement(s) {
                        Some(ids) => {
                            detail.requirements.extend(ids);
                            continue;
                        }
                        None if s.trim().is_empty() => continue,
                        None => in_requirements = false,
                    }
                }
                if let Some(l) = label_line(text, line.span) {
                    let label = l.label.slice(text).to_ascii_lowercase();
                    let value = l.value.slice(text).to_owned();
                    in_criteria = label.starts_with("success criteria");
                    match label.as_str() {
                        "goal" => detail.goal = Some(value),
                        "depends on" => detail.depends_on = Some(value),
                        // `**Requirements Mapped:**`, `**Requirements
                        // covered:**`: the same list under another name.
                        l if l == "requirements" || is_requirements_label(l) => {
                            detail.requirements = find_req_ids(&value);
                            in_requirements = value.trim().is_empty();
                        }
                        "plans" if l.bold => detail.plans_label = Some(value),
                        "status" => detail.status_label = Some(value),
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
                if let Some(cb) = item.checkbox {
                    detail.boxes.0 += usize::from(cb.checked);
                    detail.boxes.1 += 1;
                }
                let content = item.content.slice(text);
                let token = content.trim_start_matches("**");
                let token = token.split([':', '：', ' ', '*', '—']).next().unwrap_or("");
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
        let mut progress = progress_tables(&doc, &md);
        // A table of goals defines phases only in a roadmap that has no
        // milestone and no phase checklist of its own (a `| Phase | Goal |`
        // overview beside them restates, or plans ahead, and would bind
        // other milestones' folders).
        if !(map.milestones.is_empty() && checklist.is_empty()) {
            progress.retain(|t| !t.goals_only());
        }
        map.milestones
            .extend(named_only_in_rows(&map.milestones, &progress));
        for t in &mut progress {
            for row in &mut t.rows {
                // The row's own Milestone cell says whose it is; where the
                // table sits says it only when the row does not (one table
                // of every milestone's rows often sits in one region).
                let at = row.cells.first().map(|c| c.start);
                let named = row.milestone_cell.as_deref().and_then(|cell| {
                    let v = find_version(cell)?;
                    map.milestones.iter().position(|m| {
                        m.version
                            .as_deref()
                            .is_some_and(|w| super::milestone::same_version(&v, w))
                    })
                });
                row.milestone = named.or_else(|| at.and_then(|at| map.region_at(at)));
            }
        }
        let mut rm = Roadmap {
            doc,
            md,
            milestones: map.milestones.clone(),
            details,
            regions: map.regions.clone(),
            checklist: exact(checklist),
            phases: exact(phases),
            progress: progress
                .into_iter()
                .map(|mut t| {
                    t.rows = exact(t.rows);
                    t
                })
                .collect(),
            index: HashMap::new(),
        };
        rm.assign_milestones(&map);
        rm.index = rm.build_index();
        rm
    }

    fn build_index(&self) -> HashMap<PhaseKey, Named> {
        let mut index: HashMap<PhaseKey, Named> = HashMap::new();
        for (i, p) in self.phases.iter().enumerate() {
            index.entry(p.id.key()).or_default().phases.push(i);
        }
        for (i, c) in self.checklist.iter().enumerate() {
            index.entry(c.phase.key()).or_default().checklist.push(i);
        }
        let rows = self.progress.iter().flat_map(|t| &t.rows);
        for (i, r) in rows.enumerate() {
            if let Some(id) = &r.phase {
                index.entry(id.key()).or_default().rows.push(i);
            }
        }
        index
    }

    /// Entries outside every region take the milestone the phase's other
    /// entries agree on, else the one whose listed range holds the phase;
    /// then every entry in a shipped milestone is archived.
    ///
    /// When one kind of entry (detail heading, checklist line, progress row)
    /// names a phase both inside a region and outside every region, the
    /// numbering restarted: the outside one is another, live phase and
    /// borrows nothing.
    fn assign_milestones(&mut self, map: &MilestoneMap) {
        #[derive(Default)]
        struct Seen {
            milestones: Vec<usize>,
            /// Per kind: (inside some region, outside every region).
            kinds: [(bool, bool); 3],
        }
        let mut seen: HashMap<super::ids::PhaseKey, Seen> = HashMap::new();
        let mut note = |kind: usize, id: &PhaseId, m: Option<usize>| {
            let e = seen.entry(id.key()).or_default();
            match m {
                Some(m) => {
                    e.kinds[kind].0 = true;
                    if !e.milestones.contains(&m) {
                        e.milestones.push(m);
                    }
                }
                None => e.kinds[kind].1 = true,
            }
        };
        for p in &self.phases {
            note(0, &p.id, p.milestone);
        }
        for c in &self.checklist {
            note(1, &c.phase, c.milestone);
        }
        for r in self.progress.iter().flat_map(|t| &t.rows) {
            if let Some(id) = &r.phase {
                note(2, id, r.milestone);
            }
        }
        let ms = &map.milestones;
        let resolve = |id: &PhaseId, m: Option<usize>| -> Option<usize> {
            if m.is_some() {
                return m;
            }
            let e = seen.get(&id.key())?;
            if e.kinds.iter().any(|(inside, outside)| *inside && *outside) {
                return None;
            }
            milestone::pick(ms, &e.milestones)
                .or_else(|| milestone::pick(ms, &milestone::by_range(ms, id)))
        };
        let shipped = |m: Option<usize>| m.is_some_and(|i| ms[i].is_shipped());
        // A detail section that sits in a live milestone's part of the file
        // (`### Archived Phase References` under `## v5.0`) but whose
        // checklist line, of the same name, and the listed range both give
        // it to one shipped milestone: two statements against one place.
        // (Another name is another phase: numbering that restarted.)
        let named = |id: &PhaseId, m: usize, name: &str| {
            let key = |s: &str| {
                s.chars()
                    .filter(|c| c.is_alphanumeric())
                    .flat_map(char::to_lowercase)
                    .collect::<String>()
            };
            let name = key(name);
            !name.is_empty()
                && self
                    .checklist
                    .iter()
                    .filter(|c| c.milestone == Some(m) && c.phase.same(id))
                    .any(|c| {
                        let other = key(&c.name);
                        !other.is_empty() && (other.starts_with(&name) || name.starts_with(&other))
                    })
        };
        let shipped_elsewhere = |id: &PhaseId, at: usize, name: &str| -> Option<usize> {
            let others: Vec<usize> = seen
                .get(&id.key())?
                .milestones
                .iter()
                .copied()
                .filter(|&m| m != at)
                .collect();
            let [m] = others.as_slice() else { return None };
            (ms[*m].is_shipped() && milestone::by_range(ms, id).contains(m) && named(id, *m, name))
                .then_some(*m)
        };
        // The other way round: an entry in a shipped milestone's part of
        // the file whose own listed range leaves it out, while one open
        // milestone's range names it (`✅ v1.17 — Phases 67–68 (69, 70
        // deferred to v1.19)`, `🚧 v1.19 — Phases 69, 70, 77`): deferred
        // there, its detail left where it was first written.
        let deferred = |id: &PhaseId, at: usize| -> Option<usize> {
            if ms[at].range.is_empty() || ms[at].range.contains(id) {
                return None;
            }
            match milestone::by_range(ms, id).as_slice() {
                [m] if !ms[*m].is_shipped() => Some(*m),
                _ => None,
            }
        };
        let moved: Vec<Option<usize>> = self
            .phases
            .iter()
            .map(|p| {
                let at = resolve(&p.id, p.milestone)?;
                if ms[at].is_shipped() {
                    return deferred(&p.id, at);
                }
                shipped_elsewhere(&p.id, at, &p.name)
            })
            .collect();
        let moved_entries: Vec<Option<usize>> = self
            .checklist
            .iter()
            .map(|c| {
                let at = resolve(&c.phase, c.milestone)?;
                ms[at]
                    .is_shipped()
                    .then(|| deferred(&c.phase, at))
                    .flatten()
            })
            .collect();
        // The same for a progress row: one table of every milestone's rows
        // sitting in the live milestone's region (`| 38. Storage spike |
        // 5/5 | Complete |` under `## v1.8 … (Phases 39-47)`) while the
        // checklist and the range give phase 38 to shipped v1.7.
        let moved_rows: Vec<Option<usize>> = self
            .progress
            .iter()
            .flat_map(|t| &t.rows)
            .map(|r| {
                let id = r.phase.as_ref()?;
                let at = resolve(id, r.milestone)?;
                if ms[at].is_shipped() {
                    return deferred(id, at);
                }
                let name = r
                    .label
                    .trim_start_matches(|c: char| c.is_ascii_digit() || ".: ".contains(c));
                shipped_elsewhere(id, at, name)
            })
            .collect();
        for (p, moved) in self.phases.iter_mut().zip(moved) {
            p.milestone = moved.or_else(|| resolve(&p.id, p.milestone));
            p.archived = shipped(p.milestone);
        }
        for (c, moved) in self.checklist.iter_mut().zip(moved_entries) {
            c.milestone = moved.or_else(|| resolve(&c.phase, c.milestone));
            c.archived = shipped(c.milestone);
        }
        let rows = self.progress.iter_mut().flat_map(|t| &mut t.rows);
        for (r, moved) in rows.zip(moved_rows) {
            if let Some(id) = &r.phase {
                r.milestone = moved.or_else(|| resolve(id, r.milestone));
                r.archived = shipped(r.milestone);
            }
        }
    }

    /// The one milestone whose listed phase range holds `id`.
    pub fn milestone_by_range(&self, id: &PhaseId) -> Option<usize> {
        milestone::pick(&self.milestones, &milestone::by_range(&self.milestones, id))
    }

    /// Whether a shipped milestone's listed range (`✅ v1.3 … Phases 2-4`)
    /// accounts for `id`: its detail may be collapsed and its folder
    /// archived or pruned. An open milestone's range proves nothing.
    pub fn shipped_range_holds(&self, id: &PhaseId) -> bool {
        milestone::by_range(&self.milestones, id)
            .iter()
            .any(|&i| self.milestones[i].is_shipped())
    }

    /// The phase detail for an ID, preferring ones not archived.
    pub fn phase(&self, id: &PhaseId) -> Option<&PhaseDetail> {
        let found = self.index.get(&id.key())?.phases.iter();
        let mut found: Vec<&PhaseDetail> = found.map(|&i| &self.phases[i]).collect();
        found.sort_by_key(|p| p.archived);
        found.into_iter().next()
    }

    pub fn checklist_entry(&self, id: &PhaseId) -> Option<&ChecklistEntry> {
        let found = self.index.get(&id.key())?.checklist.iter();
        let mut found: Vec<&ChecklistEntry> = found.map(|&i| &self.checklist[i]).collect();
        found.sort_by_key(|p| p.archived);
        found.into_iter().next()
    }

    /// Every phase ID mentioned anywhere in headings, checklist or table.
    pub fn all_phase_ids(&self) -> Vec<PhaseId> {
        let mut ids: Vec<PhaseId> = self.phases.iter().map(|p| p.id.clone()).collect();
        ids.extend(self.checklist.iter().map(|c| c.phase.clone()));
        for t in &self.progress {
            ids.extend(t.rows.iter().filter_map(|r| r.phase.clone()));
        }
        ids.sort();
        ids.dedup_by(|a, b| a.same(b));
        ids
    }

    /// The table a new row of live work goes into: the last one that holds
    /// a row of a milestone not shipped, else the last one.
    pub fn live_progress(&self) -> Option<&ProgressTable> {
        self.progress
            .iter()
            .rev()
            .find(|t| t.rows.iter().any(|r| r.phase.is_some() && !r.archived))
            .or(self.progress.last())
    }

    pub fn progress_row(&self, id: &PhaseId) -> Option<&ProgressRow> {
        // The index counts rows across the tables in file order.
        let mut at = *self.index.get(&id.key())?.rows.first()?;
        for t in &self.progress {
            match t.rows.get(at) {
                Some(row) => return Some(row),
                None => at -= t.rows.len(),
            }
        }
        None
    }
}

/// Whether a `<details>` summary names a milestone: its version or ID
/// (`v1.2`, `M3`, `Milestone 2`), the word itself, or the range of phases
/// it folds away (`Phases 1-2`, a shipped group without a version).
fn names_milestone(summary: &str) -> bool {
    super::milestone::find_milestone_id(summary).is_some()
        || summary.to_lowercase().contains("milestone")
        || (summary.to_lowercase().contains("phases")
            && super::milestone::PhaseRange::find(summary).is_some())
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
        // `<details open>`, `<details open="">`: shown expanded.
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
            let first = &text[start..];
            let tag = &first[..first.find('>').unwrap_or(first.len())];
            out.push(DetailsBlock {
                summary,
                open: tag.split_whitespace().any(|w| w.starts_with("open")),
                span,
                line: number,
            });
        }
    }
    out
}

/// Every progress table: a header whose first column names the phase and
/// another its plans or status, and the rows on the lines right after it.
fn progress_tables(doc: &Document, md: &Markdown) -> Vec<ProgressTable> {
    let text = doc.text();
    let rows = &md.table_rows;
    let is_header = |r: &crate::doc::markdown::TableRow| {
        let cells: Vec<String> = r
            .cells
            .iter()
            .map(|c| c.slice(text).to_ascii_lowercase())
            .collect();
        // `| Phase | Goal | Requirements |`: a roadmap may define its
        // phases in a table of goals, with no plan or status column.
        // `| # | Phase | Requirements | Status |`: the number first, in a
        // column of its own, and the phase's name in the next.
        let first_names_phase = cells.first().is_some_and(|c| {
            words::names_phase(c)
                || (is_number_column(c) && cells.get(1).is_some_and(|c| words::names_phase(c)))
        });
        first_names_phase
            && cells
                .iter()
                .any(|c| words::names_plans(c) || words::names_status(c) || c.trim() == "goal")
    };
    let mut tables = Vec::new();
    let mut from = 0;
    while let Some(at) = rows[from..].iter().position(is_header) {
        let (table, end) = progress_table(text, rows, from + at);
        tables.push(table);
        from = end;
    }
    tables
}

/// The progress table whose header is `rows[header_i]`, and the index of
/// the first table row after it.
fn progress_table(
    text: &str,
    rows: &[crate::doc::markdown::TableRow],
    header_i: usize,
) -> (ProgressTable, usize) {
    let header = &rows[header_i];
    let columns: Vec<String> = header
        .cells
        .iter()
        .map(|c| c.slice(text).to_owned())
        .collect();
    let lower: Vec<String> = columns.iter().map(|c| c.to_ascii_lowercase()).collect();
    let col = |pred: &dyn Fn(&str) -> bool| lower.iter().position(|c| pred(c));
    let plans_col = col(&|c| words::names_plans(c));
    let status_col = col(&|c| words::names_status(c));
    let completed_col = col(&|c| c.contains("completed") || c.contains("date"));
    let milestone_col = col(&|c| c.contains("milestone"));
    // `| # | Phase | … |`: the phase column, when the number column leads.
    let named_col = lower
        .first()
        .filter(|c| is_number_column(c))
        .filter(|_| lower.get(1).is_some_and(|c| words::names_phase(c)))
        .map(|_| 1);
    let mut out = Vec::new();
    let mut prev_line = header.line.number;
    let mut end = header_i + 1;
    for row in &rows[header_i + 1..] {
        if row.line.number != prev_line + 1 {
            break;
        }
        end += 1;
        prev_line = row.line.number;
        if row.separator {
            continue;
        }
        // A row one cell short in a table with a Milestone column lacks
        // that cell (`| 18.1. Creation of PR | 3/4 | Complete | … |`, an
        // inserted phase's row written by a tool that knows no such
        // column): the cells after it sit one place to the left.
        let short = milestone_col.filter(|_| row.cells.len() + 1 == columns.len());
        let cell = |i: Option<usize>| {
            let i = match (i, short) {
                (Some(i), Some(m)) if i == m => None,
                (Some(i), Some(m)) if i > m => Some(i - 1),
                (i, _) => i,
            };
            i.and_then(|i| row.cells.get(i))
                .map(|c| c.slice(text).to_owned())
                .unwrap_or_default()
        };
        let mut label = cell(Some(0));
        let mut phase = parse_phase_cell(&label);
        // A `#` column may count rows rather than number phases: a phase
        // cell that opens with its own number (`Phase 3: Payments`) says
        // which phase the row is.
        // Only a cell that says so (`Phase 3: …`): `3/3`, `2FA Support` and
        // `3D Viewer` are counts and names, not numbers.
        if let Some(named) = named_col.map(|i| cell(Some(i)))
            && let Some(id) = words::strip_phase_word(named.trim().trim_matches('*').trim())
                .and_then(PhaseId::parse_prefix)
                .filter(|(_, rest)| {
                    rest.is_empty() || rest.starts_with([':', ' ', '.', '-', '—', '–'])
                })
                .map(|(id, _)| id)
        {
            (label, phase) = (named, Some(id));
        }
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
            milestone_cell: milestone_col
                .map(|i| cell(Some(i)))
                .filter(|c| !c.is_empty()),
            milestone: None,
            archived: false,
        });
    }
    (
        ProgressTable {
            columns,
            rows: out,
            line: header.line.number,
        },
        end,
    )
}

/// Milestones only progress rows name: a version in a row's Milestone
/// cell that is later than every milestone the roadmap lists (GSD writes
/// the next version there for a phase added once the listed ones shipped:
/// `| 14. Layouts | v1.2 | 0/4 | Planning |` after v1.0 and v1.1). None for
/// a roadmap that lists no milestone: there the cell is the template's
/// `v1.0`, not a milestone of the user's.
fn named_only_in_rows(listed: &[Milestone], tables: &[ProgressTable]) -> Vec<Milestone> {
    // Only after every listed milestone shipped: under one still open, a
    // later version in a cell is a slip of the pen, not a new milestone.
    if listed.is_empty()
        || listed
            .iter()
            .any(|m| m.version.is_none() || !m.is_shipped())
    {
        return Vec::new();
    }
    let mut out: Vec<Milestone> = Vec::new();
    // A backlog row (`999.1`) is parked, never the next milestone's work.
    let live = |r: &&ProgressRow| r.phase.as_ref().is_some_and(|p| !p.is_backlog());
    for row in tables.iter().flat_map(|t| &t.rows).filter(live) {
        let Some(v) = row.milestone_cell.as_deref().and_then(find_version) else {
            continue;
        };
        let known = |m: &Milestone| {
            m.version
                .as_deref()
                .is_some_and(|w| super::milestone::same_version(&v, w))
        };
        if listed.iter().any(known) || out.iter().any(known) {
            continue;
        }
        let m = Milestone {
            version: Some(v.clone()),
            title: v,
            status: MilestoneStatus::Unknown,
            line: row.line,
            source: MilestoneSource::Progress,
            status_from: None,
            put_off: false,
            phase_range: None,
            range: Default::default(),
            name: None,
        };
        let later = listed
            .iter()
            .all(|l| super::milestone::version_order(l, &m) == std::cmp::Ordering::Less);
        if later {
            out.push(m);
        }
    }
    out
}

/// A header cell for a column of numbers: `#`, `No.`, `Nr`.
fn is_number_column(cell: &str) -> bool {
    matches!(
        cell.trim().trim_matches(['*', '_']).trim(),
        "#" | "no" | "no." | "nr" | "nr." | "№"
    )
}

fn parse_phase_cell(s: &str) -> Option<PhaseId> {
    let t = s.trim().trim_matches('*').trim();
    let t = words::strip_phase_word(t).unwrap_or(t);
    PhaseId::parse_prefix(t).map(|(id, _)| id)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A progress row names its phase's title: after the number, in the
    /// forms real tables use; a range row (`01-04`) names no one phase.
    #[test]
    fn progress_row_names() {
        let row = |label: &str| ProgressRow {
            phase: None,
            label: label.to_owned(),
            plans_complete: None,
            status: String::new(),
            completed: String::new(),
            line: 0,
            cells: Vec::new(),
            milestone_cell: None,
            milestone: None,
            archived: false,
        };
        assert_eq!(
            row("3. Payments Gateway").name().as_deref(),
            Some("Payments Gateway")
        );
        assert_eq!(row("Phase 3: Payments").name().as_deref(), Some("Payments"));
        assert_eq!(row("**03 — Payments**").name().as_deref(), Some("Payments"));
        assert_eq!(
            row("19. article view 增强").name().as_deref(),
            Some("article view 增强")
        );
        assert_eq!(row("01-04").name(), None);
        assert_eq!(row("05 – 08").name(), None);
        assert_eq!(row("7").name(), None);
        assert_eq!(
            row("**Phase 3**: Payments").name().as_deref(),
            Some("Payments")
        );
        assert_eq!(row("3 - 2FA Setup").name().as_deref(), Some("2FA Setup"));
        assert_eq!(row("3 ✅").name(), None);
    }

    #[test]
    fn phase_titles() {
        let (id, name) = parse_phase_title("Phase 2.1: Hotfix (INSERTED)").unwrap();
        assert_eq!((id.unpadded(), name.as_str()), ("2.1".into(), "Hotfix"));
        let (id, name) = parse_phase_title("**Phase 1: Foundation** - base").unwrap();
        assert_eq!((id.unpadded(), name.as_str()), ("1".into(), "Foundation"));
        let (_, name) = parse_phase_title("Phase 3 — UI polish").unwrap();
        assert_eq!(name, "UI polish");
        assert!(parse_phase_title("Phases 1-4 shipped").is_none());
        // Letter and custom IDs before a dash, as before a colon.
        let (id, name) = parse_phase_title("Phase C — Remaining premium features").unwrap();
        assert_eq!(
            (id.to_string().as_str(), name.as_str()),
            ("C", "Remaining premium features")
        );
        let (id, _) = parse_phase_title("Phase MVP – Polish").unwrap();
        assert_eq!(id.to_string(), "MVP");
        let (id, _) = parse_phase_title("Phase AUTH-FLOW: Login").unwrap();
        assert_eq!(id.to_string(), "AUTH-FLOW");
        // A word, not an ID.
        assert!(parse_phase_title("Phase overview — what each phase does").is_none());
        assert!(parse_phase_title("Phase Details").is_none());
        // A label about a phase, not its entry.
        assert!(parse_phase_title("**Phase 22 Status:**").is_none());
        assert!(parse_phase_title("Phase 3 notes:").is_none());
        let (_, name) = parse_phase_title("**Phase 4: Status board**").unwrap();
        assert_eq!(name, "Status board");
    }
}
