//! Display rules of the product (spec section 9): amounts, compact amounts, prices, quantities,
//! change percents, dates and the time zone table, and whole tables in one call (tickers, the order
//! book grouped to a tick in [`book`], recent trades). Inputs are exact
//! [`Decimal`](rust_decimal::Decimal)s; outputs are the strings the webapp shows, identical natively
//! and in wasm.
//!
//! # Rounding
//! - The user's balances ([`format_balance`]: held, available, frozen, equity, margin, valuations):
//!   truncated toward zero, so a balance is never shown larger than it is (`298.88579145` →
//!   `298.88` on every screen).
//! - Results ([`format_pnl`]: profit and loss, fees, funding): nearest, a tie to the even digit.
//! - Market amounts ([`format_amount`], [`format_compact`]: order book totals, volumes, stakes) and percents ([`price_change_percent`],
//!   [`format_percent`]): 2 decimals, midpoint away from zero (`0.005` → `0.01`, `-0.005` → `-0.01`).
//! - Prices ([`format_price`]): truncated toward zero, so a price is never shown above its real value
//!   (or, when negative, below it); truncation also never pushes a price across a row of the table.
//! - Quantities ([`format_quantity`]): truncated toward zero too, so a holding or an order is never
//!   shown larger than it is.
//! - A value that rounds to zero shows without a sign (`0.00`, never `-0.00`).
//!
//! # Separators
//! `,` between thousands and `.` before decimals in amounts, compact figures and prices; change
//! percents have no thousands separators (`+1234.56%`).
//!
//! # Compact suffixes
//! | rounded absolute value | shown as |
//! |---|---|
//! | below 1,000 | `999.99` |
//! | from 1,000 | `45.60K` |
//! | from 1,000,000 | `1.23M` |
//! | from 10⁹ | `2.10B` |
//! | from 10¹² | `3.00T` (`1,234.00T` past 1000T) |
//!
//! # Price decimals without a coin precision ([`auto_price_decimals`])
//! | absolute price | decimals | example |
//! |---|---|---|
//! | ≥ 100,000 | 1 | `104,321.5` |
//! | 10,000 – 99,999.… | 2 | `43,210.98` |
//! | 1,000 – 9,999.… | 3 | `3,456.789` |
//! | 100 – 999.… | 4 | `612.3456` |
//! | 10 – 99.… | 5 | `24.12345` |
//! | 1 – 9.… | 6 | `2.345678` |
//! | 0.1 – 0.99… | 6 | `0.123456` |
//! | 0.01 – 0.099… | 7 | `0.0123456` |
//! | 0.001 – 0.0099… | 8 | `0.00123456` |
//! | 0.0001 – 0.00099… | 8 | `0.00012345` |
//! | 0.00001 – 0.000099… | 8 | `0.00001234` |
//! | below 0.00001 | 4 significant digits (at most 28 decimals) | `0.000001234` |
//! | 0 | 2 | `0.00` |
//!
//! Below 1 a price keeps 6 significant digits up to 8 decimals, and never fewer than 4 significant
//! digits, which is what takes prices below 0.00001 past 8 decimals. With a coin precision the price
//! shows exactly that many decimals (0 to 28).

mod amount;
pub mod book;
mod datetime;
mod money;
mod number;
mod percent;
mod price;
mod quantity;
mod ticker;
mod timezone;
mod trades;

pub use amount::{format_amount, format_compact};
pub use book::{
    BookSide, DEPTH_DECIMALS, GroupedBook, GroupedLevel, OrderBookInput, OrderBookOptions,
    OrderBookRow, OrderBookView, PackedOrderBook, format_order_book, format_order_book_packed,
    group_order_book,
};
pub use datetime::format_date_time;
pub use money::{MONEY_DECIMALS, format_balance, format_pnl};
pub use percent::{format_percent, price_change_percent};
pub use price::{MAX_PRECISION, auto_price_decimals, format_price};
pub use quantity::format_quantity;
pub use ticker::{Direction, TickerRowInput, TickerRowView, format_ticker_row, format_ticker_rows};
pub use timezone::{DEFAULT_TIME_ZONE, TimeZone, time_zones};
pub use trades::{
    TradeInput, TradePrecisions, TradeSide, TradeView, format_time_of_day, format_trades,
};
