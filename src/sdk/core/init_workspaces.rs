//! The workspace inits of GSD Core 1.14.0 (`init new-workspace`,
//! `list-workspaces`, `remove-workspace`): the multi-repository workspaces
//! its workspace workflows make under `~/gsd-workspaces`, each described by
//! a `WORKSPACE.md` manifest (a `Strategy:` line and a table of
//! repositories), and the git repositories a new one could take in.

use serde_json::{Map, json};

use super::super::commands::init_project;
use super::super::compat::js::{JS_DOT, JS_SPACE};
use super::super::compat::roadmap_text::re;
use super::init_envelope::finish;
use super::init_phase_op::{checked_config, path_text};
use super::named_args::{self, Spec};
use super::native::{CoreCall, Refusal, engine, hand_on};
use super::output::Out;

/// `init new-workspace`: where workspaces go, the git repositories in the
/// folder's child folders (and whether each has uncommitted work), and
/// whether git can make worktrees.
pub fn new_workspace(call: &CoreCall) -> Result<Out, Refusal> {
    let config = checked_config(call)?;
    let mut names: Vec<String> = Vec::new();
    for e in std::fs::read_dir(call.project)
        .into_iter()
        .flatten()
        .flatten()
    {
        let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
        let name = e
            .file_name()
            .into_string()
            .map_err(|_| hand_on(" for a folder named in bytes that are not UTF-8"))?;
        if is_dir && !name.starts_with('.') {
            names.push(name);
        }
    }
    names.sort_unstable();
    let mut repos = Vec::new();
    for name in names {
        let path = call.project.join(&name);
        if !path.join(".git").exists() {
            continue;
        }
        let dirty = matches!(super::gitinfo::git(&path, &["status", "--porcelain"]), Some((0, out)) if !out.is_empty());
        repos.push(json!({"name": name, "path": path_text(&path)?, "has_uncommitted": dirty}));
    }
    let worktree = matches!(
        super::gitinfo::git(call.project, &["--version"]),
        Some((0, _))
    );
    let mut r = Map::new();
    r.insert(
        "default_workspace_base".into(),
        json!(path_text(&init_project::workspace_base())?),
    );
    let count = repos.len();
    r.insert("child_repos".into(), json!(repos));
    r.insert("child_repo_count".into(), json!(count));
    r.insert("worktree_available".into(), json!(worktree));
    r.insert(
        "is_git_repo".into(),
        json!(call.project.join(".git").exists()),
    );
    let base = call
        .project
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    r.insert("cwd_repo_name".into(), json!(base));
    finish(call, config.as_ref(), r)
}

/// `init list-workspaces`: the workspaces under `~/gsd-workspaces` (no
/// envelope: 1.14.0 prints the list alone).
pub fn list_workspaces(call: &CoreCall) -> Result<Out, Refusal> {
    // A manifest that is there and cannot be read stops 1.14.0.
    let base = init_project::workspace_base();
    for name in super::super::commands::names_in(&base) {
        let manifest = base.join(name).join("WORKSPACE.md");
        if manifest.exists() && std::fs::read(&manifest).is_err() {
            return Err(hand_on(" where a WORKSPACE.md cannot be read"));
        }
    }
    Ok(Out::json(&engine(
        init_project::list_workspaces,
        call,
        call.args,
    )?))
}

/// `init remove-workspace NAME`: the workspace under `~/gsd-workspaces`
/// the remove workflow is about to delete — its manifest's strategy and
/// repositories, and which of those hold uncommitted work.
pub fn remove_workspace(call: &CoreCall) -> Result<Out, Refusal> {
    named_args::parse(
        call.args,
        &Spec {
            values: &[],
            booleans: &[],
            positionals: 1,
        },
    )
    .map_err(Refusal::Fail)?;
    let name = call.args.first().map(String::as_str).unwrap_or("");
    if name.is_empty() {
        return Err(Refusal::Fail(super::output::Failure::new(
            "unknown",
            "workspace name required for init remove-workspace",
        )));
    }
    if name.contains('/') || name.contains("..") || name.starts_with('-') {
        return Err(hand_on(" for a workspace name that is a path"));
    }
    let config = checked_config(call)?;
    let path = init_project::workspace_base().join(name);
    let path_text_ = path_text(&path)?;
    if !path.exists() {
        return Err(Refusal::Fail(super::output::Failure::new(
            "unknown",
            format!("Workspace not found: {path_text_}"),
        )));
    }
    let manifest_path = path.join("WORKSPACE.md");
    let manifest = match std::fs::read(&manifest_path) {
        Ok(b) => Some(String::from_utf8_lossy(&b).into_owned()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(_) => return Err(hand_on(" where WORKSPACE.md cannot be read")),
    };
    let mut strategy = "unknown".to_string();
    let mut repos = Vec::new();
    if let Some(m) = &manifest {
        let strategy_line = re(&format!(
            r"(?m)^Strategy:{JS_SPACE}*({JS_DOT}+)(?:$|(?=[\r\u{{2028}}\u{{2029}}]))"
        ));
        if let Some(c) = strategy_line.captures(m).ok().flatten() {
            strategy = super::js::trim(&c[1]).to_string();
        }
        let cell = format!("({NOT_SPACE}+)");
        let row = re(&format!(
            r"^\|{S}*{cell}{S}*\|{S}*{cell}{S}*\|{S}*{cell}{S}*\|{S}*{cell}{S}*\|$",
            S = JS_SPACE
        ));
        for line in m.split('\n') {
            if let Some(c) = row.captures(line).ok().flatten()
                && &c[1] != "Repo"
                && !c[1].contains("---")
            {
                repos.push((
                    c[1].to_string(),
                    c[2].to_string(),
                    c[3].to_string(),
                    c[4].to_string(),
                ));
            }
        }
    }
    let mut dirty = Vec::new();
    for (repo, ..) in &repos {
        let p = path.join(repo);
        if p.exists()
            && matches!(super::gitinfo::git(&p, &["status", "--porcelain"]), Some((0, out)) if !out.is_empty())
        {
            dirty.push(repo.clone());
        }
    }
    let mut r = Map::new();
    r.insert("workspace_name".into(), json!(name));
    r.insert("workspace_path".into(), json!(path_text_));
    r.insert("has_manifest".into(), json!(manifest_path.exists()));
    r.insert("strategy".into(), json!(strategy));
    let count = repos.len();
    r.insert(
        "repos".into(),
        json!(
            repos
                .into_iter()
                .map(|(n, s, b, st)| json!({"name": n, "source": s, "branch": b, "strategy": st}))
                .collect::<Vec<_>>()
        ),
    );
    r.insert("repo_count".into(), json!(count));
    let has_dirty = !dirty.is_empty();
    r.insert("dirty_repos".into(), json!(dirty));
    r.insert("has_dirty_repos".into(), json!(has_dirty));
    finish(call, config.as_ref(), r)
}

/// JavaScript's `\S`.
const NOT_SPACE: &str = r"[^\t\n\x0B\x0C\r \u{a0}\u{1680}\u{2000}-\u{200a}\u{2028}\u{2029}\u{202f}\u{205f}\u{3000}\u{feff}]";
