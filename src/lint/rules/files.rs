//! Rules about files as files: encoding, size, binaries, conflicts, emptiness.

use crate::doc::Span;
use crate::lint::Severity;
use crate::lint::context::{Ctx, Sink};
use crate::model::workspace::{PhaseLocation, SkipReason};

/// A file that is not UTF-8 weighs by who reads it: an error in the
/// documents GSD's tools read to plan and run (the root documents, a live
/// phase's plans and summaries), a warning in a live phase's other notes
/// (its agents read them) and pending todos, info elsewhere — a shipped milestone's
/// retrospective, research, archives — which no tool reads for the work.
pub fn file_not_utf8(cx: &Ctx, s: &mut Sink) {
    let view = cx.view;
    let mut weighed: Vec<(&crate::model::Document, Severity)> =
        view.core.iter().map(|d| (*d, Severity::Error)).collect();
    for ph in view.phases {
        let live = matches!(ph.location, PhaseLocation::Current)
            && ph.id.as_ref().is_some_and(|id| cx.live(id));
        let (run, notes) = if live {
            (Severity::Error, Severity::Warning)
        } else {
            (Severity::Info, Severity::Info)
        };
        weighed.extend(ph.plans.iter().map(|p| (&p.doc, run)));
        weighed.extend(ph.summaries.iter().map(|p| (&p.doc, run)));
        weighed.extend(ph.other_docs.iter().map(|d| (d, notes)));
    }
    weighed.extend(view.loose_plans.iter().map(|p| (&p.doc, Severity::Warning)));
    weighed.extend(view.other.iter().map(|d| {
        // Pending todos are read by GSD's todo commands.
        let pending = d.rel_path.components().any(|c| c.as_os_str() == "pending");
        (
            d,
            if pending {
                Severity::Warning
            } else {
                Severity::Info
            },
        )
    }));
    for (doc, severity) in weighed {
        // NUL bytes are valid UTF-8 but no text: a part saved as UTF-16
        // (an editor or shell appending `Phase 35` in another encoding)
        // reads as `P\0h\0a\0…`, which no tool matches.
        let utf16 = matches!(doc.source.bytes(), [0xFF, 0xFE, ..] | [0xFE, 0xFF, ..]);
        let found = match doc.source.utf8_error_at() {
            Some(at) => Some((
                at,
                format!(
                    "{} is not valid UTF-8 (first bad byte at offset {at}){}",
                    doc.rel_path.display(),
                    if utf16 { ": it is saved as UTF-16" } else { "" }
                ),
            )),
            None => memchr::memchr(0, doc.text().as_bytes()).map(|at| {
                (
                    at,
                    format!(
                        "{} holds NUL bytes from offset {at}: part of it is not UTF-8 text (saved as UTF-16?)",
                        doc.rel_path.display()
                    ),
                )
            }),
        };
        if let Some((at, message)) = found {
            s.at_severity(
                severity.max(s.severity()),
                doc,
                Span::new(at, at + 1),
                message,
                "save the file as UTF-8; gsd keeps its bytes but cannot read it",
            );
        }
    }
}

pub fn binary_file(cx: &Ctx, s: &mut Sink) {
    for sk in cx.view.skipped {
        if sk.reason == SkipReason::Binary {
            s.file(
                &sk.rel_path,
                format!("binary file {} skipped", sk.rel_path.display()),
                "binary files do not belong in .planning/; move it elsewhere or ignore this rule",
            );
        }
    }
}

pub fn file_too_large(cx: &Ctx, s: &mut Sink) {
    for sk in cx.view.skipped {
        match &sk.reason {
            SkipReason::TooLarge(n) => s.file(
                &sk.rel_path,
                format!(
                    "{} is {} MB; files over {} MB are not parsed",
                    sk.rel_path.display(),
                    n / 1_000_000,
                    crate::model::workspace::MAX_FILE_BYTES / 1_000_000
                ),
                "split the file or move generated data out of .planning/",
            ),
            SkipReason::NotAFile(_) | SkipReason::Unreadable(_) | SkipReason::Binary => {}
        }
    }
}

pub fn file_unreadable(cx: &Ctx, s: &mut Sink) {
    for sk in cx.view.skipped {
        // An entry kept in an archive folder (`archive/legacy-tooling/…`)
        // is put aside: nothing reads it, a broken one breaks nothing.
        let put_aside = sk
            .rel_path
            .components()
            .any(|c| crate::model::workspace::is_archive_folder(&c.as_os_str().to_string_lossy()));
        let severity = if put_aside {
            crate::lint::Severity::Info
        } else {
            s.severity()
        };
        match &sk.reason {
            SkipReason::NotAFile(what) => s.file_severity(
                severity,
                &sk.rel_path,
                format!("{} is {what}, so it was not read", sk.rel_path.display()),
                "put the file itself in .planning/ instead, or move this entry out of it",
            ),
            SkipReason::Unreadable(e) => s.file_severity(
                severity,
                &sk.rel_path,
                format!("cannot read {}: {e}", sk.rel_path.display()),
                "check the file's permissions",
            ),
            SkipReason::TooLarge(_) | SkipReason::Binary => {}
        }
    }
}

/// Markers in a file of live work (the root documents, a live phase's
/// files, notes outside the archives) break whoever reads it next: the
/// rule's severity. In a shipped or finished phase's files, or an archive,
/// they are damage to history nobody reads for the work: a note.
pub fn merge_conflict_markers(cx: &Ctx, s: &mut Sink) {
    let view = cx.view;
    let rule = s.severity();
    let mut weighed: Vec<(&crate::model::Document, Severity)> =
        view.core.iter().map(|d| (*d, rule)).collect();
    for ph in view.phases {
        // Finished: archived, or read as complete or shipped. A phase of a
        // later milestone, a backlog one, one the roadmap does not name
        // keeps the rule's severity: someone will read those files.
        let finished = !matches!(ph.location, PhaseLocation::Current)
            || ph.id.as_ref().is_some_and(|id| {
                cx.reading
                    .phase(id)
                    .is_some_and(|p| p.archived || p.status == "complete")
            });
        let severity = if finished { Severity::Info } else { rule };
        weighed.extend(ph.plans.iter().map(|p| (&p.doc, severity)));
        weighed.extend(ph.summaries.iter().map(|p| (&p.doc, severity)));
        weighed.extend(ph.other_docs.iter().map(|d| (d, severity)));
    }
    weighed.extend(view.loose_plans.iter().map(|p| (&p.doc, rule)));
    weighed.extend(view.other.iter().map(|d| {
        let archived = d
            .rel_path
            .components()
            .any(|c| crate::model::workspace::is_archive_folder(&c.as_os_str().to_string_lossy()));
        (d, if archived { Severity::Info } else { rule })
    }));
    for (doc, severity) in weighed {
        let text = doc.text();
        if !text.contains("<<<<<<< ") && !text.contains("<<<<<<<\n") {
            continue;
        }
        let mut open: Option<usize> = None;
        let mut offset = 0;
        for line in text.split_inclusive('\n') {
            let t = line.trim_end();
            if t.starts_with("<<<<<<<") && open.is_none() {
                open = Some(offset);
            } else if t.starts_with(">>>>>>>")
                && let Some(start) = open.take()
            {
                let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
                s.at_severity(severity, doc, Span::new(start, end), "unresolved merge-conflict markers", "resolve the conflict (keep one side) and remove the <<<<<<< ======= >>>>>>> lines");
            }
            offset += line.len();
        }
    }
}

pub fn empty_file(cx: &Ctx, s: &mut Sink) {
    for doc in cx.view.documents() {
        let name = doc.file_name();
        // .gitkeep and friends are meant to be empty.
        if name.starts_with('.') || !(name.ends_with(".md") || name.ends_with(".json")) {
            continue;
        }
        if doc
            .source
            .text()
            .is_some_and(|t| t.trim_start_matches('\u{feff}').trim().is_empty())
        {
            // An empty note of the user's own beside the root files breaks
            // nothing GSD reads: worth tidying, not a warning.
            let severity = if is_root_note(doc) {
                Severity::Info
            } else {
                s.severity()
            };
            s.file_severity(
                severity,
                &doc.rel_path,
                format!("{} is empty", doc.rel_path.display()),
                "fill it in or delete it",
            );
        }
    }
}

/// A markdown file at the root of `.planning/` that is none of GSD's own
/// (`notes.md`, `PROJECT-FRONTEND.md`): nothing GSD runs reads it.
fn is_root_note(doc: &crate::model::Document) -> bool {
    let name = doc.file_name();
    doc.rel_path.iter().count() == 2
        && name.ends_with(".md")
        && !ROOT_FILES.contains(&name)
        && !is_versioned(name)
}

const ROOT_FILES: &[&str] = &[
    "PROJECT.md",
    "ROADMAP.md",
    "STATE.md",
    "REQUIREMENTS.md",
    "MILESTONES.md",
    "BACKLOG.md",
    "LEARNINGS.md",
    "THREADS.md",
    "CLAUDE.md",
    "RETROSPECTIVE.md",
    "STATE-ARCHIVE.md",
    ".continue-here.md",
];

/// `v1.2-…md`, `v1.2.3-…md`
fn is_versioned(name: &str) -> bool {
    let Some(rest) = name.strip_prefix('v') else {
        return false;
    };
    let Some((ver, _)) = rest.split_once('-') else {
        return false;
    };
    ver.contains('.')
        && ver
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

pub fn unknown_root_file(cx: &Ctx, s: &mut Sink) {
    for doc in cx.view.other {
        if is_root_note(doc) {
            let name = doc.file_name();
            s.file(&doc.rel_path, format!("unrecognized root file {name}"), "GSD's root files are PROJECT, ROADMAP, STATE, REQUIREMENTS, MILESTONES, … and vX.Y-*.md; move notes into a folder such as research/ or todos/");
        }
    }
}
