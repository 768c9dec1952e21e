//! STATE.md: frontmatter keys and body fields (`Phase: 3 of 8 (Name)`).
//!
//! A field may be shown in several places (frontmatter `current_phase` and
//! body `Phase:`); `field_key` maps every spelling — camelCase, snake_case or
//! the body label — to one key so lookups and later edits find them all.

use serde::Serialize;

use crate::doc::Span;
use crate::doc::markdown::{Markdown, label_line};
use crate::doc::yaml::Node;

use super::document::Document;
use super::ids::PhaseId;
use super::milestone::MilestoneStatus;

/// One `Label: value` line of the body.
#[derive(Debug, Clone, Serialize)]
pub struct BodyField {
    pub label: String,
    pub value: String,
    pub bold: bool,
    pub line: usize,
    /// The `##` section the line is in.
    pub section: Option<String>,
    #[serde(skip)]
    pub value_span: Span,
    #[serde(skip)]
    pub label_span: Span,
}

/// The parsed `Phase:` value: `5 of 9 (Name)`, `8 — COMPLETE`, `3`.
#[derive(Debug, Clone, Serialize)]
pub struct PhasePosition {
    pub phase: PhaseId,
    pub of: Option<u64>,
    pub name: Option<String>,
}

#[derive(Debug, Clone)]
pub struct State {
    pub doc: Document,
    pub md: Markdown,
    pub fields: Vec<BodyField>,
}

/// A label as written, without case, spaces or punctuation
/// (`Current Plan`, `currentPlan` and `current_plan` are one label).
pub fn label_key(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Canonical key of a field name: `label_key`, with the template's short
/// labels mapped to the long ones (`Plan` is `Current Plan`).
pub fn field_key(name: &str) -> String {
    let k = label_key(name);
    match k.as_str() {
        "phase" => "currentphase".into(),
        "plan" => "currentplan".into(),
        "lastsession" | "lastdate" => "lastsession".into(),
        other => other.to_owned(),
    }
}

/// The heading of the section Ralph loops write their history under; its
/// lines (`Loop … on plan 05-02: complete after …`) are not fields.
pub const HISTORY_HEADING: &str = "## Ralph Loop History";

/// A phase's status in a table of STATE.md (`| Phase | Status | … |`, the
/// per-phase progress some trees keep there instead of in ROADMAP.md).
#[derive(Debug, Clone)]
pub struct PhaseStatusRow {
    pub phase: PhaseId,
    pub status: String,
    pub line: usize,
    /// Where STATE.md keeps it, for `--explain` (`STATE.md's phase table`).
    pub source: &'static str,
}

impl State {
    pub fn parse(doc: Document) -> State {
        let text = doc.text();
        let body = doc.body();
        let md = Markdown::scan(text, body, doc.line_of(body.start));
        let mut fields = Vec::new();
        for line in &md.lines {
            if line.in_fence {
                continue;
            }
            let Some(l) = label_line(text, line.span) else {
                continue;
            };
            let label = l.label.slice(text);
            // A plain `Label:` of many words is prose that holds a colon; a
            // bold `**Label:**` is a field however long (gsd-sdk's
            // `stateExtractField` finds it too).
            if label.contains("http") || (!l.bold && label.split_whitespace().count() > 6) {
                continue;
            }
            let section = md
                .headings
                .iter()
                .rfind(|h| h.level == 2 && h.line.span.start < line.span.start)
                .map(|h| h.text.slice(text).to_owned());
            // gsd's own loop history is a record, not fields to set.
            if section
                .as_deref()
                .is_some_and(|s| HISTORY_HEADING.ends_with(s))
            {
                continue;
            }
            fields.push(BodyField {
                label: label.to_owned(),
                value: l.value.slice(text).to_owned(),
                bold: l.bold,
                line: line.number,
                section,
                value_span: l.value,
                label_span: l.label,
            });
        }
        State { doc, md, fields }
    }

    /// Body fields whose label has this key (any spelling).
    pub fn body_fields(&self, name: &str) -> impl Iterator<Item = &BodyField> {
        let key = field_key(name);
        self.fields
            .iter()
            .filter(move |f| field_key(&f.label) == key)
    }

    /// The first body field of this name; `Current Position` lines win.
    pub fn body_field(&self, name: &str) -> Option<&BodyField> {
        let mut all: Vec<&BodyField> = self.body_fields(name).collect();
        all.sort_by_key(|f| {
            !f.section
                .as_deref()
                .is_some_and(|s| s.eq_ignore_ascii_case("Current Position"))
        });
        all.into_iter().next()
    }

    /// The frontmatter entry whose key has this field key.
    pub fn fm_field(&self, name: &str) -> Option<(&str, &Node)> {
        let key = field_key(name);
        self.doc.fm()?.as_map()?.iter().find_map(|(k, v)| {
            let ks = k.as_str()?;
            (field_key(ks) == key).then_some((ks, v))
        })
    }

    /// The value `gsd state get` shows for a field: its first body line,
    /// else its frontmatter scalar as written. None when the field is absent.
    pub fn shown(&self, name: &str) -> Option<String> {
        if let Some(f) = self.body_fields(name).next() {
            return Some(f.value.clone());
        }
        let (_, node) = self.fm_field(name)?;
        Some(match node.as_str() {
            Some(s) => s.to_owned(),
            None => node.to_json().to_string(),
        })
    }

    /// The current phase from the body (`Phase:`/`Current Phase:`), else the
    /// frontmatter `current_phase`.
    pub fn current_phase(&self) -> Option<PhasePosition> {
        if let Some(f) = self.body_field("currentPhase")
            && let Some(p) = parse_position(&f.value)
        {
            return Some(p);
        }
        let (_, node) = self.fm_field("current_phase")?;
        let raw = node.as_str()?;
        parse_position(raw)
    }

    /// Every phase STATE.md names as the position, in the order they
    /// count: `Current Position` lines, other `Phase:` lines, then the
    /// frontmatter `current_phase`. A stale line may sit beside the live
    /// one; the reading takes the first that names work still to do.
    pub fn positions(&self) -> Vec<PhasePosition> {
        let mut lines: Vec<&BodyField> = self.body_fields("currentPhase").collect();
        lines.sort_by_key(|f| {
            !f.section
                .as_deref()
                .is_some_and(|s| s.eq_ignore_ascii_case("Current Position"))
        });
        let mut out: Vec<PhasePosition> = lines
            .iter()
            .filter_map(|f| parse_position(&f.value))
            .collect();
        if let Some(p) = self
            .fm_field("current_phase")
            .and_then(|(_, n)| n.as_str().and_then(parse_position))
        {
            out.push(p);
        }
        // GSD's template's `**Current focus:** Phase 7 (Reviews)` names the
        // phase the work is on: with no `Phase:` line, or after one whose
        // phase is done (`Phase: 10 ✓, 10.1 ✓, 11 ready` beside `Current
        // focus: Phase 11 — Smalls Campaign`, batch 31).
        let focus_counts =
            out.is_empty() || lines.first().is_some_and(|f| position_says_done(&f.value));
        if focus_counts
            && let Some(p) = self
                .body_fields("currentFocus")
                .map(|f| f.value.trim())
                .filter(|v| super::words::strip_phase_word(v).is_some())
                .find_map(parse_position)
        {
            out.push(p);
        }
        out
    }

    /// The line STATE.md states its position on: the body's `Phase:`, else
    /// the frontmatter's `current_phase:`, else the first line.
    pub fn position_line(&self) -> usize {
        self.body_field("currentPhase")
            .map(|f| f.line)
            .or_else(|| {
                self.fm_field("current_phase")
                    .map(|(_, n)| self.doc.line_of(n.span.start))
            })
            .unwrap_or(1)
    }

    /// Whether its status says the phase it names is finished (see
    /// [`status_says_done`]).
    pub fn says_phase_done(&self) -> bool {
        self.status().is_some_and(|s| status_says_done(&s))
    }

    pub fn status(&self) -> Option<String> {
        self.body_field("status")
            .map(|f| f.value.clone())
            .or_else(|| {
                self.fm_field("status")
                    .and_then(|(_, n)| n.as_str().map(str::to_owned))
            })
    }

    /// List entries under a `###`/`##` heading whose text matches `pred`.
    pub fn list_under(&self, pred: impl Fn(&str) -> bool) -> Vec<(usize, String)> {
        let text = self.doc.text();
        let Some((i, _)) = self
            .md
            .find_heading(text, |t| pred(&t.to_ascii_lowercase()))
        else {
            return Vec::new();
        };
        let span = self.md.section(i, self.doc.body().end);
        self.md
            .list_items_in(span)
            .filter(|it| it.indent == 0)
            .map(|it| (it.line.number, it.content.slice(text).to_owned()))
            .collect()
    }

    pub fn decisions(&self) -> Vec<(usize, String)> {
        self.list_under(|t| t.contains("decisions"))
    }

    pub fn blockers(&self) -> Vec<(usize, String)> {
        self.list_under(|t| t.contains("blockers") || t == "concerns")
    }
}

/// Parse `5 of 9 (Name)`, `Phase 5`, `8 — COMPLETE`, `05-auth`.
pub fn parse_position(raw: &str) -> Option<PhasePosition> {
    let t = raw.trim().trim_matches('"');
    // `Phase: Milestone v0.5.0 complete`: between milestones, no phase.
    if t.to_lowercase().starts_with("milestone") {
        return None;
    }
    let t = super::words::strip_phase_word(t).unwrap_or(t);
    let (phase, rest) = PhaseId::parse_prefix(t)?;
    let rest = rest.trim();
    let mut of = None;
    let mut name = None;
    let mut rest = rest;
    if let Some(r) = rest.strip_prefix("of ") {
        let n = r.bytes().take_while(u8::is_ascii_digit).count();
        of = r[..n].parse().ok();
        rest = r[n..].trim();
    }
    // The name in parentheses right after the phase, not one of another
    // phase the line goes on to list (`Phase: 1 ✓, 3 blocked (vendor)`).
    if let Some(open) = rest.find('(')
        && !rest[..open].contains([',', ';'])
        && let Some(close) = rest[open..].find(')')
    {
        name = Some(rest[open + 1..open + close].trim().to_owned());
    }
    Some(PhasePosition { phase, of, name })
}

/// First words of a heading about a part of a phase (`Phase 3 Plan 2`,
/// `Phase 4 UAT`), whose status is not the phase's.
const PART_WORDS: &[&str] = &[
    "plan",
    "plans",
    "wave",
    "task",
    "tasks",
    "step",
    "uat",
    "verification",
    "summary",
    "review",
    "research",
    "context",
    "checkpoint",
];

/// Whether a phase title's name is about a part of the phase (`Phase 3
/// Plan 2`, `Phase 4 UAT`), whose status is not the phase's.
fn about_a_part(name: &str) -> bool {
    let first = name
        .split(|c: char| !c.is_alphanumeric())
        .next()
        .unwrap_or("")
        .to_lowercase();
    PART_WORDS.contains(&first.as_str())
}

/// The status a line naming a phase states: in the phase's name as a title
/// reads one (a word of the name — `Phase 3: Complete Rewrite` — says
/// nothing), else in what follows the name (`Phase 7: Layout Shell —
/// COMPLETE`: the name stops at the dash; `**Phase 10: Deploy** ✓`).
fn stated_status<'a>(line: &'a str, name: &'a str) -> Option<&'a str> {
    let tail = line.find(name).map_or("", |at| &line[at + name.len()..]);
    [name, tail]
        .into_iter()
        .find(|s| MilestoneStatus::of_text(s) != MilestoneStatus::Unknown)
}

/// A mark that says done before a line's text (`✅`, `✓`, `✔`, `☑`).
fn done_mark(c: char) -> bool {
    matches!(c, '✅' | '✓' | '✔' | '☑')
}

/// A heading over a list of work still to do or of choices made (`Pending
/// Todos`, `Decisions`, `Blockers`), whose items name phases without
/// recording them.
fn names_a_worklist(heading: &str) -> bool {
    let lower = heading.to_lowercase();
    [
        "todo", "to-do", "to do", "pending", "decision", "blocker", "concern", "question", "risk",
        "issue", "idea", "note",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

impl State {
    /// The rows of every table whose header has a phase column and a
    /// status column, with the phase they name, then the headings that
    /// name a phase with its status ([`Self::phase_status_headings`]).
    pub fn phase_status_rows(&self) -> Vec<PhaseStatusRow> {
        let text = self.doc.text();
        let mut out = Vec::new();
        for table in self.md.tables() {
            let header: Vec<String> = table[0]
                .cells
                .iter()
                .map(|c| c.slice(text).trim_matches('*').trim().to_ascii_lowercase())
                .collect();
            let (Some(pc), Some(sc)) = (
                header.iter().position(|h| h.contains("phase")),
                header.iter().position(|h| h == "status"),
            ) else {
                continue;
            };
            // `| # | Phase | Goal | Status |`: the number has a column of its
            // own and the phase column holds the name.
            let nc = header
                .iter()
                .position(|h| h == "#" || h == "no." || h == "nr.");
            for row in &table[2..] {
                let (Some(p), Some(st)) = (row.cells.get(pc), row.cells.get(sc)) else {
                    continue;
                };
                let parse = |cell: &str| {
                    let cell = cell.trim_matches('*').trim();
                    super::roadmap::parse_phase_title(cell)
                        .map(|(id, _)| id)
                        .or_else(|| {
                            let (id, rest) = PhaseId::parse_prefix(cell)?;
                            (rest.is_empty() || rest.starts_with(['.', ' ', ':', ')', '—', '–']))
                                .then_some(id)
                        })
                };
                let id = parse(p.slice(text)).or_else(|| {
                    nc.and_then(|c| row.cells.get(c))
                        .and_then(|n| parse(n.slice(text)))
                });
                if let Some(phase) = id {
                    out.push(PhaseStatusRow {
                        phase,
                        status: st.slice(text).trim().to_owned(),
                        line: row.line.number,
                        source: "STATE.md's phase table",
                    });
                }
            }
        }
        out.extend(self.phase_status_headings());
        out.extend(self.phase_status_checklist());
        out.extend(self.phase_status_position_list());
        out
    }

    /// A position line that lists phases with their statuses (`Phase: 10 ✓,
    /// 10.1 ✓, 9 blocked (awaiting Apple Developer), 11 ready`, batch 31
    /// abouchard11+CatWeightLoss): a per-phase record in one line. Two
    /// parts at least, each a phase and a status after it.
    fn phase_status_position_list(&self) -> Vec<PhaseStatusRow> {
        let mut out = Vec::new();
        for f in self.body_fields("currentPhase") {
            let parts: Vec<(PhaseId, &str)> = f
                .value
                .split([',', ';'])
                .filter_map(|part| {
                    let t = part.trim();
                    let t = super::words::strip_phase_word(t).unwrap_or(t);
                    let (phase, rest) = PhaseId::parse_prefix(t)?;
                    let status = rest.trim();
                    (!status.is_empty() && rest.starts_with(' ')).then_some((phase, status))
                })
                .collect();
            if parts.len() < 2 {
                // One phase whose status after it says done (`Phase: 12
                // (Dashboard + Polish) — COMPLETE`): that phase's record.
                if position_says_done(&f.value)
                    && let Some(p) = parse_position(&f.value)
                {
                    out.push(PhaseStatusRow {
                        phase: p.phase,
                        status: "Complete".to_owned(),
                        line: f.line,
                        source: "STATE.md's position line",
                    });
                }
                continue;
            }
            out.extend(parts.into_iter().map(|(phase, status)| PhaseStatusRow {
                phase,
                status: if status.starts_with(done_mark) {
                    "Complete".to_owned()
                } else {
                    status.to_owned()
                },
                line: f.line,
                source: "STATE.md's position line",
            }));
        }
        out
    }

    /// A checklist of phases (`- [x] Phase 1: Backend Foundation
    /// completed.`, `- ✅ Phase 3: Generation UI (1/3 plans)`), or a list of
    /// phases each stating its status after its name (`- Phase 9: App
    /// Shell — COMPLETE`, `- **Phase 10: Deploy Web Assets** ✓`, batch 31):
    /// the per-phase record some trees keep in STATE.md instead of a table.
    /// A ticked (or ✅) phase reads as complete; an unticked one says
    /// nothing; a stated status is read as a heading's is. A record lists
    /// phases only: two at least, every marked item of its section a phase
    /// (an unmarked item that states no status is not one of its items),
    /// under a heading that is not a list of to-dos, decisions or blockers
    /// (`- [x] Phase 2: book the design review` under `### Pending Todos`
    /// is a task about the phase). Items about a part of a phase (`Phase 3
    /// Plan 2`) are not the phase's.
    fn phase_status_checklist(&self) -> Vec<PhaseStatusRow> {
        let text = self.doc.text();
        let headings = &self.md.headings;
        // Items by section (the heading above them, if any): (phase, its
        // status if the item states one, line); None for a marked item that
        // names no phase.
        type Item = Option<(PhaseId, Option<String>, usize)>;
        let mut sections: Vec<(Option<usize>, Vec<Item>)> = Vec::new();
        for item in &self.md.list_items {
            let content = item.content.slice(text).trim_start_matches(['*', '_']);
            // A box, or a mark before the text (`- ✅ Phase 3: UI`, `- ⏸️ …`).
            let checked = match item.checkbox {
                Some(b) => Some(b.checked),
                None => match content.trim_start().chars().next() {
                    Some(c) if !c.is_alphanumeric() && !c.is_ascii_punctuation() => {
                        Some(done_mark(c))
                    }
                    _ => None,
                },
            };
            let content = content
                .trim_start()
                .trim_start_matches(|c: char| !c.is_alphanumeric() && !c.is_whitespace())
                .trim_start()
                .trim_start_matches(['*', '_']);
            let phase =
                super::roadmap::parse_phase_title(content).filter(|(_, name)| !about_a_part(name));
            let phase = match checked {
                Some(ticked) => phase.map(|(phase, _)| {
                    (
                        phase,
                        ticked.then(|| "Complete".to_owned()),
                        item.line.number,
                    )
                }),
                // Unmarked: an item of the record only when it states a status.
                None => match phase.and_then(|(phase, name)| {
                    stated_status(content, &name).map(|st| (phase, st.to_owned()))
                }) {
                    Some((phase, status)) => Some((phase, Some(status), item.line.number)),
                    None => continue,
                },
            };
            let section = headings
                .iter()
                .rposition(|h| h.line.number < item.line.number);
            match sections.last_mut() {
                Some((s, items)) if *s == section => items.push(phase),
                _ => sections.push((section, vec![phase])),
            }
        }
        sections
            .into_iter()
            .filter(|(section, items)| {
                let heading = section.map_or("", |i| headings[i].text.slice(text));
                items.len() >= 2 && items.iter().all(Option::is_some) && !names_a_worklist(heading)
            })
            .flat_map(|(_, items)| items.into_iter().flatten())
            .filter_map(|(phase, status, line)| {
                Some(PhaseStatusRow {
                    phase,
                    status: status?,
                    line,
                    source: "STATE.md's checklist of phases",
                })
            })
            .collect()
    }

    /// Headings that name a phase and state its status (`### Phase 1:
    /// Unpack ✅`, `## Phase 4: Test 🔄 in progress`): the per-phase record
    /// some trees keep in STATE.md's body instead of a table. The status is
    /// read from the heading's name as a title is (a word of the name —
    /// `Phase 3: Complete Rewrite` — says nothing).
    fn phase_status_headings(&self) -> impl Iterator<Item = PhaseStatusRow> + '_ {
        let text = self.doc.text();
        self.md.headings.iter().filter_map(move |h| {
            let heading = h.text.slice(text);
            let (phase, name) = super::roadmap::parse_phase_title(heading)?;
            // `### Phase 3 Plan 2: Complete`, `### Phase 4 UAT ✅`: a record
            // of a part of the phase, not of the phase.
            if about_a_part(&name) {
                return None;
            }
            // A mark before the phase word (`### ✅ Phase 1: Unpack`) is its
            // status too.
            let lead = heading
                .trim_start()
                .starts_with(done_mark)
                .then_some("Complete");
            let status = stated_status(heading, &name).or(lead)?;
            Some(PhaseStatusRow {
                phase,
                status: status.to_owned(),
                line: h.line.number,
                source: "its STATE.md heading",
            })
        })
    }
}

/// Whether a STATE.md status says the phase its position names is
/// finished: a done word anywhere in it (`Phase 3 complete — ready for
/// Phase 4`, `Verified`, `Shipped`, `Closed`), or a status that opens with
/// one in another language (`Concluído`, `Abgeschlossen`). GSD's tools
/// write the first form; people write both. The one list the reading and
/// lint share.
pub fn status_says_done(status: &str) -> bool {
    let lower = status.to_lowercase();
    ["complete", "done", "verif", "shipped", "closed"]
        .iter()
        .any(|w| lower.contains(w))
        || super::milestone::MilestoneStatus::of_value(status)
            == super::milestone::MilestoneStatus::Shipped
}

/// Whether a status says the work has moved past `phase`: `Between
/// phases`, or a later phase named as the next (`Next is Phase 66`,
/// `next: Phase 4 planning`).
pub fn status_moved_past(status: &str, phase: &super::PhaseId) -> bool {
    let lower = status.to_lowercase();
    if lower.contains("between phases") {
        return true;
    }
    // Still at work on it (`Executing phase 1 (Nextjs migration), then
    // phase 2`): nothing has moved on.
    if ["executing", "in progress", "in-progress"]
        .iter()
        .any(|w| lower.contains(w))
    {
        return false;
    }
    let word_at = |i: usize| {
        let before = lower[..i].chars().next_back();
        let after = lower[i + 4..].chars().next();
        before.is_none_or(|c| !c.is_alphanumeric()) && after.is_none_or(|c| !c.is_alphanumeric())
    };
    let Some(at) = lower
        .match_indices("next")
        .map(|(i, _)| i)
        .find(|&i| word_at(i))
    else {
        return false;
    };
    let after = &lower[at..];
    let Some(p) = after.find("phase") else {
        return false;
    };
    let id = after[p + 5..]
        .trim_start_matches([' ', ':', '#'])
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '.'))
        .next()
        .unwrap_or("");
    super::PhaseId::parse(id.trim_end_matches('.')).is_some_and(|next| next > *phase)
}

/// Whether a position line says the phase it names is done, in what
/// follows the phase (its `of N` and `(name)` aside) up to the next comma:
/// `12 (Dashboard + Polish) — COMPLETE`, `10 ✓, 10.1 ✓, 9 blocked`.
pub fn position_says_done(raw: &str) -> bool {
    let t = raw.trim().trim_matches('"');
    let t = super::words::strip_phase_word(t).unwrap_or(t);
    let Some((_, rest)) = PhaseId::parse_prefix(t) else {
        return false;
    };
    let mut rest = rest.trim_start();
    if let Some(r) = rest.strip_prefix("of ") {
        rest = r
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim_start();
    }
    if rest.starts_with('(')
        && let Some(close) = rest.find(')')
    {
        rest = rest[close + 1..].trim_start();
    }
    let tail = rest
        .trim_start_matches(['—', '–', '-', ':', ' '])
        .split([',', ';'])
        .next()
        .unwrap_or("")
        .trim();
    tail.starts_with(done_mark) || says_only_done(tail)
}

/// Whether `tail` is a done word alone (`COMPLETE`, `Done ✅`, `complete
/// (2026-03-01)`), not the start of a name (`Closed Captions`, `Completed
/// Orders View`).
fn says_only_done(tail: &str) -> bool {
    let lower = tail.to_lowercase();
    let mut words = lower.split_whitespace();
    let first = words
        .next()
        .unwrap_or("")
        .trim_matches(|c: char| !c.is_alphanumeric());
    let done = [
        "complete",
        "completed",
        "done",
        "verified",
        "shipped",
        "closed",
    ]
    .contains(&first);
    done && words.next().is_none_or(|w| {
        !w.starts_with(|c: char| c.is_alphabetic()) // a mark, a date, `(…)`, a dash
    })
}

/// Whether a status says the phase itself is finished, not a step of it:
/// it opens with a done word, after an optional `Phase N` (`Phase complete
/// (with fixes)`, `Phase 3 complete — ready for Phase 4`, `shipped
/// (v0.1.1); …`, `Concluído`), or says its code is complete (`CODE
/// COMPLETE — 24 of 26 plans done`). `Plan 01-04 complete, ready for
/// 01-05` is a plan's, and says nothing of the phase.
pub fn status_says_phase_done(status: &str) -> bool {
    let lower = status.trim().trim_matches(['*', '_']).trim().to_lowercase();
    let mut rest = lower.as_str();
    if let Some(r) = rest.strip_prefix("phase") {
        rest = r.trim_start();
        if let Some((id, r)) = rest.split_once(' ')
            && id.starts_with(|c: char| c.is_ascii_digit())
            && super::PhaseId::parse(id).is_some()
        {
            rest = r.trim_start();
        }
    }
    let opens = ["complete", "done", "verified", "shipped", "closed"]
        .iter()
        .any(|w| rest.starts_with(w));
    opens
        || super::milestone::says_code_complete(status, true)
        || (!lower.starts_with("plan")
            && super::milestone::MilestoneStatus::of_value(status)
                == super::milestone::MilestoneStatus::Shipped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_that_say_the_work_moved_on() {
        let p65 = crate::model::PhaseId::parse("65").unwrap();
        for s in [
            "Between phases. Next is Phase 66 (Rental Application Intake); 66-73 remain.",
            "Phase 65 verified; next: Phase 66 planning",
            "between phases",
        ] {
            assert!(status_moved_past(s, &p65), "{s}");
        }
        for s in [
            "Executing Phase 65",
            "Next: finish Phase 65",
            "next phase 64 rework",
            "In progress",
            "Executing phase 65 (Nextjs migration), then phase 66",
            "Nextphase 66",
        ] {
            assert!(!status_moved_past(s, &p65), "{s}");
        }
    }

    #[test]
    fn statuses_that_say_the_phase_is_done() {
        for s in [
            "Phase 3 complete — ready for Phase 4",
            "Verified",
            "SHIPPED",
            "Closed",
            "Concluído",
        ] {
            assert!(status_says_done(s), "{s}");
        }
        for s in ["Executing", "Ready to plan", "In progress", ""] {
            assert!(!status_says_done(s), "{s}");
        }
    }

    #[test]
    fn statuses_that_say_the_phase_itself_is_done() {
        for s in [
            "Phase complete (with fixes)",
            "Phase 3 complete — ready for Phase 4",
            "shipped (v0.1.1); v0.1.2 polish queue captured",
            "CODE COMPLETE — 24 of 26 plans done (92%)",
            "Concluído",
            "Verified",
        ] {
            assert!(status_says_phase_done(s), "{s}");
        }
        for s in [
            "Plan 01-04 complete, ready for 01-05",
            "Executing",
            "Ready to plan",
            "In progress — 2 of 3 plans complete",
            "",
        ] {
            assert!(!status_says_phase_done(s), "{s}");
        }
    }

    #[test]
    fn field_keys_unify_spellings() {
        assert_eq!(field_key("currentPhase"), field_key("current_phase"));
        assert_eq!(field_key("Phase"), field_key("Current Phase"));
        assert_eq!(field_key("Last activity"), field_key("last_activity"));
    }

    #[test]
    fn positions() {
        let p = parse_position("5 of 9 (Auth API)").unwrap();
        assert_eq!(
            (p.phase.unpadded(), p.of, p.name.as_deref()),
            ("5".into(), Some(9), Some("Auth API"))
        );
        assert_eq!(
            parse_position("Phase 2.1 — EXECUTING")
                .unwrap()
                .phase
                .unpadded(),
            "2.1"
        );
        assert!(parse_position("Not started").is_none());
    }
}
