//! How an error message quotes what a client sent: cut short, with hidden characters written out.
//! A leaf: the endpoints and the room setup's name checks both use it, and it uses neither.

/// The most characters of a value that an error message quotes.
pub(crate) const VALUE_SHOWN: usize = 40;

/// `value` as an error message quotes it: at most [`VALUE_SHOWN`] characters (the last `…` when it
/// was cut), control and invisible characters written as escapes (`\u{200b}`), so that what a
/// client sent can neither fill a message nor hide in it.
pub(crate) fn shown(value: &str) -> String {
    let mut out = String::new();
    let mut count = 0;
    for c in value.chars() {
        let piece = if c.is_control() || hidden(c) {
            c.escape_unicode().to_string()
        } else {
            c.to_string()
        };
        let len = piece.chars().count();
        if count + len > VALUE_SHOWN {
            let mut cut: String = out.chars().take(VALUE_SHOWN - 1).collect();
            cut.push('…');
            return cut;
        }
        out.push_str(&piece);
        count += len;
    }
    out
}

/// Whether `c` is drawn as nothing (zero-width spaces and joiners, the word joiner, the byte
/// order mark) or changes the direction of the text around it (bidi embeddings, overrides and
/// isolates): a name holding one can look like another.
pub(crate) fn hidden(c: char) -> bool {
    matches!(c,
        // Zero-width space, joiners, marks of direction, embeddings and isolates.
        '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        | '\u{061c}'
        // Word joiner and invisible operators, byte order mark, soft hyphen, the combining
        // grapheme joiner, the Mongolian vowel separator.
        | '\u{2060}'..='\u{2064}' | '\u{feff}' | '\u{00ad}' | '\u{034f}' | '\u{180e}'
        // Blank letters: Hangul fillers, the braille blank; variation selectors and tags.
        | '\u{115f}' | '\u{1160}' | '\u{3164}' | '\u{ffa0}' | '\u{2800}'
        | '\u{fe00}'..='\u{fe0f}' | '\u{e0000}'..='\u{e007f}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_quoted_is_cut_to_40_characters_with_its_hidden_characters_escaped() {
        assert_eq!(shown("Ann"), "Ann");
        let long = "x".repeat(10_000);
        assert_eq!(shown(&long), format!("{}…", "x".repeat(39)));
        assert_eq!(shown("A\u{200b}n\u{202e}n\n"), "A\\u{200b}n\\u{202e}n\\u{a}");
    }
}
