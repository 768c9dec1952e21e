//! Plan identity: every plan gets one ID that `plan list` shows and every
//! plan command accepts, and a query that fits several plans is an error
//! that names them — never a silent first match.
//!
//! Real trees make the plain `NN-MM` ID ambiguous: fix plans beside their
//! plan (`15-02-PLAN.md`, `15-02-FIX2-PLAN.md`), non-numeric plan tokens
//! (`08-FIX6-PLAN.md`), and numbering that restarts per milestone
//! (`milestones/v1.0-phases/01-…/01-01-PLAN.md` beside `phases/01-…/01-01-PLAN.md`).
//! The ID is the canonical `NN-MM` when that names one plan, else the file's
//! stem (`15-02-FIX2`), else the stem under its milestone (`v1.0/01-01`).

use std::collections::HashMap;
use std::path::Path;

use super::Workspace;
use super::ids::PlanId;
use super::plan::Plan;
use super::workspace::{Phase, PhaseLocation};

/// A plan with the phase folder it sits in and its unique ID.
#[derive(Debug, Clone, Copy)]
pub struct PlanRef<'a> {
    pub phase: Option<&'a Phase>,
    pub plan: &'a Plan,
}

/// A plan and the ID that names only it.
#[derive(Debug, Clone)]
pub struct PlanEntry<'a> {
    pub at: PlanRef<'a>,
    pub id: String,
}

/// Why a query found no single plan.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
pub enum PlanLookupError {
    /// No plan fits; the closest listed ID, if any is close.
    #[error("no plan matches `{query}`")]
    #[diagnostic(code(gsd::plan_not_found), help("{}", not_found_hint(closest)))]
    NotFound {
        query: String,
        closest: Option<String>,
    },
    /// Several plans fit: their IDs and paths.
    #[error("`{query}` names several plans")]
    #[diagnostic(
        code(gsd::plan_ambiguous),
        help("name one of them: {}", candidates_hint(candidates))
    )]
    Ambiguous {
        query: String,
        candidates: Vec<(String, String)>,
    },
}

fn not_found_hint(closest: &Option<String>) -> String {
    match closest {
        Some(m) => format!("did you mean `{m}`? (`gsd plan list` shows every plan)"),
        None => "`gsd plan list` shows every plan; IDs look like 05-07".into(),
    }
}

fn candidates_hint(candidates: &[(String, String)]) -> String {
    candidates
        .iter()
        .map(|(i, p)| format!("`{i}` ({p})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// No phase folder fits a query.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[error("no phase matches `{query}`")]
#[diagnostic(
    code(gsd::phase_not_found),
    help("phases: {}", super::list_or_none(known))
)]
pub struct PhaseLookupError {
    pub query: String,
    /// The current phases' IDs.
    pub known: Vec<String>,
}

/// The phase folder a user means: its number in any spelling (`5`, `05`,
/// `5.1`) or its folder name.
pub fn find_phase<'a>(ws: &'a Workspace, query: &str) -> Result<&'a Phase, PhaseLookupError> {
    let want = super::PhaseId::parse(query);
    want.as_ref()
        .and_then(|w| ws.phase(w))
        .or_else(|| ws.phases.iter().find(|p| p.dir_name == query))
        .ok_or_else(|| PhaseLookupError {
            query: query.to_owned(),
            known: ws
                .current_phases()
                .filter_map(|p| p.id.as_ref().map(super::PhaseId::unpadded))
                .collect(),
        })
}

/// `15-02-FIX2-PLAN.md` → `15-02-FIX2`; `PLAN.md` in `09-x/` → `09-x/PLAN`.
fn stem(plan: &Plan) -> String {
    let name = plan.doc.file_name();
    let s = name
        .strip_suffix("-PLAN.md")
        .or_else(|| name.strip_suffix(".md"))
        .unwrap_or(name);
    if s == "PLAN" || s.is_empty() {
        let dir = plan
            .doc
            .path()
            .parent()
            .and_then(Path::file_name)
            .map(|d| d.to_string_lossy().into_owned())
            .unwrap_or_default();
        return format!("{dir}/PLAN");
    }
    s.to_owned()
}

fn is_live(r: &PlanRef) -> bool {
    r.phase
        .is_some_and(|p| p.location == PhaseLocation::Current)
}

fn milestone_of(phase: Option<&Phase>) -> Option<&str> {
    match phase.map(|p| &p.location) {
        Some(PhaseLocation::Archived(v)) => Some(v.as_str()),
        _ => None,
    }
}

/// Every plan with a unique ID, in workspace order (current phases,
/// archived ones, then quick and loose plans).
pub fn plan_entries(ws: &Workspace) -> Vec<PlanEntry<'_>> {
    let refs: Vec<PlanRef> = ws
        .phases
        .iter()
        .flat_map(|ph| {
            ph.plans.iter().map(move |p| PlanRef {
                phase: Some(ph),
                plan: p,
            })
        })
        .chain(ws.loose_plans.iter().map(|p| PlanRef {
            phase: None,
            plan: p,
        }))
        .collect();
    let mut by_display: HashMap<String, usize> = HashMap::new();
    for r in &refs {
        *by_display.entry(r.plan.display_id()).or_default() += 1;
    }
    let first: Vec<String> = refs
        .iter()
        .map(|r| {
            let d = r.plan.display_id();
            if by_display[&d] == 1 { d } else { stem(r.plan) }
        })
        .collect();
    let mut by_first: HashMap<&str, usize> = HashMap::new();
    for f in &first {
        *by_first.entry(f.as_str()).or_default() += 1;
    }
    // Within a group that still collides, the one plan in `phases/` (the
    // live milestone) keeps the plain ID.
    let mut live_in_group: HashMap<&str, usize> = HashMap::new();
    for (r, f) in refs.iter().zip(&first) {
        if is_live(r) {
            *live_in_group.entry(f.as_str()).or_default() += 1;
        }
    }
    let entries = refs
        .iter()
        .zip(&first)
        .map(|(r, f)| {
            let keeps = by_first[f.as_str()] == 1
                || (is_live(r) && live_in_group.get(f.as_str()) == Some(&1));
            let id = if keeps {
                f.clone()
            } else {
                match milestone_of(r.phase) {
                    Some(v) => format!("{v}/{f}"),
                    None if r.plan.is_quick() => format!("quick/{f}"),
                    None => r
                        .plan
                        .doc
                        .rel_path
                        .strip_prefix(".planning")
                        .unwrap_or(&r.plan.doc.rel_path)
                        .to_string_lossy()
                        .into_owned(),
                }
            };
            PlanEntry { at: *r, id }
        })
        .collect();
    paths_for_collisions(entries, ws)
}

/// Last resort for IDs that still collide (two folders with one number in
/// the same milestone): the path under `.planning/`, which cannot collide.
fn paths_for_collisions<'a>(mut entries: Vec<PlanEntry<'a>>, ws: &Workspace) -> Vec<PlanEntry<'a>> {
    let mut count: HashMap<String, usize> = HashMap::new();
    for e in &entries {
        *count.entry(e.id.clone()).or_default() += 1;
    }
    for e in &mut entries {
        if count[&e.id] > 1 {
            let p = e.at.plan.doc.path();
            e.id = p
                .strip_prefix(&ws.planning)
                .unwrap_or(p)
                .to_string_lossy()
                .into_owned();
        }
    }
    entries
}

/// Find the plan a user means by `query`: a path, a file name, a listed
/// ID, or any spelling of `NN-MM` (`5-7`, `05-07-PLAN.md`). When a plain
/// `NN-MM` fits several plans but exactly one is in `phases/`, that live
/// plan is meant (an archived namesake is reached by its listed ID).
pub fn find_plan<'a>(
    ws: &'a Workspace,
    cwd: &Path,
    query: &str,
) -> Result<PlanEntry<'a>, PlanLookupError> {
    let entries = plan_entries(ws);
    // One plan, or the only live one among several (the others sit in
    // shipped milestones and are reached by their qualified IDs).
    let one = |found: Vec<&PlanEntry<'a>>| -> Option<Result<PlanEntry<'a>, PlanLookupError>> {
        let live: Vec<&PlanEntry> = found.iter().copied().filter(|e| is_live(&e.at)).collect();
        match (found.as_slice(), live.as_slice()) {
            ([], _) => None,
            ([e], _) | (_, [e]) => Some(Ok((*e).clone())),
            (many, _) => Some(Err(PlanLookupError::Ambiguous {
                query: query.to_owned(),
                candidates: many
                    .iter()
                    .map(|e| {
                        (
                            e.id.clone(),
                            ws.rel(e.at.plan.doc.path()).display().to_string(),
                        )
                    })
                    .collect(),
            })),
        }
    };
    // A path to a file.
    let as_path = cwd.join(query);
    if query.ends_with(".md") && as_path.is_file() {
        let abs = std::path::absolute(&as_path).unwrap_or(as_path);
        if let Some(r) = one(entries
            .iter()
            .filter(|e| e.at.plan.doc.path() == abs)
            .collect())
        {
            return r;
        }
    }
    // The listed ID, exactly.
    if let Some(r) = one(entries.iter().filter(|e| e.id == query).collect()) {
        return r;
    }
    // A file name (`05-07-PLAN.md`) or stem (`15-02-FIX2`).
    let name = query.rsplit(['/', '\\']).next().unwrap_or(query);
    if let Some(r) = one(entries
        .iter()
        .filter(|e| e.at.plan.doc.file_name() == name || stem(e.at.plan) == name)
        .collect())
    {
        return r;
    }
    // Any spelling of NN-MM, or the ID the plan's frontmatter gives.
    let want = PlanId::parse(query);
    let fits: Vec<&PlanEntry> = entries
        .iter()
        .filter(|e| {
            let p = e.at.plan;
            match &want {
                Some(w) => p.id.as_ref().is_some_and(|i| i.same(w)),
                None => p.display_id() == query,
            }
        })
        .collect();
    if let Some(r) = one(fits) {
        return r;
    }
    let ids: Vec<&str> = entries.iter().map(|e| e.id.as_str()).collect();
    Err(PlanLookupError::NotFound {
        query: query.to_owned(),
        closest: closest(query, &ids),
    })
}

/// The listed ID nearest to a mistyped query, when one is near.
fn closest(query: &str, ids: &[&str]) -> Option<String> {
    ids.iter()
        .map(|id| (strsim::jaro_winkler(query, id), *id))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, id)| id.to_owned())
}
