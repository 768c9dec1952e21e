//! Write commands: lock, load, compute edits, then show a diff (`--dry-run`)
//! or write atomically and commit once.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::json;

use crate::edit::{self, EditError};
use crate::model::Workspace;
use crate::model::state::State;
use crate::model::workspace::{Scope, find_root};
use crate::store::{self, CommitPolicy, FileChange, PlanningLock};

use super::Output;
use super::args::{FmCommand, ListCommand, PhaseCommand, StateCommand, WriteFlags};
use super::error::CliError;

impl From<EditError> for CliError {
    fn from(e: EditError) -> Self {
        let help = match &e {
            EditError::UnknownField {
                suggestion: Some(s),
                ..
            } => Some(format!("did you mean `{s}`?")),
            EditError::UnknownField { known, .. } => Some(format!("fields: {}", known.join(", "))),
            EditError::UnknownPhase { phases, .. } => Some(format!(
                "phases: {}",
                if phases.is_empty() {
                    "none".into()
                } else {
                    phases.join(", ")
                }
            )),
            EditError::ConflictMarkers { .. } => {
                Some("resolve the conflict first; gsd will not guess which side is right".into())
            }
            EditError::WrongType { .. } => {
                Some("give a value of the same kind as the current one".into())
            }
            EditError::AmbiguousField { candidates, .. } => Some(format!(
                "edit the line you mean by hand; the lines are: {}",
                candidates
                    .iter()
                    .map(|(l, v)| format!("line {l}: `{v}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            _ => None,
        };
        CliError::input(e.to_string(), help)
    }
}

impl From<store::StoreError> for CliError {
    fn from(e: store::StoreError) -> Self {
        let help = match &e {
            store::StoreError::Lock(store::LockError::Timeout { .. }) => Some(
                "wait for the other gsd command to finish, or raise GSD_LOCK_TIMEOUT_MS".into(),
            ),
            store::StoreError::Refused(r) => Some(r.hint().to_owned()),
            _ => None,
        };
        CliError::input(e.to_string(), help)
    }
}

/// A computed change: the files' new bytes and the commit message.
pub struct Planned {
    pub changes: Vec<FileChange>,
    pub message: String,
    /// One line per change for humans.
    pub summary: Vec<String>,
    /// Files moved (absolute old, new) and deleted, before `changes` are written.
    pub moves: Vec<(PathBuf, PathBuf)>,
    pub deletes: Vec<PathBuf>,
}

fn unified_diff(root: &Path, c: &FileChange) -> String {
    let before = String::from_utf8_lossy(c.before.as_deref().unwrap_or_default()).into_owned();
    let after = String::from_utf8_lossy(&c.after).into_owned();
    let rel = c
        .path
        .strip_prefix(root)
        .unwrap_or(&c.path)
        .display()
        .to_string();
    similar::TextDiff::from_lines(&before, &after)
        .unified_diff()
        .context_radius(2)
        .header(&format!("a/{rel}"), &format!("b/{rel}"))
        .to_string()
}

/// Run one write: everything from reading to committing happens under the lock.
pub fn transact(
    cwd: &Path,
    flags: &WriteFlags,
    plan: impl FnOnce(&Workspace) -> Result<Planned, CliError>,
) -> Result<Output, CliError> {
    transact_in(cwd, flags, Scope::Index, plan)
}

/// `transact`, reading the tree as deep as `scope` says.
pub fn transact_in(
    cwd: &Path,
    flags: &WriteFlags,
    scope: Scope,
    plan: impl FnOnce(&Workspace) -> Result<Planned, CliError>,
) -> Result<Output, CliError> {
    let root = find_root(cwd)?;
    let _lock = PlanningLock::acquire(&root, store::lock::default_timeout())
        .map_err(store::StoreError::from)?;
    let ws = Workspace::load_with(&root, scope)?;
    let planned = plan(&ws)?;
    let changed: Vec<&FileChange> = planned.changes.iter().filter(|c| c.changed()).collect();
    let relp = |p: &Path| p.strip_prefix(&root).unwrap_or(p).display().to_string();
    if flags.dry_run {
        let mut diff = String::new();
        for d in &planned.deletes {
            diff.push_str(&format!("delete {}\n", relp(d)));
        }
        for (from, to) in &planned.moves {
            diff.push_str(&format!("rename {} → {}\n", relp(from), relp(to)));
        }
        diff.extend(changed.iter().map(|c| unified_diff(&root, c)));
        if flags.json {
            let files: Vec<String> = changed
                .iter()
                .map(|c| {
                    c.path
                        .strip_prefix(&root)
                        .unwrap_or(&c.path)
                        .display()
                        .to_string()
                })
                .collect();
            return Ok(Output::json(
                &json!({ "dry_run": true, "changed": files, "diff": diff, "message": planned.message }),
            ));
        }
        return Ok(Output::ok(diff));
    }
    let policy = if flags.no_commit {
        CommitPolicy::Skip
    } else if !ws.config().commit_docs() {
        CommitPolicy::DocsNotCommitted
    } else {
        CommitPolicy::Commit
    };
    let outcome = if planned.moves.is_empty() && planned.deletes.is_empty() {
        store::write_and_commit(&root, &planned.changes, &planned.message, policy)?
    } else {
        store::restructure_and_commit(
            &root,
            &planned.moves,
            &planned.deletes,
            &planned.changes,
            &planned.message,
            policy,
        )?
    };
    if flags.json {
        return Ok(Output::json(&json!({
            "changed": outcome.changed,
            "commit": outcome.commit,
            "commit_id": outcome.commit.id(),
            "message": planned.message,
        })));
    }
    let mut s = String::new();
    for line in &planned.summary {
        let _ = writeln!(s, "{line}");
    }
    let _ = writeln!(s, "{}", outcome.commit.describe());
    Ok(Output::ok(s))
}

pub(super) fn state_of(ws: &Workspace) -> Result<&State, CliError> {
    ws.state.as_ref().ok_or_else(|| CliError::FileNotFound {
        file: ".planning/STATE.md".into(),
        hint: "create it with `gsd init`".into(),
    })
}

fn change_for(state: &State, new_text: String) -> FileChange {
    FileChange {
        path: state.doc.path().to_path_buf(),
        before: Some(state.doc.source.bytes().to_vec()),
        after: new_text.into_bytes(),
    }
}

/// A STATE.md-only change: the edits, one summary line, the commit message.
pub(super) fn state_planned(
    ws: &Workspace,
    st: &State,
    edits: &[crate::doc::Edit],
    summary: &str,
    message: String,
) -> Result<Planned, CliError> {
    let new = edit::apply(st.doc.text(), edits)?;
    Ok(Planned {
        moves: Vec::new(),
        deletes: Vec::new(),
        summary: vec![format!("{}: {summary}", rel(ws, st.doc.path()).display())],
        message,
        changes: vec![change_for(st, new)],
    })
}

fn rel(ws: &Workspace, p: &Path) -> PathBuf {
    ws.rel(p).to_path_buf()
}

pub fn state(cwd: &Path, cmd: StateCommand) -> Result<Output, CliError> {
    match cmd {
        StateCommand::Get { field, json } => super::read::state(cwd, Some(field), json.json),
        StateCommand::Set {
            field,
            value,
            write,
        } => transact(cwd, &write, |ws| {
            let st = state_of(ws)?;
            let ch = edit::state::set_field(ws, st, &field, &value)?;
            let what = format!("{} {} → {}", ch.label, ch.before, ch.after);
            state_planned(ws, st, &ch.edits, &what, format!("docs(state): {what}"))
        }),
        StateCommand::Patch { pairs, write } => transact(cwd, &write, |ws| {
            let st = state_of(ws)?;
            let mut edits = Vec::new();
            let mut parts = Vec::new();
            for pair in &pairs {
                let Some((k, v)) = pair.split_once('=') else {
                    return Err(CliError::input(
                        format!("`{pair}` is not FIELD=VALUE"),
                        Some("write pairs like status=Executing".into()),
                    ));
                };
                let ch = edit::state::set_field(ws, st, k.trim(), v)?;
                parts.push(format!("{} {} → {}", ch.label, ch.before, ch.after));
                edits.extend(ch.edits);
            }
            let new = edit::apply(st.doc.text(), &edits)?;
            Ok(Planned {
                moves: Vec::new(),
                deletes: Vec::new(),
                summary: parts
                    .iter()
                    .map(|p| format!("{}: {p}", rel(ws, st.doc.path()).display()))
                    .collect(),
                message: format!("docs(state): {}", parts.join(", ")),
                changes: vec![change_for(st, new)],
            })
        }),
        StateCommand::Advance { write } => fields(cwd, &write, "advance", edit::state::advance),
        StateCommand::RecordSession {
            stopped_at,
            resume_file,
            write,
        } => fields(cwd, &write, "record session", |ws, st| {
            edit::state::record_session(ws, st, stopped_at.as_deref(), resume_file.as_deref())
        }),
        StateCommand::Sync { write } => fields(cwd, &write, "sync", edit::state::sync),
        StateCommand::Decision { command } => list(cwd, command, "decisions", "Decisions", |t| {
            t.contains("decisions")
        }),
        StateCommand::Blocker { command } => {
            list(cwd, command, "blockers", "Blockers/Concerns", |t| {
                t.contains("blockers") || t == "concerns"
            })
        }
    }
}

/// A state command made of several field changes, written and committed once.
fn fields(
    cwd: &Path,
    write: &WriteFlags,
    what: &str,
    compute: impl FnOnce(&Workspace, &State) -> Result<Vec<edit::state::FieldChange>, EditError>,
) -> Result<Output, CliError> {
    transact(cwd, write, |ws| {
        let st = state_of(ws)?;
        let changes = compute(ws, st)?;
        let edits: Vec<_> = changes
            .iter()
            .flat_map(|c| c.edits.iter().cloned())
            .collect();
        let new = edit::apply(st.doc.text(), &edits)?;
        let parts: Vec<String> = changes
            .iter()
            .map(|c| format!("{} {} → {}", c.label, c.before, c.after))
            .collect();
        let summary = if parts.is_empty() {
            vec![format!(
                "{}: {what}: nothing to change",
                rel(ws, st.doc.path()).display()
            )]
        } else {
            parts
                .iter()
                .map(|p| format!("{}: {p}", rel(ws, st.doc.path()).display()))
                .collect()
        };
        Ok(Planned {
            moves: Vec::new(),
            deletes: Vec::new(),
            summary,
            message: format!("docs(state): {what}: {}", parts.join(", ")),
            changes: vec![change_for(st, new)],
        })
    })
}

fn list(
    cwd: &Path,
    cmd: ListCommand,
    what: &'static str,
    title: &'static str,
    section: fn(&str) -> bool,
) -> Result<Output, CliError> {
    let singular = what.trim_end_matches('s');
    match cmd {
        ListCommand::Add { text, write } => transact(cwd, &write, |ws| {
            let st = state_of(ws)?;
            // GSD writes decisions as `[Phase N]: text`.
            let entry = match (what, st.current_phase()) {
                ("decisions", Some(p)) if !text.trim_start().starts_with('[') => {
                    format!("[Phase {}]: {}", p.phase.unpadded(), text.trim())
                }
                _ => text.trim().to_owned(),
            };
            let edits = edit::state::add_list_entry(st, section, title, &entry)?;
            state_planned(
                ws,
                st,
                &edits,
                &format!("{singular} added: {entry}"),
                format!("docs(state): add {singular}: {entry}"),
            )
        }),
        ListCommand::Resolve { which, write } => transact(cwd, &write, |ws| {
            let st = state_of(ws)?;
            let (removed, edits) = edit::state::remove_list_entry(st, section, &which)?;
            state_planned(
                ws,
                st,
                &edits,
                &format!("{singular} resolved: {removed}"),
                format!("docs(state): resolve {singular}: {removed}"),
            )
        }),
    }
}

/// `gsd fm set` and `gsd fm merge`.
pub fn fm(cwd: &Path, cmd: FmCommand) -> Result<Output, CliError> {
    let (file, write) = match &cmd {
        FmCommand::Set { file, write, .. } | FmCommand::Merge { file, write, .. } => {
            (file.clone(), write.clone())
        }
        FmCommand::Get { .. } | FmCommand::Validate { .. } => return super::read::fm(cwd, cmd),
    };
    let path = if file.is_absolute() {
        file.clone()
    } else {
        cwd.join(&file)
    };
    transact(cwd, &write, move |ws| {
        let source = crate::doc::Source::read(&path).map_err(|e| CliError::FileNotFound {
            file: file.display().to_string(),
            hint: e.to_string(),
        })?;
        let rel_path = ws
            .rel(&std::path::absolute(&path).unwrap_or(path.clone()))
            .to_path_buf();
        let doc = crate::model::Document::parse(source, rel_path.clone());
        let (edits, what) = match &cmd {
            FmCommand::Set { key, value, .. } => {
                let edits = edit::frontmatter::set(&doc, key, &|old| {
                    edit::frontmatter::yaml_text(value, old)
                })?;
                (edits, format!("{key} = {value}"))
            }
            FmCommand::Merge { json_object, .. } => {
                let obj: serde_json::Value =
                    serde_json::from_str(json_object).map_err(|e| CliError::BadInput {
                        message: format!("not valid JSON: {e}"),
                        help: Some(format!(
                            "line {}, column {}; pass an object like '{{\"wave\": 2}}'",
                            e.line(),
                            e.column()
                        )),
                        src: None,
                        at: None,
                    })?;
                let Some(map) = obj.as_object() else {
                    return Err(CliError::input(
                        "fm merge takes a JSON object",
                        Some("pass '{\"key\": value}'".into()),
                    ));
                };
                // Keys are set one by one on the evolving text, so new keys land in order.
                let mut text = doc.text().to_owned();
                for (k, v) in map {
                    let d = crate::model::Document::parse(
                        crate::doc::Source::from_text(doc.path(), text.clone()),
                        rel_path.clone(),
                    );
                    let edits =
                        edit::frontmatter::set(&d, k, &|old| edit::frontmatter::json_text(v, old))?;
                    text = edit::apply(&text, &edits)?;
                }
                let keys: Vec<&str> = map.keys().map(String::as_str).collect();
                let change = FileChange {
                    path: doc.path().to_path_buf(),
                    before: Some(doc.source.bytes().to_vec()),
                    after: text.into_bytes(),
                };
                return Ok(Planned {
                    moves: Vec::new(),
                    deletes: Vec::new(),
                    summary: vec![format!(
                        "{}: merged {}",
                        rel_path.display(),
                        keys.join(", ")
                    )],
                    message: format!("docs(fm): {} merge {}", rel_path.display(), keys.join(", ")),
                    changes: vec![change],
                });
            }
            _ => unreachable!("read commands return above"),
        };
        let new = edit::apply(doc.text(), &edits)?;
        Ok(Planned {
            moves: Vec::new(),
            deletes: Vec::new(),
            summary: vec![format!("{}: {what}", rel_path.display())],
            message: format!("docs(fm): {} {what}", rel_path.display()),
            changes: vec![FileChange {
                path: doc.path().to_path_buf(),
                before: Some(doc.source.bytes().to_vec()),
                after: new.into_bytes(),
            }],
        })
    })
}

fn roadmap_of(ws: &Workspace) -> Result<&crate::model::roadmap::Roadmap, CliError> {
    if ws.roadmap.is_none() {
        return Err(CliError::FileNotFound {
            file: ".planning/ROADMAP.md".into(),
            hint: "create it with `gsd init`".into(),
        });
    }
    Ok(edit::roadmap::editable(ws)?)
}

fn roadmap_change(
    rm: &crate::model::roadmap::Roadmap,
    edits: &[crate::doc::Edit],
) -> Result<FileChange, CliError> {
    let new = edit::apply(rm.doc.text(), edits)?;
    Ok(FileChange {
        path: rm.doc.path().to_path_buf(),
        before: Some(rm.doc.source.bytes().to_vec()),
        after: new.into_bytes(),
    })
}

/// `gsd roadmap update-progress`.
pub fn update_progress(cwd: &Path, write: &WriteFlags) -> Result<Output, CliError> {
    transact(cwd, write, |ws| {
        let rm = roadmap_of(ws)?;
        let edits = edit::roadmap::update_progress(ws)?;
        let summary = vec![format!(
            "{}: {} progress cell(s) updated",
            rel(ws, rm.doc.path()).display(),
            edits.len()
        )];
        Ok(Planned {
            moves: Vec::new(),
            deletes: Vec::new(),
            summary,
            message: "docs(roadmap): update progress table from disk".into(),
            changes: vec![roadmap_change(rm, &edits)?],
        })
    })
}

/// `gsd phase add|insert|complete`.
pub fn phase(cwd: &Path, cmd: PhaseCommand) -> Result<Output, CliError> {
    match cmd {
        PhaseCommand::List { json } => super::read::phase(cwd, PhaseCommand::List { json }),
        PhaseCommand::Add { name, write } => transact(cwd, &write, |ws| {
            let new = edit::roadmap::add_phase(ws, &name)?;
            new_phase(ws, new, &format!("docs(roadmap): add phase {{}}: {name}"))
        }),
        PhaseCommand::Insert { after, name, write } => transact(cwd, &write, |ws| {
            let new = edit::roadmap::insert_phase(ws, &after, &name)?;
            new_phase(
                ws,
                new,
                &format!("docs(roadmap): insert phase {{}} after {after}: {name}"),
            )
        }),
        PhaseCommand::Remove {
            phase,
            force,
            write,
        } => transact_in(cwd, &write, Scope::Full, |ws| {
            let id =
                crate::model::PhaseId::parse(&phase).ok_or_else(|| EditError::UnknownPhase {
                    value: phase.clone(),
                    phases: Vec::new(),
                })?;
            let removal = edit::renumber::remove_phase(ws, &id, force)?;
            let docs = ws.documents();
            let moved = |p: &Path| {
                removal
                    .moves
                    .iter()
                    .find(|(from, _)| from == p)
                    .map(|(_, to)| to.clone())
            };
            let mut changes = Vec::new();
            for (path, edits) in &removal.edits {
                let Some(doc) = docs.iter().find(|d| d.path() == path) else {
                    continue;
                };
                let new = edit::apply(doc.text(), edits)?;
                changes.push(FileChange {
                    path: moved(path).unwrap_or_else(|| path.clone()),
                    before: Some(doc.source.bytes().to_vec()),
                    after: new.into_bytes(),
                });
            }
            Ok(Planned {
                summary: removal.summary.clone(),
                message: format!("docs(roadmap): remove phase {} and renumber", id.unpadded()),
                changes,
                moves: removal.moves,
                deletes: removal.deletes,
            })
        }),
        PhaseCommand::Complete {
            phase,
            force,
            write,
        } => transact(cwd, &write, |ws| {
            let rm = roadmap_of(ws)?;
            let id =
                crate::model::PhaseId::parse(&phase).ok_or_else(|| EditError::UnknownPhase {
                    value: phase.clone(),
                    phases: rm
                        .all_phase_ids()
                        .iter()
                        .map(crate::model::PhaseId::unpadded)
                        .collect(),
                })?;
            let edits = edit::roadmap::complete_phase(ws, &id, force)?;
            let mut changes = vec![roadmap_change(rm, &edits)?];
            let mut summary = vec![format!(
                "{}: phase {} complete",
                rel(ws, rm.doc.path()).display(),
                id.unpadded()
            )];
            // STATE.md moves on when it was at this phase.
            if let Some(st) = ws
                .state
                .as_ref()
                .filter(|s| s.current_phase().is_some_and(|p| p.phase.same(&id)))
            {
                let moves = edit::state::advance(ws, st)
                    .or_else(|e| if force { Ok(Vec::new()) } else { Err(e) })?;
                let state_edits: Vec<_> =
                    moves.iter().flat_map(|c| c.edits.iter().cloned()).collect();
                changes.push(change_for(st, edit::apply(st.doc.text(), &state_edits)?));
                summary.extend(moves.iter().map(|c| {
                    format!(
                        "{}: {} {} → {}",
                        rel(ws, st.doc.path()).display(),
                        c.label,
                        c.before,
                        c.after
                    )
                }));
            }
            Ok(Planned {
                moves: Vec::new(),
                deletes: Vec::new(),
                summary,
                message: format!("docs(roadmap): complete phase {}", id.unpadded()),
                changes,
            })
        }),
    }
}

fn new_phase(
    ws: &Workspace,
    new: edit::roadmap::NewPhase,
    message: &str,
) -> Result<Planned, CliError> {
    let rm = roadmap_of(ws)?;
    let keep = ws.root.join(&new.dir).join(".gitkeep");
    if ws.root.join(&new.dir).exists() {
        return Err(CliError::input(
            format!("{} already exists", new.dir.display()),
            None,
        ));
    }
    let mut changes = vec![
        roadmap_change(rm, &new.edits)?,
        FileChange {
            path: keep,
            before: None,
            after: Vec::new(),
        },
    ];
    // `Phase: 1 of 6` counts the phases: one more now (remove lowers it).
    if let Some(st) = &ws.state
        && let Some(e) = edit::state::shift_total(st, 1)
    {
        changes.push(change_for(st, edit::apply(st.doc.text(), &[e])?));
    }
    Ok(Planned {
        moves: Vec::new(),
        deletes: Vec::new(),
        summary: vec![format!(
            "phase {} added: {}",
            new.id.unpadded(),
            new.dir.display()
        )],
        message: message.replace("{}", &new.id.unpadded()),
        changes,
    })
}
