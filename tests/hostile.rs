//! Bad input never panics or hangs: non-UTF-8, huge files, deep YAML, alias
//! bombs (with memory capped), binaries, empty files, a missing ROADMAP.

mod common;

use std::os::unix::process::CommandExt;
use std::process::Command;

use common::*;

fn write(dir: &std::path::Path, rel: &str, bytes: &[u8]) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

/// Run gsd with its address space capped, so a memory blow-up fails the test.
fn gsd_capped(dir: &std::path::Path, args: &[&str], limit: u64) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gsd"));
    cmd.arg("-C").arg(dir).args(args);
    unsafe {
        cmd.pre_exec(move || {
            let lim = libc::rlimit {
                rlim_cur: limit,
                rlim_max: limit,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd.output().unwrap()
}

fn plan_with_frontmatter(yaml: &str) -> Vec<u8> {
    format!("---\n{yaml}\n---\n\n<tasks>\n<task type=\"auto\"><name>T</name><action>a</action></task>\n</tasks>\n").into_bytes()
}

#[test]
fn alias_bomb_is_bounded_in_memory() {
    let t = tree("clean");
    let mut y = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..10 {
        let p = i - 1;
        y.push_str(&format!(
            "a{i}: &a{i} [*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p},*a{p}]\n"
        ));
    }
    write(
        t.path(),
        ".planning/phases/02-api/02-02-PLAN.md",
        &plan_with_frontmatter(&y),
    );
    let o = gsd_capped(t.path(), &["lint", "--format", "json"], 1 << 30);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v = json(&o);
    let d = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "frontmatter-invalid-yaml")
        .unwrap();
    assert!(d["message"].as_str().unwrap().contains("alias"), "{d}");
}

#[test]
fn deeply_nested_yaml_is_a_diagnostic() {
    let t = tree("clean");
    let y = format!("a: {}{}", "[".repeat(100_000), "]".repeat(100_000));
    write(
        t.path(),
        ".planning/phases/02-api/02-02-PLAN.md",
        &plan_with_frontmatter(&y),
    );
    let mut block = String::from("a:\n");
    for i in 1..2000 {
        block.push_str(&" ".repeat(i));
        block.push_str(&format!("k{i}:\n"));
    }
    write(
        t.path(),
        ".planning/phases/02-api/02-03-PLAN.md",
        &plan_with_frontmatter(&block),
    );
    let o = gsd_capped(t.path(), &["lint", "--format", "json"], 1 << 30);
    let v = json(&o);
    let n = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "frontmatter-invalid-yaml")
        .count();
    assert_eq!(n, 2, "{v}");
}

#[test]
fn huge_binary_empty_and_non_utf8_files() {
    let t = tree("clean");
    write(
        t.path(),
        ".planning/research/dump.md",
        &vec![b'a'; 50 * 1024 * 1024],
    );
    write(t.path(), ".planning/cache.db", b"SQLite format 3\0\0\0");
    write(t.path(), ".planning/phases/02-api/02-02-PLAN.md", b"");
    write(
        t.path(),
        ".planning/phases/02-api/02-03-PLAN.md",
        b"---\nphase: 02\n---\n\xff\xfe<task>\n",
    );
    let o = gsd_capped(t.path(), &["lint", "--format", "json"], 1 << 30);
    let v = json(&o);
    let got: Vec<(String, String)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_owned(),
                d["file"]
                    .as_str()
                    .unwrap()
                    .rsplit('/')
                    .next()
                    .unwrap()
                    .to_owned(),
            )
        })
        .collect();
    for want in [
        ("file-too-large", "dump.md"),
        ("binary-file", "cache.db"),
        ("empty-file", "02-02-PLAN.md"),
        ("file-not-utf8", "02-03-PLAN.md"),
    ] {
        assert!(
            got.iter().any(|(c, f)| c == want.0 && f == want.1),
            "{want:?} not in {got:?}"
        );
    }
    assert!(o.status.code() == Some(1), "{}", stderr(&o));
    // Read commands still work on the tree.
    assert_eq!(
        gsd(t.path(), &["plan", "list", "--json"]).status.code(),
        Some(0)
    );
}

#[test]
fn missing_roadmap_and_empty_core_files() {
    let t = tree("clean");
    std::fs::remove_file(t.path().join(".planning/ROADMAP.md")).unwrap();
    std::fs::write(t.path().join(".planning/STATE.md"), "").unwrap();
    std::fs::write(t.path().join(".planning/PROJECT.md"), "\u{feff}").unwrap();
    let (code, diags) = lint(t.path());
    let c = codes(&diags);
    assert_eq!(code, 1);
    assert!(c.contains(&"roadmap-missing".to_owned()));
    assert_eq!(c.iter().filter(|c| *c == "empty-file").count(), 2, "{c:?}");
    assert_eq!(gsd(t.path(), &["state", "--json"]).status.code(), Some(0));
}

#[test]
fn unbalanced_and_odd_task_markup_never_panics() {
    let t = tree("clean");
    let cases: [&[u8]; 6] = [
        b"<task",
        b"</task></task><task type=",
        b"<task type=\"auto\"><name>x</name><action>`unclosed backtick</action></task>",
        b"```\n<task>\n~~~\n</task>\n",
        b"<!-- <task> -->\n<task type='a' type='b'><name/></task>",
        "<task>\u{e9}\u{1f600}<name>\u{e9}</name></task>".as_bytes(),
    ];
    for (i, body) in cases.iter().enumerate() {
        write(
            t.path(),
            &format!(".planning/phases/02-api/02-1{i}-PLAN.md"),
            body,
        );
    }
    let o = gsd(t.path(), &["lint", "--format", "json"]);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", stderr(&o));
    json(&o);
    for i in 0..cases.len() {
        let o = gsd(t.path(), &["plan", "show", &format!("02-1{i}"), "--json"]);
        // Exit 1 exactly when some task markup could not be read (and a
        // warning says so); never a panic, never a silent partial answer.
        let v = json(&o);
        let complete = v["complete"].as_bool().unwrap();
        assert_eq!(
            o.status.code(),
            Some(if complete { 0 } else { 1 }),
            "{}",
            stderr(&o)
        );
        assert_eq!(stderr(&o).contains("may be incomplete"), !complete);
    }
}

/// Links to a folder or to nothing, a named pipe and a link to one: each is
/// reported as `file-unreadable`, and none of them stalls the run (opening a
/// pipe for reading would wait for a writer forever).
#[test]
fn links_pipes_and_dangling_links_are_reported_not_waited_on() {
    let t = tree("clean");
    let p = t.path().join(".planning");
    let fifo = p.join("pipe.md");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    std::os::unix::fs::symlink(&fifo, p.join("phases/pipe-link.md")).unwrap();
    std::os::unix::fs::symlink("../..", p.join("phases/loop")).unwrap();
    std::os::unix::fs::symlink("/nonexistent/gsd", p.join("gone.md")).unwrap();
    let lint = gsd_cmd(t.path(), &["lint", "--format", "json"]);
    let o = wait_limited(lint, std::time::Duration::from_secs(20));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let found: Vec<(String, String, String)> = json(&o)["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let s = |k: &str| d[k].as_str().unwrap().to_owned();
            (s("code"), s("file"), s("message"))
        })
        .collect();
    assert!(
        found.len() == 4 && found.iter().all(|(c, _, _)| c == "file-unreadable"),
        "{found:?}"
    );
    for (file, what) in [
        (
            ".planning/gone.md",
            "a link to something that does not exist",
        ),
        (".planning/phases/loop", "a link to a folder"),
        (".planning/phases/pipe-link.md", "a link to a named pipe"),
        (".planning/pipe.md", "is a named pipe"),
    ] {
        assert!(
            found.iter().any(|(_, f, m)| f == file && m.contains(what)),
            "{file}: {what} not in {found:?}"
        );
    }
}

/// Findings far into one enormous line (3,000 tasks on line 11, 114 KB):
/// human lint exits 1, not 101 (miette pads with `{:width$}`, which panics
/// past column 65,535); each finding shows the lines around it clipped,
/// with the file's own line and column; the output grows with the number
/// of findings, not with findings × file size.
#[test]
fn findings_past_column_65535_are_shown_clipped_with_their_column() {
    let t = tree("clean");
    let task = "<task type=\"auto\"><name>T</name></task>";
    let plan = format!(
        "---\nphase: 02-api\nplan: 09\ntype: execute\nwave: 1\ndepends_on: []\nfiles_modified: []\nautonomous: true\nmust_haves: {{}}\n---\n{}\n",
        task.repeat(3000)
    );
    write(
        t.path(),
        ".planning/phases/02-api/02-09-PLAN.md",
        plan.as_bytes(),
    );
    let o = gsd_capped(t.path(), &["--color", "never", "lint"], 2 << 30);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let last = 2999 * task.len() + 1;
    assert!(
        out.contains(&format!("02-09-PLAN.md:11:{last}]")),
        "the last task's finding names its column {last}"
    );
    let findings = out.matches("02-09-PLAN.md:11:").count();
    assert!(findings >= 3000, "{findings} findings on line 11");
    assert!(
        out.len() < findings * 2_000,
        "{} bytes for {findings} findings",
        out.len()
    );
    // The error path of `fm get` shows a clipped line too.
    let fm = format!("---\nwave: [1, {}\n---\n", "2, ".repeat(30_000));
    write(t.path(), "long-fm.md", fm.as_bytes());
    let o = gsd(
        t.path(),
        &["--color", "never", "fm", "get", "long-fm.md", "wave"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).len() < 4_000, "{}", stderr(&o).len());
}
