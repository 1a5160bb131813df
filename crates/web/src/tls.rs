//! TLS for the web door when it faces browsers itself (`--web-cert`, `--web-key`): rustls on ring, with the
//! certificate chain and key read from PEM files (as certbot and most authorities write them).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use thiserror::Error;
use tokio_rustls::rustls::ServerConfig;
use tokio_rustls::rustls::crypto::ring;

/// Why the door's TLS cannot be set up.
#[derive(Debug, Error)]
pub enum TlsError {
    /// A file cannot be read, or holds no PEM of the kind.
    #[error("{path}: {why}")]
    File {
        /// The file.
        path: PathBuf,
        /// Why.
        why: String,
    },
    /// The certificate and key do not make a TLS setup (they do not match, say).
    #[error("the web door's certificate and key: {0}")]
    Config(#[from] tokio_rustls::rustls::Error),
}

/// The door's TLS setup from a certificate chain and a private key in PEM files. HTTP/1.1 only is offered, the
/// one protocol the door speaks (and WebSockets need).
pub fn load_tls(cert: &Path, key: &Path) -> Result<Arc<ServerConfig>, TlsError> {
    let file_error = |path: &Path, why: String| TlsError::File {
        path: path.to_path_buf(),
        why,
    };
    let chain = CertificateDer::pem_file_iter(cert)
        .map_err(|e| file_error(cert, e.to_string()))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| file_error(cert, e.to_string()))?;
    if chain.is_empty() {
        return Err(file_error(cert, "no certificate in it".into()));
    }
    let key_der = PrivateKeyDer::from_pem_file(key).map_err(|e| file_error(key, e.to_string()))?;
    let mut config = ServerConfig::builder_with_provider(Arc::new(ring::default_provider()))
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_single_cert(chain, key_der)?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_and_malformed_files_are_named_in_the_error() {
        let dir = std::env::temp_dir().join(format!("crowned-tls-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let junk = dir.join("junk.pem");
        std::fs::write(&junk, "not a certificate\n").expect("write");
        let missing = dir.join("missing.pem");
        let error = load_tls(&missing, &junk).expect_err("missing");
        assert!(error.to_string().contains("missing.pem"), "{error}");
        let error = load_tls(&junk, &junk).expect_err("junk");
        assert!(error.to_string().contains("junk.pem"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
