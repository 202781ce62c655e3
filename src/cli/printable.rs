//! Text made safe for a terminal. Names and texts from shared files (a unit's or a
//! scenario's name, what a script prints, a script's own lines in a diagnostic) may hold
//! terminal escape codes that clear the screen, retitle the window or fake a prompt. Every
//! text sandtable writes goes through [`printable`] at the one place it is written
//! (`write_out`, `write_err`, the prompt, the announcer), so no name reaches the terminal raw;
//! only the colours sandtable adds itself (the map, miette's reports) are written after it.

use std::borrow::Cow;

/// Whether `c` must not reach a terminal as it is: a control character other than a new line
/// or a tab (C0, DEL, C1: escape codes, carriage returns, bells), or a Unicode formatting
/// character that reorders the text around it (bidirectional overrides and isolates).
fn unsafe_char(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every character that could act on a terminal written out as an escape
/// instead (`\u001b` for ESC, `\r`), so that it shows rather than acts. New lines and tabs
/// stay. The escapes are JSON's, so a `--json` line stays valid JSON and reads back as the
/// same text (JSON already escapes the C0 controls, never DEL, C1 or the bidirectional
/// ones). Borrowed when there is nothing to change.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\r' => out.push_str("\\r"),
            // Every unsafe character is in the Basic Multilingual Plane: four digits do.
            c if unsafe_char(c) => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_codes_show_rather_than_act() {
        assert_eq!(printable("Centurion Marcus"), "Centurion Marcus");
        assert!(matches!(printable("a\tb\nc"), Cow::Borrowed(_)));
        assert_eq!(
            printable("Bad\x1b[2J\rGuy\x07"),
            "Bad\\u001b[2J\\rGuy\\u0007"
        );
        assert_eq!(printable("\u{9b}31m"), "\\u009b31m");
        assert_eq!(printable("abc\u{202e}def"), "abc\\u202edef");
        // A JSON line stays JSON, and reads back as the same text.
        let json = serde_json::to_string(&"x\u{202e}\u{7f}\x1b").unwrap();
        let back: String = serde_json::from_str(&printable(&json)).unwrap();
        assert_eq!(back, "x\u{202e}\u{7f}\x1b");
        assert_eq!(printable("Légionnaire ♠"), "Légionnaire ♠");
    }
}
