/**
 * The user's futures positions, orders and stop orders (tables and the tabbed browser around them).
 *
 * @module
 */

export { FUTURES_REFRESH_MS, FuturesOrdersBrowser, useOpenFuturesPositions } from './futures-orders-browser';
export { FuturesOrdersTable, FuturesPositionsTable, FuturesStopsTable, type PositionAction, tone } from './futures-tables';
