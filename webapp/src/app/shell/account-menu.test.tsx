import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi, userInfo } from '../../features/auth/test-api';
import { MarketFeed, setMarketFeed } from '../../lib/live';
import { toaster } from '../../lib/toaster';
import { signOutFor } from '../../lib/user-status';
import { FakeSocket } from '../../test/fake-socket';
import { renderApp } from '../../test/render';

const path = (router: ReturnType<typeof renderApp>['router']) => router.state.location.pathname + router.state.location.search;

let toast: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  localStorage.clear();
  document.cookie = 'coin-access-token=tok-member; path=/';
  localStorage.setItem('coin_web-isLogin', 'true');
  setMarketFeed(new MarketFeed({ url: () => 'ws://test', createSocket: (url) => new FakeSocket(url) }));
  toast = vi.spyOn(toaster, 'create').mockImplementation(() => 'toast');
});

afterEach(() => {
  setMarketFeed(null);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
});

function expectLoggedOut() {
  expect(document.cookie).not.toContain('coin-access-token=');
  expect(localStorage.getItem('coin_web-isLogin')).toBeNull();
  expect(localStorage.getItem('coin_web-userInfo')).toBeNull();
}

describe('account menu', () => {
  it('shows the account instead of Log in / Register and logs out on the server and in the browser', async () => {
    const api = stubApi({
      '/api/user/getInfo': () => ({ data: userInfo('jane@example.com', 42) }),
      '/api/user/logout': () => ({ data: true }),
    });
    const { router } = renderApp('/about/index');
    const banner = await screen.findByRole('banner');
    const trigger = await within(banner).findByRole('button', { name: 'Account menu, jane@example.com' });
    expect(within(banner).queryByRole('link', { name: 'Log in' })).toBeNull();
    expect(within(banner).queryByRole('link', { name: 'Register' })).toBeNull();

    fireEvent.click(trigger);
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('UID 42')).toBeTruthy();
    expect(within(menu).getByRole('menuitem', { name: 'Account centre' }).getAttribute('href')).toBe('/account/center');
    expect(within(menu).getByRole('menuitem', { name: 'My Assets' }).getAttribute('href')).toBe('/assets/index?key=overview');
    // Keyboard: End highlights the last item (Log out), Enter picks it.
    fireEvent.keyDown(menu, { key: 'End' });
    await waitFor(() => expect(within(menu).getByRole('menuitem', { name: 'Log out' }).hasAttribute('data-highlighted')).toBe(true));
    fireEvent.keyDown(menu, { key: 'Enter' });

    await waitFor(() => expect(path(router)).toBe('/home/index'));
    expect(api.callsTo('/api/user/logout')[0]?.headers.satoken).toBe('tok-member');
    expectLoggedOut();
    await waitFor(() => expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Log in' })).toBeTruthy());
  });

  it("signs out in the browser before the server ends the session, so the user channel's notice of this very logout warns of nothing", async () => {
    const api = stubApi({
      '/api/user/getInfo': () => ({ data: userInfo('jane@example.com', 42) }),
      '/api/user/logout': () => {
        // The server pushes USER_STATUS session_revoked to the session's sockets as it ends it.
        signOutFor('session_revoked');
        return { data: true };
      },
    });
    const { router } = renderApp('/about/index');
    fireEvent.click(await within(await screen.findByRole('banner')).findByRole('button', { name: 'Account menu, jane@example.com' }));
    const menu = await screen.findByRole('menu');
    fireEvent.keyDown(menu, { key: 'End' });
    await waitFor(() => expect(within(menu).getByRole('menuitem', { name: 'Log out' }).hasAttribute('data-highlighted')).toBe(true));
    fireEvent.keyDown(menu, { key: 'Enter' });

    await waitFor(() => expect(api.callsTo('/api/user/logout')).toHaveLength(1));
    expect(api.callsTo('/api/user/logout')[0]?.headers.satoken).toBe('tok-member');
    await waitFor(() => expect(path(router)).toBe('/home/index'));
    expectLoggedOut();
    expect(toast).not.toHaveBeenCalled();
  });

  it('Exit in the side menu logs out too, even when the server call fails', async () => {
    const api = stubApi({
      '/api/user/getInfo': () => ({ data: userInfo('+4915123456789', 7) }),
      '/api/user/logout': () => ({ status: 500, msg: 'Server error' }),
    });
    const { router } = renderApp('/about/index');
    fireEvent.click(await screen.findByRole('button', { name: 'Open menu' }));
    const nav = await screen.findByRole('navigation', { name: 'Main menu' });
    fireEvent.click(within(nav).getByRole('button', { name: 'Exit' }));

    await waitFor(() => expect(path(router)).toBe('/home/index'));
    expect(api.callsTo('/api/user/logout')).toHaveLength(1);
    expectLoggedOut();
    expect(toast).not.toHaveBeenCalled();
  });
});
