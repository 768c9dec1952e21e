//! Parse then write back is byte-identical, on fixtures and on generated
//! text (CRLF, mixed endings, BOM, non-ASCII), and a no-op edit of every
//! YAML scalar changes nothing.

use gsd::doc::yaml::{Node, Value};
use gsd::doc::{Edit, Source, apply_edits};
use gsd::model::Document;
use proptest::prelude::*;

fn scalar_edits(n: &Node, text: &str, out: &mut Vec<Edit>) {
    match &n.value {
        Value::Scalar(_) if !n.from_alias => out.push(Edit::new(n.span, n.span.slice(text))),
        Value::Scalar(_) => {}
        Value::Seq(items) => items.iter().for_each(|i| scalar_edits(i, text, out)),
        Value::Map(entries) => entries.iter().for_each(|(k, v)| {
            scalar_edits(k, text, out);
            scalar_edits(v, text, out);
        }),
    }
}

fn check(bytes: Vec<u8>) {
    let doc = Document::parse(
        Source::from_bytes("x.md", bytes.clone()),
        std::path::Path::new("x.md"),
    );
    assert_eq!(doc.reassemble(), bytes);
    if let Some(fm) = doc.fm() {
        let mut edits = Vec::new();
        scalar_edits(fm, doc.text(), &mut edits);
        assert_eq!(apply_edits(doc.text(), &edits).unwrap().into_bytes(), bytes);
    }
}

#[test]
fn fixture_files_round_trip() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut stack = vec![root];
    let mut n = 0;
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else {
                check(std::fs::read(e.path()).unwrap());
                n += 1;
            }
        }
    }
    assert!(n > 30);
}

proptest! {
    #[test]
    fn generated_documents_round_trip(
        bom in any::<bool>(),
        nl in prop::sample::select(vec!["\n", "\r\n"]),
        mixed in any::<bool>(),
        keys in prop::collection::vec(("[a-z_]{1,8}", "[ -~éü中]{0,20}"), 0..6),
        body in "[ -~éü中<>&`\n]{0,200}",
    ) {
        let mut s = String::new();
        if bom { s.push('\u{feff}'); }
        s.push_str("---");
        s.push_str(nl);
        for (i, (k, v)) in keys.iter().enumerate() {
            let v = v.replace('\'', "''");
            s.push_str(&format!("{k}{i}: '{v}'"));
            s.push_str(if mixed && i % 2 == 1 { "\n" } else { nl });
        }
        s.push_str("---");
        s.push_str(nl);
        s.push_str(&body);
        check(s.into_bytes());
    }
}
