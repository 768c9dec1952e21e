//! `must_haves.<block>` the way gsd-sdk's `parseMustHavesBlock` reads it:
//! line by line under the block header, `- text` a string item, `- key: v`
//! an object item whose further `key: v` lines join it (digits become
//! numbers there, not on the dash line) and whose `- x` lines make the last
//! key a list. verify.artifacts and verify.key-links check these items.

use serde_json::{Map, Value, json};

use super::fm_lines;
use super::roadmap_text::{escape, group, re};

/// The block's items (strings and objects), in order.
pub fn items(content: &str, block: &str) -> Vec<Value> {
    let Some(yaml) = fm_lines::block(content) else {
        return Vec::new();
    };
    let Some(must) = re(r"(?m)^(\s*)must_haves:\s*$")
        .captures(yaml)
        .ok()
        .flatten()
    else {
        return Vec::new();
    };
    let must_indent = utf16_len(group(&must, 1));
    let Some(header) = re(&format!(r"(?m)^(\s+){}:\s*$", escape(block)))
        .captures(yaml)
        .ok()
        .flatten()
    else {
        return Vec::new();
    };
    let block_indent = utf16_len(group(&header, 1));
    if block_indent <= must_indent {
        return Vec::new();
    }
    let whole = header.get(0).expect("group 0").as_str();
    let Some(start) = yaml.find(whole) else {
        return Vec::new();
    };
    let kv = re(r#"^([A-Za-z0-9_]+):\s*"?([^"]*)"?\s*$"#);
    let quotes = re(r#"^["']|["']$"#);
    let mut items = Vec::new();
    let mut current: Option<Value> = None;
    let mut item_indent: Option<usize> = None;
    for line in yaml[start..].split('\n').skip(1) {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let trimmed = super::js::trim(line);
        if trimmed.is_empty() {
            continue;
        }
        let indent = utf16_len(&line[..line.len() - line.trim_start().len()]);
        if indent <= block_indent {
            break;
        }
        if let Some(after) = trimmed.strip_prefix("- ") {
            let first = *item_indent.get_or_insert(indent);
            if indent == first {
                items.extend(current.take());
                current = Some(if !after.contains(':') {
                    json!(quotes.replace_all(after, "").into_owned())
                } else {
                    let mut m = Map::new();
                    if let Some(c) = kv.captures(after).ok().flatten() {
                        m.insert(group(&c, 1).into(), json!(group(&c, 2)));
                    }
                    Value::Object(m)
                });
                continue;
            }
        }
        let Some(Value::Object(obj)) = current.as_mut() else {
            continue;
        };
        if item_indent.is_none_or(|first| indent <= first) {
            continue;
        }
        if let Some(after) = trimmed.strip_prefix("- ") {
            let value = quotes.replace_all(after, "").into_owned();
            if let Some((_, last)) = obj.iter_mut().last() {
                if !last.is_array() {
                    *last = if super::js::truthy(last) {
                        json!([last.clone()])
                    } else {
                        json!([])
                    };
                }
                if let Value::Array(a) = last {
                    a.push(json!(value));
                }
            }
        } else if let Some(c) = kv.captures(trimmed).ok().flatten() {
            let v = group(&c, 2);
            let value = if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) {
                v.parse::<f64>().map_or(json!(v), super::js::number)
            } else {
                json!(v)
            };
            obj.insert(group(&c, 1).into(), value);
        }
    }
    items.extend(current);
    items
}

/// A length as JavaScript counts it.
fn utf16_len(s: &str) -> usize {
    s.encode_utf16().count()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn items_are_read_like_gsd_sdk() {
        let plan = "---\nphase: 1\nmust_haves:\n  truths:\n    - \"It works\"\n  artifacts:\n    - path: src/a.rs\n      provides: \"the thing\"\n      min_lines: 10\n      exports:\n        - run\n        - stop\n    - plain item\n  key_links: []\n---\nbody\n";
        assert_eq!(
            super::items(plan, "artifacts"),
            vec![
                json!({"path": "src/a.rs", "provides": "the thing", "min_lines": 10, "exports": ["run", "stop"]}),
                json!("plain item"),
            ]
        );
        assert_eq!(super::items(plan, "truths"), vec![json!("It works")]);
        assert!(super::items(plan, "key_links").is_empty());
        assert!(super::items("no frontmatter", "artifacts").is_empty());
    }
}
