//! gsd-sdk's text sanitising (`security.cjs`): what it strips or defuses in
//! text it hands back to a model — zero-width characters, and markers that
//! mimic a model's system boundaries — for commit messages and for the
//! text it displays (a UAT checkpoint).

use std::sync::OnceLock;

/// `sanitizeForPrompt`: zero-width and invisible characters dropped,
/// `<system>`-like tags, `[INST]` and `<<SYS>>` neutralised.
pub fn for_prompt(text: &str) -> String {
    static RES: OnceLock<[regex::Regex; 3]> = OnceLock::new();
    let [tags, inst, sys] = RES.get_or_init(|| {
        [
            regex::Regex::new(r"(?i)<(/?)(?:system|assistant|human)>").expect("valid"),
            regex::Regex::new(r"(?i)\[(SYSTEM|INST)\]").expect("valid"),
            regex::Regex::new(r"(?i)<<\s*SYS\s*>>").expect("valid"),
        ]
    });
    let s: String = text
        .chars()
        .filter(|c| !matches!(*c as u32, 0x200B..=0x200F | 0x2028..=0x202F | 0xFEFF | 0xAD))
        .collect();
    let s = tags.replace_all(&s, "\u{FF1C}${1}system-text\u{FF1E}");
    let s = inst.replace_all(&s, "[${1}-TEXT]");
    sys.replace_all(&s, "\u{00AB}SYS-TEXT\u{00BB}").into_owned()
}

/// `sanitizeCommitMessage`: `for_prompt` without NUL bytes.
pub fn commit_message(text: &str) -> String {
    for_prompt(&text.replace('\0', ""))
}

/// `sanitizeForDisplay`: `for_prompt`, and lines that look like a chat
/// protocol's role markers (`assistant to=x: …`, `<|user|>`) dropped.
pub fn for_display(text: &str) -> String {
    static LEAKS: OnceLock<[regex::Regex; 2]> = OnceLock::new();
    let leaks = LEAKS.get_or_init(|| {
        [
            regex::Regex::new(r"(?i)^\s*(?:assistant|user|system)\s+to=[^:\s]+:[^\n]+$")
                .expect("valid"),
            regex::Regex::new(r"(?i)^\s*<\|(?:assistant|user|system)[^|]*\|>\s*$").expect("valid"),
        ]
    });
    for_prompt(text)
        .split('\n')
        .filter(|l| !leaks.iter().any(|r| r.is_match(l)))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    #[test]
    fn markers_are_neutralised() {
        assert_eq!(
            super::commit_message("docs: a\u{200B}b\0 <system> [INST] <<SYS>>"),
            "docs: ab \u{FF1C}system-text\u{FF1E} [INST-TEXT] \u{00AB}SYS-TEXT\u{00BB}"
        );
        assert_eq!(
            super::for_display("a\0\nassistant to=x: leak\n<|user|>\nb"),
            "a\0\nb"
        );
    }
}
