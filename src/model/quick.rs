//! Quick tasks (`.planning/quick/NN-slug/`, `quick/YYMMDD-xxx-slug/`):
//! what their folder names say. GSD's `/gsd:quick` plans a task and runs it
//! at once, so where a task stands in time — against later tasks and the
//! milestones shipped since — says whether it can still be the next run.

/// Where a quick task's folder (`9-automate-…`, `260415-nx9-…`) stands in
/// the order tasks were made: GSD numbered them (1, 2, …) before it dated
/// them (`YYMMDD-xxx`), so every numbered one comes first.
pub fn order(dir_name: &str) -> Option<(u8, u64)> {
    let head = dir_name.split('-').next()?;
    if head.is_empty() || !head.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u64 = head.parse().ok()?;
    Some(if head.len() == 6 { (1, n) } else { (0, n) })
}

/// The date a quick task's ID gives (`260415-nx9` → `2026-04-15`): GSD
/// names quick tasks by the day they are made, `YYMMDD`.
pub fn date(id: &str) -> Option<String> {
    let d = id
        .get(..6)
        .filter(|d| d.bytes().all(|b| b.is_ascii_digit()))?;
    let (month, day) = (&d[2..4], &d[4..6]);
    (("01"..="12").contains(&month) && ("01"..="31").contains(&day))
        .then(|| format!("20{}-{month}-{day}", &d[..2]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_before_dated() {
        assert!(order("9-automate") < order("14-fix-release"));
        assert!(order("14-fix-release") < order("260329-oqw-return"));
        assert!(order("010-soft") < order("011-restore"));
        assert_eq!(order("notes"), None);
        assert_eq!(date("260415-nx9"), Some("2026-04-15".into()));
        assert_eq!(date("261315-nx9"), None);
        assert_eq!(date("9-automate"), None);
    }
}
