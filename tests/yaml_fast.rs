//! The YAML fast path must give exactly saphyr's tree (values, styles and
//! spans) whenever it answers: checked on every frontmatter of the fixtures
//! and the corpus (GSD_CORPUS), and on generated documents.

use gsd::doc::frontmatter::{Split, split};
use gsd::doc::yaml::parse_with_saphyr;
use gsd::doc::{Span, yaml_fast};
use proptest::prelude::*;

/// Compare on one YAML text; returns whether the fast path answered.
fn agree(text: &str) -> bool {
    let span = Span::new(0, text.len());
    let Some(fast) = yaml_fast::parse(text, span) else {
        return false;
    };
    let slow = parse_with_saphyr(text, span);
    assert_eq!(
        Ok(Some(fast)),
        slow,
        "fast path differs from saphyr on:\n{text}"
    );
    true
}

fn frontmatters(root: &std::path::Path, out: &mut Vec<String>) {
    let Ok(rd) = std::fs::read_dir(root) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            frontmatters(&p, out);
        } else if p.extension().is_some_and(|x| x == "md")
            && let Ok(text) = std::fs::read_to_string(&p)
        {
            let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
            if let Split::Found { frontmatter, .. } = split(&text, start) {
                out.push(frontmatter.yaml.slice(&text).to_owned());
            }
        }
    }
}

#[test]
fn agrees_with_saphyr_on_real_frontmatter() {
    let mut all = Vec::new();
    frontmatters(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"),
        &mut all,
    );
    if let Some(c) = std::env::var_os("GSD_CORPUS") {
        frontmatters(std::path::Path::new(&c), &mut all);
    }
    let answered = all.iter().filter(|t| agree(t)).count();
    println!(
        "yaml fast path answered {answered} of {} frontmatters",
        all.len()
    );
    assert!(answered > 0);
}

#[test]
fn handles_the_plan_shapes() {
    let t = "phase: 01-x\nplan: 01   # keep\nwave: 2\ndepends_on: [\"01-01\", 01-02]\nfiles_modified: []\n\
             autonomous: true\nrequirements: [A-1,]\nmust_haves:\n  truths:\n    - \"It works\"\n    - 'it''s'\n\
             \x20 artifacts:\n    - path: src/a.rs\n      exports: [\"A\", \"B\"]\n      min_lines: 10\n\
             \x20 key_links:\n    - from: a\n      to: b\nlist:\n- x\n- y\nnote: café — ok # c\n";
    assert!(agree(t));
    let crlf = t.replace('\n', "\r\n");
    assert!(agree(&crlf));
}

#[test]
fn declines_what_it_does_not_know() {
    for t in [
        "a: |\n  block\n",
        "a: &x 1\nb: *x\n",
        "a: \"esc\\n\"\n",
        "a: {b: 1}\n",
        "a:\n",
        "a: multi\n  line\n",
        "a: [1,\n  2]\n",
        "a: !tag x\n",
        "- top\n",
        "a:b\n",
        "a : b\n",
        "- a b : c\n",
        "a: b: c\n",
        "a:\tx\n",
    ] {
        assert!(
            yaml_fast::parse(t, Span::new(0, t.len())).is_none(),
            "{t:?}"
        );
    }
}

fn plain() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9_./é][a-zA-Z0-9_./é -]{0,12}".prop_map(|s| s.trim_end().to_owned())
}

fn scalar() -> impl Strategy<Value = String> {
    prop_oneof![
        plain(),
        "[ -~é]{0,10}".prop_map(|s| format!("'{}'", s.replace('\'', "''"))),
        "[ !#-\\[\\]-~é]{0,10}".prop_map(|s| format!("\"{s}\"")),
    ]
}

proptest! {
    #[test]
    fn generated_documents_agree(
        entries in prop::collection::vec((("[a-z_]{1,8}"), scalar(), prop::collection::vec(scalar(), 0..4), 0u8..4), 1..8),
        nl in prop::sample::select(vec!["\n", "\r\n"]),
        comment in any::<bool>(),
    ) {
        let mut t = String::new();
        for (i, (k, v, list, shape)) in entries.iter().enumerate() {
            let key = format!("{k}{i}");
            match shape {
                0 => t.push_str(&format!("{key}: {v}")),
                1 => t.push_str(&format!("{key}: [{}]", list.join(", "))),
                2 if !list.is_empty() => {
                    t.push_str(&format!("{key}:"));
                    for item in list { t.push_str(&format!("{nl}  - {item}")); }
                }
                _ => t.push_str(&format!("{key}:{nl}  inner: {v}{nl}  other: [{}]", list.join(","))),
            }
            if comment { t.push_str(" # note"); }
            t.push_str(nl);
        }
        // Whether or not the fast path answers, when it does it must agree.
        agree(&t);
    }
}
