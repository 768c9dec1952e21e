//! Inputs built from pieces, for the tests that hold a hand matcher to
//! the pattern it replaces: every text the pieces make, up to a length,
//! so each arrangement of openers, closers and names is tried.

/// Every concatenation of at most `depth` of `pieces` (the empty text
/// included), in a fixed order.
pub fn concatenations(pieces: &[&str], depth: usize) -> Vec<String> {
    let mut texts = vec![String::new()];
    let mut last = texts.clone();
    for _ in 0..depth {
        last = last
            .iter()
            .flat_map(|t| pieces.iter().map(move |p| format!("{t}{p}")))
            .collect();
        texts.extend(last.iter().cloned());
    }
    texts
}
