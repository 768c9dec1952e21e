//! Rules comparing ROADMAP.md with the phase folders on disk.

use std::path::{Path, PathBuf};

use crate::lint::context::{Ctx, Sink};
use crate::model::PhaseId;

pub fn roadmap_missing(cx: &Ctx, s: &mut Sink) {
    // GSD creates a workstream with its STATE.md; the roadmap comes when
    // its first milestone is planned.
    if cx.ws.roadmap.is_none()
        && let Some(w) = &cx.ws.workstream
    {
        s.file_severity(
            crate::lint::Severity::Info,
            cx.planning_rel("ROADMAP.md"),
            format!("workstream `{w}` has no ROADMAP.md yet"),
            "plan its first milestone (GSD's new-milestone) when work on it starts",
        );
        return;
    }
    if cx.ws.roadmap.is_none() && cx.roadmap_archived() {
        s.file_severity(
            crate::lint::Severity::Info,
            cx.planning_rel("ROADMAP.md"),
            "ROADMAP.md not found: between milestones (the last one is archived)",
            "start the next milestone (GSD's new-milestone writes a new ROADMAP.md)",
        );
        return;
    }
    if cx.ws.roadmap.is_none() {
        let rel = cx.planning_rel("ROADMAP.md");
        let (severity, why, hint) = cx.weigh_missing(s.severity(), &rel);
        s.file_severity(
            severity,
            rel,
            format!("ROADMAP.md not found{why}"),
            hint.unwrap_or(
                "create it (`gsd init` writes one) — phases, plans and progress are read from it",
            ),
        );
    }
}

pub fn roadmap_phase_no_dir(cx: &Ctx, s: &mut Sink) {
    let Some(rm) = &cx.ws.roadmap else { return };
    for p in rm
        .phases
        .iter()
        .filter(|p| !p.archived && !p.id.is_backlog())
    {
        if cx.phases.current(&p.id).is_some() {
            continue;
        }
        let entry = cx.phases.checklist(&p.id);
        // Not started yet (unchecked in the checklist) is normal.
        if entry.is_some_and(|c| !c.checked) {
            continue;
        }
        if entry.is_none() && cx.phases.folder(&p.id).is_some() {
            continue; // archived in milestones/
        }
        if entry.is_none()
            && cx
                .phases
                .progress(&p.id)
                .is_none_or(|r| r.plans_complete.is_none_or(|(a, _)| a == 0))
        {
            continue;
        }
        // A finished phase without its folder is a record (the folder was
        // archived or pruned after it ran); a live one is missing its work.
        s.at_line_severity(
            cx.weigh(&p.id, s.severity()),
            &rm.doc,
            p.line,
            format!(
                "phase {} is in ROADMAP.md but has no folder in phases/",
                p.id.unpadded()
            ),
            format!(
                "create .planning/phases/{}-{}/",
                p.id.normalized(),
                // The name without a status suffix (`A (Complete)`).
                crate::model::ids::slugify(
                    p.name
                        .split(" (")
                        .next()
                        .filter(|_| {
                            crate::model::milestone::MilestoneStatus::of_text(&p.name)
                                != crate::model::milestone::MilestoneStatus::Unknown
                        })
                        .unwrap_or(&p.name)
                )
            ),
        );
    }
}

pub fn phase_dir_not_in_roadmap(cx: &Ctx, s: &mut Sink) {
    if cx.ws.roadmap.is_none() {
        return;
    }
    let shipped = &cx.shipped;
    let archived = std::cell::OnceCell::new();
    let in_archived_roadmap = |id: &crate::model::PhaseId| {
        archived
            .get_or_init(|| shipped.archived_roadmap_phases(cx.ws))
            .iter()
            .any(|r| r.contains(id))
    };
    for ph in cx.ws.current_phases() {
        let Some(id) = &ph.id else { continue };
        // A collapsed shipped milestone names only its range (`Phases 8-12`).
        let in_range = cx
            .ws
            .roadmap
            .as_ref()
            .is_some_and(|rm| rm.shipped_range_holds(id));
        // A backlog phase (999.x) named in a line of the roadmap's backlog
        // list (`- Phase 999.1: CI hardening`): parked there on purpose.
        let listed_in_backlog = id.is_backlog()
            && cx.ws.roadmap.as_ref().is_some_and(|rm| {
                let named = format!("phase {}", id.unpadded()).to_lowercase();
                rm.doc.text().lines().any(|l| {
                    let l = l.to_lowercase();
                    l.match_indices(&named).any(|(at, _)| {
                        !l[at + named.len()..].starts_with(|c: char| c.is_ascii_digit() || c == '.')
                    })
                })
            });
        if !cx.phases.in_roadmap(id) && !in_range && !listed_in_backlog {
            // A folder whose plans all ran is a finished phase the roadmap
            // no longer lists (a shipped milestone's, usually): info.
            // (Or its VERIFICATION passed: it ran to its end.)
            let finished = ran_to_its_end(ph);
            // Numbered below every live phase, or beside no live phase at
            // all (between milestones): left over from shipped work.
            let live_min = cx
                .reading
                .phases
                .iter()
                .filter(|p| p.active)
                .map(|p| &p.phase_id)
                .min();
            let left_over = live_min.is_none_or(|m| id < m);
            // A folder that got research or context but never a plan,
            // while plans of later phases have run since: an idea the work
            // passed over (batch 25, wobyjs+wui `15-customelement-woby`).
            // An empty folder (or one holding the `.gitkeep` GSD's `phase
            // add` makes) is a phase just made, still to be planned.
            let passed_over = ph.plan_count() == 0
                && ph.summary_files.is_empty()
                && ph.other_files.iter().any(|f| f.ends_with(".md"))
                && cx
                    .reading
                    .phases
                    .iter()
                    .any(|r| &r.phase_id > id && r.summaries > 0);
            // MILESTONES.md lists it under a shipped milestone, or an
            // archived roadmap does (the live roadmap's numbering
            // restarted, or moved on without it).
            // A backlog folder (999.x) is parked work, never the live
            // milestone's: a note that the roadmap's backlog omits it.
            let finished = finished
                || left_over
                || passed_over
                || id.is_backlog()
                || shipped.names_shipped_phase(id)
                || in_archived_roadmap(id);
            s.file_severity(
                if finished {
                    crate::lint::Severity::Info
                } else {
                    s.severity()
                },
                ph.dir.join(""),
                format!("phase folder {} is not in ROADMAP.md", ph.dir_name),
                format!(
                    "add `### Phase {}: …` to ROADMAP.md or remove the folder",
                    id.unpadded()
                ),
            );
        }
    }
}

/// Whether a phase folder's work ran to its end: every plan has its
/// summary, it holds summaries and no plans, one summary of the whole
/// phase, or its VERIFICATION passed.
fn ran_to_its_end(ph: &crate::model::workspace::Phase) -> bool {
    ph.plan_count() > 0 && ph.completed_plans() == ph.plan_count()
        || (ph.plan_count() == 0 && !ph.summary_files.is_empty())
        || ph.id.as_ref().is_some_and(|id| {
            ph.summary_files
                .iter()
                .any(|f| crate::model::workspace::phase_level_summary(f, id))
        })
        || ph.verified()
}

/// Two folders numbered as one phase, where the roadmap names the phase
/// and its folder is the one whose slug matches that name (`01-core` beside
/// `01-unpack` for `Phase 1: Unpack`): the other is a leftover of an
/// earlier plan, not the phase's work (batch 28,
/// TATboy210+demo_flutter_fullscreen). GSD's tools find a phase's folder
/// by its number, so two of them make that lookup a guess. A leftover whose
/// work ran, beside no phase of the current milestone, or parked in the
/// backlog is history: info.
pub fn phase_dir_shares_number(cx: &Ctx, s: &mut Sink) {
    use crate::model::reading::slug_words;
    if cx.ws.roadmap.is_none() {
        return;
    }
    // The folders of the phases the roadmap names, by number, in phases/
    // only, with whether the phase is live work (the current milestone's,
    // not archived) and its name.
    let current: std::collections::HashSet<&Path> =
        cx.ws.current_phases().map(|p| p.dir.as_path()).collect();
    type Used<'r> = Vec<(&'r Path, bool, &'r str)>;
    let mut used: std::collections::HashMap<crate::model::ids::PhaseKey, Used> =
        std::collections::HashMap::new();
    let mut used_dirs: std::collections::HashSet<&Path> = std::collections::HashSet::new();
    // Names of archived folders a phase is read from: a copy of one left in
    // phases/ is another matter.
    let mut archived_names: std::collections::HashSet<&std::ffi::OsStr> =
        std::collections::HashSet::new();
    for p in &cx.reading.phases {
        let Some(dir) = &p.dir else { continue };
        used_dirs.insert(dir);
        if !current.contains(dir.as_path()) {
            archived_names.extend(dir.file_name());
            continue;
        }
        if let Some(name) = p.name.as_deref().filter(|n| !n.trim().is_empty()) {
            used.entry(p.phase_id.key())
                .or_default()
                .push((dir, p.active && !p.archived, name));
        }
    }
    let mut found = Vec::new();
    for ph in cx.ws.current_phases() {
        let Some(id) = &ph.id else { continue };
        if used_dirs.contains(ph.dir.as_path())
            || ph
                .dir
                .file_name()
                .is_some_and(|n| archived_names.contains(n))
        {
            continue;
        }
        let Some(dirs) = used.get(&id.key()) else {
            continue;
        };
        // The live phase's folder, when numbering restarts.
        let Some(&(phase_dir, live, name)) = dirs.iter().find(|d| d.1).or(dirs.first()) else {
            continue;
        };
        // The phase's folder was picked by the name: it shares more of the
        // name's words than this one, or as many while this one holds
        // neither plans nor summaries.
        let words = slug_words(name);
        let shared = |slug: &str| {
            slug_words(slug)
                .iter()
                .filter(|w| words.contains(w))
                .count()
        };
        let theirs = shared(&phase_dir.file_name().unwrap_or_default().to_string_lossy());
        let ours = shared(&ph.slug);
        let notes_only = ph.plan_count() == 0 && ph.summary_files.is_empty();
        if theirs == 0 || theirs < ours || (theirs == ours && !notes_only) {
            continue;
        }
        let history = ran_to_its_end(ph) || !live || id.is_backlog();
        found.push((ph, phase_dir, id, history));
    }
    // Three numbers or more with a second folder: a whole earlier numbering
    // kept beside the roadmap's (a replaced roadmap's `02-returns-…`,
    // `03-returns-…`, `04-returns-…`), history rather than one stray copy
    // (batch 30, matthiasrib29+StoFlow).
    // (Counted among the unrun leftovers only, in a run of consecutive
    // numbers: two folders that ran beside one stray unrun copy are no
    // series.)
    let mut numbers: Vec<u64> = found.iter().filter(|f| !f.3).map(|f| f.2.major()).collect();
    numbers.sort_unstable();
    numbers.dedup();
    let series = numbers.len() >= 3 && numbers.windows(2).all(|w| w[1] == w[0] + 1);
    let folders = numbers.len();
    let name_of = |d: &Path| {
        d.file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
    };
    for (ph, phase_dir, id, history) in found {
        let note = if series && !history {
            format!(" (kept as info: one of {folders} folders of an earlier numbering)")
        } else {
            String::new()
        };
        s.file_severity(
            if history || series {
                crate::lint::Severity::Info
            } else {
                s.severity()
            },
            ph.dir.join(""),
            format!(
                "phase folder {} shares number {} with {}, the folder of the roadmap's phase {}{note}",
                ph.dir_name,
                id.unpadded(),
                name_of(phase_dir),
                id.unpadded()
            ),
            "move what is still needed into the phase's folder and archive or remove this one: GSD's tools find a phase's folder by its number",
        );
    }
}

/// A gap is a number that appears nowhere: not as a folder (current or
/// archived), not in ROADMAP.md in any milestone. Phases of a shipped
/// milestone whose folders were archived or pruned, and phases listed but
/// not started yet, are not gaps.
pub fn phase_numbering_gap(cx: &Ctx, s: &mut Sink) {
    if cx.ws.config().custom_phase_naming() {
        return;
    }
    let mut nums: Vec<(u64, &PathBuf)> = cx
        .ws
        .current_phases()
        .filter_map(|p| {
            p.id.as_ref()
                .filter(|i| i.is_integer() && !i.is_backlog())
                .map(|i| (i.major(), &p.dir))
        })
        .collect();
    nums.sort();
    nums.dedup_by_key(|(n, _)| *n);
    let known: std::collections::HashSet<u64> = cx
        .ws
        .phases
        .iter()
        .filter_map(|p| p.id.as_ref().map(PhaseId::major))
        .chain(cx.reading.phases.iter().map(|p| p.phase_id.major()))
        .chain(crate::model::shipped::put_away_phase_numbers(cx.ws))
        .collect();
    // Numbers the roadmap accounts for in words (`phases 10–11 belong to
    // an earlier milestone`) are not gaps either. Read only when a number
    // is missing: reading every line of a big roadmap for phrases was a
    // tenth of `gsd lint` on a tree without a single gap.
    let mentioned = std::cell::OnceCell::new();
    let mentioned = || {
        mentioned.get_or_init(|| {
            let mut found = cx
                .ws
                .roadmap
                .as_ref()
                .map(|rm| mentioned_ranges(rm.doc.text(), true))
                .unwrap_or_default();
            // Archived roadmaps (`milestones/vX.Y-ROADMAP.md`) account for
            // the numbers of shipped milestones, whatever marks they carry.
            let archive = cx.planning_rel("milestones");
            for doc in cx.ws.other.iter().filter(|d| {
                d.rel_path.parent() == Some(archive.as_path())
                    && d.file_name().ends_with("-ROADMAP.md")
            }) {
                found.extend(mentioned_ranges(doc.text(), false));
            }
            // A workstream numbers its phases after the project's: the
            // project's archived roadmaps (`.planning/milestones/`, not read
            // with the workstream's files) account for numbers too.
            if cx.ws.workstream.is_some() {
                let root_archive = cx.ws.root.join(".planning").join("milestones");
                for e in std::fs::read_dir(root_archive)
                    .into_iter()
                    .flatten()
                    .flatten()
                {
                    if e.file_name().to_string_lossy().ends_with("-ROADMAP.md")
                        && let Ok(text) = std::fs::read_to_string(e.path())
                    {
                        found.extend(mentioned_ranges(&text, false));
                    }
                }
            }
            // Versioned roadmaps beside ROADMAP.md (`ROADMAP-v0.42.md`)
            // name phases too (batch 25, bibondz+crushcode).
            let root = cx.planning_rel("");
            for doc in cx.ws.other.iter().filter(|d| {
                d.rel_path.parent() == Some(root.as_path())
                    && d.file_name().starts_with("ROADMAP")
                    && d.file_name().ends_with(".md")
            }) {
                found.extend(mentioned_ranges(doc.text(), false));
            }
            found
        })
    };
    let in_range = |n: u64| {
        PhaseId::parse(&n.to_string()).is_some_and(|id| {
            cx.ws
                .roadmap
                .as_ref()
                .is_some_and(|rm| rm.shipped_range_holds(&id))
                || cx.shipped.names_shipped_phase(&id)
                || mentioned().iter().any(|r| r.contains(&id))
        })
    };
    for w in nums.windows(2) {
        let missing: Vec<u64> = (w[0].0 + 1..w[1].0)
            .filter(|n| !known.contains(n) && !in_range(*n))
            .collect();
        // A folder that holds one plan for several phases (`35-perf-polish/
        // v0.10-PLAN.md` with `### Phase 36: …` inside) accounts for them.
        let missing = if missing.is_empty() {
            missing
        } else {
            let headed = headed_in_plans(&[&cx.ws.root.join(w[0].1), &cx.ws.root.join(w[1].1)]);
            missing
                .into_iter()
                .filter(|n| !headed.iter().any(|h| h.is_integer() && h.major() == *n))
                .collect()
        };
        if let (Some(first), Some(last)) = (missing.first(), missing.last()) {
            let which = if first == last {
                format!("phase {first} is")
            } else {
                format!("phases {first}–{last} are")
            };
            // A gap before phases that have run is settled: the numbers
            // after it are already in use (`6 → 8` in folders a finished
            // milestone left, when 9–12 have run since). (A folder the
            // roadmap does not know, with work still to run and nothing
            // run after it, is not: that is live drift.)
            let ran = |r: &crate::model::reading::PhaseReading| {
                r.archived || r.checked == Some(true) || (r.plans > 0 && r.summaries >= r.plans)
            };
            let settled = cx
                .ws
                .current_phases()
                .find(|p| &p.dir == w[1].1)
                .and_then(|p| p.id.as_ref())
                .and_then(|id| cx.reading.phase(id))
                .is_some_and(ran)
                || cx
                    .reading
                    .phases
                    .iter()
                    .any(|r| r.phase_id.major() > w[1].0 && ran(r));
            s.file_severity(
                if settled {
                    crate::lint::Severity::Info
                } else {
                    s.severity()
                },
                w[1].1.clone(),
                format!(
                    "gap in phase numbering: {} → {}; {which} neither a folder nor in ROADMAP.md",
                    w[0].0, w[1].0
                ),
                "renumber the phases or restore the missing one",
            );
        }
    }
}

pub fn phase_dir_bad_name(cx: &Ctx, s: &mut Sink) {
    for ph in cx.ws.current_phases() {
        if ph.id.is_none() || ph.slug.is_empty() {
            // `_archived-…`, `archive`: a folder put aside on purpose.
            // …or a bare `80/` or `03-/` beside the real `80-sqlite-…/`.
            let stray = ph.id.as_ref().is_some_and(|id| {
                cx.ws.current_phases().any(|o| {
                    o.dir_name != ph.dir_name && !o.slug.is_empty() && o.id.as_ref() == Some(id)
                })
            });
            // A finished phase's folder is history whatever its name.
            // A folder named by a roadmap phase's name alone
            // (`llm-form-modeler` for `阶段 1：llm-form-modeler`) is that
            // phase's, finished or not.
            // (`phase_14/`: the number is there, after the word.)
            let numbered = || PhaseId::from_worded_dir_name(&ph.dir_name);
            let named = ph.id.clone().or_else(numbered).or_else(|| {
                cx.ws.roadmap.as_ref().and_then(|rm| {
                    rm.phases
                        .iter()
                        .find(|p| {
                            let slug = crate::model::ids::slugify(&p.name);
                            !slug.is_empty() && slug == ph.dir_name.to_lowercase()
                        })
                        .map(|p| p.id.clone())
                })
            });
            let finished = named
                .as_ref()
                .is_some_and(|id| cx.reading.phase(id).is_some() && !cx.live(id));
            // Summaries and no plan left to run: a record of work that is
            // done (`m2s2-celery/` holding its slice's SUMMARY), not a
            // folder GSD has to find a phase in.
            // So is a folder whose every plan has its summary
            // (`QA-AUDIT-dashboard-audit/`, 9 of 9 run).
            let record = (ph.plan_count() == 0 && !ph.summary_files.is_empty())
                || (ph.plan_count() > 0 && ph.completed_plans() >= ph.plan_count());
            // A folder of notes, reviews or UAT records and nothing a phase
            // is made of (no plan, summary, context or research): kept
            // beside the phases, not a phase GSD has to find. A roadmap
            // phase it is named for keeps the warning.
            let phase_work = ph.plan_count() > 0
                || !ph.summary_files.is_empty()
                || ph
                    .other_files
                    .iter()
                    .any(|f| f.ends_with("CONTEXT.md") || f.ends_with("RESEARCH.md"));
            let notes_only = named.is_none() && !phase_work && !garbled_name(&ph.dir_name);
            let put_aside = stray
                || finished
                || record
                || notes_only
                || ph.dir_name.starts_with(['_', '.'])
                || ph.dir_name.to_lowercase().contains("archive");
            s.file_severity(
                if put_aside {
                    crate::lint::Severity::Info
                } else {
                    s.severity()
                },
                ph.dir.clone(),
                format!("phase folder `{}` is not named NN-slug", ph.dir_name),
                "name phase folders like 03-api, 02.1-hotfix, 12A-variant or 999.1-idea",
            );
        }
    }
}

/// A folder name no person chose: a tool's output pasted in as a name
/// (`{  slug project-…}`), with brackets, quotes or characters of the
/// private-use area standing in for new lines.
fn garbled_name(name: &str) -> bool {
    name.chars().any(|c| {
        matches!(c, '{' | '}' | '"' | '\\' | '<' | '>')
            || c.is_control()
            || ('\u{E000}'..='\u{F8FF}').contains(&c)
    })
}

pub fn roadmap_checklist_without_details(cx: &Ctx, s: &mut Sink) {
    let Some(rm) = &cx.ws.roadmap else { return };
    if rm.phases.is_empty() {
        return;
    }
    // A shipped milestone is collapsed to its checklist by GSD's
    // complete-milestone; only the live part must have detail sections.
    for c in rm.checklist.iter().filter(|c| !c.archived) {
        if cx.phases.detail(&c.phase).is_none() {
            // A ticked phase, or one whose plans all ran, is done: nobody
            // writes its plan now, and a missing section is a record. A
            // phase of a later milestone or the backlog gets its section
            // when that milestone is planned.
            let reading = cx.reading.phase(&c.phase);
            let done = c.checked || reading.is_some_and(|p| p.status == "complete");
            let later = reading.is_some_and(|p| !p.active || p.backlog);
            let sev = if done || later {
                crate::lint::Severity::Info
            } else {
                s.severity()
            };
            s.at_line_severity(
                sev,
                &rm.doc,
                c.line,
                format!(
                    "checklist entry for phase {} has no `### Phase {}:` section",
                    c.phase.unpadded(),
                    c.phase.unpadded()
                ),
                "add a detail section with Goal, Depends on, Requirements and Plans",
            );
        }
    }
}

fn disk_counts(cx: &Ctx, id: &PhaseId) -> Option<(usize, usize)> {
    let ph = cx.phases.current(id)?;
    // One plan with no plan number and one summary (`00-PLAN.md`,
    // `00-01-SUMMARY.md`): the summary is that plan's.
    if ph.plan_count() == 1
        && ph.summary_files.len() == 1
        && crate::model::PlanId::parse(&ph.plan_files[0]).is_none()
    {
        return Some((1, 1));
    }
    Some((ph.completed_plans(), ph.plan_count()))
}

pub fn roadmap_plan_count_mismatch(cx: &Ctx, s: &mut Sink) {
    let Some(rm) = &cx.ws.roadmap else { return };
    for p in rm.phases.iter().filter(|p| !p.archived) {
        let Some(label) = &p.plans_label else {
            continue;
        };
        let Some((_, on_disk)) = disk_counts(cx, &p.id) else {
            continue;
        };
        // Fix plans (`11-01-FIX-PLAN.md`, written by GSD's plan-fix after
        // UAT) come on top of the plans a roadmap lists.
        let fixes = cx.phases.current(&p.id).map_or(0, |ph| {
            ph.plan_files
                .iter()
                .filter(|f| f.to_ascii_uppercase().contains("-FIX"))
                .count()
        });
        let on_disk = on_disk.saturating_sub(fixes);
        let l = label.trim();
        // `TBD (likely 2-3 plans)`: an estimate made before planning, not a
        // count of plans.
        if l.to_ascii_lowercase().starts_with("tbd") {
            continue;
        }
        // "2 plans" or "1/2 plans executed": the total is the last number before "plan".
        let before = l.split("plan").next().unwrap_or("");
        let total = before
            .rsplit(|c: char| !c.is_ascii_digit())
            .find(|t| !t.is_empty())
            .and_then(|t| t.parse::<usize>().ok());
        if let Some(total) = total
            && total != on_disk
            && on_disk > 0
        {
            // A plan list naming another phase's plans (phase 5's list
            // copied under phase 2, batch 31 BueroBauer+taiwan-dashboard):
            // said, so the reader sees why the count is off.
            let why = p
                .plans
                .iter()
                .find(|e| e.id.phase != p.id)
                .map_or(String::new(), |e| {
                    format!(
                        " (its plan list names {}, a plan of phase {})",
                        e.id,
                        e.id.phase.unpadded()
                    )
                });
            s.at_line_severity(
                cx.weigh(&p.id, s.severity()),
                &rm.doc,
                p.line,
                format!(
                    "ROADMAP.md says phase {} has {total} plan(s); phases/ has {on_disk}{why}",
                    p.id.unpadded()
                ),
                "run `gsd roadmap` to see the disk counts and update the **Plans** line",
            );
        }
    }
}

pub fn roadmap_progress_mismatch(cx: &Ctx, s: &mut Sink) {
    let Some(rm) = &cx.ws.roadmap else { return };
    for row in rm.progress.iter().flat_map(|t| &t.rows) {
        let (Some(id), Some((done, total))) = (&row.phase, row.plans_complete) else {
            continue;
        };
        let Some((d, t)) = disk_counts(cx, id) else {
            continue;
        };
        // Summaries that say their plan stopped at a checkpoint: a row
        // that does not count them as done is right.
        let stopped = cx
            .phases
            .current(id)
            .and_then(|ph| cx.facts.stopped_summaries.get(&ph.dir))
            .copied()
            .unwrap_or(0);
        if (done as usize, total as usize) == (d.saturating_sub(stopped), t) && stopped > 0 {
            continue;
        }
        if (done as usize, total as usize) != (d, t) && t > 0 {
            // A stale row of a finished or shipped phase is history; a
            // live phase's, or a complete phase whose row lags, is drift.
            // A row ahead of the disk (it says more ran than has a summary)
            // of a phase the work has moved past is a finished phase's
            // record, as for a ticked box.
            // (Or no summary was ever written, and the phase is ticked
            // and its row says complete: done outside GSD's records.)
            let ahead = done as usize >= d
                && (cx.finished(id)
                    || (d == 0
                        && row_says_complete(rm, id)
                        && rm.checklist.iter().any(|c| c.checked && c.phase.same(id))));
            // Row and disk both say the phase is done, and the work has
            // moved past it: only the count of a finished phase differs.
            // (A `0/0` row states no plans at all, not a finished phase.)
            let both_done = total > 0 && done == total && d == t && cx.moved_past(id);
            let live = !row.archived
                && !ahead
                && !both_done
                && cx.reading.phase(id).is_some_and(|p| p.active);
            let sev = if live {
                s.severity()
            } else {
                crate::lint::Severity::Info
            };
            s.at_line_severity(sev, &rm.doc, row.line, format!("progress row for phase {} says {done}/{total}; disk has {d}/{t} plans with summaries", id.unpadded()), "rebuild the table from disk (gsd roadmap update-progress)");
        }
    }
}

/// Besides its ticked box, the roadmap says once more that the phase is
/// complete: its progress row (`| 1. Core | 5/5 | Complete | 2026-05-02 |`)
/// or a completion date on its checklist line (`(Completed March 31, 2026)`).
fn row_says_complete(rm: &crate::model::roadmap::Roadmap, id: &crate::model::PhaseId) -> bool {
    let row = rm.progress.iter().flat_map(|t| &t.rows).any(|r| {
        r.phase.as_ref().is_some_and(|p| p.same(id))
            && crate::model::milestone::MilestoneStatus::of_value(&r.status)
                == crate::model::milestone::MilestoneStatus::Shipped
    });
    let dated = rm.checklist.iter().filter(|c| c.phase.same(id)).any(|c| {
        let line = rm
            .doc
            .source
            .line_span(c.line)
            .slice(rm.doc.text())
            .to_lowercase();
        line.contains("completed")
            && line
                .as_bytes()
                .windows(4)
                .any(|w| w.iter().all(u8::is_ascii_digit) && (w[0] == b'1' || w[0] == b'2'))
    });
    row || dated
}

pub fn roadmap_complete_but_unfinished(cx: &Ctx, s: &mut Sink) {
    let Some(rm) = &cx.ws.roadmap else { return };
    for c in rm.checklist.iter().filter(|c| c.checked && !c.archived) {
        let Some((done, total)) = disk_counts(cx, &c.phase) else {
            continue;
        };
        if done < total {
            // Ticked too early is drift while it is the work at hand; once
            // later work has run (or the milestone's phases are all done)
            // the missing summaries are records of finished work. So too
            // when no summary was ever written and the progress row also
            // says the phase is complete: it was done outside GSD's records.
            let live = cx.reading.phase(&c.phase).is_some_and(|p| p.active)
                && !cx.finished(&c.phase)
                && !(done == 0 && row_says_complete(rm, &c.phase));
            s.at_line_severity(
                if live {
                    s.severity()
                } else {
                    crate::lint::Severity::Info
                },
                &rm.doc,
                c.line,
                format!(
                    "phase {} is checked complete but only {done} of {total} plans have summaries",
                    c.phase.unpadded()
                ),
                "untick it, or execute the remaining plans",
            );
        }
    }
}

/// The phases the plans in `dirs` give a title heading of their own
/// (`### Phase 36: Tool Input Validation`, outside code fences; not `##
/// Builds on Phase 3`, a sentence that mentions one): read from
/// disk, only for the folders beside a gap, since a streaming lint holds
/// no plan here.
fn headed_in_plans(dirs: &[&Path]) -> Vec<PhaseId> {
    let mut out = Vec::new();
    for dir in dirs {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let name = e.file_name();
            if !name
                .to_string_lossy()
                .to_ascii_uppercase()
                .ends_with("PLAN.MD")
            {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(e.path()) else {
                continue;
            };
            let mut fenced = false;
            for line in text.lines() {
                let t = line.trim_start();
                if t.starts_with("```") || t.starts_with("~~~") {
                    fenced = !fenced;
                    continue;
                }
                if !fenced && let Some(id) = phase_title(line) {
                    out.push(id);
                }
            }
        }
    }
    out
}

/// The phase a markdown heading is the title of, read as the roadmap
/// reads its own phase headings (`### Phase 36: …`, `## Fase 2 — …`).
fn phase_title(line: &str) -> Option<PhaseId> {
    let heading = line.strip_prefix('#')?.trim_start_matches('#');
    crate::model::roadmap::parse_phase_title(heading).map(|(id, _)| id)
}

/// Every phase range a text mentions, in any case (`Phases 10-11`,
/// `phases 10–11`, `phase 7`) — but the range of a milestone still open
/// (`🚧 v1.0 MVP - Phases 1-12A`) is a plan, not an account of numbers.
fn mentioned_ranges(text: &str, skip_open: bool) -> Vec<crate::model::milestone::PhaseRange> {
    use crate::model::milestone::MilestoneStatus;
    let mut out = Vec::new();
    for line in text.lines() {
        if skip_open
            && matches!(
                MilestoneStatus::of_text(line),
                MilestoneStatus::InProgress | MilestoneStatus::Planned
            )
        {
            continue;
        }
        for (i, _) in line.match_indices("hase") {
            let Some(start) = i.checked_sub(1) else {
                continue;
            };
            if !matches!(line.as_bytes()[start], b'P' | b'p') {
                continue;
            }
            let seg: String = std::iter::once('P')
                .chain(line[i..].chars().take(60))
                .collect();
            if let Some((r, _)) = crate::model::milestone::PhaseRange::find(&seg) {
                out.push(r);
            }
        }
    }
    out
}
