//! `agent classify-failure -- BODY`: GSD Core 1.14.0's reading of a failed
//! subagent's return, which its orchestrators branch on (wait out a quota,
//! report the known hand-off bug, or stop).

use serde_json::{Map, Value, json};

use super::super::compat::roadmap_text::re;
use super::native::{CoreCall, Refusal, hand_on};
use super::output::Out;

/// `QUOTA_SENTINELS`, in 1.14.0's order: the first one found names the class.
const QUOTA: &[&str] = &[
    "429",
    "usage_limit_reached",
    "usage limit",
    "rate limit",
    "rate-limited",
    "rate_limit",
    "resource_exhausted",
    "quota",
    "too many requests",
    "exceeded your",
];

const HANDOFF: &str = "classifyhandoffifneeded is not defined";

fn word(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `parseRetryAfter`: the seconds of the first `retry-after: N` standing
/// between word boundaries (JavaScript's ASCII `\b`).
fn retry_after(body: &str) -> Result<Option<u64>, Refusal> {
    for m in re(r"(?i)retry[-_ ]after[:\s]+([0-9]+)").captures_iter(body) {
        let Ok(c) = m else { break };
        let (whole, digits) = (c.get(0).expect("match"), c.get(1).expect("group"));
        if word(body[..whole.start()].chars().next_back())
            || word(body[whole.end()..].chars().next())
        {
            continue;
        }
        return match digits.as_str().parse::<u64>() {
            Ok(n) if n < (1 << 53) => Ok(Some(n)),
            _ => Err(hand_on(
                " for a retry-after beyond JavaScript's safe integers",
            )),
        };
    }
    Ok(None)
}

/// `agent classify-failure [--] BODY…`: the words after the subcommand
/// (every `--` dropped) joined by spaces.
pub fn classify_failure(call: &CoreCall) -> Result<Out, Refusal> {
    let body = call
        .args
        .iter()
        .filter(|a| *a != "--")
        .cloned()
        .collect::<Vec<_>>()
        .join(" ");
    let lower = body.to_lowercase();
    let mut m = Map::new();
    if super::js::trim(&lower).is_empty() {
        m.insert("class".into(), json!("unknown-failure"));
    } else if let Some(s) = QUOTA.iter().find(|s| lower.contains(*s)) {
        m.insert("class".into(), json!("quota-exceeded"));
        m.insert("sentinel".into(), json!(s));
        if let Some(n) = retry_after(&body)? {
            m.insert("retryAfterSeconds".into(), json!(n));
        }
    } else if lower.contains(HANDOFF) {
        m.insert("class".into(), json!("classify-handoff-bug"));
        m.insert("sentinel".into(), json!(HANDOFF));
    } else {
        m.insert("class".into(), json!("unknown-failure"));
    }
    Ok(Out::json(&Value::Object(m)))
}

#[cfg(test)]
mod tests {
    use super::retry_after;

    #[test]
    fn retry_after_stands_between_word_boundaries() {
        assert_eq!(retry_after("429: Retry-After: 30 s").unwrap(), Some(30));
        assert_eq!(
            retry_after("retry_after 12abc, retry after 7").unwrap(),
            Some(7)
        );
        assert_eq!(retry_after("xretry-after: 5").unwrap(), None);
        assert_eq!(retry_after("no hint").unwrap(), None);
    }
}
