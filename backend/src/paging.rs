//! Paging of every list whose page and size the caller gives ([`Paging`]): the defaults and bounds
//! in one place.
//!
//! Every list call declares `page` (1 to [`MAX_PAGE`]) and `pageSize` (1 to [`MAX_PAGE_SIZE`]) with
//! these bounds as validators, so the OpenAPI document says exactly what the server accepts and a
//! value outside them is refused as invalid (400, `invalid_field` naming the field) before the
//! handler runs; a page past the last row answers an empty page. [`Paging::new`] applies the
//! defaults and clamps to the same bounds once more, so the row offset always fits the database's
//! 64-bit signed integers (`(MAX_PAGE - 1) * MAX_PAGE_SIZE` is about 10⁸) whatever a caller passes.
//! `tests/api/paging.rs` checks that every list call of the document declares exactly these bounds.

/// Largest page number.
pub const MAX_PAGE: u64 = 1_000_000;
/// Largest page size.
pub const MAX_PAGE_SIZE: u64 = 100;
/// Page size when none is asked for.
pub const DEFAULT_PAGE_SIZE: u64 = 20;

/// A page of a list: its number (from 1) and size, within [`MAX_PAGE`] and [`MAX_PAGE_SIZE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Paging {
    /// The page, from 1 to [`MAX_PAGE`].
    pub page: u64,
    /// Rows per page, 1 to [`MAX_PAGE_SIZE`].
    pub page_size: u64,
}

impl Paging {
    /// The page a caller asked for: page 1 and [`DEFAULT_PAGE_SIZE`] when absent, clamped into the
    /// bounds (the declarations refuse values outside them before this runs).
    pub fn new(page: Option<u64>, page_size: Option<u64>) -> Self {
        Self {
            page: page.unwrap_or(1).clamp(1, MAX_PAGE),
            page_size: page_size
                .unwrap_or(DEFAULT_PAGE_SIZE)
                .clamp(1, MAX_PAGE_SIZE),
        }
    }

    /// Rows before this page: `(page - 1) * page_size`, at most about 10⁸.
    pub fn offset(self) -> u64 {
        (self.page - 1) * self.page_size
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paging(page: Option<u64>, page_size: Option<u64>) -> (u64, u64) {
        let paging = Paging::new(page, page_size);
        (paging.page, paging.page_size)
    }

    #[test]
    fn defaults_and_bounds_apply() {
        assert_eq!(paging(None, None), (1, DEFAULT_PAGE_SIZE));
        assert_eq!(paging(Some(0), Some(0)), (1, 1));
        assert_eq!(paging(Some(3), Some(1000)), (3, MAX_PAGE_SIZE));
        assert_eq!(
            paging(Some(u64::MAX), Some(u64::MAX)),
            (MAX_PAGE, MAX_PAGE_SIZE)
        );
    }

    #[test]
    fn the_largest_offset_fits_a_signed_64_bit_integer() {
        let last = Paging::new(Some(u64::MAX), Some(u64::MAX));
        assert_eq!(last.offset(), (MAX_PAGE - 1) * MAX_PAGE_SIZE);
        assert!(i64::try_from(last.offset() + last.page_size).is_ok());
        assert_eq!(Paging::new(None, None).offset(), 0);
    }
}
