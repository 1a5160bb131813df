//! Browsers linked to players' SSH keys, as the server core sees them: the one-time code a browser shows and
//! its player proves over SSH (`ssh host link CODE`), and what the SSH commands `link` and `links` answer. The
//! web door offers the codes and keeps the browser's token; the records keep the links.

use rand::RngExt;

use super::ids::Fingerprint;
use super::records::links::Proof;
use super::records::{Records, RecordsError};

/// How a code is written: letters and digits that cannot be taken for one another.
pub const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/// Characters in a code, shown in two halves (`K7QX-M2PA`).
pub const CODE_LENGTH: usize = 8;

/// A new code, as the records keep it (no dash).
pub fn new_code() -> String {
    let mut rng = rand::rng();
    (0..CODE_LENGTH)
        .map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())]))
        .collect()
}

/// A code as shown: `K7QX-M2PA`.
pub fn shown(code: &str) -> String {
    let (a, b) = code.split_at(code.len() / 2);
    format!("{a}-{b}")
}

/// A code as a player typed it (any case, dashes and spaces ignored), as the records keep it; `None` when it
/// cannot be one.
pub fn read_code(text: &str) -> Option<String> {
    let code: String = text
        .chars()
        .filter(|c| !matches!(c, '-' | ' '))
        .map(|c| c.to_ascii_uppercase())
        .collect();
    (code.len() == CODE_LENGTH && code.bytes().all(|b| ALPHABET.contains(&b))).then_some(code)
}

/// The time now, in seconds since 1970, as the records keep the links' times.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// What `ssh host link CODE` says, for the player with `player`'s key known as `name`.
pub fn prove_text(proof: Option<Proof>) -> Result<String, String> {
    match proof {
        Some(Proof::Linked) => Ok(
            "the browser is linked to this key: it plays as you now (`links` lists your browsers)\r\n".into(),
        ),
        Some(Proof::Unknown) => Err(
            "no browser is waiting with that code: codes last five minutes and work once; ask the page for \
             another"
                .into(),
        ),
        None => Err("the records cannot be written now: try again in a moment".into()),
    }
}

/// `links` over SSH: the player's linked browsers, one a line, or the one revoked by `links revoke N`.
pub fn links_text(
    records: &mut dyn Records,
    player: &Fingerprint,
    revoke: Option<usize>,
) -> Result<Result<String, String>, RecordsError> {
    let links = records.links_of(player)?;
    if let Some(number) = revoke {
        let Some(link) = links.iter().find(|l| l.number == number) else {
            return Ok(Err(format!(
                "you have no linked browser numbered {number} (`links` lists them)"
            )));
        };
        records.revoke_link(player, &link.token_hash)?;
        return Ok(Ok(format!(
            "browser {number} is no longer linked to your key\r\n"
        )));
    }
    if links.is_empty() {
        return Ok(Ok(
            "no browser is linked to your key: the web page's \"Play as my SSH key\" links one\r\n"
                .into(),
        ));
    }
    let at = now();
    Ok(Ok(links
        .iter()
        .map(|l| {
            let used = l.used_at.map_or_else(
                || "never used".to_string(),
                |u| format!("used {}", ago(at - u)),
            );
            format!(
                "{}. {} (from {}), linked {}, {used}\r\n",
                l.number,
                if l.agent.is_empty() {
                    "a browser"
                } else {
                    &l.agent
                },
                l.address,
                ago(at - l.linked_at)
            )
        })
        .chain(std::iter::once(
            "`links revoke N` ends link N\r\n".to_string(),
        ))
        .collect()))
}

/// `seconds` ago, in the largest whole unit.
fn ago(seconds: i64) -> String {
    let seconds = seconds.max(0);
    match seconds {
        0..60 => "just now".into(),
        60..3600 => format!("{} minutes ago", seconds / 60),
        3600..86_400 => format!("{} hours ago", seconds / 3600),
        _ => format!("{} days ago", seconds / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_back_in_any_case_with_or_without_the_dash() {
        for _ in 0..100 {
            let code = new_code();
            assert_eq!(read_code(&shown(&code)), Some(code.clone()));
            assert_eq!(read_code(&shown(&code).to_lowercase()), Some(code.clone()));
        }
        for bad in [
            "",
            "ABCD",
            "ABCD-EFG0",
            "ABCD-EFGHI",
            "ÄBCD-EFGH",
            "ABCD-EF1H",
            "ABCD\x1b[31m",
        ] {
            assert_eq!(read_code(bad), None, "{bad:?}");
        }
    }
}
