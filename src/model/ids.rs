//! Phase and plan identifiers, exactly as GSD-FORMATS §1.2 describes them.
//!
//! Accepted: `1`, `01`, `2.1`, `02.1.3`, `12A`, `CK-01` (project-code
//! prefix), `999.1` (backlog) and custom non-numeric IDs. Normalizing pads
//! the integer part to two digits (it only ever widens: `001` stays `001`),
//! keeps the letter's case and the decimal groups. Ordering: integer part,
//! then no letter before a letter, then decimal groups numerically
//! (`2.2 < 2.10`); custom IDs sort after numeric ones, by text.

use std::cmp::Ordering;
use std::fmt;

/// A phase number as written.
///
/// Equality, ordering and hashing all go through [`PhaseId::key`], so `01`,
/// `1` and `CK-01` are one phase in a map, a set or a sort — the written form
/// is kept for rendering (`normalized`, `unpadded`), never for identity.
#[derive(Debug, Clone)]
pub enum PhaseId {
    Numeric {
        /// Project-code prefix without its dash (`CK`).
        prefix: Option<String>,
        /// Integer digits as written (`01`, `1`, `001`).
        int: String,
        letter: Option<char>,
        /// Decimal groups as written (`["1", "3"]` for `.1.3`).
        decimals: Vec<String>,
    },
    Custom(String),
}

/// What [`PhaseId::key`] returns: the parts `same` compares.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PhaseKey {
    Numeric(u64, Option<char>, Vec<u64>),
    Custom(String),
}

/// The value of a digit string, saturating on absurdly long input.
fn digits_value(d: &str) -> u64 {
    d.bytes().fold(0u64, |acc, b| {
        acc.saturating_mul(10).saturating_add(u64::from(b - b'0'))
    })
}

/// A project code in front of a phase folder's number, as GSD matches it:
/// a letter, then letters, digits or `_`, then `-` and a digit, in either
/// case (`codenexus-04-parity` → `codenexus`, `04-parity`).
pub fn split_project_code(name: &str) -> Option<(&str, &str)> {
    let (code, rest) = name.split_once('-')?;
    let well_formed = code.starts_with(|c: char| c.is_ascii_alphabetic())
        && code.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (well_formed && rest.starts_with(|c: char| c.is_ascii_digit())).then_some((code, rest))
}

impl PhaseId {
    /// Parse a phase ID token (the whole string must be the ID).
    pub fn parse(s: &str) -> Option<PhaseId> {
        let s = s.trim();
        if s.is_empty() {
            return None;
        }
        match Self::parse_prefix(s) {
            Some((id, "")) => Some(id),
            Some(_) => None,
            None => {
                let ok = s
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
                ok.then(|| PhaseId::Custom(s.to_owned()))
            }
        }
    }

    /// Parse a numeric phase ID at the start of `s`; returns it and the rest.
    pub fn parse_prefix(s: &str) -> Option<(PhaseId, &str)> {
        let b = s.as_bytes();
        let mut i = 0;
        let mut prefix = None;
        let upper = b.iter().take_while(|c| c.is_ascii_uppercase()).count();
        if (1..=6).contains(&upper)
            && b.get(upper) == Some(&b'-')
            && b.get(upper + 1).is_some_and(u8::is_ascii_digit)
        {
            prefix = Some(s[..upper].to_owned());
            i = upper + 1;
        }
        let int_len = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if int_len == 0 {
            return None;
        }
        let int = s[i..i + int_len].to_owned();
        i += int_len;
        let mut letter = None;
        if let Some(&c) = b.get(i) {
            let next = b.get(i + 1);
            if c.is_ascii_alphabetic()
                && (next.is_none() || matches!(next, Some(b'.' | b'-' | b' ' | b':' | b'_' | b')')))
            {
                letter = Some(c as char);
                i += 1;
            }
        }
        let mut decimals = Vec::new();
        while b.get(i) == Some(&b'.') {
            let n = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
            if n == 0 {
                break;
            }
            decimals.push(s[i + 1..i + 1 + n].to_owned());
            i += 1 + n;
        }
        Some((
            PhaseId::Numeric {
                prefix,
                int,
                letter,
                decimals,
            },
            &s[i..],
        ))
    }

    /// Parse a phase directory name: `01-foundation`, `02.1-hotfix`,
    /// `CK-03-name`, `999.1-idea`. Returns the ID and the slug.
    pub fn from_dir_name(name: &str) -> Option<(PhaseId, String)> {
        let (id, rest) = Self::parse_prefix(name).or_else(|| Self::project_code_prefixed(name))?;
        match rest.strip_prefix('-') {
            Some(slug) => Some((id, slug.to_owned())),
            None if rest.is_empty() => Some((id, String::new())),
            None => None,
        }
    }

    /// The phase a folder names with the word in front (`phase_14`,
    /// `Phase 3 notes`): not a phase folder GSD finds (its name is not
    /// NN-slug), but its number says which phase it holds.
    pub fn from_worded_dir_name(name: &str) -> Option<PhaseId> {
        let lower = name.to_lowercase();
        let rest = lower
            .strip_prefix("phase")?
            .trim_start_matches(['_', '-', ' ']);
        let (id, tail) = Self::parse_prefix(rest)?;
        (tail.is_empty() || tail.starts_with(['_', '-', ' '])).then_some(id)
    }

    /// A folder named with config.json's `project_code` in front
    /// (`codenexus-04-parity`, `App_2-07-auth`): GSD names phase folders so
    /// when the key is set, and finds them by any such prefix, so the phase
    /// is the number after it.
    fn project_code_prefixed(name: &str) -> Option<(PhaseId, &str)> {
        let (code, rest) = split_project_code(name)?;
        match Self::parse_prefix(rest)? {
            (
                PhaseId::Numeric {
                    prefix: None,
                    int,
                    letter,
                    decimals,
                },
                rest,
            ) => Some((
                PhaseId::Numeric {
                    prefix: Some(code.to_owned()),
                    int,
                    letter,
                    decimals,
                },
                rest,
            )),
            _ => None,
        }
    }

    /// The integer part's value (0 for custom IDs).
    pub fn major(&self) -> u64 {
        match self {
            PhaseId::Numeric { int, .. } => digits_value(int),
            PhaseId::Custom(_) => 0,
        }
    }

    pub fn is_integer(&self) -> bool {
        matches!(self, PhaseId::Numeric { letter: None, decimals, .. } if decimals.is_empty())
    }

    pub fn is_decimal(&self) -> bool {
        matches!(self, PhaseId::Numeric { decimals, .. } if !decimals.is_empty())
    }

    /// 999.x phases are the backlog lane, outside numbering.
    pub fn is_backlog(&self) -> bool {
        self.major() == 999 && matches!(self, PhaseId::Numeric { .. })
    }

    pub fn is_custom(&self) -> bool {
        matches!(self, PhaseId::Custom(_))
    }

    /// The parent integer phase of a decimal (`2` for `2.1`).
    pub fn base(&self) -> PhaseId {
        match self {
            PhaseId::Numeric {
                prefix,
                int,
                letter,
                ..
            } => PhaseId::Numeric {
                prefix: prefix.clone(),
                int: int.clone(),
                letter: *letter,
                decimals: Vec::new(),
            },
            c => c.clone(),
        }
    }

    /// The normalized form: integer padded to two digits, prefix dropped.
    pub fn normalized(&self) -> String {
        match self {
            PhaseId::Numeric {
                int,
                letter,
                decimals,
                ..
            } => {
                let mut s = if int.len() < 2 {
                    format!("{int:0>2}")
                } else {
                    int.clone()
                };
                if let Some(l) = letter {
                    s.push(*l);
                }
                for d in decimals {
                    s.push('.');
                    s.push_str(d);
                }
                s
            }
            PhaseId::Custom(c) => c.clone(),
        }
    }

    /// The unpadded form used in ROADMAP headings (`2.1`, `12A`); `Display`
    /// prints the padded [`PhaseId::normalized`] form instead.
    pub fn unpadded(&self) -> String {
        match self {
            PhaseId::Numeric {
                int,
                letter,
                decimals,
                ..
            } => {
                let mut s = digits_value(int).to_string();
                if let Some(l) = letter {
                    s.push(*l);
                }
                for d in decimals {
                    s.push('.');
                    s.push_str(&digits_value(d).to_string());
                }
                s
            }
            PhaseId::Custom(c) => c.clone(),
        }
    }

    /// Same phase, ignoring padding, prefix and letter case.
    pub fn same(&self, other: &PhaseId) -> bool {
        self.cmp_order(other) == Ordering::Equal
    }

    /// A hashable form of the ID: two IDs are `same` exactly when their keys
    /// are equal, so lookups over many phases can use a map instead of a scan.
    pub fn key(&self) -> PhaseKey {
        match self {
            PhaseId::Numeric {
                int,
                letter,
                decimals,
                ..
            } => PhaseKey::Numeric(
                digits_value(int),
                letter.map(|c| c.to_ascii_uppercase()),
                decimals.iter().map(|d| digits_value(d)).collect(),
            ),
            PhaseId::Custom(name) => PhaseKey::Custom(name.to_ascii_lowercase()),
        }
    }

    fn cmp_order(&self, other: &PhaseId) -> Ordering {
        match (self, other) {
            (
                PhaseId::Numeric {
                    int: a,
                    letter: la,
                    decimals: da,
                    ..
                },
                PhaseId::Numeric {
                    int: b,
                    letter: lb,
                    decimals: db,
                    ..
                },
            ) => digits_value(a)
                .cmp(&digits_value(b))
                .then_with(|| match (la, lb) {
                    (None, None) => Ordering::Equal,
                    (None, Some(_)) => Ordering::Less,
                    (Some(_), None) => Ordering::Greater,
                    (Some(x), Some(y)) => x.to_ascii_uppercase().cmp(&y.to_ascii_uppercase()),
                })
                // Compared in place: lookups compare IDs against every phase,
                // so this must not allocate.
                .then_with(|| {
                    da.iter()
                        .map(|d| digits_value(d))
                        .cmp(db.iter().map(|d| digits_value(d)))
                }),
            (PhaseId::Numeric { .. }, PhaseId::Custom(_)) => Ordering::Less,
            (PhaseId::Custom(_), PhaseId::Numeric { .. }) => Ordering::Greater,
            (PhaseId::Custom(a), PhaseId::Custom(b)) => a
                .bytes()
                .map(|c| c.to_ascii_lowercase())
                .cmp(b.bytes().map(|c| c.to_ascii_lowercase())),
        }
    }
}

impl PartialEq for PhaseId {
    fn eq(&self, other: &Self) -> bool {
        self.cmp_order(other) == Ordering::Equal
    }
}

impl Eq for PhaseId {}

impl std::hash::Hash for PhaseId {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl Ord for PhaseId {
    fn cmp(&self, other: &Self) -> Ordering {
        self.cmp_order(other)
    }
}

impl PartialOrd for PhaseId {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for PhaseId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.normalized())
    }
}

impl serde::Serialize for PhaseId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.normalized())
    }
}

/// A plan identifier: phase plus plan number (`05-07`). Like [`PhaseId`],
/// equality, ordering and hashing agree: `5-7` and `05-07` are one plan.
#[derive(Debug, Clone)]
pub struct PlanId {
    pub phase: PhaseId,
    /// The plan token as written (`07`, `7`, `P02`).
    pub plan: String,
}

impl PlanId {
    /// Parse `05-07`, `5-7`, `05-07-PLAN.md`, `05-07-slug-PLAN.md`, a path,
    /// or `73-P02`. A trailing slug is ignored (the canonical ID is kept).
    pub fn parse(s: &str) -> Option<PlanId> {
        let s = s.trim();
        let name = s.rsplit(['/', '\\']).next().unwrap_or(s);
        let stem = name
            .strip_suffix("-PLAN.md")
            .or_else(|| name.strip_suffix("-SUMMARY.md"))
            .or_else(|| name.strip_suffix(".md"))
            .unwrap_or(name);
        let (phase, rest) = PhaseId::parse_prefix(stem)?;
        let rest = rest.strip_prefix('-')?;
        let token_len = rest
            .bytes()
            .take_while(|c| c.is_ascii_alphanumeric())
            .count();
        let token = &rest[..token_len];
        let digits = token.trim_start_matches(['P', 'p']);
        if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) || digits.len() > 4 {
            return None;
        }
        Some(PlanId {
            phase,
            plan: token.to_owned(),
        })
    }

    /// The number of a lettered sub-plan (`30-01a-PLAN.md` → 1): sub-waves
    /// split from one plan fill its place in the numbering. Not a [`PlanId`]:
    /// two sub-plans of one number are two plans, where IDs equal by number.
    pub fn lettered_number(name: &str) -> Option<u64> {
        let stem = name.strip_suffix("-PLAN.md")?;
        let (_, token) = stem.rsplit_once('-')?;
        let digits = token.trim_end_matches(|c: char| c.is_ascii_lowercase());
        (digits.len() < token.len()
            && !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
    }

    /// The plan number (`P02` → 2).
    pub fn number(&self) -> u64 {
        digits_value(self.plan.trim_start_matches(['P', 'p']))
    }

    /// `05-07`: normalized phase, plan padded to two digits.
    pub fn canonical(&self) -> String {
        let lead = if self.plan.starts_with(['P', 'p']) {
            &self.plan[..1]
        } else {
            ""
        };
        format!("{}-{}{:02}", self.phase.normalized(), lead, self.number())
    }

    pub fn same(&self, other: &PlanId) -> bool {
        self.phase.same(&other.phase) && self.number() == other.number()
    }
}

impl fmt::Display for PlanId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.canonical())
    }
}

impl serde::Serialize for PlanId {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.canonical())
    }
}

impl PartialEq for PlanId {
    fn eq(&self, other: &Self) -> bool {
        self.same(other)
    }
}

impl Eq for PlanId {}

impl std::hash::Hash for PlanId {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.phase.key().hash(state);
        self.number().hash(state);
    }
}

impl Ord for PlanId {
    fn cmp(&self, other: &Self) -> Ordering {
        self.phase
            .cmp(&other.phase)
            .then_with(|| self.number().cmp(&other.number()))
    }
}

impl PartialOrd for PlanId {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// GSD's slug: lowercase ASCII, runs of anything else become `-`, at most 60.
pub fn slugify(s: &str) -> String {
    let mut out = dashed(&s.to_ascii_lowercase());
    out.truncate(60);
    out.trim_end_matches('-').to_owned()
}

/// `s` (already lower-cased) with each run of characters other than
/// `a-z0-9` turned into one `-`, none at either end.
pub fn dashed(s: &str) -> String {
    let mut out = String::new();
    let mut dash = false;
    for c in s.chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            if dash && !out.is_empty() {
                out.push('-');
            }
            dash = false;
            out.push(c);
        } else {
            dash = true;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> PhaseId {
        PhaseId::parse(s).unwrap()
    }

    /// Lint looks phases up by key: the key must agree with `same` on every
    /// pair, including padding, letter case, decimals, prefixes and names.
    #[test]
    fn key_equality_is_same() {
        let ids: Vec<PhaseId> = [
            "5", "05", "005", "5A", "05a", "5B", "5.1", "05.1", "5.01", "5.1.2", "5.10", "6",
            "CK-5", "CK-05.1", "999.1", "999.01", "0", "00",
        ]
        .iter()
        .map(|s| p(s))
        .chain(
            ["Setup", "setup", "SETUP", "teardown"]
                .iter()
                .map(|s| PhaseId::Custom((*s).to_owned())),
        )
        .collect();
        let mut same_pairs = 0;
        for a in &ids {
            for b in &ids {
                assert_eq!(a.key() == b.key(), a.same(b), "{a:?} vs {b:?}");
                same_pairs += usize::from(a.same(b) && a.normalized() != b.normalized());
            }
        }
        assert!(same_pairs > 10, "the list must hold IDs that are the same");
    }

    #[test]
    fn normalizes_like_gsd_tools() {
        assert_eq!(p("1").normalized(), "01");
        assert_eq!(p("2.1.3").normalized(), "02.1.3");
        assert_eq!(p("12a").normalized(), "12a");
        assert_eq!(p("CK-01").normalized(), "01");
        assert_eq!(p("001").normalized(), "001");
        assert_eq!(p("AUTH-FLOW").normalized(), "AUTH-FLOW");
        assert_eq!(p("PROJ-42").normalized(), "42");
        assert_eq!(p("02.1").unpadded(), "2.1");
    }

    #[test]
    fn orders_phases() {
        let mut v: Vec<PhaseId> = [
            "13", "12A.1", "12", "2.10", "2.2", "12B", "12A", "999.1", "X",
        ]
        .iter()
        .map(|s| p(s))
        .collect();
        v.sort();
        let out: Vec<String> = v.iter().map(PhaseId::unpadded).collect();
        assert_eq!(
            out,
            [
                "2.2", "2.10", "12", "12A", "12A.1", "12B", "13", "999.1", "X"
            ]
        );
        assert!(p("05").same(&p("5")));
        assert!(p("999.1").is_backlog());
    }

    #[test]
    fn parses_dir_names() {
        let (id, slug) = PhaseId::from_dir_name("02.1-urgent-fix").unwrap();
        assert_eq!(
            (id.normalized(), slug.as_str()),
            ("02.1".into(), "urgent-fix")
        );
        let (id, _) = PhaseId::from_dir_name("CK-03-name").unwrap();
        assert_eq!(id.normalized(), "03");
        assert!(PhaseId::from_dir_name("post-m1-enhancements").is_none());
        assert!(
            PhaseId::from_dir_name("12A-variant")
                .unwrap()
                .0
                .normalized()
                == "12A"
        );
    }

    #[test]
    fn parses_plan_ids() {
        for s in [
            "05-07",
            "5-7",
            "05-07-PLAN.md",
            "/x/.planning/phases/05-a/05-07-PLAN.md",
            "05-07-auth-hardening-PLAN.md",
        ] {
            assert_eq!(PlanId::parse(s).unwrap().canonical(), "05-07", "{s}");
        }
        assert_eq!(
            PlanId::parse("02.1-01-PLAN.md").unwrap().canonical(),
            "02.1-01"
        );
        assert_eq!(
            PlanId::parse("73-P02-PLAN.md").unwrap().canonical(),
            "73-P02"
        );
        assert!(PlanId::parse("PLAN.md").is_none());
        assert!(PlanId::parse("05").is_none());
    }

    #[test]
    fn slugs() {
        assert_eq!(slugify("My Phase"), "my-phase");
        assert_eq!(slugify("Ünïcode"), "n-code");
        assert_eq!(slugify("  A -- B  "), "a-b");
    }
}
