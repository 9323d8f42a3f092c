/**
 * The spot order tables shared by the trade page, the order centre and /account/entrust/spot: open
 * orders with cancel, order history and trade history, the browser of all three with its pair filter,
 * plus the helpers of the spot calls.
 *
 * @module
 */

export { OPEN_ORDERS_PAGE_SIZE, OpenOrdersTable } from './open-orders';
export { ORDER_HISTORY_PAGE_SIZE, OrderHistoryTable } from './order-history';
export { TRADE_HISTORY_PAGE_SIZE, TradeHistoryTable } from './trade-history';
export { SPOT_ORDER_TABS, SpotOrdersBrowser, type SpotOrdersTab, parseSpotOrdersTab, parseSpotSymbol } from './spot-orders-browser';
export { useRefreshSpot } from './api';
export { type SpotFormat, useSpotFormat } from './format';
