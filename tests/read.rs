//! Read commands from the CLI, with --json, and their errors.

mod common;

use common::*;

#[test]
fn plan_show_json_by_every_id_form() {
    let dir = fixture("clean");
    let path = dir.join(".planning/phases/01-foundation/01-01-PLAN.md");
    let abs = path.to_str().unwrap();
    for id in [
        "01-01",
        "1-1",
        "01-01-PLAN.md",
        ".planning/phases/01-foundation/01-01-PLAN.md",
        abs,
    ] {
        let o = gsd(&dir, &["plan", "show", id, "--json"]);
        assert_eq!(o.status.code(), Some(0), "{id}: {}", stderr(&o));
        let v = json(&o);
        assert_eq!(v["id"], "01-01", "{id}");
        assert_eq!(v["path"], ".planning/phases/01-foundation/01-01-PLAN.md");
        assert_eq!(v["frontmatter"]["plan"], "01", "leading zero kept");
        assert_eq!(v["frontmatter"]["wave"], 1);
        assert_eq!(
            v["frontmatter"]["must_haves"]["artifacts"][0]["exports"],
            serde_json::json!(["User", "Session"])
        );
        let tasks = v["tasks"].as_array().unwrap();
        assert_eq!(tasks.len(), 1, "the fenced example is not a task");
        let t = &tasks[0];
        assert_eq!(t["type"], "auto");
        assert_eq!(t["name"], "Task 1: User model");
        assert_eq!(
            t["files"],
            serde_json::json!(["src/models.rs", "src/lib.rs"])
        );
        assert!(t["action"].as_str().unwrap().contains("a < b && c > d"));
        assert!(
            t["action"].as_str().unwrap().contains("</task>"),
            "fenced </task> kept inside the action"
        );
        assert_eq!(t["verify"], "<automated>cargo test models</automated>");
        assert_eq!(t["done"], "cargo test models passes");
        assert_eq!(t["line"], 38);
    }
}

#[test]
fn plan_show_crlf_and_checkpoints() {
    let v = json(&gsd(
        &fixture("clean"),
        &["plan", "show", "01-02", "--json"],
    ));
    let tasks = v["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), 2);
    assert_eq!(tasks[1]["type"], "checkpoint:human-verify");
    assert_eq!(
        tasks[0]["action"],
        "Implement `fn login(&self) -> Result<Session, Error>`"
    );
    assert_eq!(v["autonomous"], false);
    assert_eq!(v["depends_on"], serde_json::json!(["01-01"]));
}

#[test]
fn plan_list_and_phase_list() {
    let dir = fixture("clean");
    let v = json(&gsd(&dir, &["plan", "list", "--json"]));
    let ids: Vec<&str> = v["plans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["01-01", "01-02", "02-01"]);
    let v = json(&gsd(&dir, &["plan", "list", "--phase", "2", "--json"]));
    assert_eq!(v["plans"].as_array().unwrap().len(), 1);
    let v = json(&gsd(&dir, &["phase", "list", "--json"]));
    let ids: Vec<&str> = v["phases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["01", "02", "02.1", "12A", "999.1"]);
    assert_eq!(v["phases"][0]["status"], "complete");
    assert_eq!(v["phases"][1]["status"], "planned");
    let text = stdout(&gsd(&dir, &["phase", "list"]));
    assert!(text.contains("01-foundation"), "{text}");
}

#[test]
fn roadmap_json() {
    let v = json(&gsd(&fixture("clean"), &["roadmap", "--json"]));
    assert_eq!(v["total_plans"], 3);
    assert_eq!(v["total_summaries"], 2);
    assert_eq!(v["progress_percent"], 66);
    assert_eq!(v["current_phase"], "2");
    assert_eq!(v["next_phase"], "2.1");
    assert_eq!(v["phase_count"], 4);
    let p0 = &v["phases"][0];
    assert_eq!(
        (p0["number"].as_str(), p0["archived"].as_bool()),
        (Some("0"), Some(true))
    );
    assert_eq!(v["milestones"][1]["version"], "v1.0");
}

#[test]
fn state_and_fm_get() {
    let dir = fixture("clean");
    for name in ["currentPhase", "current_phase", "Phase"] {
        let o = gsd(&dir, &["state", "get", name]);
        assert_eq!(stdout(&o), "2 of 4 (API)\n", "{name}");
    }
    let v = json(&gsd(&dir, &["state", "--json"]));
    assert_eq!(v["current_phase"]["phase"], "02");
    assert_eq!(
        v["decisions"],
        serde_json::json!(["[Phase 0]: Use Rust — one binary"])
    );
    let o = gsd(&dir, &["state", "get", "statuss"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("did you mean"), "{}", stderr(&o));

    let plan = ".planning/phases/01-foundation/01-01-PLAN.md";
    assert_eq!(stdout(&gsd(&dir, &["fm", "get", plan, "plan"])), "01\n");
    assert_eq!(
        stdout(&gsd(&dir, &["fm", "get", plan, "files_modified"])),
        "[src/models.rs, src/lib.rs]\n"
    );
    let v = json(&gsd(
        &dir,
        &["fm", "get", plan, "must_haves.key_links.0", "--json"],
    ));
    assert_eq!(v["pattern"], "mod models");
    let o = gsd(
        &dir,
        &[
            "fm",
            "get",
            ".planning/phases/01-foundation/01-CONTEXT.md",
            "created",
        ],
    );
    assert_eq!(stdout(&o), "2026-01-01\n", "BOM file frontmatter read");
    let mixed = ".planning/phases/02-api/02-CONTEXT.md";
    assert_eq!(
        stdout(&gsd(&dir, &["fm", "get", mixed, "phase"])),
        "02-api\n",
        "mixed line endings read"
    );
    assert_eq!(
        stdout(&gsd(&dir, &["fm", "get", mixed, "created"])),
        "2026-01-04\n"
    );
    let o = gsd(&dir, &["fm", "get", plan, "wav"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("did you mean `wave`"));
}

#[test]
fn read_errors_exit_2() {
    let dir = fixture("clean");
    let o = gsd(&dir, &["plan", "show", "09-09"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("gsd plan list"));
    let o = gsd(&dir, &["plan", "list", "--phase", "77"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("phases: 1, 2, 2.1, 12A, 999.1"),
        "{}",
        stderr(&o)
    );
    let bad = fixture("all-rules");
    let o = gsd(
        &bad,
        &["fm", "get", ".planning/phases/01-alpha/01-08-PLAN.md"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("not valid YAML") && stderr(&o).contains("01-08-PLAN.md:5"),
        "{}",
        stderr(&o)
    );
    let o = gsd(&bad, &["fm", "get", "nope.md"]);
    assert_eq!(o.status.code(), Some(2));
    let o = gsd(&fixture("missing-core"), &["roadmap"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("gsd init"));
    let o = gsd(&dir, &["no-such-command"]);
    assert_eq!(o.status.code(), Some(2));
}

/// The Ralph loop history that gsd writes into STATE.md is a record: its
/// lines are not offered as fields to `state set`, nor listed by `state`.
#[test]
fn ralph_history_lines_are_not_state_fields() {
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(t.path().join(".planning")).unwrap();
    std::fs::write(
        t.path().join(".planning/STATE.md"),
        "# State\n\nStatus: Executing\n\n## Ralph Loop History\n\nLoop abc on plan 05-02: complete after 3 iteration(s) (a → b).\n",
    )
    .unwrap();
    let o = common::gsd(t.path(), &["state", "set", "zzz", "1", "--no-commit"]);
    assert_eq!(o.status.code(), Some(2));
    let err = common::stderr(&o);
    assert!(err.contains("fields: Status"), "{err}");
    assert!(!err.contains("Loop abc"), "{err}");
    let o = common::gsd(t.path(), &["state"]);
    let out = common::stdout(&o);
    let fields = out.split("fields:\n").nth(1).expect("a fields section");
    let fields = fields.split("\n\n").next().unwrap();
    assert_eq!(fields, "  Status: Executing", "{out}");
    assert!(!out.contains("Loop abc"), "{out}");
}

/// `-C DIR` naming a folder that does not exist is an error for every
/// command, even from inside a project: never that project's data, never
/// a write to it. `gsd init` is the exception: it creates the folder.
#[test]
fn a_dash_c_folder_that_does_not_exist_is_an_error_not_the_enclosing_project() {
    let t = tree("clean");
    let before = snapshot_files(t.path());
    for args in [
        &["roadmap"][..],
        &["roadmap", "--json"],
        &["state"],
        &["state", "--json"],
        &["plan", "list"],
        &["phase", "list"],
        &["lint"],
        &["state", "set", "status", "Typo", "--dry-run"],
        &["state", "set", "status", "Typo", "--no-commit"],
    ] {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_gsd"))
            .current_dir(t.path())
            .arg("-C")
            .arg("typo")
            .args(args)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
        assert!(
            stderr(&o).contains("does not exist"),
            "{args:?}: {}",
            stderr(&o)
        );
        assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
    }
    assert_eq!(snapshot_files(t.path()), before, "nothing was written");
    // init makes the folder it is pointed at.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_gsd"))
        .current_dir(t.path())
        .args(["-C", "fresh", "init"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(t.path().join("fresh/.planning/ROADMAP.md").is_file());
}

fn snapshot_files(dir: &std::path::Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((p.clone(), std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

/// The human `gsd state` shows what the README promises: STATE's position
/// and status, the roadmap's reading beside them, every field, the
/// decisions and the blockers.
#[test]
fn human_state_shows_position_reading_fields_decisions_and_blockers() {
    let t = tree("clean");
    let o = gsd(t.path(), &["state"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let v = json(&gsd(t.path(), &["state", "--json"]));
    assert!(out.starts_with("phase: "), "{out}");
    assert!(out.contains("\nroadmap: milestone "), "{out}");
    assert!(out.contains("\nfields:\n"), "{out}");
    for f in v["fields"].as_array().unwrap() {
        let line = format!(
            "  {}: {}",
            f["label"].as_str().unwrap(),
            f["value"].as_str().unwrap()
        );
        assert!(out.contains(&line), "{line} in {out}");
    }
    let decisions = v["decisions"].as_array().unwrap();
    assert!(
        out.contains(&format!("\ndecisions ({}):\n", decisions.len())),
        "{out}"
    );
    for d in decisions {
        assert!(
            out.contains(&format!("  - {}", d.as_str().unwrap())),
            "{out}"
        );
    }
    assert!(out.contains(&format!(
        "\nblockers ({}):\n",
        v["blockers"].as_array().unwrap().len()
    )));
}
