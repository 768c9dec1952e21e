//! ROADMAP.md edits: the progress table from disk, new and inserted
//! phases, completing a phase. Each edit touches the cells, lines and
//! sections it names; a table row keeps its padding where its values stay.

use crate::doc::{Edit, Span};
use crate::model::ids::slugify;
use crate::model::roadmap::{ProgressRow, Roadmap};
use crate::model::{PhaseId, Workspace};

use super::EditError;
use super::progress::status_word;
use super::state::today;

fn roadmap(ws: &Workspace) -> Result<&Roadmap, EditError> {
    editable(ws)
}

/// The roadmap, when it can be edited: present and UTF-8 (an edit of
/// undecodable text would read it as empty and answer "no such phase").
pub fn editable(ws: &Workspace) -> Result<&Roadmap, EditError> {
    let rm = ws.roadmap.as_ref().ok_or_else(|| {
        EditError::Other(format!(
            "ROADMAP.md not found; {}",
            crate::model::shipped::missing_roadmap_hint(ws)
        ))
    })?;
    if rm.doc.source.text().is_none() {
        return Err(EditError::NotText {
            file: ".planning/ROADMAP.md".into(),
        });
    }
    Ok(rm)
}

fn nl(rm: &Roadmap) -> &'static str {
    rm.doc.source.eol()
}

/// (plans with summaries, plans) on disk for a phase.
fn disk(ws: &Workspace, id: &PhaseId) -> (usize, usize) {
    ws.current_phases()
        .find(|p| p.id.as_ref().is_some_and(|i| i.same(id)))
        .map_or((0, 0), |p| (p.completed_plans(), p.plan_count()))
}

/// When a phase was completed, as its files record it: the checklist's
/// `(completed 2026-01-03)`, else the latest `completed:` of its summaries.
fn completion_date(ws: &Workspace, rm: &Roadmap, id: &PhaseId) -> Option<String> {
    let is_date = |s: &str| {
        s.len() == 10
            && s.as_bytes()[4] == b'-'
            && s.as_bytes()[7] == b'-'
            && s.bytes().filter(u8::is_ascii_digit).count() == 8
    };
    if let Some(c) = rm.checklist_entry(id) {
        let line = rm
            .doc
            .source
            .line_span(c.line)
            .slice(rm.doc.text())
            .to_owned();
        if let Some(at) = line.find("completed ") {
            let d = line[at + "completed ".len()..]
                .chars()
                .take(10)
                .collect::<String>();
            if is_date(&d) {
                return Some(d);
            }
        }
    }
    let ph = ws
        .current_phases()
        .find(|p| p.id.as_ref().is_some_and(|i| i.same(id)))?;
    ph.summary_files
        .iter()
        .filter_map(|f| std::fs::read_to_string(ws.root.join(&ph.dir).join(f)).ok())
        .filter_map(|text| {
            text.lines()
                .take_while(|l| !l.starts_with("# "))
                .find_map(|l| {
                    l.strip_prefix("completed:").map(|v| {
                        v.trim()
                            .trim_matches('"')
                            .chars()
                            .take(10)
                            .collect::<String>()
                    })
                })
        })
        .filter(|d| is_date(d))
        .max()
}

/// The end of the line holding `offset` (past its line break).
fn line_end(text: &str, offset: usize) -> usize {
    text[offset..]
        .find('\n')
        .map_or(text.len(), |i| offset + i + 1)
}

/// A new progress row in `table`'s own layout: each column filled by what
/// its header names (phase, name, milestone, plan count, status, date; any
/// other column `-`), and the phase cell written the way `like` (the row it
/// follows) writes its own: `19`, `Phase 19: Name` or `19. Name`.
fn progress_row(
    rm: &Roadmap,
    like: Option<&ProgressRow>,
    id: &PhaseId,
    name: &str,
    done: usize,
    total: usize,
    date: &str,
) -> String {
    let Some(table) = rm.live_progress() else {
        return format!(
            "| {}. {name} | {done}/{total} | {} | {date} |",
            id.unpadded(),
            status_word(done, total)
        );
    };
    let has_name_column = table.columns.iter().skip(1).any(|c| header_names_name(c));
    let number_only = has_name_column || like.is_some_and(|r| r.name().is_none());
    let phase_word = like.is_some_and(|r| {
        let l = r.label.trim().trim_matches(['*', '_']).trim();
        l.len() > 6 && l.get(..6).is_some_and(|w| w.eq_ignore_ascii_case("phase "))
    });
    let phase = match (number_only, phase_word) {
        (true, true) => format!("Phase {}", id.unpadded()),
        (true, false) => id.unpadded(),
        (false, true) => format!("Phase {}: {name}", id.unpadded()),
        (false, false) => format!("{}. {name}", id.unpadded()),
    };
    // The phase's milestone where the roadmap says it; else the live row it
    // follows names the milestone it joins.
    let milestone = rm
        .phase(id)
        .and_then(|p| p.milestone)
        .and_then(|i| rm.milestones[i].version.clone())
        .or_else(|| {
            // (A milestone, not whatever a row shifted a column writes
            // there: `| 17. Work | 2/2 | … |` under a Milestone header.)
            like.filter(|r| !r.archived)
                .and_then(|r| r.milestone_cell.clone())
                .filter(|m| crate::model::milestone::find_milestone_id(m).is_some())
        })
        .unwrap_or_else(|| "-".into());
    let Columns {
        plans,
        status,
        date: date_col,
    } = columns(table);
    let cells: Vec<String> = table
        .columns
        .iter()
        .enumerate()
        .map(|(i, header)| {
            let lower = header.to_ascii_lowercase();
            if i == 0 {
                phase.clone()
            } else if Some(i) == plans {
                format!("{done}/{total}")
            } else if Some(i) == status {
                status_word(done, total).to_owned()
            } else if Some(i) == date_col {
                date.to_owned()
            } else if lower.contains("milestone") {
                milestone.clone()
            } else if header_names_name(header) {
                name.to_owned()
            } else {
                "-".to_owned()
            }
        })
        .collect();
    format!("| {} |", cells.join(" | "))
}

/// A header naming a column of phase names (`Name`, `Phase Name`, `Title`).
fn header_names_name(header: &str) -> bool {
    let lower = header.trim().to_ascii_lowercase();
    matches!(
        lower.as_str(),
        "name" | "phase name" | "title" | "phase title"
    )
}

/// Progress rows for `ids`, each ending with a line break.
fn new_rows(ws: &Workspace, rm: &Roadmap, ids: &[PhaseId]) -> String {
    let like = rm.live_progress().and_then(|t| t.rows.last());
    let mut rows = String::new();
    for id in ids {
        let (done, total) = disk(ws, id);
        let name = rm
            .phase(id)
            .map(|p| p.name.clone())
            .or_else(|| rm.checklist_entry(id).map(|c| c.name.clone()))
            .unwrap_or_default();
        let date = if status_word(done, total) == "Complete" {
            completion_date(ws, rm, id).unwrap_or_else(|| "-".into())
        } else {
            "-".into()
        };
        rows.push_str(&progress_row(rm, like, id, &name, done, total, &date));
        rows.push_str(nl(rm));
    }
    rows
}

/// Where a progress table keeps plan counts, status and completion date
/// (by header, in whatever order and wording the table has).
struct Columns {
    plans: Option<usize>,
    status: Option<usize>,
    date: Option<usize>,
}

fn columns(table: &crate::model::roadmap::ProgressTable) -> Columns {
    let lower: Vec<String> = table
        .columns
        .iter()
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let col = |pred: &dyn Fn(&str) -> bool| lower.iter().position(|c| pred(c));
    Columns {
        plans: col(&|c| c.contains("plans")),
        status: col(&|c| c.contains("status")),
        date: col(&|c| c.contains("completed") || c.contains("date")),
    }
}

/// `roadmap update-progress`: every row's plan counts, status and date
/// from disk; active phases missing from the table get a row. A completion
/// date already written is kept, so a rerun changes nothing.
pub fn update_progress(ws: &Workspace) -> Result<Vec<Edit>, EditError> {
    let rm = roadmap(ws)?;
    let text = rm.doc.text();
    let n = nl(rm);
    let Some(live) = rm.live_progress() else {
        let rows = new_rows(ws, rm, &super::progress::active_phases(ws));
        let sep = if text.ends_with('\n') || text.is_empty() {
            ""
        } else {
            n
        };
        let section = format!(
            "{sep}{n}## Progress{n}{n}| Phase | Plans Complete | Status | Completed |{n}|-------|----------------|--------|-----------|{n}{rows}"
        );
        return Ok(vec![Edit::new(Span::empty(text.len()), section)]);
    };
    let mut edits = Vec::new();
    let mut seen: Vec<PhaseId> = Vec::new();
    for table in &rm.progress {
        let Columns {
            plans: plans_col,
            status: status_col,
            date: date_col,
        } = columns(table);
        for row in &table.rows {
            let Some(id) = &row.phase else { continue };
            seen.push(id.clone());
            // A shipped milestone's row is history: its folders moved to
            // `milestones/`, so the disk would read 0/0 and "Not started".
            if row.archived {
                continue;
            }
            let (done, total) = disk(ws, id);
            let status = status_word(done, total);
            let mut set = |i: Option<usize>, value: String| {
                if let Some(cell) = i.and_then(|i| row.cells.get(i))
                    && cell.slice(text) != value
                {
                    edits.push(Edit::new(*cell, value));
                }
            };
            // No plan on disk yet: a count the planner left open (`0/TBD`,
            // `0/?`) still says what is known; `0/0` would only lose it.
            let open_count = total == 0
                && plans_col
                    .and_then(|i| row.cells.get(i))
                    .map(|c| c.slice(text).trim())
                    .and_then(|v| v.strip_prefix("0/"))
                    .is_some_and(|d| {
                        !d.trim().is_empty() && !d.trim().starts_with(|c: char| c.is_ascii_digit())
                    });
            if !open_count {
                set(plans_col, format!("{done}/{total}"));
            }
            set(status_col, status.to_owned());
            let old_date = date_col
                .and_then(|i| row.cells.get(i))
                .map(|c| c.slice(text).trim().to_owned())
                .unwrap_or_default();
            // A completion date is recorded, never invented: the checklist's
            // `(completed DATE)`, else the phase's summaries; unknown stays as is.
            let date = if status == "Complete" {
                if old_date.is_empty() || old_date == "-" {
                    completion_date(ws, rm, id).unwrap_or(old_date)
                } else {
                    old_date
                }
            } else {
                "-".to_owned()
            };
            set(date_col, date);
        }
    }
    let missing: Vec<PhaseId> = super::progress::active_phases(ws)
        .into_iter()
        .filter(|id| !seen.iter().any(|s| s.same(id)))
        .collect();
    if !missing.is_empty() {
        let last = live.rows.last().map_or(live.line + 1, |r| r.line);
        let at = rm.doc.source.line_start(last + 1);
        let rows = new_rows(ws, rm, &missing);
        let sep = if text[..at].ends_with('\n') { "" } else { n };
        edits.push(Edit::new(Span::empty(at), format!("{sep}{rows}")));
    }
    Ok(edits)
}

/// Where a new phase's pieces go, after `anchor` (or after the last active
/// phase): its checklist line, its details section (offset and heading
/// level) and its progress row (offset, and the row it follows).
struct Points<'a> {
    checklist: Option<usize>,
    detail: (usize, usize),
    row: Option<(usize, &'a ProgressRow)>,
}

fn insertion_points<'a>(rm: &'a Roadmap, anchor: Option<&PhaseId>) -> Points<'a> {
    let text = rm.doc.text();
    let matches =
        |id: &PhaseId| anchor.is_none_or(|a| id.same(a) || (id.base().same(a) && id.is_decimal()));
    let checklist = rm
        .checklist
        .iter()
        .filter(|c| !c.archived && !c.phase.is_backlog() && matches(&c.phase))
        .max_by(|a, b| a.phase.cmp(&b.phase))
        .map(|c| line_end(text, rm.doc.source.line_start(c.line)));
    let detail = rm
        .phases
        .iter()
        .filter(|p| !p.archived && !p.id.is_backlog() && matches(&p.id))
        .max_by(|a, b| a.id.cmp(&b.id))
        .map(|p| {
            (
                p.section.end,
                rm.md
                    .headings
                    .iter()
                    .find(|h| h.line.number == p.line)
                    .map_or(3, |h| h.level as usize),
            )
        })
        .unwrap_or_else(|| (first_detail_point(rm), 3));
    let row = rm
        .live_progress()
        .filter(|t| !t.goals_only())
        .and_then(|t| {
            t.rows
                .iter()
                .filter(|r| {
                    r.phase
                        .as_ref()
                        .is_some_and(|id| !id.is_backlog() && matches(id))
                })
                .max_by(|a, b| a.phase.cmp(&b.phase))
                .map(|r| (line_end(text, rm.doc.source.line_start(r.line)), r))
        });
    Points {
        checklist,
        detail,
        row,
    }
}

/// Where the first details section of the open work goes when the roadmap
/// has none (every milestone shipped, or a checklist without details): at
/// the end of its `## Phases` / `## Phase Details` section, else before the
/// section that holds the progress table, else at the end of the file.
fn first_detail_point(rm: &Roadmap) -> usize {
    let text = rm.doc.text();
    let headings = &rm.md.headings;
    let start = |i: usize| rm.doc.source.line_start(headings[i].line.number);
    let section_end = |i: usize| {
        headings[i + 1..]
            .iter()
            .position(|h| h.level <= headings[i].level)
            .map_or(text.len(), |k| start(i + 1 + k))
    };
    let words = |i: usize| -> Vec<String> {
        headings[i]
            .text
            .slice(text)
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    // `## Phase Details` over `## Phases` (which often holds only the
    // checklist, the details following under their own heading).
    let titled = |names: &[&[&str]]| {
        (0..headings.len()).find(|&i| {
            headings[i].level == 2
                && names
                    .iter()
                    .any(|n| words(i).iter().map(String::as_str).eq(n.iter().copied()))
        })
    };
    if let Some(i) =
        titled(&[&["phase", "details"], &["phase", "detail"]]).or(titled(&[&["phases"]]))
    {
        return section_end(i);
    }
    // Before the section of the progress table: a `##` heading, never the
    // document's title.
    let table_line = rm.live_progress().map(|t| t.line);
    table_line
        .and_then(|line| {
            headings
                .iter()
                .rposition(|h| h.line.number < line && h.level == 2)
        })
        .map_or(text.len(), start)
}

/// What goes before an inserted block so that a blank line parts it from
/// what precedes it (`before`: the text up to the insertion point).
fn blank_before<'a>(before: &str, n: &'a str) -> &'a str {
    if before.is_empty() || before.ends_with("\n\n") || before.ends_with("\n\r\n") {
        ""
    } else if before.ends_with('\n') {
        n
    } else if n == "\r\n" {
        "\r\n\r\n"
    } else {
        "\n\n"
    }
}

/// The roadmap edits for a new phase `id` named `name`.
fn add_phase_edits(
    rm: &Roadmap,
    id: &PhaseId,
    name: &str,
    depends: &str,
    inserted: bool,
    anchor: Option<&PhaseId>,
) -> Vec<Edit> {
    let text = rm.doc.text();
    let n = nl(rm);
    let points = insertion_points(rm, anchor);
    let mut edits = Vec::new();
    let mark = if inserted { " (INSERTED)" } else { "" };
    if let Some(at) = points.checklist {
        let sep = if text[..at].ends_with('\n') { "" } else { n };
        edits.push(Edit::new(
            Span::empty(at),
            format!("{sep}- [ ] **Phase {}: {name}**{mark}{n}", id.unpadded()),
        ));
    }
    // The row goes first: where the table ends the section the details go
    // into, the row must stay in the table and the details follow it.
    let mut row_at = None;
    if let Some((at, like)) = points.row {
        let row = progress_row(rm, Some(like), id, name, 0, 0, "-");
        // The table's last row may end the file without a line break: the
        // new row goes on a line of its own, and the file still ends
        // without one.
        let text_row = if at == 0 || text[..at].ends_with('\n') {
            format!("{row}{n}")
        } else {
            format!("{n}{row}")
        };
        row_at = Some((at, text_row.ends_with('\n')));
        edits.push(Edit::new(Span::empty(at), text_row));
    }
    let (at, level) = points.detail;
    let lead = match row_at {
        Some((row, true)) if row == at => n,
        Some((row, false)) if row == at => blank_before("|", n),
        _ => blank_before(&text[..at], n),
    };
    // A blank line before the next heading is kept by ending with one.
    let trailing_blank = if at < text.len() { n } else { "" };
    let hashes = "#".repeat(level);
    edits.push(Edit::new(
        Span::empty(at),
        format!("{lead}{hashes} Phase {}: {name}{mark}{n}**Goal**: TBD{n}**Depends on**: {depends}{n}**Requirements**: TBD{n}**Plans**: TBD{n}{trailing_blank}", id.unpadded()),
    ));
    edits
}

/// A planned new phase: its ID, folder and roadmap edits.
pub struct NewPhase {
    pub id: PhaseId,
    /// Folder relative to the project root.
    pub dir: std::path::PathBuf,
    pub edits: Vec<Edit>,
}

fn folder_name(ws: &Workspace, id: &PhaseId, name: &str) -> String {
    let prefix = ws
        .config()
        .project_code()
        .map(|c| format!("{c}-"))
        .unwrap_or_default();
    format!("{prefix}{}-{}", id.normalized(), slugify(name))
}

fn check_name(name: &str) -> Result<(), EditError> {
    if name.trim().is_empty() || name.contains(['\n', '\r']) || slugify(name).is_empty() {
        return Err(EditError::Other(format!(
            "`{name}` cannot name a phase: it needs letters or digits on one line"
        )));
    }
    Ok(())
}

/// `phase add NAME`: the next integer phase after every existing one (999.x excluded).
pub fn add_phase(ws: &Workspace, name: &str) -> Result<NewPhase, EditError> {
    check_name(name)?;
    let rm = roadmap(ws)?;
    let real = |id: &PhaseId| !id.is_backlog() && !id.is_custom();
    // The phases still in play: every one the roadmap names outside a
    // shipped milestone. Where numbering restarted for a later milestone
    // (`Phase 1..4` shipped, `Phase 1..3` now) the new phase follows the
    // restarted run, not the shipped one's highest number.
    let reading = crate::model::reading::RoadmapReading::new(ws);
    let live: Vec<PhaseId> = reading
        .phases
        .iter()
        .filter(|p| !p.archived && !p.backlog && real(&p.phase_id))
        .map(|p| p.phase_id.clone())
        .collect();
    // Restarted: a number still in play is also a shipped milestone's.
    // Otherwise numbering runs on across milestones, and the new phase
    // follows the highest the roadmap names, shipped or not.
    let shipped: std::collections::HashSet<u64> = reading
        .phases
        .iter()
        .filter(|p| p.archived)
        .map(|p| p.phase_id.major())
        .collect();
    let restarted = live.iter().any(|id| shipped.contains(&id.major()));
    let roadmap_ids = if restarted { live } else { rm.all_phase_ids() };
    let last = roadmap_ids
        .into_iter()
        .chain(ws.current_phases().filter_map(|p| p.id.clone()))
        .filter(real)
        .max();
    let next = last.as_ref().map_or(0, PhaseId::major) + 1;
    let id = PhaseId::parse(&next.to_string()).expect("a number is a phase ID");
    let depends = last.map_or_else(
        || "Nothing (first phase)".to_owned(),
        |l| format!("Phase {}", l.unpadded()),
    );
    let edits = add_phase_edits(rm, &id, name.trim(), &depends, false, None);
    Ok(NewPhase {
        dir: phases_dir(ws).join(folder_name(ws, &id, name)),
        id,
        edits,
    })
}

/// `phase insert AFTER NAME`: the next free decimal after AFTER (gaps are never reused).
pub fn insert_phase(ws: &Workspace, after: &str, name: &str) -> Result<NewPhase, EditError> {
    check_name(name)?;
    let rm = roadmap(ws)?;
    let Some(base) =
        PhaseId::parse(after).filter(|b| rm.phase(b).is_some() || rm.checklist_entry(b).is_some())
    else {
        let phases = rm.all_phase_ids().iter().map(PhaseId::unpadded).collect();
        return Err(EditError::UnknownPhase {
            value: after.to_owned(),
            phases,
        });
    };
    let family = |id: &PhaseId| {
        id.base().same(&base)
            && id.is_decimal()
            && matches!(id, PhaseId::Numeric { decimals, .. } if decimals.len() == 1)
    };
    let mut k = 0u64;
    for id in rm
        .all_phase_ids()
        .iter()
        .chain(ws.phases.iter().filter_map(|p| p.id.as_ref()))
    {
        if family(id)
            && let PhaseId::Numeric { decimals, .. } = id
        {
            k = k.max(decimals[0].parse().unwrap_or(0));
        }
    }
    // A phase named by a custom ID (`m8-01`) has no decimal after it.
    let Some(id) =
        PhaseId::parse(&format!("{}.{}", base.unpadded(), k + 1)).filter(|_| !base.is_custom())
    else {
        return Err(EditError::Other(format!(
            "phase {} has a custom ID: a decimal phase goes after a numbered phase (`gsd phase insert 3 NAME` makes 3.1)",
            base.unpadded()
        )));
    };
    let edits = add_phase_edits(
        rm,
        &id,
        name.trim(),
        &format!("Phase {}", base.unpadded()),
        true,
        Some(&base),
    );
    Ok(NewPhase {
        dir: phases_dir(ws).join(folder_name(ws, &id, name)),
        id,
        edits,
    })
}

/// `phases/` of the planning folder read (the root's or the workstream's),
/// relative to the project root.
fn phases_dir(ws: &Workspace) -> std::path::PathBuf {
    ws.rel(&ws.planning.join("phases")).to_path_buf()
}

/// `phase complete N`: its checkbox and plan checkboxes, its progress row and `**Plans**` line.
pub fn complete_phase(ws: &Workspace, id: &PhaseId, force: bool) -> Result<Vec<Edit>, EditError> {
    let rm = roadmap(ws)?;
    let text = rm.doc.text();
    if rm.phase(id).is_none() && rm.checklist_entry(id).is_none() {
        return Err(EditError::UnknownPhase {
            value: id.unpadded(),
            phases: rm.all_phase_ids().iter().map(PhaseId::unpadded).collect(),
        });
    }
    let ph = ws
        .current_phases()
        .find(|p| p.id.as_ref().is_some_and(|i| i.same(id)));
    let (done, total) = disk(ws, id);
    if (total == 0 || done < total) && !force {
        let open: Vec<String> = ph
            .map(|p| {
                p.plan_files
                    .iter()
                    .filter(|f| !p.has_summary_for(f))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        return Err(EditError::Other(if total == 0 {
            format!(
                "phase {} has no plans on disk; use --force to mark it complete anyway",
                id.unpadded()
            )
        } else {
            format!(
                "phase {} has plans without a summary: {}; use --force to mark it complete anyway",
                id.unpadded(),
                open.join(", ")
            )
        }));
    }
    let date = today();
    let mut edits = Vec::new();
    if let Some(c) = rm.checklist_entry(id) {
        if !c.checked {
            edits.push(Edit::new(c.checkbox.mark, "x"));
        }
        let line = rm.doc.source.line_span(c.line);
        if !line.slice(text).contains("(completed") {
            edits.push(Edit::new(
                Span::empty(line.end),
                format!(" (completed {date})"),
            ));
        }
    }
    if let Some(detail) = rm.phase(id) {
        for entry in &detail.plans {
            if entry.checked == Some(false)
                && ph.is_some_and(|p| {
                    p.plan_files.iter().any(|f| {
                        crate::model::PlanId::parse(f).is_some_and(|pid| pid.same(&entry.id))
                            && p.has_summary_for(f)
                    })
                })
                && let Some(item) = rm
                    .md
                    .list_items
                    .iter()
                    .find(|i| i.line.number == entry.line)
                && let Some(cb) = item.checkbox
            {
                edits.push(Edit::new(cb.mark, "x"));
            }
        }
        for line in rm.md.lines_in(detail.section) {
            if let Some(l) = crate::doc::markdown::label_line(text, line.span)
                && l.label.slice(text).eq_ignore_ascii_case("plans")
                && l.bold
            {
                let value = format!("{done}/{total} plans complete");
                if l.value.slice(text) != value {
                    edits.push(Edit::new(l.value, value));
                }
            }
        }
    }
    // The progress row, through the same code as update-progress.
    if let Some(row) = rm.progress_row(id) {
        let all = update_progress(ws)?;
        let row_span = rm.doc.source.line_span(row.line);
        edits.extend(all.into_iter().filter(|e| row_span.covers(e.span)));
    }
    Ok(edits)
}

/// The roadmap edits for a new plan in phase `phase` (`file`: its file
/// name, `name`: its name when it has one): the phase's progress row counts it, its
/// `**Plans**:` count says so, and its plan list gets a line — so the tree
/// `plan new` leaves lints as clean as before.
pub fn plan_added(
    ws: &Workspace,
    phase: &PhaseId,
    file: &str,
    name: Option<&str>,
) -> Result<Vec<Edit>, EditError> {
    let rm = roadmap(ws)?;
    let named = |shown: &str| match name {
        Some(nm) => format!("{shown} — {nm}"),
        None => shown.to_owned(),
    };
    let text = rm.doc.text();
    let n = nl(rm);
    let (done, total) = disk(ws, phase);
    let total = total + 1;
    let mut edits = Vec::new();
    for table in &rm.progress {
        let Columns {
            plans: plans_col,
            status: status_col,
            ..
        } = columns(table);
        if let Some(row) = table
            .rows
            .iter()
            .find(|r| !r.archived && r.phase.as_ref().is_some_and(|p| p.same(phase)))
        {
            let mut set = |i: Option<usize>, value: String| {
                if let Some(cell) = i.and_then(|i| row.cells.get(i))
                    && cell.slice(text) != value
                {
                    edits.push(Edit::new(*cell, value));
                }
            };
            set(plans_col, format!("{done}/{total}"));
            set(status_col, status_word(done, total).to_owned());
        }
    }
    let Some(detail) = rm.phases.iter().find(|p| !p.archived && p.id.same(phase)) else {
        return Ok(edits);
    };
    let stem = file.strip_suffix("-PLAN.md").unwrap_or(file);
    // The `**Plans**:` line: a count or TBD becomes the new count; other
    // wordings ("1/2 plans executed") are the user's and stay.
    let mut plans_line_end = None;
    let (start, end) = (detail.section.start, detail.section.end);
    let mut at = start;
    while at < end {
        let stop = line_end(text, at).min(end);
        let line = &text[at..stop];
        let body = line.trim_end_matches(['\r', '\n']);
        let prefix = ["**Plans**:", "**Plans:**"]
            .into_iter()
            .find(|p| body.starts_with(p));
        if let Some(p) = prefix {
            let value_start =
                at + p.len() + (body.len() - p.len() - body[p.len()..].trim_start().len());
            let value = body[p.len()..].trim();
            let count_only = value.eq_ignore_ascii_case("tbd")
                || value.is_empty()
                || value
                    .split_once(' ')
                    .is_some_and(|(d, w)| d.parse::<usize>().is_ok() && w.starts_with("plan"));
            if count_only {
                let plural = if total == 1 { "plan" } else { "plans" };
                edits.push(Edit::new(
                    Span::new(value_start, at + body.len()),
                    format!("{total} {plural}"),
                ));
            }
            plans_line_end = Some(stop);
            break;
        }
        at = stop;
    }
    // The plan list: a line after its last entry, in that entry's style;
    // else a new list under the `**Plans**:` line.
    if let Some(last) = detail.plans.iter().max_by_key(|p| p.line) {
        let ls = rm.doc.source.line_start(last.line);
        let le = line_end(text, ls);
        let shown = if text[ls..le].contains("-PLAN.md") {
            file.to_owned()
        } else {
            stem.to_owned()
        };
        let sep = if text[..le].ends_with('\n') { "" } else { n };
        edits.push(Edit::new(
            Span::empty(le),
            format!("{sep}- [ ] {}{n}", named(&shown)),
        ));
    } else if let Some(le) = plans_line_end {
        let sep = if text[..le].ends_with('\n') { "" } else { n };
        edits.push(Edit::new(
            Span::empty(le),
            format!("{sep}{n}Plans:{n}- [ ] {}{n}", named(file)),
        ));
    }
    Ok(edits)
}
