//! Identity verification (basic, then advanced with documents), the bank card, uploads with
//! short-lived signed links, and the country list.

pub mod api;
pub mod countries;
pub mod files;
pub mod sanitize;
pub mod service;
pub mod upload;
