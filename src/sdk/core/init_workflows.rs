//! The `init.*` answers of GSD Core 1.14.0 workflows that need only the
//! config and a fact or two about the project: `debug`, `autonomous`,
//! `docs-update`, `ingest-docs`, `new-workspace` and `list-workspaces`.
//! Each is built as 1.14.0 builds it and wrapped in its envelope
//! (`withProjectRoot`) where 1.14.0 wraps it.

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Map, Value, json};

use super::super::commands::init_project;
use super::super::compat::js::{JS_DOT, JS_SPACE};
use super::super::compat::roadmap_text::re;
use super::init_envelope::finish;
use super::init_phase_op::{checked_config, path_text};
use super::init_plan_phase::model;
use super::named_args::{self, Named, Spec};
use super::native::{CoreCall, Refusal, engine, hand_on};
use super::output::Out;
use super::section_manifest::{self, Facts};

/// The call's boolean flags as 1.14.0's strict reader takes them (an
/// unknown flag or a stray word fails with its usage message).
fn booleans(call: &CoreCall, flags: &[&str]) -> Result<Named, Refusal> {
    named_args::parse(
        call.args,
        &Spec {
            values: &[],
            booleans: flags,
            positionals: 0,
        },
    )
    .map_err(Refusal::Fail)
}

/// A command that reads no argument: one given is handed on (1.14.0
/// ignores it; gsd does not guess what the caller meant).
fn no_arguments(call: &CoreCall) -> Result<(), Refusal> {
    match call.args.first() {
        Some(a) => Err(hand_on(format!(" with the argument `{a}`"))),
        None => Ok(()),
    }
}

fn guard_manifest() -> Result<(), Refusal> {
    if section_manifest::overridden() {
        return Err(hand_on(" with GSD_SECTION_MANIFEST set"));
    }
    Ok(())
}

/// A config value as 1.14.0's `loadConfig` gives it.
fn loaded(call: &CoreCall, key: &str) -> Result<Value, Refusal> {
    Ok(super::loaded_config::loaded(call)?
        .get(key)
        .cloned()
        .unwrap_or(Value::Null))
}

/// `init debug [--diagnose]`.
pub fn debug(call: &CoreCall) -> Result<Out, Refusal> {
    let named = booleans(call, &["diagnose"])?;
    guard_manifest()?;
    let config = checked_config(call)?;
    let mut r = Map::new();
    r.insert("commit_docs".into(), loaded(call, "commit_docs")?);
    r.insert(
        "debug_dir".into(),
        json!(path_text(&call.project.join(".planning/debug"))?),
    );
    r.insert("debugger_model".into(), model(call, "gsd-debugger")?);
    r.insert(
        "tdd_mode".into(),
        json!(super::super::compat::js::truthy(&loaded(call, "tdd_mode")?)),
    );
    r.insert("diagnose".into(), json!(named.flag("diagnose")));
    // `debug` has no sections in 1.14.0's manifest: the field is null.
    r.insert("section_manifest".into(), Value::Null);
    finish(call, config.as_ref(), r)
}

/// `init autonomous [--converge|--cross-ai]`.
pub fn autonomous(call: &CoreCall) -> Result<Out, Refusal> {
    let named = booleans(call, &["converge", "cross-ai"])?;
    guard_manifest()?;
    let config = checked_config(call)?;
    let converge = named.flag("converge") || named.flag("cross-ai");
    let mut facts = Facts {
        plan_strategy_converge: converge,
        ..Facts::default()
    };
    for f in ["converge", "cross-ai"] {
        if named.flag(f) {
            facts.flags.insert(format!("--{f}"));
        }
    }
    let mut r = Map::new();
    r.insert("plan_strategy_converge".into(), json!(converge));
    r.insert(
        "section_manifest".into(),
        section_manifest::field("autonomous", &facts).unwrap_or(Value::Null),
    );
    finish(call, config.as_ref(), r)
}

/// `detectMonorepoWorkspaces`: whether pnpm-workspace.yaml lists a
/// package, or package.json's `workspaces` / lerna.json's `packages` is a
/// non-empty list.
fn is_monorepo(project: &Path) -> bool {
    let read = |f: &str| {
        std::fs::read(project.join(f))
            .ok()
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .filter(|t| !t.is_empty())
    };
    if let Some(pnpm) = read("pnpm-workspace.yaml") {
        // `/^\s*-\s+['"]?(.+?)['"]?\s*$/` on each `\n` line.
        let item = re(&format!(
            r#"^{JS_SPACE}*-{JS_SPACE}+['"]?{JS_DOT}+?['"]?{JS_SPACE}*$"#
        ));
        if pnpm
            .split('\n')
            .any(|line| item.is_match(line).unwrap_or(false))
        {
            return true;
        }
    }
    let listed = |file: &str, key: &str| {
        read(file)
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .and_then(|v| v.get(key).and_then(Value::as_array).map(|a| !a.is_empty()))
            .unwrap_or(false)
    };
    listed("package.json", "workspaces") || listed("lerna.json", "packages")
}

/// `init docs-update`.
pub fn docs_update(call: &CoreCall) -> Result<Out, Refusal> {
    no_arguments(call)?;
    guard_manifest()?;
    let config = checked_config(call)?;
    let facts = Facts {
        is_monorepo: is_monorepo(call.project),
        ..Facts::default()
    };
    let mut r = Map::new();
    r.insert(
        "section_manifest".into(),
        section_manifest::field("docs-update", &facts).unwrap_or(Value::Null),
    );
    finish(call, config.as_ref(), r)
}

/// `git ARGS` in `dir`: exit code and stdout.
fn git(dir: &Path, args: &[&str]) -> Option<(i32, String)> {
    let o = Command::new("git")
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    Some((
        o.status.code()?,
        String::from_utf8_lossy(&o.stdout).into_owned(),
    ))
}

/// `getInitGitState(cwd)`: whether the project is in a git work tree, the
/// tree's root, and whether the project sits in a folder below that root.
fn git_state(project: &Path) -> Result<(bool, Value, bool), Refusal> {
    let inside = matches!(
        git(project, &["rev-parse", "--is-inside-work-tree"]),
        Some((0, ref out)) if out.trim() == "true"
    );
    if !inside {
        return Ok((false, Value::Null, false));
    }
    let root = match git(project, &["rev-parse", "--show-toplevel"]) {
        Some((0, out)) if !out.trim().is_empty() => Some(out.trim().to_string()),
        _ => None,
    };
    let nested = match git(project, &["rev-parse", "--show-prefix"]) {
        Some((0, out)) => {
            let prefix = out.trim();
            !prefix.is_empty() && prefix != "." && prefix != "./"
        }
        _ => return Err(hand_on(" where git names no prefix for the project")),
    };
    let project_text = path_text(project)?;
    let nested = nested
        && !root.as_ref().is_some_and(|r| {
            r.trim_end_matches('/').to_lowercase()
                == project_text.trim_end_matches('/').to_lowercase()
        });
    Ok((true, root.map_or(Value::Null, Value::String), nested))
}

/// `init ingest-docs`.
pub fn ingest_docs(call: &CoreCall) -> Result<Out, Refusal> {
    no_arguments(call)?;
    let config = checked_config(call)?;
    let planning = call.project.join(".planning");
    let (has_git, root, nested) = git_state(call.project)?;
    let mut r = Map::new();
    r.insert(
        "project_exists".into(),
        json!(planning.join("PROJECT.md").exists()),
    );
    r.insert("planning_exists".into(), json!(planning.exists()));
    r.insert("has_git".into(), json!(has_git));
    r.insert("git_worktree_root".into(), root);
    r.insert("in_nested_subdir".into(), json!(nested));
    for (key, file) in [
        ("project_path", "PROJECT.md"),
        ("requirements_path", "REQUIREMENTS.md"),
        ("roadmap_path", "ROADMAP.md"),
        ("state_path", "STATE.md"),
        ("intel_dir", "intel"),
        ("conflicts_path", "INGEST-CONFLICTS.md"),
    ] {
        r.insert(key.into(), json!(path_text(&planning.join(file))?));
    }
    r.insert("commit_docs".into(), loaded(call, "commit_docs")?);
    finish(call, config.as_ref(), r)
}

/// `~/gsd-workspaces`, with HOME as 1.14.0 reads it.
fn workspace_base() -> std::path::PathBuf {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(std::env::home_dir)
        .unwrap_or_default()
        .join("gsd-workspaces")
}

/// `init new-workspace`: where workspaces go, the git repositories in the
/// folder's child folders (and whether each has uncommitted work), and
/// whether git can make worktrees.
pub fn new_workspace(call: &CoreCall) -> Result<Out, Refusal> {
    no_arguments(call)?;
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
        let dirty =
            matches!(git(&path, &["status", "--porcelain"]), Some((0, out)) if !out.is_empty());
        repos.push(json!({"name": name, "path": path_text(&path)?, "has_uncommitted": dirty}));
    }
    let worktree = matches!(git(call.project, &["--version"]), Some((0, _)));
    let mut r = Map::new();
    r.insert(
        "default_workspace_base".into(),
        json!(path_text(&workspace_base())?),
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
    no_arguments(call)?;
    Ok(Out::json(&engine(
        init_project::list_workspaces,
        call,
        call.args,
    )?))
}
