/**
 * Sets the document title to "<screen> · <site name>".
 *
 * @module
 */

import { useEffect } from 'react';
import { useSiteName } from './use-settings';

export function useDocumentTitle(screen: string): void {
  const siteName = useSiteName();
  useEffect(() => {
    document.title = screen && screen !== siteName ? `${screen} · ${siteName}` : siteName;
  }, [screen, siteName]);
}
