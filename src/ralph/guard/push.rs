//! `git push` that rewrites or deletes a shared branch.
//!
//! A force-push to `main` loses other people's commits and cannot be undone
//! from the agent's side; an unattended agent never does it. The rule:
//!
//! - `--force`/`-f`, a `+` refspec (`git push origin +main`),
//!   `--force-with-lease` and `--force-if-includes` to a protected branch
//!   (main, master and `protected_branches`) are denied; so are `--mirror`
//!   (it overwrites and deletes every branch on the remote), `--delete`/`:branch`
//!   of a protected branch, and `--prune` over a pattern that covers one.
//! - Any force with no refspec (`git push --force`, `git push -f origin`) is
//!   denied: where it goes depends on `push.default` and the upstream, which
//!   the command does not say. Naming the branch is enough.
//! - A force-push (with or without lease) that names a branch that is not
//!   protected is allowed: rewriting one's own feature branch after a rebase
//!   is ordinary work. `HEAD` is read from the repository's `.git/HEAD`; a
//!   detached or unreadable HEAD counts as protected.
//! - `--dry-run` pushes nothing and is allowed.

use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};

/// Branches protected when config.json does not name its own.
pub const DEFAULT_PROTECTED: &[&str] = &["main", "master", "trunk", "develop", "release*"];
/// Protected whatever config.json says.
const ALWAYS_PROTECTED: &[&str] = &["main", "master"];

/// Compiled protected-branch globs.
pub struct Protected {
    set: GlobSet,
    names: Vec<String>,
}

impl Protected {
    pub fn new(patterns: &[String]) -> Result<Protected, String> {
        let mut b = GlobSetBuilder::new();
        let mut names: Vec<String> = ALWAYS_PROTECTED.iter().map(|s| s.to_string()).collect();
        for p in patterns {
            if !names.contains(p) {
                names.push(p.clone());
            }
        }
        for p in &names {
            b.add(Glob::new(p).map_err(|e| format!("bad branch pattern `{p}`: {e}"))?);
        }
        Ok(Protected {
            set: b.build().map_err(|e| e.to_string())?,
            names,
        })
    }

    fn matches(&self, branch: &str) -> bool {
        self.set.is_match(branch)
    }

    /// Whether a refspec pattern (`refs/heads/*`) could name a protected branch.
    fn pattern_covers(&self, pattern: &str) -> bool {
        let Ok(g) = Glob::new(pattern) else {
            return true;
        };
        let m = g.compile_matcher();
        self.names.iter().any(|n| m.is_match(n.replace('*', "x")))
    }

    fn list(&self) -> String {
        self.names.join(", ")
    }
}

/// Where a refspec pushes to.
enum Dest {
    Branch(String),
    /// A glob (`refs/heads/*`).
    Pattern(String),
    /// A tag or another ref that is not a branch.
    Other,
    /// `HEAD` when the current branch cannot be read.
    Unknown,
}

/// Check `git ARGS` run in one of `dirs` (`None`: a directory the guard
/// cannot know).
pub fn check(args: &[&str], dirs: Option<&[PathBuf]>, protected: &Protected) -> Result<(), String> {
    let Some((i, chdir)) = subcommand(args) else {
        return Ok(());
    };
    if args[i] != "push" {
        return Ok(());
    }
    let mut force = false;
    let mut lease = false;
    let (mut mirror, mut delete, mut all, mut prune, mut dry) = (false, false, false, false, false);
    let mut tags = false;
    let mut positional = Vec::new();
    let mut j = i + 1;
    let mut options = true;
    while j < args.len() {
        let w = args[j];
        j += 1;
        if options && w == "--" {
            options = false;
        } else if options && w.starts_with("--") {
            let (flag, value) = w.split_once('=').map_or((w, None), |(f, v)| (f, Some(v)));
            match flag {
                "--force" => force = true,
                "--force-with-lease" | "--force-if-includes" => lease = true,
                "--no-force-with-lease" | "--no-force-if-includes" => lease = false,
                "--mirror" => mirror = true,
                "--delete" => delete = true,
                "--all" | "--branches" => all = true,
                "--prune" => prune = true,
                "--dry-run" => dry = true,
                "--tags" => tags = true,
                "--repo" | "--push-option" | "--receive-pack" | "--exec" if value.is_none() => {
                    j += 1
                }
                _ => {}
            }
        } else if options && w.starts_with('-') && w.len() > 1 {
            for (k, c) in w[1..].char_indices() {
                match c {
                    'f' => force = true,
                    'd' => delete = true,
                    'n' => dry = true,
                    'o' => {
                        if k + 2 == w.len() {
                            j += 1; // `-o VALUE`
                        }
                        break;
                    }
                    _ => {}
                }
            }
        } else {
            positional.push(w);
        }
    }
    if dry {
        return Ok(());
    }
    let list = protected.list();
    if mirror {
        return Err(format!(
            "`git push --mirror` makes the remote a copy of this repository: it force-updates and deletes every branch there, protected ones ({list}) included"
        ));
    }
    let forced = force || lease;
    let how = if force {
        "`git push --force`"
    } else {
        "`git push --force-with-lease`"
    };
    if all && forced {
        return Err(format!(
            "{how} of every branch rewrites the protected ones ({list}) too"
        ));
    }
    let refspecs = positional.get(1..).unwrap_or_default();
    // `--tags` alone pushes the tags, no branch.
    if refspecs.is_empty() && !tags {
        if forced {
            return Err(format!(
                "{how} with no branch named goes wherever push.default and the upstream send it, maybe a protected branch ({list}); name the branch (`git push --force-with-lease origin my-branch`)"
            ));
        }
        if prune {
            return Err(format!(
                "`git push --prune` with no refspec may delete protected branches ({list}) on the remote"
            ));
        }
        return Ok(());
    }
    let repo_dirs: Option<Vec<PathBuf>> = dirs.map(|d| {
        d.iter()
            .map(|dir| chdir.iter().fold(dir.clone(), |p, c| p.join(c)))
            .collect()
    });
    for spec in refspecs {
        let plus = spec.starts_with('+');
        let spec = spec.trim_start_matches('+');
        let (dest, deleting) = if delete {
            (spec, true)
        } else if let Some(d) = spec.strip_prefix(':') {
            (d, true)
        } else {
            (spec.split_once(':').map_or(spec, |(_, d)| d), false)
        };
        let target = destination(dest, repo_dirs.as_deref());
        let hits = match &target {
            Dest::Branch(b) => protected.matches(b),
            Dest::Pattern(p) => protected.pattern_covers(p),
            Dest::Unknown => true,
            Dest::Other => false,
        };
        if !hits {
            continue;
        }
        let shown = match &target {
            Dest::Branch(b) | Dest::Pattern(b) => format!("`{b}`"),
            _ => "`HEAD` (the current branch cannot be read)".into(),
        };
        if deleting {
            return Err(format!(
                "`git push` deletes {shown} on the remote, a protected branch ({list})"
            ));
        }
        if forced || plus {
            let how = if plus && !forced {
                format!("`git push` of `+{spec}` (a force-push)")
            } else {
                how.to_owned()
            };
            return Err(format!(
                "{how} to {shown} rewrites a protected branch ({list}); push new commits instead"
            ));
        }
        if prune && matches!(target, Dest::Pattern(_)) {
            return Err(format!(
                "`git push --prune` over {shown} may delete protected branches ({list})"
            ));
        }
    }
    Ok(())
}

/// The index of git's subcommand in `args`, after its global options, and
/// the `-C` directories on the way.
pub fn subcommand<'a>(args: &[&'a str]) -> Option<(usize, Vec<&'a str>)> {
    let mut chdir = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i] {
            "-C" => {
                chdir.extend(args.get(i + 1).copied());
                i += 2;
            }
            "-c" | "--git-dir" | "--work-tree" | "--namespace" | "--config-env"
            | "--super-prefix" | "--list-cmds" => i += 2,
            w if w.starts_with('-') => i += 1,
            _ => return Some((i, chdir)),
        }
    }
    None
}

/// What a refspec's destination names.
fn destination(dest: &str, dirs: Option<&[PathBuf]>) -> Dest {
    if dest == "HEAD" || dest == "@" {
        return match dirs.map(current_branch) {
            Some(Some(b)) => Dest::Branch(b),
            _ => Dest::Unknown,
        };
    }
    let name = dest.strip_prefix("refs/heads/").unwrap_or(dest);
    if name.starts_with("refs/") {
        return Dest::Other;
    }
    if name.contains(['*', '?', '[']) {
        return Dest::Pattern(name.to_owned());
    }
    Dest::Branch(name.to_owned())
}

/// The branch checked out in every one of `dirs` (`None` when detached,
/// unreadable or not the same everywhere).
fn current_branch(dirs: &[PathBuf]) -> Option<String> {
    let mut found: Option<String> = None;
    for d in dirs {
        let b = branch_at(d)?;
        if found.as_ref().is_some_and(|f| *f != b) {
            return None;
        }
        found = Some(b);
    }
    found
}

fn branch_at(dir: &Path) -> Option<String> {
    for d in dir.ancestors() {
        let dot_git = d.join(".git");
        let git_dir = if dot_git.is_dir() {
            dot_git
        } else if dot_git.is_file() {
            // A worktree or submodule: `gitdir: PATH`.
            let text = std::fs::read_to_string(&dot_git).ok()?;
            let p = text.trim().strip_prefix("gitdir:")?.trim();
            d.join(p)
        } else {
            continue;
        };
        let head = std::fs::read_to_string(git_dir.join("HEAD")).ok()?;
        return head
            .trim()
            .strip_prefix("ref: refs/heads/")
            .map(str::to_owned);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(cmd: &str) -> Result<(), String> {
        let p = Protected::new(
            &DEFAULT_PROTECTED
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>(),
        )
        .unwrap();
        let words: Vec<&str> = cmd.split_whitespace().collect();
        check(&words, None, &p)
    }

    #[test]
    fn force_pushes_to_protected_branches_are_denied() {
        for cmd in [
            "push --force origin main",
            "push -f origin master",
            "push origin +main",
            "push origin +HEAD:main",
            "push --force-with-lease origin develop",
            "push --force-if-includes --force-with-lease origin release/1.2",
            "push -fu origin trunk",
            "-C sub push --force origin refs/heads/main",
            "push --force",
            "push -f origin",
            "push --force-with-lease",
            "push --mirror origin",
            "push origin --delete main",
            "push origin :master",
            "push --force --all origin",
            "push -f origin refs/heads/*:refs/heads/*",
            "push -f origin HEAD",
        ] {
            assert!(run(cmd).is_err(), "{cmd}");
        }
        for cmd in [
            "push",
            "push origin main",
            "push -u origin feature/x",
            "push --force-with-lease origin feature/x",
            "push --force origin my-branch",
            "push origin +wip",
            "push origin --delete old-feature",
            "push --tags",
            "push --tags --force origin",
            "push --dry-run --force",
            "push -o ci.skip origin feature/y",
            "status",
        ] {
            assert_eq!(run(cmd), Ok(()), "{cmd}");
        }
    }

    #[test]
    fn configured_branches_are_protected_and_main_always_is() {
        let p = Protected::new(&["prod".to_owned()]).unwrap();
        assert!(check(&["push", "-f", "origin", "prod"], None, &p).is_err());
        assert!(check(&["push", "-f", "origin", "main"], None, &p).is_err());
        assert!(check(&["push", "-f", "origin", "develop"], None, &p).is_ok());
    }
}
