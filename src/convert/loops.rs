//! The loop formats of the seeds, through the same task model:
//! feature_list.json, tasks.md (`[P]`/`[VERIFY]`), prd.json and SPEC.md
//! checkboxes. Fields a format has no place for are reported by `dropped`.

use serde_json::{Value, json};

use crate::doc::Span;
use crate::doc::markdown::Markdown;

use super::{ConvTask, ConvertError};

fn attr<'a>(t: &'a ConvTask, k: &str) -> Option<&'a str> {
    t.attributes
        .iter()
        .find(|(a, _)| a == k)
        .map(|(_, v)| v.as_str())
}

fn extras<'a>(t: &'a ConvTask, k: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    t.extra
        .iter()
        .filter(move |(n, _)| n == k)
        .map(|(_, v)| v.as_str())
}

fn json_value(text: &str) -> Result<Value, ConvertError> {
    let t = text.trim_start_matches('\u{feff}');
    if t.trim().is_empty() {
        return Err(ConvertError::Empty);
    }
    serde_json::from_str(t).map_err(|e| ConvertError::Json {
        message: e.to_string(),
        line: e.line(),
        column: e.column(),
    })
}

fn s(v: &Value, k: &str) -> Option<String> {
    match v.get(k)? {
        Value::String(s) => Some(s.clone()),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}

// ---------- feature_list.json ----------

/// Step prefixes that carry a GSD task's fields through a feature list's
/// `steps` (and back).
const FILES_STEP: &str = "Files: ";
const VERIFY_STEP: &str = "Verify: ";
const DONE_STEP: &str = "Done when: ";

/// A feature's steps: its own when it came from a feature list, else the
/// task's files, action (one step per list item), checks and done.
fn feature_steps(t: &ConvTask) -> Vec<String> {
    let own: Vec<String> = extras(t, "step").map(str::to_owned).collect();
    if !own.is_empty() {
        return own;
    }
    let mut steps = Vec::new();
    if !t.files.is_empty() {
        steps.push(format!("{FILES_STEP}{}", t.files.join(", ")));
    }
    steps.extend(action_items(&t.action));
    let checks = crate::model::task::verify_commands(&t.verify);
    if checks.is_empty() && !t.verify.trim().is_empty() {
        steps.push(format!("{VERIFY_STEP}{}", t.verify.trim()));
    }
    for c in checks {
        steps.push(format!("{VERIFY_STEP}`{c}`"));
    }
    if !t.done.trim().is_empty() {
        steps.push(format!("{DONE_STEP}{}", t.done.trim()));
    }
    steps
}

/// An action's list items (`- x`, `* x`, `1. x`) as separate steps, or the
/// whole action as one step when it is prose.
fn action_items(action: &str) -> Vec<String> {
    let action = action.trim();
    if action.is_empty() {
        return Vec::new();
    }
    let item = |l: &str| -> Option<String> {
        let l = l.trim_start();
        if let Some(r) = l.strip_prefix("- ").or_else(|| l.strip_prefix("* ")) {
            return Some(r.trim().to_owned());
        }
        let n = l.bytes().take_while(u8::is_ascii_digit).count();
        (n > 0 && l[n..].starts_with(". ")).then(|| l[n + 2..].trim().to_owned())
    };
    let lines: Vec<&str> = action.lines().filter(|l| !l.trim().is_empty()).collect();
    let items: Vec<String> = lines.iter().filter_map(|l| item(l)).collect();
    // Only a pure list splits; prose with a list inside stays one step.
    if !items.is_empty() && items.len() == lines.len() {
        items
    } else {
        vec![action.to_owned()]
    }
}

pub fn read_feature_list(text: &str) -> Result<Vec<ConvTask>, ConvertError> {
    let v = json_value(text)?;
    let features = v.get("features").and_then(Value::as_array).ok_or_else(|| {
        ConvertError::Other("feature_list.json needs a \"features\" array".into())
    })?;
    let mut out = Vec::new();
    for (i, f) in features.iter().enumerate() {
        let description = s(f, "description")
            .filter(|d| !d.trim().is_empty())
            .ok_or(ConvertError::NoName { index: i + 1 })?;
        let mut t = ConvTask {
            id: s(f, "id").unwrap_or_else(|| (i + 1).to_string()),
            name: description,
            ..Default::default()
        };
        for k in ["category", "priority", "model", "completed_iteration"] {
            if let Some(v) = s(f, k) {
                t.attributes.push((k.into(), v));
            }
        }
        read_tail(&mut t, f, "steps", "step");
        fields_from_steps(&mut t);
        out.push(t);
    }
    Ok(out)
}

/// Steps gsd wrote from a task's fields go back into those fields; when
/// any did, the other steps are the action.
fn fields_from_steps(t: &mut ConvTask) {
    let steps: Vec<String> = extras(t, "step").map(str::to_owned).collect();
    if !steps.iter().any(|s| {
        s.starts_with(FILES_STEP) || s.starts_with(VERIFY_STEP) || s.starts_with(DONE_STEP)
    }) {
        return;
    }
    t.extra.retain(|(n, _)| n != "step");
    let mut action = Vec::new();
    let mut checks = Vec::new();
    for s in steps {
        if let Some(f) = s.strip_prefix(FILES_STEP) {
            t.files = f.split(", ").map(str::to_owned).collect();
        } else if let Some(v) = s.strip_prefix(VERIFY_STEP) {
            checks.push(v.to_owned());
        } else if let Some(d) = s.strip_prefix(DONE_STEP) {
            t.done = d.to_owned();
        } else {
            action.push(s);
        }
    }
    t.action = match action.as_slice() {
        [one] => one.clone(),
        many => many
            .iter()
            .map(|a| format!("- {a}"))
            .collect::<Vec<_>>()
            .join("\n"),
    };
    t.verify = checks.join("\n");
}

/// What feature lists and prd.json end an item with: `passes`, a list kept
/// as repeated `child` elements, and `notes`.
fn read_tail(t: &mut ConvTask, item: &Value, list: &str, child: &str) {
    if let Some(p) = item.get("passes").and_then(Value::as_bool) {
        t.attributes.push(("passes".into(), p.to_string()));
    }
    for v in item
        .get(list)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let text = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
        t.extra.push((child.into(), text));
    }
    if let Some(n) = s(item, "notes").filter(|n| !n.is_empty()) {
        t.extra.push(("notes".into(), n));
    }
}

/// One feature of a feature list.
pub fn feature_value(t: &ConvTask) -> Value {
    let id: Value =
        t.id.parse::<u64>()
            .map_or_else(|_| json!(t.id), |n| json!(n));
    let mut f = serde_json::Map::new();
    f.insert("id".into(), id);
    for k in ["category", "priority", "model"] {
        if let Some(v) = attr(t, k) {
            f.insert(k.into(), json!(v));
        }
    }
    f.insert("description".into(), json!(t.name));
    f.insert("steps".into(), json!(feature_steps(t)));
    f.insert("passes".into(), json!(attr(t, "passes") == Some("true")));
    let ci: Value = attr(t, "completed_iteration").map_or(Value::Null, |v| {
        v.parse::<u64>().map_or_else(|_| json!(v), |n| json!(n))
    });
    f.insert("completed_iteration".into(), ci);
    f.insert(
        "notes".into(),
        json!(extras(t, "notes").collect::<Vec<_>>().join("\n")),
    );
    Value::Object(f)
}

// ---------- prd.json ----------

pub fn read_prd_json(text: &str) -> Result<Vec<ConvTask>, ConvertError> {
    let v = json_value(text)?;
    let stories = v
        .get("userStories")
        .and_then(Value::as_array)
        .ok_or_else(|| ConvertError::Other("prd.json needs a \"userStories\" array".into()))?;
    let mut out = Vec::new();
    for (i, st) in stories.iter().enumerate() {
        let title = s(st, "title")
            .filter(|t| !t.trim().is_empty())
            .ok_or(ConvertError::NoName { index: i + 1 })?;
        let mut t = ConvTask {
            id: s(st, "id").unwrap_or_else(|| format!("US-{:03}", i + 1)),
            name: title,
            action: s(st, "description").unwrap_or_default(),
            ..Default::default()
        };
        if let Some(p) = s(st, "priority") {
            t.attributes.push(("priority".into(), p));
        }
        read_tail(&mut t, st, "acceptanceCriteria", "criterion");
        out.push(t);
    }
    Ok(out)
}

/// One user story of a prd.json.
pub fn story_value(t: &ConvTask) -> Value {
    let priority: Value = attr(t, "priority").map_or(Value::Null, |p| {
        p.parse::<i64>().map_or_else(|_| json!(p), |n| json!(n))
    });
    json!({
        "id": t.id, "title": t.name, "description": t.action,
        "acceptanceCriteria": extras(t, "criterion").collect::<Vec<_>>(),
        "priority": priority, "passes": attr(t, "passes") == Some("true"),
        "notes": extras(t, "notes").collect::<Vec<_>>().join("\n"),
    })
}

// ---------- tasks.md ----------

/// A tasks.md task number: digits and dots (`3`, `1.2`).
pub fn tasks_md_id(id: &str) -> bool {
    id.chars().next().is_some_and(|c| c.is_ascii_digit())
        && id.chars().all(|c| c.is_ascii_digit() || c == '.')
}

const LABELS: &[&str] = &["Do", "Files", "Done when", "Verify", "Commit"];

pub fn read_tasks_md(text: &str) -> Result<Vec<ConvTask>, ConvertError> {
    if text.trim().is_empty() {
        return Err(ConvertError::Empty);
    }
    let md = Markdown::scan(text, Span::new(0, text.len()), 1);
    let mut out: Vec<ConvTask> = Vec::new();
    let mut current_label: Option<String> = None;
    for line in &md.lines {
        let raw = line.span.slice(text);
        let trimmed = raw.trim_start();
        let indent = raw.len() - trimmed.len();
        if indent == 0
            && (trimmed.starts_with("- [ ] ")
                || trimmed.starts_with("- [x] ")
                || trimmed.starts_with("- [X] "))
        {
            let checked = !trimmed.starts_with("- [ ]");
            let mut title = trimmed[6..].trim().to_owned();
            let mut t = ConvTask::default();
            // `1.2 Title` → id 1.2
            if let Some((id, rest)) = title.split_once(' ')
                && id.chars().next().is_some_and(|c| c.is_ascii_digit())
                && id.chars().all(|c| c.is_ascii_digit() || c == '.')
            {
                t.id = id.to_owned();
                title = rest.trim().to_owned();
            }
            if checked {
                t.attributes.push(("checked".into(), "true".into()));
            }
            // The markers are written last, `[P]` before `[VERIFY]`.
            for (marker, key) in [("[P]", "parallel"), ("[VERIFY]", "verify_task")] {
                if let Some(pos) = title.rfind(marker) {
                    title = format!("{}{}", &title[..pos], &title[pos + marker.len()..])
                        .trim_end()
                        .to_owned();
                    t.attributes.push((key.into(), "true".into()));
                }
            }
            if t.id.is_empty() {
                t.id = (out.len() + 1).to_string();
            }
            t.name = title;
            out.push(t);
            current_label = None;
            continue;
        }
        let Some(t) = out.last_mut() else { continue };
        let item = trimmed.strip_prefix("- ").unwrap_or(trimmed);
        if let Some(rest) = item.strip_prefix("**")
            && let Some(end) = rest.find("**")
        {
            let label = rest[..end].trim_end_matches(':').to_owned();
            if LABELS.contains(&label.as_str()) {
                let value = rest[end + 2..].trim_start_matches(':').trim().to_owned();
                // `cmd` → cmd (one pair of backticks, as the writer adds them).
                let value = match value.strip_prefix('`').and_then(|v| v.strip_suffix('`')) {
                    Some(inner) if !inner.contains('`') => inner.to_owned(),
                    _ => value,
                };
                match label.as_str() {
                    "Do" => t.action = value,
                    "Files" => {
                        t.files = value
                            .split(',')
                            .map(|f| f.trim().trim_matches('`').to_owned())
                            .filter(|f| !f.is_empty())
                            .collect()
                    }
                    "Done when" => t.done = value,
                    "Verify" => t.verify = value,
                    "Commit" => t.extra.push(("commit".into(), value)),
                    _ => {}
                }
                current_label = Some(label);
                continue;
            }
        }
        // Continuation lines of **Do** (numbered steps).
        if current_label.as_deref() == Some("Do") && !trimmed.is_empty() {
            if !t.action.is_empty() {
                t.action.push('\n');
            }
            t.action.push_str(trimmed);
        }
    }
    if out.is_empty() {
        return Err(ConvertError::Other("no `- [ ]` tasks in the input".into()));
    }
    Ok(out)
}

/// One task of a tasks.md, with the blank line after it.
pub fn tasks_md_task(t: &ConvTask, out: &mut String) {
    let check = if attr(t, "checked") == Some("true") {
        "x"
    } else {
        " "
    };
    let mut title = t.name.clone();
    if attr(t, "parallel") == Some("true") {
        title.push_str(" [P]");
    }
    if attr(t, "verify_task") == Some("true") {
        title.push_str(" [VERIFY]");
    }
    // tasks.md numbers tasks (`1.2`); other IDs have no place there.
    if tasks_md_id(&t.id) {
        out.push_str(&format!("- [{check}] {} {title}\n", t.id));
    } else {
        out.push_str(&format!("- [{check}] {title}\n"));
    }
    if !t.action.is_empty() {
        let mut lines = t.action.lines();
        out.push_str(&format!("  - **Do**: {}\n", lines.next().unwrap_or("")));
        for l in lines {
            out.push_str(&format!("    {l}\n"));
        }
    }
    if !t.files.is_empty() {
        out.push_str(&format!("  - **Files**: {}\n", t.files.join(", ")));
    }
    if !t.done.is_empty() {
        out.push_str(&format!("  - **Done when**: {}\n", t.done));
    }
    let code = |v: &str| {
        if v.contains('`') {
            v.to_owned()
        } else {
            format!("`{v}`")
        }
    };
    // Checks as the commands they run, not as `<automated>` markup.
    let checks = crate::model::task::verify_commands(&t.verify);
    if !checks.is_empty() {
        let cmds: Vec<String> = checks.iter().map(|c| code(c)).collect();
        out.push_str(&format!("  - **Verify**: {}\n", cmds.join(" and ")));
    } else if !t.verify.is_empty() {
        out.push_str(&format!("  - **Verify**: {}\n", code(t.verify.trim())));
    }
    for c in extras(t, "commit") {
        out.push_str(&format!("  - **Commit**: {}\n", code(c)));
    }
    out.push('\n');
}

// ---------- SPEC.md ----------

pub fn read_spec_md(text: &str) -> Result<Vec<ConvTask>, ConvertError> {
    if text.trim().is_empty() {
        return Err(ConvertError::Empty);
    }
    let md = Markdown::scan(text, Span::new(0, text.len()), 1);
    let tasks: Vec<ConvTask> = md
        .list_items
        .iter()
        .filter_map(|i| i.checkbox.map(|c| (i, c)))
        .enumerate()
        .map(|(n, (i, c))| {
            let mut t = ConvTask {
                id: (n + 1).to_string(),
                name: i.content.slice(text).to_owned(),
                ..Default::default()
            };
            if c.checked {
                t.attributes.push(("checked".into(), "true".into()));
            }
            t
        })
        .collect();
    if tasks.is_empty() {
        return Err(ConvertError::Other(
            "no `- [ ]` checkboxes in the input".into(),
        ));
    }
    Ok(tasks)
}

/// One checkbox line of a SPEC.md.
pub fn spec_md_task(t: &ConvTask, out: &mut String) {
    out.push_str(&format!(
        "- [{}] {}\n",
        if attr(t, "checked") == Some("true") {
            "x"
        } else {
            " "
        },
        t.name
    ));
}
