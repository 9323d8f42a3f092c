import { describe, expect, it } from 'vitest';
import { type Context, EMPTY_DRAFT, type OrderDraft, type PairRules, orderBody, percentFill, previewInput, validationInput, visibleFields } from './model';

const RULES: PairRules = { symbol: 'btcusdt', tickSize: '0.01', stepSize: '0.0001', minNotional: '5', pricePrecision: 2, takerFeeRate: '0.001' };
const CONTEXT: Context = { marketPrice: '67010', availableBase: '0.5', availableQuote: '1000' };
const draft = (change: Partial<OrderDraft>): OrderDraft => ({ ...EMPTY_DRAFT, price: '67000', ...change });

describe('order form model', () => {
  it('shows the fields of each order type', () => {
    expect(visibleFields(draft({}))).toEqual(['price', 'quantity']);
    expect(visibleFields(draft({ orderType: 'stop_limit' }))).toEqual(['triggerPrice', 'price', 'quantity']);
    expect(visibleFields(draft({ orderType: 'market' }))).toEqual(['quantity']);
    expect(visibleFields(draft({ orderType: 'market', marketMode: 'amount' }))).toEqual(['quoteAmount']);
    // Only a market buy is sized by amount.
    expect(visibleFields(draft({ side: 'sell', orderType: 'market', marketMode: 'amount' }))).toEqual(['quantity']);
  });

  it('gives the core only the fields the order type uses, with the pair’s rules and balances', () => {
    expect(validationInput(draft({ quantity: '0.01', triggerPrice: '1' }), RULES, CONTEXT)).toEqual({
      side: 'buy',
      orderType: 'limit',
      price: '67000',
      quantity: '0.01',
      tickSize: '0.01',
      stepSize: '0.0001',
      minNotional: '5',
      lastPrice: '67010',
      availableBase: '0.5',
      availableQuote: '1000',
    });
    expect(validationInput(draft({ orderType: 'market', marketMode: 'amount', quoteAmount: '50' }), RULES, { ...CONTEXT, availableBase: null, availableQuote: null })).toEqual({
      side: 'buy',
      orderType: 'market',
      quoteAmount: '50',
      tickSize: '0.01',
      stepSize: '0.0001',
      minNotional: '5',
      lastPrice: '67010',
    });
  });

  it('previews a market order at the expected price and waits for a size', () => {
    expect(previewInput(draft({ quantity: '' }), RULES, CONTEXT)).toBeNull();
    expect(previewInput(draft({ price: '', quantity: '1' }), RULES, CONTEXT)).toBeNull();
    expect(previewInput(draft({ orderType: 'market', quantity: '0.01' }), RULES, CONTEXT)).toEqual({
      side: 'buy',
      orderType: 'market',
      price: '67010',
      quantity: '0.01',
      feeRate: '0.001',
      baseBalance: '0.5',
      quoteBalance: '1000',
    });
    expect(previewInput(draft({ orderType: 'stop_limit', quantity: '0.01' }), RULES, CONTEXT)?.orderType).toBe('limit');
  });

  it('fills a share of the balance that never exceeds it', () => {
    expect(percentFill(draft({}), 100, RULES, CONTEXT)).toEqual({ quantity: '0.0149' });
    expect(percentFill(draft({ orderType: 'market' }), 50, RULES, CONTEXT)).toEqual({ quantity: '0.0074' });
    expect(percentFill(draft({ orderType: 'market', marketMode: 'amount' }), 25, RULES, { ...CONTEXT, availableQuote: '1000.555' })).toEqual({ quoteAmount: '250.13' });
    expect(percentFill(draft({ side: 'sell' }), 75, RULES, CONTEXT)).toEqual({ quantity: '0.375' });
    expect(percentFill(draft({ price: '' }), 25, RULES, CONTEXT)).toBeNull();
    expect(percentFill(draft({}), 25, RULES, { ...CONTEXT, availableQuote: null })).toBeNull();
  });

  it('sends only what the order type takes', () => {
    expect(orderBody(draft({ quantity: '0.01', postOnly: true }), 'btcusdt')).toEqual({
      symbol: 'btcusdt',
      side: 'buy',
      orderType: 'limit',
      price: '67000',
      quantity: '0.01',
      timeInForce: 'gtc',
      postOnly: true,
    });
    // Post-only is for GTC orders only.
    expect(orderBody(draft({ quantity: '0.01', timeInForce: 'ioc', postOnly: true }), 'btcusdt')).toEqual({
      symbol: 'btcusdt',
      side: 'buy',
      orderType: 'limit',
      price: '67000',
      quantity: '0.01',
      timeInForce: 'ioc',
    });
    expect(orderBody(draft({ side: 'sell', orderType: 'market', quantity: '0.2', marketMode: 'amount', quoteAmount: '9' }), 'btcusdt')).toEqual({
      symbol: 'btcusdt',
      side: 'sell',
      orderType: 'market',
      quantity: '0.2',
    });
  });
});
