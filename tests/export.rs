//! `gsd export html` and `gsd graph`, from the CLI: what the site holds
//! (counted in the HTML and, with Chromium, in the DOM the browser built),
//! that it needs no network and loads without console errors, that bad
//! output folders are refused without touching anything, and that the DOT
//! text is valid Graphviz.

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

fn export(dir: &Path, out: &Path) -> std::process::Output {
    gsd(dir, &["export", "html", out.to_str().unwrap(), "--json"])
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn count(hay: &str, needle: &str) -> usize {
    hay.matches(needle).count()
}

/// Every `href`/`src` that is not a research link stays inside the site and
/// names a file that exists; nothing is fetched from the network.
fn assert_self_contained(page: &Path) {
    let html = read(page);
    assert!(!html.contains("<script"), "{}: no scripts", page.display());
    for attr in ["href=\"", "src=\""] {
        for (i, _) in html.match_indices(attr) {
            let rest = &html[i + attr.len()..];
            // minijinja escapes `/` in attributes; the browser reads it back.
            let target = rest[..rest.find('"').unwrap()]
                .replace("&#x2f;", "/")
                .replace("&amp;", "&");
            let tag_start = html[..i].rfind('<').unwrap();
            let tag_end = i + html[i..].find('>').unwrap();
            let tag = &html[tag_start..tag_end];
            if tag.starts_with("<a ") && tag.contains("rel=\"noreferrer\"") {
                continue; // a research source the reader may follow
            }
            assert!(
                !target.starts_with("http") && !target.starts_with("//"),
                "{}: {target} would use the network",
                page.display()
            );
            let file = target.split('#').next().unwrap();
            if !file.is_empty() {
                let resolved = page.parent().unwrap().join(file);
                assert!(
                    resolved.is_file(),
                    "{}: link {target} is broken",
                    page.display()
                );
            }
        }
    }
}

#[test]
fn the_fixture_exports_an_index_and_one_page_per_phase_folder() {
    let t = tree("clean");
    let out = t.path().join("site");
    let o = export(t.path(), &out);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j = json(&o);
    assert_eq!(j["phase_pages"], 5);
    let index = read(&out.join("index.html"));
    // Two milestones, the four current phases and the backlog one.
    assert_eq!(count(&index, "<details class=\"milestone"), 2);
    assert_eq!(
        count(&index, "<tr class=\"phase"),
        j["phases_listed"].as_u64().unwrap() as usize
    );
    assert_eq!(
        count(&index, "class=\"bar\""),
        1 + 2 + count(&index, "<tr class=\"phase")
    );
    assert!(
        index.contains("href=\"phases&#x2f;01-foundation.html\">Foundation</a>"),
        "{index}"
    );
    // minijinja writes `/` as `&#x2f;`; read the text as a browser would.
    let phase = read(&out.join("phases/01-foundation.html")).replace("&#x2f;", "/");
    assert_eq!(count(&phase, "<svg class=\"plan-graph\""), 1);
    assert_eq!(count(&phase, "<g class=\"plan"), 2, "one box per plan");
    assert_eq!(count(&phase, "class=\"edge\""), 1, "01-02 depends on 01-01");
    assert_eq!(count(&phase, "<article class=\"plan-card"), 2);
    for needed in [
        "Create the user model.",
        "User can sign up",
        "src/models.rs: User model",
        "Wave 2",
    ] {
        assert!(phase.contains(needed), "phase page lacks {needed}");
    }
    for page in std::iter::once(out.join("index.html")).chain(
        std::fs::read_dir(out.join("phases"))
            .unwrap()
            .map(|e| e.unwrap().path()),
    ) {
        assert_self_contained(&page);
    }
}

#[test]
fn text_from_the_tree_is_escaped() {
    let t = tree("clean");
    let plan = t
        .path()
        .join(".planning/phases/01-foundation/01-01-PLAN.md");
    let text = read(&plan).replace(
        "Create the user model.",
        "Create <script>alert(1)</script> & \"quote\".",
    );
    std::fs::write(&plan, text).unwrap();
    let out = t.path().join("site");
    assert_eq!(export(t.path(), &out).status.code(), Some(0));
    let phase = read(&out.join("phases/01-foundation.html"));
    assert!(!phase.contains("<script>"), "raw markup reached the page");
    assert!(
        phase.contains("Create &lt;script&gt;alert(1)&lt;/script&gt; &amp;"),
        "{phase}"
    );
}

#[test]
fn bad_output_folders_are_refused_and_left_alone() {
    let t = tree("clean");
    // Inside .planning/.
    let o = export(t.path(), &t.path().join(".planning/site"));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("inside .planning/"), "{}", stderr(&o));
    assert!(!t.path().join(".planning/site").exists());
    // A folder of someone else's.
    let theirs = t.path().join("docs");
    std::fs::create_dir_all(&theirs).unwrap();
    std::fs::write(theirs.join("index.html"), "mine").unwrap();
    let o = export(t.path(), &theirs);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("not a previous gsd export"),
        "{}",
        stderr(&o)
    );
    assert_eq!(read(&theirs.join("index.html")), "mine");
    assert_eq!(std::fs::read_dir(&theirs).unwrap().count(), 1);
    // A previous export is replaced, and a removed phase leaves no page.
    let out = t.path().join("site");
    assert_eq!(export(t.path(), &out).status.code(), Some(0));
    std::fs::remove_dir_all(t.path().join(".planning/phases/12A-variant")).unwrap();
    assert_eq!(export(t.path(), &out).status.code(), Some(0));
    assert!(!out.join("phases/12A-variant.html").exists());
    assert!(out.join("phases/01-foundation.html").exists());
}

#[test]
fn graph_prints_mermaid_dot_and_json_with_computed_waves() {
    let t = tree("clean");
    // A phase whose plans give no wave: the waves follow depends_on, a
    // cycle ends, and a dependency that names nothing is reported.
    let dir = t.path().join(".planning/phases/02-api");
    for (n, deps) in [
        ("02", "[02-01]"),
        ("03", "[02-02, 02-09]"),
        ("04", "[02-05]"),
        ("05", "[02-04]"),
    ] {
        std::fs::write(
            dir.join(format!("02-{n}-PLAN.md")),
            format!("---\nphase: 02-api\nplan: {n}\ntype: execute\ndepends_on: {deps}\n---\n\n<objective>\nPlan {n}.\n</objective>\n"),
        )
        .unwrap();
    }
    let o = gsd(t.path(), &["graph", "--phase", "2", "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let g = &json(&o)["phases"][0];
    let waves: Vec<(String, u64)> = g["plans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["id"].as_str().unwrap().to_owned(),
                p["wave"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        &waves[..3],
        &[
            ("02-01".into(), 1),
            ("02-02".into(), 2),
            ("02-03".into(), 3)
        ]
    );
    assert_eq!(g["plans"][2]["unresolved"], serde_json::json!(["02-09"]));

    let m = stdout(&gsd(t.path(), &["graph", "--phase", "2"]));
    assert!(m.starts_with("flowchart LR\n"), "{m}");
    assert_eq!(count(&m, " --> "), 4, "{m}");
    let d = stdout(&gsd(t.path(), &["graph", "--format", "dot"]));
    assert!(
        d.starts_with("digraph gsd {") && d.trim_end().ends_with('}'),
        "{d}"
    );

    let o = gsd(t.path(), &["graph", "--phase", "77"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("77"), "{}", stderr(&o));
}

#[test]
#[cfg_attr(
    not(gsd_dot),
    ignore = "needs Graphviz's dot in GSD_DOT (bash .ci/test installs it)"
)]
fn graphviz_reads_the_dot_graph() {
    let t = tree("clean");
    let d = gsd(t.path(), &["graph", "--format", "dot"]);
    let dot = std::env::var_os("GSD_DOT").unwrap();
    let o = with_stdin(
        {
            let mut c = Command::new(dot);
            c.arg("-Tsvg");
            c
        },
        &d.stdout,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stderr(&o), "", "dot warnings");
    let svg = stdout(&o);
    assert_eq!(count(&svg, "class=\"node\""), 3, "one node per plan");
    assert_eq!(count(&svg, "class=\"edge\""), 1);
    assert_eq!(
        count(&svg, "class=\"cluster\""),
        2,
        "one cluster per phase with plans"
    );
}

/// A tree of `n` phases in two milestones, three plans each (two in wave 1,
/// one in wave 2 depending on both); the first 70% have summaries.
pub fn big_tree(n: usize) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    let planning = t.path().join(".planning");
    let half = n / 2;
    let mut rm = format!(
        "# Roadmap: Big\n\n## Milestones\n\n- ✅ **v1.0 First** - Phases 1-{half} (shipped 2026-01-01)\n- 🚧 **v2.0 Second** - Phases {}-{n} (in progress)\n\n## Phases\n\n",
        half + 1
    );
    for p in 1..=n {
        let _ = writeln!(
            rm,
            "- [{}] **Phase {p}: Phase number {p}** - desc",
            if p <= half { "x" } else { " " }
        );
    }
    rm.push_str("\n## Phase Details\n");
    for p in 1..=n {
        let dir = planning.join(format!("phases/{p:04}-phase-number-{p}"));
        std::fs::create_dir_all(&dir).unwrap();
        let _ = write!(
            rm,
            "\n### Phase {p}: Phase number {p}\n**Goal**: goal {p}\n**Plans**: 3 plans\n"
        );
        for (m, wave, deps) in [
            (1, 1, "[]".to_owned()),
            (2, 1, "[]".to_owned()),
            (3, 2, format!("[{p:04}-01, {p:04}-02]")),
        ] {
            std::fs::write(
                dir.join(format!("{p:04}-{m:02}-PLAN.md")),
                format!(
                    "---\nphase: {p:04}-phase-number-{p}\nplan: {m:02}\ntype: execute\nwave: {wave}\ndepends_on: {deps}\nfiles_modified: [src/p{p}_{m}.rs]\nautonomous: true\nmust_haves:\n  truths:\n    - \"Plan {m} of phase {p} works\"\n---\n\n<objective>\nBuild part {m} of phase {p}.\n</objective>\n\n<tasks>\n<task type=\"auto\">\n  <name>Task 1: part {m}</name>\n  <files>src/p{p}_{m}.rs</files>\n  <action>Write it.</action>\n  <verify><automated>test -f src/p{p}_{m}.rs</automated></verify>\n  <done>It exists.</done>\n</task>\n</tasks>\n"
                ),
            )
            .unwrap();
            if p * 10 <= n * 7 {
                std::fs::write(
                    dir.join(format!("{p:04}-{m:02}-SUMMARY.md")),
                    format!("---\nphase: {p:04}-phase-number-{p}\nplan: {m:02}\nsubsystem: core\ntags: []\nduration: 5min\ncompleted: 2026-01-01\n---\n\n# Phase {p} Plan {m}: Summary\n\n**Part {m} built**\n"),
                )
                .unwrap();
            }
        }
    }
    std::fs::write(planning.join("ROADMAP.md"), rm).unwrap();
    std::fs::write(
        planning.join("PROJECT.md"),
        "# Big Project\n\n## What This Is\n\nA big tree.\n",
    )
    .unwrap();
    t
}

#[test]
fn a_thousand_phase_tree_exports_every_phase() {
    let t = big_tree(1000);
    let out = t.path().join("site");
    let o = export(t.path(), &out);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(json(&o)["phase_pages"], 1000);
    let index = read(&out.join("index.html"));
    assert_eq!(count(&index, "<tr class=\"phase"), 1000);
    assert_eq!(count(&index, "class=\"bar\""), 1 + 2 + 1000);
    assert_eq!(count(&index, "<details class=\"milestone"), 2);
    let pages = std::fs::read_dir(out.join("phases")).unwrap().count();
    assert_eq!(pages, 1000);
    let p = read(&out.join("phases/0999-phase-number-999.html"));
    assert_eq!(count(&p, "<svg class=\"plan-graph\""), 1);
    assert_eq!(count(&p, "<g class=\"plan"), 3);
    assert_eq!(count(&p, "class=\"edge\""), 2);
}

// ---- in a real browser ----

fn chromium() -> PathBuf {
    PathBuf::from(
        std::env::var_os("GSD_CHROMIUM")
            .expect("GSD_CHROMIUM is set (this test is ignored without it)"),
    )
}

/// Chromium headless as the machine allows it (no sandbox as root, no
/// background networking), with console messages on stderr.
fn browse(page: &Path, what: &[&str]) -> std::process::Output {
    let profile = tempfile::tempdir().unwrap();
    let mut c = Command::new(chromium());
    c.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--enable-logging=stderr",
        "--v=0",
        "--window-size=1200,1000",
    ])
    .arg(format!("--user-data-dir={}", profile.path().display()))
    .args(what)
    .arg(format!("file://{}", page.display()));
    let o = wait_limited(c, std::time::Duration::from_secs(120));
    assert!(o.status.success(), "chromium: {}", stderr(&o));
    o
}

/// Console lines Chromium logs for the page (errors, failed loads).
fn console_errors(o: &std::process::Output) -> Vec<String> {
    stderr(o)
        .lines()
        .filter(|l| {
            l.contains("CONSOLE")
                || l.contains("ERR_FILE_NOT_FOUND")
                || l.contains("Failed to load resource")
        })
        .map(str::to_owned)
        .collect()
}

/// The DOM the browser built, screenshot kept under target/export-screens/.
fn look_at(page: &Path, shot: &str) -> String {
    let dom = browse(page, &["--dump-dom"]);
    assert_eq!(
        console_errors(&dom),
        Vec::<String>::new(),
        "{}",
        page.display()
    );
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/export-screens");
    std::fs::create_dir_all(&dir).unwrap();
    let png = dir.join(shot);
    let _ = std::fs::remove_file(&png);
    let s = browse(page, &[&format!("--screenshot={}", png.display())]);
    assert_eq!(console_errors(&s), Vec::<String>::new());
    let bytes = std::fs::read(&png).unwrap();
    assert!(
        bytes.starts_with(b"\x89PNG") && bytes.len() > 10_000,
        "a real screenshot"
    );
    stdout(&dom)
}

#[test]
#[cfg_attr(
    not(gsd_chromium),
    ignore = "needs Chromium in GSD_CHROMIUM (bash .ci/test installs it)"
)]
fn chromium_renders_a_thousand_phases_without_errors() {
    let t = big_tree(1000);
    let out = t.path().join("site");
    assert_eq!(export(t.path(), &out).status.code(), Some(0));
    let dom = look_at(&out.join("index.html"), "big-index.png");
    assert_eq!(count(&dom, "<tr class=\"phase"), 1000);
    assert_eq!(count(&dom, "class=\"bar\""), 1003);
    let dom = look_at(
        &out.join("phases/0999-phase-number-999.html"),
        "big-phase.png",
    );
    assert_eq!(count(&dom, "<svg class=\"plan-graph\""), 1);
    assert_eq!(count(&dom, "<g class=\"plan"), 3);
}

#[test]
#[cfg_attr(
    any(not(gsd_chromium), not(gsd_corpus)),
    ignore = "needs Chromium in GSD_CHROMIUM and real planning trees in GSD_CORPUS (bash .ci/test sets both)"
)]
fn chromium_renders_a_corpus_tree_without_errors() {
    // A real tree with shipped milestones, archived phases and research.
    let corpus = PathBuf::from(std::env::var_os("GSD_CORPUS").unwrap());
    let src = corpus.join("davidromeo+tradeblocks");
    assert!(
        src.join(".planning").is_dir(),
        "{} is in the corpus",
        src.display()
    );
    let t = tempfile::tempdir().unwrap();
    copy_dir(&src.join(".planning"), &t.path().join(".planning"));
    let out = t.path().join("site");
    let o = export(t.path(), &out);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j = json(&o);
    let pages = j["phase_pages"].as_u64().unwrap() as usize;
    assert!(pages > 0);
    let dom = look_at(&out.join("index.html"), "corpus-index.png");
    let listed = count(&dom, "<tr class=\"phase");
    assert_eq!(listed, j["phases_listed"].as_u64().unwrap() as usize);
    let milestones = count(&dom, "<details class=\"milestone");
    assert_eq!(count(&dom, "class=\"bar\""), 1 + milestones + listed);
    // Every phase page has its one graph.
    let mut first = None;
    for e in std::fs::read_dir(out.join("phases")).unwrap() {
        let p = e.unwrap().path();
        assert_eq!(
            count(&read(&p), "<svg class=\"plan-graph\""),
            1,
            "{}",
            p.display()
        );
        first = first.or(Some(p));
    }
    let phase_page = first.unwrap();
    let dom = look_at(&phase_page, "corpus-phase.png");
    assert_eq!(count(&dom, "<svg class=\"plan-graph\""), 1);
}

/// The export's pages come from templates a project can override, and a
/// broken override is named with its line, like every template.
#[test]
fn an_ejected_export_template_is_used_and_a_broken_one_is_named() {
    let t = tree("clean");
    let o = gsd(t.path(), &["templates", "eject", "export-phase.html"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let over = t.path().join(".planning/templates/export-phase.html.j2");
    let text = read(&over).replace("<main>", "<main><p class=\"house\">Our style</p>");
    std::fs::write(&over, text).unwrap();
    let out = t.path().join("site");
    assert_eq!(export(t.path(), &out).status.code(), Some(0));
    assert!(read(&out.join("phases/02-api.html")).contains("<p class=\"house\">Our style</p>"));

    std::fs::write(
        &over,
        "<html>\n{% for p in waves %}\n{{ p.wave }\n{% endfor %}\n",
    )
    .unwrap();
    let o = export(t.path(), &out);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("export-phase.html.j2") && stderr(&o).contains("line 3"),
        "{}",
        stderr(&o)
    );
}

/// `gsd plan list --wave N --pending --json`: what a CI matrix runs, with
/// the same waves `gsd graph` computes.
#[test]
fn plan_list_by_wave_gives_a_ci_matrix() {
    let t = tree("clean");
    let dir = t.path().join(".planning/phases/02-api");
    for (n, deps) in [("02", "[02-01]"), ("03", "[]"), ("04", "[02-02]")] {
        std::fs::write(
            dir.join(format!("02-{n}-PLAN.md")),
            format!("---\nphase: 02-api\nplan: {n}\ntype: execute\ndepends_on: {deps}\n---\n\n<objective>\nPlan {n}.\n</objective>\n"),
        )
        .unwrap();
    }
    let ids = |args: &[&str]| -> Vec<String> {
        let o = gsd(t.path(), args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        json(&o)["plans"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["id"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        ids(&["plan", "list", "--phase", "2", "--wave", "1", "--json"]),
        ["02-01", "02-03"]
    );
    assert_eq!(
        ids(&["plan", "list", "--phase", "2", "--wave", "2", "--json"]),
        ["02-02"]
    );
    assert_eq!(
        ids(&["plan", "list", "--phase", "2", "--wave", "3", "--json"]),
        ["02-04"]
    );
    // Phase 1's plans have summaries: nothing pending there.
    assert_eq!(
        ids(&["plan", "list", "--phase", "1", "--pending", "--json"]),
        Vec::<String>::new()
    );
    assert_eq!(ids(&["plan", "list", "--phase", "1", "--json"]).len(), 2);
    let graph = json(&gsd(
        t.path(),
        &["graph", "--phase", "2", "--format", "json"],
    ));
    for p in graph["phases"][0]["plans"].as_array().unwrap() {
        let listed = json(&gsd(t.path(), &["plan", "list", "--phase", "2", "--json"]));
        let row = listed["plans"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == p["id"])
            .unwrap()
            .clone();
        assert_eq!(
            row["run_wave"], p["wave"],
            "plan list and graph agree on {}",
            p["id"]
        );
    }
}
