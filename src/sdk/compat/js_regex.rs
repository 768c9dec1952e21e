//! A JavaScript pattern of GSD's tools compiled for Rust, with its long
//! bounded runs made cheap where the text cannot tell the difference.
//!
//! GSD Core writes optional tags as `\[[^\]]{1,200}\]` and
//! `\(\s*[^)\n]{0,200}\)`. The regex engine compiles a bound of 200 as 200
//! copies of the class (each a small UTF-8 automaton, forwards and
//! backwards), and those few patterns were half of a `roadmap analyze`.
//! Such a run can only match all the way to its closer, so the bound
//! decides a match only where the text holds an opener followed by more
//! than 200 characters of the class and then the closer. On every other
//! text the pattern with the bound lifted (`{1,}`) matches exactly the
//! same, and compiles in a fraction of the time; each search looks at its
//! own text and takes the exact pattern where the bound could bind.

use std::ops::Deref;
use std::sync::OnceLock;

use fancy_regex::Regex;

/// `OPEN[^STOP…]{m,max}CLOSE` in a pattern: the run between an opener and
/// its closer, all ASCII, the closer one of the stop characters.
#[derive(Debug, Clone, PartialEq, Eq)]
struct BoundedRun {
    open: u8,
    stops: Vec<u8>,
    close: u8,
    max: usize,
}

/// Bounds at least this long are worth lifting (`{0,3}` costs nothing).
const LIFT_FROM: usize = 20;

impl BoundedRun {
    /// Whether the bound decides a match somewhere in `text`: an opener,
    /// then more than `max` characters none of which is a stop, then the
    /// closer. Scanned stop to stop with memchr, counting characters only
    /// in a stretch whose bytes already exceed the bound.
    fn binds_in(&self, text: &str) -> bool {
        let bytes = text.as_bytes();
        let mut from = 0;
        while from < bytes.len() {
            let stop = match self.stops.as_slice() {
                [a] => memchr::memchr(*a, &bytes[from..]),
                [a, b] => memchr::memchr2(*a, *b, &bytes[from..]),
                [a, b, c] => memchr::memchr3(*a, *b, *c, &bytes[from..]),
                _ => return true,
            };
            let Some(stop) = stop.map(|i| from + i) else {
                return false;
            };
            // The earliest opener of a stretch between stops makes its
            // longest run (the opener is never a stop, see `run_at`).
            if bytes[stop] == self.close
                && stop - from > self.max
                && let Some(open) = memchr::memchr(self.open, &bytes[from..stop]).map(|i| from + i)
                && text[open + 1..stop].chars().count() > self.max
            {
                return true;
            }
            from = stop + 1;
        }
        false
    }
}

/// The bounded runs of a (translated) pattern that can be lifted, and the
/// pattern with their bounds lifted; `None` when it has none.
fn lifted(pattern: &str) -> Option<(Vec<BoundedRun>, String)> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut runs = Vec::new();
    let mut out = String::with_capacity(pattern.len());
    let mut i = 0;
    while i < chars.len() {
        if let Some((run, lifted_text, len)) = run_at(&chars, i) {
            runs.push(run);
            out.push_str(&lifted_text);
            i += len;
            continue;
        }
        // Copy an escape whole so `\[` is never read as a class opener.
        if chars[i] == '\\' && i + 1 < chars.len() {
            out.push(chars[i]);
            out.push(chars[i + 1]);
            i += 2;
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    (!runs.is_empty()).then_some((runs, out))
}

/// A liftable run starting at `i` (`\X[^…]{m,n}\Y`): the run, its text
/// with the bound lifted, and how many pattern characters it spans.
fn run_at(chars: &[char], i: usize) -> Option<(BoundedRun, String, usize)> {
    let literal = |at: usize| -> Option<(char, usize)> {
        match (chars.get(at)?, chars.get(at + 1)) {
            ('\\', Some(c)) if c.is_ascii_punctuation() => Some((*c, 2)),
            (c, _) if c.is_ascii_punctuation() && !"[]()\\|?*+{}^$.".contains(*c) => Some((*c, 1)),
            _ => None,
        }
    };
    let (open, open_len) = literal(i)?;
    let mut j = i + open_len;
    if chars.get(j..j + 2)? != ['[', '^'] {
        return None;
    }
    j += 2;
    let mut stops = Vec::new();
    while *chars.get(j)? != ']' {
        let c = match chars[j] {
            '\\' => {
                j += 1;
                match *chars.get(j)? {
                    'n' => '\n',
                    'r' => '\r',
                    't' => '\t',
                    c if c.is_ascii_punctuation() => c,
                    _ => return None,
                }
            }
            '-' | '[' => return None,
            c => c,
        };
        if !c.is_ascii() || c.is_ascii_alphanumeric() {
            return None;
        }
        stops.push(c as u8);
        j += 1;
    }
    j += 1;
    let close_brace = j + chars[j..].iter().position(|c| *c == '}')?;
    let bound: String = chars.get(j + 1..close_brace)?.iter().collect();
    if chars[j] != '{' {
        return None;
    }
    let (min, max) = bound.split_once(',')?;
    let (min, max): (usize, usize) = (min.parse().ok()?, max.parse().ok()?);
    let (close, close_len) = literal(close_brace + 1)?;
    if max < LIFT_FROM
        || !stops.contains(&(close as u8))
        || !open.is_ascii()
        || stops.contains(&(open as u8))
        || stops.len() > 3
    {
        return None;
    }
    let end = close_brace + 1 + close_len;
    // A closer made optional or repeated would let the run stop anywhere.
    if chars.get(end).is_some_and(|c| "?*+{".contains(*c)) {
        return None;
    }
    let head: String = chars[i..j].iter().collect();
    let tail: String = chars[close_brace + 1..end].iter().collect();
    let run = BoundedRun {
        open: open as u8,
        stops,
        close: close as u8,
        max,
    };
    Some((run, format!("{head}{{{min},}}{tail}"), end - i))
}

/// The spans of a match's groups, `None` for a group that took no part.
type Groups = Vec<Option<(usize, usize)>>;

/// The longest bound seek's pre-filter may copy (measured: 1.14.0's
/// `{0,200}` tag runs gain more in search than they cost twice compiled).
const SEEK_BOUND_MAX: usize = 200;

/// Whether seek's pre-filter is worth building for `source`: only a
/// pattern with lookaround runs in the backtracking engine, and one that
/// holds a very long bound (`<task(?:\s[^>]{0,1000})?>`) would have that
/// bound compiled a second time for the pre-filter, which costs more than
/// the searches it saves (a plan-phase init took twice as long).
fn seek_pays(source: &str) -> bool {
    let lookaround = ["(?=", "(?!", "(?<=", "(?<!"]
        .iter()
        .any(|l| source.contains(l));
    let long_bound = source.split('{').skip(1).any(|rest| {
        rest.split_once('}')
            .and_then(|(inner, _)| inner.split_once(','))
            .and_then(|(_, max)| max.parse::<usize>().ok())
            .is_some_and(|max| max > SEEK_BOUND_MAX)
    });
    lookaround && !long_bound
}

/// A compiled pattern: the exact one, and where it has liftable runs, the
/// one with their bounds lifted; each compiled on first use, with seek.
#[derive(Debug)]
pub struct JsRegex {
    exact_source: String,
    lifted: Option<(Vec<BoundedRun>, String)>,
    exact: OnceLock<Regex>,
    fast: OnceLock<Regex>,
    /// The pattern as written, without seek: `GSD_REGEX_ORACLE`'s answer.
    plain: OnceLock<Regex>,
}

impl JsRegex {
    /// `pattern` is already in the engine's syntax (see `roadmap_text::re`).
    pub fn new(pattern: String) -> Self {
        JsRegex {
            lifted: lifted(&pattern),
            exact_source: pattern,
            exact: OnceLock::new(),
            fast: OnceLock::new(),
            plain: OnceLock::new(),
        }
    }

    /// A pattern with fancy-regex's seek pre-filter: a pattern with
    /// lookaround runs in its backtracking engine, which otherwise tries
    /// every position of the text (a milestone heading's `(?!Phase…)` over
    /// a whole roadmap was a third of a `roadmap analyze`); seek finds the
    /// plausible starts with a regular over-approximation first. It is
    /// marked experimental upstream, so `GSD_REGEX_ORACLE` checks every
    /// search against the plain exact pattern (the corpus parity tests run
    /// with it).
    fn compile(source: &str, seek: bool) -> Regex {
        fancy_regex::RegexBuilder::new(source)
            .seek(seek && seek_pays(source))
            .build()
            .unwrap_or_else(|_| Regex::new("$^").expect("the empty pattern compiles"))
    }

    fn exact(&self) -> &Regex {
        self.exact
            .get_or_init(|| Self::compile(&self.exact_source, true))
    }

    /// The regex to search `text` with: the lifted one unless one of its
    /// bounds could decide a match in `text`.
    pub fn for_text(&self, text: &str) -> &Regex {
        match &self.lifted {
            Some((runs, source)) if !runs.iter().any(|r| r.binds_in(text)) => {
                self.fast.get_or_init(|| Self::compile(source, true))
            }
            _ => self.exact(),
        }
    }

    /// Under `GSD_REGEX_ORACLE`, every match of `text` (all of them, with
    /// their groups) found as the pattern is written, without lifting or
    /// seek, must equal what the fast path found; a difference is a bug
    /// here, and stops the process.
    fn checked(&self, text: &str, all: bool) {
        static ON: OnceLock<bool> = OnceLock::new();
        if !*ON.get_or_init(|| std::env::var_os("GSD_REGEX_ORACLE").is_some()) {
            return;
        }
        if let Some(why) = self.disagreement(text, all) {
            eprintln!("gsd: regex oracle: {why}");
            std::process::abort();
        }
    }

    /// How the fast path's matches in `text` differ from the plain
    /// pattern's, if they do.
    fn disagreement(&self, text: &str, all: bool) -> Option<String> {
        let plain = self
            .plain
            .get_or_init(|| Self::compile(&self.exact_source, false));
        let spans = |r: &Regex| -> Vec<Result<Groups, String>> {
            let one = |c: fancy_regex::Result<fancy_regex::Captures<'_, str>>| {
                c.map(|c| c.iter().map(|g| g.map(|g| (g.start(), g.end()))).collect())
                    .map_err(|e| e.to_string())
            };
            if all {
                r.captures_iter(text).map(one).collect()
            } else {
                r.captures(text).transpose().map(one).into_iter().collect()
            }
        };
        let (want, got) = (spans(plain), spans(self.for_text(text)));
        (want != got).then(|| {
            format!(
                "{:?} found {got:?}, the plain pattern {want:?}, in {:?}",
                self.exact_source,
                text.chars().take(2000).collect::<String>()
            )
        })
    }

    pub fn is_match(&self, text: &str) -> fancy_regex::Result<bool> {
        self.checked(text, false);
        self.for_text(text).is_match(text)
    }

    pub fn find<'t>(&self, text: &'t str) -> fancy_regex::Result<Option<fancy_regex::Match<'t>>> {
        self.checked(text, false);
        self.for_text(text).find(text)
    }

    pub fn captures<'t>(
        &self,
        text: &'t str,
    ) -> fancy_regex::Result<Option<fancy_regex::Captures<'t, str>>> {
        self.checked(text, false);
        self.for_text(text).captures(text)
    }

    pub fn captures_iter<'r, 't>(
        &'r self,
        text: &'t str,
    ) -> fancy_regex::CaptureMatches<'r, 't, str> {
        self.checked(text, true);
        self.for_text(text).captures_iter(text)
    }

    pub fn find_iter<'r, 't>(&'r self, text: &'t str) -> fancy_regex::Matches<'r, 't, str> {
        self.checked(text, true);
        self.for_text(text).find_iter(text)
    }

    pub fn replace<'t, R: fancy_regex::Replacer>(
        &self,
        text: &'t str,
        rep: R,
    ) -> std::borrow::Cow<'t, str> {
        self.checked(text, false);
        self.for_text(text).replace(text, rep)
    }

    pub fn replace_all<'t, R: fancy_regex::Replacer>(
        &self,
        text: &'t str,
        rep: R,
    ) -> std::borrow::Cow<'t, str> {
        self.checked(text, true);
        self.for_text(text).replace_all(text, rep)
    }
}

/// Everything else (rarely used) runs on the exact pattern.
impl Deref for JsRegex {
    type Target = Regex;
    fn deref(&self) -> &Regex {
        self.exact()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tags_of_gsd_cores_patterns_are_lifted() {
        let (runs, text) =
            lifted(r"^(?:\[[^\]]{1,200}\]\s*)?Phase(?:\s*\([^)\n]{0,200}\))?:").unwrap();
        assert_eq!(text, r"^(?:\[[^\]]{1,}\]\s*)?Phase(?:\s*\([^)\n]{0,}\))?:");
        assert_eq!(runs.len(), 2);
        assert_eq!((runs[1].open, runs[1].close), (b'(', b')'));
        assert_eq!(runs[1].stops, b")\n");
        // Short bounds, classes of letters and closers the class does not
        // stop at are left alone.
        assert!(lifted(r"^ {0,3}#{2,4}\([^)]{0,3}\)").is_none());
        assert!(lifted(r"\[[^a\]]{1,200}\]").is_none());
        assert!(lifted(r"\([^\n]{0,200}\)").is_none());
        assert!(lifted(r"\[[^\]]{1,200}\]?").is_none());
        assert!(lifted(r"\([^(]{1,200}\(").is_none());
        assert_eq!(lifted(r"\\\[[^\]]{1,99}\]").unwrap().1, r"\\\[[^\]]{1,}\]");
    }

    #[test]
    fn a_bound_binds_only_on_a_long_run_that_reaches_its_closer() {
        let run = BoundedRun {
            open: b'(',
            stops: b")\n".to_vec(),
            close: b')',
            max: 5,
        };
        assert!(!run.binds_in("a (12345) b"));
        assert!(run.binds_in("a (123456) b"));
        // Counted in characters, not bytes.
        assert!(!run.binds_in("(ééééé)"));
        assert!(run.binds_in("(éééééé)"));
        // A long run that ends at another stop cannot match either way.
        assert!(!run.binds_in("(1234567\n)"));
        // The earliest opener of a stretch gives its longest run.
        assert!(run.binds_in("(1(234567)"));
        assert!(!run.binds_in("1234567(1)"));
        assert!(!run.binds_in(""));
        let square = BoundedRun {
            open: b'[',
            stops: b"]".to_vec(),
            close: b']',
            max: 3,
        };
        assert!(square.binds_in("x]\n[abcd]"));
        assert!(!square.binds_in("[abc][abc]"));
    }

    #[test]
    fn seek_is_built_only_where_it_pays() {
        assert!(seek_pays(r"(?m)^#{1,3}\s+(?!Phase\s+\S)[^\n]*"));
        assert!(!seek_pays(r"^#{1,3}\s+[^\n]*"));
        assert!(!seek_pays(
            r"<task(?:\s[^>]{0,1000})?>((?:(?!<task[\s>])[\s\S])*?)</task>"
        ));
        assert!(seek_pays(r"(?<=a)\[[^\]]{1,}\]"));
    }

    #[test]
    fn the_oracle_sees_a_fast_path_that_answers_otherwise() {
        let re = JsRegex::new(r"\[[^\]]{1,30}\]".into());
        assert_eq!(re.disagreement("a [b] c", true), None);
        assert_eq!(re.disagreement("no tag", false), None);
        // A fast path that is wrong (a lifted pattern compiled from the
        // wrong text) is caught on a text where it is used.
        let broken = JsRegex::new(r"\[[^\]]{1,30}\]".into());
        broken.fast.set(JsRegex::compile(r"\[b\]", true)).unwrap();
        assert!(broken.disagreement("a [b] [cd]", true).is_some());
        assert!(broken.disagreement("[cd]", false).is_some());
        assert_eq!(broken.disagreement("[b]", false), None);
    }

    /// Lifted or not, every search answers as the exact pattern does, on
    /// runs just under, at and over the bound, in ASCII and not.
    #[test]
    fn the_lifted_pattern_answers_as_the_exact_one() {
        let pattern = r"(?m)^(?:\[[^\]]{1,5}\]\s*)?Phase\s+(\d+)(?:\s*\([^)\n]{0,4}\))?:\s*(.*)$";
        let small = pattern
            .replace("{1,5}", "{1,25}")
            .replace("{0,4}", "{0,24}");
        let re = JsRegex::new(small.clone());
        assert!(re.lifted.is_some());
        let exact = Regex::new(&small).unwrap();
        let mut texts = Vec::new();
        for tag in ["", "[a] ", "[", "]", "(x)"] {
            for n in [0, 1, 24, 25, 26, 40] {
                for fill in ["a", "é", "\n"] {
                    let body = fill.repeat(n);
                    texts.push(format!("{tag}Phase 3 ({body}): x\n[{body}] Phase 4: y\n"));
                    texts.push(format!("[{body}]\nPhase 5 ({body}):"));
                }
            }
        }
        for t in &texts {
            let want: Vec<String> = exact
                .captures_iter(t)
                .map(|c| format!("{:?}", c.unwrap()))
                .collect();
            let got: Vec<String> = re
                .captures_iter(t)
                .map(|c| format!("{:?}", c.unwrap()))
                .collect();
            assert_eq!(got, want, "{t:?}");
        }
    }
}
