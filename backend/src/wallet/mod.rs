//! Ethereum wallets: linking one to an account and signing in with it (Sign-In with Ethereum,
//! EIP-4361). The server issues a one-time message (`service::issue`), the browser's wallet signs
//! it with `personal_sign` (EIP-191), and the server recovers the signer from the signature
//! (`siwe`, secp256k1) and checks it against the message it issued before it links the wallet or
//! starts a session (`service`). `api` is the HTTP of it.

pub mod api;
pub mod service;
pub mod siwe;
