//! GSD Core 1.14.0's output contract, which is not gsd-sdk's: JSON as
//! `JSON.stringify(v, null, 2)` with no final newline; `--raw` prints the
//! command's own raw value (`String(v)` in JavaScript) where it has one;
//! `--pick FIELD` prints `String(value)` bare, and a field that is not there
//! is an error (exit 1), not `null`; errors are `Error: <message>` on stderr,
//! or one JSON object `{"ok":false,"reason":…,"message":…}` with
//! `--json-errors`, always exit 1 under the default exit contract.

use serde_json::Value;

/// What a native command answers in this dialect.
#[derive(Debug, Clone, PartialEq)]
pub struct Out {
    /// stdout without `--raw`: JSON as `output()` prints it, or a command's
    /// own text.
    pub text: String,
    /// What `--raw` prints instead, when the command has a raw form.
    pub raw: Option<String>,
}

/// `JSON.stringify(v, null, 2)`.
pub fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|_| "null".into())
}

/// The longest JSON 1.14.0's `output()` prints itself (in UTF-16 units).
pub const PRINTED_LIMIT: usize = 50_000;

/// JSON as `output()` delivers it: longer than [`PRINTED_LIMIT`], 1.14.0
/// writes it to a temporary file (with one final newline) and its `main`
/// prints that file back, so the answer ends in a newline.
fn printed(v: &Value) -> String {
    let text = pretty(v);
    if text.encode_utf16().count() > PRINTED_LIMIT {
        text + "\n"
    } else {
        text
    }
}

impl Out {
    /// A JSON answer with no raw form (`--raw` prints the JSON too).
    pub fn json(v: &Value) -> Out {
        Out {
            text: printed(v),
            raw: None,
        }
    }
    /// A JSON answer whose raw form is `raw`.
    pub fn with_raw(v: &Value, raw: impl Into<String>) -> Out {
        Out {
            text: printed(v),
            raw: Some(raw.into()),
        }
    }
    /// Text printed the same with or without `--raw`.
    pub fn text(t: impl Into<String>) -> Out {
        Out {
            text: t.into(),
            raw: None,
        }
    }
}

/// JavaScript's `String(v)` of a JSON value: strings bare, `null` as `null`,
/// arrays joined by commas (their `null`s empty), objects `[object Object]`.
pub fn js_string(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::Array(a) => a
            .iter()
            .map(|e| match e {
                Value::Null => String::new(),
                e => js_string(e),
            })
            .collect::<Vec<_>>()
            .join(","),
        Value::Object(_) => "[object Object]".into(),
    }
}

/// A failure as gsd-tools reports it: the message and its reason code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub reason: &'static str,
    pub message: String,
}

impl Failure {
    pub fn new(reason: &'static str, message: impl Into<String>) -> Failure {
        Failure {
            reason,
            message: message.into(),
        }
    }
    /// The stderr line: plain, or the `--json-errors` object.
    pub fn line(&self, json_errors: bool) -> String {
        if json_errors {
            serde_json::json!({"ok": false, "reason": self.reason, "message": self.message})
                .to_string()
        } else {
            format!("Error: {}", self.message)
        }
    }
}

/// `JSON.stringify(token)`: how gsd-tools quotes a user token in a diagnostic.
fn quoted(token: &str) -> String {
    Value::String(token.to_string()).to_string()
}

/// The value at a `--pick` path (`a.b`, `list[-1]`), `None` where gsd-tools
/// finds no such field: only objects are walked by name, only a named
/// array by a bracket index.
pub fn pick<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    let mut cur = v;
    for part in path.split('.') {
        let bracket = part
            .strip_suffix(']')
            .and_then(|p| p.split_once('['))
            .filter(|(k, i)| !k.is_empty() && i.trim_start_matches('-').parse::<u64>().is_ok());
        match bracket {
            Some((key, index)) => {
                let arr = cur.as_object()?.get(key)?.as_array()?;
                let n: i64 = index.parse().ok()?;
                let at = if n < 0 { arr.len() as i64 + n } else { n };
                cur = arr.get(usize::try_from(at).ok()?)?;
            }
            None => cur = cur.as_object()?.get(part)?,
        }
    }
    Some(cur)
}

/// What `--pick FIELD` prints, or the failure gsd-tools reports.
pub fn picked(v: &Value, field: &str) -> Result<String, Failure> {
    match pick(v, field) {
        Some(Value::Null) => Ok(String::new()),
        Some(found) => Ok(js_string(found)),
        None => {
            let roots = match v {
                Value::Object(m) => {
                    let keys: Vec<String> = m
                        .keys()
                        .map(|k| {
                            let q = quoted(k);
                            q[1..q.len() - 1].to_string()
                        })
                        .collect();
                    let keys = if keys.is_empty() {
                        "(none)".to_string()
                    } else {
                        keys.join(", ")
                    };
                    format!("available top-level keys: {keys}")
                }
                other => format!(
                    "the command's output is a JSON {}, not an object with that field",
                    match other {
                        Value::Array(_) => "array",
                        Value::Null => "null",
                        Value::String(_) => "string",
                        Value::Number(_) => "number",
                        _ => "boolean",
                    }
                ),
            };
            Err(Failure::new(
                "pick_field_absent",
                format!("--pick {}: field not found; {roots}", quoted(field)),
            ))
        }
    }
}

/// stdout for a native answer under `--raw` / `--pick`.
pub fn render(out: &Out, raw: bool, pick_field: Option<&str>) -> Result<String, Failure> {
    let text = match (&out.raw, raw) {
        (Some(r), true) => r.clone(),
        _ => out.text.clone(),
    };
    match pick_field {
        None => Ok(text),
        Some(field) => {
            let Ok(v) = serde_json::from_str::<Value>(&text) else {
                return Err(Failure::new(
                    "pick_output_not_json",
                    format!("--pick {}: command output was not JSON", quoted(field)),
                ));
            };
            picked(&v, field)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pick_prints_bare_values_and_fails_on_absence() {
        let v = json!({"a": {"b": [1, 2, 3]}, "s": "x", "n": null, "o": {}});
        assert_eq!(picked(&v, "a.b[-1]").unwrap(), "3");
        assert_eq!(picked(&v, "s").unwrap(), "x");
        assert_eq!(picked(&v, "n").unwrap(), "");
        assert_eq!(picked(&v, "o").unwrap(), "[object Object]");
        assert_eq!(
            picked(&v, "nope").unwrap_err().message,
            "--pick \"nope\": field not found; available top-level keys: a, s, n, o"
        );
        assert!(picked(&v, "a.b[3]").is_err());
    }

    #[test]
    fn raw_prints_the_raw_value_and_json_has_no_final_newline() {
        let out = Out::with_raw(&json!({"slug": "a-b"}), "a-b");
        assert_eq!(render(&out, true, None).unwrap(), "a-b");
        assert_eq!(
            render(&out, false, None).unwrap(),
            "{\n  \"slug\": \"a-b\"\n}"
        );
        assert_eq!(js_string(&json!([1, null, "x"])), "1,,x");
    }

    #[test]
    fn json_past_the_printed_limit_ends_in_a_newline() {
        let under = json!({"content": "x".repeat(PRINTED_LIMIT - 20)});
        assert!(!Out::json(&under).text.ends_with('\n'));
        let over = json!({"content": "é".repeat(PRINTED_LIMIT)});
        let out = Out::with_raw(&over, "raw");
        assert!(out.text.ends_with("}\n"));
        assert_eq!(render(&out, true, None).unwrap(), "raw");
        assert_eq!(
            render(&out, false, Some("content"))
                .unwrap()
                .chars()
                .count(),
            PRINTED_LIMIT
        );
    }
}
