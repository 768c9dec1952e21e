//! Exact edits of a JSON file (config.json): change one value, or add one
//! key, and leave every other byte — key order, spacing, comments-free
//! formatting the user chose — as it was.
//!
//! gsd-sdk's `config-set` parses config.json and writes
//! `JSON.stringify(config, null, 2)` back, so a one-key change reformats the
//! whole file. Here a small scanner finds the byte span of the value at a
//! dotted path; a set splices only that span, and a new key is inserted
//! after the last member of the deepest existing object, indented like its
//! siblings.

use serde_json::Value;

/// Why a JSON edit could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonEditError {
    #[error("not valid JSON at byte {0}")]
    Syntax(usize),
    #[error("`{0}` is not an object, so it cannot hold a key")]
    NotAnObject(String),
}

/// One object member: key, the span of its value, where the member starts.
#[derive(Debug)]
struct Member {
    key: String,
    member_start: usize,
    value: (usize, usize),
}

struct Scanner<'a> {
    b: &'a [u8],
    i: usize,
}

impl Scanner<'_> {
    fn ws(&mut self) {
        while self.i < self.b.len() && self.b[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn err(&self) -> JsonEditError {
        JsonEditError::Syntax(self.i)
    }
    fn string(&mut self) -> Result<String, JsonEditError> {
        let start = self.i;
        if self.b.get(self.i) != Some(&b'"') {
            return Err(self.err());
        }
        self.i += 1;
        while self.i < self.b.len() {
            match self.b[self.i] {
                b'\\' => self.i += 2,
                b'"' => {
                    self.i += 1;
                    let raw =
                        std::str::from_utf8(&self.b[start..self.i]).map_err(|_| self.err())?;
                    return serde_json::from_str(raw).map_err(|_| JsonEditError::Syntax(start));
                }
                _ => self.i += 1,
            }
        }
        Err(self.err())
    }
    /// Skip one value; its span.
    fn value(&mut self) -> Result<(usize, usize), JsonEditError> {
        self.ws();
        let start = self.i;
        match self.b.get(self.i) {
            Some(b'{') | Some(b'[') => {
                let mut depth = 0usize;
                while self.i < self.b.len() {
                    match self.b[self.i] {
                        b'"' => {
                            self.string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                self.i += 1;
                                return Ok((start, self.i));
                            }
                        }
                        _ => {}
                    }
                    self.i += 1;
                }
                Err(self.err())
            }
            Some(b'"') => {
                self.string()?;
                Ok((start, self.i))
            }
            Some(_) => {
                while self.i < self.b.len()
                    && !b",}]".contains(&self.b[self.i])
                    && !self.b[self.i].is_ascii_whitespace()
                {
                    self.i += 1;
                }
                if self.i == start {
                    Err(self.err())
                } else {
                    Ok((start, self.i))
                }
            }
            None => Err(self.err()),
        }
    }
    /// The members of the object starting at `self.i`, and its closing brace.
    fn members(&mut self) -> Result<(Vec<Member>, usize), JsonEditError> {
        self.ws();
        if self.b.get(self.i) != Some(&b'{') {
            return Err(self.err());
        }
        self.i += 1;
        let mut out = Vec::new();
        loop {
            self.ws();
            match self.b.get(self.i) {
                Some(b'}') => return Ok((out, self.i)),
                Some(b',') => {
                    self.i += 1;
                    continue;
                }
                Some(b'"') => {
                    let member_start = self.i;
                    let key = self.string()?;
                    self.ws();
                    if self.b.get(self.i) != Some(&b':') {
                        return Err(self.err());
                    }
                    self.i += 1;
                    let value = self.value()?;
                    out.push(Member {
                        key,
                        member_start,
                        value,
                    });
                }
                _ => return Err(self.err()),
            }
        }
    }
}

/// The text of `v` as it would sit at `indent` inside a two-space file.
/// `v` on one line, spaced the way people write one-line JSON
/// (`{"a": 1, "b": [2, 3]}`), for objects the file keeps on one line.
fn render_inline(v: &Value) -> String {
    match v {
        Value::Array(items) => format!(
            "[{}]",
            items
                .iter()
                .map(render_inline)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Object(m) => format!(
            "{{{}}}",
            m.iter()
                .map(|(k, v)| format!(
                    "{}: {}",
                    serde_json::to_string(k).unwrap_or_default(),
                    render_inline(v)
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => serde_json::to_string(other).unwrap_or_else(|_| "null".into()),
    }
}

fn render(v: &Value, indent: &str) -> String {
    let pretty = serde_json::to_string_pretty(v).unwrap_or_else(|_| "null".into());
    pretty.replace('\n', &format!("\n{indent}"))
}

fn line_indent(text: &str, at: usize) -> &str {
    let line_start = text[..at].rfind('\n').map_or(0, |p| p + 1);
    let rest = &text[line_start..];
    &rest[..rest.len() - rest.trim_start_matches([' ', '\t']).len()]
}

/// The object starting at byte `at` (after spaces): where its `{` is,
/// its members and where its `}` is; `None` when no object starts there.
type Object = (usize, Vec<Member>, usize);

fn object_at(text: &str, at: usize) -> Result<Option<Object>, JsonEditError> {
    let mut sc = Scanner {
        b: text.as_bytes(),
        i: at,
    };
    sc.ws();
    if sc.b.get(sc.i) != Some(&b'{') {
        return Ok(None);
    }
    let open = sc.i;
    let (members, close) = sc.members()?;
    Ok(Some((open, members, close)))
}

/// The current value at `path`, if there is one.
pub fn get(text: &str, path: &[&str]) -> Result<Option<Value>, JsonEditError> {
    let mut at = 0usize;
    for (depth, key) in path.iter().enumerate() {
        let Some((_, members, _)) = object_at(text, at)? else {
            return if depth == 0 {
                Err(JsonEditError::Syntax(at))
            } else {
                Ok(None)
            };
        };
        // JSON.parse keeps the last duplicate key, so that is the one read.
        let Some(m) = members.iter().rev().find(|m| m.key == *key) else {
            return Ok(None);
        };
        at = m.value.0;
    }
    let mut sc = Scanner {
        b: text.as_bytes(),
        i: at,
    };
    let (s, e) = sc.value()?;
    serde_json::from_str(&text[s..e])
        .map(Some)
        .map_err(|_| JsonEditError::Syntax(s))
}

/// `text` with the value at `path` set to `value`: the value's bytes
/// replaced, or the missing keys added to the deepest object that exists.
pub fn set(text: &str, path: &[&str], value: &Value) -> Result<String, JsonEditError> {
    let mut at = 0usize;
    for (depth, key) in path.iter().enumerate() {
        let Some((open, members, close)) = object_at(text, at)? else {
            return Err(JsonEditError::NotAnObject(path[..depth].join(".")));
        };
        // JSON.parse keeps the last duplicate key, so that is the one to edit.
        if let Some(m) = members.iter().rev().find(|m| m.key == *key) {
            if depth + 1 == path.len() {
                let indent = line_indent(text, m.member_start);
                let shown = if text[open..close].contains('\n') {
                    render(value, indent)
                } else {
                    render_inline(value)
                };
                return Ok(format!(
                    "{}{}{}",
                    &text[..m.value.0],
                    shown,
                    &text[m.value.1..]
                ));
            }
            at = m.value.0;
            continue;
        }
        // Build the missing tail as nested objects.
        let mut tail = value.clone();
        for k in path[depth + 1..].iter().rev() {
            let mut o = serde_json::Map::new();
            o.insert((*k).to_string(), tail);
            tail = Value::Object(o);
        }
        let key_json = serde_json::to_string(key).unwrap_or_default();
        return Ok(match members.last() {
            Some(last) => {
                let indent = line_indent(text, last.member_start).to_string();
                let same_line = !text[open..last.member_start].contains('\n');
                let sep = if same_line {
                    " ".to_string()
                } else {
                    format!("\n{indent}")
                };
                let shown = if same_line && !text[open..close].contains('\n') {
                    render_inline(&tail)
                } else {
                    render(&tail, &indent)
                };
                format!(
                    "{},{sep}{key_json}: {}{}",
                    &text[..last.value.1],
                    shown,
                    &text[last.value.1..]
                )
            }
            None => {
                let outer = line_indent(text, open).to_string();
                let indent = format!("{outer}  ");
                format!(
                    "{}{{\n{indent}{key_json}: {}\n{outer}}}{}",
                    &text[..open],
                    render(&tail, &indent),
                    &text[close + 1..]
                )
            }
        });
    }
    Ok(text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const CFG: &str = "{\n  \"mode\": \"yolo\",\n  \"workflow\": {\n    \"research\": true,\n    \"x\": [1, 2]\n  }\n}\n";

    #[test]
    fn one_line_objects_stay_on_one_line() {
        let t = "{\"files\": {\"a\": 1}}\n";
        let v = json!({"updated_at": "now", "version": 1});
        assert_eq!(
            set(t, &["_meta"], &v).unwrap(),
            "{\"files\": {\"a\": 1}, \"_meta\": {\"updated_at\": \"now\", \"version\": 1}}\n"
        );
        assert_eq!(
            set(t, &["files"], &json!({"b": [1, 2]})).unwrap(),
            "{\"files\": {\"b\": [1, 2]}}\n"
        );
    }

    #[test]
    fn a_set_changes_only_the_value() {
        let out = set(CFG, &["workflow", "research"], &json!(false)).unwrap();
        assert_eq!(
            out,
            CFG.replace("\"research\": true", "\"research\": false")
        );
        assert_eq!(set(CFG, &["mode"], &json!("yolo")).unwrap(), CFG);
    }

    #[test]
    fn a_new_key_lands_after_its_siblings() {
        let out = set(CFG, &["workflow", "tdd_mode"], &json!(true)).unwrap();
        assert!(
            out.contains("\"x\": [1, 2],\n    \"tdd_mode\": true\n  }"),
            "{out}"
        );
        let out = set(CFG, &["git", "base_branch"], &json!("main")).unwrap();
        assert!(
            out.contains("  },\n  \"git\": {\n    \"base_branch\": \"main\"\n  }\n}"),
            "{out}"
        );
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["git"]["base_branch"], "main");
        let out = set("{}", &["a"], &json!(1)).unwrap();
        assert_eq!(out, "{\n  \"a\": 1\n}");
    }

    #[test]
    fn get_reads_and_bad_text_is_an_error() {
        assert_eq!(get(CFG, &["workflow", "x"]).unwrap(), Some(json!([1, 2])));
        assert_eq!(get(CFG, &["nope"]).unwrap(), None);
        assert!(set("{\"a\": ", &["a"], &json!(1)).is_err());
        assert_eq!(
            set(CFG, &["mode", "x"], &json!(1)).unwrap_err(),
            JsonEditError::NotAnObject("mode".into())
        );
    }
}
