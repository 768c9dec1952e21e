//! `prior_verify_commands` of `init plan-phase` (GSD Core 1.14.0's
//! `harvestPriorVerifyCommands`): the `<automated>` verify commands of the
//! nearest earlier phases' plans, so a planner reuses commands that already
//! ran rather than inventing new ones.
//!
//! The nearest of the three phases before this one whose plans hold any
//! such command gives them all (first 20, each once per phase, with the
//! task it came from).

use std::path::Path;

use serde_json::{Value, json};

use super::super::compat::js::JS_WORD_BOUNDARY;
use super::super::compat::roadmap_text::{group, re};
use super::native::{Refusal, hand_on};
use super::phase_id::{extract_phase_token, strip_project_code};
use super::roadmap_analyze::compare_phase_num;

const LIMIT: usize = 20;
const LOOKBACK: usize = 3;

/// The commands for the phases before `before`, under `phases_dir`.
pub fn harvest(phases_dir: &Path, before: &str) -> Result<Vec<Value>, Refusal> {
    let Ok(entries) = std::fs::read_dir(phases_dir) else {
        return Ok(Vec::new());
    };
    let mut candidates = Vec::new();
    for e in entries.flatten() {
        if !e.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let name = e
            .file_name()
            .into_string()
            .map_err(|_| hand_on(" for a phase folder named in bytes that are not UTF-8"))?;
        if !strip_project_code(&name, true).starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let token = extract_phase_token(&name);
        if compare_phase_num(&token, before).is_lt() {
            candidates.push((token, name));
        }
    }
    // readdir's byte order, then the stable sort, newest phase first.
    candidates.sort_unstable_by(|a, b| a.1.cmp(&b.1));
    super::super::compat::js::sort_by(&mut candidates, |a, b| compare_phase_num(&b.0, &a.0));
    for (token, dir) in candidates.iter().take(LOOKBACK) {
        let path = phases_dir.join(dir);
        let Ok(listing) = std::fs::read_dir(&path) else {
            continue;
        };
        let mut plans: Vec<String> = Vec::new();
        for f in listing.flatten() {
            let f = f
                .file_name()
                .into_string()
                .map_err(|_| hand_on(" for a file named in bytes that are not UTF-8"))?;
            if f.to_ascii_uppercase().ends_with("-PLAN.MD") {
                plans.push(f);
            }
        }
        plans.sort_unstable_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
        let mut seen = std::collections::HashSet::new();
        let mut found = Vec::new();
        for file in &plans {
            let full = path.join(file);
            let Ok(bytes) = std::fs::read(&full) else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes);
            for (task, command) in automated_commands(&text) {
                if seen.insert(command.clone()) {
                    let plan = full
                        .to_str()
                        .ok_or_else(|| hand_on(" for a path that is not UTF-8"))?;
                    found.push(
                        json!({"phase": token, "plan": plan, "task": task, "command": command}),
                    );
                }
            }
        }
        if !found.is_empty() {
            found.truncate(LIMIT);
            return Ok(found);
        }
    }
    Ok(Vec::new())
}

/// `extractAutomatedCommands`: `(task name, command)` for every non-empty
/// `<automated>` block, those inside `<task>` blocks first (with the task's
/// `<name>`), then those outside any task.
fn automated_commands(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let task = re(r"<task(?:\s[^>]{0,1000})?>((?:(?!<task[\s>])[\s\S])*?)</task>");
    let name = re(r"<name>([\s\S]*?)</name>");
    for c in task.captures_iter(text).flatten() {
        let body = group(&c, 1);
        let task_name = name
            .captures(body)
            .ok()
            .flatten()
            .map(|n| super::js::trim(group(&n, 1)).to_owned())
            .unwrap_or_default();
        automated_in(body, &task_name, &mut out);
    }
    let rest = re(r"(?i)<task(?:\s[^>]{0,1000})?>((?:(?!<task[\s>])[\s\S])*?)</task>")
        .replace_all(text, "");
    automated_in(&rest, "", &mut out);
    out
}

fn automated_in(text: &str, task: &str, out: &mut Vec<(String, String)>) {
    let block = re(&format!(
        r"<automated[^>]{{0,200}}>((?:(?!<automated{JS_WORD_BOUNDARY})[\s\S])*?)</automated>"
    ));
    for c in block.captures_iter(text).flatten() {
        let command = super::js::trim(group(&c, 1));
        if !command.is_empty() {
            out.push((task.to_owned(), command.to_owned()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_come_with_their_task_then_the_loose_ones() {
        let plan = "<task type=\"auto\">\n<name> Build </name>\n<verify><automated>cargo test</automated></verify>\n</task>\n<TASK>\n<automated>hidden</automated>\n</TASK>\n<automated> make lint </automated>\n<automated>  </automated>";
        assert_eq!(
            automated_commands(plan),
            vec![
                ("Build".to_owned(), "cargo test".to_owned()),
                (String::new(), "make lint".to_owned())
            ]
        );
    }

    #[test]
    fn the_nearest_earlier_phase_with_commands_gives_them() {
        let t = tempfile::tempdir().unwrap();
        let w = |rel: &str, body: &str| {
            let p = t.path().join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, body).unwrap();
        };
        w("01-a/01-01-PLAN.md", "<automated>one</automated>");
        w(
            "02-b/02-01-PLAN.md",
            "<automated>two</automated><automated>two</automated>",
        );
        w("03-c/03-01-PLAN.md", "no commands");
        w("04-d/04-01-PLAN.md", "<automated>four</automated>");
        let got = harvest(t.path(), "04").unwrap();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0]["command"], "two");
        assert_eq!(got[0]["phase"], "02");
        assert!(harvest(t.path(), "01").unwrap().is_empty());
    }
}
