//! Players' names and how an error message quotes what a client sent: cut short, with hidden
//! characters written out. The server's endpoints and room setup, and the browser's engine
//! (a game on one device), check names and quote values with these, so they refuse alike.

/// The most characters of a value that an error message quotes.
pub const VALUE_SHOWN: usize = 40;

/// `value` as an error message quotes it: at most [`VALUE_SHOWN`] characters (the last `…` when it
/// was cut), control and invisible characters written as escapes (`\u{200b}`), so that what a
/// client sent can neither fill a message nor hide in it.
pub fn shown(value: &str) -> String {
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
pub fn hidden(c: char) -> bool {
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

/// Longest name a player may take, in characters.
pub const MAX_NAME: usize = 32;

/// A player's name, trimmed, checked: 1 to [`MAX_NAME`] characters, none of them a control
/// character nor one drawn as nothing or turning the text's direction (a name holding one could
/// pass for another). The server first puts it in Unicode's composed form (NFC).
///
/// # Errors
///
/// One sentence naming the name (its first 40 characters).
pub fn check_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    let count = name.chars().count();
    if name.is_empty() || count > MAX_NAME || name.chars().any(char::is_control) {
        return Err(format!(
            "name '{}' must be 1 to {MAX_NAME} characters with no control characters",
            shown(name)
        ));
    }
    if let Some(c) = name.chars().find(|&c| hidden(c)) {
        return Err(format!(
            "name '{}' holds U+{:04X}, an invisible or direction-changing character, which a name may not",
            shown(name),
            u32::from(c)
        ));
    }
    Ok(name.to_owned())
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

    #[test]
    fn a_name_is_trimmed_and_refused_when_empty_long_or_hiding_a_character() {
        assert_eq!(check_name("  Ann ").unwrap(), "Ann");
        assert!(check_name("").unwrap_err().contains("must be 1 to 32"));
        assert!(check_name(&"x".repeat(33)).unwrap_err().contains("must be 1 to 32"));
        assert!(check_name("A\nn").unwrap_err().starts_with("name 'A\\u{a}n'"));
        assert!(check_name("A\u{200b}nn").unwrap_err().contains("U+200B"));
    }
}
