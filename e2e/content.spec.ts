/**
 * Content end to end: an operator publishes an announcement in /admin and a member on another page
 * sees its toast and the bell's unread count rise live (`/ws/business/notice`); the article routes
 * show a breadcrumb and return to the article index on a language change; a `<script>` written into
 * an article never runs.
 *
 * @module
 */

import type { APIRequestContext, Page } from '@playwright/test';
import { apiPost, expect, t, test } from './fixtures';
import { newOperator } from './operator';

const en = (key: string, params?: Record<string, string | number>) => t('en', key, params);

/** The operator's session token (from its page's cookie). */
async function tokenOf(page: Page): Promise<string> {
  return (await page.context().cookies()).find((c) => c.name === 'coin-access-token')!.value;
}

/** The first article section's id (cgform, all rows). */
async function firstSection(request: APIRequestContext): Promise<number> {
  const response = await request.get('/api/coin/cgform-api/getData/article_section?pageSize=-521&column=position&order=asc');
  const body = (await response.json()) as { data: { records: { id: number }[] } };
  return body.data.records[0]!.id;
}

test('an operator publishes an announcement and a member on another page sees the toast and the badge live', async ({ member: page, browser, baseURL, request }) => {
  await page.goto('/home/index');
  // The bell's listener arrives after the first paint and counts the shipped announcements as unread.
  const bell = page.getByRole('link', { name: /^Announcements, unread: \d+$/ });
  await expect(bell).toBeVisible();
  const before = Number((await bell.getAttribute('aria-label'))!.match(/\d+$/)![0]);

  const operator = await newOperator(browser, baseURL!, request);
  await operator.goto('/admin?queue=content');
  await operator.getByRole('button', { name: en('content.admin.new') }).click();
  const editor = operator.getByRole('region', { name: en('content.admin.newEntry', { kind: en('content.admin.kinds.announcement') }) });
  const title = `Maintenance window ${Date.now()}`;
  await editor.getByLabel(en('content.admin.slug')).fill(`maintenance-${Date.now()}`);
  await editor.getByLabel(en('content.admin.title')).fill(title);
  await editor.getByLabel(en('content.admin.body')).fill('Deposits pause for **ten minutes** tonight.');
  await editor.getByRole('tab', { name: en('content.admin.preview') }).click();
  await expect(editor.getByText('ten minutes', { exact: true })).toBeVisible();
  await editor.getByRole('button', { name: en('content.admin.save') }).click();
  await operator.getByRole('button', { name: en('content.admin.publish') }).click();
  await expect(operator.getByText(en('content.admin.textStatus', { lang: 'en', status: en('content.admin.status.published') }))).toBeVisible();

  // The member, who never reloaded, gets the toast and one more unread announcement.
  await expect(page.getByText(title)).toBeVisible();
  await expect(page.getByText(en('content.notices.toast'))).toBeVisible();
  await expect(page.getByRole('link', { name: en('content.notices.bellUnread', { count: before + 1 }) })).toBeVisible();
  // Opening it marks it read.
  await page.getByRole('link', { name: en('content.notices.bellUnread', { count: before + 1 }) }).click();
  await page.getByRole('link', { name: new RegExp(title) }).click();
  await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible();
  await expect(page.getByRole('link', { name: en('content.notices.bellUnread', { count: before }) })).toBeVisible();
});

test('the article pages show a breadcrumb, and a language change returns to the article index', async ({ page, shell }) => {
  await page.goto('/article/main/index');
  await expect(page.getByRole('heading', { level: 1, name: en('content.articles.title') })).toBeVisible();
  await expect(page.getByRole('navigation', { name: en('content.breadcrumb') })).toHaveCount(0);

  const sectionList = page.getByRole('list').filter({ has: page.getByRole('link') }).first();
  const sectionLink = sectionList.getByRole('link').first();
  const sectionName = (await sectionLink.textContent())!;
  await sectionLink.click();
  await expect(page).toHaveURL(/\/article\/main\/sections\/\d+$/);
  const crumbs = page.getByRole('navigation', { name: en('content.breadcrumb') });
  await expect(crumbs.getByRole('link', { name: en('content.articles.title') })).toHaveAttribute('href', '/article/main/index');
  await expect(crumbs.getByText(sectionName, { exact: true })).toHaveAttribute('aria-current', 'page');

  const articleLink = page.getByRole('list', { name: en('content.articles.articles') }).getByRole('link').first();
  const articleName = (await articleLink.textContent())!;
  await articleLink.click();
  await expect(page).toHaveURL(/\/article\/main\/content\/article\/\d+$/);
  await expect(crumbs.getByRole('link', { name: sectionName })).toBeVisible();
  await expect(crumbs.getByText(articleName, { exact: true })).toHaveAttribute('aria-current', 'page');

  await shell.switchLanguage('de');
  await expect(page).toHaveURL(/\/article\/main\/index$/);
  await expect(page.getByRole('heading', { level: 1, name: t('de', 'content.articles.title') })).toBeVisible();
});

test('a <script> written into an article never runs', async ({ page, browser, baseURL, request }) => {
  const operator = await newOperator(browser, baseURL!, request);
  const token = await tokenOf(operator);
  const section = await firstSection(request);
  const entry = await apiPost<{ id: number }>(
    request,
    '/api/admin/content/save',
    {
      kind: 'article',
      slug: `evil-${Date.now()}`,
      lang: 'en',
      parentId: section,
      title: 'Evil article',
      body: 'Before <script>window.__pwned = 1</script> <img src=x onerror="window.__pwned = 2">\n\n[click](javascript:window.__pwned=3)',
    },
    token,
  );
  await apiPost(request, `/api/admin/content/${entry.id}/publish`, { lang: 'en' }, token);

  await page.goto(`/article/main/content/article/${entry.id}`);
  const article = page.getByRole('article', { name: 'Evil article' });
  await expect(article.getByText(/<script>window.__pwned = 1<\/script>/)).toBeVisible();
  await article.getByText('click').click();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(article.locator('script')).toHaveCount(0);
});
