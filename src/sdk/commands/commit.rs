//! `commit MESSAGE [--files PATH…]`: one commit of exactly the named files
//! (a folder names the files under it; no `--files` means `.planning/`),
//! made by the store's commit, so whatever else is staged stays staged and
//! out of it.

use std::path::{Path, PathBuf};

use git2::Repository;
use serde_json::json;

use super::super::compat::config::{self as cfg, Raw};
use super::super::compat::sanitize;
use super::super::{Call, Reply, SdkError};
use crate::store::{CommitOutcome, CommitPolicy, commit};

/// Files under `rel` (a file or a folder): on disk, not ignored, plus those
/// HEAD has there (so a deleted file's removal is committed too).
pub fn expand(repo: &Repository, workdir: &Path, rel: &Path) -> Vec<PathBuf> {
    let abs = workdir.join(rel);
    let mut out = Vec::new();
    if abs.is_dir() {
        let mut stack = vec![abs.clone()];
        while let Some(dir) = stack.pop() {
            let Ok(rd) = std::fs::read_dir(&dir) else {
                continue;
            };
            for e in rd.flatten() {
                let p = e.path();
                let Ok(r) = p.strip_prefix(workdir) else {
                    continue;
                };
                if r.starts_with(".git") || repo.is_path_ignored(r).unwrap_or(false) {
                    continue;
                }
                if p.is_dir() {
                    stack.push(p);
                } else {
                    out.push(r.to_path_buf());
                }
            }
        }
    } else if abs.exists() {
        out.push(rel.to_path_buf());
    }
    if let Ok(tree) = repo.head().and_then(|h| h.peel_to_tree()) {
        let prefix = rel.to_string_lossy().trim_end_matches('/').to_string();
        let _ = tree.walk(git2::TreeWalkMode::PreOrder, |root, entry| {
            if entry.kind() == Some(git2::ObjectType::Blob) {
                let p = format!("{root}{}", entry.name().unwrap_or(""));
                if (p == prefix || p.starts_with(&format!("{prefix}/")))
                    && !workdir.join(&p).exists()
                {
                    out.push(PathBuf::from(p));
                }
            }
            git2::TreeWalkResult::Ok
        });
    }
    out.sort();
    out.dedup();
    out
}

/// The paths a commit changed against its parent.
fn changed_in(repo: &Repository, id: &str) -> Vec<String> {
    let Ok(c) = git2::Oid::from_str(id).and_then(|o| repo.find_commit(o)) else {
        return Vec::new();
    };
    let parent_tree = c.parent(0).ok().and_then(|p| p.tree().ok());
    let Ok(diff) = c
        .tree()
        .and_then(|t| repo.diff_tree_to_tree(parent_tree.as_ref(), Some(&t), None))
    else {
        return Vec::new();
    };
    let mut out: Vec<String> = diff
        .deltas()
        .filter_map(|d| {
            d.new_file()
                .path()
                .or(d.old_file().path())
                .map(|p| p.to_string_lossy().into_owned())
        })
        .collect();
    out.sort();
    out
}

/// `commit`.
pub fn run(call: &Call) -> Result<Reply, SdkError> {
    let args = call.args;
    let has = |f: &str| args.iter().any(|a| a == f);
    if has("--amend") || has("--respect-staged") {
        return Err(SdkError::not_covered(
            "commit --amend and --respect-staged edit git's index as the caller staged it",
        ));
    }
    let flags = ["--force", "--amend", "--no-verify", "--respect-staged"];
    let files_at = args.iter().position(|a| a == "--files");
    let message_end = files_at.unwrap_or(args.len());
    let message = args[..message_end]
        .iter()
        .filter(|a| !flags.contains(&a.as_str()))
        .cloned()
        .collect::<Vec<_>>()
        .join(" ");
    let files: Vec<String> = files_at
        .map(|i| {
            args[i + 1..]
                .iter()
                .filter(|a| !a.starts_with("--"))
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    if message.is_empty() {
        return Ok(Reply::Json(
            json!({"committed": false, "reason": "commit message required"}),
        ));
    }
    if !has("--force")
        && let Raw::Object(m) = cfg::raw(call.project)
        && m.get("commit_docs") == Some(&serde_json::Value::Bool(false))
    {
        return Ok(Reply::Json(
            json!({"committed": false, "reason": "commit_docs disabled"}),
        ));
    }
    if files_at.is_some() && files.is_empty() {
        return Ok(Reply::Json(
            json!({"committed": false, "reason": "--files requires at least one path"}),
        ));
    }
    let message = sanitize::commit_message(&message);
    let named = if files.is_empty() {
        vec![".planning/".to_string()]
    } else {
        files
    };
    let Ok(repo) = Repository::discover(call.project) else {
        return Ok(Reply::Json(
            json!({"committed": false, "reason": "not a git repository", "exitCode": 128}),
        ));
    };
    let Some(workdir) = repo.workdir().and_then(|w| w.canonicalize().ok()) else {
        return Ok(Reply::Json(
            json!({"committed": false, "reason": "a bare repository has no files to commit"}),
        ));
    };
    let project = call
        .project
        .canonicalize()
        .unwrap_or(call.project.to_path_buf());
    let mut paths = Vec::new();
    for f in &named {
        let abs = std::path::absolute(project.join(f)).unwrap_or(project.join(f));
        let Ok(rel) = abs.strip_prefix(&workdir) else {
            return Ok(Reply::Json(json!({
                "committed": false,
                "reason": format!("fatal: {f}: is outside repository"),
                "exitCode": 128
            })));
        };
        paths.extend(expand(&repo, &workdir, rel));
    }
    if paths.is_empty() {
        return Ok(Reply::Json(
            json!({"committed": false, "reason": "nothing staged"}),
        ));
    }
    let outcome = commit::commit_paths(&workdir, &paths, &message, CommitPolicy::Commit)
        .map_err(|e| SdkError::execution(e.to_string()))?;
    Ok(Reply::Json(match outcome {
        CommitOutcome::Committed { id, .. } => json!({
            "committed": true,
            "hash": id[..id.len().min(7)].to_string(),
            "message": message,
            "files": changed_in(&repo, &id),
        }),
        CommitOutcome::NothingToCommit => json!({"committed": false, "reason": "nothing staged"}),
        other => json!({"committed": false, "reason": other.describe()}),
    }))
}
