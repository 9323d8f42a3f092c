/**
 * The live order book shared by the market and trade screens, and its grouping choices.
 *
 * @module
 */

export { BOOK_ROWS, OrderBookPanel, plainPrice } from './order-book';
export { TICK_CHOICES, decimalsOf, tickChoices } from './ticks';
