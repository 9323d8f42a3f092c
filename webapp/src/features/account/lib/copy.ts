/**
 * Copies text to the clipboard and says so in a toast ('Copy successful' / 'Copy Failed!').
 *
 * @module
 */

import type { TFunction } from 'i18next';
import { toaster } from '../../../lib/toaster';

async function writeClipboard(text: string): Promise<void> {
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // Denied (no permission or no user gesture): try the selection fallback below.
    }
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    if (!document.execCommand('copy')) throw new Error('copy refused');
  } finally {
    area.remove();
  }
}

/** Copies `text`; toasts the outcome and resolves whether it worked. */
export async function copyText(text: string, t: TFunction): Promise<boolean> {
  try {
    await writeClipboard(text);
    toaster.create({ type: 'success', title: t('account.copy.success') });
    return true;
  } catch {
    toaster.create({ type: 'error', title: t('account.copy.failed') });
    return false;
  }
}
