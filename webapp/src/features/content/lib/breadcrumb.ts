/**
 * The article routes (spec section 2): `/article/main/index`, `categories/{id}`, `sections/{id}` and
 * `content/{type}/{id}`. A breadcrumb shows on every page but the index: the article index, then the
 * category, the section and the article above the page, each a link but the last.
 *
 * @module
 */

/** The article index. */
export const ARTICLE_INDEX_PATH = '/article/main/index';

/** Which article page a path is. */
export type ArticleRoute =
  | { page: 'index' }
  | { page: 'category'; id: number }
  | { page: 'section'; id: number }
  | { page: 'content'; type: string; id: number }
  | { page: 'unknown' };

const ID = /^[1-9]\d{0,15}$/;

/** The article page of `pathname` (`unknown` for a malformed id or another path). */
export function articleRouteOf(pathname: string): ArticleRoute {
  const parts = pathname.replace(/\/+$/, '').split('/').filter(Boolean);
  if (parts[0] !== 'article' || parts[1] !== 'main') return { page: 'unknown' };
  const [, , page, first, second] = parts;
  if (page === 'index' && parts.length === 3) return { page: 'index' };
  if ((page === 'categories' || page === 'sections') && parts.length === 4 && first && ID.test(first)) {
    return { page: page === 'categories' ? 'category' : 'section', id: Number(first) };
  }
  if (page === 'content' && parts.length === 5 && first && second && /^[a-z-]{1,24}$/.test(first) && ID.test(second)) {
    return { page: 'content', type: first, id: Number(second) };
  }
  return { page: 'unknown' };
}

/** Whether a language change on `pathname` goes back to the article index (every article page but the index). */
export function returnsToIndexOnLanguageChange(pathname: string): boolean {
  const route = articleRouteOf(pathname);
  return route.page !== 'index' && route.page !== 'unknown';
}

import type { Crumb } from '../../../components/content/content-parts';

export type { Crumb };

/** What the page knows of its place: the category, section and article titles it has read. */
export interface Trail {
  indexLabel: string;
  category?: { id: number; title: string };
  section?: { id: number; title: string };
  article?: { id: number; type: string; title: string };
}

/** The path of a category, section or article. */
export function categoryPath(id: number): string {
  return `/article/main/categories/${id}`;
}
/** The path of a section. */
export function sectionPath(id: number): string {
  return `/article/main/sections/${id}`;
}
/** The path of an article (`type` is its kind: `article`, `help`, `announcement`). */
export function contentPath(type: string, id: number): string {
  return `/article/main/content/${type}/${id}`;
}

/**
 * The breadcrumb of a page: none on the index; otherwise the index, then each known ancestor down
 * to the page, every crumb a link but the last.
 */
export function breadcrumbOf(route: ArticleRoute, trail: Trail): Crumb[] {
  if (route.page === 'index' || route.page === 'unknown') return [];
  const crumbs: Crumb[] = [{ label: trail.indexLabel, to: ARTICLE_INDEX_PATH }];
  if (trail.category) crumbs.push({ label: trail.category.title, to: categoryPath(trail.category.id) });
  if (route.page !== 'category' && trail.section) crumbs.push({ label: trail.section.title, to: sectionPath(trail.section.id) });
  if (route.page === 'content' && trail.article) crumbs.push({ label: trail.article.title, to: contentPath(trail.article.type, trail.article.id) });
  const last = crumbs[crumbs.length - 1];
  if (crumbs.length > 1 && last) delete last.to;
  return crumbs;
}
