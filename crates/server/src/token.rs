//! Seat tokens: 128 random bits from the operating system, written as 32 hex digits. Only a
//! token's SHA-256 hash is kept (in memory and in the database), so a copy of the database
//! holds no seat.

use sha2::{Digest, Sha256};

/// A token's hash, as kept.
pub(crate) type TokenHash = [u8; 32];

/// A fresh token.
///
/// # Errors
///
/// When the operating system gives no randomness.
pub(crate) fn fresh() -> Result<String, getrandom::Error> {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)?;
    Ok(bytes
        .iter()
        .flat_map(|b| [HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]])
        .map(char::from)
        .collect())
}

/// 64 random bits (room ids and seeds).
///
/// # Errors
///
/// When the operating system gives no randomness.
pub(crate) fn random_u64() -> Result<u64, getrandom::Error> {
    getrandom::u64()
}

/// A room's secret seed: 32 random bytes in lowercase hex (docs/fairness.md).
///
/// # Errors
///
/// When the operating system gives no randomness.
pub(crate) fn secret() -> Result<String, getrandom::Error> {
    let mut bytes = [0u8; snl_session::fairness::SECRET_BYTES];
    getrandom::fill(&mut bytes)?;
    Ok(snl_session::fairness::hex(&bytes))
}

/// The hash kept for `token`.
pub(crate) fn hash(token: &str) -> TokenHash {
    Sha256::digest(token.as_bytes()).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_32_hex_digits_and_differ() {
        let (a, b) = (fresh().unwrap(), fresh().unwrap());
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        assert_eq!(hash(&a), hash(&a));
        assert_ne!(hash(&a), hash(&b));
    }
}
