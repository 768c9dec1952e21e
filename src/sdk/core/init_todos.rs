//! `init todos [AREA]` and `init map-codebase` as GSD Core 1.14.0 answers
//! them: the pending todos (each file's `created`, `title`, `area`,
//! `severity` lines and the first line of its `## Solution`) with the
//! markdown bullets STATE.md's "Pending Todos" section is spliced from, and
//! the codebase maps already written; both stamped with the day and the
//! instant (1.14.0's clock, which `GSD_TEST_MODE` with `GSD_NOW_MS` pins).

use std::path::Path;

use serde_json::{Map, Value, json};

use super::super::compat::roadmap_text::{group, re};
use super::init_envelope::{commit_docs, with_project_root};
use super::init_phase_op::{checked_config, path_text};
use super::markdown::tokenize_headings;
use super::native::{CoreCall, Refusal, hand_on};
use super::output::Out;

/// `init todos [AREA]`.
pub fn todos(call: &CoreCall) -> Result<Out, Refusal> {
    let area = match call.args {
        [] => None,
        [a] if !a.starts_with('-') => Some(a.as_str()).filter(|a| !a.is_empty()),
        _ => return Err(hand_on(" with arguments other than one area")),
    };
    let config = checked_config(call)?;
    let planning = call.project.join(".planning");
    let root = planning.join("todos");
    let pending = root.join("pending");
    let mut todos = Vec::new();
    let mut read_ok = true;
    match std::fs::read_dir(&pending) {
        Ok(entries) => {
            let mut files = Vec::new();
            for e in entries.flatten() {
                let name = e
                    .file_name()
                    .into_string()
                    .map_err(|_| hand_on(" for a todo named in bytes that are not UTF-8"))?;
                if name.ends_with(".md") {
                    files.push(name);
                }
            }
            files.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
            for file in files {
                let path = pending.join(&file);
                let Ok(bytes) = std::fs::read(&path) else {
                    if path.is_dir() {
                        return Err(hand_on(" for a folder named like a todo"));
                    }
                    continue;
                };
                let content = String::from_utf8_lossy(&bytes);
                let todo = read_todo(&content, &file, &path)?;
                if area.is_some_and(|a| todo["area"] != a) {
                    continue;
                }
                todos.push(todo);
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(_) => read_ok = false,
    }
    let (iso, day) = super::clock::stamps()?;
    let mut r = Map::new();
    r.insert("commit_docs".into(), commit_docs(call.project));
    r.insert("date".into(), json!(day));
    r.insert("timestamp".into(), json!(iso));
    r.insert("todo_count".into(), json!(todos.len()));
    r.insert("todos".into(), Value::Array(todos.clone()));
    r.insert("area_filter".into(), json!(area));
    r.insert("pending_dir".into(), json!(path_text(&pending)?));
    r.insert(
        "completed_dir".into(),
        json!(path_text(&root.join("completed"))?),
    );
    r.insert("planning_exists".into(), json!(planning.exists()));
    r.insert("todos_dir_exists".into(), json!(root.exists()));
    r.insert("pending_dir_exists".into(), json!(pending.exists()));
    r.insert("pending_read_ok".into(), json!(read_ok));
    if read_ok {
        r.insert(
            "pending_todos_markdown".into(),
            json!(pending_markdown(&todos, call.project)?),
        );
    }
    Ok(Out::json(&Value::Object(with_project_root(
        call,
        config.as_ref(),
        r,
    )?)))
}

/// One pending todo's entry.
fn read_todo(content: &str, file: &str, path: &Path) -> Result<Value, Refusal> {
    let line = |key: &str| {
        re(&format!(r"(?m)^{key}:\s*(.+)$"))
            .captures(content)
            .ok()
            .flatten()
            .map(|c| super::js::trim(group(&c, 1)).to_owned())
    };
    let needs = solution_first_line(content).filter(|l| l.to_uppercase() != "TBD");
    let mut t = Map::new();
    t.insert("file".into(), json!(file));
    t.insert(
        "created".into(),
        json!(line("created").unwrap_or_else(|| "unknown".into())),
    );
    t.insert(
        "title".into(),
        json!(line("title").unwrap_or_else(|| "Untitled".into())),
    );
    t.insert(
        "area".into(),
        json!(line("area").unwrap_or_else(|| "general".into())),
    );
    t.insert("path".into(), json!(path_text(path)?));
    if let Some(s) = line("severity") {
        t.insert("severity".into(), json!(s));
    }
    if let Some(n) = needs {
        t.insert("needs".into(), json!(n));
    }
    Ok(Value::Object(t))
}

/// `collectSection(content, h => h.level === 2 && h.text.trim() ===
/// 'Solution')`'s first non-empty trimmed body line.
fn solution_first_line(content: &str) -> Option<String> {
    let headings = tokenize_headings(content);
    let i = headings
        .iter()
        .position(|h| h.level == 2 && h.text == "Solution")?;
    let start_line = content[..headings[i].offset].matches('\n').count() + 1;
    let end_line = headings[i + 1..]
        .iter()
        .find(|n| n.level <= 2)
        .map(|n| content[..n.offset].matches('\n').count());
    let lines: Vec<&str> = content.split('\n').collect();
    let end = end_line.unwrap_or(lines.len()).min(lines.len());
    lines
        .get(start_line..end)
        .unwrap_or_default()
        .iter()
        .map(|l| super::js::trim(l))
        .find(|l| !l.is_empty())
        .map(str::to_owned)
}

/// `renderPendingTodosMarkdown`: one bullet per todo, each at most 240
/// UTF-16 units (the "Needs" clause dropped first, then the title and the
/// area shortened), or `None yet.`.
fn pending_markdown(todos: &[Value], project: &Path) -> Result<String, Refusal> {
    if todos.is_empty() {
        return Ok("None yet.".into());
    }
    let bullets: Result<Vec<String>, Refusal> =
        todos.iter().map(|t| pending_bullet(t, project)).collect();
    Ok(bullets?.join("\n"))
}

fn units(s: &str) -> usize {
    s.encode_utf16().count()
}

/// `sanitizePendingTodoInline`: line breaks as one space, trimmed.
fn inline(s: &str) -> String {
    let s = re(r"[\r\n]+").replace_all(s, " ");
    super::js::trim(&s).to_owned()
}

fn pending_bullet(todo: &Value, project: &Path) -> Result<String, Refusal> {
    const MAX: usize = 240;
    let field = |k: &str, fallback: &str| match todo.get(k) {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        _ => fallback.to_owned(),
    };
    let created = inline(&field("created", "unknown"));
    let date = re(r"^\d{4}-\d{2}-\d{2}")
        .find(&created)
        .ok()
        .flatten()
        .map_or(created.clone(), |m| m.as_str().to_owned());
    let mut area = inline(&field("area", "general"));
    let mut title = inline(&field("title", "Untitled"));
    let mut needs = match todo.get("needs") {
        Some(Value::String(n)) => re(r"\.+$").replace(&inline(n), "").into_owned(),
        _ => String::new(),
    };
    let raw_path = field("path", "");
    let link_target = Path::new(&raw_path)
        .strip_prefix(project)
        .ok()
        .and_then(|rel| rel.to_str())
        .filter(|rel| !rel.is_empty())
        .map_or(raw_path.clone(), str::to_owned);
    let link = format!("[todo file]({link_target})");
    let assemble = |area: &str, title: &str, needs: &str| {
        let clause = if needs.is_empty() {
            String::new()
        } else {
            format!(" — Needs {needs}.")
        };
        format!("- [{date}] [{area}] {title} — {link}{clause}")
    };
    let mut line = assemble(&area, &title, &needs);
    if units(&line) <= MAX {
        return Ok(line);
    }
    needs.clear();
    line = assemble(&area, &title, &needs);
    if units(&line) <= MAX {
        return Ok(line);
    }
    let astral = |s: &str| s.chars().any(|c| c.len_utf16() > 1);
    if astral(&title) || astral(&area) {
        return Err(hand_on(
            " for a long todo bullet outside the Basic Multilingual Plane",
        ));
    }
    let cut = |s: &str, max: usize| -> String {
        if units(s) <= max {
            return s.to_owned();
        }
        if max <= 1 {
            return s.chars().take(max).collect();
        }
        let head: String = s.chars().take(max - 1).collect();
        format!("{head}…")
    };
    let over = units(&line) - MAX;
    let target = units(&title).saturating_sub(over).max(15);
    if target < units(&title) {
        title = cut(&title, target);
        line = assemble(&area, &title, &needs);
    }
    if units(&line) <= MAX {
        return Ok(line);
    }
    let over = units(&line) - MAX;
    let target = units(&area).saturating_sub(over).max(3);
    if target < units(&area) {
        area = cut(&area, target);
        line = assemble(&area, &title, &needs);
    }
    Ok(line)
}

/// `init map-codebase`.
pub fn map_codebase(call: &CoreCall) -> Result<Out, Refusal> {
    if let Some(a) = call.args.first() {
        return Err(hand_on(format!(" with the argument `{a}`")));
    }
    let config = checked_config(call)?;
    let legacy = super::super::compat::config::legacy(call.project);
    let planning = call.project.join(".planning");
    let codebase = planning.join("codebase");
    let mut maps = Vec::new();
    if let Ok(entries) = std::fs::read_dir(&codebase) {
        for e in entries.flatten() {
            let name = e
                .file_name()
                .into_string()
                .map_err(|_| hand_on(" for a map named in bytes that are not UTF-8"))?;
            if name.ends_with(".md") {
                maps.push(name);
            }
        }
    }
    maps.sort_unstable();
    let (iso, day) = super::clock::stamps()?;
    let setting = |k: &str| legacy.get(k).cloned().unwrap_or(Value::Null);
    let mut r = Map::new();
    r.insert(
        "mapper_model".into(),
        super::init_plan_phase::model(call, "gsd-codebase-mapper")?,
    );
    for k in [
        "commit_docs",
        "search_gitignored",
        "parallelization",
        "subagent_timeout",
    ] {
        r.insert(k.into(), setting(k));
    }
    r.insert("date".into(), json!(day));
    r.insert("timestamp".into(), json!(iso));
    r.insert("codebase_dir".into(), json!(path_text(&codebase)?));
    let has_maps = !maps.is_empty();
    r.insert("existing_maps".into(), json!(maps));
    r.insert("has_maps".into(), json!(has_maps));
    r.insert("planning_exists".into(), json!(planning.exists()));
    r.insert("codebase_dir_exists".into(), json!(codebase.exists()));
    Ok(Out::json(&Value::Object(with_project_root(
        call,
        config.as_ref(),
        r,
    )?)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_solution_line_is_the_first_non_empty_one() {
        let todo =
            "---\ntitle: x\n---\n## Problem\np\n## Solution\n\n  Use a cache.  \nmore\n## Next\n";
        assert_eq!(solution_first_line(todo).as_deref(), Some("Use a cache."));
        assert_eq!(solution_first_line("## Solution\n\n"), None);
        assert_eq!(solution_first_line("### Solution\nx\n"), None);
    }

    #[test]
    fn long_bullets_drop_needs_then_shorten_the_title() {
        let project = Path::new("/p");
        let todo = json!({"created": "2026-01-02T03:04:05Z", "title": "t".repeat(300), "area": "api",
            "path": "/p/.planning/todos/pending/a.md", "needs": "a fix."});
        let line = pending_bullet(&todo, project).unwrap();
        assert_eq!(units(&line), 240);
        assert!(line.starts_with("- [2026-01-02] [api] ttt") && !line.contains("Needs"));
        assert!(line.contains("…") && line.ends_with("[todo file](.planning/todos/pending/a.md)"));
    }
}
