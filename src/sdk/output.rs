//! gsd-sdk's output contract: JSON pretty-printed with two spaces and a
//! final newline (what `JSON.stringify(v, null, 2)` gives), `--pick FIELD`
//! to print one field (dotted path, `name[-1]` indexes), raw text as is.

use serde_json::Value;

use super::{Reply, SdkError};

/// Take `--pick FIELD` out of the argv.
pub fn take_pick(argv: &mut Vec<String>) -> Result<Option<String>, SdkError> {
    let Some(i) = argv.iter().position(|a| a == "--pick") else {
        return Ok(None);
    };
    if i + 1 >= argv.len() {
        return Err(SdkError::validation("--pick requires a field name"));
    }
    let field = argv.remove(i + 1);
    argv.remove(i);
    Ok(Some(field))
}

/// The value at a `--pick` path, `None` where gsd-sdk finds `undefined`.
pub fn pick<'a>(v: &'a Value, path: &str) -> Option<&'a Value> {
    let mut cur = v;
    for part in path.split('.') {
        let (key, index) = match part.strip_suffix(']').and_then(|p| p.rsplit_once('[')) {
            Some((k, i)) if !k.is_empty() => match i.parse::<i64>() {
                Ok(n) => (k, Some(n)),
                Err(_) => (part, None),
            },
            _ => (part, None),
        };
        cur = match cur {
            Value::Object(m) => m.get(key)?,
            Value::Array(a) => a.get(key.parse::<usize>().ok()?)?,
            _ => return None,
        };
        if let Some(n) = index {
            let a = cur.as_array()?;
            let at = if n < 0 { a.len() as i64 + n } else { n };
            cur = a.get(usize::try_from(at).ok()?)?;
        }
    }
    Some(cur)
}

/// Print a reply the way gsd-sdk does.
pub fn render(reply: Reply, pick_field: Option<&str>) -> Result<String, SdkError> {
    match reply {
        Reply::Text(t) => {
            if pick_field.is_some() {
                return Err(SdkError::execution(
                    "--pick is not supported for text output",
                ));
            }
            Ok(if t.ends_with('\n') { t } else { t + "\n" })
        }
        Reply::Json(v) => {
            let shown = match pick_field {
                Some(f) => pick(&v, f).cloned().unwrap_or(Value::Null),
                None => v,
            };
            Ok(json_text(&shown) + "\n")
        }
    }
}

/// `JSON.stringify(v, null, 2)`.
pub fn json_text(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|_| "null".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pick_follows_dots_and_indexes() {
        let v = json!({"a": {"b": [1, 2, 3]}, "s": "x"});
        assert_eq!(pick(&v, "a.b[-1]"), Some(&json!(3)));
        assert_eq!(pick(&v, "a.b[0]"), Some(&json!(1)));
        assert_eq!(pick(&v, "s"), Some(&json!("x")));
        assert_eq!(pick(&v, "nope.x"), None);
        assert_eq!(render(Reply::Json(v), Some("nope")).unwrap(), "null\n");
    }

    #[test]
    fn pick_needs_a_field() {
        let mut argv = vec!["state.load".to_string(), "--pick".to_string()];
        assert_eq!(take_pick(&mut argv).unwrap_err().exit_code(), 10);
    }
}
