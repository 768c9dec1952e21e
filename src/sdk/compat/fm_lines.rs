//! Frontmatter the way gsd-sdk reads it: line by line, every scalar a
//! string with its outer quotes cut (`wave: 1` is `"1"`), `key:` alone an
//! empty object that becomes a list when `- item` lines follow, `[a, b]`
//! split on commas outside quotes, and `- key: v` items that open an object.
//!
//! Workflows read these strings (`"wave": "1"`, `"autonomous": "true"`),
//! so `frontmatter.get` gives this view, not gsd's typed YAML. It is built
//! from the same leading `---` block gsd parses.

use serde_json::{Map, Value};

/// One open container on the indentation stack.
struct Open {
    /// Path from the root to the container.
    path: Vec<Step>,
    indent: isize,
}

#[derive(Clone)]
enum Step {
    Key(String),
    Index(usize),
}

fn at<'a>(root: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    let mut cur = root;
    for s in path {
        cur = match s {
            Step::Key(k) => cur.as_object_mut()?.get_mut(k)?,
            Step::Index(i) => cur.as_array_mut()?.get_mut(*i)?,
        };
    }
    Some(cur)
}

fn unquote(s: &str) -> String {
    let s = s.strip_prefix(['"', '\'']).unwrap_or(s);
    s.strip_suffix(['"', '\'']).unwrap_or(s).to_string()
}

/// `[a, "b, c"]`'s inside split the way gsd-sdk does.
pub fn split_inline_array(body: &str) -> Vec<Value> {
    let mut items = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for ch in body.chars() {
        match quote {
            Some(q) if ch == q => quote = None,
            Some(_) => cur.push(ch),
            None if ch == '"' || ch == '\'' => quote = Some(ch),
            None if ch == ',' => {
                let t = cur.trim();
                if !t.is_empty() {
                    items.push(Value::String(t.to_string()));
                }
                cur.clear();
            }
            None => cur.push(ch),
        }
    }
    let t = cur.trim();
    if !t.is_empty() {
        items.push(Value::String(t.to_string()));
    }
    items
}

fn key_line(line: &str) -> Option<(&str, &str)> {
    let t = line.trim_start();
    let end = t
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(t.len());
    if end == 0 || !t[end..].starts_with(':') {
        return None;
    }
    Some((&t[..end], t[end + 1..].trim()))
}

/// The YAML text between the leading `---` lines, as gsd-sdk finds it.
pub fn block(content: &str) -> Option<&str> {
    let rest = content
        .strip_prefix("---\n")
        .or_else(|| content.strip_prefix("---\r\n"))?;
    // `([\s\S]+?)\r?\n---`: the first `\n---` after at least one character.
    let mut from = 1;
    loop {
        let i = rest.get(from..)?.find("\n---")? + from;
        let end = if rest[..i].ends_with('\r') { i - 1 } else { i };
        if end >= 1 {
            return Some(&rest[..end]);
        }
        from = i + 1;
    }
}

/// Which of gsd-sdk's two copies of the line reader.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flavor {
    /// `query/frontmatter.js`: every scalar a string.
    Strings,
    /// `plan-parser.js` (`parsePlan`): scalars coerced (`coerceValue`),
    /// `[a, b]` split on every comma, a `- key: v` item opens an object
    /// even where no list took it.
    Coerced,
}

/// `coerceValue`: `true`/`false`, integers without a leading zero and
/// decimals not starting with `0` become JSON values; all else stays text.
fn coerce(v: String) -> Value {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match v.as_str() {
        "true" => return Value::Bool(true),
        "false" => return Value::Bool(false),
        _ => {}
    }
    let int = v == "0" || (digits(&v) && !v.starts_with('0'));
    let dec = !v.starts_with('0')
        && v.split_once('.')
            .is_some_and(|(a, b)| digits(a) && digits(b));
    if int || dec {
        return super::js::number(v.parse::<f64>().unwrap_or(f64::NAN));
    }
    Value::String(v)
}

/// The frontmatter of `content` in gsd-sdk's shape (`{}` when there is none).
pub fn parse(content: &str) -> Map<String, Value> {
    parse_as(content, Flavor::Strings)
}

/// The frontmatter as `parsePlan` reads it (plan.task-structure): numbers
/// and booleans typed, the rest as `parse` gives it.
pub fn parse_coerced(content: &str) -> Map<String, Value> {
    parse_as(content, Flavor::Coerced)
}

fn parse_as(content: &str, flavor: Flavor) -> Map<String, Value> {
    let scalar = |v: String| match flavor {
        Flavor::Strings => Value::String(v),
        Flavor::Coerced => coerce(v),
    };
    let Some(yaml) = block(content) else {
        return Map::new();
    };
    let mut root = Value::Object(Map::new());
    let mut stack = vec![Open {
        path: Vec::new(),
        indent: -1,
    }];
    for line in yaml.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() {
            continue;
        }
        let indent = (line.len() - line.trim_start().len()) as isize;
        while stack.len() > 1 && indent <= stack[stack.len() - 1].indent {
            stack.pop();
        }
        let top = stack.last().map(|o| o.path.clone()).unwrap_or_default();
        if let Some((key, value)) = key_line(line) {
            let Some(Value::Object(obj)) = at(&mut root, &top) else {
                continue;
            };
            if value.is_empty() || value == "[" {
                obj.insert(
                    key.into(),
                    if value == "[" {
                        Value::Array(Vec::new())
                    } else {
                        Value::Object(Map::new())
                    },
                );
                let mut path = top;
                path.push(Step::Key(key.into()));
                stack.push(Open { path, indent });
            } else if value.starts_with('[') && value.ends_with(']') {
                let inside = &value[1..value.len() - 1];
                let items = match flavor {
                    Flavor::Strings => split_inline_array(inside),
                    Flavor::Coerced => inside
                        .split(',')
                        .map(|i| unquote(i.trim()))
                        .filter(|i| !i.is_empty())
                        .map(Value::String)
                        .collect(),
                };
                obj.insert(key.into(), Value::Array(items));
            } else {
                obj.insert(key.into(), scalar(unquote(value)));
            }
        } else if let Some(after) = line.trim().strip_prefix("- ") {
            let after = match flavor {
                Flavor::Strings => after.trim(),
                // `line.trim().slice(2)`: a space after the dash stays.
                Flavor::Coerced => after,
            };
            let kv = key_line(after).filter(|_| !after.starts_with(char::is_whitespace));
            let (item, is_obj) = match kv {
                Some((k, v)) => {
                    let mut m = Map::new();
                    m.insert(k.into(), scalar(unquote(v)));
                    (Value::Object(m), true)
                }
                None => (scalar(unquote(after)), false),
            };
            let Some(container) = at(&mut root, &top) else {
                continue;
            };
            let pushed_at = match container {
                Value::Object(m) if m.is_empty() && stack.len() > 1 => {
                    *container = Value::Array(vec![item]);
                    Some(0)
                }
                Value::Array(a) => {
                    a.push(item);
                    Some(a.len() - 1)
                }
                _ => None,
            };
            if is_obj && let Some(i) = pushed_at {
                let mut path = top;
                path.push(Step::Index(i));
                stack.push(Open { path, indent });
            } else if is_obj && flavor == Flavor::Coerced {
                // The item went nowhere, yet the lines under it fill it:
                // a path that leads to no container swallows them.
                let mut path = top;
                path.push(Step::Key(String::new()));
                path.push(Step::Key(String::new()));
                stack.push(Open { path, indent });
            }
        }
    }
    match root {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn scalars_are_strings_and_lists_fill_empty_keys() {
        let fm = parse(
            "---\nphase: 01-x\nwave: 1\nautonomous: true\ndepends_on: []\nfiles: [a.rs, \"b, c.rs\"]\nreqs:\n  - R-1\n  - 'R-2'\nmust_haves:\n  artifacts:\n    - path: a.rs\n      provides: A\n---\nbody\n",
        );
        assert_eq!(
            Value::Object(fm),
            json!({
                "phase": "01-x", "wave": "1", "autonomous": "true", "depends_on": [],
                "files": ["a.rs", "b, c.rs"], "reqs": ["R-1", "R-2"],
                "must_haves": {"artifacts": [{"path": "a.rs", "provides": "A"}]}
            })
        );
    }

    #[test]
    // The expected value is what node prints for plan-parser.js's
    // `extractFrontmatter` on the same text.
    fn the_plan_parser_types_scalars_and_splits_every_comma() {
        let fm = parse_coerced(
            "---\nplan: 01\nwave: 2\nratio: 1.5\nlead: 0.5\nautonomous: 'false'\nfiles: [a.rs, \"b, c.rs\", ]\nreqs:\n  - 3\n  - plan: 7\n    why: x\nkeys:\n  k: v\n  - orphan: 1\n    swallowed: y\n  after: z\n---\n",
        );
        assert_eq!(
            Value::Object(fm),
            json!({
                "plan": "01", "wave": 2, "ratio": 1.5, "lead": "0.5", "autonomous": false,
                "files": ["a.rs", "b", "c.rs"], "reqs": [3, {"plan": 7, "why": "x"}],
                "keys": {"k": "v", "after": "z"}
            })
        );
    }

    #[test]
    fn no_block_is_empty() {
        assert!(parse("# title\n").is_empty());
        assert!(parse("---\n---\n").is_empty());
    }
}
