import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getGetAllSettingQueryKey } from '../../api/generated/common/common';
import { getContentAnnouncementsQueryKey, getContentPageQueryKey } from '../../api/generated/content/content';
import type { ContentDetail } from '../../api/generated/model';
import { getGetContractRulesQueryKey, getGetFuturesFundingInfoQueryKey } from '../../api/generated/futures/futures';
import { contractRules } from '../../test/contract-rules';
import { getGetSecondsConfigQueryKey } from '../../api/generated/seconds-contracts/seconds-contracts';
import { setLanguage } from '../../i18n';
import { SETTINGS, bodyCells, coin, renderApp } from '../../test/render';
import { fractionToPercent } from './lib/percent';
import { TOPICS, topicOf } from './lib/topics';

const COINS = {
  currencyList: [
    coin('ethusdt', '3100', '3200', { sort: 2, tickSize: '0.01', stepSize: '0.001', minNotional: '5', makerFeeRate: '0.001', takerFeeRate: '0.002' }),
    coin('btcusdt', '67000', '66000', { sort: 1, tickSize: '0.1', stepSize: '0.00001', minNotional: '10', makerFeeRate: '0.0008', takerFeeRate: '0.001' }),
  ],
  contractList: [],
};

/** A content-store page of `fields` (English, published). */
function page(fields: Partial<ContentDetail>): ContentDetail {
  return {
    id: 1, kind: 'topic', slug: 'topic', title: 'Topic', summary: '', lang: 'en', fallback: false, outdated: false,
    position: 1, pinned: false, promoted: false, createdAt: 1700000000000, updatedAt: 1700000000000, html: '', ...fields,
  };
}

afterEach(async () => {
  vi.unstubAllGlobals();
  await setLanguage('en', { persist: false });
});

describe('/rule/index', () => {
  it('shows the spot trading rules by default, with the live order rules of every pair', async () => {
    const { queryClient } = renderApp('/rule/index', COINS);
    queryClient.setQueryData(getGetAllSettingQueryKey(), { ...SETTINGS, platform: { ...SETTINGS.platform, securityFundPercent: '12' } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Notices and rules' })).toBeTruthy();
    const article = screen.getByRole('article', { name: 'Spot trading rules' });
    const nav = screen.getByRole('navigation', { name: 'Topics' });
    expect(within(nav).getByRole('link', { name: 'Spot trading rules' }).getAttribute('aria-current')).toBe('page');
    expect(within(nav).getByRole('link', { name: 'Spot trading rules' }).getAttribute('href')).toBe('/rule/index?modelType=6');
    expect(document.title).toBe('Spot trading rules · Notices and rules · Kestrel Exchange');

    // Order types, as the backend accepts them.
    for (const text of [/^Limit: /, /^GTC \(good till cancelled/, /^IOC \(immediate or cancel\)/, /^FOK \(fill or kill\)/, /^Post-only \(GTC orders only\)/, /^Market: .*by the amount of the quote asset to spend/, /^Stop-limit: /]) {
      expect(within(article).getByText(text)).toBeTruthy();
    }

    const table = within(article).getByRole('table', { name: 'Order rules per pair' });
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Pair', 'Price tick', 'Quantity step', 'Minimum order value', 'Maker fee', 'Taker fee']);
    expect(bodyCells(table)).toEqual([
      ['BTC/USDT', '0.1 USDT', '0.00001 BTC', '10 USDT', '0.08%', '0.1%'],
      ['ETH/USDT', '0.01 USDT', '0.001 ETH', '5 USDT', '0.1%', '0.2%'],
    ]);

    expect(within(article).getByText(/charged in that asset: in the base asset when you buy, in the quote asset when you sell/)).toBeTruthy();
    await waitFor(() => expect(within(article).getByText('12% of every trading fee goes to the asset security fund.')).toBeTruthy());
    expect(within(article).getByRole('heading', { level: 3, name: 'Self-trade prevention' })).toBeTruthy();
    expect(within(article).getByText(/the resting order is cancelled instead/)).toBeTruthy();
    expect(within(article).getByRole('heading', { level: 3, name: 'How held funds work' })).toBeTruthy();
    expect(within(article).getByText(/a market buy by quantity holds the exact cost of the book levels it will take/)).toBeTruthy();
    expect(within(article).getByRole('link', { name: 'Trade spot' }).getAttribute('href')).toBe('/trade/index?type=bb');
    expect(within(article).getByRole('link', { name: 'Your orders' }).getAttribute('href')).toBe('/assets/index?key=order');
  });

  it('picks the topic by modelType, ignoring the replace cache-buster', async () => {
    const { router, queryClient } = renderApp('/rule/index?modelType=4&replace=1700000000000', COINS);
    queryClient.setQueryData(getGetSecondsConfigQueryKey(), {
      enabled: true,
      stakeCoin: 'usdt',
      rule: 'last_tick_at_or_before_expiry',
      symbols: [{ symbol: 'btcusdt', showSymbol: 'BTC/USDT' }],
      periods: [
        { seconds: 30, payoutRate: '0.8', minStake: '10', maxStake: '50000' },
        { seconds: 60, payoutRate: '0.85', minStake: '10', maxStake: '50000' },
      ],
    });
    const article = await screen.findByRole('article', { name: 'Flash contract rules' });
    const periods = await within(article).findByRole('table', { name: 'Flash contract periods' });
    expect(bodyCells(periods)).toEqual([
      ['30 seconds', '80%', '10', '50,000'],
      ['60 seconds', '85%', '10', '50,000'],
    ]);
    expect(article.textContent).toContain('It is fixed at acceptance and never extended.');
    expect(article.textContent).toContain('Equal prices are a tie: the stake is returned.');
    expect(within(article).getByRole('link', { name: 'Trade flash contracts' }).getAttribute('href')).toBe('/trade/index?type=seconds');

    const nav = screen.getByRole('navigation', { name: 'Topics' });
    fireEvent.click(within(nav).getByRole('link', { name: 'Fees and the security fund' }));
    await waitFor(() => expect(router.state.location.search).toBe('?modelType=7'));
    const fees = await screen.findByRole('article', { name: 'Fees and the security fund' });
    const table = within(fees).getByRole('table', { name: 'Spot fees per pair' });
    expect(bodyCells(table)).toEqual([
      ['BTC/USDT', '0.08%', '0.1%'],
      ['ETH/USDT', '0.1%', '0.2%'],
    ]);
    expect(fees.textContent).toContain('10% of every trading fee goes to the asset security fund');
  });

  it('shows the USDT-M futures rules: the tiers of each contract, fees, mark price, the live funding and the liquidation rule', async () => {
    const { queryClient } = renderApp('/rule/index?modelType=8', { ...COINS, contractList: COINS.currencyList });
    queryClient.setQueryData(getGetFuturesFundingInfoQueryKey({ symbol: 'ethusdt' }), {
      symbol: 'ethusdt', fundingRate: '0.0001', nextFundingTime: Date.UTC(2026, 0, 2, 16), countdown: 100, intervalSecs: 28800, markPrice: '3100', indexPrice: '3099',
    });
    for (const symbol of ['ethusdt', 'btcusdt']) queryClient.setQueryData(getGetContractRulesQueryKey({ symbol }), contractRules(symbol));
    const article = await screen.findByRole('article', { name: 'USDT-M futures rules' });
    // The contract list starts with ETH/USDT here: its tiers (as the server publishes them) are the
    // default table at ½ the notional.
    const tiers = within(article).getByRole('table', { name: 'Maintenance margin tiers of ETH/USDT' });
    expect(bodyCells(tiers)[0]).toEqual(['1', '0 – 25,000', '125x', '0.4%', '0']);
    expect(bodyCells(tiers)[4]).toEqual(['5', '5,000,000 – 10,000,000', '10x', '5%', '133,150']);
    expect(article.textContent).toContain('pays the taker fee of 0.05% of its executed value');
    expect(await within(article).findByText(/^ETH\/USDT now: rate 0\.01%, every 8 hours; next funding at /)).toBeTruthy();
    expect(article.textContent).toContain('reaches 100%, which is when the mark price reaches its liquidation price');

    fireEvent.change(within(article).getByRole('combobox', { name: 'Contract' }), { target: { value: 'btcusdt' } });
    expect(bodyCells(within(article).getByRole('table', { name: 'Maintenance margin tiers of BTC/USDT' }))[1]).toEqual(['2', '50,000 – 250,000', '100x', '0.5%', '50']);
    expect(within(article).getByRole('link', { name: 'Trade USDT-M futures' }).getAttribute('href')).toBe('/trade/index?type=usta');
  });

  it('shows the spot rules for a missing or unknown modelType', async () => {
    renderApp('/rule/index?modelType=99', COINS);
    expect(await screen.findByRole('article', { name: 'Spot trading rules' })).toBeTruthy();
    expect(topicOf(null).id).toBe('spot');
    expect(topicOf('abc').id).toBe('spot');
    expect(topicOf(' 13 ').id).toBe('riskDisclosure');
  });

  it('lists the pairs open for trading under New listings, each linking to its trade page, below the store\'s text', async () => {
    const { queryClient } = renderApp('/rule/index?modelType=1', COINS);
    queryClient.setQueryData([...getContentPageQueryKey({ modelType: 1 }), 'en'], page({ modelType: 1, title: 'New listings', html: '<p>Every pair listed is announced here.</p>' }));
    queryClient.setQueryData([...getContentAnnouncementsQueryKey({ topic: 'new-pairs', page: 1, pageSize: 10 }), 'en'], {
      total: 1, current: 1, size: 10, pages: 1,
      records: [{ ...page({ title: 'New listing: PEPE/USDT' }), id: 42, kind: 'announcement', topic: 'new-pairs', publishedAt: 1700000000000 }],
    });
    const article = await screen.findByRole('article', { name: 'New listings' });
    await waitFor(() => expect(article.textContent).toContain('Every pair listed is announced here.'), { timeout: 5_000 });
    expect(article.textContent).toContain('Spot pairs open for trading: 2.');
    expect(within(article).getByRole('link', { name: 'BTC/USDT' }).getAttribute('href')).toBe('/trade/index?type=bb&symbol=btcusdt');
    expect(within(article).getByRole('link', { name: 'ETH/USDT' }).getAttribute('href')).toBe('/trade/index?type=bb&symbol=ethusdt');
    expect(within(article).getByRole('link', { name: 'New listing: PEPE/USDT' }).getAttribute('href')).toBe('/notice/index?id=42');
  });

  it('shows a legal topic from the content store, inert, and says when it is the English fallback', async () => {
    await setLanguage('de', { persist: false });
    const { queryClient } = renderApp('/rule/index?modelType=13', COINS);
    queryClient.setQueryData(
      [...getContentPageQueryKey({ modelType: 13 }), 'de'],
      page({ modelType: 13, title: 'Risk disclosure', fallback: true, html: '<p onclick="window.hacked=1">Crypto assets can lose value.</p><script>window.hacked=2</script><a href="javascript:alert(1)">x</a>' }),
    );
    const article = await screen.findByRole('article', { name: 'Risikohinweise' });
    await waitFor(() => expect(article.textContent).toContain('Crypto assets can lose value.'), { timeout: 5_000 });
    const body = within(article).getByText('Crypto assets can lose value.');
    expect(body.getAttribute('onclick')).toBeNull();
    expect(article.querySelector('script')).toBeNull();
    expect(within(article).getByText('x').getAttribute('href')).toBeNull();
    expect(within(article).getByText(/noch nicht verfügbar/)).toBeTruthy();
    expect((window as unknown as { hacked?: number }).hacked).toBeUndefined();
  });

  it('has every topic in the side list, each with its own number', async () => {
    renderApp('/rule/index', COINS);
    const nav = await screen.findByRole('navigation', { name: 'Topics' });
    expect(within(nav).getAllByRole('link')).toHaveLength(TOPICS.length);
    expect(within(nav).getAllByRole('list').map((list) => list.getAttribute('aria-labelledby') && document.getElementById(list.getAttribute('aria-labelledby')!)?.textContent)).toEqual([
      'Trading rules',
      'Announcements',
      'Guides and help',
      'Legal and compliance',
    ]);
    expect(new Set(TOPICS.map((t) => t.modelType)).size).toBe(TOPICS.length);
  });

  it('speaks the user’s language', async () => {
    await setLanguage('fr', { persist: false });
    renderApp('/rule/index?modelType=6', COINS);
    const article = await screen.findByRole('article', { name: 'Règles du trading spot' });
    expect(within(article).getByRole('table', { name: 'Règles d’ordre par paire' })).toBeTruthy();
  });
});

describe('fractionToPercent', () => {
  it('moves the decimal point on the string', () => {
    expect(fractionToPercent('0.001')).toBe('0.1');
    expect(fractionToPercent('0.0008')).toBe('0.08');
    expect(fractionToPercent('0.02')).toBe('2');
    expect(fractionToPercent('0.1')).toBe('10');
    expect(fractionToPercent('1')).toBe('100');
    expect(fractionToPercent('0')).toBe('0');
    expect(fractionToPercent('0.00125')).toBe('0.125');
    expect(fractionToPercent('0.0010')).toBe('0.1');
    expect(fractionToPercent('-0.1')).toBeNull();
    expect(fractionToPercent('abc')).toBeNull();
  });
});
