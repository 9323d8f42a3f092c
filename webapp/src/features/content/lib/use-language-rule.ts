/**
 * The articles' language rule (spec section 2): a language change on an article page other than
 * the index returns to the article index (the page's category, section or article may not exist in
 * the new language's listing, and the reader sees the index in that language instead).
 *
 * @module
 */

import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { ARTICLE_INDEX_PATH, returnsToIndexOnLanguageChange } from './breadcrumb';

/** Applies the rule while the calling page is shown. */
export function useArticleLanguageRule(): void {
  const { i18n } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  useEffect(() => {
    const onChange = () => {
      if (returnsToIndexOnLanguageChange(pathname)) void navigate(ARTICLE_INDEX_PATH);
    };
    i18n.on('languageChanged', onChange);
    return () => i18n.off('languageChanged', onChange);
  }, [i18n, navigate, pathname]);
}
