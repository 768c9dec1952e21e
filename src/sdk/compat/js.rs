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

/// JavaScript's `trim` (which also drops a byte-order mark).
pub fn trim(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}')
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
