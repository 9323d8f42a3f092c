import { afterEach, describe, expect, it } from 'vitest';
import { MAX_TOASTS, toaster } from './toaster';

afterEach(() => {
  toaster.remove();
});

describe('toaster', () => {
  it('shows the newest toast at once past the limit, taking the oldest down', () => {
    const ids = Array.from({ length: MAX_TOASTS }, (_, i) => toaster.create({ type: 'success', title: `action ${i}` }));
    const newest = toaster.create({ type: 'success', title: 'the last action' });
    const visible = toaster.getVisibleToasts().map((toast) => toast.id);
    expect(visible).toContain(newest);
    expect(visible).not.toContain(ids[0]);
    expect(visible).toHaveLength(MAX_TOASTS);
  });

  it('updates a toast with the same id in place without taking another down', () => {
    const ids = Array.from({ length: MAX_TOASTS }, (_, i) => toaster.create({ id: `t${i}`, type: 'error', title: `error ${i}` }));
    toaster.create({ id: 't3', type: 'error', title: 'error 3 again' });
    expect(toaster.getVisibleToasts().map((toast) => toast.id).sort()).toEqual([...ids].sort());
  });
});
