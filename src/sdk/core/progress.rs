//! `progress [json|bar|table]` and `phases list`: the current milestone's
//! phase folders, as GSD Core 1.14.0 enumerates them (`listMilestonePhaseDirs`:
//! the milestone window's phases, sentinels 0 and 999 left out, in phase
//! order), and its plan counts.
//!
//! 1.14.0 scoped both to the milestone window (1.42.3 listed every folder of
//! `phases/`), and withholds the percentage where the window could not be
//! read whole (`phase_scope` other than `complete`), so these answers are
//! this dialect's own. Handed on: the `bracket` phase-id convention (its
//! own sentinel and folder grammar), `phases list --phase` and
//! `--include-archived` (lookups over other milestones' folders), and
//! `--type plans` (1.14.0's canonical-name warning).

use std::path::Path;

use serde_json::{Map, Value, json};

use super::init_plan_phase::phase_status;
use super::milestone_window::{self as mw, PhaseFilter};
use super::native::{CoreCall, Refusal, hand_on};
use super::output::Out;
use super::plan_scan;
use super::roadmap_analyze::{all_phase_dirs, clamp_percent, convention};

/// The milestone's phase folders and the filter's scope
/// (`listMilestonePhaseDirs(phasesDir, {cwd})`).
fn milestone_dirs(project: &Path) -> Result<(Vec<String>, mw::Scope), Refusal> {
    let planning = project.join(".planning");
    if convention(&planning).as_deref() == Some("bracket") {
        return Err(hand_on(" for the bracket phase-id convention"));
    }
    let filter = PhaseFilter::read(project);
    let dirs = all_phase_dirs(&planning.join("phases"))?
        .into_iter()
        .filter(|d| filter.admits(d) && !mw::is_sentinel(d))
        .collect();
    Ok((dirs, filter.scope))
}

/// `renderProgressBar(percent, width)`: filled cells scaled by the width,
/// a full bar only at 100%; no percentage, no filled cell.
fn bar(percent: Option<u64>, width: usize) -> String {
    let filled = match percent {
        None => 0,
        Some(p) if p >= 100 => width,
        // `Math.round(p / 100 * width)`, never the whole bar below 100%.
        Some(p) => ((p as f64 / 100.0 * width as f64 + 0.5).floor() as usize).min(width - 1),
    };
    format!("{}{}", "█".repeat(filled), "░".repeat(width - filled))
}

/// One phase row: `^(\d+(?:\.\d+)*)-?(.*)` split off the folder's name,
/// the name's hyphens as spaces.
fn number_and_name(dir: &str) -> (String, String) {
    let digits = |s: &str| s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let mut end = digits(dir);
    if end == 0 {
        return (dir.to_owned(), String::new());
    }
    while dir[end..].starts_with('.') && digits(&dir[end + 1..]) > 0 {
        end += 1 + digits(&dir[end + 1..]);
    }
    let rest = &dir[end..];
    let rest = rest.strip_prefix('-').unwrap_or(rest);
    (dir[..end].to_owned(), rest.replace('-', " "))
}

/// `progress [format]` (`cmdProgressRender`): the milestone's plans and
/// summaries, as JSON (the default and any unknown format), a 20-cell bar
/// or a markdown table. `format` is the command's second word
/// (`progress.bar`), else its first argument.
pub fn progress(call: &CoreCall, format: Option<&str>) -> Result<Out, Refusal> {
    let format = format
        .map(str::to_owned)
        .or_else(|| call.args.first().cloned())
        .unwrap_or_else(|| "json".into());
    let (dirs, scope) = milestone_dirs(call.project)?;
    let phases_dir = call.project.join(".planning/phases");
    let (mut plans_total, mut summaries_total) = (0, 0);
    let mut phases = Vec::new();
    for dir in &dirs {
        if dir.contains(['\n', '\r', '\u{2028}', '\u{2029}']) {
            return Err(hand_on(" for a phase folder whose name spans lines"));
        }
        let path = phases_dir.join(dir);
        let c = plan_scan::counts(&path).map_err(|u| hand_on(u.0))?;
        plans_total += c.plans;
        summaries_total += c.summaries;
        let (number, name) = number_and_name(dir);
        let status = phase_status(c.plans as u64, c.summaries as u64, &path)?;
        phases.push(json!({
            "number": number, "name": name, "plans": c.plans,
            "summaries": c.summaries, "status": status,
        }));
    }
    let percent =
        (scope == mw::Scope::Complete).then(|| clamp_percent(summaries_total, plans_total));
    let suffix = percent.map_or(String::new(), |p| format!(" ({p}%)"));
    match format.as_str() {
        "table" => {
            let milestone = mw::milestone_info(call.project);
            let (version, name) = milestone.map_or((String::new(), None), |(v, n)| (v, n));
            let mut out = format!("# {version} {}\n\n", name.unwrap_or_default());
            out += &format!(
                "**Progress:** [{}] {summaries_total}/{plans_total} plans{suffix}\n\n",
                bar(percent, 10)
            );
            out += "| Phase | Name | Plans | Status |\n|-------|------|-------|--------|\n";
            for p in &phases {
                out += &format!(
                    "| {} | {} | {}/{} | {} |\n",
                    p["number"].as_str().unwrap_or_default(),
                    p["name"].as_str().unwrap_or_default(),
                    p["summaries"],
                    p["plans"],
                    p["status"].as_str().unwrap_or_default()
                );
            }
            Ok(Out::with_raw(&json!({ "rendered": out }), out))
        }
        "bar" => {
            let text = format!(
                "[{}] {summaries_total}/{plans_total} plans{suffix}",
                bar(percent, 20)
            );
            let mut v = Map::new();
            v.insert("bar".into(), json!(text));
            v.insert("percent".into(), json!(percent));
            v.insert("completed".into(), json!(summaries_total));
            v.insert("total".into(), json!(plans_total));
            Ok(Out::with_raw(&Value::Object(v), text))
        }
        _ => {
            let milestone = mw::milestone_info(call.project);
            let mut v = Map::new();
            mw::insert_milestone(&mut v, &milestone);
            v.insert("phases".into(), Value::Array(phases));
            v.insert("total_plans".into(), json!(plans_total));
            v.insert("total_summaries".into(), json!(summaries_total));
            v.insert("percent".into(), json!(percent));
            v.insert("phase_scope".into(), json!(scope.as_str()));
            Ok(Out::json(&Value::Object(v)))
        }
    }
}

/// JavaScript's default sort: by UTF-16 code units.
fn js_sort(names: &mut [String]) {
    names.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
}

/// `phases list [--type summaries|…]` (`cmdPhasesList`'s enumeration):
/// the milestone's phase folders, or the files of a type in them.
pub fn phases_list(call: &CoreCall) -> Result<Out, Refusal> {
    let args = call.args;
    let value_after = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .filter(|v| !v.is_empty())
    };
    if value_after("--phase").is_some() {
        return Err(hand_on(" with `--phase`"));
    }
    if args.iter().any(|a| a == "--include-archived") {
        return Err(hand_on(" with `--include-archived`"));
    }
    let kind = value_after("--type").map(String::as_str);
    if kind == Some("plans") {
        return Err(hand_on(" with `--type plans`"));
    }
    let phases_dir = call.project.join(".planning/phases");
    if !phases_dir.exists() {
        let v = match kind {
            Some(_) => json!({"files": [], "count": 0}),
            None => json!({"directories": [], "count": 0}),
        };
        return Ok(Out::with_raw(&v, ""));
    }
    let (dirs, scope) = milestone_dirs(call.project)?;
    let Some(kind) = kind else {
        let mut v = Map::new();
        v.insert("directories".into(), json!(dirs));
        v.insert("count".into(), json!(dirs.len()));
        v.insert("phase_scope".into(), json!(scope.as_str()));
        return Ok(Out::with_raw(&Value::Object(v), dirs.join("\n")));
    };
    let mut files = Vec::new();
    for dir in &dirs {
        let path = phases_dir.join(dir);
        let mut found = if kind == "summaries" {
            plan_scan::scan(&path)
                .map_err(|u| hand_on(u.0))?
                .summary_files
        } else {
            plan_scan::list(&path)
                .map_err(|u| hand_on(u.0))?
                .ok_or_else(|| hand_on(" where a phase folder cannot be listed"))?
        };
        js_sort(&mut found);
        files.extend(found);
    }
    let mut v = Map::new();
    v.insert("files".into(), json!(files));
    v.insert("count".into(), json!(files.len()));
    v.insert("phase_dir".into(), Value::Null);
    v.insert("phase_scope".into(), json!(scope.as_str()));
    Ok(Out::with_raw(&Value::Object(v), files.join("\n")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_fill_by_width_and_only_full_at_a_hundred() {
        assert_eq!(
            bar(Some(83), 20),
            format!("{}{}", "█".repeat(17), "░".repeat(3))
        );
        assert_eq!(bar(Some(99), 10), format!("{}{}", "█".repeat(9), "░"));
        assert_eq!(bar(Some(100), 10), "█".repeat(10));
        assert_eq!(bar(Some(5), 10), format!("{}{}", "█", "░".repeat(9)));
        assert_eq!(bar(Some(4), 10), "░".repeat(10));
        assert_eq!(bar(None, 10), "░".repeat(10));
    }

    #[test]
    fn folder_names_split_into_number_and_words() {
        let s = |a: &str, b: &str| (a.to_owned(), b.to_owned());
        assert_eq!(
            number_and_name("01-setup-the-repo"),
            s("01", "setup the repo")
        );
        assert_eq!(number_and_name("2.1.3-hotfix"), s("2.1.3", "hotfix"));
        assert_eq!(number_and_name("7"), s("7", ""));
        assert_eq!(number_and_name("12A-letters"), s("12", "A letters"));
        assert_eq!(number_and_name("3.x-odd"), s("3", ".x odd"));
        assert_eq!(number_and_name("setup"), s("setup", ""));
    }
}
