//! Task interchange: GSD ⇄ MSW round trips on the corpus (byte for byte)
//! and on arbitrary text (property tests).

use gsd::convert::{ConvTask, gsd_xml, msw};
use proptest::prelude::*;

fn plans(root: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(rd) = std::fs::read_dir(root) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            plans(&p, out);
        } else if p
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.contains("PLAN") && n.ends_with(".md"))
        {
            out.push(p);
        }
    }
}

/// GSD → MSW JSON → GSD gives back the tasks block byte for byte.
#[test]
fn corpus_gsd_msw_gsd_is_byte_identical() {
    let mut roots = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")];
    if let Some(c) = std::env::var_os("GSD_CORPUS") {
        roots.push(c.into());
    }
    let (mut files, mut tasks, mut skipped) = (0, 0, 0);
    for root in roots {
        let mut all = Vec::new();
        plans(&root, &mut all);
        for p in all {
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            let block = match gsd_xml::read(&text) {
                Ok(b) => b,
                Err(_) => {
                    skipped += 1; // no tasks, or unbalanced markup (lint reports it)
                    continue;
                }
            };
            let json = msw::write(&block.tasks);
            let back = msw::read(&json).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let xml = gsd_xml::write(&back, false);
            assert!(
                xml == block.span.slice(&text),
                "{}: tasks block differs after GSD → MSW → GSD",
                p.display()
            );
            files += 1;
            tasks += block.tasks.len();
        }
    }
    println!(
        "convert round trip: {files} plans, {tasks} tasks byte-identical ({skipped} plans without a task block skipped)"
    );
    assert!(files > 5);
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        "[ -~]{0,30}",
        "[a-zé中<>&\"' /\\]\\[;!-]{0,20}",
        prop::sample::select(vec![
            "</task>",
            "</action>",
            "]]>",
            "a < b && c > d",
            "&lt;/x&amp;",
            "line\r\nbreak",
            " padded ",
            "<task type=\"x\">",
            "Vec<String>",
            "&quot;&gt;"
        ])
        .prop_map(str::to_owned),
    ]
}

fn task() -> impl Strategy<Value = ConvTask> {
    (
        (
            "[0-9]{1,3}",
            "[A-Za-z][ -~]{0,20}",
            prop::collection::vec(text(), 0..4),
        ),
        (text(), text(), text()),
        (
            prop::sample::select(vec!["", "auto", "checkpoint:human-verify", "tdd"]),
            prop::collection::vec(("[a-z][a-z_]{0,6}", text()), 0..2),
        ),
        prop::collection::vec(
            (
                prop::sample::select(vec![
                    "behavior",
                    "read_first",
                    "what-built",
                    "resume-signal",
                ]),
                text(),
            ),
            0..2,
        ),
    )
        .prop_map(
            |((id, name, files), (action, verify, done), (kind, attrs), extra)| {
                let mut attributes: Vec<(String, String)> = Vec::new();
                for (k, v) in attrs {
                    if !["type", "id", "gsd-escaped"].contains(&k.as_str())
                        && !attributes.iter().any(|(a, _)| *a == k)
                    {
                        attributes.push((k, v));
                    }
                }
                let extra = extra.into_iter().map(|(k, v)| (k.to_owned(), v)).collect();
                ConvTask {
                    id,
                    name,
                    files,
                    action,
                    verify,
                    done,
                    kind: kind.to_owned(),
                    attributes,
                    extra,
                    gsd: None,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    /// MSW → GSD → MSW is the identity, for arbitrary text in every field.
    #[test]
    fn msw_gsd_msw_is_identity(tasks in prop::collection::vec(task(), 1..4), strict in any::<bool>()) {
        let xml = gsd_xml::write(&tasks, strict);
        let block = gsd_xml::read(&xml).map_err(|e| TestCaseError::fail(format!("{e}\n{xml}")))?;
        let back: Vec<ConvTask> = block.tasks.into_iter().map(|mut t| { t.gsd = None; t }).collect();
        prop_assert_eq!(&back, &tasks, "{}", xml);
        // And through JSON too.
        let again = msw::read(&msw::write(&back)).unwrap();
        prop_assert_eq!(again, tasks);
    }
}
