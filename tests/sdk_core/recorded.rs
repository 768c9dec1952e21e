//! GSD Core 1.14.0's answers to the read calls of the parity test, recorded
//! once and replayed, so that every corpus tree is compared on every run.
//!
//! Why: the real gsd-tools pays a Node start per call (a quarter of a second
//! here), and the corpus holds 134 trees of dozens of calls each. The
//! package is pinned, so its answer to a call on a tree is data:
//! `GSD_CORE_RECORD=1` asks it of every tree and writes
//! `tests/sdk_core/recorded/1.14.0/reads.jsonl.gz`; `GSD_CORE_RECORD=missing`
//! asks only the calls the recording lacks (a new native command, a new or
//! changed tree) and adds them. Each recording is keyed by the tree's
//! content (a changed tree is asked live, and the test says how many were),
//! and by the call itself; the fixed live sample is always asked live and
//! must still equal its recording, which proves the recording is the peer's.
//! The same scheme as `tests/sdk_parity/peer.rs` for gsd-sdk 1.42.3, without
//! the file changes (these are reads).
//!
//! Answers are stored portable: the copy's folder as `<tree>`, its parent as
//! `<tmp>`, the day's date as `<today>`.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

/// The pinned GSD Core version the recordings belong to.
pub const VERSION: &str = "1.14.0";

/// One call and the peer's answer: argv, stdout, exit code.
pub type Recorded = (Vec<String>, String, i32);

/// The peer's answers on one tree.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TreeAnswers {
    pub tree: String,
    /// `common::fingerprint` of the tree with [`VERSION`].
    pub fingerprint: String,
    pub answers: Vec<Recorded>,
}

/// How this run uses the recordings (`GSD_CORE_RECORD`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Compare against the recordings; ask live what they lack.
    Replay,
    /// `1`: ask every call live and write the recordings anew.
    Record,
    /// `missing`: replay, and add what was asked live to the recordings.
    TopUp,
}

pub fn mode() -> Mode {
    match std::env::var("GSD_CORE_RECORD").as_deref() {
        Ok("1") => Mode::Record,
        Ok("missing") => Mode::TopUp,
        _ => Mode::Replay,
    }
}

fn file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/sdk_core/recorded")
        .join(VERSION)
        .join("reads.jsonl.gz")
}

/// The recordings read at the start of a run, and what this run asked live.
pub struct Recordings {
    by_tree: HashMap<String, TreeAnswers>,
    made: Mutex<Vec<TreeAnswers>>,
}

impl Recordings {
    /// Read the checked-in recordings (none when recording anew).
    pub fn load() -> Self {
        let mut by_tree = HashMap::new();
        if mode() != Mode::Record
            && let Ok(f) = std::fs::File::open(file())
        {
            for line in BufReader::new(flate2::read::GzDecoder::new(f)).lines() {
                let r: TreeAnswers =
                    serde_json::from_str(&line.expect("a recording line")).expect("a recording");
                by_tree.insert(r.tree.clone(), r);
            }
        }
        Recordings {
            by_tree,
            made: Mutex::new(Vec::new()),
        }
    }

    /// The recorded answers of `tree` (the corpus folder), by argv, when
    /// its files are those that were recorded.
    pub fn of(&self, tree: &Path) -> HashMap<Vec<String>, (String, i32)> {
        let name = tree_name(tree);
        let fingerprint = super::common::fingerprint(tree, VERSION);
        self.by_tree
            .get(&name)
            .filter(|r| r.fingerprint == fingerprint)
            .map(|r| {
                r.answers
                    .iter()
                    .map(|(argv, out, exit)| (argv.clone(), (out.clone(), *exit)))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Keep the answers asked live on `tree` (written by [`Self::finish`]).
    pub fn keep(&self, tree: &Path, answers: Vec<Recorded>) {
        if answers.is_empty() {
            return;
        }
        self.made.lock().expect("lock").push(TreeAnswers {
            tree: tree_name(tree),
            fingerprint: super::common::fingerprint(tree, VERSION),
            answers,
        });
    }

    /// Write the recordings when recording or topping up: the trees asked
    /// now, merged over the checked-in ones of the same content.
    pub fn finish(self) {
        if mode() == Mode::Replay {
            return;
        }
        let mut all = self.by_tree;
        for fresh in self.made.into_inner().expect("lock") {
            match all.get_mut(&fresh.tree) {
                Some(old) if old.fingerprint == fresh.fingerprint => {
                    for a in fresh.answers {
                        old.answers.retain(|o| o.0 != a.0);
                        old.answers.push(a);
                    }
                }
                _ => {
                    all.insert(fresh.tree.clone(), fresh);
                }
            }
        }
        let mut trees: Vec<TreeAnswers> = all.into_values().collect();
        trees.sort_by(|a, b| a.tree.cmp(&b.tree));
        std::fs::create_dir_all(file().parent().expect("folder")).expect("recordings folder");
        let f = std::fs::File::create(file()).expect("recording file");
        let mut gz = flate2::write::GzEncoder::new(f, flate2::Compression::best());
        for mut t in trees {
            t.answers.sort();
            writeln!(gz, "{}", serde_json::to_string(&t).expect("json")).expect("write");
        }
        gz.finish().expect("gzip");
    }
}

fn tree_name(tree: &Path) -> String {
    tree.file_name()
        .expect("a tree folder")
        .to_string_lossy()
        .into_owned()
}

/// The day's date as gsd-tools writes it (UTC, `YYYY-MM-DD`).
fn today() -> String {
    jiff::Timestamp::now().strftime("%Y-%m-%d").to_string()
}

/// An answer given in the copy `dir`, made portable.
pub fn portable(text: &str, dir: &Path) -> String {
    let parent = dir.parent().unwrap_or(dir);
    text.replace(&dir.display().to_string(), "<tree>")
        .replace(&parent.display().to_string(), "<tmp>")
        .replace(&today(), "<today>")
}
