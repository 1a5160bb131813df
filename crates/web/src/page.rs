//! The page and its files, built into the binary: the page's own (`web/`) and xterm.js with its fit add-on
//! (`web/vendor/`, pinned, with their license). Nothing is fetched from anywhere else, so the door works
//! offline and the page's policy allows nothing but this server.

use std::sync::OnceLock;

use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// The policy every answer carries: scripts and styles from this server only, no inline script, no frames,
/// connections back to this server only. Inline styles are allowed: xterm.js sets its colours and cell sizes
/// in style elements it makes (styles cannot run code).
pub const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
                          connect-src 'self'; img-src 'self' data:; font-src 'self'; base-uri 'none'; \
                          form-action 'none'; frame-ancestors 'none'";

/// One file of the page.
struct Asset {
    name: &'static str,
    kind: &'static str,
    bytes: &'static [u8],
    /// The file compressed for browsers that take zstd, made once when first asked for.
    packed: OnceLock<Option<Vec<u8>>>,
}

macro_rules! asset {
    ($name:literal, $kind:literal, $path:literal) => {
        Asset {
            name: $name,
            kind: $kind,
            bytes: include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/", $path)),
            packed: OnceLock::new(),
        }
    };
}

static ASSETS: [Asset; 7] = [
    asset!(
        "xterm.js",
        "text/javascript; charset=utf-8",
        "vendor/xterm.js"
    ),
    asset!("xterm.css", "text/css; charset=utf-8", "vendor/xterm.css"),
    asset!(
        "addon-fit.js",
        "text/javascript; charset=utf-8",
        "vendor/addon-fit.js"
    ),
    asset!("LICENSE", "text/plain; charset=utf-8", "vendor/LICENSE"),
    asset!("crowned.js", "text/javascript; charset=utf-8", "crowned.js"),
    asset!("crowned.css", "text/css; charset=utf-8", "crowned.css"),
    asset!("index.html", "text/html; charset=utf-8", "index.html"),
];

impl Asset {
    /// The file compressed, if it is worth it (made the first time).
    fn packed(&self) -> Option<&Vec<u8>> {
        self.packed
            .get_or_init(|| {
                (self.bytes.len() > 4096)
                    .then(|| zstd::bulk::compress(self.bytes, 19).ok())
                    .flatten()
            })
            .as_ref()
    }
}

/// Compresses the files that are worth it, so that no request waits for that (a fraction of a second for
/// xterm.js): call it on a blocking thread as the door opens.
pub fn pack_all() {
    for asset in &ASSETS {
        asset.packed();
    }
}

/// The page (the same for the lobby, `/watch/CODE` and `/tv`: its script reads the address).
pub fn page() -> Response {
    let mut response = file("index.html", &HeaderMap::new());
    // The page itself is small and names its files: it is asked again each time, so a new server's files are
    // picked up at once.
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

/// `/assets/NAME`: a file of the page, compressed when the browser takes it and the file is worth it.
pub fn file(name: &str, request: &HeaderMap) -> Response {
    let Some(asset) = ASSETS.iter().find(|a| a.name == name) else {
        return not_found();
    };
    let takes_zstd = request
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|e| e.trim().starts_with("zstd")));
    let packed = asset.packed().filter(|_| takes_zstd);
    let mut response = match packed {
        Some(bytes) => {
            let mut response = bytes.clone().into_response();
            response
                .headers_mut()
                .insert(header::CONTENT_ENCODING, HeaderValue::from_static("zstd"));
            response
        }
        None => asset.bytes.into_response(),
    };
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(asset.kind));
    headers.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    // A day: the files change only with the server, and the page is asked again each time.
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=86400"),
    );
    response
}

/// What an address that names nothing gets.
pub fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "crowned: nothing here\n").into_response()
}

/// Adds the headers every answer carries: the policy, and no guessing of types or sending of addresses.
pub fn guard(headers: &mut HeaderMap) {
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_is_served_and_packed_files_unpack_to_the_same_bytes() {
        let mut zstd_ok = HeaderMap::new();
        zstd_ok.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_static("gzip, deflate, br, zstd"),
        );
        for asset in &ASSETS {
            let plain = file(asset.name, &HeaderMap::new());
            assert_eq!(plain.status(), StatusCode::OK, "{}", asset.name);
            assert!(plain.headers().get(header::CONTENT_ENCODING).is_none());
            let packed = file(asset.name, &zstd_ok);
            if asset.bytes.len() > 4096 {
                assert_eq!(packed.headers()[header::CONTENT_ENCODING], "zstd");
                let bytes = asset.packed.get().cloned().flatten().expect("packed");
                assert!(bytes.len() < asset.bytes.len() / 2, "{}", asset.name);
                let unpacked = zstd::bulk::decompress(&bytes, asset.bytes.len()).expect("unpacks");
                assert_eq!(unpacked, asset.bytes, "{}", asset.name);
            }
        }
        assert_eq!(
            file("../Cargo.toml", &HeaderMap::new()).status(),
            StatusCode::NOT_FOUND
        );
    }

    #[test]
    fn the_page_runs_no_inline_script_and_names_only_its_own_files() {
        let page = std::str::from_utf8(ASSETS[6].bytes).expect("utf-8");
        assert!(!page.contains("<script>"), "no inline script");
        assert!(!page.contains("http://") && !page.contains("https://"));
        for src in page.split("src=\"").skip(1) {
            let name = src.split('"').next().unwrap_or_default();
            let name = name
                .strip_prefix("/assets/")
                .expect("an asset of this server");
            assert!(ASSETS.iter().any(|a| a.name == name), "{name}");
        }
        assert!(POLICY.contains("script-src 'self';"));
    }
}
