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
    /// The status a line of text states, in the words and marks real
    /// roadmaps use (✅/🚧/🔄/📋, English, and the `[Complete]`,
    /// `Concluído` and `SHIPPED` of the corpus).
    pub fn of_text(s: &str) -> MilestoneStatus {
        let l = s.to_lowercase();
        let any = |words: &[&str]| words.iter().any(|w| l.contains(w));
        if s.contains('✅')
            || any(&[
                "shipped",
                "complete",
                "concluído",
                "concluido",
                "archived",
                "done",
            ])
        {
            MilestoneStatus::Shipped
        } else if s.contains('🚧')
            || s.contains('🔄')
            || any(&["in progress", "current", "active", "this milestone"])
        {
            MilestoneStatus::InProgress
        } else if s.contains('📋') || any(&["planned", "planning", "next", "future"]) {
            MilestoneStatus::Planned
        } else {
            MilestoneStatus::Unknown
        }
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
    /// The phase range as written (`Phases 12-14, 16`), if any.
    pub phase_range: Option<String>,
    #[serde(skip)]
    pub range: PhaseRange,
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
        let at = s.find("Phase")?;
        let rest = &s[at..];
        let after = rest
            .strip_prefix("Phases")
            .or_else(|| rest.strip_prefix("Phase"))?;
        let mut parts = Vec::new();
        let mut cur = after.trim_start();
        while let Some((a, tail)) = PhaseId::parse_prefix(cur) {
            let tail_t = tail.trim_start();
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
            let t = cur.trim_start();
            match t.strip_prefix(',').or_else(|| t.strip_prefix("and ")) {
                Some(t) => cur = t.trim_start(),
                None => break,
            }
        }
        if parts.is_empty() {
            return None;
        }
        let used = rest.len() - cur.len();
        Some((PhaseRange { parts }, rest[..used].trim().to_owned()))
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

/// Whether a non-phase heading starts a milestone region: it names a
/// version, or says `Milestone N` / `Milestone:` (not the plural list
/// heading `## Milestones`).
pub fn is_milestone_heading(text: &str) -> bool {
    if find_version(text).is_some() {
        return true;
    }
    let l = text.to_lowercase();
    let Some(at) = l.find("milestone") else {
        return false;
    };
    let after = l[at + "milestone".len()..].trim_start();
    after.starts_with(':') || after.starts_with(|c: char| c.is_ascii_digit())
}

/// Two versions name the same milestone (`v1` and `v1.0` do: archive files
/// are sometimes named without the `.0`).
pub fn same_version(a: &str, b: &str) -> bool {
    let norm = |v: &str| {
        let v = v.trim_start_matches(['v', 'V']);
        let mut parts: Vec<&str> = v.split('.').collect();
        while parts.len() > 1 && parts.last().is_some_and(|p| p.chars().all(|c| c == '0')) {
            parts.pop();
        }
        parts
            .iter()
            .map(|p| p.trim_start_matches('0').to_owned())
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
        let version = find_version(text);
        let range = PhaseRange::find(text);
        if let Some(v) = &version
            && let Some(i) = self
                .milestones
                .iter()
                .position(|m| m.version.as_deref().is_some_and(|w| same_version(v, w)))
        {
            let m = &mut self.milestones[i];
            if m.status == MilestoneStatus::Unknown {
                m.status = status;
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
        self.milestones.push(Milestone {
            version,
            title: clean_title(text),
            status,
            line,
            source,
            phase_range,
            range,
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
pub fn current(ms: &[Milestone], state_version: Option<&str>) -> Option<usize> {
    let open = |m: &Milestone| !m.is_shipped();
    if let Some(v) = state_version
        && let Some(i) = ms
            .iter()
            .position(|m| open(m) && m.version.as_deref().is_some_and(|w| same_version(v, w)))
    {
        return Some(i);
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
            v.trim_start_matches(['v', 'V'])
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
        assert!(is_milestone_heading("Milestone 2: Transport ✅"));
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
