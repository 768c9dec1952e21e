//! Milestones as GSD defines them (GSD-FORMATS §4.1, §4.2, §4.5 and the
//! new-milestone / complete-milestone workflows), read the way real
//! roadmaps write them.
//!
//! A roadmap names its milestones in up to three places, and real trees use
//! every mix of them:
//! - the `## Milestones` list (`- ✅ **v1.0 MVP** - Phases 1-4 (shipped …)`),
//!   the only place that gives a phase *range*;
//! - `<details>` blocks whose `<summary>` names a shipped milestone (closed)
//!   or, with `<details open>`, usually the one in progress;
//! - milestone headings (`### 🚧 v1.1 Polish (In Progress)`,
//!   `## 🏁 Milestone v9.0 (…) - [In Planning]`, `## Milestone 2: … ✅`).
//!
//! Each `<details>` block and milestone heading is a *region* of the file;
//! a phase entry (detail heading, checklist line, progress row) belongs to
//! the innermost region around it. An entry outside every region (the usual
//! `## Phase Details` and `## Progress` sections) takes the milestone that
//! the other entries of the same phase agree on, else the one whose listed
//! range holds it. Numbering that restarts per milestone is why identity is
//! (milestone, phase) and why an entry never borrows a milestone when the
//! evidence disagrees.
//!
//! This module only reads; it never decides what a command prints.

use serde::Serialize;

use crate::doc::Span;

use super::ids::PhaseId;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MilestoneStatus {
    Shipped,
    InProgress,
    Planned,
    Unknown,
}

impl MilestoneStatus {
    /// The word people read: `in progress`, and nothing for a milestone
    /// nothing marks.
    pub fn word(self) -> &'static str {
        match self {
            MilestoneStatus::Shipped => "shipped",
            MilestoneStatus::InProgress => "in progress",
            MilestoneStatus::Planned => "planned",
            MilestoneStatus::Unknown => "",
        }
    }

    /// The status a line of text states, read only where a status is
    /// written: a mark anywhere (✅ 🚧 🔄 📋, 💤 for a dormant one), or a status phrase opening a
    /// part of the line after its title — in brackets or parentheses, after a
    /// dash or a colon (`(shipped 2026-01-02)`, `- [In Planning]`,
    /// `— SHIPPED`). A word inside the title (`v2.0 Complete Rewrite`) or a
    /// description (`Phases 43-45 (43 complete, 44 partial)`) says nothing.
    pub fn of_text(s: &str) -> MilestoneStatus {
        if s.contains('✅') || s.contains('✓') || s.contains('☑') {
            return MilestoneStatus::Shipped;
        }
        if s.contains('🚧') || s.contains('🔄') || s.contains('⏳') {
            return MilestoneStatus::InProgress;
        }
        if s.contains('📋') || s.contains('💤') {
            return MilestoneStatus::Planned;
        }
        let parts = status_parts(s);
        for (i, part) in parts.iter().enumerate().filter(|(_, p)| !p.is_empty()) {
            // The title itself speaks only when it is nothing but a status.
            if let Some(st) = status_phrase(part, i == 0) {
                return st;
            }
        }
        MilestoneStatus::Unknown
    }

    /// The status a value states on its own (`**Status:** Complete ✓`, a
    /// progress table's status cell): its first words.
    pub fn of_value(s: &str) -> MilestoneStatus {
        match MilestoneStatus::of_text(s) {
            MilestoneStatus::Unknown => {
                status_phrase(&clean_words(s), false).unwrap_or(MilestoneStatus::Unknown)
            }
            st => st,
        }
    }
}

/// Whether a status written for a phase says its code landed though the
/// phase is not closed (`CODE-COMPLETE`, `code complete — human-verify
/// pending`, `Implementation complete`): its plans ran, whatever the gate still open
/// (a UAT, a release) — so the plans are history, not work to execute.
/// Read where a status is written, as for milestones; `whole` when `s` is
/// a status value alone (a progress cell, a `**Status:**` line).
pub fn says_code_complete(s: &str, whole: bool) -> bool {
    const LANDED: &[&str] = &[
        "code-complete",
        "code complete",
        "implementation complete",
        "implementation-complete",
    ];
    parts_open_with(s, whole, LANDED)
}

/// Whether a part of `s` where a status is written (every part when `s`
/// is a status value alone, `whole`; else the parts after its title)
/// opens with one of `words`.
fn parts_open_with(s: &str, whole: bool, words: &[&str]) -> bool {
    status_parts(s).iter().skip(usize::from(!whole)).any(|p| {
        words.iter().any(|w| {
            p == w
                || p.strip_prefix(w)
                    .is_some_and(|r| r.starts_with([' ', '.', '-']))
        })
    })
}

/// Whether a status written for a phase says its work is put off
/// (`Deferred`, `⏸ Parked`, `On hold`, `Postponed`, `Backlog`): parked,
/// not the work under way. Read where a status is written, as
/// [`says_code_complete`]; `whole` when `s` is a status value alone.
pub fn says_put_off(s: &str, whole: bool) -> bool {
    const PUT_OFF: &[&str] = &[
        "deferred",
        "parked",
        "on hold",
        "on-hold",
        "postponed",
        "backlog",
        "icebox",
        "someday",
        "aufgeschoben",
        "zurückgestellt",
        "diferido",
        "diferida",
        "adiado",
        "adiada",
        "reporté",
        "reportée",
        "ertelendi",
    ];
    parts_open_with(s, whole, PUT_OFF)
}

/// Whether a milestone's title opens by saying its work is put off
/// (`## Deferred Features (v3.0)`, `Future Ideas — v4`, `Backlog (v2)`):
/// a parking place for later work, planned at most, never the work under
/// way while nothing marks it so.
fn title_puts_off(text: &str) -> bool {
    const PUT_OFF: &[&str] = &[
        "deferred", "future", "later", "backlog", "someday", "parked", "icebox",
    ];
    let title = clean_words(&clean_title(text));
    let first = title
        .split(' ')
        .find(|w| find_milestone_id(w).is_none() && *w != "milestone")
        .unwrap_or("");
    PUT_OFF.contains(&first)
}

/// The status a milestone's title gives by naming its place in the work
/// (`## Current Milestone: v1.5 — …` is in progress, `## Next Milestone:
/// v2.0 — …` planned), when nothing else marks it.
fn title_says_place(text: &str) -> Option<MilestoneStatus> {
    let title = clean_words(&clean_title(text));
    let opens = |w: &str| {
        title
            .strip_prefix(w)
            .is_some_and(|r| r.is_empty() || r.starts_with(' '))
    };
    if ["current milestone", "active milestone"]
        .into_iter()
        .any(opens)
    {
        Some(MilestoneStatus::InProgress)
    } else if ["next milestone", "upcoming milestone"]
        .into_iter()
        .any(opens)
    {
        Some(MilestoneStatus::Planned)
    } else {
        None
    }
}

/// Whether a phase's title says it was dropped (`(REMOVED)`, `— cancelled`,
/// `[superseded]`): written where a status is written, as for milestones.
pub fn says_dropped(s: &str) -> bool {
    const DROPPED: &[&str] = &[
        "removed",
        "dropped",
        "cancelled",
        "canceled",
        "abandoned",
        "superseded",
        "obsolete",
        "descoped",
        "won't do",
        "wontfix",
        "entfernt",
        "supprimé",
        "removido",
        "cancelado",
    ];
    parts_open_with(s, false, DROPPED)
}

/// Status phrases by meaning, in the languages of real roadmaps.
const SHIPPED_WORDS: &[&str] = &[
    "shipped",
    "code complete",
    "code-complete",
    "complete",
    "completed",
    "done",
    "finished",
    "released",
    "archived",
    "concluído",
    "concluido",
    "concluída",
    "completo",
    "completado",
    "terminé",
    "terminée",
    "archivé",
    "archivée",
    "abgeschlossen",
    "fertig",
    "tamamlandı",
    "tamamlandi",
    "завершён",
    "завершен",
    "выполнен",
    "完了",
    "已完成",
    "完成",
];
const IN_PROGRESS_WORDS: &[&str] = &[
    "opened",
    "in progress",
    "current",
    "active",
    "this milestone",
    "wip",
    "ongoing",
    "executing",
    // Parked is still not shipped (READING.md: 🔄 "parked").
    "paused",
    "parked",
    "on hold",
    "em andamento",
    "en cours",
    "in arbeit",
    "devam ediyor",
    "в работе",
    "進行中",
    "进行中",
];
const PLANNED_WORDS: &[&str] = &[
    "planned",
    "proposed",
    "planning",
    "in planning",
    "next",
    "future",
    "upcoming",
    "pending",
    "not started",
    "later",
    "deferred",
    // Work that waits on something before it may start (`💤 v2.7 … —
    // conditional, only if the demand gate triggers`).
    "conditional",
    "dormant",
    "tentative",
    "on hold",
    // A placeholder for the next cycle (`## v2.0 — Not yet defined`, then
    // "Run /gsd:new-milestone"): named, not begun.
    "not yet defined",
    "not defined yet",
    "to be defined",
    "not yet planned",
    "planlandı",
    "planlandi",
    "planejado",
    "planificado",
    "geplant",
    "prévu",
    "à venir",
    "запланирован",
    "予定",
    "计划",
];

/// Whether a heading names what follows as finished milestones
/// (`## Shipped Milestones`, `## Completed Milestones`, `## Завершённые
/// milestone'ы`): a shipped word opens one of its words, and it speaks of
/// milestones, versions or releases.
pub fn names_shipped(heading: &str) -> bool {
    let words = clean_words(heading);
    let about = ["milestone", "version", "release"]
        .iter()
        .any(|w| words.contains(w));
    about
        && words.split(' ').any(|w| {
            SHIPPED_WORDS
                .iter()
                .any(|s| !s.contains(' ') && w.starts_with(s))
        })
}

/// A line cut into the parts where a status may be written: the title,
/// then each bracketed, parenthesized, dash- or colon-led part.
fn status_parts(s: &str) -> Vec<String> {
    let s = s.replace("**", " ").replace(['_', '*', '`'], " ");
    let mut parts = vec![String::new()];
    let mut rest = s.as_str();
    while let Some(c) = rest.chars().next() {
        let sep = [" — ", " – ", " -- ", " - ", " | ", ": "]
            .iter()
            .find(|p| rest.starts_with(**p));
        // `Milestone v5.0: Complete Rewrite`: a colon after the bare name
        // opens the title, not a status. (Asked only at a colon: asked at
        // every character, it made a long title quadratic.)
        let names_only = |p: &str| {
            p == ": " && parts.len() == 1 && {
                let w = clean_words(&parts[0]);
                w.split(' ').count() <= 2 && find_milestone_id(&w).is_some()
            }
        };
        if let Some(p) = sep.filter(|p| !names_only(p)) {
            parts.push(String::new());
            rest = &rest[p.len()..];
            continue;
        }
        if "()[]|,;".contains(c) {
            parts.push(String::new());
        } else {
            parts.last_mut().expect("never empty").push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    // The first part is the title even when empty (`— [Concluído]`).
    parts.into_iter().map(|p| clean_words(&p)).collect()
}

/// Lower case, marks and emoji dropped, spaces squeezed.
fn clean_words(s: &str) -> String {
    s.to_lowercase()
        .split(|c: char| c.is_whitespace() || (!c.is_alphanumeric() && !"-'.".contains(c)))
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The status a part opens with (`whole`: the part must be only that).
fn status_phrase(part: &str, whole: bool) -> Option<MilestoneStatus> {
    let opens = |w: &str| {
        if whole {
            part == w
        } else {
            part == w
                || part
                    .strip_prefix(w)
                    .is_some_and(|r| r.starts_with([' ', '.', '-']))
        }
    };
    let any = |words: &[&str]| words.iter().any(|w| opens(w));
    if any(SHIPPED_WORDS) {
        Some(MilestoneStatus::Shipped)
    } else if any(IN_PROGRESS_WORDS) {
        Some(MilestoneStatus::InProgress)
    } else if any(PLANNED_WORDS) {
        Some(MilestoneStatus::Planned)
    } else {
        None
    }
}

/// Where a milestone was named.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MilestoneSource {
    /// An item of the `## Milestones` list.
    List,
    /// A `<details>` block's `<summary>`.
    Details,
    /// A heading.
    Heading,
    /// STATE.md's `milestone:` and `milestone_name:`, for a roadmap that
    /// names no milestone of its own.
    State,
    /// PROJECT.md's `## Current Milestone: v2.0 Name` (GSD's new-milestone
    /// writes it), for a roadmap and a STATE.md that name none.
    Project,
    /// Only the Milestone cell of progress rows (`| 14. Layouts | v1.2 |
    /// 0/4 | Planning |`): a phase added after the listed milestones
    /// shipped, whose row GSD gave the next version.
    Progress,
}

#[derive(Debug, Clone, Serialize)]
pub struct Milestone {
    /// `v1.2`, `v0.9.0`; None for `## Milestone: Name` without one.
    pub version: Option<String>,
    pub title: String,
    pub status: MilestoneStatus,
    /// 1-based line of the first place that names it.
    pub line: usize,
    pub source: MilestoneSource,
    /// Where its status was read: the first place that states one (a
    /// milestone named in several places keeps the first status stated).
    /// None when nothing states it.
    #[serde(skip)]
    pub status_from: Option<(MilestoneSource, usize)>,
    /// Planned only because its title says its work is put off
    /// (`## Deferred Features (v3.0)`): `--explain` says so.
    #[serde(skip)]
    pub put_off: bool,
    /// The phase range as written (`Phases 12-14, 16`), if any.
    pub phase_range: Option<String>,
    #[serde(skip)]
    pub range: PhaseRange,
    /// The name a heading gives after the version (`## v0.16.0 — Share
    /// Snapshots`): two headings of one version with different names are
    /// two milestones.
    #[serde(skip)]
    pub name: Option<String>,
}

impl Milestone {
    pub fn is_shipped(&self) -> bool {
        self.status == MilestoneStatus::Shipped
    }

    /// `v1.0 MVP` style label for messages.
    pub fn label(&self) -> String {
        label(self.version.as_deref(), &self.title)
    }
}

/// A milestone's name for people: its title, with the version in front
/// when the title does not already say it.
pub fn label(version: Option<&str>, title: &str) -> String {
    match version {
        Some(v) if title.contains(v) => title.to_owned(),
        Some(v) if title.is_empty() => v.to_owned(),
        Some(v) => format!("{v} {title}"),
        None => title.to_owned(),
    }
}

/// A region of ROADMAP.md that belongs to one milestone.
#[derive(Debug, Clone, Copy)]
pub struct Region {
    pub span: Span,
    pub milestone: usize,
}

/// `Phases 1-4`, `Phase 20`, `Phases 12-14, 16`, `Phase 7+`, `Phases 1-6.5`.
#[derive(Debug, Clone, Default)]
pub struct PhaseRange {
    parts: Vec<RangePart>,
}

#[derive(Debug, Clone)]
enum RangePart {
    One(PhaseId),
    Between(PhaseId, PhaseId),
    From(PhaseId),
}

impl PhaseRange {
    /// The range after the first `Phase`/`Phases` word in `s`, with the text
    /// it was read from.
    pub fn find(s: &str) -> Option<(PhaseRange, String)> {
        let (at, after) = super::words::find_phases_word(s)?;
        let rest = &s[at..];
        let mut parts = Vec::new();
        // A label before the numbers (`**Phases:** 18-21`, `**Phases
        // completed:** 5-6`, the MILESTONES.md entries GSD writes).
        let label = after
            .strip_prefix("completed")
            .or_else(|| after.strip_prefix("complete"))
            .unwrap_or(after);
        let mut cur = if label.trim_start().starts_with([':', '：']) {
            label.trim_start_matches([':', '：', '*', '_', ' '])
        } else {
            after
        };
        while let Some((a, tail)) = PhaseId::parse_prefix(cur) {
            let tail_t = tail.trim_start();
            // A count, not a phase (`**Phases completed:** 4 phases, 12
            // plans`, as GSD's complete-milestone writes it).
            let lower = tail_t.get(..5).map(str::to_ascii_lowercase);
            if matches!(lower.as_deref(), Some("phase" | "plans")) {
                break;
            }
            if let Some(t) = tail_t
                .strip_prefix('-')
                .or_else(|| tail_t.strip_prefix('–'))
                .or_else(|| tail_t.strip_prefix("to "))
                && let Some((b, t2)) = PhaseId::parse_prefix(t.trim_start())
            {
                parts.push(RangePart::Between(a, b));
                cur = t2;
            } else if let Some(t) = tail_t.strip_prefix('+') {
                parts.push(RangePart::From(a));
                cur = t;
            } else {
                parts.push(RangePart::One(a));
                cur = tail;
            }
            match next_item(cur) {
                Some(t) => cur = t,
                None => break,
            }
        }
        if parts.is_empty() {
            return None;
        }
        let used = rest.len() - cur.len();
        Some((PhaseRange { parts }, rest[..used].trim().to_owned()))
    }

    /// The phases of an execution-order line after its first colon
    /// (`v1.0: 1 → 2 → 2.1 (complete)`, `v2 (Smart Themes): Phases 7 → 8`):
    /// two or more phases joined by arrows, and nothing before them but an
    /// optional `Phase`/`Phases` word. A colon followed by prose is no range.
    pub fn chain(s: &str) -> Option<(PhaseRange, String)> {
        let (_, after) = s.split_once(':')?;
        let t = after.trim_start();
        let t = match super::words::find_phases_word(t) {
            Some((0, rest)) => rest,
            _ => t,
        };
        let mut cur = t.trim_start();
        let start = cur;
        let mut parts = Vec::new();
        let mut arrows = 0;
        while let Some((id, tail)) = PhaseId::parse_prefix(cur) {
            parts.push(RangePart::One(id));
            cur = tail;
            let t = tail.trim_start();
            match ARROWS.iter().find_map(|a| t.strip_prefix(a)) {
                Some(t) => {
                    arrows += 1;
                    cur = t.trim_start();
                }
                None => break,
            }
        }
        if parts.len() < 2 || arrows + 1 != parts.len() {
            return None;
        }
        let used = start.len() - cur.len();
        Some((PhaseRange { parts }, start[..used].trim().to_owned()))
    }

    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    pub fn contains(&self, id: &PhaseId) -> bool {
        self.parts.iter().any(|p| match p {
            RangePart::One(a) => a == id || (id.is_decimal() && a == &id.base()),
            RangePart::Between(a, b) => a <= id && (id <= b || id.base() <= *b),
            RangePart::From(a) => a <= id && !id.is_backlog(),
        })
    }
}

/// The arrows of an execution order (`1 → 2 → 2.1`).
const ARROWS: [&str; 3] = ["→", "->", "⟶"];

/// The text after a separator between the items of a range (`,`, `and`,
/// an arrow), or None at its end.
fn next_item(cur: &str) -> Option<&str> {
    let t = cur.trim_start();
    [",", "and "]
        .iter()
        .chain(&ARROWS)
        .find_map(|sep| t.strip_prefix(sep))
        .map(str::trim_start)
}

/// The first `vN.N…` version in `s` (GSD-FORMATS §4.5: two or more dot
/// groups), never a substring of a longer one (`v0.1` is not in `v0.10`).
pub fn find_version(s: &str) -> Option<String> {
    let b = s.as_bytes();
    for (i, _) in s.match_indices(['v', 'V']) {
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

/// A milestone's identifier as a roadmap writes it: a dotted version
/// anywhere (`v1.2`, `v2026.3`, `tools-v1.0` → `v1.0`), or at the start of
/// the name (after marks and a `Milestone` word) a major version `v7`, an
/// `M2`, or the number of `Milestone 3` (kept as written: `Milestone 3`).
pub fn find_milestone_id(s: &str) -> Option<String> {
    if let Some(v) = find_version(s) {
        return Some(v);
    }
    let t = s
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .trim_start();
    if let Some(id) = short_id(t) {
        return Some(id);
    }
    // `Roadmap: invisible — Milestone M1 (…)`: the word may come later.
    let (word, t) = super::words::find_milestone_word(t).map(|(_, w, rest)| (w, rest))?;
    let t = t.trim_start().trim_start_matches([':', '：', '#', ' ']);
    if let Some(id) = short_id(t) {
        return Some(id);
    }
    // `Milestone 3`, `Milestone 0.8.7`; `里程碑 2` in the roadmap's words.
    let n = t
        .bytes()
        .take_while(|c| c.is_ascii_digit() || *c == b'.')
        .count();
    let number = t[..n].trim_end_matches('.');
    if number.starts_with(|c: char| c.is_ascii_digit())
        && ends_word(t[number.len()..].trim_start_matches('.'))
    {
        let word = if word.eq_ignore_ascii_case("milestone") {
            "Milestone"
        } else {
            word
        };
        return Some(format!("{word} {number}"));
    }
    None
}

/// Whether `r` does not continue a word or a version.
fn ends_word(r: &str) -> bool {
    !r.starts_with(|c: char| c.is_alphanumeric() || c == '.')
}

/// A major version `v7` or an `M2` at the start of `t`.
fn short_id(t: &str) -> Option<String> {
    for (prefix, shown) in [('v', "v"), ('V', "v"), ('M', "M"), ('m', "M")] {
        if let Some(r) = t.strip_prefix(prefix) {
            let n = r.bytes().take_while(u8::is_ascii_digit).count();
            if n > 0 && n <= 4 && ends_word(&r[n..]) {
                return Some(format!("{shown}{}", &r[..n]));
            }
        }
    }
    None
}

/// Whether the heading's version is named only as a point of reference
/// (`## Phases (Continuous Numbering from v1.0)`, `since v2.1`): the
/// heading is about something else, and names no milestone of its own.
fn only_refers_to_version(text: &str) -> bool {
    let Some(id) = find_milestone_id(text) else {
        return false;
    };
    let lower = text.to_lowercase();
    let id = id.to_lowercase();
    let Some(at) = lower.find(&id) else {
        return false;
    };
    let before = lower[..at].trim_end();
    let last = before
        .rsplit(|c: char| c.is_whitespace() || c == '(')
        .next()
        .unwrap_or("");
    matches!(
        last,
        "from" | "since" | "after" | "than" | "until" | "before" | "over"
    ) && super::words::find_milestone_word(text).is_none()
}

/// Whether a version names a scope of requirements (`v1 Requirements`,
/// `**v1 requirements total:** 59`, `v2 requirement`): GSD's words for what
/// ships in a version, a count or a section, not a milestone of the roadmap.
pub fn names_requirement_scope(text: &str) -> bool {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || matches!(c, '*' | '_' | '#' | ':' | '(' | ')'))
        .filter(|w| !w.is_empty())
        .collect();
    words.windows(2).any(|w| {
        let v = w[0].strip_prefix(['v', 'V']).unwrap_or("");
        !v.is_empty()
            && v.split('.')
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            && w[1].to_lowercase().starts_with("requirement")
    })
}

/// Whether a non-phase heading starts a milestone region: it names a
/// milestone ([`find_milestone_id`]), or says `Milestone:` (not the plural
/// list heading `## Milestones`).
pub fn is_milestone_heading(text: &str) -> bool {
    if names_requirement_scope(text) || only_refers_to_version(text) {
        return false;
    }
    if find_milestone_id(text).is_some() {
        return true;
    }
    let Some((_, _, after)) = super::words::find_milestone_word(text) else {
        return false;
    };
    let after = after.trim_start();
    after.starts_with([':', '：']) || after.starts_with(|c: char| c.is_ascii_digit())
}

/// Two versions name the same milestone (`v1` and `v1.0` do: archive files
/// are sometimes named without the `.0`).
pub fn same_version(a: &str, b: &str) -> bool {
    let norm = |v: &str| {
        // `Milestone 3` and `M3` are one; `v3` is another kind of name.
        let v = v
            .strip_prefix("Milestone ")
            .map_or(v.to_owned(), |n| format!("M{n}"));
        let kind = v.starts_with(['M', 'm']);
        let v = v.trim_start_matches(['v', 'V', 'M', 'm']);
        let mut parts: Vec<&str> = v.split('.').collect();
        while parts.len() > 1 && parts.last().is_some_and(|p| p.chars().all(|c| c == '0')) {
            parts.pop();
        }
        parts
            .iter()
            .map(|p| p.trim_start_matches('0').to_owned())
            .chain(kind.then(|| "M".to_owned()))
            .collect::<Vec<_>>()
    };
    norm(a) == norm(b)
}

/// Every milestone of a roadmap and the regions that belong to them.
#[derive(Debug, Clone, Default)]
pub struct MilestoneMap {
    pub milestones: Vec<Milestone>,
    pub regions: Vec<Region>,
}

impl MilestoneMap {
    /// Add a milestone named at `line`, merging with an earlier mention of
    /// the same version (the list item and its `<details>` are one
    /// milestone). The list's status wins over a region's when both speak.
    pub fn add(&mut self, text: &str, line: usize, source: MilestoneSource) -> usize {
        self.add_with_status(text, line, source, MilestoneStatus::of_text(text))
    }

    pub fn add_with_status(
        &mut self,
        text: &str,
        line: usize,
        source: MilestoneSource,
        status: MilestoneStatus,
    ) -> usize {
        // Unmarked, its title saying it is put off: planned at most.
        let put_off = status == MilestoneStatus::Unknown && title_puts_off(text);
        // `🔄 v1.1 … (in progress — superseded by v1.3 tokens)`, `🗃️ v7.2 …
        // (superseded: paused at 1/9 phases)`: closed without shipping, it
        // is over all the same — never the work under way.
        let status = if says_dropped(text) {
            MilestoneStatus::Shipped
        } else if put_off {
            MilestoneStatus::Planned
        } else if status == MilestoneStatus::Unknown {
            title_says_place(text).unwrap_or(status)
        } else {
            status
        };
        let version = find_milestone_id(text);
        // An execution-order line is named by what comes before its colon.
        let (text, range) = match PhaseRange::find(text) {
            Some(r) => (text, Some(r)),
            None => match PhaseRange::chain(text) {
                Some(r) => (text.split_once(':').map_or(text, |(name, _)| name), Some(r)),
                None => (text, None),
            },
        };
        let name = match (&version, source) {
            (Some(v), MilestoneSource::Heading) => heading_name(text, v),
            _ => None,
        };
        // Two headings of one version, each naming a different milestone
        // (`## v0.16.0 — CAS Convergence`, then `## v0.16.0 — Share
        // Snapshots`), stay two.
        let other_milestone = |m: &Milestone| {
            m.source == MilestoneSource::Heading
                && match (&m.name, &name) {
                    (Some(a), Some(b)) => {
                        let (a, b) = (a.to_lowercase(), b.to_lowercase());
                        !a.contains(&b) && !b.contains(&a)
                    }
                    _ => false,
                }
        };
        let same = |m: &Milestone| {
            version
                .as_deref()
                .is_some_and(|v| m.version.as_deref().is_some_and(|w| same_version(v, w)))
        };
        let shared = self
            .milestones
            .iter()
            .any(|m| same(m) && other_milestone(m));
        if shared {
            for m in self.milestones.iter_mut().filter(|m| same(m)) {
                if let (Some(n), Some(v)) = (&m.name, &m.version)
                    && m.title == *v
                {
                    m.title = format!("{v} {n}");
                }
            }
        }
        // A heading of a shared version (`## v0.16.0 Progress`) belongs to
        // the milestone of that version named last above it.
        let matching = |m: &Milestone| same(m) && !other_milestone(m);
        let found = if source == MilestoneSource::Heading {
            self.milestones.iter().rposition(matching)
        } else {
            self.milestones.iter().position(matching)
        };
        if version.is_some()
            && let Some(i) = found
        {
            let m = &mut self.milestones[i];
            if (m.status == MilestoneStatus::Unknown || m.put_off)
                && status != MilestoneStatus::Unknown
                && !put_off
            {
                m.status = status;
                m.status_from = Some((source, line));
                m.put_off = false;
            } else if m.status == MilestoneStatus::Unknown && put_off {
                m.status = status;
                m.status_from = Some((source, line));
                m.put_off = true;
            }
            if m.phase_range.is_none()
                && let Some((r, t)) = range
            {
                m.range = r;
                m.phase_range = Some(t);
            }
            return i;
        }
        let (range, phase_range) = match range {
            Some((r, t)) => (r, Some(t)),
            None => (PhaseRange::default(), None),
        };
        let mut title = clean_title(text);
        if shared
            && let (Some(n), Some(v)) = (&name, &version)
            && title == *v
        {
            title = format!("{v} {n}");
        }
        self.milestones.push(Milestone {
            version,
            title,
            status,
            line,
            source,
            status_from: (status != MilestoneStatus::Unknown).then_some((source, line)),
            put_off,
            phase_range,
            range,
            name,
        });
        self.milestones.len() - 1
    }

    /// The milestone of the innermost region holding byte `at`.
    pub fn region_at(&self, at: usize) -> Option<usize> {
        self.regions
            .iter()
            .filter(|r| r.span.contains(at))
            .max_by_key(|r| r.span.start)
            .map(|r| r.milestone)
    }
}

/// The milestones whose listed range holds `id`.
pub fn by_range(ms: &[Milestone], id: &PhaseId) -> Vec<usize> {
    ms.iter()
        .enumerate()
        .filter(|(_, m)| !m.range.is_empty() && m.range.contains(id))
        .map(|(i, _)| i)
        .collect()
}

/// One milestone out of several candidates for an entry outside every
/// region: the only one, else the only one not shipped (a `## Phase
/// Details` or `## Progress` section describes the live milestone when
/// numbers restart), else none.
pub fn pick(ms: &[Milestone], candidates: &[usize]) -> Option<usize> {
    match candidates {
        [one] => Some(*one),
        [] => None,
        many => {
            let mut open = many.iter().filter(|&&i| !ms[i].is_shipped());
            match (open.next(), open.next()) {
                (Some(i), None) => Some(*i),
                // All shipped (`v1.1 Phases 1-4`, then `v1.3 Phases 2-4`):
                // archived either way; the latest milestone is the one that
                // shipped it last.
                (None, _) => many
                    .iter()
                    .copied()
                    .max_by(|&a, &b| version_order(&ms[a], &ms[b])),
                _ => None,
            }
        }
    }
}

/// The milestone being worked on: STATE.md's `milestone:` when it names
/// one that has not shipped, else the one marked in progress, else the
/// first one not shipped. None when every milestone has shipped (the
/// roadmap is between milestones) or the roadmap names none.
///
/// A milestone left unmarked or planned among shipped ones with a later
/// version (`🚢 v2.9 … complete locally` before `✅ v3.0 … shipped`; `📋
/// v0.7.0 … deferred to Backlog` after `✅ v0.9.0`) is not the work: the
/// project went on past it, as history the roadmap never ticked or as
/// work put off.
pub fn current(
    ms: &[Milestone],
    state_version: Option<&str>,
    state_name: Option<&str>,
) -> Option<usize> {
    let passed = |m: &Milestone| {
        matches!(
            m.status,
            MilestoneStatus::Unknown | MilestoneStatus::Planned
        ) && m.version.is_some()
            && ms.iter().any(|n| {
                n.is_shipped()
                    && n.version.is_some()
                    && version_order(n, m) == std::cmp::Ordering::Greater
            })
    };
    let open = |m: &Milestone| !m.is_shipped() && !passed(m);
    if let Some(v) = state_version {
        let named: Vec<usize> = ms
            .iter()
            .enumerate()
            .filter(|(_, m)| open(m) && m.version.as_deref().is_some_and(|w| same_version(v, w)))
            .map(|(i, _)| i)
            .collect();
        // Of two open milestones sharing the version, the one STATE.md's
        // `milestone_name:` names.
        let by_name = state_name
            .map(|n| n.trim().to_lowercase())
            .filter(|n| !n.is_empty())
            .and_then(|n| {
                named
                    .iter()
                    .copied()
                    .find(|&i| ms[i].title.to_lowercase().contains(&n))
            });
        if let Some(i) = by_name.or(named.first().copied()) {
            return Some(i);
        }
    }
    ms.iter()
        .position(|m| m.status == MilestoneStatus::InProgress)
        .or_else(|| ms.iter().position(open))
}

/// Milestones ordered by version (`v1.9` < `v1.10` < `v2.0`); unversioned
/// ones after every versioned one.
pub fn version_order(a: &Milestone, b: &Milestone) -> std::cmp::Ordering {
    let key = |m: &Milestone| -> Option<Vec<u64>> {
        let v = m.version.as_deref()?;
        Some(
            v.trim_start_matches(['v', 'V', 'M'])
                .trim_start_matches("ilestone ")
                .split('.')
                .map(|p| p.parse().unwrap_or(u64::MAX))
                .collect(),
        )
    };
    match (key(a), key(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    }
}

/// The first words of a section of a milestone (`## v0.16.0 Progress`,
/// `## v2.0 Phase Details`), not of another milestone's name. Matched as
/// prefixes, so a name that merely starts like one (`Gateway`) is read as
/// a section too: the heading then joins the milestone before it, as every
/// heading of a version did before names were compared.
const SECTION_WORDS: &[&str] = &[
    "phase",
    "progress",
    "coverage",
    "summary",
    "overview",
    "detail",
    "requirement",
    "dependenc",
    "graph",
    "goal",
    "scope",
    "note",
    "status",
    "success",
    "criteria",
    "roadmap",
    "timeline",
    "plan",
    "task",
    "risk",
    "decision",
    "architecture",
    "backlog",
    "deliverable",
    "milestone",
    "gate",
    "context",
    "research",
    "out of",
    "execution",
    "order",
    "traceab",
    "verification",
    "audit",
    "archive",
    "changelog",
    "retro",
    "lessons",
    "open",
    "known",
    "release",
    "stretch",
    "exit",
    "acceptance",
    "definition",
    "feature",
    "non-goal",
    "test",
    "tech",
    "key",
    "future",
    "deferred",
    "appendix",
];

/// The name a milestone heading gives after its version (`v0.16.0 — Share
/// Snapshots` → `Share Snapshots`), up to a parenthesis or a status; None
/// where nothing but a phase range, a date or a status follows.
fn heading_name(text: &str, version: &str) -> Option<String> {
    // Only a heading that opens with the version names a milestone by it
    // (`Out of v0.2.5 scope` refers to one).
    let t = text.trim_start_matches(|c: char| !c.is_alphanumeric());
    let t = match super::words::find_milestone_word(t) {
        Some((0, _, rest)) => rest.trim_start_matches(|c: char| !c.is_alphanumeric()),
        _ => t,
    };
    let rest = t
        .get(..version.len())
        .filter(|head| head.eq_ignore_ascii_case(version))
        .map(|_| &t[version.len()..])?;
    // The name is set off from the version (`v0.16.0 — Share Snapshots`,
    // `v2: Search`); words run on from it (`v1.0 Stretch Goals`) are a
    // section of that version.
    let rest = rest.trim_start_matches(['*', '_']);
    let after_sep = rest.trim_start();
    let after_sep = ["—", "–", "-", ":"]
        .iter()
        .find_map(|sep| after_sep.strip_prefix(sep))?;
    let rest = after_sep.trim_start_matches(|c: char| {
        c.is_whitespace() || matches!(c, '—' | '–' | '-' | ':' | '*' | '_')
    });
    let end = [" (", " — ", " -- ", " - ", " – ", " |"]
        .iter()
        .filter_map(|stop| rest.find(stop))
        .min()
        .unwrap_or(rest.len());
    let name = rest[..end].trim().trim_end_matches(['*', '_', ':']).trim();
    let first = name.split_whitespace().next()?.to_lowercase();
    let not_a_name = first.starts_with(|c: char| !c.is_alphabetic())
        || SECTION_WORDS.iter().any(|w| first.starts_with(w))
        || MilestoneStatus::of_text(name) != MilestoneStatus::Unknown;
    (!not_a_name).then(|| name.to_owned())
}

/// A milestone's title from the text that names it: emoji, bold marks,
/// links and trailing status words dropped (`✅ **v1.0 MVP** - Phases 1-4
/// (shipped …)` → `v1.0 MVP`).
fn clean_title(text: &str) -> String {
    let t = text.trim();
    // A bold part is the title when there is one.
    let t = match t.split("**").nth(1) {
        Some(b) if !b.trim().is_empty() => b,
        _ => t,
    };
    // `[v1.0 MVP](milestones/v1.0-ROADMAP.md)` → `v1.0 MVP`.
    let t = match (t.find('['), t.find("](")) {
        (Some(a), Some(b)) if a < b => &t[a + 1..b],
        _ => t,
    };
    let t = t.trim_start_matches(|c: char| !c.is_alphanumeric());
    let mut end = t.len();
    for stop in [" (", " — ", " -- ", " - ", " – "] {
        if let Some(i) = t.find(stop) {
            end = end.min(i);
        }
    }
    t[..end]
        .trim()
        .trim_end_matches([':', '✅', '🚧', '📋'])
        .trim()
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> PhaseId {
        PhaseId::parse(s).unwrap()
    }

    #[test]
    fn ranges() {
        let (r, t) = PhaseRange::find("✅ **v2.1 X** — Phases 12-14, 16 (shipped)").unwrap();
        assert_eq!(t, "Phases 12-14, 16");
        assert!(r.contains(&id("13")) && r.contains(&id("16")) && !r.contains(&id("15")));
        let (r, _) = PhaseRange::find("v1.0 MVP (Phases 1-6.5)").unwrap();
        assert!(r.contains(&id("6.3")) && r.contains(&id("6")) && !r.contains(&id("7")));
        let (r, _) = PhaseRange::find("📋 **v1.1 Deployment** — Phase 7+ (planned)").unwrap();
        assert!(r.contains(&id("9")) && !r.contains(&id("6")) && !r.contains(&id("999.1")));
        let (r, _) = PhaseRange::find("(Phase 1) - SHIPPED").unwrap();
        assert!(r.contains(&id("1")) && r.contains(&id("1.1")) && !r.contains(&id("2")));
        assert!(PhaseRange::find("9 phases, 27 plans").is_none());
        // MILESTONES.md entries as GSD's template and tools write them.
        let (r, _) = PhaseRange::find("**Phases:** 18-21 (4 phases, 12 plans)").unwrap();
        assert!(r.contains(&id("18")) && r.contains(&id("21")) && !r.contains(&id("4")));
        let (r, _) = PhaseRange::find("**Phases completed:** 5-6 (3 plans total)").unwrap();
        assert!(r.contains(&id("5")) && r.contains(&id("6")) && !r.contains(&id("3")));
        assert!(PhaseRange::find("**Phases completed:** 4 phases, 12 plans, 13 tasks").is_none());
    }

    #[test]
    fn execution_order_chains() {
        let (r, t) = PhaseRange::chain("v1.0: 1 → 2 → 2.1 (complete)").unwrap();
        assert_eq!(t, "1 → 2 → 2.1");
        assert!(r.contains(&id("2.1")) && r.contains(&id("1")) && !r.contains(&id("3")));
        let (r, _) = PhaseRange::chain("v2 (Smart Themes): Phases 7 -> 8 -> 9").unwrap();
        assert!(r.contains(&id("8")) && !r.contains(&id("10")));
        // One phase, prose, or a dangling arrow is no execution order.
        assert!(PhaseRange::chain("v1.0: 3 things left").is_none());
        assert!(PhaseRange::chain("v1.0: Phase 3").is_none());
        assert!(PhaseRange::chain("v1.0: 1 → 2 →").is_none());
        assert!(PhaseRange::chain("no colon 1 → 2").is_none());
        // `Phases 1 → 2 → 3` after a Phase word: every item, not the first.
        let (r, _) = PhaseRange::find("v1 (MVP): Phases 1 → 2 → 3").unwrap();
        assert!(r.contains(&id("3")) && !r.contains(&id("4")));
        let mut map = MilestoneMap::default();
        let i = map.add("v1.0: 1 → 2 → 2.1 (complete)", 3, MilestoneSource::List);
        assert_eq!(map.milestones[i].title, "v1.0");
        assert_eq!(map.milestones[i].status, MilestoneStatus::Shipped);
    }

    #[test]
    fn titles_and_statuses() {
        assert_eq!(
            clean_title("✅ **v1.0 MVP** - Phases 1-4 (shipped 2025-02-01)"),
            "v1.0 MVP"
        );
        assert_eq!(
            clean_title("✅ [v1.0 MVP](milestones/v1.0-ROADMAP.md) (Phases 1-5) — SHIPPED"),
            "v1.0 MVP"
        );
        assert_eq!(
            clean_title("🚧 v1.1 Polish & Gameplay (In Progress)"),
            "v1.1 Polish & Gameplay"
        );
        use MilestoneStatus::*;
        assert_eq!(MilestoneStatus::of_text("[In Planning]"), Planned);
        assert_eq!(MilestoneStatus::of_text("🔄 **v1.5**"), InProgress);
        assert_eq!(
            MilestoneStatus::of_text("— [Concluído e Arquivado]"),
            Shipped
        );
        // Status only where a status is written.
        assert_eq!(MilestoneStatus::of_text("v5.0: Complete Rewrite"), Unknown);
        assert_eq!(
            MilestoneStatus::of_text("🔄 v3.1 Phases 43-45 (43 complete, 44 partial)"),
            InProgress
        );
        assert_eq!(
            MilestoneStatus::of_text("v3.1 Phases 43-45 (43 complete, 44 partial)"),
            Unknown
        );
        assert_eq!(
            MilestoneStatus::of_text("v1.0 MVP (shipped 2026-01-02)"),
            Shipped
        );
        assert_eq!(
            MilestoneStatus::of_text("v9.0 Scale - [In Planning]"),
            Planned
        );
        assert_eq!(MilestoneStatus::of_value("Complete ✓"), Shipped);
        assert_eq!(MilestoneStatus::of_value("Pending"), Planned);
        assert!(is_milestone_heading("Milestone 2: Transport ✅"));
        // Identifiers of every shape.
        assert_eq!(find_milestone_id("M1: Foundation").as_deref(), Some("M1"));
        assert_eq!(find_milestone_id("v2: Smart Themes").as_deref(), Some("v2"));
        assert_eq!(
            find_milestone_id("Roadmap: invisible — Milestone M1 (Frontend)").as_deref(),
            Some("M1")
        );
        assert_eq!(
            find_milestone_id("Milestone 3: Polish").as_deref(),
            Some("Milestone 3")
        );
        assert_eq!(find_milestone_id("tools-v1.0 CLI").as_deref(), Some("v1.0"));
        assert_eq!(find_milestone_id("Migration notes"), None);
        assert_eq!(find_milestone_id("Mobile app"), None);
        assert!(same_version("Milestone 3", "M3") && !same_version("M3", "v3"));
        assert!(says_dropped("SMS Reminders (REMOVED)"));
        assert!(says_dropped("Old idea — cancelled 2026-01"));
        assert!(!says_dropped("Remove dead code"));
        assert!(!says_dropped("Removed-items view"));
        assert!(is_milestone_heading("🚧 v2.2 Project Tasks"));
        assert!(!is_milestone_heading("Milestones"));
        assert!(!is_milestone_heading("Completed Milestones"));
    }

    #[test]
    fn versions() {
        assert_eq!(find_version("🚧 v1.10 Ralph").as_deref(), Some("v1.10"));
        assert_eq!(find_version("dev2.0").as_deref(), None);
        assert!(same_version("v1", "v1.0") && same_version("v1.0.0", "v1.0"));
        assert!(!same_version("v0.1", "v0.10"));
    }
}
