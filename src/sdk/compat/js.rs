//! JavaScript's value semantics, which gsd-sdk's answers are made of:
//! `String(v)`, truthiness, `trim`, `parseInt`, number printing and the
//! regex `.`. One place, so every command converts the same way.

use serde_json::{Value, json};

/// JavaScript's `.`: anything but a line terminator.
pub const JS_DOT: &str = r"[^\n\r\u{2028}\u{2029}]";

/// JavaScript's truthiness (`if (v)`), which gsd-sdk's defaults and
/// flags follow: `null`, `false`, `0`, `NaN` and `""` are false.
pub fn truthy(v: &Value) -> bool {
    match v {
        Value::Null | Value::Bool(false) => false,
        Value::String(s) => !s.is_empty(),
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        _ => true,
    }
}

/// A value as JavaScript's `String(v)` shows it.
pub fn string(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(a) => a.iter().map(string).collect::<Vec<_>>().join(","),
        Value::Null => "null".into(),
        Value::Object(_) => "[object Object]".into(),
        other => other.to_string(),
    }
}

/// JavaScript's `\s` as a character class: its white space (which takes
/// in the byte-order mark) and line terminators. Rust's `\s` differs by
/// two characters: it matches U+0085 (NEL) and not U+FEFF.
/// JavaScript's `\b` (ASCII word characters only; Rust's `\b` is
/// Unicode-wide and fancy-regex has no `(?-u:\b)`), for a pattern.
pub const JS_WORD_BOUNDARY: &str =
    r"(?:(?<=[A-Za-z0-9_])(?![A-Za-z0-9_])|(?<![A-Za-z0-9_])(?=[A-Za-z0-9_]))";

pub const JS_SPACE: &str = r"[\t\n\x0B\x0C\r \u{a0}\u{1680}\u{2000}-\u{200a}\u{2028}\u{2029}\u{202f}\u{205f}\u{3000}\u{feff}]";

/// Whether `c` is white space to JavaScript (`trim`, `\s`).
pub fn is_js_space(c: char) -> bool {
    (c.is_whitespace() && c != '\u{85}') || c == '\u{FEFF}'
}

/// JavaScript's `trim`: its white space, not Rust's (a byte-order mark is
/// trimmed, U+0085 is not).
pub fn trim(s: &str) -> &str {
    s.trim_matches(is_js_space)
}

/// `parseInt(s, 10)`: leading whitespace, a sign, digits; None for NaN.
pub fn parse_int(s: &str) -> Option<f64> {
    let s = trim(s);
    let (sign, digits) = match s.as_bytes().first() {
        Some(b'-') => (-1.0, &s[1..]),
        Some(b'+') => (1.0, &s[1..]),
        _ => (1.0, s),
    };
    let end = digits
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(digits.len());
    let n: f64 = digits[..end].parse().ok()?;
    Some(sign * n)
}

/// A number as JavaScript prints it: integral values without a fraction.
pub fn number(n: f64) -> Value {
    if n.fract() == 0.0 && n.abs() < 9_007_199_254_740_992.0 {
        json!(n as i64)
    } else {
        json!(n)
    }
}

/// `Array.prototype.sort` with a comparator, as V8 runs it on arrays
/// shorter than 64: the leading run (reversed when strictly descending),
/// then binary insertion of the rest. gsd-sdk sorts phase folders with
/// comparators that are not total orders (a number compare for some pairs,
/// a string compare for others, `NaN` read as equal), so only the same
/// algorithm gives the same order. Longer arrays use a stable sort, which
/// agrees with V8's merges whenever the comparator is consistent.
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> std::cmp::Ordering) {
    use std::cmp::Ordering::Less;
    let n = v.len();
    if n < 2 {
        return;
    }
    if n >= 64 {
        v.sort_by(cmp);
        return;
    }
    let mut run = 2;
    let descending = cmp(&v[1], &v[0]) == Less;
    while run < n {
        let order = cmp(&v[run], &v[run - 1]);
        if (descending && order != Less) || (!descending && order == Less) {
            break;
        }
        run += 1;
    }
    if descending {
        v[..run].reverse();
    }
    for start in run..n {
        let (mut left, mut right) = (0, start);
        while left < right {
            let mid = left + ((right - left) >> 1);
            if cmp(&v[start], &v[mid]) == Less {
                right = mid;
            } else {
                left = mid + 1;
            }
        }
        v[left..=start].rotate_right(1);
    }
}

/// A comparator's number result as an ordering (`NaN` is equal, as V8
/// reads it).
pub fn ordering(n: f64) -> std::cmp::Ordering {
    if n < 0.0 {
        std::cmp::Ordering::Less
    } else if n > 0.0 {
        std::cmp::Ordering::Greater
    } else {
        std::cmp::Ordering::Equal
    }
}

/// `a.localeCompare(b)` for the names gsd-sdk compares (folder names), as
/// ICU's root collation orders ASCII: blanks, then punctuation in CLDR's
/// order (`_` and `-` first, so `_archived` sorts before `01-x`), then
/// digits, then letters with case folded; on a tie lower case comes before
/// upper. Other characters follow, by code point.
pub fn locale_compare(a: &str, b: &str) -> std::cmp::Ordering {
    let key = |s: &str| s.chars().map(collation_weight).collect::<Vec<u32>>();
    key(a).cmp(&key(b)).then_with(|| b.cmp(a))
}

/// A character's primary weight in ICU's root collation (ASCII exactly).
fn collation_weight(c: char) -> u32 {
    const BLANKS: &str = "\t\n\u{b}\u{c}\r ";
    const PUNCTUATION: &str = "_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";
    if let Some(i) = BLANKS.find(c) {
        return 1 + i as u32;
    }
    if let Some(i) = PUNCTUATION.find(c) {
        return 10 + i as u32;
    }
    if c.is_ascii_digit() {
        return 100 + (c as u32 - '0' as u32);
    }
    if c.is_ascii_alphabetic() {
        return 200 + (c.to_ascii_lowercase() as u32 - 'a' as u32);
    }
    1000 + c.to_lowercase().next().unwrap_or(c) as u32
}

/// An object's keys in the order JavaScript prints them: keys that are
/// array indices (`"3"`, not `"03"`) first in ascending order, then the
/// rest in insertion order.
pub fn key_order(pairs: Vec<(String, Value)>) -> serde_json::Map<String, Value> {
    let index = |k: &str| -> Option<u32> {
        if k == "0"
            || (!k.starts_with('0') && !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
        {
            k.parse::<u32>().ok().filter(|n| *n < u32::MAX)
        } else {
            None
        }
    };
    let (mut indices, rest): (Vec<_>, Vec<_>) =
        pairs.into_iter().partition(|(k, _)| index(k).is_some());
    indices.sort_by_key(|(k, _)| index(k));
    indices.into_iter().chain(rest).collect()
}

/// JavaScript's `Number(s)` for a command-line argument: surrounding
/// whitespace ignored, `""` is 0, `0x`/`0o`/`0b` prefixes, `Infinity`,
/// and `NaN` for anything else that is not a decimal literal.
pub fn number_of(s: &str) -> f64 {
    let t = trim(s);
    if t.is_empty() {
        return 0.0;
    }
    for (prefix, radix) in [
        ("0x", 16),
        ("0X", 16),
        ("0o", 8),
        ("0O", 8),
        ("0b", 2),
        ("0B", 2),
    ] {
        if let Some(digits) = t.strip_prefix(prefix) {
            return u64::from_str_radix(digits, radix).map_or(f64::NAN, |n| n as f64);
        }
    }
    let unsigned = t.strip_prefix(['+', '-']).unwrap_or(t);
    if unsigned == "Infinity" {
        return if t.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
    }
    // Rust also reads `inf` and `nan`, which JavaScript does not.
    if !unsigned.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return f64::NAN;
    }
    t.parse().unwrap_or(f64::NAN)
}

/// The first byte offset at or after `from` where `needle` (ASCII) occurs
/// in `hay`, ASCII letters folded: JavaScript's `/i` without `u` folds no
/// other character into ASCII, so this is its case-blind literal search.
/// An ASCII needle can only match at a character boundary.
pub fn find_ascii_ci(hay: &str, from: usize, needle: &str) -> Option<usize> {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    if n.is_empty() || from > h.len() || h.len() - from < n.len() {
        return None;
    }
    // Each candidate starts with the needle's first byte in either case.
    let (a, b) = (n[0].to_ascii_lowercase(), n[0].to_ascii_uppercase());
    memchr::memchr2_iter(a, b, &h[from..=h.len() - n.len()])
        .map(|i| from + i)
        .find(|&i| h[i..i + n.len()].eq_ignore_ascii_case(n))
}

/// Whether `text` ends with `suffix` (ASCII), ASCII letters folded: `/…$/i`.
pub fn ends_with_ascii_ci(text: &str, suffix: &str) -> bool {
    text.len() >= suffix.len()
        && text.as_bytes()[text.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
}

/// `text` without `suffix` where it ends with it, ASCII letters folded:
/// `text.replace(/…$/i, "")`.
pub fn strip_suffix_ascii_ci<'a>(text: &'a str, suffix: &str) -> &'a str {
    if ends_with_ascii_ci(text, suffix) {
        &text[..text.len() - suffix.len()]
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locale_compare_orders_ascii_as_icu_root_collation() {
        // What node 20 (full ICU) prints for the printable ASCII characters
        // and a few folder names sorted with `localeCompare`.
        let mut chars: Vec<String> = (32u8..127).map(|b| (b as char).to_string()).collect();
        chars.push("\t".into());
        chars.sort_by(|a, b| locale_compare(a, b));
        assert_eq!(
            chars.concat(),
            "\t _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789aAbBcCdDeEfFgGhHiIjJkKlLmMnNoOpPqQrRsStTuUvVwWxXyYzZ"
        );
        let mut names = vec!["b", "B", "a", "A", "_x", "01-a", "ab", "Ab", "aB"];
        names.sort_by(|a, b| locale_compare(a, b));
        assert_eq!(names, ["_x", "01-a", "a", "A", "ab", "aB", "Ab", "b", "B"]);
    }

    #[test]
    fn sort_by_keeps_v8_order_for_an_inconsistent_comparator() {
        // Numbers compare numerically, anything else compares equal (as
        // `NaN` does). The expected orders are what node 20 prints for
        // `a.sort(f)`; a merge sort gives other orders for the last two.
        let f = |x: &&str, y: &&str| match (x.parse::<f64>(), y.parse::<f64>()) {
            (Ok(p), Ok(q)) => ordering(p - q),
            _ => std::cmp::Ordering::Equal,
        };
        for (input, v8) in [
            (vec!["3", "b", "1", "a", "2"], vec!["3", "b", "1", "a", "2"]),
            (
                vec!["5", "x", "2", "9", "y", "1", "0"],
                vec!["5", "x", "0", "2", "9", "y", "1"],
            ),
            (vec!["9", "8", "x", "7", "1"], vec!["1", "7", "8", "9", "x"]),
        ] {
            let mut v = input.clone();
            sort_by(&mut v, f);
            assert_eq!(v, v8, "{input:?}");
        }
    }
}
