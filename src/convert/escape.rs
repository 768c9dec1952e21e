//! Escaping for text written into GSD tasks from other formats.
//!
//! Raw GSD text is written as is (people and agents read it), except what
//! would end or open a task element early: `</…` and `<task`, `<name`, …
//! become `&lt;…`, and so does a tag-like `<a '…` whose quote would run on
//! over the closing tag after it. A `&` that starts one of XML's five entities is written
//! `&amp;`, and a backtick `&#96;` (code spans would hide closing tags), so
//! decoding (those entities, one pass) gives back exactly the original. Only tasks gsd wrote this way carry
//! `gsd-escaped="1"`; raw tasks are never decoded.

/// Tag names whose opening tag inside text would confuse the scanner.
const TAGS: &[&str] = &[
    "task",
    "tasks",
    "name",
    "files",
    "action",
    "verify",
    "done",
    "automated",
    "behavior",
    "implementation",
    "read_first",
    "acceptance_criteria",
];

fn opens_tag(rest: &str) -> bool {
    if rest.starts_with('/') {
        return true;
    }
    let b = rest.as_bytes();
    TAGS.iter().any(|t| {
        b.get(..t.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(t.as_bytes()))
            && !b
                .get(t.len())
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'-')
    })
}

/// `<name …'…`: text the scanner would read as a start tag whose quoted
/// attribute runs on past the end of this text (over the closing tag the
/// writer adds after it), e.g. `<a '` followed later by `'>`.
fn quoted_tag(rest: &str) -> bool {
    let b = rest.as_bytes();
    if !b
        .first()
        .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
    {
        return false;
    }
    let name_end = b
        .iter()
        .position(|c| !(c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b':' | b'.')))
        .unwrap_or(b.len());
    if !b
        .get(name_end)
        .is_some_and(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n'))
    {
        return false;
    }
    b[name_end..]
        .iter()
        .take_while(|c| !matches!(c, b'<' | b'>'))
        .any(|c| matches!(c, b'"' | b'\''))
}

/// Whether `text` holds a tag-like `<name …'` whose quote could run on into
/// whatever is written after it (a later field, or the next task).
pub fn has_quoted_tag(text: &str) -> bool {
    text.match_indices('<')
        .any(|(i, _)| quoted_tag(&text[i + 1..]))
}

/// The entities `decode` reads (XML's five, so `--xml-strict` output reads back too).
const ENTITIES: &[(&str, char)] = &[
    ("&lt;", '<'),
    ("&amp;", '&'),
    ("&gt;", '>'),
    ("&quot;", '"'),
    ("&apos;", '\''),
    ("&#96;", '`'),
    ("&#13;", '\r'),
    ("&#10;", '\n'),
    ("&#9;", '\t'),
];

/// Escape `text`; returns it and whether anything changed.
pub fn encode(text: &str) -> (String, bool) {
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut rest = text;
    while let Some(i) = rest.find(['<', '&', '`']) {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        if rest.as_bytes()[i] == b'`' {
            // Backticks open code spans that would hide the closing tags.
            out.push_str("&#96;");
            changed = true;
        } else if rest.as_bytes()[i] == b'<'
            && (opens_tag(after) || after.starts_with("!--") || quoted_tag(after))
        {
            out.push_str("&lt;");
            changed = true;
        } else if rest.as_bytes()[i] == b'&'
            && ENTITIES.iter().any(|(e, _)| after.starts_with(&e[1..]))
        {
            out.push_str("&amp;");
            changed = true;
        } else {
            out.push_str(&rest[i..i + 1]);
        }
        rest = after;
    }
    out.push_str(rest);
    (out, changed)
}

/// Undo `encode` (one left-to-right pass).
pub fn decode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let after = &rest[i..];
        match ENTITIES.iter().find(|(e, _)| after.starts_with(e)) {
            Some((e, c)) => {
                out.push(*c);
                rest = &after[e.len()..];
            }
            None => {
                out.push('&');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for s in [
            "a < b && c > d",
            "</task> and <task type=x>",
            "&lt;/x &amp; &lt;",
            "Vec<String>",
            "<tasks>",
            "<taskforce>",
            "",
            "é</action>]]>",
        ] {
            let (e, _) = encode(s);
            assert_eq!(decode(&e), s, "{s:?} → {e:?}");
            assert!(!e.contains("</"), "{e}");
        }
        assert_eq!(encode("a < b && Vec<T>"), ("a < b && Vec<T>".into(), false));
        assert_eq!(decode(&encode("`x` <!-- c").0), "`x` <!-- c");
    }
}
