//! What a plan's `depends_on` entries point at. GSD writes them several
//! ways (`05-03`, a file stem, `53-agent-consolidation-01`, a bare plan
//! number); lint, `gsd graph` and the export must agree on each.

use super::workspace::Phase;
use super::{Plan, PlanId, Workspace};

/// What a `depends_on` entry points at.
pub enum Target<'a> {
    /// A plan that was read: of the phase itself, or of another phase of
    /// a workspace read whole.
    Plan(&'a Plan),
    /// A plan of another phase known only by its file name: the folder was
    /// listed, not read (lint's skeleton, [`super::workspace::Scope::Skeleton`]).
    Listed,
}

/// Resolve a `depends_on` entry to a plan: `05-03`, a full stem (also of an
/// `01-PLAN-01.md`), or a bare plan number within the same phase.
pub fn resolve<'a>(ws: &'a Workspace, phase: &'a Phase, entry: &str) -> Option<&'a Plan> {
    match target(ws, phase, entry)? {
        Target::Plan(p) => Some(p),
        Target::Listed => None,
    }
}

/// The first plan of `ph` whose ID `hit` accepts: a parsed plan (of
/// `phase`, the folder being checked and read whole, when `ph` is the same
/// folder), else, where `ph` was only listed, one its file names give.
fn find_in<'a>(
    ph: &'a Phase,
    phase: &'a Phase,
    hit: impl Fn(&PlanId) -> bool,
) -> Option<Target<'a>> {
    let ph = if ph.dir == phase.dir { phase } else { ph };
    if let Some(p) = ph.plans.iter().find(|p| p.id.as_ref().is_some_and(&hit)) {
        return Some(Target::Plan(p));
    }
    (ph.plans.is_empty()
        && ph
            .plan_files
            .iter()
            .any(|f| PlanId::parse(f).is_some_and(|id| hit(&id))))
    .then_some(Target::Listed)
}

/// [`resolve`], where the other phases of `ws` may be only listed: a plan
/// of the phase itself is always the parsed plan; one of another phase is
/// that phase's parsed plan, or [`Target::Listed`] when its folder was
/// only listed.
pub fn target<'a>(ws: &'a Workspace, phase: &'a Phase, entry: &str) -> Option<Target<'a>> {
    let e = entry.trim().trim_matches(['"', '\'']);
    // A plan named by its file (`10.01-PLAN.md`) or stem (`10.01`).
    if let Some(p) = phase.plans.iter().find(|p| {
        let name = p.doc.file_name();
        // `01-PLAN-01`: the stem of a plan of the older `NN-PLAN-MM.md` form;
        // `plan-A`: its stem without the phase number (`01-PLAN-A.md`).
        let lower = e.to_lowercase();
        name == e
            || name.strip_suffix("-PLAN.md") == Some(e)
            || name.strip_suffix(".md") == Some(e)
            || (lower.starts_with("plan-")
                && name
                    .strip_suffix(".md")
                    .is_some_and(|s| s.to_lowercase().ends_with(&format!("-{lower}"))))
    }) {
        return Some(Target::Plan(p));
    }
    // A slugged reference (`53-agent-consolidation-01`): a phase folder's
    // name, then the plan number (GSD writes these, #3602).
    if let Some(t) = ws.phases.iter().find_map(|ph| {
        let n: u64 = e
            .strip_prefix(ph.dir_name.as_str())?
            .strip_prefix('-')?
            .parse()
            .ok()?;
        find_in(ph, phase, |id| id.number() == n)
    }) {
        return Some(t);
    }
    if !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit()) {
        let n: u64 = e.parse().ok()?;
        return phase
            .plans
            .iter()
            .find(|p| p.id.as_ref().is_some_and(|id| id.number() == n))
            .map(Target::Plan);
    }
    // A lettered plan number of this phase (`01d` for `30-01d-PLAN.md`:
    // sub-waves split from one plan).
    if e.starts_with(|c: char| c.is_ascii_digit())
        && e.bytes().all(|b| b.is_ascii_alphanumeric())
        && let Some(p) = phase.plans.iter().find(|p| {
            p.doc
                .file_name()
                .strip_suffix("-PLAN.md")
                .is_some_and(|stem| stem.strip_suffix(e).is_some_and(|head| head.ends_with('-')))
        })
    {
        return Some(Target::Plan(p));
    }
    let id = PlanId::parse(e)?;
    let same = |pid: &PlanId| pid.same(&id);
    if let Some(p) = phase.plans.iter().find(|p| p.id.as_ref().is_some_and(same)) {
        return Some(Target::Plan(p));
    }
    // Any plan of the tree with that ID: parsed, else listed.
    ws.phases
        .iter()
        .find_map(|ph| find_in(ph, phase, same))
        .or_else(|| {
            ws.loose_plans
                .iter()
                .find(|p| p.id.as_ref().is_some_and(same))
                .map(Target::Plan)
        })
}
