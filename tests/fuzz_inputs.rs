//! Mutation fuzzing of every reader that takes text from outside: the
//! frontmatter splitter and YAML, the task scanner (plans), the roadmap and
//! STATE.md readers with the reading and lint over a whole tree, the Stop
//! hook's stdin, the guard's shell parser, and every converter.
//!
//! Seeds are real files (../shared/corpus through `GSD_CORPUS`, else the
//! fixtures); each case applies a few byte-level mutations — flip, insert,
//! delete, splice a piece of another seed, repeat a slice, cut — and the
//! reader must return (an answer or an error) without panicking. cargo-fuzz
//! needs a nightly toolchain and a fuzzer that CI does not install, so this
//! is proptest: `PROPTEST_CASES` sets the number of cases per target (CI
//! runs the default below as a smoke run), and every input that ever failed
//! is kept in `tests/fuzz_inputs.proptest-regressions` and replayed first.

mod common;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use gsd::doc::source::Source;
use gsd::model::document::Document;
use proptest::prelude::*;

/// Cases per target when `PROPTEST_CASES` is not set: a smoke run.
const SMOKE_CASES: u32 = 96;

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(SMOKE_CASES);
    ProptestConfig {
        cases,
        max_shrink_iters: 2_000,
        ..ProptestConfig::default()
    }
}

/// Seed files by kind, read once: `plan`, `roadmap`, `state`, `other`.
fn seeds(kind: &str) -> &'static [Vec<u8>] {
    static SEEDS: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    let all = SEEDS.get_or_init(|| {
        let root = std::env::var_os("GSD_CORPUS")
            .map(PathBuf::from)
            .filter(|p| p.is_dir())
            .unwrap_or_else(|| common::fixture(""));
        let mut files = Vec::new();
        collect(&root, &mut files);
        files.sort();
        // A spread across the corpus, not the first trees only: every
        // seventh file, capped per kind.
        let mut out: Vec<(String, Vec<u8>)> = Vec::new();
        for (i, f) in files.iter().enumerate() {
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            let kind = if name.ends_with("PLAN.md") {
                "plan"
            } else if name == "ROADMAP.md" {
                "roadmap"
            } else if name == "STATE.md" {
                "state"
            } else if name.ends_with(".md") || name.ends_with(".json") {
                "other"
            } else {
                continue;
            };
            let taken = out.iter().filter(|(k, _)| k == kind).count();
            if (i % 7 == 0 || kind != "plan") && taken < 60 {
                let bytes = std::fs::read(f).unwrap_or_default();
                if bytes.len() <= 200_000 {
                    out.push((kind.to_owned(), bytes));
                }
            }
        }
        out
    });
    static BY_KIND: OnceLock<std::collections::HashMap<String, Vec<Vec<u8>>>> = OnceLock::new();
    let map = BY_KIND.get_or_init(|| {
        let mut m: std::collections::HashMap<String, Vec<Vec<u8>>> = Default::default();
        for (k, b) in all {
            m.entry(k.clone()).or_default().push(b.clone());
        }
        m
    });
    map.get(kind).map(Vec::as_slice).unwrap_or(&[])
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_dir() {
            collect(&p, out);
        } else if ft.is_file() {
            out.push(p);
        }
    }
}

/// One byte-level change.
#[derive(Debug, Clone)]
enum Mutation {
    Flip(usize, u8),
    Insert(usize, Vec<u8>),
    Delete(usize, usize),
    Splice(usize, usize, usize),
    Repeat(usize, usize, u8),
    Cut(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    // Pieces that matter to these readers, besides random bytes.
    let tokens: Vec<Vec<u8>> = [
        "---\n",
        "\n---",
        "<task",
        "</task>",
        "<task type=\"auto\">",
        "<name>",
        "</action>",
        "```",
        "\r\n",
        "\u{feff}",
        ": ",
        "- [x] ",
        "| ",
        "### Phase ",
        "**Status:** ",
        "✅",
        "*&a ",
        "&a [",
        "{",
        "}",
        "[",
        "\"",
        "'",
        "\\",
        "$(",
        "`",
        "<<EOF\n",
        "${",
        "\0",
        "\u{2028}",
        "\t",
        "#",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Mutation::Flip(a, b)),
        (any::<usize>(), proptest::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(a, b)| Mutation::Insert(a, b)),
        (any::<usize>(), proptest::sample::select(tokens))
            .prop_map(|(a, t)| Mutation::Insert(a, t)),
        (any::<usize>(), 1usize..64).prop_map(|(a, n)| Mutation::Delete(a, n)),
        (any::<usize>(), any::<usize>(), 1usize..512)
            .prop_map(|(a, b, n)| Mutation::Splice(a, b, n)),
        (any::<usize>(), 1usize..32, 2u8..64).prop_map(|(a, n, k)| Mutation::Repeat(a, n, k)),
        any::<usize>().prop_map(Mutation::Cut),
    ]
}

/// A seed of `kind` with `muts` applied (`other` supplies splice donors).
fn mutate(kind: &str, pick: usize, donor: usize, muts: &[Mutation]) -> Vec<u8> {
    let pool = seeds(kind);
    assert!(
        !pool.is_empty(),
        "no {kind} seed files: the fuzzing would be empty"
    );
    let mut b = pool[pick % pool.len()].clone();
    let donors = seeds("other");
    for m in muts {
        let len = b.len();
        let at = |x: usize| if len == 0 { 0 } else { x % (len + 1) };
        match m {
            Mutation::Flip(a, v) if len > 0 => {
                let i = a % len;
                b[i] ^= v | 1;
            }
            Mutation::Flip(..) => {}
            Mutation::Insert(a, bytes) => {
                let i = at(*a);
                b.splice(i..i, bytes.iter().copied());
            }
            Mutation::Delete(a, n) => {
                let i = at(*a);
                let j = (i + n).min(len);
                b.drain(i..j);
            }
            Mutation::Splice(a, from, n) => {
                if let Some(d) = donors.get(donor % donors.len().max(1)) {
                    let s = if d.is_empty() { 0 } else { from % d.len() };
                    let e = (s + n).min(d.len());
                    let i = at(*a);
                    b.splice(i..i, d[s..e].iter().copied());
                }
            }
            Mutation::Repeat(a, n, k) => {
                let i = at(*a);
                let j = (i + n).min(len);
                let piece = b[i..j].to_vec();
                for _ in 0..*k {
                    b.splice(j..j, piece.iter().copied());
                }
            }
            Mutation::Cut(a) => {
                let i = at(*a);
                b.truncate(i);
            }
        }
    }
    b
}

fn doc(name: &str, bytes: Vec<u8>) -> Document {
    Document::parse(
        Source::from_bytes(PathBuf::from(name), bytes),
        PathBuf::from(name),
    )
}

fn case() -> impl Strategy<Value = (usize, usize, Vec<Mutation>)> {
    (
        any::<usize>(),
        any::<usize>(),
        proptest::collection::vec(mutation(), 1..6),
    )
}

proptest! {
    #![proptest_config(config())]

    /// Frontmatter, YAML and the task scanner on plans; an unchanged source
    /// gives back its bytes.
    #[test]
    fn plans_frontmatter_and_tasks((pick, donor, muts) in case()) {
        let bytes = mutate("plan", pick, donor, &muts);
        let src = Source::from_bytes(PathBuf::from("x-PLAN.md"), bytes.clone());
        prop_assert_eq!(src.bytes(), &bytes[..]);
        let plan = gsd::model::Plan::parse(doc(".planning/phases/01-x/01-01-PLAN.md", bytes));
        let _ = plan.doc.fm();
        let _ = gsd::convert::gsd_xml::read(plan.doc.text());
    }

    /// ROADMAP.md and STATE.md, alone and as a tree: the reading and every
    /// lint rule (with the human renderer's excerpts) over the result.
    #[test]
    fn roadmap_state_reading_and_lint((pick, donor, muts) in case(), which in 0u8..2) {
        let kind = if which == 0 { "roadmap" } else { "state" };
        let bytes = mutate(kind, pick, donor, &muts);
        let _ = gsd::model::roadmap::Roadmap::parse(doc(".planning/ROADMAP.md", bytes.clone()));
        let _ = gsd::model::state::State::parse(doc(".planning/STATE.md", bytes.clone()));
        let t = tempfile::tempdir().unwrap();
        let pl = t.path().join(".planning");
        std::fs::create_dir_all(pl.join("phases/01-core")).unwrap();
        let other = if which == 0 { "STATE.md" } else { "ROADMAP.md" };
        let other_seed = seeds(if which == 0 { "state" } else { "roadmap" });
        if let Some(s) = other_seed.get(donor % other_seed.len().max(1)) {
            std::fs::write(pl.join(other), s).unwrap();
        }
        std::fs::write(pl.join(if which == 0 { "ROADMAP.md" } else { "STATE.md" }), &bytes).unwrap();
        let plan = mutate("plan", donor, pick, &muts[..1]);
        std::fs::write(pl.join("phases/01-core/01-01-PLAN.md"), plan).unwrap();
        if let Ok(ws) = gsd::model::Workspace::load(t.path()) {
            let _ = gsd::model::reading::RoadmapReading::new(&ws);
            let found = gsd::lint::run(&ws, &gsd::lint::Options::default());
            let docs: std::collections::HashMap<&Path, &Document> = ws
                .documents()
                .into_iter()
                .map(|d| (&*d.rel_path, d))
                .collect();
            let _ = gsd::lint::output::human::render(&found, &docs, false, docs.len(), &[]);
        }
    }

    /// The Stop hook's stdin: JSON of any shape, or not JSON at all.
    #[test]
    fn hook_stdin((pick, donor, muts) in case()) {
        let seed = br#"{"session_id":"s","transcript_path":"/tmp/t.jsonl","hook_event_name":"Stop","stop_hook_active":false,"tool_name":"Bash","tool_input":{"command":"cargo test"}}"#;
        let mut bytes = seed.to_vec();
        if pick % 3 == 0 {
            bytes = mutate("other", pick, donor, &[]);
        }
        for m in &muts {
            if let Mutation::Insert(a, b) = m {
                let i = a % (bytes.len() + 1);
                bytes.splice(i..i, b.iter().copied());
            }
        }
        let _ = gsd::ralph::hook_io::HookInput::parse(&String::from_utf8_lossy(&bytes));
    }

    /// The guard's shell parser, on commands built from shell syntax.
    #[test]
    fn guard_shell_parser(parts in proptest::collection::vec(proptest::sample::select(vec![
        "cargo test", "rm -rf /", "echo $(id)", "a && b", "a || b", "a; b", "a | b", "'quoted", "\"dq",
        "`tick`", "<<EOF\nx\nEOF", "${HOME}", "$((1+2))", "cd ..", "> /dev/null", "2>&1", "&", "(", ")",
        "{ a; }", "\\\n", "# c", "x=1 y", "if a; then b; fi", "for i in 1 2; do x; done", "case x in a) b;; esac",
        "<(a)", ">(b)", "'", "\"", "\\", "$'\\x41'", "!!", "~", "*", "?", "[", "]",
    ]), 1..12), seps in proptest::collection::vec(proptest::sample::select(vec![" ", "", "\n", "\t", ";"]), 12)) {
        let mut script = String::new();
        for (i, p) in parts.iter().enumerate() {
            script.push_str(p);
            script.push_str(seps[i % seps.len()]);
        }
        let _ = gsd::ralph::guard::shell::parse(&script);
        let _ = gsd::ralph::guard::shell::simple_commands(&script);
    }

    /// Every converter reads whatever it is given, and what it reads it
    /// writes in every format.
    #[test]
    fn converters((pick, donor, muts) in case(), fmt in 0usize..6) {
        let bytes = mutate(if fmt == 0 { "plan" } else { "other" }, pick, donor, &muts);
        let text = String::from_utf8_lossy(&bytes);
        let (_, format) = gsd::convert::Format::ALL[fmt];
        let _ = gsd::convert::Format::detect(&text);
        if let Ok(tasks) = format.read(&text) {
            for (_, to) in gsd::convert::Format::ALL {
                let _ = to.write(&tasks, false);
                let _ = to.write(&tasks, true);
            }
        }
    }
}
