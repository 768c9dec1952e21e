//! `gsd sdk …` from the command line, without npm: the multicall name, the
//! fallback to a gsd-sdk (a script standing in for it) and its refusal, the
//! shim's install and uninstall (and what they refuse), coverage over a
//! package folder, and the bad inputs gsd-sdk itself rejects.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output};

use common::{git, tree};
use serde_json::Value;

fn gsd_in(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gsd"));
    c.current_dir(dir)
        .args(args)
        .env_remove("GSD_SDK_REAL")
        .env_remove("GSD_SDK_FALLBACK")
        .env_remove("GSD_PROJECT")
        .env_remove("CLAUDE_ENV_FILE");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A stand-in for npm's gsd-sdk that echoes what it was asked.
fn fake_gsd_sdk(dir: &Path) -> std::path::PathBuf {
    let p = dir.join("gsd-sdk");
    std::fs::write(
        &p,
        "#!/bin/sh\necho \"{\\\"fake\\\": \\\"$*\\\"}\"\necho 'fake warning' >&2\nexit 3\n",
    )
    .unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p
}

#[test]
fn a_covered_command_answers_as_gsd_sdk_and_as_the_multicall_name() {
    let t = tree("clean");
    let o = gsd_in(
        t.path(),
        &["sdk", "query", "state", "load", "--pick", "state_exists"],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "true\n");
    // The same binary started as `gsd-sdk` (what `install-shim` links).
    let bin = tempfile::tempdir().unwrap();
    let link = bin.path().join("gsd-sdk");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_gsd"), &link).unwrap();
    let o = Command::new(&link)
        .current_dir(t.path())
        .args(["query", "roadmap.get-phase", "1", "--pick", "found"])
        .output()
        .unwrap();
    assert_eq!(text(&o.stdout), "true\n", "{}", text(&o.stderr));
    let o = Command::new(&link)
        .current_dir(t.path())
        .args(["query", "frontmatter.get", "../../etc/passwd"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["error"], "path escapes project directory");
}

#[test]
fn uncovered_commands_go_to_gsd_sdk_or_fail_naming_the_command() {
    let t = tree("clean");
    let fake_dir = tempfile::tempdir().unwrap();
    let fake = fake_gsd_sdk(fake_dir.path());
    let real = fake.to_str().unwrap();
    // Handed on: its stdout and exit code unchanged, one notice line first.
    let o = gsd_in(
        t.path(),
        &["sdk", "query", "phase.complete", "7"],
        &[("GSD_SDK_REAL", real)],
    );
    assert_eq!(o.status.code(), Some(3));
    assert_eq!(text(&o.stdout), "{\"fake\": \"query phase.complete 7\"}\n");
    let err = text(&o.stderr);
    assert!(
        err.starts_with("gsd: `phase.complete` is not covered by gsd; handing it to"),
        "{err}"
    );
    assert!(err.contains("fake warning"), "{err}");
    // A workstream call goes there too, even for a covered command.
    let o = gsd_in(
        t.path(),
        &["sdk", "query", "state.load", "--ws", "alpha"],
        &[("GSD_SDK_REAL", real)],
    );
    assert_eq!(
        text(&o.stdout),
        "{\"fake\": \"query state.load --ws alpha\"}\n"
    );
    // Switched off: an error naming the command, nothing run.
    for (args, env) in [
        (
            &["sdk", "query", "--no-fallback", "phase.complete", "x"][..],
            &[("GSD_SDK_REAL", real)][..],
        ),
        (
            &["sdk", "query", "phase.complete", "x"],
            &[("GSD_SDK_REAL", real), ("GSD_SDK_FALLBACK", "off")],
        ),
    ] {
        let o = gsd_in(t.path(), args, env);
        assert_eq!(o.status.code(), Some(10));
        assert!(o.stdout.is_empty());
        assert!(
            text(&o.stderr).contains("`gsd-sdk query phase.complete`"),
            "{}",
            text(&o.stderr)
        );
    }
    // No gsd-sdk anywhere: the error says so.
    let o = gsd_in(
        t.path(),
        &["sdk", "query", "phase.complete", "x"],
        &[("PATH", "/usr/bin:/bin")],
    );
    assert_eq!(o.status.code(), Some(10));
    assert!(
        text(&o.stderr).contains("no gsd-sdk is installed"),
        "{}",
        text(&o.stderr)
    );
    // A command gsd-sdk does not know either.
    let o = gsd_in(
        t.path(),
        &["sdk", "query", "--no-fallback", "nonsense", "foo"],
        &[],
    );
    assert!(
        text(&o.stderr).contains("`gsd-sdk query nonsense foo`"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn bad_inputs_get_gsd_sdk_errors_and_exit_codes() {
    let t = tree("clean");
    // A configured skill, so agent-skills answers text (which --pick cannot pick from).
    std::fs::create_dir_all(t.path().join("skills/house-style")).unwrap();
    std::fs::write(
        t.path().join("skills/house-style/SKILL.md"),
        "# house style\n",
    )
    .unwrap();
    let o = gsd_in(
        t.path(),
        &[
            "sdk",
            "query",
            "config-set",
            "agent_skills.gsd-planner",
            "skills/house-style",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let o = gsd_in(
        t.path(),
        &["sdk", "query", "agent-skills", "gsd-planner"],
        &[],
    );
    assert_eq!(
        text(&o.stdout),
        "<agent_skills>\nRead these user-configured skills:\n- @skills/house-style/SKILL.md\n</agent_skills>\n"
    );
    for (args, code, err) in [
        (
            &["sdk", "query"][..],
            10,
            "Error: \"gsd-sdk query\" requires a command",
        ),
        (
            &["sdk", "query", "state.load", "--pick"],
            10,
            "Error: --pick requires a field name",
        ),
        (
            &["sdk", "query", "config-get"],
            1,
            "Error: Usage: config-get <key.path> [--default <value>]",
        ),
        (
            &["sdk", "query", "config-get", "no.such.key"],
            1,
            "Error: Key not found: no.such.key",
        ),
        (
            &["sdk", "query", "config-set", "workflow.reserch", "true"],
            1,
            "Did you mean: workflow.research?",
        ),
        (
            &["sdk", "query", "state.update", "Status"],
            1,
            "field and value required",
        ),
        (
            &["sdk", "query", "agent-skills", "gsd-planner", "--pick", "x"],
            1,
            "--pick is not supported for text output",
        ),
    ] {
        let o = gsd_in(t.path(), args, &[("GSD_SDK_FALLBACK", "off")]);
        assert_eq!(o.status.code(), Some(code), "{args:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stderr).contains(err),
            "{args:?}: {}",
            text(&o.stderr)
        );
    }
}

#[test]
fn writes_are_exact_and_commit_takes_only_the_named_files() {
    let t = common::repo_of("clean");
    let dir = t.path();
    let state_before = std::fs::read_to_string(dir.join(".planning/STATE.md")).unwrap();
    let o = gsd_in(
        dir,
        &["sdk", "query", "state.update", "Status", "Executing"],
        &[],
    );
    assert_eq!(
        text(&o.stdout),
        "{\n  \"updated\": true\n}\n",
        "{}",
        text(&o.stderr)
    );
    let after = std::fs::read_to_string(dir.join(".planning/STATE.md")).unwrap();
    let changed: Vec<_> = state_before
        .lines()
        .zip(after.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert!(!changed.is_empty() && changed.len() <= 2, "{changed:?}");
    assert_eq!(state_before.lines().count(), after.lines().count());
    // Not committed: the workflow's commit call does that.
    assert!(git(dir, &["status", "--porcelain"]).contains("STATE.md"));
    std::fs::write(dir.join("mine.txt"), "user work\n").unwrap();
    git(dir, &["add", "mine.txt"]);
    let o = gsd_in(
        dir,
        &[
            "sdk",
            "query",
            "commit",
            "docs: status",
            "--files",
            ".planning/STATE.md",
        ],
        &[],
    );
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["committed"], true, "{v}");
    assert_eq!(v["files"], serde_json::json!([".planning/STATE.md"]));
    assert_eq!(
        git(dir, &["show", "--name-only", "--format=", "HEAD"]).trim(),
        ".planning/STATE.md"
    );
    assert_eq!(
        git(dir, &["diff", "--cached", "--name-only"]).trim(),
        "mine.txt"
    );
    // Nothing left to commit, and an empty --files.
    let o = gsd_in(
        dir,
        &[
            "sdk",
            "query",
            "commit",
            "again",
            "--files",
            ".planning/STATE.md",
        ],
        &[],
    );
    assert_eq!(
        serde_json::from_slice::<Value>(&o.stdout).unwrap()["reason"],
        "nothing staged"
    );
    let o = gsd_in(dir, &["sdk", "query", "commit", "x", "--files"], &[]);
    assert_eq!(
        serde_json::from_slice::<Value>(&o.stdout).unwrap()["reason"],
        "--files requires at least one path"
    );
    // config-set: one member added, the rest of the file as it was.
    let cfg = dir.join(".planning/config.json");
    let before = std::fs::read_to_string(&cfg).unwrap_or_default();
    let o = gsd_in(
        dir,
        &["sdk", "query", "config-set", "workflow.tdd_mode", "true"],
        &[],
    );
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["value"], true, "{v} {}", text(&o.stderr));
    let after = std::fs::read_to_string(&cfg).unwrap();
    let parsed: Value = serde_json::from_str(&after).unwrap();
    assert_eq!(parsed["workflow"]["tdd_mode"], true);
    if !before.is_empty() {
        let kept = before
            .lines()
            .filter(|l| after.contains(l.trim_end_matches(',')))
            .count();
        assert!(
            kept + 1 >= before.lines().count(),
            "the old lines stay:\n{before}\n---\n{after}"
        );
    }
}

#[test]
fn the_shim_installs_uninstalls_and_refuses_what_is_not_its_own() {
    let bin = tempfile::tempdir().unwrap();
    let dir = bin.path().to_str().unwrap();
    let path = format!("{dir}:/usr/bin:/bin");
    let o = gsd_in(
        bin.path(),
        &["sdk", "install-shim", dir, "--json"],
        &[("PATH", &path)],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["changed"], true);
    assert_eq!(v["active"], true, "{v}");
    let link = bin.path().join("gsd-sdk");
    assert_eq!(
        std::fs::canonicalize(&link).unwrap(),
        std::fs::canonicalize(env!("CARGO_BIN_EXE_gsd")).unwrap()
    );
    // Again: already there, nothing changed.
    let o = gsd_in(
        bin.path(),
        &["sdk", "install-shim", dir, "--json"],
        &[("PATH", &path)],
    );
    assert_eq!(
        serde_json::from_slice::<Value>(&o.stdout).unwrap()["changed"],
        false
    );
    // Not on PATH: installed, with a warning that says so.
    let other = tempfile::tempdir().unwrap();
    let o = gsd_in(
        bin.path(),
        &["sdk", "install-shim", other.path().to_str().unwrap()],
        &[("PATH", "/usr/bin:/bin")],
    );
    // Once for the folder, naming each link it holds.
    assert_eq!(
        text(&o.stderr)
            .matches("is not on this shell's PATH")
            .count(),
        1,
        "{}",
        text(&o.stderr)
    );
    assert!(
        text(&o.stderr).contains("find gsd-sdk, gsd_run, gsd-tools"),
        "{}",
        text(&o.stderr)
    );
    // Uninstall removes only its own link.
    let o = gsd_in(
        bin.path(),
        &["sdk", "install-shim", dir, "--uninstall"],
        &[],
    );
    assert_eq!(o.status.code(), Some(0));
    assert!(!link.exists());
    fake_gsd_sdk(bin.path());
    for args in [
        &["sdk", "install-shim", dir][..],
        &["sdk", "install-shim", dir, "--uninstall"],
    ] {
        let o = gsd_in(bin.path(), args, &[]);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            text(&o.stderr).contains("is not a link to gsd"),
            "{}",
            text(&o.stderr)
        );
        assert!(
            std::fs::read_to_string(&link).unwrap().contains("fake"),
            "npm's file is kept"
        );
    }
}

#[test]
fn coverage_counts_workflow_calls_and_rejects_a_folder_that_is_no_package() {
    let pkg = tempfile::tempdir().unwrap();
    let wf = pkg.path().join("get-shit-done/workflows");
    std::fs::create_dir_all(&wf).unwrap();
    std::fs::create_dir_all(pkg.path().join("agents")).unwrap();
    std::fs::write(pkg.path().join("package.json"), r#"{"version": "9.9.9"}"#).unwrap();
    std::fs::write(
        wf.join("a.md"),
        "```bash\nX=$(gsd-sdk query config-get workflow.research)\ngsd-sdk query state load\ngsd-sdk query phase.complete \"x\"\n```\nSee gsd-sdk query — prose.\n",
    )
    .unwrap();
    std::fs::write(
        pkg.path().join("agents/b.md"),
        "gsd-sdk query roadmap get-phase 3 --pick goal\n",
    )
    .unwrap();
    let o = gsd_in(
        pkg.path(),
        &["sdk", "coverage", pkg.path().to_str().unwrap(), "--json"],
        &[],
    );
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["version"], "9.9.9");
    assert_eq!(v["calls"], 4);
    assert_eq!(v["covered_calls"], 3);
    assert_eq!(v["percent"], 75.0);
    assert_eq!(v["unresolved"].as_array().unwrap().len(), 1);
    let rows = v["rows"].as_array().unwrap();
    assert!(
        rows.iter()
            .any(|r| r["command"] == "phase.complete" && r["covered"] == false)
    );
    let o = gsd_in(pkg.path(), &["sdk", "coverage", "/tmp"], &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("holds neither get-shit-done/workflows nor gsd-core/workflows"),
        "{}",
        text(&o.stderr)
    );
}

/// A tree whose work lives in a workstream: gsd hands the workstream-bound
/// calls to gsd-sdk and answers the workstream-free ones itself. The
/// workstream is the one `active-workstream` names when its folder exists
/// (a dangling or invalid pointer names none, as in gsd-sdk), or the only
/// workstream of a tree without root ROADMAP.md and STATE.md.
#[test]
fn workstream_trees_hand_on_only_workstream_bound_calls() {
    let fake_dir = tempfile::tempdir().unwrap();
    let fake = fake_gsd_sdk(fake_dir.path());
    let real = fake.to_str().unwrap();
    let handed = |dir: &Path, args: &[&str]| {
        let o = gsd_in(dir, args, &[("GSD_SDK_REAL", real)]);
        text(&o.stdout).starts_with("{\"fake\"")
    };
    let t = tree("clean");
    let planning = t.path().join(".planning");
    std::fs::create_dir_all(planning.join("workstreams/alpha")).unwrap();
    std::fs::write(planning.join("active-workstream"), "alpha\n").unwrap();
    let plan = std::fs::read_dir(planning.join("phases"))
        .unwrap()
        .flatten()
        .flat_map(|d| std::fs::read_dir(d.path()).unwrap().flatten())
        .map(|f| f.path())
        .find(|p| p.to_string_lossy().ends_with("-PLAN.md"))
        .expect("a plan");
    let plan = plan
        .strip_prefix(t.path())
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    assert!(handed(t.path(), &["sdk", "query", "state.load"]));
    assert!(handed(t.path(), &["sdk", "query", "roadmap.analyze"]));
    assert!(!handed(
        t.path(),
        &["sdk", "query", "frontmatter.get", &plan]
    ));
    assert!(!handed(t.path(), &["sdk", "query", "generate-slug", "A b"]));
    // With the fallback off, the refusal names the workstream.
    let o = gsd_in(
        t.path(),
        &["sdk", "query", "state.load"],
        &[("GSD_SDK_FALLBACK", "off")],
    );
    assert_eq!(o.status.code(), Some(10));
    assert!(
        text(&o.stderr).contains("on workstream `alpha`"),
        "{}",
        text(&o.stderr)
    );
    // A pointer to a workstream that does not exist names none.
    std::fs::write(planning.join("active-workstream"), "gone\n").unwrap();
    assert!(!handed(t.path(), &["sdk", "query", "state.load"]));
    // Nor does an invalid name.
    std::fs::write(planning.join("active-workstream"), "../alpha\n").unwrap();
    assert!(!handed(t.path(), &["sdk", "query", "state.load"]));
    // No pointer, one workstream, no root ROADMAP/STATE: that workstream.
    std::fs::remove_file(planning.join("active-workstream")).unwrap();
    assert!(!handed(t.path(), &["sdk", "query", "state.load"]));
    std::fs::rename(planning.join("ROADMAP.md"), planning.join("OLD-ROADMAP.md")).unwrap();
    std::fs::rename(planning.join("STATE.md"), planning.join("OLD-STATE.md")).unwrap();
    assert!(handed(t.path(), &["sdk", "query", "state.load"]));
    // Two workstreams and no pointer: none is the tree's.
    std::fs::create_dir_all(planning.join("workstreams/beta")).unwrap();
    assert!(!handed(t.path(), &["sdk", "query", "state.load"]));
}

/// GSD_PROJECT scopes gsd-sdk's planning files to `.planning/<project>/`,
/// which gsd does not read: the calls that read the tree are handed on (the
/// refusal names the project), the pure ones are still answered.
#[test]
fn gsd_project_hands_on_the_calls_that_read_the_tree() {
    let fake_dir = tempfile::tempdir().unwrap();
    let fake = fake_gsd_sdk(fake_dir.path());
    let real = fake.to_str().unwrap();
    let t = tree("clean");
    std::fs::create_dir_all(t.path().join(".planning/web")).unwrap();
    let env = [("GSD_SDK_REAL", real), ("GSD_PROJECT", "web")];
    let o = gsd_in(
        t.path(),
        &["sdk", "query", "config-get", "model_profile"],
        &env,
    );
    assert!(
        text(&o.stdout).starts_with("{\"fake\""),
        "{}",
        text(&o.stdout)
    );
    let o = gsd_in(t.path(), &["sdk", "query", "generate-slug", "A b"], &env);
    assert_eq!(text(&o.stdout), "{\n  \"slug\": \"a-b\"\n}\n");
    let o = gsd_in(
        t.path(),
        &["sdk", "query", "state.load"],
        &[("GSD_SDK_FALLBACK", "off"), ("GSD_PROJECT", "web")],
    );
    assert_eq!(o.status.code(), Some(10));
    assert!(
        text(&o.stderr).contains("under GSD_PROJECT `web`"),
        "{}",
        text(&o.stderr)
    );
    // Set but empty, it scopes nothing.
    let o = gsd_in(
        t.path(),
        &["sdk", "query", "config-get", "model_profile"],
        &[("GSD_SDK_REAL", real), ("GSD_PROJECT", "")],
    );
    assert!(
        !text(&o.stdout).starts_with("{\"fake\""),
        "{}",
        text(&o.stdout)
    );
}
