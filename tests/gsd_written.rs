//! Files GSD itself writes lint clean: a tree built from the templates of
//! the installed get-shit-done-cc package (its `get-shit-done/templates/`:
//! PROJECT, REQUIREMENTS, ROADMAP, STATE, config.json, a plan, its summary,
//! the phase's context, research, validation, UAT and verification report),
//! with the template's placeholders filled the way GSD's workflows fill
//! them. No rule may report an error or a warning on it; then one change a
//! rule exists for is made, and that rule must fire — so the test cannot
//! pass by linting nothing.

mod common;

use std::path::{Path, PathBuf};

/// The package's templates folder, found from the gsd-sdk that `.ci/test`
/// installs (`GSD_SDK`).
fn templates() -> PathBuf {
    let sdk = std::env::var_os("GSD_SDK").expect("GSD_SDK (bash .ci/gsd-sdk) names gsd-sdk");
    let bin = std::fs::canonicalize(PathBuf::from(sdk)).unwrap();
    for dir in bin.ancestors() {
        let t = dir.join("get-shit-done/templates");
        if t.join("phase-prompt.md").is_file() {
            return t;
        }
        let t = dir.join("node_modules/get-shit-done-cc/get-shit-done/templates");
        if t.join("phase-prompt.md").is_file() {
            return t;
        }
    }
    panic!("no get-shit-done/templates above {}", bin.display());
}

/// The first fenced block of `lang` in a template (its file template).
fn block(text: &str, lang: &str) -> String {
    let open = format!("```{lang}");
    let mut out = String::new();
    let mut inside = false;
    // Fences inside the template open with a language and close bare.
    let mut depth = 0usize;
    for line in text.lines() {
        let l = line.trim_end();
        if !inside {
            inside = l == open;
            continue;
        }
        if l == "```" {
            if depth == 0 {
                break;
            }
            depth -= 1;
        } else if l.starts_with("```") {
            depth += 1;
        }
        out.push_str(line);
        out.push('\n');
    }
    assert!(!out.is_empty(), "no ```{lang} block");
    out
}

/// Placeholders filled as GSD's workflows fill them.
fn fill(text: &str) -> String {
    let mut t = text
        .replace("phase: XX-name", "phase: 01-core")
        .replace("plan: NN", "plan: 01")
        .replace("wave: N ", "wave: 1 ")
        .replace("XX-name", "01-core")
        .replace("[Project Name]", "Shop");
    // `requirements: []` is "REQUIRED — MUST NOT be empty" in the template;
    // the planner derives must_haves; the template's tasks show every task
    // type, checkpoints included, so the plan is not autonomous.
    t = t
        .replace("requirements: []  ", "requirements: [REQ-01]")
        .replace(
            "artifacts: []  ",
            "artifacts: [{path: src/core.ts, provides: core module}]",
        )
        .replace("autonomous: true ", "autonomous: false ");
    t
}

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(".planning").join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

#[test]
#[cfg_attr(
    not(gsd_sdk),
    ignore = "needs the get-shit-done-cc package (bash .ci/gsd-sdk; .ci/test sets GSD_SDK)"
)]
fn a_tree_written_from_gsds_own_templates_lints_clean() {
    let tpl = templates();
    let read = |name: &str| std::fs::read_to_string(tpl.join(name)).unwrap();
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    common::git(root, &["init", "-q", "-b", "main"]);
    write(
        root,
        "PROJECT.md",
        &fill(&block(&read("project.md"), "markdown")),
    );
    write(
        root,
        "REQUIREMENTS.md",
        &fill(&block(&read("requirements.md"), "markdown")),
    );
    write(
        root,
        "ROADMAP.md",
        &fill(&block(&read("roadmap.md"), "markdown")),
    );
    write(
        root,
        "STATE.md",
        &fill(&block(&read("state.md"), "markdown")),
    );
    write(root, "config.json", &read("config.json"));
    let phase = "phases/01-core";
    // The roadmap template lists three plans for phase 1.
    let plan = fill(&block(&read("phase-prompt.md"), "markdown"));
    for n in ["01", "02", "03"] {
        write(
            root,
            &format!("{phase}/01-{n}-PLAN.md"),
            &plan.replacen("plan: 01", &format!("plan: {n}"), 1),
        );
    }
    // GSD's planner now opens a plan with a tracer task; a quick task is a
    // plan of its own under `quick/`.
    write(
        root,
        &format!("{phase}/01-02-PLAN.md"),
        &plan.replacen("plan: 01", "plan: 02", 1).replacen(
            "<task type=\"auto\">",
            "<task type=\"tracer\">",
            1,
        ),
    );
    write(
        root,
        "quick/260101-abc-fix-login/260101-abc-PLAN.md",
        &plan.replacen("type: execute", "type: quick", 1),
    );
    for (tpl_name, file) in [
        ("context.md", "01-CONTEXT.md"),
        ("research.md", "01-RESEARCH.md"),
        ("VALIDATION.md", "01-VALIDATION.md"),
        ("UAT.md", "01-UAT.md"),
        ("verification-report.md", "01-VERIFICATION.md"),
    ] {
        let text = read(tpl_name);
        let body = if text.contains("```markdown") {
            block(&text, "markdown")
        } else {
            text
        };
        write(root, &format!("{phase}/{file}"), &fill(&body));
    }
    let o = common::gsd(root, &["lint", "--format", "json"]);
    let v = common::json(&o);
    let loud: Vec<&serde_json::Value> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["severity"] != "info")
        .collect();
    assert!(
        loud.is_empty(),
        "GSD's own templates give errors or warnings: {:#?}",
        loud
    );
    let checked = v["summary"]["files"].as_u64().unwrap_or(0);
    assert!(checked >= 10, "only {checked} files linted: {v}");

    // A rule still fires on the same tree: the plan's wave is not a number.
    let plan = root.join(".planning").join(phase).join("01-01-PLAN.md");
    let text = std::fs::read_to_string(&plan).unwrap();
    std::fs::write(&plan, text.replacen("wave: 1 ", "wave: one ", 1)).unwrap();
    let (code, diags) = common::lint(root);
    assert_eq!(code, 1);
    assert!(common::codes(&diags).contains(&"plan-field-type".to_owned()));
}
