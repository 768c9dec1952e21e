//! Rules over the plans of one phase: numbering, dependencies, waves,
//! file overlap, summaries.

use std::collections::{BTreeMap, HashMap};

use crate::lint::context::{Ctx, Sink};
use crate::model::deps::Target;
use crate::model::workspace::Phase;
use crate::model::{Plan, PlanId};

/// A `depends_on` entry's target (the model's one resolution, shared with
/// `gsd graph` and the HTML export): the phases of the tree other than
/// `phase` may be only listed.
fn resolve<'a>(cx: &'a Ctx, phase: &'a Phase, entry: &str) -> Option<Target<'a>> {
    crate::model::deps::target(cx.ws, phase, entry)
}

fn same_phase_index(phase: &Phase, target: Target) -> Option<usize> {
    match target {
        Target::Plan(t) => phase.plans.iter().position(|p| std::ptr::eq(p, t)),
        Target::Listed => None,
    }
}

pub fn duplicate_plan_number(cx: &Ctx, s: &mut Sink) {
    for phase in cx.view.phases {
        let mut seen: BTreeMap<String, &Plan> = BTreeMap::new();
        for plan in &phase.plans {
            let Some(id) = &plan.id else { continue };
            // `04-01-FIX-PLAN.md` is a fix plan for 04-01, not a second 04-01.
            let name = plan
                .doc
                .file_name()
                .trim_end_matches("PLAN.md")
                .trim_end_matches('-');
            let variant = name
                .splitn(3, '-')
                .nth(2)
                .filter(|v| v.chars().all(|c| c.is_ascii_uppercase() || c == '-'));
            let key = match variant {
                Some(v) => format!("{}-{v}", id.canonical()),
                None => id.canonical(),
            };
            if let Some(first) = seen.get(&key) {
                s.file(
                    &plan.doc.rel_path,
                    format!(
                        "plan number {key} is used twice: {} and {}",
                        first.doc.file_name(),
                        plan.doc.file_name()
                    ),
                    "renumber one of them; plan IDs must be unique in a phase",
                );
            } else {
                seen.insert(key, plan);
            }
        }
    }
}

pub fn depends_on_unknown_plan(cx: &Ctx, s: &mut Sink) {
    for phase in cx.view.phases {
        for plan in &phase.plans {
            let Some(node) = plan.doc.fm().and_then(|m| m.get("depends_on")) else {
                continue;
            };
            let items = node.scalar_items();
            for (entry, span) in items {
                // A whole earlier phase named by its folder
                // (`INV-01-vite-migration`): a dependency on work that exists.
                let names_phase = cx.ws.phases.iter().any(|p| p.dir_name == entry);
                // Or by its number (`depends_on: [49]` in phase 50): another
                // phase that exists; GSD ignores dependencies outside the
                // phase, so nothing is unknown. (Its own phase's number is
                // not another phase: that is read as a plan number.)
                let names_other_phase = crate::model::PhaseId::parse(&entry).is_some_and(|id| {
                    phase.id.as_ref().is_none_or(|own| !own.same(&id))
                        && (cx.phases.folder(&id).is_some() || cx.phases.in_roadmap(&id))
                });
                if !names_phase && !names_other_phase && resolve(cx, phase, &entry).is_none() {
                    let known: Vec<String> = phase
                        .plans
                        .iter()
                        .filter_map(|p| p.id.as_ref().map(PlanId::canonical))
                        .collect();
                    s.at(
                        &plan.doc,
                        span,
                        format!("depends_on names `{entry}`, which is not a plan"),
                        format!(
                            "plans in this phase: {}",
                            if known.is_empty() {
                                "none".into()
                            } else {
                                known.join(", ")
                            }
                        ),
                    );
                }
            }
        }
    }
}

/// Same-phase dependency edges: plan index → dependency indices.
fn edges(cx: &Ctx, phase: &Phase) -> Vec<Vec<usize>> {
    phase
        .plans
        .iter()
        .map(|p| {
            p.fm.depends_on
                .iter()
                .filter_map(|d| resolve(cx, phase, d))
                .filter_map(|t| same_phase_index(phase, t))
                .collect()
        })
        .collect()
}

pub fn dependency_cycle(cx: &Ctx, s: &mut Sink) {
    for phase in cx.view.phases {
        let g = edges(cx, phase);
        // 0 = unvisited, 1 = on stack, 2 = done
        let mut color = vec![0u8; g.len()];
        let mut reported = false;
        for start in 0..g.len() {
            if color[start] != 0 || reported {
                continue;
            }
            let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
            let mut path: Vec<usize> = vec![start];
            color[start] = 1;
            while let Some((node, next)) = stack.pop() {
                if next < g[node].len() {
                    stack.push((node, next + 1));
                    let dep = g[node][next];
                    if color[dep] == 1 {
                        let from = path.iter().position(|&n| n == dep).unwrap_or(0);
                        let names: Vec<String> = path[from..]
                            .iter()
                            .map(|&i| phase.plans[i].display_id())
                            .collect();
                        let plan = &phase.plans[node];
                        s.at(
                            &plan.doc,
                            plan.key_span("depends_on"),
                            format!(
                                "depends_on cycle: {} → {}",
                                names.join(" → "),
                                phase.plans[dep].display_id()
                            ),
                            "remove one dependency so the plans can be ordered into waves",
                        );
                        reported = true;
                        break;
                    }
                    if color[dep] == 0 {
                        color[dep] = 1;
                        path.push(dep);
                        stack.push((dep, 0));
                    }
                } else {
                    color[node] = 2;
                    path.pop();
                }
            }
        }
    }
}

pub fn wave_order(cx: &Ctx, s: &mut Sink) {
    for phase in cx.view.phases {
        let g = edges(cx, phase);
        for (i, deps) in g.iter().enumerate() {
            let plan = &phase.plans[i];
            let Some(w) = plan.fm.wave else { continue };
            for &d in deps {
                let dep = &phase.plans[d];
                if let Some(dw) = dep.fm.wave
                    && w <= dw
                    && d != i
                {
                    // The dependency has run (its SUMMARY is on disk): the
                    // order can no longer go wrong; the wave is a nit.
                    let severity = if phase.plan_has_summary(dep) {
                        crate::lint::Severity::Info
                    } else {
                        s.severity()
                    };
                    s.at_severity(
                        severity,
                        &plan.doc,
                        plan.key_span("wave"),
                        format!(
                            "plan {} is in wave {w} but depends on {} in wave {dw}",
                            plan.display_id(),
                            dep.display_id()
                        ),
                        if severity == crate::lint::Severity::Info && s.severity() != severity {
                            format!(
                                "move it to wave {} or later (kept as info: {} has run, so the order can no longer go wrong)",
                                dw + 1,
                                dep.display_id()
                            )
                        } else {
                            format!("move it to wave {} or later", dw + 1)
                        },
                    );
                }
            }
        }
    }
}

pub fn files_modified_overlap(cx: &Ctx, s: &mut Sink) {
    for phase in cx.view.phases {
        let mut by_wave: BTreeMap<i64, Vec<&Plan>> = BTreeMap::new();
        for p in &phase.plans {
            by_wave.entry(p.fm.wave.unwrap_or(1)).or_default().push(p);
        }
        for (wave, plans) in by_wave {
            // Which plans of the wave name each file: only plans that share
            // a file are compared, never every pair of the wave.
            let mut naming: HashMap<&str, Vec<usize>> = HashMap::new();
            for (i, p) in plans.iter().enumerate() {
                for f in &p.fm.files_modified {
                    let at = naming.entry(f.as_str()).or_default();
                    if at.last() != Some(&i) {
                        at.push(i);
                    }
                }
            }
            for (i, later) in plans.iter().enumerate() {
                let mut earlier_ones: Vec<usize> = later
                    .fm
                    .files_modified
                    .iter()
                    .flat_map(|f| naming[f.as_str()].iter().copied().take_while(|&j| j < i))
                    .collect();
                earlier_ones.sort_unstable();
                earlier_ones.dedup();
                // One names the other in depends_on: a dependency inside a
                // wave is wave-order's error, whose fix (a later wave) also
                // ends the overlap; saying it twice adds nothing.
                // (Only where both state their wave, as wave-order needs.)
                let depends = |a: &Plan, b: &Plan| {
                    a.fm.wave.is_some()
                        && b.fm.wave.is_some()
                        && a.fm
                            .depends_on
                            .iter()
                            .any(|d| matches!(resolve(cx, phase, d), Some(Target::Plan(t)) if std::ptr::eq(t, b)))
                };
                // Every finding of a plan here is at one place, and the
                // report keeps the first made at a place: the first earlier
                // plan it overlaps is the one said (a wave of twelve plans
                // all editing one file made 66 findings for 11 kept).
                if let Some(earlier) = earlier_ones
                    .into_iter()
                    .map(|j| plans[j])
                    .find(|e| !depends(later, e) && !depends(e, later))
                {
                    let shared: Vec<&String> = later
                        .fm
                        .files_modified
                        .iter()
                        .filter(|f| earlier.fm.files_modified.contains(f))
                        .collect();
                    let list = shared
                        .iter()
                        .map(|f| f.as_str())
                        .collect::<Vec<_>>()
                        .join(", ");
                    s.at(&later.doc, later.key_span("files_modified"), format!("plans {} and {} both modify {list} in wave {wave}", earlier.display_id(), later.display_id()), "plans of one wave run in parallel; make one depend on the other or split the files");
                }
            }
        }
    }
}

pub fn plan_numbering_gap(cx: &Ctx, s: &mut Sink) {
    for phase in cx.view.phases {
        let mut nums: Vec<(u64, &Plan)> = phase
            .plans
            .iter()
            .filter_map(|p| {
                p.id.as_ref()
                    .map(PlanId::number)
                    .or_else(|| PlanId::lettered_number(p.doc.file_name()))
                    .map(|n| (n, p))
            })
            .collect();
        nums.sort_by_key(|(n, _)| *n);
        nums.dedup_by_key(|(n, _)| *n);
        for w in nums.windows(2) {
            if w[1].0 > w[0].0 + 1 {
                s.file(
                    &w[1].1.doc.rel_path,
                    format!(
                        "gap in plan numbering in {}: plan {} → {}",
                        phase.dir_name, w[0].0, w[1].0
                    ),
                    "renumber the plans or add the missing one",
                );
            }
        }
    }
}

pub fn orphan_summary(cx: &Ctx, s: &mut Sink) {
    for phase in cx.view.phases {
        for sum in &phase.summaries {
            let stem = sum.doc.file_name().trim_end_matches("SUMMARY.md");
            // A summary named without its ID (`SUMMARY.md`) still says
            // which plan it reports in its frontmatter (`plan: 01`).
            let fm_plan = sum
                .doc
                .fm()
                .and_then(|m| m.get("plan"))
                .and_then(|n| n.as_str().map(str::to_owned))
                .and_then(|n| n.parse::<u64>().ok());
            // The phase's only summary beside its only plan is that plan's
            // (the plan counts pair them the same way).
            let only_pair = phase.plans.len() == 1
                && phase.summary_files.len() == 1
                && phase.plan_has_summary(&phase.plans[0]);
            // The cheap pairings over every plan first: the name pairing
            // GSD's older forms need copies strings, and asked of every
            // plan before the summary's own it made the rule quadratic.
            let has_plan = only_pair
                || phase.plans.iter().any(|p| {
                    p.doc.file_name().trim_end_matches("PLAN.md") == stem
                        || matches!((&p.id, &sum.id), (Some(a), Some(b)) if a.same(b))
                        || (sum.id.is_none()
                            && fm_plan.is_some()
                            && p.id.as_ref().map(|i| i.number()) == fm_plan)
                })
                || phase.plans.iter().any(|p| {
                    crate::model::workspace::summary_is_for(sum.doc.file_name(), p.doc.file_name())
                });
            // GSD's gap-closure plans are named `NN-MM-FIX.md`: a summary
            // `NN-MM-FIX-SUMMARY.md` reports one.
            let fix_plan = !has_plan
                && phase.other_files.iter().any(|f| {
                    f.strip_suffix(".md")
                        .and_then(|s| stem.strip_prefix(s))
                        .is_some_and(|rest| rest == "-")
                });
            // `05-DISCUSS-SUMMARY.md`, `PHASE-SUMMARY.md`: a report named by
            // what it sums up, naming no plan in its name or frontmatter, is
            // the phase's, not a plan's.
            let phase_report = sum.id.is_none()
                && fm_plan.is_none()
                && stem
                    .split(|c: char| !c.is_ascii_alphabetic())
                    .any(|w| w.len() >= 3);
            if !has_plan && !fix_plan && !phase_report && !phase.plans.is_empty() {
                s.file(
                    &sum.doc.rel_path,
                    format!("summary {} has no matching PLAN.md", sum.doc.file_name()),
                    "rename it to match its plan, or restore the plan",
                );
            }
        }
    }
}

pub fn plan_without_summary(cx: &Ctx, s: &mut Sink) {
    for phase in cx.view.current_phases() {
        let done = phase.completed_plans();
        if done == 0 {
            continue; // an unexecuted phase is not news
        }
        for plan in &phase.plans {
            if !phase.plan_has_summary(plan) {
                s.file(
                    &plan.doc.rel_path,
                    format!(
                        "plan {} has no SUMMARY.md while {done} other plan(s) of the phase do",
                        plan.display_id()
                    ),
                    "execute the plan, or write its summary",
                );
            }
        }
    }
}
