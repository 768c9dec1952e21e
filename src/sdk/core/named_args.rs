//! GSD Core 1.14.0's strict reading of a command's flags
//! (`parseNamedArgs`): value flags take the next token unless it is a flag,
//! boolean flags are present or not, and any other flag or a stray word past
//! the command's own positionals is refused with 1.14.0's usage message.

use std::collections::HashMap;

use serde_json::Value;

use super::output::Failure;

/// The flags a command declares.
pub struct Spec<'a> {
    pub values: &'a [&'a str],
    pub booleans: &'a [&'a str],
    /// How many leading arguments are the command's own words.
    pub positionals: usize,
}

/// What the flags said: each value flag's value (`None` where absent or
/// followed by a flag) and each boolean flag's presence.
#[derive(Debug, Default)]
pub struct Named {
    values: HashMap<String, Option<String>>,
    booleans: HashMap<String, bool>,
}

impl Named {
    pub fn value(&self, flag: &str) -> Option<&str> {
        self.values.get(flag).and_then(|v| v.as_deref())
    }
    pub fn flag(&self, flag: &str) -> bool {
        self.booleans.get(flag).copied().unwrap_or(false)
    }
}

fn is_flag(token: &str) -> bool {
    token.starts_with("--")
}

/// `parseNamedArgs(args, spec)`, failing as `parseNamedArgsOrExit` does.
pub fn parse(args: &[String], spec: &Spec) -> Result<Named, Failure> {
    let first = |flag: &str| args.iter().position(|a| *a == format!("--{flag}"));
    let mut named = Named::default();
    for flag in spec.values {
        let value = first(flag)
            .and_then(|i| args.get(i + 1))
            .filter(|v| !is_flag(v))
            .cloned();
        named.values.insert((*flag).to_owned(), value);
    }
    for flag in spec.booleans {
        named
            .booleans
            .insert((*flag).to_owned(), first(flag).is_some());
    }
    let accepted: Vec<String> = spec
        .values
        .iter()
        .map(|f| format!("--{f} <value>"))
        .chain(spec.booleans.iter().map(|f| format!("--{f}")))
        .collect();
    let quoted = |t: &str| Value::String(t.to_owned()).to_string();
    let mut i = spec.positionals;
    while let Some(token) = args.get(i) {
        if let Some(name) = token.strip_prefix("--") {
            if spec.values.contains(&name) {
                i += if args.get(i + 1).is_some_and(|n| !is_flag(n)) {
                    2
                } else {
                    1
                };
                continue;
            }
            if spec.booleans.contains(&name) {
                i += 1;
                continue;
            }
            let reason = if accepted.is_empty() {
                format!(
                    "unknown flag {}; this command accepts no flags",
                    quoted(token)
                )
            } else {
                format!(
                    "unknown flag {}; accepted: {}",
                    quoted(token),
                    accepted.join(", ")
                )
            };
            return Err(Failure::new("usage", reason));
        }
        return Err(Failure::new(
            "usage",
            format!("unexpected positional argument {}", quoted(token)),
        ));
    }
    Ok(named)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    const SPEC: Spec = Spec {
        values: &["tokens-used", "context-window"],
        booleans: &["json"],
        positionals: 0,
    };

    #[test]
    fn values_booleans_and_refusals() {
        let n = parse(
            &args(&["--tokens-used", "5", "--json", "--context-window", "--x"]),
            &SPEC,
        );
        let e = n.unwrap_err();
        assert_eq!(
            e.message,
            r#"unknown flag "--x"; accepted: --tokens-used <value>, --context-window <value>, --json"#
        );
        let n = parse(
            &args(&["--tokens-used", "5", "--context-window", "--json"]),
            &SPEC,
        )
        .unwrap();
        assert_eq!(n.value("tokens-used"), Some("5"));
        assert_eq!(n.value("context-window"), None);
        assert!(n.flag("json"));
        let e = parse(&args(&["--json", "stray"]), &SPEC).unwrap_err();
        assert_eq!(e.message, r#"unexpected positional argument "stray""#);
    }
}
