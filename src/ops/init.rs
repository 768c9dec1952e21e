//! `gsd init`: the core planning files from the templates, in one commit.
//! There is no workspace to load yet, so this drives the transaction itself.

use std::path::Path;

use crate::render::Renderer;
use crate::render::init::{InitSpec, render};
use crate::store::{ChangeSet, CommitPolicy, FileChange, Transaction};

use super::{Applied, OpError, Outcome, WriteOptions};

/// Write the planning folder under `root` (the caller checked `--force`).
pub fn init(root: &Path, spec: &InitSpec, opts: WriteOptions) -> Result<Outcome, OpError> {
    let files = render(&Renderer::new(None), spec)?;
    let writes: Vec<FileChange> = files
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
    let set = ChangeSet::writes(format!("docs: initialize {} planning", spec.name), writes);
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
