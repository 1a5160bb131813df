//! Who a browser is: a guest, or the player whose SSH key it was linked to.
//!
//! A browser asks for a code (`POST /link`) and gets, at once, a long random token in a cookie it cannot read
//! (HttpOnly, SameSite=Strict, Secure behind TLS). The player proves the code over SSH with their key (`ssh
//! host link CODE`), and the records then take the token for that key, on every node. The records keep only
//! the token's hash. `GET /link` says whom the browser plays as; `DELETE /link` forgets it (the link is ended,
//! the cookie dropped).

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64ct::{Base64UrlUnpadded, Encoding};
use rand::RngExt;
use serde_json::json;
use sha2::{Digest, Sha256};

use crowned_server::serve::Identity;
use crowned_server::serve::browser_links::{new_code, now, shown};
use crowned_server::serve::records::links::{CODE_LIFETIME, Offer};
use crowned_server::serve::text::clean_line;

use super::{Caller, Door};

/// The cookie that carries a browser's token.
pub const COOKIE: &str = "crowned_token";

/// How long a cookie lasts in the browser: a year (the link lasts until it is revoked).
const COOKIE_AGE: u32 = 365 * 24 * 3600;

/// A new token: 32 random bytes, as URL-safe base64.
pub fn new_token() -> String {
    let bytes: [u8; 32] = rand::rng().random();
    Base64UrlUnpadded::encode_string(&bytes)
}

/// What the records keep of a token.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The browser's token, from its cookie, if it sent one that could be a token.
pub fn token_of(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.trim().to_string())
        .filter(|t| {
            t.len() == 43
                && t.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
}

/// The cookie that gives the browser `token` (or takes it away, with `None`).
fn cookie(token: Option<&str>, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    let text = match token {
        Some(token) => {
            format!(
                "{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={COOKIE_AGE}{secure}"
            )
        }
        None => format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0{secure}"),
    };
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// The player a browser plays as: the one its token was linked to, if any (`None` too when the records cannot
/// be read: the browser is then a guest for this connection, logged).
pub async fn linked(door: &Door, headers: &HeaderMap) -> Option<Identity> {
    let hash = token_hash(&token_of(headers)?);
    let (fingerprint, name) = door
        .shared
        .read_records(move |records| records.linked_player(&hash, now()))
        .await
        .flatten()?;
    Some(Identity { fingerprint, name })
}

fn answer(status: StatusCode, body: serde_json::Value) -> Response {
    let mut response = (status, Json(body)).into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// `GET /link`: whom this browser plays as.
pub async fn status(State(door): State<Arc<Door>>, headers: HeaderMap) -> Response {
    match linked(&door, &headers).await {
        Some(identity) => answer(
            StatusCode::OK,
            json!({"linked": true, "name": identity.name}),
        ),
        None => answer(StatusCode::OK, json!({"linked": false})),
    }
}

/// `POST /link`: a code for this browser to be proved over SSH, and its token in a cookie.
pub async fn offer(State(door): State<Arc<Door>>, from: Caller, headers: HeaderMap) -> Response {
    if let Err(why) = door.same_origin(&headers, &from) {
        return answer(StatusCode::FORBIDDEN, json!({"error": why}));
    }
    let token = new_token();
    let hash = token_hash(&token);
    let code = new_code();
    let address = from.client.to_canonical().to_string();
    let agent = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(|v| clean_line(v, 80))
        .unwrap_or_default();
    let kept = {
        let (code, hash) = (code.clone(), hash.clone());
        door.shared
            .read_records(move |records| {
                records.offer_link(&Offer {
                    token_hash: &hash,
                    code: &code,
                    address: &address,
                    agent: &agent,
                    at: now(),
                })
            })
            .await
    };
    match kept {
        Some(true) => {}
        Some(false) => {
            return answer(
                StatusCode::TOO_MANY_REQUESTS,
                json!({"error": "too many codes are waiting from your address: prove one, or wait a few minutes"}),
            );
        }
        None => {
            return answer(
                StatusCode::SERVICE_UNAVAILABLE,
                json!({"error": "the server cannot keep a code right now: try again in a moment"}),
            );
        }
    }
    tracing::info!(peer = %from.client, "a browser asked for a link code");
    let command = format!(
        "{} link {}",
        door.ssh_command(&headers, false),
        shown(&code)
    );
    let mut response = answer(
        StatusCode::OK,
        json!({"code": shown(&code), "command": command, "minutes": CODE_LIFETIME / 60}),
    );
    response
        .headers_mut()
        .insert(header::SET_COOKIE, cookie(Some(&token), from.secure));
    response
}

/// `DELETE /link`: this browser is no longer linked to anyone, and forgets its token.
pub async fn forget(State(door): State<Arc<Door>>, from: Caller, headers: HeaderMap) -> Response {
    if let Err(why) = door.same_origin(&headers, &from) {
        return answer(StatusCode::FORBIDDEN, json!({"error": why}));
    }
    if let Some(identity) = linked(&door, &headers).await
        && let Some(token) = token_of(&headers)
    {
        let hash = token_hash(&token);
        let player = identity.fingerprint;
        door.shared
            .read_records(move |records| records.revoke_link(&player, &hash))
            .await;
    }
    let mut response = answer(StatusCode::OK, json!({"linked": false}));
    response
        .headers_mut()
        .insert(header::SET_COOKIE, cookie(None, from.secure));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_read_only_from_its_own_cookie_and_only_if_it_could_be_one() {
        let token = new_token();
        assert_eq!(token.len(), 43);
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_str(&format!("theme=dark; {COOKIE}={token}; other=1"))
                .expect("ascii"),
        );
        assert_eq!(token_of(&headers), Some(token.clone()));
        for bad in [
            format!("{COOKIE}=short"),
            format!("x{COOKIE}={token}"),
            format!("{COOKIE}={}", "a".repeat(44)),
            format!("{COOKIE}={}", "%".repeat(43)),
        ] {
            let mut headers = HeaderMap::new();
            headers.insert(header::COOKIE, HeaderValue::from_str(&bad).expect("ascii"));
            assert_eq!(token_of(&headers), None, "{bad}");
        }
        // The hash is what is kept: fixed length, and not the token.
        let hash = token_hash(&token);
        assert_eq!(hash.len(), 64);
        assert!(!hash.contains(&token));
        assert_ne!(token_hash(&new_token()), hash);
    }

    #[test]
    fn the_cookie_cannot_be_read_by_scripts_or_sent_by_other_sites() {
        let text = cookie(Some("t"), true);
        let text = text.to_str().expect("ascii");
        for part in ["HttpOnly", "SameSite=Strict", "Secure", "Path=/"] {
            assert!(text.contains(part), "{text}");
        }
        assert!(
            !cookie(Some("t"), false)
                .to_str()
                .expect("ascii")
                .contains("Secure")
        );
        assert!(
            cookie(None, false)
                .to_str()
                .expect("ascii")
                .contains("Max-Age=0")
        );
    }
}
