//! `gsd mcp` as an agent meets it: the real binary started in a project
//! made by `git init` + `gsd init`, spoken to in JSON-RPC over its stdin
//! and stdout. Reads answer what the CLI's `--json` answers; a write is one
//! commit of exactly its change; a refused write or a bad argument is a
//! tool error that says why, and the server goes on answering.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use common::{assert_same, git, gsd, gsd_init, json, snapshot, stderr};
use serde_json::{Value, json};

/// A running `gsd mcp` and the lines it has answered.
struct Server {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    next_id: u64,
}

impl Server {
    /// `gsd -C dir mcp`, initialized (the handshake every client makes).
    fn start(dir: &Path) -> Server {
        let mut c = Command::new(env!("CARGO_BIN_EXE_gsd"));
        c.arg("-C").arg(dir).arg("mcp");
        Server::spawn(c)
    }

    /// `cmd` (a `gsd … mcp`), started and initialized.
    fn spawn(mut cmd: Command) -> Server {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut s = Server {
            child,
            stdin,
            lines,
            next_id: 0,
        };
        let init = s.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "gsd-tests", "version": "1"},
            }),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "gsd", "{init}");
        s.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        s
    }

    fn send(&mut self, v: &Value) {
        writeln!(self.stdin, "{v}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// One request and its response (notifications in between are skipped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|e| panic!("no answer to {method}: {e}"));
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["id"] == json!(id) {
                return v;
            }
        }
    }

    /// `tools/call`: the result object (a JSON-RPC error fails the test).
    fn call(&mut self, tool: &str, args: Value) -> Value {
        let v = self.request("tools/call", json!({"name": tool, "arguments": args}));
        assert!(v.get("error").is_none(), "{tool}: {v}");
        v["result"].clone()
    }

    /// A read tool's answer: its text is the JSON.
    fn read(&mut self, tool: &str, args: Value) -> Value {
        let r = self.call(tool, args);
        assert_eq!(r["isError"], false, "{tool}: {r}");
        let v: Value = serde_json::from_str(text(&r)).unwrap();
        assert_eq!(
            v, r["structuredContent"],
            "{tool}: text and structure differ"
        );
        v
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A tool result's first text block.
fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or("")
}

/// A project of two phases with one plan, 01-01, all committed.
fn project() -> tempfile::TempDir {
    let t = gsd_init(&["Core", "API"], &["CORE-01: a cart"]);
    let o = gsd(t.path(), &["plan", "new", "1", "--name", "Cart"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    t
}

fn commits(dir: &Path) -> usize {
    git(dir, &["rev-list", "--count", "HEAD"])
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn read_tools_answer_what_the_cli_answers() {
    let t = project();
    let dir = t.path();
    let mut s = Server::start(dir);
    assert_eq!(
        s.read("roadmap", json!({})),
        json(&gsd(dir, &["roadmap", "--json"]))
    );
    assert_eq!(
        s.read("state", json!({})),
        json(&gsd(dir, &["state", "--json"]))
    );
    let plan = s.read("plan", json!({"id": "01-01"}));
    assert_eq!(plan, json(&gsd(dir, &["plan", "show", "01-01", "--json"])));
    assert_eq!(plan["path"], ".planning/phases/01-core/01-01-PLAN.md");
    // The new plan's TODO(gsd) parts are findings: every severity, then
    // only errors, as `gsd lint` gives them.
    let all = s.read("lint", json!({}));
    assert_eq!(all, json(&gsd(dir, &["lint", "--format", "json"])));
    assert!(!all["diagnostics"].as_array().unwrap().is_empty(), "{all}");
    let errors = s.read("lint", json!({"min_severity": "error"}));
    assert_eq!(
        errors,
        json(&gsd(
            dir,
            &["lint", "--format", "json", "--min-severity", "error"]
        ))
    );
    // Reads change nothing.
    assert_eq!(git(dir, &["status", "--porcelain"]), "");
}

#[test]
fn state_set_changes_one_line_in_one_commit() {
    let t = project();
    let dir = t.path();
    let before = commits(dir);
    let old = std::fs::read_to_string(dir.join(".planning/STATE.md")).unwrap();
    let mut s = Server::start(dir);
    let r = s.call(
        "state_set",
        json!({"field": "status", "value": "Building the cart"}),
    );
    assert_eq!(r["isError"], false, "{r}");
    let out = &r["structuredContent"];
    assert_eq!(commits(dir), before + 1);
    assert_eq!(
        out["commit_id"].as_str().unwrap(),
        git(dir, &["rev-parse", "HEAD"]).trim()
    );
    assert_eq!(
        git(dir, &["show", "--stat", "--format=", "HEAD"]).trim(),
        ".planning/STATE.md | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)"
    );
    let new = std::fs::read_to_string(dir.join(".planning/STATE.md")).unwrap();
    let changed: Vec<(&str, &str)> = old
        .lines()
        .zip(new.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(old.lines().count(), new.lines().count());
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert_eq!(changed[0].1, "Status: Building the cart");
    // The diff it returns is the one line it made.
    let diff = out["diff"].as_str().unwrap();
    assert!(
        diff.contains(&format!("-{}\n+Status: Building the cart\n", changed[0].0)),
        "{diff}"
    );
    assert_eq!(git(dir, &["status", "--porcelain"]), "");
    // The CLI reads back what the tool wrote.
    assert_eq!(
        json(&gsd(dir, &["state", "--json"]))["status"],
        "Building the cart"
    );
}

#[test]
fn other_writes_commit_like_their_commands() {
    let t = project();
    let dir = t.path();
    let mut s = Server::start(dir);
    let before_all = commits(dir);
    let r = s.call("phase_add", json!({"name": "Checkout"}));
    assert_eq!(r["isError"], false, "{r}");
    assert!(dir.join(".planning/phases/03-checkout").is_dir());
    let r = s.call(
        "plan_fm_set",
        json!({"id": "01-01", "key": "wave", "value": "2"}),
    );
    assert_eq!(r["isError"], false, "{r}");
    let plan = std::fs::read_to_string(dir.join(".planning/phases/01-core/01-01-PLAN.md")).unwrap();
    assert!(plan.contains("\nwave: 2\n"), "{plan}");
    assert!(text(&r).contains("+wave: 2"), "{r}");
    assert_eq!(commits(dir), before_all + 2);
    assert_eq!(git(dir, &["status", "--porcelain"]), "");
    // Phase 1's plan has no summary yet: refused, and nothing changes.
    let before = snapshot(dir);
    let r = s.call("phase_complete", json!({"phase": "1"}));
    assert_eq!(r["isError"], true, "{r}");
    assert!(
        text(&r).contains("phase 1 has plans without a summary: 01-01-PLAN.md"),
        "{r}"
    );
    assert_same(&before, &snapshot(dir), "an unfinished phase");
    // With its summary committed, the phase completes: ROADMAP.md and
    // STATE.md in one commit, as `gsd phase complete 1` makes it.
    std::fs::write(
        dir.join(".planning/phases/01-core/01-01-SUMMARY.md"),
        "---\nphase: 01-core\nplan: 01\n---\n\n# Summary\n\nDone.\n",
    )
    .unwrap();
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "-qm", "summary 01-01"]);
    let r = s.call("phase_complete", json!({"phase": "1"}));
    assert_eq!(r["isError"], false, "{r}");
    assert!(text(&r).contains("+- [x] **Phase 1: Core**"), "{r}");
    assert_eq!(
        r["structuredContent"]["changed"],
        json!([".planning/ROADMAP.md", ".planning/STATE.md"])
    );
    assert_eq!(commits(dir), before_all + 4);
    assert_eq!(git(dir, &["status", "--porcelain"]), "");
    assert_eq!(
        json(&gsd(dir, &["state", "--json"]))["current_phase"]["phase"],
        "02"
    );
}

#[test]
fn a_refused_write_changes_nothing_and_says_why() {
    use std::os::unix::fs::PermissionsExt;
    let t = project();
    let dir = t.path();
    let state = dir.join(".planning/STATE.md");
    let mut s = Server::start(dir);

    // The user's own uncommitted edit in STATE.md.
    let mut edited = std::fs::read_to_string(&state).unwrap();
    edited.push_str("\nMy note.\n");
    std::fs::write(&state, &edited).unwrap();
    let before = snapshot(dir);
    let r = s.call("state_set", json!({"field": "status", "value": "Done"}));
    assert_eq!(r["isError"], true, "{r}");
    assert!(
        text(&r).contains(".planning/STATE.md has uncommitted changes of yours"),
        "{r}"
    );
    assert!(text(&r).contains("help: "), "{r}");
    assert_same(&before, &snapshot(dir), "an uncommitted edit");
    git(dir, &["checkout", "--", ".planning/STATE.md"]);

    // A read-only STATE.md.
    std::fs::set_permissions(&state, std::fs::Permissions::from_mode(0o444)).unwrap();
    let before = snapshot(dir);
    let r = s.call("state_set", json!({"field": "status", "value": "Done"}));
    assert_eq!(r["isError"], true, "{r}");
    assert!(
        text(&r).starts_with("error[gsd::store::refused]: ")
            && text(&r).contains(".planning/STATE.md is read-only\nhelp: make it writable"),
        "{r}"
    );
    assert_same(&before, &snapshot(dir), "a read-only file");
}

#[test]
fn a_lock_held_past_its_timeout_is_a_refusal() {
    let t = project();
    let dir = t.path();
    let mut c = Command::new(env!("CARGO_BIN_EXE_gsd"));
    c.arg("-C")
        .arg(dir)
        .arg("mcp")
        .env("GSD_LOCK_TIMEOUT_MS", "200");
    let mut s = Server::spawn(c);
    std::fs::create_dir_all(dir.join(".gsd")).unwrap();
    let lock = std::fs::File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(".gsd/planning.lock"))
        .unwrap();
    lock.lock().unwrap();
    let before = snapshot(dir);
    let r = s.call("state_set", json!({"field": "status", "value": "Done"}));
    assert_eq!(r["isError"], true, "{r}");
    assert!(text(&r).contains("gave up"), "{r}");
    assert!(
        text(&r).contains("help: wait for the other gsd command"),
        "{r}"
    );
    assert_same(&before, &snapshot(dir), "a held lock");
    // Released, the same call goes through.
    drop(lock);
    let r = s.call("state_set", json!({"field": "status", "value": "Done"}));
    assert_eq!(r["isError"], false, "{r}");
}

#[test]
fn project_names_the_folder_served() {
    let t = project();
    let elsewhere = tempfile::tempdir().unwrap();
    let mut c = Command::new(env!("CARGO_BIN_EXE_gsd"));
    c.current_dir(elsewhere.path())
        .arg("mcp")
        .arg("--project")
        .arg(t.path());
    let mut s = Server::spawn(c);
    assert_eq!(
        s.read("state", json!({})),
        json(&gsd(t.path(), &["state", "--json"]))
    );
}

#[test]
fn bad_arguments_are_clear_errors_and_the_server_goes_on() {
    let t = project();
    let dir = t.path();
    let before = snapshot(dir);
    let mut s = Server::start(dir);

    let r = s.call("phase_complete", json!({"phase": "9"}));
    assert_eq!(r["isError"], true, "{r}");
    assert_eq!(
        text(&r),
        "error[gsd::edit::unknown_phase]: phase 9 does not exist\nhelp: phases: 1, 2"
    );

    let r = s.call("state_set", json!({"field": "status"}));
    assert_eq!(r["isError"], true, "{r}");
    assert!(text(&r).contains("missing field `value`"), "{r}");

    // A value of the wrong type names the argument it was given for.
    let r = s.call("state_set", json!({"field": 5, "value": "x"}));
    assert_eq!(r["isError"], true, "{r}");
    assert!(
        text(&r).contains("argument `field`: invalid type: integer `5`, expected a string"),
        "{r}"
    );
    let r = s.call("lint", json!({"min_severity": "loud"}));
    assert_eq!(r["isError"], true, "{r}");
    assert!(
        text(&r).contains("argument `min_severity`: unknown variant `loud`"),
        "{r}"
    );

    let r = s.call("state_set", json!({"field": "nosuchfield", "value": "x"}));
    assert_eq!(r["isError"], true, "{r}");
    assert!(text(&r).contains("nosuchfield"), "{r}");

    let r = s.call("plan", json!({"id": "07-03"}));
    assert_eq!(r["isError"], true, "{r}");
    assert!(text(&r).contains("07-03"), "{r}");

    let r = s.call("lint", json!({"min_severity": "fatal"}));
    assert_eq!(r["isError"], true, "{r}");
    assert!(text(&r).contains("fatal"), "{r}");

    let v = s.request("tools/call", json!({"name": "rm_rf", "arguments": {}}));
    assert_eq!(v["error"]["code"], -32602, "{v}");
    assert_eq!(v["error"]["message"], "tool not found", "{v}");

    // A line that is not JSON-RPC at all does not stop the server.
    writeln!(s.stdin, "this is not json").unwrap();

    // Still answering, and nothing changed.
    assert_eq!(s.read("state", json!({}))["status"], "Ready to plan");
    assert_same(&before, &snapshot(dir), "bad arguments");
}

#[test]
fn a_missing_core_file_is_said_as_the_cli_says_it() {
    let t = project();
    let dir = t.path();
    std::fs::remove_file(dir.join(".planning/STATE.md")).unwrap();
    let mut s = Server::start(dir);
    let r = s.call("state", json!({}));
    assert_eq!(r["isError"], true, "{r}");
    assert_eq!(
        text(&r),
        "error[gsd::file_not_found]: .planning/STATE.md does not exist\nhelp: create it with `gsd init`"
    );
    let cli = gsd(dir, &["state", "--json"]);
    assert_eq!(cli.status.code(), Some(2));
    assert!(
        stderr(&cli).contains(".planning/STATE.md does not exist"),
        "{}",
        stderr(&cli)
    );
}

#[test]
fn a_folder_with_no_project_is_refused_at_start() {
    let t = tempfile::tempdir().unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_gsd"))
        .arg("-C")
        .arg(t.path())
        .arg("mcp")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    assert!(stderr(&o).contains(".planning"), "{}", stderr(&o));
}

/// What each tool costs an agent's context: its entry in `tools/list`
/// (name, description, schema, annotations) as the server sends it, in
/// tokens approximated as bytes / 4. README.md quotes this table; run
/// `cargo nextest run --test mcp tool_sizes --no-capture` to print it.
#[test]
fn tool_sizes() {
    let t = project();
    let mut s = Server::start(t.path());
    let list = s.request("tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().unwrap();
    let mut names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "lint",
            "phase_add",
            "phase_complete",
            "plan",
            "plan_fm_set",
            "roadmap",
            "state",
            "state_set"
        ]
    );
    let mut total = 0;
    println!("tool            bytes  ~tokens");
    for t in tools {
        let bytes = serde_json::to_string(t).unwrap().len();
        total += bytes;
        println!(
            "{:<15} {bytes:>5}  {:>7}",
            t["name"].as_str().unwrap(),
            bytes / 4
        );
        let read_only = t["annotations"]["readOnlyHint"].as_bool();
        let reads = ["roadmap", "state", "plan", "lint"].contains(&t["name"].as_str().unwrap());
        assert_eq!(read_only, Some(reads), "{t}");
        // A tool costs no more than about 150 tokens of context.
        assert!(bytes / 4 <= 150, "{t}");
    }
    println!("{:<15} {total:>5}  {:>7}", "all 8", total / 4);
}
