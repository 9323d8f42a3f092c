import { describe, expect, it } from 'vitest';
import { ARTICLE_INDEX_PATH, articleRouteOf, breadcrumbOf, returnsToIndexOnLanguageChange } from './breadcrumb';

describe('articleRouteOf', () => {
  it('reads the four article routes', () => {
    expect(articleRouteOf('/article/main/index')).toEqual({ page: 'index' });
    expect(articleRouteOf('/article/main/categories/3')).toEqual({ page: 'category', id: 3 });
    expect(articleRouteOf('/article/main/sections/12/')).toEqual({ page: 'section', id: 12 });
    expect(articleRouteOf('/article/main/content/article/7')).toEqual({ page: 'content', type: 'article', id: 7 });
  });
  it('refuses malformed ids and other paths', () => {
    expect(articleRouteOf('/article/main/categories/0')).toEqual({ page: 'unknown' });
    expect(articleRouteOf('/article/main/sections/abc')).toEqual({ page: 'unknown' });
    expect(articleRouteOf('/article/main/content/Article/7')).toEqual({ page: 'unknown' });
    expect(articleRouteOf('/rule/index')).toEqual({ page: 'unknown' });
  });
});

describe('the language rule', () => {
  it('sends every article page but the index back to the index', () => {
    expect(returnsToIndexOnLanguageChange('/article/main/content/article/7')).toBe(true);
    expect(returnsToIndexOnLanguageChange('/article/main/sections/2')).toBe(true);
    expect(returnsToIndexOnLanguageChange('/article/main/categories/1')).toBe(true);
    expect(returnsToIndexOnLanguageChange(ARTICLE_INDEX_PATH)).toBe(false);
    expect(returnsToIndexOnLanguageChange('/rule/index')).toBe(false);
  });
});

describe('breadcrumbOf', () => {
  const trail = {
    indexLabel: 'Articles',
    category: { id: 1, title: 'Getting started' },
    section: { id: 2, title: 'First steps' },
    article: { id: 7, type: 'article', title: 'Your first deposit' },
  };
  it('shows none on the index', () => {
    expect(breadcrumbOf({ page: 'index' }, trail)).toEqual([]);
  });
  it('ends with the article, the only crumb without a link', () => {
    expect(breadcrumbOf({ page: 'content', type: 'article', id: 7 }, trail)).toEqual([
      { label: 'Articles', to: ARTICLE_INDEX_PATH },
      { label: 'Getting started', to: '/article/main/categories/1' },
      { label: 'First steps', to: '/article/main/sections/2' },
      { label: 'Your first deposit' },
    ]);
  });
  it('stops at the page: a category shows no section', () => {
    expect(breadcrumbOf({ page: 'category', id: 1 }, trail)).toEqual([{ label: 'Articles', to: ARTICLE_INDEX_PATH }, { label: 'Getting started' }]);
    expect(breadcrumbOf({ page: 'section', id: 2 }, { ...trail, article: undefined }).map((c) => c.label)).toEqual(['Articles', 'Getting started', 'First steps']);
  });
  it('keeps the index a link while the titles load', () => {
    expect(breadcrumbOf({ page: 'section', id: 2 }, { indexLabel: 'Articles' })).toEqual([{ label: 'Articles', to: ARTICLE_INDEX_PATH }]);
  });
});
