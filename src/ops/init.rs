//! `gsd init`: the core planning files from the templates, in one commit.
//! There is no workspace to load yet, so this drives the transaction itself.

use std::path::Path;

use crate::render::Renderer;
use crate::render::init::{InitSpec, render};
use crate::store::{ChangeSet, CommitPolicy, FileChange, Transaction};

use super::{Applied, OpError, Outcome, WriteOptions};

/// Write the planning folder under `root` (the caller checked `--force`).
pub fn init(root: &Path, spec: &InitSpec, opts: WriteOptions) -> Result<Outcome, OpError> {
    init_in(root, spec, opts, None)
}

/// Write a planning tree: the root `.planning/`, or with `workstream` a new
/// workstream `.planning/workstreams/NAME/` (its ROADMAP, STATE,
/// REQUIREMENTS and phases; PROJECT.md and config.json are shared, written
/// at the root only when the project has none yet).
pub fn init_in(
    root: &Path,
    spec: &InitSpec,
    opts: WriteOptions,
    workstream: Option<&str>,
) -> Result<Outcome, OpError> {
    let files = render(&Renderer::new(None), spec)?;
    let placed = files.into_iter().filter_map(|(rel, text)| {
        let Some(w) = workstream else {
            return Some((rel, text));
        };
        let inner = std::path::Path::new(&rel)
            .strip_prefix(".planning")
            .ok()?
            .to_path_buf();
        if inner == std::path::Path::new("PROJECT.md")
            || inner == std::path::Path::new("config.json")
        {
            let shared = root.join(&rel);
            return (!shared.exists()).then_some((rel, text));
        }
        let to = std::path::PathBuf::from(".planning/workstreams")
            .join(w)
            .join(inner);
        Some((to.to_string_lossy().into_owned(), text))
    });
    let placed: Vec<(String, String)> = placed.collect();
    let writes: Vec<FileChange> = placed
        .into_iter()
        .map(|(rel, text)| {
            let path = root.join(rel);
            FileChange {
                before: std::fs::read(&path).ok(),
                path,
                after: text.into_bytes(),
            }
        })
        .collect();
    let message = match workstream {
        Some(w) => format!("docs: start workstream {w} of {}", spec.name),
        None => format!("docs: initialize {} planning", spec.name),
    };
    let set = ChangeSet::writes(message, writes);
    if opts.dry_run {
        return Ok(Outcome {
            applied: super::dry_run(root, &set),
            recovered: None,
        });
    }
    std::fs::create_dir_all(root)
        .map_err(|e| OpError::invalid(format!("cannot create {}: {e}", root.display()), None))?;
    let tx = Transaction::begin(root)?;
    let recovered = tx.recovered.clone();
    let policy = if opts.no_commit {
        CommitPolicy::Skip
    } else {
        CommitPolicy::Commit
    };
    let summary = set
        .real_writes()
        .map(|c| {
            format!(
                "created {}",
                c.path.strip_prefix(root).unwrap_or(&c.path).display()
            )
        })
        .collect();
    let outcome = tx.apply(&set, policy)?;
    Ok(Outcome {
        applied: Applied::Stored {
            message: set.message,
            summary,
            outcome,
        },
        recovered,
    })
}
