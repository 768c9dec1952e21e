//! What the tree records as shipped outside ROADMAP.md: MILESTONES.md's
//! entries, `milestones/` archives, and STATE.md's table of finished
//! milestones.
//!
//! GSD writes each of these when a milestone ships (MILESTONES.md and the
//! archive by `complete-milestone`; many STATE.md files keep a "Shipped
//! Milestones" table by hand), so each is evidence that a milestone the
//! roadmap leaves unmarked — or that STATE.md still names — is done.
//! A workstream reads its own records and the project's: many trees keep
//! one MILESTONES.md and one `milestones/` folder at the root for every
//! track.

use std::path::PathBuf;

use crate::doc::markdown::Markdown;

use super::Workspace;
use super::milestone::{
    MilestoneStatus, PhaseRange, find_milestone_id, names_shipped, same_version,
};
use super::workspace::PhaseLocation;

const MILESTONES_SHIPPED: &str = "MILESTONES.md marks it shipped";

/// The milestones the tree records as shipped, by version.
#[derive(Debug, Clone, Default)]
pub struct ShippedRecords {
    /// Versions a record says shipped in so many words: a MILESTONES.md
    /// heading with a shipped status, an archive file, a STATE.md row.
    pub certain: Vec<(String, &'static str)>,
    /// Every version MILESTONES.md has a heading for, whatever its status
    /// says: GSD adds the entry when the milestone ships, so with all its
    /// phases done it settles the question.
    pub listed: Vec<String>,
    /// `milestones/vX.Y-ROADMAP.md`, `-REQUIREMENTS.md`, `-phases/` … by
    /// version, relative to the planning folder read.
    pub archives: Vec<(String, String)>,
    /// The latest date (`2026-04-29`) a MILESTONES.md entry heading marked
    /// shipped gives (`## v1.1 Parity (Shipped: 2026-04-29)`).
    pub last_shipped_on: Option<String>,
    /// The phases the MILESTONES.md entries of shipped milestones name
    /// (`- **Phase 14: Core Collectives** - …`, `**Phases:** 13-17`): their
    /// folders hold shipped work, wherever the live roadmap's numbering went.
    pub shipped_phases: Vec<PhaseRange>,
}

impl ShippedRecords {
    pub fn of(ws: &Workspace) -> ShippedRecords {
        let mut out = ShippedRecords {
            archives: archive_files(ws),
            ..Default::default()
        };
        for text in planning_dirs(ws)
            .iter()
            .filter_map(|d| std::fs::read_to_string(d.join("MILESTONES.md")).ok())
        {
            let lines: Vec<&str> = text.lines().collect();
            for (i, line) in lines
                .iter()
                .enumerate()
                .filter(|(_, l)| is_entry_heading(l))
            {
                let Some(v) = entry_version(line) else {
                    continue;
                };
                let heading = MilestoneStatus::of_text(line);
                if heading == MilestoneStatus::Shipped {
                    out.certain.push((v.clone(), MILESTONES_SHIPPED));
                    if let Some(date) = iso_date(line)
                        && out.last_shipped_on.as_deref().is_none_or(|d| d < date)
                    {
                        out.last_shipped_on = Some(date.to_owned());
                    }
                }
                // Its body runs to the next heading of its level or above:
                // an entry's own subheadings (`### What landed`) are its.
                // (Not a subheading of another entry, `### v1.0.1 Hotfix`,
                // or of work put off, `### Carried to v1.1`.)
                let level = heading_level(line);
                let body = || {
                    lines[i + 1..].iter().take_while(move |l| {
                        let h = heading_level(l);
                        h == 0 || (h > level && !subheading_ends_entry(l))
                    })
                };
                // An entry its own heading or status line says is still
                // to come (`## v6.0 Dashboard (Planned: TBD)`, written
                // ahead by hand) records nothing shipped.
                let ahead = |st: MilestoneStatus| {
                    matches!(st, MilestoneStatus::Planned | MilestoneStatus::InProgress)
                };
                if !ahead(heading)
                    && entry_status_line(body()).is_none_or(|st| st == MilestoneStatus::Shipped)
                {
                    out.listed.push(v);
                    // The heading names them too (`## v1.0 -- Core Bot
                    // (Phases 1-3, shipped 2026-03-20)`).
                    out.shipped_phases.extend(
                        std::iter::once(line)
                            .chain(body())
                            .filter_map(|l| PhaseRange::find(l))
                            .map(|(r, _)| r),
                    );
                }
            }
        }
        let archived = "its archive is in milestones/";
        for d in planning_dirs(ws).iter().skip(1) {
            out.certain
                .extend(archive_versions(d).into_iter().map(|v| (v, archived)));
        }
        out.certain
            .extend(out.archives.iter().map(|(v, _)| (v.clone(), archived)));
        // The roadmap's own table of milestones (`| v1.6 | 6 | 6 | Shipped
        // 2026-01-28 |`), written when the milestone closed, even where its
        // heading still says `## Current Milestone` (batch 30, gsdview).
        // (A version on several rows is a table of its phases, `| v2.0 | 3
        // | Complete |`, where one row done is not the milestone done.)
        if let Some(rm) = &ws.roadmap {
            let text = rm.doc.text();
            let versions: Vec<String> = rm
                .md
                .table_rows
                .iter()
                .filter(|r| !r.separator)
                .filter_map(|r| find_milestone_id(r.cells.first()?.slice(text)))
                .collect();
            let once = |v: &String| versions.iter().filter(|w| same_version(w, v)).count() == 1;
            out.certain.extend(
                table_shipped(text, &rm.md)
                    .into_iter()
                    .filter(once)
                    .map(|v| (v, "ROADMAP.md's table of milestones marks it shipped")),
            );
        }
        if let Some(st) = &ws.state {
            out.certain.extend(
                table_shipped(st.doc.text(), &st.md)
                    .into_iter()
                    .map(|v| (v, "STATE.md's table of milestones marks it done")),
            );
            out.certain.extend(
                state_field_shipped(st)
                    .into_iter()
                    .map(|v| (v, "STATE.md's `milestone:` says it shipped")),
            );
        }
        out
    }

    /// The record that says this version shipped in so many words.
    pub fn says_shipped(&self, version: &str) -> Option<&'static str> {
        self.certain
            .iter()
            .find(|(s, _)| same_version(s, version))
            .map(|(_, why)| *why)
    }

    /// Both records `complete-milestone` writes when a milestone ships say
    /// so: a MILESTONES.md entry marked shipped and the archived roadmap
    /// (`milestones/vX.Y-ROADMAP.md`). Written after the roadmap's own
    /// "in progress" mark, they outweigh it when that mark was never updated.
    pub fn shipped_and_archived(&self, version: &str) -> bool {
        let marked = self
            .certain
            .iter()
            .any(|(s, why)| *why == MILESTONES_SHIPPED && same_version(s, version));
        marked
            && self
                .archives
                .iter()
                .any(|(s, f)| same_version(s, version) && f.ends_with("-ROADMAP.md"))
    }

    /// The only record of this version is an archived phase folder
    /// (`milestones/vX.Y-phases/`): no roadmap or requirements archive, no
    /// MILESTONES.md entry, no STATE.md row. Putting a finished phase away
    /// is not shipping the milestone it belongs to.
    pub fn only_phase_folders(&self, version: &str) -> bool {
        let mut archives = self
            .archives
            .iter()
            .filter(|(s, _)| same_version(s, version))
            .peekable();
        let folders = archives.peek().is_some() && archives.all(|(_, f)| f.ends_with("-phases/"));
        let archived = self
            .archives
            .iter()
            .filter(|(s, _)| same_version(s, version))
            .count();
        let records = self
            .certain
            .iter()
            .filter(|(s, _)| same_version(s, version))
            .count();
        folders && records == archived && !self.listed.iter().any(|s| same_version(s, version))
    }

    /// MILESTONES.md has an entry for it, or a record says it shipped.
    pub fn mentions(&self, version: &str) -> bool {
        self.says_shipped(version).is_some() || self.listed.iter().any(|s| same_version(s, version))
    }

    /// A MILESTONES.md entry of a shipped milestone names phase `id`.
    pub fn names_shipped_phase(&self, id: &super::PhaseId) -> bool {
        self.shipped_phases.iter().any(|r| r.contains(id))
    }

    /// The phases the archived roadmaps (`milestones/vX.Y-ROADMAP.md`)
    /// name in their headings and checklist lines: shipped work. Read on
    /// request (lint asks; the reading every command makes does not).
    pub fn archived_roadmap_phases(&self, ws: &Workspace) -> Vec<PhaseRange> {
        self.archives
            .iter()
            .filter(|(_, f)| f.ends_with("-ROADMAP.md"))
            .filter_map(|(_, f)| std::fs::read_to_string(ws.planning.join(f)).ok())
            .flat_map(|text| {
                text.lines()
                    .filter(|l| {
                        let t = l.trim_start();
                        t.starts_with('#') || t.starts_with("- [")
                    })
                    .filter_map(|l| PhaseRange::find(l).map(|(r, _)| r))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Any record of a shipped milestone at all.
    pub fn any(&self) -> bool {
        !self.certain.is_empty() || !self.listed.is_empty()
    }
}

/// The phase numbers of folders kept in archive folders of any scheme
/// (`phases-archive/25-benchmark/`, `milestones/v2.13-transformer/103-kv/`):
/// put away, not missing. Known from the files found there.
pub fn put_away_phase_numbers(ws: &Workspace) -> Vec<u64> {
    let files = ws
        .other
        .iter()
        .map(|d| &*d.rel_path)
        .chain(ws.loose_plans.iter().map(|p| &*p.doc.rel_path))
        .chain(ws.skipped.iter().map(|s| &*s.rel_path));
    let mut out = Vec::new();
    for f in files {
        let rel = f.strip_prefix(ws.rel(&ws.planning)).unwrap_or(f);
        let dirs: Vec<String> = rel
            .parent()
            .into_iter()
            .flat_map(|p| p.components())
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let Some(at) = dirs
            .iter()
            .position(|d| super::workspace::is_archive_folder(d))
        else {
            continue;
        };
        out.extend(
            dirs[at + 1..]
                .iter()
                .filter_map(|d| super::PhaseId::from_dir_name(d).map(|(id, _)| id.major())),
        );
    }
    out
}

/// The first `YYYY-MM-DD` date in `line`.
fn iso_date(line: &str) -> Option<&str> {
    let b = line.as_bytes();
    (0..b.len().saturating_sub(9)).find_map(|i| {
        let w = &b[i..i + 10];
        let digits = |r: std::ops::Range<usize>| w[r].iter().all(u8::is_ascii_digit);
        let bounded = i == 0 || !b[i - 1].is_ascii_digit();
        (bounded && digits(0..4) && w[4] == b'-' && digits(5..7) && w[7] == b'-' && digits(8..10))
            .then(|| &line[i..i + 10])
    })
}

/// The milestone an entry heading is about: named by its first word
/// (`## ✅ v1.2 Admin (Shipped: …)`, `## M2 — …`, `## tools-v1.0`) or after
/// a milestone word that opens it (`## Milestone: v2.0`). A version later
/// in a heading is mentioned, not the entry's: `### Issues Deferred to
/// v1.3+` is a section of another entry.
fn entry_version(line: &str) -> Option<String> {
    let t = line
        .trim_start_matches('#')
        .trim_start_matches(|c: char| !c.is_alphanumeric());
    let first = t.split_whitespace().next()?;
    let names_it = find_milestone_id(first).is_some()
        || super::words::find_milestone_word(t).is_some_and(|(at, _, _)| at == 0);
    names_it.then(|| find_milestone_id(line)).flatten()
}

/// A MILESTONES.md entry's heading.
fn is_entry_heading(line: &str) -> bool {
    line.starts_with("## ") || line.starts_with("### ")
}

/// A subheading inside a MILESTONES.md entry that is not that entry's
/// record: another version's entry, or work carried past it.
fn subheading_ends_entry(line: &str) -> bool {
    let l = line.to_lowercase();
    entry_version(line).is_some()
        || [
            "carr",
            "defer",
            "futur",
            "next",
            "later",
            "out of scope",
            "backlog",
            "remain",
            "pending",
            "open",
            "known gap",
            "todo",
        ]
        .iter()
        .any(|w| l.contains(w))
}

/// A Markdown heading's level (`### x` is 3), 0 for a line that is none.
fn heading_level(line: &str) -> usize {
    let hashes = line.bytes().take_while(|&b| b == b'#').count();
    if hashes > 0 && line[hashes..].starts_with(' ') {
        hashes
    } else {
        0
    }
}

/// The status an entry's own `Status:` line states (`- Status: \`Initialized\``,
/// `**Status:** Shipped`), if it has one. An entry written when the
/// milestone was set up and never updated says it has not shipped; GSD's
/// own entries (written when it ships) carry no such line.
fn entry_status_line<'a>(body: impl Iterator<Item = &'a &'a str>) -> Option<MilestoneStatus> {
    body.filter_map(|l| {
        let bare = l.trim().trim_start_matches(['-', '*', ' ']);
        bare.get(..7)
            .filter(|h| h.eq_ignore_ascii_case("status:"))?;
        let value = bare[7..]
            .trim_start_matches(['*', ' '])
            .trim_matches(['`', ' ']);
        Some(MilestoneStatus::of_value(value))
    })
    .next()
}

/// The planning folder read, then (in a workstream) the project's.
fn planning_dirs(ws: &Workspace) -> Vec<PathBuf> {
    let mut dirs = vec![ws.planning.clone()];
    if ws.workstream.is_some() {
        dirs.push(ws.root.join(".planning"));
    }
    dirs
}

/// Versions of the archive files in `dir/milestones/`.
fn archive_versions(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir.join("milestones"))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let (v, _) = name.split_once('-')?;
            (v.starts_with('v') && v.len() > 1).then(|| v.to_owned())
        })
        .collect()
}

/// `milestones/vX.Y-ROADMAP.md`, `-REQUIREMENTS.md`, `-phases/` … of the
/// planning folder read, by version.
fn archive_files(ws: &Workspace) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    // Listed from disk: read commands load only the core documents.
    let dir = ws.planning.join("milestones");
    for e in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if e.file_type().is_ok_and(|t| t.is_file())
            && let Some((v, _)) = name.split_once('-')
            && v.starts_with('v')
        {
            out.push((v.to_owned(), format!("milestones/{name}")));
        }
    }
    for ph in &ws.phases {
        if let PhaseLocation::Archived(v) = &ph.location {
            let dir = format!("milestones/{v}-phases/");
            if !out.iter().any(|(_, f)| f == &dir) {
                out.push((v.clone(), dir));
            }
        }
    }
    out.sort();
    out
}

/// STATE.md's `milestone:` naming a version and then its status:
/// `milestone: v1.1 shipped — now maintenance` (a hand-kept STATE.md). The
/// status must stand on its own: `v2.0 Complete Rewrite` is a title.
/// The milestones a line names, each with whether its own part says it
/// shipped (`M3 COMPLETE, M4 COMPLETE`, `v1.0 complete — starting v1.1`):
/// the line cut at commas, semicolons, `&`, `/` and ` and `, one ID per part.
pub fn milestone_parts(value: &str) -> Vec<(String, bool)> {
    use super::milestone::MilestoneStatus;
    let mut out: Vec<(String, bool)> = Vec::new();
    for part in value
        .split([',', ';', '&', '/'])
        .flat_map(|p| p.split(" and "))
        .map(str::trim)
    {
        let Some(id) = find_milestone_id(part) else {
            continue;
        };
        // What the part says after the ID as written (`milestone 3
        // complete` names `Milestone 3`).
        let lower = part.to_lowercase();
        let shipped = lower.find(&id.to_lowercase()).is_some_and(|at| {
            MilestoneStatus::of_text(part[at + id.len()..].trim_start()) == MilestoneStatus::Shipped
        });
        match out.iter_mut().find(|(v, _)| same_version(v, &id)) {
            Some(seen) => seen.1 |= shipped,
            None => out.push((id, shipped)),
        }
    }
    out
}

fn state_field_shipped(st: &super::state::State) -> Vec<String> {
    // `milestone: v1.1 shipped — now maintenance` in the frontmatter, and
    // a body line that records milestones as done (`Milestone: M3
    // COMPLETE, M4 COMPLETE, M5 COMPLETE`, batch 31 stimpson-dev+LitVault;
    // `Milestone: M1 COMPLETE`): each one its own part says is done.
    let fm = st
        .fm_field("milestone")
        .and_then(|(_, n)| n.as_str())
        .filter(|v| super::milestone::find_version(v).is_some());
    let body = st.body_field("milestone").map(|f| f.value.as_str());
    fm.into_iter()
        .chain(body)
        .flat_map(milestone_parts)
        .filter(|(_, shipped)| *shipped)
        .map(|(v, _)| v)
        .collect()
}

/// Milestones a table (STATE.md's or the roadmap's) records as finished:
/// a row whose first cell names a milestone and whose status cell says
/// shipped (`| v1.1 — Onboarding | ✅ Завершён |`), or any such row under a
/// heading that names the table as the shipped ones (`## Shipped
/// Milestones`, `## Completed Milestones`).
fn table_shipped(text: &str, md: &Markdown) -> Vec<String> {
    let mut out = Vec::new();
    for row in md.table_rows.iter().filter(|r| !r.separator) {
        let Some(first) = row.cells.first() else {
            continue;
        };
        let Some(v) = find_milestone_id(first.slice(text)) else {
            continue;
        };
        let said: Vec<MilestoneStatus> = row.cells[1..]
            .iter()
            .map(|c| MilestoneStatus::of_value(c.slice(text)))
            .filter(|s| *s != MilestoneStatus::Unknown)
            .collect();
        if said.iter().any(|s| *s != MilestoneStatus::Shipped) {
            continue;
        }
        let marked = !said.is_empty();
        let under = md
            .headings
            .iter()
            .rfind(|h| h.line.span.start < row.line.span.start)
            .is_some_and(|h| names_shipped(h.text.slice(text)));
        if marked || under {
            out.push(v);
        }
    }
    out
}

/// Whether a missing ROADMAP.md was archived with a shipped milestone
/// (`milestones/vX.Y-ROADMAP.md`, or a MILESTONES.md): GSD removes the
/// roadmap when a milestone ships, and the next milestone writes a new one.
pub fn roadmap_archived(ws: &Workspace) -> bool {
    let archived = std::fs::read_dir(ws.planning.join("milestones"))
        .into_iter()
        .flatten()
        .flatten()
        .any(|e| e.file_name().to_string_lossy().ends_with("-ROADMAP.md"));
    archived || ws.planning.join("MILESTONES.md").is_file()
}

/// What to do about a missing ROADMAP.md: in a workstream, start its
/// milestone; in a project whose work is in workstreams, name one; start
/// the next milestone when the last one shipped with it; else create one
/// (`gsd init` refuses a project with workstreams, so it is offered only
/// where it works).
pub fn missing_roadmap_hint(ws: &Workspace) -> String {
    if let Some(w) = &ws.workstream {
        return format!(
            "workstream `{w}` has no ROADMAP.md yet: start its milestone (GSD's new-milestone --ws {w}), or pick another with --ws (`gsd workstream list`)"
        );
    }
    let names = super::workstream::names(&ws.root);
    if !names.is_empty() {
        return format!(
            "this project keeps its work in workstreams ({}): pass --ws NAME, or name one in .planning/active-workstream",
            names.join(", ")
        );
    }
    if roadmap_archived(ws) {
        "the last milestone shipped and its roadmap is archived in milestones/; start the next milestone (GSD's new-milestone) to write a new ROADMAP.md".into()
    } else {
        "create it with `gsd init`".into()
    }
}
