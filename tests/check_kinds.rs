//! Checks that mean what they say: the classifier (`src/ralph/checks.rs`)
//! on real check strings from the corpus, each labelled by reading it, and —
//! with GSD_CORPUS — the kinds of every check of every plan of the corpus
//! (`bash bench/check-kinds.sh` prints that table).

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use gsd::model::Workspace;
use gsd::ralph::checks::{CheckKind, Env, Origin, Probe, classify, from_automated, from_block};
use gsd::ralph::verify::plan_checks_with;

/// The same answers on every machine: no PATH, an empty project.
fn bare() -> (tempfile::TempDir, Env) {
    let t = tempfile::tempdir().unwrap();
    let env = Env::with_path(t.path(), Vec::new());
    (t, env)
}

use CheckKind::*;
use Origin::{Automated as A, Span as S};

/// Real checks from the corpus (`<automated>` contents and backticked spans
/// of `<verify>` / `<verification>`), with the kind each one is, read by hand.
const TABLE: &[(Origin, &str, CheckKind)] = &[
    // Commands that must stay commands.
    (S, "npm test", Command),
    (S, "cargo test -p x", Command),
    (S, "pytest tests/ -k foo", Command),
    (S, "./scripts/check.sh", Command),
    (S, "grep -q foo src/a.rs", Command),
    (S, "test -f hello.txt", Command),
    (S, "curl -sf localhost:3000/health", Command),
    (S, r#"python -c "import x""#, Command),
    (S, "npm run build", Command),
    (S, "cd src/backend && npx tsc --noEmit", Command),
    (S, r#"grep -r "start_as_current_span" src/"#, Command),
    (
        S,
        "~/.claude/graphiti/graphiti-helper.py list-sessions --json --all",
        NotFound,
    ),
    (S, "cargo check", Command),
    (
        S,
        "python -m pytest tests/hermes_cli/test_feedback_cli.py -x",
        Command,
    ),
    (S, "./quality.sh test", Command),
    (S, "bash scripts/check-shop-bundle.sh", Command),
    (S, "swiftlint", Command),
    (S, "dotnet build", Command),
    (S, r#"grep -c "^## OD-0[678]" OVERRIDE-DEBT.md"#, Command),
    (
        S,
        "cat prisma/migrations/20260307_recordings_storage_policies/migration.sql",
        Command,
    ),
    (S, "uv run pytest tests/ -x", Command),
    (
        S,
        "./gradlew compileJava compileIntegrationTestJava",
        Command,
    ),
    (S, "wc -l src/components/payouts/*.tsx", Command),
    (S, "ls -la .claude/agents/ultraplan-architect.md", Command),
    (
        S,
        "node --test dynamo/tests/sync.test.cjs dynamo/tests/stack.test.cjs",
        Command,
    ),
    (
        S,
        r#"uv run python -c "from src.main import app; print('ok')""#,
        Command,
    ),
    (S, "tools/dev.sh test", Command),
    (S, "make", Command),
    (A, "pnpm lint && pnpm build", Command),
    (A, "npx vitest run tests/tilemap-tools.test.ts", Command),
    (A, "cargo test -p service_impl test::cutover", Command),
    (A, "true", Command),
    (A, "! grep -E \"metadata\\.openclaw\" src/", Command),
    (
        A,
        "DEEPSEEK_API_KEY=dummy venv/Scripts/python.exe -m pytest tests/unit/test_vision_worker.py -v",
        Command,
    ),
    (
        A,
        "LINE_COUNT=$(wc -l < packages/web/lib/components/detail/ItemDetailCard.tsx); echo \"$LINE_COUNT\"",
        Command,
    ),
    (
        A,
        "[ -d ~/.hermes/memories ] &&\n      [ -f ~/.hermes/memories/USER.md ]",
        Command,
    ),
    (
        A,
        "# Verify subcommands are registered\nuv run python -m graphiti --help",
        Command,
    ),
    (A, "timeout 12 cargo run 2>&1 | head -20 || true", Command),
    (
        A,
        "if rg -n '~> 1\\.2' guides/getting-started.md; then exit 1; else exit 0; fi",
        Command,
    ),
    (
        A,
        "cd \"D:/GpT_docs/MPSTATS ACADEMY/MAAL\" && grep -n \"server-only\" packages/ai/src/retrieval.ts",
        Command,
    ),
    (
        A,
        "src/LangThree/bin/Release/net10.0/LangThree tests/flt/emit/a.flt",
        Command,
    ),
    (A, ".venv/bin/python -c \"import lancedb\"", Command),
    // GSD's placeholders.
    (
        A,
        "MISSING — Wave 0 must create tests/test_auth.py before this task can verify",
        Missing,
    ),
    (
        A,
        "MISSING — checkpoint humano; el executor no instala hasta aprobación explícita",
        Missing,
    ),
    (A, "N/A — manual visual verification required", Missing),
    (
        A,
        "MISSING - This is a checkpoint:human-verify task requiring manual UI verification",
        Missing,
    ),
    // File and folder names.
    (S, "hello.txt", File),
    (S, "docker-compose.yml", File),
    (S, "api-v1.yaml", File),
    (S, "workflows/security.md", File),
    (S, "forge_view.gd", File),
    (S, "apps/shop/", File),
    (S, "src/backend/", File),
    (S, "components/navigation/", File),
    (S, "scripts/check.sh", File),
    (S, ".env", File),
    (S, "/Users/ace/.invisible-ws/tauri-shell/", File),
    (S, "lightrag_llm.py", File),
    // Routes and URLs.
    (S, "GET /api/users", Route),
    (S, "POST /api/v1/sessions", Route),
    (S, "/cart", Route),
    (S, "/register/?ref=VALIDCODE", Route),
    (S, "/{locale}/appointment/{valid-booking-id}", Route),
    (S, "/stocks/AKBNK", Route),
    (S, "http://localhost:5174/", Route),
    // SQL.
    (
        S,
        "SELECT proname FROM pg_proc WHERE proname = 'bulk_verificar'",
        Sql,
    ),
    (S, "select count(*) from profiles where role is null", Sql),
    (S, "ALTER TABLE orders ADD COLUMN paid_at timestamptz", Sql),
    // Names and values from the code.
    (S, "deleteGarden", Identifier),
    (S, "getDocs()", Identifier),
    (S, "this.prisma", Identifier),
    (S, "shm_size: 1g", Identifier),
    (S, "#ffc107", Identifier),
    (S, "@nestjs/schedule", Identifier),
    (S, "related_skills", Identifier),
    (S, "BiomeConfig.get_biome_for_level(24)", Identifier),
    (S, "cmd_flash_all(registry, out)", Identifier),
    (S, r#"href="chi-siamo.html""#, Identifier),
    (S, r#"type: "medication""#, Identifier),
    (S, "npm", Identifier),
    (S, "in", Identifier),
    (S, "/gsd:plan-phase", Identifier),
    (S, "research:collect", Identifier),
    // Prose, in several languages.
    (
        A,
        "Command exits 0, report contains all 6 sections A-F",
        Prose,
    ),
    (A, "Scores logged to stdout", Prose),
    (
        A,
        "Check file exists at src/backend/src/schemas/AdjustmentSchema.ts and exports createAdjustmentSchema",
        Prose,
    ),
    (S, "existe com os nomes exatos, sem valor real e sem", Prose),
    (S, "Quest Editing Tips", Prose),
    (S, "build succeeded.", Prose),
    (S, "the build passes", Prose),
    // Command lines whose program is nowhere to be found.
    (S, "session-summary --raw", NotFound),
    (S, "init progress --raw", NotFound),
    (
        A,
        "feedship report --since 2026-04-01 --until 2026-04-09 --template v2 2>&1 | head -50",
        NotFound,
    ),
    (
        A,
        "Get-ChildItem \"src/frontend/public/images/layout/*.png\" | Where-Object { $_.Name -match 'x' }",
        NotFound,
    ),
    (
        A,
        "$ErrorActionPreference='Stop'; Invoke-RestMethod 'http://localhost:3001/api/health' | Out-Null",
        NotFound,
    ),
    (
        S,
        "/Users/ohama/vibe-coding/fslit/FsLit/bin/Debug/net10.0/FsLit tests/flt/emit/ast-expr-*.flt",
        NotFound,
    ),
    (S, "tsc --noEmit", NotFound),
    (S, "intent update", NotFound),
    (S, "sudo fail2ban-client status sshd", NotFound),
    (S, "quality.sh owasp", NotFound),
    (
        S,
        "memory read --store trajectories --category decision",
        NotFound,
    ),
    // Commands sh cannot parse: they could only fail.
    (
        S,
        r#"grep "getCachedTransactions" src/app/(protected)/bonos/page.tsx"#,
        SyntaxError,
    ),
    (S, "dotnet run -- <solution>", SyntaxError),
    (
        S,
        "npm run dev (check if server starts without errors)",
        SyntaxError,
    ),
    // Code that the shell would take for commands.
    (S, "export const maxDuration = 60", Identifier),
    (S, "type Point = { x: int; y: int }", Identifier),
    (S, "matched >= 770", Identifier),
    (S, "rotateX|rotateY", Identifier),
    (S, "[ ]", Identifier),
    (S, "base_damage_min = 8", Identifier),
    (S, "export interface", Identifier),
    (S, "from eclaim_core.logging import LogStreamer", Identifier),
    (S, ".week-switcher .tab-btn.active", Identifier),
    // Found by a blind helper's labels (2026-11-27): a script whose first
    // line is a comment, with paths sh cannot parse.
    (
        A,
        "# Verifica badge\ntest -f components/ui/badge.tsx && echo ok\ngrep -q x app/(dashboard)/events/page.tsx && echo ok",
        SyntaxError,
    ),
    (A, "# lint first\nnpm run lint", Command),
];

#[test]
fn real_checks_are_classified_as_read() {
    let (_t, env) = bare();
    assert!(TABLE.len() >= 60, "{} rows", TABLE.len());
    let wrong: Vec<String> = TABLE
        .iter()
        .filter_map(|(origin, text, want)| {
            let got = classify(text, *origin, &env);
            (got.kind != *want)
                .then(|| format!("{text:?}: {} ({}), labelled {}", got.kind, got.why, want))
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "{} misread:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// Every kind appears in the table, so none is labelled by default only
/// (`content` needs the words around a file name: see the next test).
#[test]
fn the_table_covers_every_kind() {
    for k in CheckKind::ALL.into_iter().filter(|k| *k != Content) {
        assert!(TABLE.iter().any(|(_, _, w)| *w == k), "no row of kind {k}");
    }
}

/// What the words around a backticked file name say decide whether gsd
/// checks it itself: real `<verification>` lines from the corpus.
#[test]
fn file_and_content_checks_from_real_lines() {
    let (_t, env) = bare();
    let one = |line: &str| from_block(line, &env);
    // "`hello.txt` exists" used to run `hello.txt`.
    let f = one("- [ ] `hello.txt` exists");
    assert_eq!(f.len(), 1);
    assert_eq!(
        f[0].class.probe,
        Some(Probe::Exists {
            path: "hello.txt".into()
        })
    );
    let f = one("2. Directory `components/navigation/` exists");
    assert_eq!(f[0].class.kind, File);
    assert!(f[0].class.probe.is_some(), "{f:?}");
    let f = one("- `src/a.rs` contains `fn main`");
    assert_eq!(f.len(), 1, "the file and the text are one check: {f:?}");
    assert_eq!(f[0].class.kind, Content);
    assert_eq!(f[0].text, "`src/a.rs` contains `fn main`");
    let f = one(
        "2. Le fichier `pawcoach/functions/medicationReminders.ts` existe et contient `type: \"medication\"`, `SendEmail`",
    );
    assert_eq!(
        f[0].class.probe,
        Some(Probe::Contains {
            path: "pawcoach/functions/medicationReminders.ts".into(),
            text: vec!["type: \"medication\"".into(), "SendEmail".into()]
        }),
        "{f:?}"
    );
    let f = one("- `lightrag_llm.py` exists with `deepseek_model_complete`; 6 unit tests pass.");
    assert_eq!(f[0].class.kind, Content, "{f:?}");
    // Named, but not said to exist or to contain anything: not checked.
    let f = one("2. Confirm `commands/bgsd-security.md` points to `workflows/security.md`");
    assert!(f.iter().all(|f| f.class.probe.is_none()), "{f:?}");
    let f = one("4. `docker-compose.yml` crawl4ai service has `shm_size: 1g`");
    assert!(f.iter().all(|f| f.class.probe.is_none()), "{f:?}");
    // Outside the project, or a pattern: not checked either.
    let f = one("- `/etc/hosts` exists");
    assert!(f[0].class.probe.is_none(), "{f:?}");
    let f = one("- `src/components/*.tsx` exist");
    assert!(f[0].class.probe.is_none(), "{f:?}");
    // A command on the same line stays a command.
    let f = one("1. File exists: `ls -la .claude/agents/ultraplan-architect.md`");
    assert_eq!(f[0].class.kind, Command);
}

#[test]
fn automated_elements_are_read_as_written() {
    let (_t, env) = bare();
    let f = from_automated(
        "wc -l README.md &amp;&amp; grep -c \"docker compose up\" README.md",
        &env,
    );
    assert_eq!(
        f[0].text,
        "wc -l README.md && grep -c \"docker compose up\" README.md"
    );
    assert_eq!(f[0].class.kind, Command);
    let f = from_automated(
        "1. Run TypeScript type check: `npx tsc --noEmit`\n2. Verify component renders without errors: `npm run dev`",
        &env,
    );
    let texts: Vec<&str> = f.iter().map(|f| f.text.as_str()).collect();
    assert_eq!(texts, ["npx tsc --noEmit", "npm run dev"]);
}

/// One row of the corpus table.
#[derive(Default)]
struct Tally {
    plans: usize,
    no_checks: usize,
    command_only: usize,
    none_commands: usize,
    mixed: usize,
    /// Plans with a check that is not a command: before kinds, a loop on
    /// them could end only at its iteration cap.
    capped_before: usize,
    /// Plans whose checks gsd can run none of: the promise alone ends them.
    promise_only: usize,
    by_kind: BTreeMap<CheckKind, (usize, usize)>, // (checks, run by gsd)
}

#[test]
#[cfg_attr(
    not(gsd_corpus),
    ignore = "needs real planning trees in GSD_CORPUS (bash .ci/test sets it to ../shared/corpus)"
)]
fn corpus_check_kinds() {
    let trees = common::corpus_trees().expect("GSD_CORPUS is set");
    assert!(!trees.is_empty());
    let out = std::env::var_os("GSD_CHECK_KINDS_OUT").map(PathBuf::from);
    let mut lines = String::new();
    let mut t = Tally::default();
    for tree in &trees {
        let ws = Workspace::load(tree).unwrap_or_else(|e| panic!("{}: {e}", tree.display()));
        let env = Env::with_path(&ws.root, Vec::new());
        for plan in ws.all_plans() {
            t.plans += 1;
            let checks = plan_checks_with(plan, &env);
            let commands = checks.iter().filter(|c| c.kind == Command).count();
            match (checks.len(), commands) {
                (0, _) => t.no_checks += 1,
                (n, c) if n == c => t.command_only += 1,
                (_, 0) => t.none_commands += 1,
                _ => t.mixed += 1,
            }
            if commands < checks.len() {
                t.capped_before += 1;
            }
            if !checks.is_empty() && !checks.iter().any(|c| c.runs()) {
                t.promise_only += 1;
            }
            for c in &checks {
                assert!(
                    c.kind == Command || !c.why.is_empty(),
                    "{}: {:?} has no reason",
                    plan.doc.path().display(),
                    c.command
                );
                let e = t.by_kind.entry(c.kind).or_default();
                e.0 += 1;
                e.1 += usize::from(c.runs());
                if out.is_some() {
                    lines.push_str(
                        &serde_json::json!({
                            "tree": tree.file_name().unwrap().to_string_lossy(),
                            "plan": ws.rel(plan.doc.path()).display().to_string(),
                            "source": c.source, "kind": c.kind, "text": c.command,
                            "probe": c.probe, "why": c.why,
                        })
                        .to_string(),
                    );
                    lines.push('\n');
                }
            }
        }
    }
    if let Some(p) = out {
        std::fs::write(&p, lines).unwrap();
    }
    let checks: usize = t.by_kind.values().map(|v| v.0).sum();
    let with_checks = t.plans - t.no_checks;
    let pct = |n: usize, d: usize| 100.0 * n as f64 / d.max(1) as f64;
    println!(
        "corpus: {} trees, {} plans, {checks} checks\n",
        trees.len(),
        t.plans
    );
    println!("| plans | count | share |\n|---|---:|---:|");
    for (name, n) in [
        ("no checks (`--start-ralph` refuses them)", t.no_checks),
        ("only commands", t.command_only),
        ("no commands at all", t.none_commands),
        ("commands and other checks", t.mixed),
    ] {
        println!("| {name} | {n} | {:.1}% |", pct(n, t.plans));
    }
    println!(
        "\nOf the {with_checks} plans a loop can start on, {} ({:.1}%) have a check that is not a command: before kinds, their loops could end only at the iteration cap. Now each can end; {} of them have no check gsd can run, so the promise alone ends them.\n",
        t.capped_before,
        pct(t.capped_before, with_checks),
        t.promise_only
    );
    println!("| kind | checks | share | gsd runs | what gsd does |\n|---|---:|---:|---:|---|");
    for (k, (n, run)) in &t.by_kind {
        let what = match k {
            Command => "runs it under `sh -c`",
            File => {
                "checks the file exists when the text says it must; else leaves it to the agent"
            }
            Content => "checks the file contains the text",
            _ => "leaves it to the agent's own verification (not run)",
        };
        println!("| {k} | {n} | {:.1}% | {run} | {what} |", pct(*n, checks));
    }
    // The classifier must find the corpus's checks mostly commands, and
    // every kind of non-command it is built for.
    let kinds = |k: CheckKind| t.by_kind.get(&k).map_or(0, |v| v.0);
    assert!(kinds(Command) * 2 > checks, "most checks are commands");
    for k in [Missing, File, Content, Route, Sql, Identifier, Prose] {
        assert!(kinds(k) > 0, "no {k} check in the corpus");
    }
    assert_eq!(
        t.no_checks + t.command_only + t.none_commands + t.mixed,
        t.plans
    );
}

#[test]
fn a_loop_state_written_before_kinds_still_loads_as_commands() {
    let c: gsd::ralph::verify::Check =
        serde_json::from_str(r#"{"command":"npm test","source":"task 1"}"#).unwrap();
    assert_eq!((c.kind, &c.probe, c.runs()), (Command, &None, true));
    // And a classified check keeps what it is through the state file.
    let (_t, env) = bare();
    let f = from_block("`hello.txt` exists", &env).remove(0);
    let c = gsd::ralph::verify::Check {
        kind: f.class.kind,
        probe: f.class.probe,
        why: f.class.why,
        ..gsd::ralph::verify::Check::command(f.text, "task 1")
    };
    let back: gsd::ralph::verify::Check =
        serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
    assert_eq!(back, c);
}

// ---- from the CLI ------------------------------------------------------------

use common::*;

/// Plan 02-02 with these tasks and `<verification>`.
fn plan_02_02(dir: &std::path::Path, tasks: &str, verification: &str) {
    let text = format!(
        "---\nphase: 02-api\nplan: 02\ntype: execute\nwave: 1\ndepends_on: []\nfiles_modified: [hello.txt, src/a.rs]\nautonomous: true\nrequirements: [API-01]\nmust_haves:\n  truths: [\"It works\"]\n---\n\n<objective>\nSay hello.\n</objective>\n\n<tasks>\n{tasks}</tasks>\n\n<verification>\n{verification}</verification>\n"
    );
    std::fs::write(dir.join(".planning/phases/02-api/02-02-PLAN.md"), text).unwrap();
}

fn task(n: u32, verify: &str) -> String {
    format!(
        "<task type=\"auto\">\n  <name>Task {n}: Step {n}</name>\n  <files>hello.txt</files>\n  <action>Do step {n}.</action>\n  <verify>{verify}</verify>\n  <done>Step {n} is done</done>\n</task>\n"
    )
}

/// Checks of every kind gsd handles differently: a file said to exist, GSD's
/// placeholder, a command, a route, a file said to contain a text, prose.
fn mixed_plan(dir: &std::path::Path) {
    plan_02_02(
        dir,
        &(task(1, "`hello.txt` exists")
            + &task(
                2,
                "<automated>MISSING — Wave 0 must create tests/api.test.ts before this task can verify</automated>",
            )
            + &task(3, "<automated>true</automated>")),
        "- `GET /api/users` returns the users\n- `src/a.rs` contains `fn main`\n- The page looks right in `Firefox` and `Safari`\n",
    );
}

#[test]
fn verify_runs_what_it_can_and_says_what_it_did_not() {
    let t = tree("clean");
    mixed_plan(t.path());
    let o = gsd(t.path(), &["verify", "02-02", "--json"]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "nothing written yet: {}",
        stdout(&o)
    );
    let v = json(&o);
    let rows: Vec<(String, String, bool, bool)> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["command"].as_str().unwrap().to_owned(),
                r["kind"].as_str().unwrap().to_owned(),
                r["ran"].as_bool().unwrap(),
                r["passed"].as_bool().unwrap(),
            )
        })
        .collect();
    let row = |c: &str, k: &str, ran, passed| (c.to_owned(), k.to_owned(), ran, passed);
    assert_eq!(
        rows,
        [
            row("hello.txt", "file", true, false),
            row(
                "MISSING — Wave 0 must create tests/api.test.ts before this task can verify",
                "missing",
                false,
                false
            ),
            row("true", "command", true, true),
            row("GET /api/users", "route", false, false),
            row("`src/a.rs` contains `fn main`", "content", true, false),
            row("Firefox", "identifier", false, false),
            row("Safari", "identifier", false, false),
        ]
    );
    assert_eq!(v["results"][0]["reason"], "no such file: hello.txt");
    assert_eq!(v["results"][4]["reason"], "no such file: src/a.rs");
    assert!(
        v["results"][3]["reason"]
            .as_str()
            .unwrap()
            .starts_with("not run: route"),
        "{v}"
    );
    assert_eq!(
        (v["ran"].as_u64(), v["not_run"].as_u64()),
        (Some(3), Some(4))
    );
    // The work done: every check gsd can run passes; the rest never fail it.
    std::fs::write(t.path().join("hello.txt"), "hi\n").unwrap();
    std::fs::create_dir_all(t.path().join("src")).unwrap();
    std::fs::write(t.path().join("src/a.rs"), "fn other() {}\n").unwrap();
    let o = gsd(t.path(), &["verify", "02-02"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("src/a.rs does not contain `fn main`"),
        "{}",
        stdout(&o)
    );
    std::fs::write(t.path().join("src/a.rs"), "fn main() {}\n").unwrap();
    let o = gsd(t.path(), &["verify", "02-02"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(
        out.contains("– verification: GET /api/users — not run: route"),
        "{out}"
    );
    assert!(out.contains("7 check(s), 0 failed, 4 not run"), "{out}");
}

/// Only checks gsd cannot run: `gsd verify` proves nothing; a loop starts,
/// says so, and ends on the promise instead of the iteration cap.
fn prose_only_plan(dir: &std::path::Path) {
    plan_02_02(
        dir,
        &(task(1, "Open `/cart` and see the items")
            + &task(2, "`deleteGarden` is gone from the UI")),
        "- `GET /api/users` returns the users\n",
    );
}

#[test]
fn a_loop_on_checks_gsd_cannot_run_ends_on_the_promise() {
    let t = repo_of("clean");
    prose_only_plan(t.path());
    git(t.path(), &["add", "-A"]);
    git(t.path(), &["commit", "-qm", "plan"]);
    let o = gsd(t.path(), &["verify", "02-02"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("none of its 3 check(s) is a command gsd can run"),
        "{}",
        stdout(&o)
    );
    let o = gsd(
        t.path(),
        &["plan", "02-02", "--start-ralph", "--max-iterations", "5"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("3 of the 3 check(s) are not commands"),
        "{out}"
    );
    assert!(out.contains("the promise alone ends the loop"), "{out}");
    assert!(
        out.contains("verification: GET /api/users [route]"),
        "{out}"
    );
    let state: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(t.path().join(".gsd/ralph/loop.json")).unwrap(),
    )
    .unwrap();
    let kinds: Vec<&str> = state["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["route", "identifier", "route"]);
    let prompt = state["prompt"].as_str().unwrap();
    assert!(prompt.contains("Verify these yourself"), "{prompt}");
    assert!(!prompt.contains("run by gsd, not by you"), "{prompt}");
    let status = stdout(&gsd(t.path(), &["ralph", "status"]));
    assert!(
        status.contains("GET /api/users [route: not run"),
        "{status}"
    );
    let stop = |text: &str| {
        let input = serde_json::json!({ "session_id": "S", "hook_event_name": "Stop", "last_assistant_message": text });
        let mut c = gsd_cmd(t.path(), &["ralph", "hook", "stop"]);
        c.env_remove("CLAUDE_PROJECT_DIR");
        let o = with_stdin(c, input.to_string().as_bytes());
        assert_eq!(o.status.code(), Some(0));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    // Without the promise the loop goes on…
    assert_eq!(stop("still working")["decision"], "block");
    // …and with it, it ends: there is nothing else to wait for.
    let r = stop("all done <promise>DONE</promise>");
    let msg = r["systemMessage"].as_str().unwrap();
    assert!(
        msg.contains("complete") && msg.contains("none of its 3 check(s) can be run by gsd"),
        "{r}"
    );
    let state: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(t.path().join(".gsd/ralph/loop.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(state["status"], "complete");
}

/// An agent script outside the project (its work tree must stay clean).
fn agent(body: &str) -> (tempfile::TempDir, String) {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("agent.sh");
    std::fs::write(&p, body).unwrap();
    let cmd = format!("sh {}", p.display());
    (d, cmd)
}

#[test]
fn the_runner_reports_checks_before_it_starts_and_checks_files_itself() {
    let t = repo_of("clean");
    mixed_plan(t.path());
    git(t.path(), &["add", "-A"]);
    git(t.path(), &["commit", "-qm", "plan"]);
    // Claims the promise at once, then does the work and claims it again.
    let (_a, cmd) = agent(
        "cat > /dev/null\nif [ -f .gsd/claimed ]; then\n  echo hi > hello.txt; mkdir -p src; echo 'fn main() {}' > src/a.rs\n  git add hello.txt src; git commit -qm work\nfi\ntouch .gsd/claimed\necho 'done <promise>DONE</promise>'\n",
    );
    let o = wait_limited(
        {
            let mut c = gsd_cmd(
                t.path(),
                &[
                    "ralph",
                    "run",
                    "02-02",
                    "--headless",
                    "--agent-cmd",
                    &cmd,
                    "--agent-format",
                    "text",
                ],
            );
            c.env_remove("CLAUDE_PROJECT_DIR");
            c
        },
        std::time::Duration::from_secs(120),
    );
    let err = stderr(&o);
    assert!(
        err.contains("pre-flight: 6 of the 7 check(s) are not commands"),
        "{err}"
    );
    assert!(
        err.contains("task 1: hello.txt [file] — gsd checks that `hello.txt` exists"),
        "{err}"
    );
    assert_eq!(o.status.code(), Some(0), "{}\n{err}", stdout(&o));
    let events: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let verifications: Vec<&serde_json::Value> = events
        .iter()
        .filter(|e| e["event"] == "verification")
        .collect();
    assert_eq!(verifications.len(), 2, "{events:?}");
    // The first claim is refused on the files; the checks gsd cannot run
    // are in neither list.
    let failed: Vec<&str> = verifications[0]["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["passed"] == false)
        .map(|c| c["command"].as_str().unwrap())
        .collect();
    assert_eq!(failed, ["hello.txt", "`src/a.rs` contains `fn main`"]);
    assert_eq!(verifications[1]["checks"].as_array().unwrap().len(), 3);
    assert_eq!(verifications[1]["passed"], true);
    // Task 2's only check is a placeholder: nothing observable says it is
    // done, so it is never counted done.
    let started = &events[0];
    assert_eq!(
        started["tasks_done"], 1,
        "task 3's `true` passes at once: {started}"
    );
}
