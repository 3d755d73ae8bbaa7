//! Dice a player can verify online (commit–reveal, docs/fairness.md): a room's server draws a
//! secret and publishes its [`commitment`] before any roll; each seat may add a seed of its own;
//! the room's dice are the ChaCha8 dice of [`room_seed`] — the same dice as a local game's seed
//! gives — and the secret is revealed at the end, so anyone can derive every roll again
//! ([`check_room`], then [`snl_engine::check_rolls`] with the seed's dice). One copy for
//! `snl serve`, `snl verify` and the browser's replay page (through the wasm module).
//!
//! ```
//! use snl_analysis::commitment::{check_room, commitment, hex, room_seed};
//!
//! let secret = [7_u8; 32];
//! let published = commitment(&secret);
//! assert_eq!(published.len(), 64);
//! let seats = ["ann's seed".to_owned(), String::new()];
//! let seed = room_seed(&secret, &seats);
//! assert_ne!(seed, room_seed(&secret, &["another".to_owned(), String::new()]));
//! assert_eq!(check_room(&published, &hex(&secret), &seats, seed), Ok(()));
//! assert!(check_room(&published, &hex(&secret), &seats, seed + 1).is_err());
//! ```

use sha2::{Digest, Sha256};

/// What the derivation is called, hashed first so that no other use of SHA-256 can collide
/// with it; a later derivation gets a new name.
pub const DERIVATION: &str = "snl-room-dice-v1";

/// The most characters a seat's own seed may have.
pub const MAX_SEAT_SEED: usize = 64;

/// The commitment to `secret`: SHA-256 of its bytes, in lowercase hex.
pub fn commitment(secret: &[u8]) -> String {
    hex(&Sha256::digest(secret))
}

/// The room's dice seed: the first 8 bytes, little-endian, of
/// SHA-256(`DERIVATION` ‖ 0 ‖ `secret` ‖ for each seat in seating order: 0 ‖ its seed's UTF-8
/// bytes), where 0 is one zero byte and a seat that gave no seed gives the empty string.
pub fn room_seed(secret: &[u8], seat_seeds: &[String]) -> u64 {
    let mut hash = Sha256::new();
    hash.update(DERIVATION.as_bytes());
    hash.update([0]);
    hash.update(secret);
    for seed in seat_seeds {
        hash.update([0]);
        hash.update(seed.as_bytes());
    }
    let digest = hash.finalize();
    let mut first = [0_u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(first)
}

/// Checks that `seed` is what an online room's revealed material gives: `secret` (hex) hashes to
/// `commitment`, published before the first roll, and the secret with the seats' seeds derives
/// `seed` ([`room_seed`]).
///
/// # Errors
///
/// One sentence naming what does not agree.
pub fn check_room(
    commitment_published: &str,
    secret: &str,
    seat_seeds: &[String],
    seed: u64,
) -> Result<(), String> {
    let secret = unhex(secret)
        .filter(|s| s.len() == SECRET_BYTES)
        .ok_or_else(|| format!("its revealed secret is not {SECRET_BYTES} bytes of hex"))?;
    let hashed = commitment(&secret);
    if !hashed.eq_ignore_ascii_case(commitment_published) {
        return Err(format!(
            "SHA-256 of its revealed secret is {hashed}, not the commitment \
             {commitment_published} published before the first roll"
        ));
    }
    let derived = room_seed(&secret, seat_seeds);
    if derived != seed {
        return Err(format!(
            "its secret and seats' seeds give seed {derived}, but its dice rolled from seed {seed}"
        ));
    }
    Ok(())
}

/// The bytes of a room's secret.
pub const SECRET_BYTES: usize = 32;

/// `bytes` in lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        text.push(char::from(DIGITS[usize::from(b >> 4)]));
        text.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    text
}

/// The bytes of lowercase or uppercase hex `text`, or `None` when it is not hex.
pub fn unhex(text: &str) -> Option<Vec<u8>> {
    if text.len() % 2 != 0 {
        return None;
    }
    text.as_bytes()
        .chunks(2)
        .map(|pair| {
            let digit = |c: u8| char::from(c).to_digit(16);
            Some((digit(pair[0])? * 16 + digit(pair[1])?) as u8)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SHA-256("abc") from FIPS 180-2, Appendix B.1: the hash is the standard one.
    #[test]
    fn the_commitment_is_sha256_as_published() {
        assert_eq!(
            commitment(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(unhex(&commitment(b"abc")).unwrap().len(), 32);
        assert_eq!(unhex("0aFf"), Some(vec![10, 255]));
        assert_eq!(unhex("abc"), None);
        assert_eq!(unhex("zz"), None);
    }

    /// Pinned: the derivation is a promise (docs/fairness.md); changing it breaks every check.
    /// The value was computed independently with Python's hashlib:
    /// `int.from_bytes(sha256(b"snl-room-dice-v1\x00" + bytes(range(32)) + b"\x00a\x00b")
    /// .digest()[:8], "little")`.
    #[test]
    fn a_room_checks_when_its_secret_and_seeds_give_its_seed_and_names_what_does_not() {
        let secret = [9_u8; 32];
        let seats = vec!["x".to_owned(), String::new()];
        let (published, revealed) = (commitment(&secret), hex(&secret));
        let seed = room_seed(&secret, &seats);
        assert_eq!(check_room(&published, &revealed, &seats, seed), Ok(()));
        let why = check_room(&published, &revealed, &seats, seed ^ 1).unwrap_err();
        assert!(why.contains(&format!("give seed {seed}")), "{why}");
        let other = commitment(b"other");
        assert!(
            check_room(&other, &revealed, &seats, seed).unwrap_err().contains("not the commitment")
        );
        assert!(check_room(&published, "abcd", &seats, seed).unwrap_err().contains("not 32 bytes"));
    }

    #[test]
    fn the_room_seed_is_pinned_and_depends_on_every_seat_and_its_place() {
        let secret: Vec<u8> = (0..32).collect();
        let seats = ["a".to_owned(), "b".to_owned()];
        let seed = room_seed(&secret, &seats);
        assert_eq!(seed, room_seed(&secret, &seats));
        assert_ne!(seed, room_seed(&secret, &["b".to_owned(), "a".to_owned()]));
        assert_ne!(seed, room_seed(&secret, &["ab".to_owned(), String::new()]));
        assert_ne!(seed, room_seed(&secret[1..], &seats));
        assert_eq!(seed, PINNED, "{seed}");
    }

    const PINNED: u64 = 12_755_314_830_973_023_730;
}
