import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { getGetAllSettingQueryKey, getGetCoinListQueryKey } from '../api/generated/common/common';
import { getGetContractRulesQueryKey, getGetFuturesFundingInfoQueryKey } from '../api/generated/futures/futures';
import { getGetMyBillQueryKey } from '../api/generated/reports/reports';
import { invalidateOperations, isQueryOf, operationKey } from './query-keys';

describe('operationKey', () => {
  it('drops the omitted body of a POST read and keeps path segments', () => {
    expect(operationKey(getGetCoinListQueryKey())).toEqual(getGetCoinListQueryKey().slice(0, 2));
    expect(operationKey(getGetAllSettingQueryKey())).toEqual(getGetAllSettingQueryKey());
    expect(operationKey(getGetContractRulesQueryKey())).toEqual(getGetContractRulesQueryKey());
    expect(operationKey(getGetMyBillQueryKey('coin'))).toHaveLength(2);
  });
});

describe('isQueryOf', () => {
  it('matches every body, params and page of the named operations only', () => {
    const reads = [getGetCoinListQueryKey(), getGetContractRulesQueryKey(), getGetMyBillQueryKey('coin')];
    expect(isQueryOf(getGetCoinListQueryKey(), reads)).toBe(true);
    expect(isQueryOf(getGetCoinListQueryKey({ market: 'spot' }), reads)).toBe(true);
    expect(isQueryOf(getGetContractRulesQueryKey({ symbol: 'btcusdt' }), reads)).toBe(true);
    expect(isQueryOf(getGetMyBillQueryKey('coin', { page: 3 }), reads)).toBe(true);
    expect(isQueryOf(getGetMyBillQueryKey('v2', { page: 3 }), reads)).toBe(false);
    expect(isQueryOf(getGetAllSettingQueryKey(), reads)).toBe(false);
    expect(isQueryOf(getGetFuturesFundingInfoQueryKey({ symbol: 'btcusdt' }), reads)).toBe(false);
  });

  it('invalidates every page of an operation at once', async () => {
    const queryClient = new QueryClient();
    const keys = [getGetMyBillQueryKey('coin', { page: 1 }), getGetMyBillQueryKey('coin', { page: 2 }), getGetAllSettingQueryKey()];
    for (const key of keys) queryClient.setQueryData(key, { ok: true });
    await invalidateOperations(queryClient, [getGetMyBillQueryKey('coin')]);
    expect(keys.map((key) => queryClient.getQueryState(key)?.isInvalidated)).toEqual([true, true, false]);
  });
});
