//! Ralph loops on 100 real plans. The plans come from ../shared/corpus by a
//! fixed rule (every plan of every tree, sorted, then evenly spaced); each
//! runs in a fresh `git init` holding a copy of its tree, with a scripted
//! agent that does some work and claims the promise every iteration. A loop
//! may end at its cap only because a check gsd ran failed as a command
//! fails — never because a check that is not a command was run: such a
//! check fails with "not found" or a shell syntax error on every iteration,
//! which is exactly the endless loop the check kinds exist to prevent.
//!
//! The toolchains the plans name (npm, npx, pnpm, yarn, bun, curl, docker…)
//! are stand-ins on PATH that fail at once: the test must not reach the
//! network or build anything, and a failing real command is what a loop
//! on an unbuilt project meets anyway.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::*;
use serde_json::Value;

/// How many plans the run takes.
const SAMPLE: usize = 100;

/// Every plan of every corpus tree (tree, path inside the tree), sorted.
fn all_plans(trees: &[PathBuf]) -> Vec<(PathBuf, PathBuf)> {
    let mut all = Vec::new();
    for tree in trees {
        let ws = gsd::model::workspace::Workspace::load(tree)
            .unwrap_or_else(|e| panic!("{}: {e}", tree.display()));
        for plan in ws.all_plans() {
            let rel = plan
                .doc
                .path()
                .strip_prefix(tree)
                .unwrap_or(plan.doc.path())
                .to_path_buf();
            // Archived milestones are history, not something to run.
            if !rel.starts_with(".planning/milestones") {
                all.push((tree.clone(), rel));
            }
        }
    }
    all.sort();
    all
}

/// Tools that fail at once, ahead of the machine's on PATH: builds, package managers and
/// the network (a plan's `scp` to a host on its author's LAN would wait out every check's
/// timeout, three checks a verification).
fn stand_ins(dir: &Path) -> String {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for tool in [
        "npm", "npx", "pnpm", "yarn", "bun", "deno", "curl", "wget", "docker", "make", "go",
        "pytest", "uv", "poetry", "pip", "pip3", "gradle", "mvn", "flutter", "dotnet", "php",
        "composer", "supabase", "vercel", "firebase", "psql", "sqlite3", "ssh", "scp", "sftp",
        "rsync",
    ] {
        let p = bin.join(tool);
        std::fs::write(
            &p,
            format!("#!/bin/sh\necho '{tool}: a stand-in that fails' >&2\nexit 1\n"),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    format!("{}:/usr/bin:/bin", bin.display())
}

/// An agent that writes a note (progress) and claims the promise.
fn agent(dir: &Path) -> String {
    let p = dir.join("agent.sh");
    std::fs::write(
        &p,
        "cat > /dev/null\n\
         echo \"iteration by the scripted agent\" >> agent-notes.txt\n\
         echo '{\"type\":\"result\",\"result\":\"done <promise>DONE</promise>\",\"total_cost_usd\":0.01}'\n",
    )
    .unwrap();
    format!("sh {}", p.display())
}

/// A fresh repository holding a copy of `tree`'s `.planning/`.
fn fresh_copy(tree: &Path) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let o = Command::new("cp")
        .arg("-a")
        .arg(tree.join(".planning"))
        .arg(d)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    git(d, &["init", "-q", "-b", "main"]);
    git(d, &["config", "user.email", "user@example.com"]);
    git(d, &["config", "user.name", "User"]);
    git(d, &["add", "-A"]);
    git(d, &["commit", "-qm", "the tree as found", "--no-verify"]);
    t
}

/// A pre-flight problem without the names in it, to count like ones together.
fn problem_class(p: &str) -> String {
    let head: String = p.split([':', '(']).next().unwrap_or(p).trim().to_owned();
    head.split_whitespace()
        .filter(|w| !w.chars().any(|c| c.is_ascii_digit()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// How one loop ended.
struct Ended {
    plan: String,
    how: String,
    /// The failing checks of the last verification: (command, reason).
    failing: Vec<(String, String)>,
    /// Checks gsd did not run, by kind, from the loop's state.
    kinds: BTreeMap<String, usize>,
}

fn run_one(tree: &Path, rel: &Path, agent: &str, path: &str) -> Ended {
    let t = fresh_copy(tree);
    let d = t.path();
    let mut c = Command::new(env!("CARGO_BIN_EXE_gsd"));
    c.arg("-C")
        .arg(d)
        .args(["ralph", "run"])
        .arg(rel)
        .args([
            "--headless",
            "--max-iterations",
            "2",
            "--check-timeout",
            "20",
            "--agent-cmd",
            agent,
        ])
        .env("PATH", path);
    let o = wait_limited(c, Duration::from_secs(300));
    let events: Vec<Value> = stdout(&o)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let name = format!(
        "{}/{}",
        tree.file_name().unwrap().to_string_lossy(),
        rel.display()
    );
    let last = events.last().cloned().unwrap_or(Value::Null);
    let how = match last["event"].as_str() {
        Some("failed") if last["reason"] == "preflight" => format!(
            "failed: preflight: {}",
            last["problems"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| problem_class(p.as_str().unwrap_or("")))
                .collect::<Vec<_>>()
                .join("; ")
        ),
        Some("failed") => format!("failed: {}", last["reason"].as_str().unwrap_or("?")),
        Some(e) => e.to_owned(),
        None => format!("no events (exit {:?}): {}", o.status.code(), stderr(&o)),
    };
    let failing = events
        .iter()
        .rev()
        .find(|e| e["event"] == "verification")
        .map(|v| {
            v["checks"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| c["passed"] == false)
                .map(|c| {
                    (
                        c["command"].as_str().unwrap_or("").to_owned(),
                        c["reason"].as_str().unwrap_or("").to_owned(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let mut kinds = BTreeMap::new();
    if let Ok(s) = std::fs::read_to_string(d.join(".gsd/ralph/loop.json"))
        && let Ok(v) = serde_json::from_str::<Value>(&s)
    {
        for c in v["checks"].as_array().into_iter().flatten() {
            *kinds
                .entry(c["kind"].as_str().unwrap_or("command").to_owned())
                .or_default() += 1;
        }
    }
    Ended {
        plan: name,
        how,
        failing,
        kinds,
    }
}

/// A failure that says the check was never a command: sh could not parse
/// it, or its program is no program's name — a file name (`hello.txt`), a
/// word of prose (`Verify`), code (`deleteGarden`, `SELECT`). A program
/// that is simply not installed here (`swiftlint`, `./scripts/build.sh`,
/// which the plan may create) is a real command failing, as it would on a
/// machine without it.
fn never_a_command(command: &str, reason: &str) -> bool {
    if reason.to_lowercase().contains("syntax error") {
        return true;
    }
    if reason != "not found" {
        return false;
    }
    let program = command
        .split_whitespace()
        .find(|w| !w.contains('='))
        .unwrap_or("");
    let path_like = program.contains('/');
    let name_like = program
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase())
        && program
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-_+".contains(c));
    !(path_like || name_like)
}

#[test]
#[cfg_attr(
    not(gsd_corpus),
    ignore = "needs real planning trees in GSD_CORPUS (bash .ci/test sets it to ../shared/corpus)"
)]
fn a_hundred_real_plans_never_loop_to_the_cap_on_a_check_that_is_not_a_command() {
    let trees = corpus_trees().expect("GSD_CORPUS is set");
    let plans = all_plans(&trees);
    assert!(plans.len() >= SAMPLE, "{} plans", plans.len());
    let step = plans.len() as f64 / SAMPLE as f64;
    let sample: Vec<&(PathBuf, PathBuf)> = (0..SAMPLE)
        .map(|i| &plans[(i as f64 * step) as usize])
        .collect();
    let scratch = tempfile::tempdir().unwrap();
    let path = stand_ins(scratch.path());
    let agent = agent(scratch.path());
    // Two workers: the machine has two cores.
    let ended: Vec<Ended> = std::thread::scope(|s| {
        let halves: Vec<_> = [0, 1]
            .into_iter()
            .map(|w| {
                let sample = &sample;
                let (agent, path) = (&agent, &path);
                s.spawn(move || {
                    sample
                        .iter()
                        .skip(w)
                        .step_by(2)
                        .map(|(tree, rel)| run_one(tree, rel, agent, path))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        halves.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(ended.len(), SAMPLE);

    let mut by_end: BTreeMap<String, usize> = BTreeMap::new();
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut with_other_kinds = 0;
    let mut bad = Vec::new();
    for e in &ended {
        *by_end.entry(e.how.clone()).or_default() += 1;
        for (k, n) in &e.kinds {
            *kinds.entry(k.clone()).or_default() += n;
        }
        if e.kinds.keys().any(|k| k != "command") {
            with_other_kinds += 1;
        }
        assert!(!e.how.starts_with("no events"), "{}: {}", e.plan, e.how);
        if e.how == "failed: max_iterations" {
            // At the cap only on a real command's failure.
            let real = e.failing.iter().any(|(c, r)| !never_a_command(c, r));
            if !real {
                bad.push(format!("{}: {:?}", e.plan, e.failing));
            }
        }
    }
    println!(
        "{} plans, one loop each (2 iterations at most)\n",
        ended.len()
    );
    println!("| how the loop ended | loops |\n|---|---:|");
    for (k, n) in &by_end {
        println!("| {k} | {n} |");
    }
    println!("\n| check kind (loops that started) | checks |\n|---|---:|");
    for (k, n) in &kinds {
        println!("| {k} | {n} |");
    }
    println!("\n{with_other_kinds} loops had a check that is not a command.");
    assert!(
        bad.is_empty(),
        "loops that ran to the cap on checks that are not commands:\n{}",
        bad.join("\n")
    );
    // The sample holds the classes the issue names: loops that complete,
    // loops held at the cap by a failing command, and loops with prose.
    assert!(
        by_end.get("complete").copied().unwrap_or(0) > 0,
        "{by_end:?}"
    );
    assert!(with_other_kinds > 0, "{kinds:?}");
}
