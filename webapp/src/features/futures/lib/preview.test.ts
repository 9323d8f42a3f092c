import { describe, expect, it } from 'vitest';
import { compareDecimal } from '../../../lib/decimal';
import { contractRules } from '../../../test/contract-rules';
import { countdownText, fundingRateText } from '../futures-header';
import type { FuturesPosition } from '../../../api/generated/model';
import { liquidationPrice } from '../../../lib/wasm';
import { availableToOpen, crossOthers, orderPreview, wrongSide } from './preview';

const BASE = {
  price: '50000',
  quantity: '1',
  leverage: '10',
  marginMode: 'isolated' as const,
  available: '100000',
  takerFeeRate: '0.0005',
  stepSize: '0.001',
  tickSize: '0.01',
  tiers: contractRules('btcusdt').tiers,
  takeProfit: '',
  stopLoss: '',
};

describe('orderPreview', () => {
  it('gives the worked examples of futures-math.md (isolated, 10x, 1 BTC at 50,000), with the tier re-check', () => {
    const long = orderPreview({ ...BASE, side: 'long' });
    expect(long.initialMargin).toBe('5000');
    expect(long.liquidationPrice).toBe('45180.72');
    expect(long.fee).toBe('25');
    // The short's 54,780.88 puts the notional at the liquidation price in the second tier (above
    // 50,000): recomputed there, (5,000 + 50,000 + 50) / (0.005 + 1) = 54,776.12.
    expect(orderPreview({ ...BASE, side: 'short' }).liquidationPrice).toBe('54776.12');
  });

  it('previews PnL and ROE at the triggers, and the largest size the balance opens', () => {
    const preview = orderPreview({ ...BASE, side: 'long', takeProfit: '55000', stopLoss: '48000', available: '1000' });
    expect(preview.takeProfit).toEqual({ pnl: '5000', roePercent: '100' });
    expect(preview.stopLoss).toEqual({ pnl: '-2000', roePercent: '-40' });
    // 1,000 USDT at 10x opens at most 10,000 USDT of notional less the opening fee: 0.199 BTC.
    expect(preview.maxSize).toBe('0.199');
  });

  it('shows nothing for a missing price or quantity, and no max size for a visitor', () => {
    expect(orderPreview({ ...BASE, side: 'long', price: null }).initialMargin).toBeNull();
    const empty = orderPreview({ ...BASE, side: 'long', quantity: '' });
    expect(empty.liquidationPrice).toBeNull();
    expect(empty.maxSize).not.toBeNull();
    expect(orderPreview({ ...BASE, side: 'long', available: null }).maxSize).toBeNull();
  });
});

describe('wrongSide', () => {
  it('wants a long’s take profit above the mark and its stop loss below, the other way round for a short', () => {
    expect(wrongSide('takeProfit', 'long', '51000', '50000', compareDecimal)).toBe(false);
    expect(wrongSide('takeProfit', 'long', '50000', '50000', compareDecimal)).toBe(true);
    expect(wrongSide('stopLoss', 'long', '49000', '50000', compareDecimal)).toBe(false);
    expect(wrongSide('stopLoss', 'long', '51000', '50000', compareDecimal)).toBe(true);
    expect(wrongSide('takeProfit', 'short', '49000', '50000', compareDecimal)).toBe(false);
    expect(wrongSide('stopLoss', 'short', '49000', '50000', compareDecimal)).toBe(true);
  });
});

describe('header figures', () => {
  it('counts down in hh:mm:ss and shows a funding rate as a percent with 4 decimals at least', () => {
    expect(countdownText(3725)).toBe('01:02:05');
    expect(fundingRateText('0.0001')).toBe('0.0100%');
    expect(fundingRateText('-0.00012345')).toBe('-0.012345%');
  });
});

describe('the cross liquidation price', () => {
  const held = (symbol: string, marginMode: 'cross' | 'isolated', maintenanceMargin: string, unrealisedPnl: string) =>
    ({ symbol, marginMode, maintenanceMargin, unrealisedPnl, holdCollateralAssets: '10000', status: 'open' }) as FuturesPosition;

  it("is the server's: WB the trading wallet, TMM and UPNL of the other symbols' cross positions", () => {
    const positions = [
      held('ethusdt', 'cross', '20', '-150'),
      held('solusdt', 'cross', '5.5', '40.25'),
      // Neither counts: the same symbol, and an isolated position.
      held('btcusdt', 'cross', '200', '-999'),
      held('xrpusdt', 'isolated', '3', '-50'),
    ];
    const otherCross = crossOthers(positions, 'btcusdt');
    expect(otherCross).toEqual({ maintenanceMargin: '25.5', unrealisedPnl: '-109.75' });
    const preview = orderPreview({ ...BASE, side: 'long', marginMode: 'cross', available: '10000', otherCross });
    const direct = liquidationPrice({
      position: {
        side: 'long',
        size: '1',
        entryPrice: '50000',
        leverage: '10',
        marginMode: 'cross',
        walletBalance: '10000',
        otherMaintenanceMargin: '25.5',
        otherUnrealizedPnl: '-109.75',
      },
      tiers: BASE.tiers,
      tickSize: '0.01',
    });
    // (10,000 − 25.5 − 109.75 − 50,000) / (0.004 − 1)
    expect(direct).toBe('40296.44');
    expect(preview.liquidationPrice).toBe(direct);
    // Without the other positions the figure differs (what the preview showed before).
    expect(orderPreview({ ...BASE, side: 'long', marginMode: 'cross', available: '10000' }).liquidationPrice).not.toBe(direct);
    // Isolated ignores them.
    expect(orderPreview({ ...BASE, side: 'long', available: '10000', otherCross }).liquidationPrice).toBe('45180.72');
  });
});

describe('availableToOpen', () => {
  const held = (marginMode: 'cross' | 'isolated', positionMargin: string, unrealisedPnl: string) =>
    ({ symbol: 'ethusdt', marginMode, positionMargin, unrealisedPnl, status: 'open' }) as FuturesPosition;

  it("is the server's available balance: the wallet less cross initial margin, plus the cross unrealised loss only", () => {
    expect(availableToOpen(null, [])).toBeNull();
    expect(availableToOpen('1000', [])).toBe('1000');
    // 1,000 − 100 − 50.5 + (−30 + 10), the isolated position's margin left out (it is not in the wallet).
    expect(availableToOpen('1000', [held('cross', '100', '-30'), held('cross', '50.5', '10'), held('isolated', '300', '-80')])).toBe('829.5');
    // A net unrealised profit does not add to it.
    expect(availableToOpen('1000', [held('cross', '100', '25')])).toBe('900');
    // Never below zero.
    expect(availableToOpen('100', [held('cross', '90', '-40')])).toBe('0');
  });

  it('bounds the max size instead of the wallet when given', () => {
    const withWallet = orderPreview({ ...BASE, side: 'long', quantity: '', available: '1000' });
    const bounded = orderPreview({ ...BASE, side: 'long', quantity: '', available: '1000', availableToOpen: '500' });
    expect(withWallet.maxSize).toBe('0.199');
    expect(bounded.maxSize).toBe('0.099');
  });
});
