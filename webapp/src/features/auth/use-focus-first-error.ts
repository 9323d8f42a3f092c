/**
 * After a submit that found errors, moves the focus to the first invalid field of the form.
 *
 * @module
 */

import { type RefObject, useEffect, useState } from 'react';

/** Returns `focusFirstError()`: call it after setting errors; `formRef` is the form. */
export function useFocusFirstError(formRef: RefObject<HTMLFormElement | null>): () => void {
  const [request, setRequest] = useState(0);
  useEffect(() => {
    if (request === 0) return;
    const invalid = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    invalid?.focus();
  }, [request, formRef]);
  return () => setRequest((n) => n + 1);
}
