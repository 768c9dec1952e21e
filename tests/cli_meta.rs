//! gsd as an installed tool: shell completions, the man page, `--color` and
//! `-q`, each through the real binary.

mod common;

use std::process::{Command, Stdio};

use common::{gsd, stderr, stdout, tree};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_gsd")
}

#[test]
fn bash_completion_loads_and_registers_gsd() {
    let o = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "source <({} completions bash) && complete -p gsd",
            bin()
        ))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("-F _gsd gsd"), "{}", stdout(&o));
}

#[test]
fn every_shell_gets_a_script_naming_the_subcommands() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let o = Command::new(bin())
            .args(["completions", shell])
            .output()
            .unwrap();
        assert!(o.status.success(), "{shell}: {}", stderr(&o));
        let s = stdout(&o);
        for sub in ["lint", "ralph", "install-hooks", "state"] {
            assert!(s.contains(sub), "{shell} script lacks {sub}");
        }
    }
    let o = Command::new(bin())
        .args(["completions", "tcsh"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("invalid value 'tcsh'"),
        "{}",
        stderr(&o)
    );
}

/// The page parses in groff with every warning on, and `man -l -` renders it
/// with each command's section.
#[test]
fn the_man_page_renders_without_warnings() {
    let page = Command::new(bin()).arg("man").output().unwrap();
    assert!(page.status.success());
    assert!(page.stdout.is_ascii(), "non-ASCII bytes reach roff");
    let mut groff = Command::new("groff")
        .args(["-man", "-Tutf8", "-ww", "-z"])
        .stdin(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("groff (Debian's groff-base, which man needs)");
    std::io::Write::write_all(groff.stdin.as_mut().unwrap(), &page.stdout).unwrap();
    let g = groff.wait_with_output().unwrap();
    assert!(g.status.success());
    assert_eq!(stderr(&g), "", "groff warnings");

    let mut man = Command::new("man")
        .args(["-l", "-"])
        .env("MANWIDTH", "80")
        .env("LC_ALL", "C.UTF-8")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(man.stdin.as_mut().unwrap(), &page.stdout).unwrap();
    let m = man.wait_with_output().unwrap();
    assert!(m.status.success(), "{}", stderr(&m));
    assert_eq!(stderr(&m), "");
    // man overstrikes bold text for a pipe ("N\x08N"); read the letters.
    let text = stdout(&m).replace('\x08', "\u{0}");
    let text = strip_overstrike(&text);
    for heading in [
        "NAME",
        "GSD LINT",
        "GSD STATE SET",
        "GSD RALPH INSTALL-HOOKS",
        "GSD MAN",
    ] {
        assert!(text.contains(heading), "man page lacks {heading}");
    }
    assert!(
        text.contains("<promise>…</promise>"),
        "escaped text comes back"
    );
}

/// "N\0N" (overstruck, backspace already made \0) → "N"; "_\0x" → "x".
fn strip_overstrike(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if i + 2 < chars.len() && chars[i + 1] == '\u{0}' {
            i += 2;
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

/// An error on stderr: coloured only when asked or forced, and NO_COLOR wins
/// over CLICOLOR_FORCE under auto.
#[test]
fn color_follows_the_flag_then_no_color_then_clicolor_force() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let mut c = Command::new(bin());
        c.arg("-C").arg(dir.path()).args(args).arg("state");
        c.env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .env_remove("CLICOLOR");
        for (k, v) in env {
            c.env(k, v);
        }
        let o = c.output().unwrap();
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("no .planning/ directory"),
            "{}",
            stderr(&o)
        );
        stderr(&o).contains('\x1b')
    };
    assert!(!run(&[], &[]), "a pipe gets no colour");
    assert!(run(&["--color", "always"], &[]));
    assert!(
        run(&["--color=always"], &[("NO_COLOR", "1")]),
        "the flag wins"
    );
    assert!(run(&[], &[("CLICOLOR_FORCE", "1")]));
    assert!(!run(&[], &[("CLICOLOR_FORCE", "0")]));
    assert!(!run(&[], &[("NO_COLOR", "1"), ("CLICOLOR_FORCE", "1")]));
    assert!(!run(&["--color", "never"], &[("CLICOLOR_FORCE", "1")]));
}

#[test]
fn lint_human_output_is_coloured_only_when_forced() {
    let t = tree("all-rules");
    let plain = gsd(t.path(), &["lint"]);
    assert!(!stdout(&plain).contains('\x1b'));
    let forced = gsd(t.path(), &["--color", "always", "lint"]);
    assert!(stdout(&forced).contains('\x1b'));
    assert_eq!(plain.status.code(), forced.status.code());
}

/// `-q`: silent on success and on findings, the exit code unchanged; errors
/// still explain themselves.
#[test]
fn quiet_prints_only_errors_and_keeps_the_exit_code() {
    let bad = tree("all-rules");
    for format in ["human", "json", "github", "sarif"] {
        let o = gsd(bad.path(), &["-q", "lint", "--format", format]);
        assert_eq!(o.status.code(), Some(1), "{format}");
        assert_eq!(stdout(&o), "", "{format}");
        assert_eq!(stderr(&o), "", "{format}");
    }
    let clean = tree("clean");
    let o = gsd(clean.path(), &["-q", "state", "get", "Status"]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), ""));
    let o = gsd(clean.path(), &["state", "get", "Status"]);
    assert_ne!(stdout(&o), "", "without -q the value is printed");

    let o = gsd(clean.path(), &["-q", "state", "get", "NoSuchField"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("NoSuchField"), "{}", stderr(&o));
}

/// A reader that quit early (`gsd … 2>&1 | head -1`, a hook runner that
/// closed its pipes) costs gsd its messages, never its exit code: an error
/// still exits 2 and a lint with findings 1, not 101 (a panic).
#[test]
fn closed_stdout_and_stderr_keep_the_exit_code() {
    let t = tree("all-rules");
    // Both pipes' read ends are closed before gsd writes anything.
    let closed = |args: &[&str]| {
        let mut c = Command::new(bin())
            .arg("-C")
            .arg(t.path())
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(c.stdout.take());
        drop(c.stderr.take());
        c.wait().unwrap().code()
    };
    assert_eq!(closed(&["fm", "get", "no-such-file.md", "wave"]), Some(2));
    assert_eq!(closed(&["lint"]), Some(1));
    assert_eq!(closed(&["lint", "--format", "json"]), Some(1));
    assert_eq!(closed(&["roadmap", "--json"]), Some(0));
}
