//! gray_matter as an oracle: on well-formed LF files, our splitter finds
//! the same frontmatter text gray_matter does (gray_matter itself cannot be
//! the lossless path: it has no offsets and normalizes line endings).

use gray_matter::Matter;
use gray_matter::engine::YAML;
use gsd::doc::frontmatter::{Split, split};

#[test]
fn splitter_agrees_with_gray_matter() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/clean/.planning");
    let mut stack = vec![root];
    let mut compared = 0;
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            if p.extension().is_none_or(|x| x != "md")
                || text.contains('\r')
                || text.starts_with('\u{feff}')
            {
                continue;
            }
            let ours = match split(&text, 0) {
                Split::Found { frontmatter, .. } => {
                    Some(frontmatter.yaml.slice(&text).trim().to_owned())
                }
                _ => None,
            };
            let theirs = Matter::<YAML>::new()
                .parse::<gray_matter::Pod>(&text)
                .ok()
                .map(|m| m.matter.trim().to_owned())
                .filter(|m| !m.is_empty());
            assert_eq!(ours, theirs, "{}", p.display());
            compared += 1;
        }
    }
    assert!(compared >= 5);
}
