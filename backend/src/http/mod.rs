//! What every HTTP answer of the API shares: the `{code, msg, data}` envelope, the JSON body
//! extractor that names the offending field, and the middleware that gives every request its
//! language and turns every failure under `/api` into an envelope.

pub mod body;
pub mod envelope;
pub mod middleware;

pub use body::JsonBody;
pub use envelope::{ApiError, Envelope, ErrorDetail, ErrorEnvelope};
