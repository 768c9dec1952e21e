//! `init execute-phase N`: the context bundle GSD Core 1.14.0's execute
//! workflow starts from — executor and verifier models, the branching and
//! parallel switches, the phase's plans and summaries, which plans are
//! still to run, which are halted or blocked behind a halted dependency,
//! the branch to work on, and the milestone.
//!
//! The halt graph follows 1.14.0's `searchPhaseInDir`: a plan whose SUMMARY
//! says `status: halted` stopped by design; every plan depending on it
//! (frontmatter `depends_on`, directly or through others) is blocked, and
//! only unblocked unsummarized plans are runnable. Handed on: `--validate`,
//! a bare `--wave`, the phase branching strategy without a slug, plans whose
//! `depends_on` holds structures, and what the phase lookup hands on.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde_json::{Map, Value, json};

use super::init_envelope::with_project_root;
use super::init_phase_op::{View, checked_config, lookup, path_text};
use super::milestone_window as mw;
use super::native::{CoreCall, Refusal, hand_on};
use super::output::{Failure, Out};
use super::phase_id::normalize_phase_name;
use super::plan_scan::{canonical_plan_id, summary_candidates};
use super::slug::slug;
use super::{init_plan_phase, section_manifest};

/// `init execute-phase PHASE [--tdd] [--wave N]`.
pub fn execute_phase(call: &CoreCall) -> Result<Out, Refusal> {
    let Some((phase, rest)) = call.args.split_first() else {
        return Err(Refusal::Fail(Failure::new(
            "unknown",
            "phase required for init execute-phase",
        )));
    };
    if phase.is_empty() || phase.starts_with('-') {
        return Err(hand_on(" without a phase in first place"));
    }
    let (mut tdd, mut wave) = (false, false);
    let mut it = rest.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--tdd" => tdd = true,
            "--wave" => match it.next() {
                Some(v) if !v.starts_with("--") => wave = !v.is_empty(),
                _ => return Err(hand_on(" for --wave without a value")),
            },
            _ => return Err(hand_on(format!(" with the argument `{a}`"))),
        }
    }
    if section_manifest::overridden() {
        return Err(hand_on(" with GSD_SECTION_MANIFEST set"));
    }
    let config = checked_config(call)?;
    let cfg = config.clone().unwrap_or_default();
    let legacy = super::super::compat::config::legacy(call.project);
    let view = lookup(call, phase)?;
    let roadmap = super::roadmap_phase::find(call.project, phase);
    let milestone = mw::milestone_info(call.project);
    let plans = Plans::read(&view)?;
    let planning = call.project.join(".planning");
    let setting = |k: &str| legacy.get(k).cloned().unwrap_or(Value::Null);
    let mut r = Map::new();
    r.insert(
        "executor_model".into(),
        init_plan_phase::model(call, "gsd-executor")?,
    );
    r.insert(
        "verifier_model".into(),
        init_plan_phase::model(call, "gsd-verifier")?,
    );
    let tdd_config = match cfg.get("workflow") {
        Some(Value::Object(w)) => w
            .get("tdd_mode")
            .is_some_and(super::super::compat::js::truthy),
        _ => false,
    };
    r.insert("tdd_mode".into(), json!(tdd || tdd_config));
    for k in [
        "commit_docs",
        "sub_repos",
        "parallelization",
        "context_window",
        "branching_strategy",
        "phase_branch_template",
        "milestone_branch_template",
    ] {
        r.insert(k.into(), setting(k));
    }
    r.insert("verifier_enabled".into(), setting("verifier"));
    r.insert("phase_found".into(), json!(view.found));
    r.insert(
        "phase_dir".into(),
        match &view.dir {
            Some(d) => json!(path_text(d)?),
            None => Value::Null,
        },
    );
    let number = view.number.as_str().filter(|n| !n.is_empty());
    r.insert("phase_number".into(), json!(number));
    let name = roadmap
        .as_ref()
        .map(|r| r.phase_name.clone())
        .filter(|n| !n.is_empty())
        .or_else(|| view.name.clone());
    r.insert("phase_name".into(), json!(name));
    let phase_slug = view
        .name
        .as_deref()
        .and_then(|n| slug(n, None))
        .filter(|s| !s.is_empty());
    r.insert("phase_slug".into(), json!(phase_slug));
    r.insert(
        "phase_req_ids".into(),
        json!(
            roadmap
                .as_ref()
                .and_then(|r| init_plan_phase::requirement_ids(&r.section))
        ),
    );
    r.insert("plans".into(), json!(plans.plans));
    r.insert("summaries".into(), json!(plans.summaries));
    r.insert("incomplete_plans".into(), json!(plans.incomplete));
    r.insert("plan_count".into(), json!(plans.plans.len()));
    r.insert("incomplete_count".into(), json!(plans.incomplete.len()));
    r.insert("halted_plans".into(), json!(plans.halted));
    r.insert("blocked_by".into(), Value::Object(plans.blocked_by.clone()));
    r.insert("runnable_plans".into(), json!(plans.runnable));
    r.insert("runnable_count".into(), json!(plans.runnable.len()));
    let milestone_name = milestone.as_ref().and_then(|m| m.1.clone());
    let branch = match legacy.get("branching_strategy").and_then(Value::as_str) {
        Some("phase") if view.found => {
            let Some(Value::String(template)) = legacy.get("phase_branch_template") else {
                return Err(hand_on(" for a phase branch template that is not a string"));
            };
            let Some(s) = phase_slug.as_deref() else {
                return Err(hand_on(" for a phase branch without a slug"));
            };
            let template = template.replacen("{project}", "", 1);
            json!(
                template
                    .replacen(
                        "{phase}",
                        &normalize_phase_name(number.unwrap_or_default()),
                        1
                    )
                    .replacen("{slug}", s, 1)
            )
        }
        Some("milestone") => {
            let Some(Value::String(template)) = legacy.get("milestone_branch_template") else {
                return Err(hand_on(
                    " for a milestone branch template that is not a string",
                ));
            };
            let version = milestone.as_ref().map_or("", |m| m.0.as_str());
            let s = milestone_name
                .as_deref()
                .and_then(|n| slug(n, Some(60)))
                .filter(|s| !s.is_empty())
                .unwrap_or_else(|| "milestone".into());
            json!(
                template
                    .replacen("{milestone}", version, 1)
                    .replacen("{slug}", &s, 1)
            )
        }
        _ => Value::Null,
    };
    r.insert("branch_name".into(), branch);
    mw::insert_milestone(&mut r, &milestone);
    r.insert(
        "milestone_slug".into(),
        json!(milestone_name.as_deref().and_then(|n| slug(n, Some(60)))),
    );
    for (k, f) in [
        ("state_exists", "STATE.md"),
        ("roadmap_exists", "ROADMAP.md"),
        ("config_exists", "config.json"),
    ] {
        r.insert(k.into(), json!(planning.join(f).exists()));
    }
    for (k, f) in [("state_path", "STATE.md"), ("roadmap_path", "ROADMAP.md")] {
        let p = planning.join(f);
        r.insert(
            k.into(),
            if p.exists() {
                json!(path_text(&p)?)
            } else {
                Value::Null
            },
        );
    }
    r.insert(
        "config_path".into(),
        json!(path_text(&planning.join("config.json"))?),
    );
    let req = planning.join("REQUIREMENTS.md");
    r.insert(
        "requirements_path".into(),
        if req.exists() {
            json!(path_text(&req)?)
        } else {
            Value::Null
        },
    );
    let mut facts = section_manifest::Facts {
        phase_number: number.map(str::to_owned),
        has_prior_phases: has_prior_phases(&planning.join("phases"), view.dir.as_deref()),
        ..Default::default()
    };
    for (flag, on) in [("--tdd", tdd), ("--wave", wave)] {
        if on {
            facts.flags.insert(flag.into());
        }
    }
    r.insert(
        "section_manifest".into(),
        section_manifest::field("execute-phase", &facts).unwrap_or(Value::Null),
    );
    Ok(Out::json(&Value::Object(with_project_root(
        call,
        config.as_ref(),
        r,
    )?)))
}

/// `detectHasPriorPhases`: another phase folder holds its own
/// VERIFICATION report.
fn has_prior_phases(phases_dir: &Path, current: Option<&Path>) -> bool {
    let current = current
        .and_then(|c| c.file_name())
        .map(|n| n.to_os_string());
    let Ok(entries) = std::fs::read_dir(phases_dir) else {
        return false;
    };
    entries.flatten().any(|e| {
        if !e.file_type().is_ok_and(|t| t.is_dir()) || Some(e.file_name()) == current {
            return false;
        }
        let name = e.file_name().to_string_lossy().into_owned();
        let Ok(Some(files)) = super::plan_scan::list(&e.path()) else {
            return false;
        };
        super::phase_id::scope_to_phase(&files, &name)
            .iter()
            .any(|f| f.ends_with("-VERIFICATION.md") || *f == "VERIFICATION.md")
    })
}

/// A phase's plans as the execute workflow sees them.
#[derive(Default)]
struct Plans {
    plans: Vec<String>,
    summaries: Vec<String>,
    incomplete: Vec<String>,
    halted: Vec<String>,
    blocked_by: Map<String, Value>,
    runnable: Vec<String>,
}

/// `String.prototype.replace` of the first occurrence.
fn replace_first(s: &str, from: &str, to: &str) -> String {
    s.replacen(from, to, 1)
}

impl Plans {
    fn read(view: &View) -> Result<Plans, Refusal> {
        let Some(dir) = &view.dir else {
            return Ok(Plans::default());
        };
        let scan = super::plan_scan::scan(dir).map_err(|u| hand_on(u.0))?;
        if !scan.all_plan_files.iter().all(|p| !p.contains('/')) {
            return Err(hand_on(" where the phase keeps plans in plans/"));
        }
        let utf16 = |a: &String, b: &String| a.encode_utf16().cmp(b.encode_utf16());
        let mut plans = scan.all_plan_files.clone();
        plans.sort_by(utf16);
        let mut summaries = scan.summary_files.clone();
        summaries.sort_by(utf16);
        let summary_set: HashSet<&str> = summaries.iter().map(String::as_str).collect();
        let incomplete: Vec<String> = plans
            .iter()
            .filter(|p| {
                !summary_candidates(p)
                    .iter()
                    .any(|c| summary_set.contains(c.as_str()))
            })
            .cloned()
            .collect();
        let mut index: HashMap<String, &String> = HashMap::new();
        for s in &summaries {
            let exact = replace_first(&replace_first(s, "-SUMMARY.md", ""), "SUMMARY.md", "");
            let canonical = canonical_plan_id(s);
            index.insert(exact.clone(), s);
            if canonical != exact {
                index.insert(canonical, s);
            }
        }
        let ids: Vec<String> = plans
            .iter()
            .map(|p| replace_first(&replace_first(p, "-PLAN.md", ""), "PLAN.md", ""))
            .collect();
        let by_lower: HashMap<String, &String> =
            ids.iter().map(|id| (id.to_lowercase(), id)).collect();
        let by_canonical: HashMap<String, &String> = plans
            .iter()
            .zip(&ids)
            .map(|(p, id)| (canonical_plan_id(p).to_lowercase(), id))
            .collect();
        let mut nodes = Vec::new();
        for (p, id) in plans.iter().zip(&ids) {
            let summary = index.get(id).or_else(|| index.get(&canonical_plan_id(p)));
            let halted = match summary {
                Some(s) => status_of(&dir.join(s))?.is_some_and(|st| {
                    let st = super::super::compat::roadmap_text::re(r"\s+#.*$").replace(&st, "");
                    super::js::trim(&st).to_lowercase() == "halted"
                }),
                None => false,
            };
            let deps: Vec<String> = depends_on(&dir.join(p))?
                .iter()
                .filter_map(|d| {
                    let lower = d.to_lowercase();
                    by_lower
                        .get(&lower)
                        .or_else(|| by_canonical.get(&lower))
                        .map(|id| (*id).clone())
                })
                .collect();
            nodes.push(Node {
                id: id.clone(),
                deps,
                halted,
            });
        }
        let blocked = halt_propagation(&nodes);
        let halted = plans
            .iter()
            .zip(&nodes)
            .filter(|(_, n)| n.halted)
            .map(|(p, _)| p.clone())
            .collect();
        let open: HashSet<&String> = incomplete.iter().collect();
        let mut blocked_by = Map::new();
        let mut runnable = Vec::new();
        for (p, id) in plans.iter().zip(&ids) {
            if !open.contains(p) {
                continue;
            }
            match blocked.get(id).filter(|c| !c.is_empty()) {
                Some(causes) => {
                    blocked_by.insert(p.clone(), json!(causes));
                }
                None => runnable.push(p.clone()),
            }
        }
        Ok(Plans {
            plans,
            summaries,
            incomplete,
            halted,
            blocked_by,
            runnable,
        })
    }
}

/// The frontmatter of a file (read whole, as 1.14.0 reads it here) where
/// the text holds `key` at all (else, or with no key, none is needed: an
/// empty map). A frontmatter 1.14.0 would warn about is handed on either way.
fn frontmatter_of(path: &Path, key: Option<&str>) -> Result<Map<String, Value>, Refusal> {
    let Ok(bytes) = std::fs::read(path) else {
        return Ok(Map::new());
    };
    let text = String::from_utf8_lossy(&bytes);
    let body = text.strip_prefix('\u{feff}').unwrap_or(&text);
    if (body.starts_with("---\n") || body.starts_with("---\r\n")) && !body[3..].contains("\n---") {
        return Err(hand_on(
            " where a plan or summary's frontmatter is unterminated",
        ));
    }
    if !key.is_some_and(|k| body.contains(k)) {
        return Ok(Map::new());
    }
    super::frontmatter::extract(body).map_err(|u| hand_on(u.0))
}

fn status_of(path: &Path) -> Result<Option<String>, Refusal> {
    // `halted` in any case: the status is compared lower-cased.
    let lowered = std::fs::read(path)
        .map(|b| String::from_utf8_lossy(&b).to_lowercase())
        .unwrap_or_default();
    if !lowered.contains("halted") {
        frontmatter_of(path, None)?;
        return Ok(None);
    }
    Ok(match frontmatter_of(path, Some(""))?.get("status") {
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    })
}

/// `parsePlanDependsOn`: the plan's `depends_on` ids as written.
fn depends_on(path: &Path) -> Result<Vec<String>, Refusal> {
    Ok(
        match frontmatter_of(path, Some("depends_on"))?.get("depends_on") {
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| match v {
                    Value::String(s) => Ok(s.clone()),
                    _ => Err(hand_on(" for a depends_on entry that is not a string")),
                })
                .collect::<Result<_, _>>()?,
            Some(Value::String(s)) if !super::js::trim(s).is_empty() => vec![s.clone()],
            _ => Vec::new(),
        },
    )
}

/// One plan in the halt graph.
struct Node {
    id: String,
    deps: Vec<String>,
    halted: bool,
}

/// `computeHaltPropagation`: for each plan, the halted plans it waits on
/// (directly or through other plans), in topological order; a plan in a
/// dependency cycle is blocked by its dependencies (or itself).
fn halt_propagation(nodes: &[Node]) -> HashMap<String, Vec<String>> {
    let by_id: HashMap<&str, &Node> = nodes.iter().map(|n| (n.id.as_str(), n)).collect();
    let mut in_deg: HashMap<&str, usize> = HashMap::new();
    let mut adj: HashMap<&str, Vec<&str>> = HashMap::new();
    for n in nodes {
        in_deg.entry(&n.id).or_insert(0);
        adj.entry(&n.id).or_default();
        for d in &n.deps {
            if !by_id.contains_key(d.as_str()) {
                continue;
            }
            adj.entry(d).or_default().push(&n.id);
            *in_deg.entry(&n.id).or_insert(0) += 1;
        }
    }
    let mut queue: Vec<&str> = nodes
        .iter()
        .filter(|n| in_deg.get(n.id.as_str()).copied().unwrap_or(0) == 0)
        .map(|n| n.id.as_str())
        .collect();
    let mut head = 0;
    while head < queue.len() {
        let cur = queue[head];
        head += 1;
        for dep in adj.get(cur).cloned().unwrap_or_default() {
            let d = in_deg.entry(dep).or_insert(0);
            *d = d.saturating_sub(1);
            if *d == 0 {
                queue.push(dep);
            }
        }
    }
    let mut blocked: HashMap<String, Vec<String>> = HashMap::new();
    for id in &queue {
        let Some(node) = by_id.get(id) else { continue };
        let mut causes: Vec<String> = Vec::new();
        let mut add = |c: &str| {
            if !causes.iter().any(|x| x == c) {
                causes.push(c.to_owned());
            }
        };
        for d in &node.deps {
            let Some(dep) = by_id.get(d.as_str()) else {
                continue;
            };
            if dep.halted {
                add(d);
            }
            if let Some(more) = blocked.get(d) {
                for c in more.clone() {
                    add(&c);
                }
            }
        }
        if !causes.is_empty() {
            blocked.insert((*id).to_owned(), causes);
        }
    }
    if queue.len() < nodes.len() {
        let ordered: HashSet<&str> = queue.iter().copied().collect();
        for n in nodes {
            if ordered.contains(n.id.as_str()) || n.halted {
                continue;
            }
            let mut causes: Vec<String> = n
                .deps
                .iter()
                .filter(|d| by_id.contains_key(d.as_str()))
                .cloned()
                .collect::<HashSet<_>>()
                .into_iter()
                .collect();
            causes.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
            blocked.insert(
                n.id.clone(),
                if causes.is_empty() {
                    vec![n.id.clone()]
                } else {
                    causes
                },
            );
        }
    }
    blocked
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(id: &str, deps: &[&str], halted: bool) -> Node {
        Node {
            id: id.into(),
            deps: deps.iter().map(|d| (*d).into()).collect(),
            halted,
        }
    }

    #[test]
    fn halts_propagate_through_dependents_and_cycles_block() {
        let nodes = [
            node("01-01", &[], true),
            node("01-02", &["01-01"], false),
            node("01-03", &["01-02"], false),
            node("01-04", &[], false),
            node("01-05", &["01-06"], false),
            node("01-06", &["01-05"], false),
        ];
        let b = halt_propagation(&nodes);
        assert_eq!(b["01-02"], vec!["01-01"]);
        assert_eq!(b["01-03"], vec!["01-01"]);
        assert!(!b.contains_key("01-04") && !b.contains_key("01-01"));
        assert_eq!(b["01-05"], vec!["01-06"]);
    }
}
