//! GSD Core 1.14.0's research seam, which its researcher agents call before
//! and after each look-up: `research-plan --input FILE` (which provider to
//! ask for each question, and which answers the cache already holds) and
//! `research-store get|put KEY` (the cache itself: one JSON file per
//! question, keyed by the SHA-256 of the question's normalised parts, in
//! `.planning/research/.cache/` or, for curated sources, in
//! `~/.gsd/research-cache/`).
//!
//! Answered where gsd reads the input as JavaScript does. What only
//! JavaScript's looser readers take (a date `Date.parse` guesses at, a
//! fractional number it prints its own way, a question that makes 1.14.0
//! throw) is handed on to gsd-tools.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use super::js::INHERITED;
use super::native::{CoreCall, Refusal, hand_on};
use super::output::{Failure, Out};

const DAY_MS: i64 = 86_400_000;

fn usage(message: impl Into<String>) -> Refusal {
    Refusal::Fail(Failure::new("usage", message))
}

/// The providers tried for each kind of question, in order
/// (`PROVIDER_WATERFALL`); any other kind is a web question.
fn waterfall(kind: &str) -> &'static [&'static str] {
    match kind {
        "docs" => &["context7", "ref", "jina", "websearch"],
        "scrape" => &["firecrawl", "jina"],
        _ => &["exa", "tavily", "perplexity", "brave", "websearch"],
    }
}

/// Whether a provider may be asked, given the input's `config` flags
/// (`providerAvailability`): context7 and web search always, jina unless
/// switched off, the rest only when switched on.
fn available(config: &Value, provider: &str) -> bool {
    let flag = |key: &str| config.as_object().and_then(|m| m.get(key));
    let on = |key: &str| flag(key).is_some_and(super::js::truthy);
    match provider {
        "context7" | "websearch" => true,
        "jina" => flag("jina").is_none_or(super::js::truthy),
        "exa" => on("exa_search"),
        "tavily" => on("tavily_search"),
        "brave" => on("brave_search"),
        "firecrawl" => on("firecrawl"),
        "ref" => on("ref_search"),
        "perplexity" => on("perplexity"),
        _ => false,
    }
}

/// A value as `JSON.stringify` writes it, where gsd writes it the same:
/// strings, booleans, `null`, integers JavaScript holds exactly, and
/// objects and arrays of those (object keys in JavaScript's order). `None`
/// for a number written with a fraction or an exponent, or past 2^53,
/// which JavaScript prints its own way.
fn js_json(v: &Value) -> Option<Value> {
    Some(match v {
        // Written as an integer and held exactly: a decimal (`3.0`,
        // `2.9999999999999996`) goes by JavaScript's own printing.
        Value::Number(n) => {
            let i = n.as_i64()?;
            (i.unsigned_abs() < 9_007_199_254_740_992).then(|| json!(i))?
        }
        Value::Array(a) => Value::Array(a.iter().map(js_json).collect::<Option<_>>()?),
        Value::Object(m) => {
            let pairs = m
                .iter()
                .map(|(k, v)| Some((k.clone(), js_json(v)?)))
                .collect::<Option<Vec<_>>>()?;
            Value::Object(super::super::compat::js::key_order(pairs))
        }
        other => other.clone(),
    })
}

/// `normalize(x)` of `researchKey`: absent and `null` are empty, objects
/// and arrays their JSON, anything else its `String(x)`; trimmed and lower
/// case.
fn normalized(x: Option<&Value>) -> Option<String> {
    let text = match x {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(v) => js_json(v)?.to_string(),
    };
    Some(super::js::trim(&text).to_lowercase())
}

/// `researchKey`: the SHA-256 of the question's normalised parts as JSON.
fn research_key(
    ecosystem: Option<&Value>,
    library: Option<&Value>,
    version: Option<&Value>,
    query: &str,
    kind: Option<&Value>,
) -> Option<String> {
    let query = Value::String(query.to_string());
    let mut parts = Map::new();
    for (name, part) in [
        ("ecosystem", ecosystem),
        ("library", library),
        ("version", version),
        ("query", Some(&query)),
        ("kind", kind),
    ] {
        parts.insert(name.into(), Value::String(normalized(part)?));
    }
    let digest = Sha256::digest(Value::Object(parts).to_string().as_bytes());
    Some(format!("{digest:x}"))
}

/// `isValidResearchKey`: 64 lower-case hex digits.
fn valid_key(key: &str) -> bool {
    key.len() == 64
        && key
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// `process.env.HOME || os.homedir()`: the home the user tier lives under.
fn home() -> Result<PathBuf, Refusal> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .ok_or_else(|| hand_on(" without HOME"))
}

/// The two tiers a cached answer may live in: the user's (curated sources)
/// and the project's.
fn tiers(project: &Path, home: &Path) -> [PathBuf; 2] {
    [
        home.join(".gsd").join("research-cache"),
        project.join(".planning").join("research").join(".cache"),
    ]
}

/// `Date.parse` of the instant `toISOString` writes (`2026-12-04T19:48:25.154Z`,
/// or without the milliseconds), in milliseconds; `None` for any other text,
/// which V8 parses by rules gsd does not reproduce.
fn iso_instant(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    let digits = |r: std::ops::Range<usize>| -> Option<i64> {
        let s = text.get(r)?;
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    let shape_ok = matches!(b.len(), 20 | 24)
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b'T'
        && b[13] == b':'
        && b[16] == b':'
        && b[b.len() - 1] == b'Z'
        && (b.len() == 20 || b[19] == b'.');
    if !shape_ok {
        return None;
    }
    let ms = if b.len() == 24 { digits(20..23)? } else { 0 };
    let date = jiff::civil::Date::new(
        i16::try_from(digits(0..4)?).ok()?,
        i8::try_from(digits(5..7)?).ok()?,
        i8::try_from(digits(8..10)?).ok()?,
    )
    .ok()?;
    let time = jiff::civil::Time::new(
        i8::try_from(digits(11..13)?).ok()?,
        i8::try_from(digits(14..16)?).ok()?,
        i8::try_from(digits(17..19)?).ok()?,
        0,
    )
    .ok()?;
    let at = date
        .to_datetime(time)
        .to_zoned(jiff::tz::TimeZone::UTC)
        .ok()?;
    Some(at.timestamp().as_millisecond() + ms)
}

/// One cached answer a tier holds: the entry, whether it is stale, its age.
struct Candidate {
    entry: Value,
    stale: bool,
    age: f64,
}

/// The cached answer in one tier's file, `None` where 1.14.0 skips it.
fn candidate(file: &Path, now: i64) -> Result<Option<Candidate>, Refusal> {
    let Ok(bytes) = std::fs::read(file) else {
        return Ok(None);
    };
    let text = String::from_utf8_lossy(&bytes);
    let entry = match serde_json::from_str::<Value>(&text) {
        Ok(v) => v,
        Err(e) if super::js::serde_refuses_valid_json(&e) => {
            return Err(hand_on(" for a cache entry serde_json does not read"));
        }
        Err(_) => return Ok(None),
    };
    let fields = match &entry {
        Value::Object(fields) => fields,
        // `null.fetched_at` throws, and 1.14.0's catch misses every tier:
        // not answered here.
        Value::Null => return Err(hand_on(" for a cache entry that is null")),
        // A string, number or list has no `fetched_at`: `Date.parse` of
        // nothing is NaN, and the tier is skipped.
        _ => return Ok(None),
    };
    let fetched = match fields.get("fetched_at") {
        None => return Ok(None),
        Some(Value::String(s)) => match iso_instant(s) {
            Some(ms) => ms,
            None => {
                return Err(hand_on(
                    " for a cache entry whose fetched_at is not an ISO instant",
                ));
            }
        },
        Some(_) => {
            return Err(hand_on(
                " for a cache entry whose fetched_at is not a string",
            ));
        }
    };
    let ttl = match fields.get("ttl").and_then(Value::as_f64) {
        Some(t) if t.is_finite() && t > 0.0 => t,
        _ => return Ok(None),
    };
    let age = (now - fetched) as f64;
    let entry =
        js_json(&entry).ok_or_else(|| hand_on(" for a cache entry with a fractional number"))?;
    Ok(Some(Candidate {
        entry,
        stale: age > ttl,
        age,
    }))
}

/// `getResearch`: the freshest cached answer over both tiers, as
/// `{hit, stale, entry}`.
fn cached(project: &Path, home: &Path, key: &str) -> Result<Value, Refusal> {
    // 1.14.0's research store reads `Date.now()`, not its pinnable clock.
    let now = jiff::Timestamp::now().as_millisecond();
    let mut found = Vec::new();
    for dir in tiers(project, home) {
        if let Some(c) = candidate(&dir.join(format!("{key}.json")), now)? {
            found.push(c);
        }
    }
    found.sort_by(|a, b| {
        a.stale.cmp(&b.stale).then(
            a.age
                .partial_cmp(&b.age)
                .unwrap_or(std::cmp::Ordering::Equal),
        )
    });
    Ok(match found.into_iter().next() {
        Some(best) => json!({"hit": true, "stale": best.stale, "entry": best.entry}),
        None => json!({"hit": false, "stale": false, "entry": null}),
    })
}

/// `research-plan --input FILE`: for each question of the input, its cache
/// key, and either the fresh cached answer's mark or the provider to fetch
/// it from (with the stale mark where the cache holds an old answer).
pub fn plan(call: &CoreCall) -> Result<Out, Refusal> {
    let input_path = super::native::flag_value(call.args, "--input");
    let Some(input_path) = input_path.filter(|p| !p.is_empty() && !p.starts_with("--")) else {
        return Err(usage("Usage: gsd-tools research-plan --input <path>"));
    };
    let unreadable = || {
        usage(format!(
            "research-plan: cannot read/parse --input file: {input_path}"
        ))
    };
    let bytes = std::fs::read(call.cwd.join(input_path)).map_err(|_| unreadable())?;
    let input = match serde_json::from_str::<Value>(&String::from_utf8_lossy(&bytes)) {
        Ok(v) => v,
        Err(e) if super::js::serde_refuses_valid_json(&e) => {
            return Err(hand_on(" for an input serde_json does not read"));
        }
        Err(_) => return Err(unreadable()),
    };
    let shape = || usage("research-plan: --input must be an object with a questions array");
    let Value::Object(input) = input else {
        return Err(shape());
    };
    let Some(Value::Array(questions)) = input.get("questions") else {
        return Err(shape());
    };
    let config = input.get("config").cloned().unwrap_or(json!({}));
    let ecosystem = input.get("ecosystem");
    let home = home()?;
    let mut items = Vec::new();
    for q in questions {
        let q = match q {
            Value::Null => return Err(hand_on(" for a null question (1.14.0 throws)")),
            Value::Object(q) => q,
            // A string, number or list has no `text`: skipped.
            _ => continue,
        };
        let Some(Value::String(text)) = q
            .get("text")
            .filter(|t| t.as_str().is_some_and(|s| !s.is_empty()))
        else {
            continue;
        };
        let kind = q.get("kind");
        let table_key = match kind {
            None | Some(Value::Null | Value::Bool(_) | Value::Number(_) | Value::Object(_)) => "",
            Some(Value::String(k)) if INHERITED.contains(&k.as_str()) => {
                return Err(hand_on(
                    " for a question kind every object inherits (1.14.0 throws)",
                ));
            }
            Some(Value::String(k)) => k.as_str(),
            Some(Value::Array(_)) => return Err(hand_on(" for a question kind that is a list")),
        };
        let key = research_key(ecosystem, q.get("library"), q.get("version"), text, kind)
            .ok_or_else(|| hand_on(" for a question part with a fractional number"))?;
        let res = cached(call.project, &home, &key)?;
        let (hit, stale) = (res["hit"] == json!(true), res["stale"] == json!(true));
        if hit && !stale {
            items.push(
                json!({"question": text, "key": key, "cache": {"hit": true, "stale": false}}),
            );
            continue;
        }
        let provider = waterfall(table_key)
            .iter()
            .find(|p| available(&config, p))
            .copied()
            .unwrap_or("websearch");
        let mut item =
            json!({"question": text, "key": key, "fetch": {"provider": provider, "query": text}});
        if hit {
            item["cache"] = json!({"hit": true, "stale": true});
        }
        items.push(item);
    }
    Ok(Out::json(&json!({ "items": items })))
}

/// `research-store get KEY`: the cached answer for a key, `{hit, stale,
/// entry}`.
pub fn store_get(call: &CoreCall) -> Result<Out, Refusal> {
    let key = checked_key(
        call,
        "Usage: gsd-tools research-store get <key> [--kind <k>]",
    )?;
    Ok(Out::json(&cached(call.project, &home()?, key)?))
}

/// The key argument of `research-store get|put`, or 1.14.0's refusal.
fn checked_key<'a>(call: &'a CoreCall, usage_line: &str) -> Result<&'a str, Refusal> {
    let key = match call.args.first() {
        Some(k) if !k.is_empty() && !k.starts_with("--") => k.as_str(),
        _ => return Err(usage(usage_line)),
    };
    if !valid_key(key) {
        return Err(usage(
            "research-store: <key> must be a 64-char sha256 hex (use research-plan to obtain keys)",
        ));
    }
    Ok(key)
}

/// `research-store put KEY --content … --source … --provider …
/// --confidence … --kind …`: cache one digested answer, for a day (1.14.0
/// caps every entry without a version, and the command passes none), in the
/// user's tier for a curated source and the project's otherwise.
pub fn store_put(call: &CoreCall) -> Result<Out, Refusal> {
    let key = checked_key(
        call,
        "Usage: gsd-tools research-store put <key> --content <str> --source <s> --provider <p> --confidence <c> --kind <k>",
    )?;
    let mut values = Vec::new();
    for flag in [
        "--content",
        "--source",
        "--provider",
        "--confidence",
        "--kind",
    ] {
        let value = match call.args.iter().position(|a| a == flag) {
            None => None,
            Some(i) => match call.args.get(i + 1) {
                Some(v) if !v.starts_with("--") => Some(v.as_str()),
                _ => {
                    return Err(usage(format!(
                        "research-store put: missing value for {flag}"
                    )));
                }
            },
        };
        values.push(value.filter(|v| !v.is_empty()));
    }
    let [
        Some(content),
        Some(source),
        Some(provider),
        Some(confidence),
        Some(kind),
    ] = values[..]
    else {
        return Err(usage(
            "Usage: gsd-tools research-store put <key> --content <str> --source <s> --provider <p> --confidence <c> --kind <k>",
        ));
    };
    let fetched_at = jiff::Timestamp::now()
        .strftime("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string();
    let entry = json!({
        "content": content,
        "source": source,
        "provider": provider,
        "confidence": confidence,
        "fetched_at": fetched_at,
        "ttl": DAY_MS,
        "kind": kind,
    });
    let home = home()?;
    let [user, project] = tiers(call.project, &home);
    let dir = if source == "curated" { user } else { project };
    // The store's atomic replace (1.14.0 also writes a temporary file and
    // renames it over the entry).
    crate::store::atomic::write(
        &dir.join(format!("{key}.json")),
        format!("{entry}\n").as_bytes(),
    )
    .map_err(|e| hand_on(format!(" where the cache file cannot be written ({e})")))?;
    Ok(Out::json(&entry))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_hash_the_normalised_parts_as_json() {
        // JSON.stringify({ecosystem:"npm",library:"react",version:"18",query:"how do hooks work?",kind:"docs"})
        let k = research_key(
            Some(&json!(" NPM ")),
            Some(&json!("React")),
            Some(&json!(18)),
            "How do hooks work?",
            Some(&json!("docs")),
        )
        .unwrap();
        let expected = format!(
            "{:x}",
            Sha256::digest(
                br#"{"ecosystem":"npm","library":"react","version":"18","query":"how do hooks work?","kind":"docs"}"#
            )
        );
        assert_eq!(k, expected);
        assert!(valid_key(&k));
        assert!(research_key(None, Some(&json!(1.5)), None, "q", None).is_none());
        assert!(!valid_key(&k.to_uppercase()));
    }

    #[test]
    fn only_iso_instants_are_read() {
        assert_eq!(iso_instant("1970-01-01T00:00:01.500Z"), Some(1500));
        assert_eq!(iso_instant("1970-01-02T00:00:00Z"), Some(DAY_MS));
        for bad in [
            "2026-02-30T00:00:00Z",
            "2026-12-04",
            "2026-12-04T24:00:00Z",
            "2026-12-04T10:00:00+01:00",
            "x",
        ] {
            assert_eq!(iso_instant(bad), None, "{bad}");
        }
    }

    #[test]
    fn providers_follow_the_waterfall_and_the_flags() {
        let none = json!({});
        let first =
            |kind: &str, cfg: &Value| waterfall(kind).iter().find(|p| available(cfg, p)).copied();
        assert_eq!(first("docs", &none), Some("context7"));
        assert_eq!(first("web", &none), Some("websearch"));
        assert_eq!(first("web", &json!({"brave_search": 1})), Some("brave"));
        assert_eq!(first("scrape", &none), Some("jina"));
        assert_eq!(first("scrape", &json!({"jina": false})), None);
        assert_eq!(
            first("anything", &json!({"exa_search": "yes"})),
            Some("exa")
        );
    }
}
