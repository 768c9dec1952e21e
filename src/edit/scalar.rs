//! Writing one YAML scalar in place, in the style the file already uses.

use crate::doc::yaml::{Node, Style, Typed};

/// Whether `s` can be written as a plain scalar and read back as the same
/// string (not a number, bool or null unless `typed` wants that).
fn plain_safe(s: &str) -> bool {
    if s.is_empty() || s.trim() != s {
        return false;
    }
    let first = s.as_bytes()[0];
    if b"-?:,[]{}#&*!|>'\"%@`".contains(&first)
        && !(first == b'-' && s.len() > 1 && s.as_bytes()[1] != b' ')
    {
        return false;
    }
    !(s.contains(": ") || s.contains(" #") || s.ends_with(':') || s.contains(['\n', '\r', '\t']))
}

fn double_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The source text for `value` replacing the scalar `old`: keep the old
/// quoting style when it can hold the value; a plain value that would read
/// back as another type (or not parse) is double-quoted.
pub fn render(old: Option<&Node>, value: &str, keep_type: bool) -> String {
    let style = old.and_then(|n| n.as_scalar()).map(|s| s.style);
    match style {
        Some(Style::SingleQuoted) if !value.contains(['\n', '\r']) => {
            format!("'{}'", value.replace('\'', "''"))
        }
        Some(Style::DoubleQuoted) => double_quoted(value),
        _ => {
            let probe = crate::doc::yaml::Scalar {
                text: value.into(),
                style: Style::Plain,
                tag: None,
            };
            let reads_as_string = matches!(probe.typed(), Typed::Str(_));
            if plain_safe(value) && (keep_type || reads_as_string) {
                value.to_owned()
            } else {
                double_quoted(value)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_quoted_and_typed() {
        assert_eq!(render(None, "5", true), "5");
        assert_eq!(render(None, "5", false), "\"5\"");
        assert_eq!(render(None, "Ready: go", false), "\"Ready: go\"");
        assert_eq!(render(None, "executing", false), "executing");
        assert_eq!(render(None, "a \"b\"", false), "a \"b\"");
        assert_eq!(render(None, "", false), "\"\"");
    }
}
