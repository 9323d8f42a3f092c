//! Paging of the lists whose page and size the caller gives: the defaults and bounds in one place.

/// Largest page size.
pub const MAX_PAGE_SIZE: u64 = 100;
/// Page size when none is asked for.
pub const DEFAULT_PAGE_SIZE: u64 = 20;

/// `(page from 1, page size)` with their defaults and bounds.
pub fn paging(page: Option<u64>, page_size: Option<u64>) -> (u64, u64) {
    (
        page.unwrap_or(1).max(1),
        page_size
            .unwrap_or(DEFAULT_PAGE_SIZE)
            .clamp(1, MAX_PAGE_SIZE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_bounds_apply() {
        assert_eq!(paging(None, None), (1, DEFAULT_PAGE_SIZE));
        assert_eq!(paging(Some(0), Some(0)), (1, 1));
        assert_eq!(paging(Some(3), Some(1000)), (3, MAX_PAGE_SIZE));
    }
}
