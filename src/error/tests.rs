//! Unit tests of `error`.

use super::*;

#[test]
fn char_columns_become_byte_offsets() {
    // `×` is two bytes: the third character starts at byte 3 and spans two bytes.
    assert_eq!(char_range_to_bytes("3d6×2", 3, 1), 3..5);
    assert_eq!(char_range_to_bytes("3d", 2, 1), 2..2);
}

#[test]
fn line_and_column_become_byte_offsets() {
    let text = "a: 1\nbé: 2\n";
    assert_eq!(line_col_to_byte(text, 2, 1), 5);
    assert_eq!(line_col_to_byte(text, 2, 3), 8);
    assert_eq!(line_col_to_byte(text, 9, 1), text.len());
}
