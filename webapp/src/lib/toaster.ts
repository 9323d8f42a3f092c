/**
 * The app's single toast store; `src/components/toaster.tsx` renders it.
 *
 * @module
 */

import { createToaster } from '@chakra-ui/react';

/** Create toasts with `toaster.create({ type, title, description })`. */
export const toaster = createToaster({ placement: 'top-end', pauseOnPageIdle: true, max: 4 });
