//! Platform-wide calls: settings (`getAllSetting`), the coin list (`getCoinList`), and the platform
//! config script (`/platform/dev/config.js`).

pub mod api;
pub mod service;
