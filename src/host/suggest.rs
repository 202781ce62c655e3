//! "Did you mean ...?" suggestions for misspelt names (units, verbs, troop types, abilities).

/// The candidate closest to `word` by edit distance, if it is close enough to be a likely typo.
///
/// Closeness scales with length: one edit for short names, up to a third of the word for long
/// ones, and never the whole word (`b` is no typo of `a`). Ties go to the candidate listed
/// first, so suggestions are deterministic.
pub fn did_you_mean<'a, I>(word: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let len = word.chars().count();
    let limit = (len / 3).max(1).min(len.saturating_sub(1));
    let lower = word.to_lowercase();
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        let distance = edit_distance(&lower, &candidate.to_lowercase());
        if distance <= limit && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// `", did you mean `x`?"`-style suffix for an error message, or an empty string.
pub fn suggestion_suffix<'a, I>(word: &str, candidates: I) -> String
where
    I: IntoIterator<Item = &'a str>,
{
    match did_you_mean(word, candidates) {
        Some(s) => format!("; did you mean `{s}`?"),
        None => String::new(),
    }
}

/// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
/// neighbouring characters each cost one.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    for i in 0..=a.len() {
        d[i * width] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(width) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * width + j] + 1)
                .min(d[i * width + j - 1] + 1)
                .min(d[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * width + j - 2] + 1);
            }
            d[i * width + j] = v;
        }
    }
    d[a.len() * width + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typo_in_unit_id_is_suggested() {
        let ids = ["viking_1", "viking_2", "legionary_1"];
        assert_eq!(did_you_mean("vikng_1", ids), Some("viking_1"));
        assert_eq!(did_you_mean("legionray_1", ids), Some("legionary_1"));
    }

    #[test]
    fn unrelated_word_gets_no_suggestion() {
        assert_eq!(did_you_mean("elephant", ["viking_1", "legionary_1"]), None);
        assert_eq!(suggestion_suffix("zzz", ["melee"]), "");
    }

    #[test]
    fn a_word_changed_whole_is_no_typo() {
        assert_eq!(did_you_mean("b", ["a", "c"]), None);
        assert_eq!(did_you_mean("z", ["x", "y"]), None);
        assert_eq!(did_you_mean("xs", ["x"]), Some("x"));
    }

    #[test]
    fn edit_distance_counts_swaps_once() {
        assert_eq!(edit_distance("meele", "melee"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
