//! Test helpers: copy a fixture tree to a temp dir and run the real binary.
#![allow(dead_code)]

pub mod claude_cli;
pub mod mock_model;

use std::path::{Path, PathBuf};
use std::process::Output;

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// A temp copy of a fixture tree.
pub fn tree(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&fixture(name), dir.path());
    dir
}

pub fn gsd(dir: &Path, args: &[&str]) -> Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_gsd"))
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .unwrap()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\nstderr: {}", stdout(o), stderr(o)))
}

/// Lint a tree and return (exit code, diagnostics).
pub fn lint(dir: &Path) -> (i32, Vec<serde_json::Value>) {
    let o = gsd(dir, &["lint", "--format", "json"]);
    let v = json(&o);
    (
        o.status.code().unwrap_or(-1),
        v["diagnostics"].as_array().unwrap().clone(),
    )
}

pub fn codes(diags: &[serde_json::Value]) -> Vec<String> {
    diags
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_owned())
        .collect()
}

pub fn git(dir: &Path, args: &[&str]) -> String {
    let o = std::process::Command::new("git")
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A writable copy of a fixture tree in a fresh repository with one commit.
pub fn repo_of(name: &str) -> tempfile::TempDir {
    let t = tree(name);
    git(t.path(), &["init", "-q", "-b", "main"]);
    git(t.path(), &["config", "user.email", "test@example.com"]);
    git(t.path(), &["config", "user.name", "Test"]);
    git(t.path(), &["add", "-A"]);
    git(t.path(), &["commit", "-qm", "init"]);
    t
}
