//! `gsd state`: read STATE.md's fields; set, patch, advance, sync,
//! record a session, and edit its lists (use cases in `ops::state`).

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

use crate::edit;
use crate::model::Workspace;
use crate::model::reading::RoadmapReading;
use crate::model::state::field_key;
use crate::model::workspace::Scope;
use crate::ops;
use crate::ops::state::List;

use super::args::{ListCommand, StateCommand, WriteFlags};
use super::error::{CliError, did_you_mean};
use super::output::{Output, stored};

/// The state write commands.
pub fn write(cwd: &Path, cmd: StateCommand) -> Result<Output, CliError> {
    let run = |write: &WriteFlags, f: &dyn Fn(&Workspace) -> Result<ops::Change, ops::OpError>| {
        ops::run(cwd, write.options(), Scope::Index, f).map(|o| stored(o, write.json))
    };
    Ok(match cmd {
        StateCommand::Get { field, json } => return show(cwd, Some(field), json.json),
        StateCommand::Set {
            field,
            value,
            write,
        } => run(&write, &|ws| ops::state::set(ws, &field, &value, None))?,
        StateCommand::Patch { pairs, write } => run(&write, &|ws| ops::state::patch(ws, &pairs))?,
        StateCommand::Advance { write } => run(&write, &|ws| {
            ops::state::fields(ws, "advance", edit::state::advance)
        })?,
        StateCommand::RecordSession {
            stopped_at,
            resume_file,
            write,
        } => run(&write, &|ws| {
            ops::state::fields(ws, "record session", |ws, st| {
                edit::state::record_session(ws, st, stopped_at.as_deref(), resume_file.as_deref())
            })
        })?,
        StateCommand::Sync { write } => run(&write, &|ws| {
            ops::state::fields(ws, "sync", edit::state::sync)
        })?,
        StateCommand::Decision { command } => list(cwd, command, List::Decisions)?,
        StateCommand::Blocker { command } => list(cwd, command, List::Blockers)?,
    })
}

fn list(cwd: &Path, cmd: ListCommand, which: List) -> Result<Output, CliError> {
    let (write, o) = match cmd {
        ListCommand::Add { text, write } => {
            let o = ops::run(cwd, write.options(), Scope::Index, |ws| {
                ops::state::add_entry(ws, which, &text)
            });
            (write, o)
        }
        ListCommand::Resolve {
            which: entry,
            write,
        } => {
            let o = ops::run(cwd, write.options(), Scope::Index, |ws| {
                ops::state::resolve_entry(ws, which, &entry)
            });
            (write, o)
        }
    };
    Ok(stored(o?, write.json))
}

pub fn show(cwd: &Path, get: Option<String>, json_flag: bool) -> Result<Output, CliError> {
    // A field is STATE.md's alone; the whole state sits beside the roadmap's reading.
    let scope = if get.is_some() {
        Scope::State
    } else {
        Scope::Reading
    };
    let ws = Workspace::discover_with(cwd, scope)?;
    let Some(st) = &ws.state else {
        return Err(super::error::missing_core_file(&ws, "STATE.md"));
    };
    match get {
        None => {
            let reading = RoadmapReading::new(&ws);
            let v = crate::view::state::json(&ws, st, &reading);
            if json_flag {
                return Ok(Output::json(&v));
            }
            Ok(Output::ok(human_state(st, &reading)))
        }
        Some(field) => {
            let body: Vec<Value> = st
                .body_fields(&field)
                .map(|f| json!({"label": f.label, "value": f.value, "line": f.line}))
                .collect();
            let fm = st
                .fm_field(&field)
                .map(|(k, n)| json!({"key": k, "value": n.to_json()}));
            if body.is_empty() && fm.is_none() {
                let mut names: Vec<String> = st.fields.iter().map(|f| f.label.clone()).collect();
                if let Some(m) = st.doc.fm().and_then(|m| m.as_map()) {
                    names.extend(m.iter().filter_map(|(k, _)| k.as_str().map(str::to_owned)));
                }
                let hint = match did_you_mean(&field, names.iter().map(String::as_str)) {
                    Some(m) => format!("did you mean `{m}`?"),
                    None => format!("fields: {}", names.join(", ")),
                };
                let _ = field_key(&field);
                return Err(CliError::FieldNotFound {
                    what: "STATE.md".into(),
                    field,
                    hint,
                });
            }
            if json_flag {
                return Ok(Output::json(
                    &json!({ "field": field, "value": body.first().map(|b| b["value"].clone()).or_else(|| fm.as_ref().map(|f| f["value"].clone())), "body": body, "frontmatter": fm }),
                ));
            }
            // What `state set` compares with: setting it back is a no-op.
            let value = crate::edit::state::shown_value(st, &field)?;
            Ok(Output::ok(value + "\n"))
        }
    }
}

/// The human `gsd state`: where STATE.md says the work stands, beside the
/// roadmap's reading; then every field, the decisions and the blockers.
fn human_state(st: &crate::model::state::State, reading: &RoadmapReading) -> String {
    let mut s = String::new();
    let position = st.current_phase().map(|p| {
        let mut t = p.phase.unpadded();
        if let Some(of) = p.of {
            t.push_str(&format!(" of {of}"));
        }
        if let Some(n) = p.name {
            t.push_str(&format!(" ({n})"));
        }
        t
    });
    let _ = writeln!(
        s,
        "phase: {}    status: {}",
        position.as_deref().unwrap_or("-"),
        st.status().as_deref().unwrap_or("-")
    );
    let _ = writeln!(
        s,
        "roadmap: milestone {}, current phase {}, next phase {}",
        reading.current_milestone.as_deref().unwrap_or("none"),
        reading.current_phase.as_deref().unwrap_or("-"),
        reading.next_phase.as_deref().unwrap_or("-")
    );
    if !st.fields.is_empty() {
        s.push_str("\nfields:\n");
        for f in &st.fields {
            let _ = writeln!(s, "  {}: {}", f.label, f.value);
        }
    }
    for (title, list) in [("decisions", st.decisions()), ("blockers", st.blockers())] {
        let _ = writeln!(s, "\n{title} ({}):", list.len());
        for (_, d) in list {
            let _ = writeln!(s, "  - {d}");
        }
    }
    s
}
