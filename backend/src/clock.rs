//! Time as a dependency: the one wall clock of the server ([`now_ms`]), and the [`Clock`] that
//! day-based rules (earn accrual, loan due dates) and their periodic jobs read, so that tests can
//! cross days at once instead of waiting for them.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

/// Now, in Unix milliseconds (every stored timestamp).
pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// One day in milliseconds.
pub const DAY_MS: i64 = 86_400_000;

/// The time a rule reads: the wall clock, or — in tests — the wall clock moved by an offset that
/// the test advances. Clones share the offset.
#[derive(Debug, Clone, Default)]
pub struct Clock {
    offset_ms: Arc<AtomicI64>,
}

impl Clock {
    /// The wall clock.
    pub fn system() -> Self {
        Self::default()
    }

    /// Now, in Unix milliseconds, as this clock tells it.
    pub fn now_ms(&self) -> i64 {
        now_ms() + self.offset_ms.load(Ordering::Relaxed)
    }

    /// Moves this clock (and every clone of it) `ms` ahead; tests use it to cross days.
    pub fn advance(&self, ms: i64) {
        self.offset_ms.fetch_add(ms, Ordering::Relaxed);
    }

    /// How far this clock is ahead of the wall clock.
    pub fn offset_ms(&self) -> i64 {
        self.offset_ms.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_advanced_clock_and_its_clones_are_ahead_by_the_same_amount() {
        let clock = Clock::system();
        let clone = clock.clone();
        let before = clock.now_ms();
        clock.advance(3 * DAY_MS);
        assert_eq!(clone.offset_ms(), 3 * DAY_MS);
        assert!(clone.now_ms() - before >= 3 * DAY_MS);
        assert!(Clock::system().now_ms() < clone.now_ms());
    }
}
