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
/// neighbouring characters each cost one (`strsim`'s, counted in characters).
pub fn edit_distance(a: &str, b: &str) -> usize {
    strsim::osa_distance(a, b)
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
