//! gsd-sdk's side of the parity harness: its answers to a tree's calls, and
//! the files those calls changed, either live (the pinned npm package through
//! `driver.mjs`) or replayed from recordings of an earlier live run.
//!
//! Why: asking the live peer costs a Node start per write and minutes per
//! tree, and the corpus keeps growing. gsd-sdk is pinned, so its answers on a
//! tree are data: `bench/sdk-record.sh` records them once per version into
//! `tests/sdk_parity/recorded/<version>/<test>.jsonl.gz`, and the harness
//! compares gsd against them. A recording is keyed by the tree's content, so
//! a tree that changed (or is new) is asked live and said so; a fixed sample
//! of trees (`live_sample`) is always asked live and its answers must equal
//! the recording's, which proves the recordings still are the peer's.
//!
//! Replaying a call returns the recorded answer and writes the recorded file
//! changes into the tree, so the harness's snapshots of gsd-sdk's copy are
//! the same as after a live call. Paths of the copy, its temp parent and the
//! day's date are written as `<tree>`, `<tmp>` and `<today>` in recordings.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The pinned gsd-sdk version the recordings belong to.
pub const VERSION: &str = "1.42.3";

/// One peer call batch: the calls, their answers, and the files they changed.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Step {
    pub calls: Vec<Vec<String>>,
    pub answers: Vec<(String, i32)>,
    /// Changed or new files (relative path, contents) and removed ones (None).
    pub delta: Vec<(String, Option<Content>)>,
    /// What the harness observed of the peer's side beyond files (its git
    /// history), through [`observe`].
    #[serde(default)]
    pub observed: Option<bool>,
}

/// A file's bytes: text when UTF-8 (most), else the bytes.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub enum Content {
    Text(String),
    Bytes(Vec<u8>),
}

/// Every step gsd-sdk took on one tree in one test.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TreeRecording {
    pub test: String,
    pub tree: String,
    /// Hash of the tree's files and the peer version: a changed tree is
    /// asked live.
    pub fingerprint: String,
    pub steps: Vec<Step>,
}

/// How a tree's peer answers were had, for the harness's report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Replayed,
    /// In the fixed live sample: asked live and checked against the recording.
    SampleChecked,
    /// Not recorded (new or changed tree, or a call the recording lacks).
    Live,
}

struct Context {
    test: String,
    tree: String,
    fingerprint: String,
    recorded: Option<Vec<Step>>,
    cursor: usize,
    live: bool,
    sample: bool,
    steps: Vec<Step>,
}

thread_local! {
    static CURRENT: RefCell<Option<Context>> = const { RefCell::new(None) };
}

fn package() -> PathBuf {
    PathBuf::from(std::env::var_os("GSD_SDK").expect("GSD_SDK names the get-shit-done-cc package"))
}

/// Whether this run records (`GSD_SDK_RECORD=1`): every tree is asked live
/// and the recordings are written anew.
pub fn recording() -> bool {
    std::env::var("GSD_SDK_RECORD").is_ok_and(|v| v == "1")
}

fn recordings_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/sdk_parity/recorded")
        .join(VERSION)
}

fn recording_file(test: &str) -> PathBuf {
    recordings_dir().join(format!("{test}.jsonl.gz"))
}

type Store = HashMap<(String, String), TreeRecording>;

/// The recordings of every test, read once.
fn store() -> &'static Store {
    static STORE: OnceLock<Store> = OnceLock::new();
    STORE.get_or_init(|| {
        let mut out = Store::new();
        for e in std::fs::read_dir(recordings_dir())
            .into_iter()
            .flatten()
            .flatten()
        {
            let Ok(f) = std::fs::File::open(e.path()) else {
                continue;
            };
            for line in BufReader::new(flate2::read::GzDecoder::new(f)).lines() {
                let line = line.expect("a recording line");
                let r: TreeRecording = serde_json::from_str(&line).expect("a recording");
                out.insert((r.test.clone(), r.tree.clone()), r);
            }
        }
        out
    })
}

/// Recordings made in this run, written by [`finish`].
fn made() -> &'static Mutex<Vec<TreeRecording>> {
    static MADE: OnceLock<Mutex<Vec<TreeRecording>>> = OnceLock::new();
    MADE.get_or_init(|| Mutex::new(Vec::new()))
}

/// The fixed live sample: trees whose name hashes to a first byte below 16
/// (about one in sixteen), whatever the corpus holds.
pub fn live_sample(tree: &str) -> bool {
    Sha256::digest(tree.as_bytes())[0] < 16
}

/// Hash of every file under `dir` (paths and bytes) and the peer version.
pub fn fingerprint(dir: &Path) -> String {
    super::common::fingerprint(dir, VERSION)
}

/// Start asking about `tree` (the corpus folder) in `test`, on this thread.
pub fn begin(test: &str, tree: &Path) -> Source {
    let name = tree
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let fingerprint = fingerprint(tree);
    // A recording run asks everything anew, comparing with nothing.
    let recorded = store()
        .get(&(test.to_string(), name.clone()))
        .filter(|r| r.fingerprint == fingerprint && !recording())
        .map(|r| r.steps.clone());
    let sample = live_sample(&name);
    let live = recording() || recorded.is_none() || sample;
    CURRENT.with(|c| {
        *c.borrow_mut() = Some(Context {
            test: test.to_string(),
            tree: name,
            fingerprint,
            recorded,
            cursor: 0,
            live,
            sample,
            steps: Vec::new(),
        })
    });
    source_now()
}

fn source_now() -> Source {
    CURRENT.with(|c| {
        let c = c.borrow();
        let c = c.as_ref().expect("peer::begin first");
        match (c.live, c.sample && c.recorded.is_some()) {
            (false, _) => Source::Replayed,
            (true, true) => Source::SampleChecked,
            (true, false) => Source::Live,
        }
    })
}

/// Stop asking about the current tree: keep what was asked live (for the
/// recordings) and say how its answers were had.
pub fn end() -> Source {
    let source = source_now();
    let c = CURRENT
        .with(|c| c.borrow_mut().take())
        .expect("peer::begin first");
    if c.live {
        made().lock().expect("lock").push(TreeRecording {
            test: c.test,
            tree: c.tree,
            fingerprint: c.fingerprint,
            steps: c.steps,
        });
    }
    source
}

/// Whether this run tops the recordings up (`GSD_SDK_RECORD=missing`):
/// recorded trees are replayed, and the trees asked live (new, changed, or
/// whose recording lacked a call) are added to the recordings.
fn topping_up() -> bool {
    std::env::var("GSD_SDK_RECORD").is_ok_and(|v| v == "missing")
}

/// In a recording run, write this test's recordings (sorted by tree); in a
/// top-up run, the recordings with the trees asked live replaced or added.
pub fn finish(test: &str) {
    if !recording() && !topping_up() {
        return;
    }
    let mut mine: Vec<TreeRecording> = made()
        .lock()
        .expect("lock")
        .iter()
        .filter(|r| r.test == test)
        .cloned()
        .collect();
    if topping_up() {
        if mine.is_empty() {
            return;
        }
        let fresh: std::collections::HashSet<String> =
            mine.iter().map(|r| r.tree.clone()).collect();
        mine.extend(
            store()
                .values()
                .filter(|r| r.test == test && !fresh.contains(&r.tree))
                .cloned(),
        );
    }
    mine.sort_by(|a, b| a.tree.cmp(&b.tree));
    std::fs::create_dir_all(recordings_dir()).expect("recordings folder");
    let f = std::fs::File::create(recording_file(test)).expect("recording file");
    let mut gz = flate2::write::GzEncoder::new(f, flate2::Compression::best());
    for r in mine {
        writeln!(gz, "{}", serde_json::to_string(&r).expect("json")).expect("write");
    }
    gz.finish().expect("gzip");
}

/// The day's date as gsd-sdk writes it (UTC, `YYYY-MM-DD`).
fn today() -> String {
    jiff::Timestamp::now().strftime("%Y-%m-%d").to_string()
}

/// Text with this copy's paths and the date made portable.
fn portable(text: &str, dir: &Path) -> String {
    let parent = dir.parent().unwrap_or(dir);
    text.replace(&dir.display().to_string(), "<tree>")
        .replace(&parent.display().to_string(), "<tmp>")
        .replace(&today(), "<today>")
}

/// A portable text put back into this copy.
fn local(text: &str, dir: &Path) -> String {
    let parent = dir.parent().unwrap_or(dir);
    text.replace("<tree>", &dir.display().to_string())
        .replace("<tmp>", &parent.display().to_string())
        .replace("<today>", &today())
}

/// Every file under `dir` but git's and gsd's own folders (`.git`, `.gsd`),
/// by path relative to `dir`: the harness's snapshots of a copy.
pub fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.file_name().is_some_and(|n| n == ".git" || n == ".gsd") {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).expect("inside").to_path_buf();
                out.insert(rel, std::fs::read(&p).unwrap_or_default());
            }
        }
    }
    out
}

/// gsd-sdk's answers to `calls` on `dir` (a copy of the current tree):
/// replayed when the recording has this step, else asked live.
pub fn answers(dir: &Path, calls: &[Vec<String>]) -> Vec<(String, i32)> {
    let replay = CURRENT.with(|c| {
        let mut c = c.borrow_mut();
        let c = c.as_mut().expect("peer::begin first");
        let step = c.recorded.as_ref().and_then(|r| r.get(c.cursor)).cloned();
        c.cursor += 1;
        match step {
            Some(s) if s.calls == calls => Some(s),
            _ => {
                // The recording does not hold this call: the rest of the
                // tree is asked live.
                c.live = true;
                c.recorded = None;
                None
            }
        }
    });
    let live = CURRENT.with(|c| c.borrow().as_ref().is_some_and(|c| c.live));
    if !live && let Some(step) = replay {
        apply(dir, &step.delta);
        // Kept too: a tree that goes live later has its whole run recorded.
        CURRENT.with(|c| {
            c.borrow_mut()
                .as_mut()
                .expect("peer::begin first")
                .steps
                .push(step.clone())
        });
        return step
            .answers
            .iter()
            .map(|(o, e)| (local(o, dir), *e))
            .collect();
    }
    let before = files(dir);
    let got = ask_live(dir, calls);
    let after = files(dir);
    let mut delta: Vec<(String, Option<Content>)> = after
        .iter()
        .filter(|(p, b)| before.get(*p) != Some(*b))
        .map(|(p, b)| {
            let content = match String::from_utf8(b.clone()) {
                Ok(t) => Content::Text(portable(&t, dir)),
                Err(_) => Content::Bytes(b.clone()),
            };
            (p.display().to_string(), Some(content))
        })
        .collect();
    delta.extend(
        before
            .keys()
            .filter(|p| !after.contains_key(*p))
            .map(|p| (p.display().to_string(), None)),
    );
    let step = Step {
        calls: calls.to_vec(),
        answers: got.iter().map(|(o, e)| (portable(o, dir), *e)).collect(),
        delta,
        observed: None,
    };
    if let Some(expected) = replay {
        // The live sample: the recording must be what the peer says now.
        let local_answers = |a: &[(String, i32)]| {
            a.iter()
                .map(|(o, e)| (super::without_clock(&local(o, dir)), *e))
                .collect::<Vec<_>>()
        };
        let (want, got_now) = (
            local_answers(&expected.answers),
            local_answers(&step.answers),
        );
        if let Some(i) = (0..want.len()).find(|i| want.get(*i) != got_now.get(*i)) {
            let (w, g) = (&want[i].0, &got_now.get(i).map_or("", |x| x.0.as_str()));
            let at = w.chars().zip(g.chars()).take_while(|(x, y)| x == y).count();
            let around = |t: &str| {
                t.chars()
                    .skip(at.saturating_sub(120))
                    .take(240)
                    .collect::<String>()
            };
            panic!(
                "the recorded gsd-sdk answer to {:?} differs from the live one (re-run bench/sdk-record.sh):\n--- recorded\n{}\n--- live\n{}",
                calls[i],
                around(w),
                around(g)
            );
        }
    }
    CURRENT.with(|c| {
        c.borrow_mut()
            .as_mut()
            .expect("peer::begin first")
            .steps
            .push(step)
    });
    got
}

/// A fact about the peer's copy that is not in its files (what its last
/// call committed): looked at when live and kept with the last step,
/// read from it when replayed.
pub fn observe(look: impl FnOnce() -> bool) -> bool {
    CURRENT.with(|c| {
        let mut c = c.borrow_mut();
        let c = c.as_mut().expect("peer::begin first");
        if c.live {
            let seen = look();
            if let Some(last) = c.steps.last_mut() {
                last.observed = Some(seen);
            }
            seen
        } else {
            let i = c.cursor.checked_sub(1).expect("a step was replayed");
            c.recorded.as_ref().expect("recorded")[i]
                .observed
                .expect("the recording observed it")
        }
    })
}

/// Write a recorded step's file changes into `dir`.
fn apply(dir: &Path, delta: &[(String, Option<Content>)]) {
    for (rel, content) in delta {
        let p = dir.join(rel);
        match content {
            None => {
                let _ = std::fs::remove_file(&p);
            }
            Some(c) => {
                if let Some(parent) = p.parent() {
                    std::fs::create_dir_all(parent).expect("mkdir");
                }
                let bytes = match c {
                    Content::Text(t) => local(t, dir).into_bytes(),
                    Content::Bytes(b) => b.clone(),
                };
                std::fs::write(&p, bytes).expect("apply a recorded change");
            }
        }
    }
    // A removed file may leave its folder empty, as the live peer did.
    let mut dirs: Vec<PathBuf> = delta
        .iter()
        .filter(|(_, c)| c.is_none())
        .filter_map(|(rel, _)| dir.join(rel).parent().map(Path::to_path_buf))
        .collect();
    dirs.sort();
    dirs.dedup();
    for d in dirs.iter().rev() {
        if d.starts_with(dir) && d != dir {
            let _ = std::fs::remove_dir(d);
        }
    }
}

/// The live peer: many calls in one Node process through `driver.mjs`.
pub fn ask_live(dir: &Path, calls: &[Vec<String>]) -> Vec<(String, i32)> {
    let driver = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sdk_parity/driver.mjs");
    let mut child = Command::new("node")
        .env_remove("BRAVE_API_KEY")
        .arg(driver)
        .arg(package())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("node runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let lines: Vec<String> = calls
        .iter()
        .map(|argv| {
            let mut v = vec![dir.display().to_string()];
            v.extend(argv.iter().cloned());
            serde_json::to_string(&v).expect("json")
        })
        .collect();
    let writer = std::thread::spawn(move || {
        for l in lines {
            writeln!(stdin, "{l}").expect("write to driver");
        }
    });
    let mut text = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut text)
        .expect("driver output");
    let answers: Vec<(String, i32)> = text
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("driver json");
            (
                v["stdout"].as_str().unwrap_or("").to_string(),
                v["exit"].as_i64().unwrap_or(-1) as i32,
            )
        })
        .collect();
    writer.join().expect("writer");
    assert!(child.wait().expect("driver ends").success());
    assert_eq!(answers.len(), calls.len(), "the driver answered every call");
    answers
}
