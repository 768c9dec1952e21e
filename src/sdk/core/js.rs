//! JavaScript's `Number(string)`, which gsd-tools uses to read numeric
//! arguments: a dialect that answers as gsd-tools must read `0x10`, `1e1`,
//! ` 5 ` and `""` as it does; and the few other JavaScript readings its
//! answers depend on (`trim()`, `Boolean()`).

/// JavaScript's white space (`trim()`, `Number()`): Unicode's and the BOM.
pub fn is_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

/// `Boolean(v)` of a parsed JSON value: `false`, `0`, `""` and `null` are
/// false; every object and array is true.
pub fn truthy(v: &serde_json::Value) -> bool {
    use serde_json::Value;
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// `text.trim()` (one reading for both dialects).
pub use super::super::compat::js::trim;

/// `Number(text)`: NaN where JavaScript gives NaN.
pub fn number(text: &str) -> f64 {
    let t = trim(text);
    if t.is_empty() {
        return 0.0;
    }
    let lower = t.to_ascii_lowercase();
    for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] {
        if let Some(digits) = lower.strip_prefix(prefix) {
            let unsigned = !digits.is_empty() && !digits.starts_with(['+', '-']);
            return match u128::from_str_radix(digits, radix) {
                Ok(n) if unsigned => n as f64,
                _ => f64::NAN,
            };
        }
    }
    match t.strip_prefix(['+', '-']).unwrap_or(t) {
        "Infinity" if t.starts_with('-') => return f64::NEG_INFINITY,
        "Infinity" => return f64::INFINITY,
        _ => {}
    }
    // Only decimal forms: Rust would also read `inf` and `nan`.
    let decimal = t
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
    if decimal {
        t.parse::<f64>().unwrap_or(f64::NAN)
    } else {
        f64::NAN
    }
}

/// The JSON number JavaScript prints for `n` where it is an integer a JSON
/// reader gets back exactly; `None` for any other (gsd-tools' formatting of
/// fractions and huge values is not reproduced).
pub fn exact_integer(n: f64) -> Option<serde_json::Value> {
    const SAFE: f64 = 9_007_199_254_740_991.0;
    if n.is_nan() {
        return Some(serde_json::Value::Null);
    }
    (n.fract() == 0.0 && n.abs() <= SAFE).then(|| serde_json::Value::from(n as i64))
}

/// Names every plain JavaScript object inherits (`constructor`,
/// `toString`, …): 1.14.0 looks some tables and frontmatter fields up
/// without an own-property guard, so where a user's word is one of these it
/// finds a function (or the prototype) and answers in a way gsd does not
/// reproduce; such calls are handed on.
pub const INHERITED: &[&str] = &[
    "constructor",
    "__proto__",
    "__defineGetter__",
    "__defineSetter__",
    "__lookupGetter__",
    "__lookupSetter__",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "toString",
    "valueOf",
];

/// Whether a serde_json parse error is of text `JSON.parse` reads: a
/// number beyond f64, nesting past 128, a lone surrogate escape (`\ud800`
/// alone or followed by anything but a low surrogate). A call meeting one
/// is handed on rather than answered as if the JSON were broken.
pub fn serde_refuses_valid_json(e: &serde_json::Error) -> bool {
    let m = e.to_string();
    [
        "number out of range",
        "recursion limit",
        "surrogate",
        "hex escape",
    ]
    .iter()
    .any(|k| m.contains(k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_javascript_reads_them() {
        for (text, n) in [
            ("5", 5.0),
            (" 2 ", 2.0),
            ("", 0.0),
            ("0x10", 16.0),
            ("0b11", 3.0),
            ("1e2", 100.0),
            (".5", 0.5),
            ("-3", -3.0),
            ("-Infinity", f64::NEG_INFINITY),
        ] {
            assert_eq!(number(text), n, "{text:?}");
        }
        for text in ["abc", "inf", "nan", "-0x2", "0x", "1_0", "5s", "Infinityx"] {
            assert!(number(text).is_nan(), "{text:?}");
        }
        assert_eq!(exact_integer(-0.0), Some(serde_json::json!(0)));
        assert_eq!(exact_integer(2.5), None);
        assert_eq!(exact_integer(f64::NAN), Some(serde_json::Value::Null));
    }
}
