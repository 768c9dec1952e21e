//! phase.list-plans and phase-plan-index: a phase's plans as the executor
//! groups them — ids, waves from the `depends_on` graph, what is left to
//! run — read from gsd-sdk's line-based frontmatter so the strings match.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;

use serde_json::{Map, Value, json};

use super::super::compat::roadmap_text::{self as rt, re};
use super::super::compat::{fm_lines, js};
use super::super::{Call, Reply, SdkError};
use super::phase_find;

/// The plan files of a phase folder (`*-PLAN.md` or `PLAN.md`), sorted.
fn plan_files(names: &[String]) -> Vec<String> {
    names
        .iter()
        .filter(|f| f.ends_with("-PLAN.md") || *f == "PLAN.md")
        .cloned()
        .collect()
}

/// JavaScript's `s.replace(from, to)` with a string pattern: the first
/// occurrence only.
fn replace_first(s: &str, from: &str, to: &str) -> String {
    s.replacen(from, to, 1)
}

/// `phase.list-plans PHASE [--with-schema KEY]`.
pub fn list_plans(call: &Call) -> Result<Reply, SdkError> {
    let Some(phase) = call.arg(0).filter(|p| !p.is_empty()) else {
        return Err(SdkError::validation("phase required"));
    };
    let schema = match call.args.iter().position(|a| a == "--with-schema") {
        Some(i) => match call.args.get(i + 1).filter(|k| !k.is_empty()) {
            Some(k) => Some(k.clone()),
            None => {
                return Err(SdkError::validation("--with-schema requires a field name"));
            }
        },
        None => None,
    };
    let normalized = rt::normalize_phase_name(phase);
    let Some(dir) = phase_find::current_dir(call.project, &normalized) else {
        return Ok(Reply::Json(
            json!({"phase": normalized, "plans": [], "error": "Phase not found"}),
        ));
    };
    let dir = call.planning().join("phases").join(dir);
    let mut plans = Vec::new();
    for file in plan_files(&super::names_in(&dir)) {
        let content = read(&dir.join(&file))?;
        let fm = fm_lines::parse(&content);
        if schema.as_ref().is_some_and(|k| !fm.contains_key(k)) {
            continue;
        }
        let wave = fm.get("wave").map_or_else(|| "1".into(), js::string);
        let wave = js::parse_int(&wave).filter(|n| *n != 0.0).unwrap_or(1.0);
        let autonomous = !matches!(fm.get("autonomous"), Some(Value::String(s)) if s == "false");
        let mut keys: Vec<&String> = fm.keys().collect();
        keys.sort();
        plans.push(json!({
            "id": replace_first(&replace_first(&file, "-PLAN.md", ""), "PLAN.md", ""),
            "file": file,
            "wave": js::number(wave),
            "autonomous": autonomous,
            "frontmatter_keys": keys,
        }));
    }
    Ok(Reply::Json(
        json!({"phase": normalized, "with_schema": schema, "plans": plans}),
    ))
}

fn read(path: &std::path::Path) -> Result<String, SdkError> {
    std::fs::read(path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .map_err(|e| SdkError::execution(format!("{}: {e}", path.display())))
}

/// One plan before its wave is known.
struct Raw {
    id: String,
    declared_wave: Option<f64>,
    depends_on: Vec<String>,
    autonomous: bool,
    objective: Value,
    files_modified: Vec<Value>,
    task_count: usize,
    has_summary: bool,
}

/// `extractObjective`: the first line of text after `<objective>`.
fn objective(content: &str) -> Option<String> {
    let c = re(&format!(r"<objective>\s*\n?\s*({}+)", js::JS_DOT))
        .captures(content)
        .ok()
        .flatten()?;
    Some(js::trim(rt::group(&c, 1)).to_string())
}

fn count(pattern: &str, content: &str) -> usize {
    re(pattern).find_iter(content).flatten().count()
}

fn raw_plan(dir: &std::path::Path, file: &str, done: &[String]) -> Result<Raw, SdkError> {
    let id = if file == "PLAN.md" {
        "PLAN".to_string()
    } else {
        replace_first(file, "-PLAN.md", "")
    };
    let content = read(&dir.join(file))?;
    let fm = fm_lines::parse(&content);
    let declared_wave = js::parse_int(&fm.get("wave").map_or("undefined".into(), js::string));
    let depends_on = match fm.get("depends_on") {
        Some(Value::Array(a)) => a.iter().map(js::string).collect(),
        Some(Value::String(s)) if !js::trim(s).is_empty() => vec![s.clone()],
        _ => Vec::new(),
    };
    let autonomous = match fm.get("autonomous") {
        None => true,
        Some(v) => *v == json!("true") || *v == json!(true),
    };
    let files = fm
        .get("files_modified")
        .filter(|v| js::truthy(v))
        .or_else(|| fm.get("files-modified").filter(|v| js::truthy(v)));
    let files_modified = match files {
        Some(Value::Array(a)) => a.clone(),
        Some(v) => vec![v.clone()],
        None => Vec::new(),
    };
    let objective = match objective(&content).filter(|o| !o.is_empty()) {
        Some(o) => json!(o),
        None => fm
            .get("objective")
            .filter(|v| js::truthy(v))
            .cloned()
            .unwrap_or(Value::Null),
    };
    let xml = count(r"(?i)<task[\s>]", &content);
    let task_count = if xml > 0 {
        xml
    } else {
        count(r"(?i)##\s*Task\s*\d+", &content)
    };
    let has_summary = done.contains(&id) || done.contains(&phase_find::canonical_plan_id(file));
    Ok(Raw {
        id,
        declared_wave,
        depends_on,
        autonomous,
        objective,
        files_modified,
        task_count,
        has_summary,
    })
}

/// The phase folder: under `.planning/phases/`, else wherever `find-phase`
/// finds it (an archived milestone).
fn phase_dir(call: &Call, phase: &str, normalized: &str) -> Option<PathBuf> {
    if let Some(d) = phase_find::current_dir(call.project, normalized) {
        return Some(call.planning().join("phases").join(d));
    }
    let found = phase_find::find(call.project, phase);
    match (found.get("found"), found.get("directory")) {
        (Some(Value::Bool(true)), Some(Value::String(d))) if !js::trim(d).is_empty() => {
            Some(call.project.join(d))
        }
        _ => None,
    }
}

/// `phase-plan-index PHASE`: plans with their computed wave (the level in
/// the `depends_on` graph), the waves, the plans without a summary, and
/// warnings for references that resolve to nothing.
pub fn plan_index(call: &Call) -> Result<Reply, SdkError> {
    let Some(phase) = call.arg(0).filter(|p| !p.is_empty()) else {
        return Err(SdkError::validation("phase required for phase-plan-index"));
    };
    let normalized = rt::normalize_phase_name(phase);
    let Some(dir) = phase_dir(call, phase, &normalized) else {
        return Ok(Reply::Json(json!({
            "phase": normalized, "error": "Phase not found", "plans": [], "waves": {},
            "incomplete": [], "has_checkpoints": false,
        })));
    };
    let names = super::names_in(&dir);
    let done: Vec<String> = names
        .iter()
        .filter(|f| f.ends_with("-SUMMARY.md") || *f == "SUMMARY.md")
        .flat_map(|s| {
            let exact = if s == "SUMMARY.md" {
                "PLAN".to_string()
            } else {
                replace_first(s, "-SUMMARY.md", "")
            };
            let canonical = phase_find::canonical_plan_id(s);
            if canonical == exact {
                vec![exact]
            } else {
                vec![exact, canonical]
            }
        })
        .collect();
    let plan_like = re(r"(?i)(^|-)plan(-|\.)");
    let non_canonical: Vec<&String> = names
        .iter()
        .filter(|f| {
            f.to_lowercase().ends_with(".md")
                && plan_like.is_match(f).unwrap_or(false)
                && !(f.ends_with("-PLAN.md") || *f == "PLAN.md")
        })
        .collect();
    let raws = plan_files(&names)
        .iter()
        .map(|f| raw_plan(&dir, f, &done))
        .collect::<Result<Vec<_>, _>>()?;
    let (levels, unresolved) = levels(&raws, &normalized)?;

    let offset = if raws.iter().any(|r| r.declared_wave == Some(0.0)) {
        0
    } else {
        1
    };
    let mut warnings: Vec<String> = Vec::new();
    if !non_canonical.is_empty() {
        let list: Vec<&str> = non_canonical.iter().map(|s| s.as_str()).collect();
        warnings.push(format!(
            "Ignored noncanonical plan files: {}",
            list.join(", ")
        ));
    }
    for (plan, dep) in unresolved {
        warnings.push(format!(
            "Plan {plan}: unresolved depends_on reference '{dep}' — no matching plan in phase"
        ));
    }
    let mut plans = Vec::new();
    let mut waves: Vec<(usize, Vec<String>)> = Vec::new();
    let mut incomplete = Vec::new();
    for (i, raw) in raws.iter().enumerate() {
        if !raw.has_summary {
            incomplete.push(raw.id.clone());
        }
        let wave = levels[i] + offset;
        if let Some(d) = raw.declared_wave
            && d != wave as f64
        {
            warnings.push(format!(
                "Plan {}: declared wave: {} but depends_on DAG places it in wave {wave}",
                raw.id,
                js::string(&js::number(d))
            ));
        }
        plans.push(json!({
            "id": raw.id, "wave": wave, "depends_on": raw.depends_on,
            "autonomous": raw.autonomous, "objective": raw.objective,
            "files_modified": raw.files_modified, "task_count": raw.task_count,
            "has_summary": raw.has_summary,
        }));
        match waves.iter_mut().find(|(w, _)| *w == wave) {
            Some((_, ids)) => ids.push(raw.id.clone()),
            None => waves.push((wave, vec![raw.id.clone()])),
        }
    }
    // Integer-like keys of a JavaScript object print in ascending order.
    waves.sort_by_key(|(w, _)| *w);
    let waves: Map<String, Value> = waves
        .into_iter()
        .map(|(w, ids)| (w.to_string(), json!(ids)))
        .collect();
    let mut out = json!({
        "phase": normalized, "plans": plans, "waves": waves, "incomplete": incomplete,
        "has_checkpoints": raws.iter().any(|r| !r.autonomous),
    });
    if !warnings.is_empty() {
        out["warnings"] = json!(warnings);
    }
    Ok(Reply::Json(out))
}

/// Kahn's algorithm over the plans' in-phase `depends_on` edges: each
/// plan's level (longest path from a plan with no in-phase dependency),
/// and the references that matched no plan. A cycle is an error.
#[allow(clippy::type_complexity)]
fn levels(raws: &[Raw], normalized: &str) -> Result<(Vec<usize>, Vec<(String, String)>), SdkError> {
    let index: HashMap<&str, usize> = raws
        .iter()
        .enumerate()
        .map(|(i, r)| (r.id.as_str(), i))
        .collect();
    // `new Map(entries)`: a later plan with the same canonical id wins.
    let canonical: HashMap<String, usize> = raws
        .iter()
        .enumerate()
        .map(|(i, r)| (phase_find::canonical_plan_id(&r.id), i))
        .collect();
    // The short form (`01`) of `<phase>-<plan>`: the first plan wins.
    let mut short: HashMap<String, usize> = HashMap::new();
    for (i, r) in raws.iter().enumerate() {
        let c = phase_find::canonical_plan_id(&r.id);
        if let Some(dash) = c.rfind('-')
            && dash > 0
            && dash < c.len() - 1
        {
            short.entry(c[dash + 1..].to_string()).or_insert(i);
        }
    }
    let mut in_deg = vec![0usize; raws.len()];
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); raws.len()];
    let mut unresolved = Vec::new();
    for (i, r) in raws.iter().enumerate() {
        for dep in &r.depends_on {
            let to = index
                .get(dep.as_str())
                .or_else(|| canonical.get(dep))
                .or_else(|| short.get(dep));
            match to {
                Some(&d) => {
                    adj[d].push(i);
                    in_deg[i] += 1;
                }
                None => unresolved.push((r.id.clone(), dep.clone())),
            }
        }
    }
    let mut level: Vec<Option<usize>> = vec![None; raws.len()];
    let mut queue: VecDeque<usize> = VecDeque::new();
    for i in 0..raws.len() {
        if in_deg[i] == 0 {
            queue.push_back(i);
            level[i] = Some(0);
        }
    }
    while let Some(cur) = queue.pop_front() {
        let next = level[cur].unwrap_or(0) + 1;
        for &d in &adj[cur] {
            if level[d].is_none_or(|l| next > l) {
                level[d] = Some(next);
            }
            in_deg[d] -= 1;
            if in_deg[d] == 0 {
                queue.push_back(d);
            }
        }
    }
    let visited = in_deg.iter().filter(|d| **d == 0).count();
    if visited < raws.len() {
        let cycle: Vec<&str> = raws
            .iter()
            .zip(&level)
            .filter(|(_, l)| l.is_none())
            .map(|(r, _)| r.id.as_str())
            .collect();
        return Err(SdkError::execution(format!(
            "depends_on cycle detected in phase {normalized} — cycle involves: {}",
            cycle.join(", ")
        )));
    }
    Ok((
        level.into_iter().map(|l| l.unwrap_or(0)).collect(),
        unresolved,
    ))
}
