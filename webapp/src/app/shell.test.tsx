import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../i18n';
import { MarketFeed, setMarketFeed } from '../lib/live';
import { startSession } from '../lib/session';
import { FakeSocket } from '../test/fake-socket';
import { pickOption, renderApp } from '../test/render';

beforeEach(() => {
  localStorage.clear();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
  setMarketFeed(new MarketFeed({ url: () => 'ws://test', createSocket: (url) => new FakeSocket(url) }));
});

afterEach(async () => {
  setMarketFeed(null);
  await setLanguage('en', { persist: false });
});

const path = (router: ReturnType<typeof renderApp>['router']) => router.state.location.pathname + router.state.location.search;

describe('routes', () => {
  it('sends / and unknown paths to /home/index', async () => {
    const root = renderApp('/');
    await waitFor(() => expect(path(root.router)).toBe('/home/index'));
    root.unmount();
    const unknown = renderApp('/no/such/page');
    await waitFor(() => expect(path(unknown.router)).toBe('/home/index'));
  });

  it('turns an invitation link into registration with the code, full page without the shell', async () => {
    const { router } = renderApp('/i&AB12CD');
    await waitFor(() => expect(path(router)).toBe('/user/register?invite_code=AB12CD'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Register' })).toBeTruthy();
    expect((screen.getByLabelText('Invitation code (optional)') as HTMLInputElement).value).toBe('AB12CD');
    expect(screen.queryByRole('contentinfo')).toBeNull();
    // The full page's bar has the logo, the menu, the language select and the theme switch only.
    const banner = screen.getByRole('banner');
    expect(within(banner).queryByRole('navigation', { name: 'Primary' })).toBeNull();
    expect(within(banner).queryByRole('link', { name: 'Log in' })).toBeNull();
    expect(within(banner).queryByRole('link', { name: 'Register' })).toBeNull();
    expect(within(banner).getByRole('link', { name: 'Kestrel Exchange home' }).getAttribute('href')).toBe('/home/index');
    expect(within(banner).getByRole('combobox', { name: 'Language' })).toBeTruthy();
    expect(within(banner).getByRole('button', { name: 'Dark theme' })).toBeTruthy();
  });

  it('lets a visitor read the login page in their language', async () => {
    renderApp('/user/login');
    expect(await screen.findByRole('heading', { level: 1, name: 'Log in' })).toBeTruthy();
    await pickOption(within(screen.getByRole('banner')).getByRole('combobox', { name: 'Language' }), 'Deutsch');
    expect(await screen.findByRole('heading', { level: 1, name: 'Anmelden' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('de');
  });

  it('has the shell landmarks and hides the footer on trade and user pages', async () => {
    const home = renderApp('/home/index');
    expect(await screen.findByRole('banner')).toBeTruthy();
    expect(screen.getByRole('main')).toBeTruthy();
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByText('10% of all trading fees go to the asset security fund.')).toBeTruthy();
    expect(within(footer).getByText(/Investing in crypto assets may result in the loss of capital/)).toBeTruthy();
    expect(within(footer).getByRole('link', { name: 'SOL/USDT' }).getAttribute('href')).toBe('/trade/index?type=bb&symbol=solusdt');
    home.unmount();

    renderApp('/trade/index?type=bb');
    expect(await screen.findByRole('heading', { level: 1, name: 'Trade' })).toBeTruthy();
    expect(screen.queryByRole('contentinfo')).toBeNull();
  });
});

describe('navigation feedback', () => {
  it('runs the progress bar when the path or the query changes, and scrolls to the top on entry', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo');
    const { router } = renderApp('/home/index');
    await screen.findByRole('banner');
    expect(screen.queryByRole('progressbar')).toBeNull();

    scrollTo.mockClear();
    fireEvent.click(within(screen.getByRole('contentinfo')).getByRole('link', { name: 'Company' }));
    await waitFor(() => expect(path(router)).toBe('/about/index'));
    // The company page's code may still be arriving: the bar shows once the shell renders again.
    expect(await screen.findByRole('progressbar', { name: 'Page loading' })).toBeTruthy();
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());

    await act(() => router.navigate('/about/index?tab=team'));
    expect(screen.getByRole('progressbar', { name: 'Page loading' })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull());
  });
});

describe('top bar and side menu', () => {
  it('offers Login and Register to visitors and the Features menu', async () => {
    renderApp('/home/index');
    const banner = await screen.findByRole('banner');
    expect(within(banner).getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/user/login');
    expect(within(banner).getByRole('link', { name: 'Register' }).getAttribute('href')).toBe('/user/register');
    fireEvent.click(within(banner).getByRole('button', { name: 'Features' }));
    const spot = await screen.findByRole('menuitem', { name: 'Spot' });
    expect(spot.getAttribute('href')).toBe('/trade/index?type=bb');
    expect(screen.getByRole('menuitem', { name: 'USDT-M Futures' }).getAttribute('href')).toBe('/trade/index?type=usta');
  });

  it('shows visitor entries only to visitors, and account entries plus Exit to logged-in users', async () => {
    const visitor = renderApp('/home/index');
    fireEvent.click(await screen.findByRole('button', { name: 'Open menu' }));
    // The drawer is a dialog named by its purpose; the site name is still shown at its top.
    const dialog = await screen.findByRole('dialog', { name: 'Main menu' });
    expect(within(dialog).getByText('Kestrel Exchange')).toBeTruthy();
    let nav = within(dialog).getByRole('navigation', { name: 'Main menu' });
    expect(within(nav).getByRole('link', { name: 'Markets' }).getAttribute('href')).toBe('/quotes/index');
    expect(within(nav).getByRole('link', { name: 'Sign in' })).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Sign up' })).toBeTruthy();
    expect(within(nav).queryByRole('link', { name: 'Overview' })).toBeNull();
    expect(within(nav).queryByRole('button', { name: 'Exit' })).toBeNull();
    visitor.unmount();

    startSession('tok');
    const member = renderApp('/about/index');
    fireEvent.click(await screen.findByRole('button', { name: 'Open menu' }));
    nav = await screen.findByRole('navigation', { name: 'Main menu' });
    expect(within(nav).getByRole('link', { name: 'Overview' }).getAttribute('href')).toBe('/user/index?key=all');
    expect(within(nav).getByRole('link', { name: 'My Assets' }).getAttribute('href')).toBe('/assets/index?key=overview');
    expect(within(nav).getByRole('link', { name: 'Help' }).getAttribute('href')).toBe('/user/index?key=helper');
    expect(within(nav).getByRole('link', { name: 'Company' }).getAttribute('href')).toBe('/about/index');
    expect(within(nav).queryByRole('link', { name: 'Sign in' })).toBeNull();

    fireEvent.click(within(nav).getByRole('button', { name: 'Exit' }));
    await waitFor(() => expect(path(member.router)).toBe('/home/index'));
    expect(document.cookie).not.toContain('coin-access-token=tok');
  });

  it('keeps the chosen time zone (persisted), the platform default until one is chosen', async () => {
    renderApp('/home/index');
    fireEvent.click(await screen.findByRole('button', { name: 'Open menu' }));
    const nav = await screen.findByRole('navigation', { name: 'Main menu' });
    const zone = within(nav).getByRole('combobox', { name: 'Time zone' }) as HTMLSelectElement;
    expect(zone.value).toBe('America/New_York');
    expect(within(zone).getAllByRole('option')).toHaveLength(38);
    fireEvent.change(zone, { target: { value: 'Asia/Shanghai' } });
    expect(zone.value).toBe('Asia/Shanghai');
    expect(localStorage.getItem('coin_web-timeZone')).toBe('Asia/Shanghai');
  });

  it('opens the support chat from the side menu', async () => {
    renderApp('/home/index');
    expect(screen.queryByRole('dialog', { name: 'Online Customer Service' })).toBeNull();
    fireEvent.click(await screen.findByRole('button', { name: 'Open menu' }));
    const nav = await screen.findByRole('navigation', { name: 'Main menu' });
    fireEvent.click(within(nav).getByRole('button', { name: 'Online Customer' }));
    const chat = await screen.findByRole('dialog', { name: 'Online Customer Service' });
    expect(await within(chat).findByRole('button', { name: 'Start chat' })).toBeTruthy();
    fireEvent.click(within(chat).getByRole('button', { name: 'Close chat' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Online Customer Service' })).toBeNull());
  });

  it('switches language (persisted, <html lang>) and theme (persisted)', async () => {
    renderApp('/home/index');
    const language = await screen.findByRole('combobox', { name: 'Language' });
    // The options are named in their own language (and marked so), the current one selected.
    expect(screen.getByRole('option', { name: 'Deutsch', hidden: true }).getAttribute('lang')).toBe('de');
    expect(screen.getByRole('option', { name: 'English', hidden: true }).getAttribute('aria-selected')).toBe('true');
    await pickOption(language, 'Deutsch');
    expect(await screen.findByRole('link', { name: 'Anmelden' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('de');
    expect(localStorage.getItem('coin_web-lang')).toBe('de');
    expect(screen.getByRole('combobox', { name: 'Sprache' })).toBeTruthy();

    // A toggle button: its name stays, its pressed state says whether the dark theme is on.
    const theme = screen.getByRole('button', { name: 'Dunkles Design' });
    expect(theme.getAttribute('aria-pressed')).toBe('false');
    expect(theme.getAttribute('title')).toBe('Zum dunklen Design wechseln');
    fireEvent.click(theme);
    await waitFor(() => expect(document.documentElement.classList.contains('dark')).toBe(true));
    expect(localStorage.getItem('coin_web-theme')).toBe('dark');
    expect(screen.getByRole('button', { name: 'Dunkles Design' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Dunkles Design' }).getAttribute('title')).toBe('Zum hellen Design wechseln');
  });
});
