//! The words planning trees use for GSD's nouns, in the languages real
//! roadmaps are written in (`## Fase 12`, `#### 阶段 1：`, `## 里程碑 2`,
//! a progress table headed `| 阶段 | … | 状态 |`).
//!
//! One table per noun, so that a new language is a new entry here and never
//! an `if` for one tree. Matching is case-insensitive and whole-word: a word
//! must not continue a longer word (`Emphase 2` names no phase).

/// "Phase".
const PHASE: &[&str] = &[
    "phase",
    "fase",
    "étape",
    "etapa",
    "aşama",
    "faza",
    "фаза",
    "этап",
    "阶段",
    "階段",
    "フェーズ",
    "단계",
];

/// "Phases": a range may use these or the singular words (`Phases 1-3`,
/// `Phase 4`); the plural is tried first, as it is the longer word.
const PHASES: &[&str] = &[
    "phases",
    "phasen",
    "fases",
    "étapes",
    "etapas",
    "aşamalar",
    "fazy",
    "фазы",
    "этапы",
];

/// "Milestone".
const MILESTONE: &[&str] = &[
    "milestone",
    "meilenstein",
    "jalon",
    "hito",
    "marco",
    "traguardo",
    "mijlpaal",
    "kilometre taşı",
    "веха",
    "里程碑",
    "マイルストーン",
    "마일스톤",
];

/// A table column that holds a status.
const STATUS: &[&str] = &[
    "status",
    "estado",
    "statut",
    "stato",
    "durum",
    "статус",
    "状态",
    "狀態",
    "ステータス",
    "상태",
];

/// A table column that counts plans.
const PLANS: &[&str] = &[
    "plans",
    "planos",
    "planes",
    "pläne",
    "планы",
    "计划",
    "計画",
];

/// Whether `c` belongs to a word (so a table word next to it is part of a
/// longer word).
fn word_char(c: char) -> bool {
    c.is_alphanumeric() && !is_cjk(c)
}

/// Han, kana and hangul run on without spaces: a word of theirs ends
/// wherever it ends.
fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF)
}

/// The byte length of `word` at the start of `s`, compared without case.
fn starts_with_word(s: &str, word: &str) -> Option<usize> {
    // Nearly every place tried does not start the word: one byte compare
    // turns it away before any case folding (both bytes ASCII: exact).
    let (&w0, &s0) = (word.as_bytes().first()?, s.as_bytes().first()?);
    if w0.is_ascii() && s0.is_ascii() && !w0.eq_ignore_ascii_case(&s0) {
        return None;
    }
    let mut sc = s.char_indices();
    for wc in word.chars() {
        let (_, c) = sc.next()?;
        if !c.to_lowercase().eq(wc.to_lowercase()) {
            return None;
        }
    }
    let end = sc.next().map_or(s.len(), |(i, _)| i);
    let next = s[end..].chars().next();
    let tail_cjk = word.chars().last().is_some_and(is_cjk);
    (next.is_none_or(|c| !word_char(c)) || tail_cjk).then_some(end)
}

/// The first word of `table` that starts `s` (longest listed first), and
/// what follows it.
fn strip_word<'s>(s: &'s str, table: &[&str]) -> Option<&'s str> {
    table
        .iter()
        .find_map(|w| starts_with_word(s, w))
        .map(|n| &s[n..])
}

/// Where the first word of `table` in `s` starts, and what follows it: at a
/// word's start only.
fn find_word<'s>(s: &'s str, table: &[&str]) -> Option<(usize, &'s str)> {
    find_word_of(s, &[table])
}

/// Every table's words, for [`FIRST_LETTERS`].
const ALL_TABLES: &[&[&str]] = &[PHASE, PHASES, MILESTONE, STATUS, PLANS];

/// Which bytes can start a word of some table, ASCII letters in both cases
/// (a byte of a multi-byte letter is always tried): a place whose first
/// byte starts no word is passed over without trying a table.
static FIRST_LETTERS: [bool; 256] = {
    let mut set = [false; 256];
    let mut b = 128;
    while b < 256 {
        set[b] = true;
        b += 1;
    }
    let mut t = 0;
    while t < ALL_TABLES.len() {
        let mut w = 0;
        while w < ALL_TABLES[t].len() {
            let first = ALL_TABLES[t][w].as_bytes()[0];
            set[first.to_ascii_lowercase() as usize] = true;
            set[first.to_ascii_uppercase() as usize] = true;
            w += 1;
        }
        t += 1;
    }
    set
};

/// [`find_word`] over several tables, tried in order at each place.
fn find_word_of<'s>(s: &'s str, tables: &[&[&str]]) -> Option<(usize, &'s str)> {
    let mut prev: Option<char> = None;
    for (i, c) in s.char_indices() {
        if FIRST_LETTERS[s.as_bytes()[i] as usize]
            && prev.is_none_or(|p| !word_char(p) || is_cjk(c))
            && let Some(rest) = tables.iter().find_map(|t| strip_word(&s[i..], t))
        {
            return Some((i, rest));
        }
        prev = Some(c);
    }
    None
}

/// What follows a phase word and the one space after it (none needed after
/// a CJK word: `阶段1`), or None.
fn after_phase_word<'s>(s: &'s str, rest: &'s str) -> Option<&'s str> {
    let word = &s[..s.len() - rest.len()];
    rest.strip_prefix(' ').or_else(|| {
        word.chars()
            .last()
            .is_some_and(is_cjk)
            .then_some(rest.trim_start())
    })
}

/// `s` after a leading singular phase word and its space (`Phase 3`,
/// `fase 3`, `阶段1`); None if `s` does not start with one.
pub fn strip_phase_word(s: &str) -> Option<&str> {
    after_phase_word(s, strip_word(s, PHASE)?)
}

/// The first singular phase word in `s` followed by its space: the word's
/// byte offset and the text after the space.
pub fn find_phase_word(s: &str) -> Option<(usize, &str)> {
    let (at, rest) = find_word(s, PHASE)?;
    Some((at, after_phase_word(&s[at..], rest)?))
}

/// The first phase word, singular or plural, in `s`: its byte offset and
/// the text after it, spaces trimmed (`Phases 1-3`, `阶段 4`).
pub fn find_phases_word(s: &str) -> Option<(usize, &str)> {
    find_word_of(s, &[PHASES, PHASE]).map(|(at, rest)| (at, rest.trim_start()))
}

/// The first milestone word in `s`: its byte offset, the word as written,
/// and the text after it.
pub fn find_milestone_word(s: &str) -> Option<(usize, &str, &str)> {
    let (at, rest) = find_word(s, MILESTONE)?;
    Some((at, &s[at..s.len() - rest.len()], rest))
}

/// Whether a table header cell names the phase column.
pub fn names_phase(cell: &str) -> bool {
    find_word(cell, PHASE).is_some()
}

/// Whether a table header cell names a status column.
pub fn names_status(cell: &str) -> bool {
    find_word(cell, STATUS).is_some()
}

/// Whether a table header cell names a plan-count column.
pub fn names_plans(cell: &str) -> bool {
    find_word(cell, PLANS).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phase_words_in_their_languages() {
        assert_eq!(strip_phase_word("Phase 3: Auth"), Some("3: Auth"));
        assert_eq!(strip_phase_word("Fase 12 — Pagos"), Some("12 — Pagos"));
        assert_eq!(strip_phase_word("阶段 1：模型"), Some("1：模型"));
        assert_eq!(strip_phase_word("阶段1：模型"), Some("1：模型"));
        assert_eq!(strip_phase_word("Phases 1-3"), None);
        assert_eq!(strip_phase_word("Phase3"), None);
        assert_eq!(strip_phase_word("Phased rollout"), None);
        assert_eq!(find_phases_word("v1 — Phases 1-3"), Some((7, "1-3")));
        assert_eq!(find_phase_word("✅ Étape 2 : API").map(|f| f.0), Some(4));
        assert_eq!(find_phase_word("Emphase 2"), None);
    }

    #[test]
    fn milestone_words_keep_their_spelling() {
        let (at, word, rest) = find_milestone_word("里程碑 2：工具助手").unwrap();
        assert_eq!((at, word, rest), (0, "里程碑", " 2：工具助手"));
        let (_, word, _) = find_milestone_word("Roadmap — Meilenstein 3").unwrap();
        assert_eq!(word, "Meilenstein");
        assert!(find_milestone_word("Milestones").is_none());
    }

    #[test]
    fn table_headers() {
        assert!(names_phase("阶段") && names_phase("Phase") && names_phase("Fase"));
        assert!(names_status("状态") && names_status("Status") && !names_status("Statusbar"));
        assert!(names_plans("Plans Complete") && !names_plans("Planned"));
    }
}
