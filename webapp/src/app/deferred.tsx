/**
 * Widgets whose code is fetched on first use instead of with the page: the shell's menus, language
 * list and toaster carry state machines (Ark / Zag) that no page needs to draw itself.
 *
 * A {@link DeferredWidget} shows a placeholder of the same size, role and name as the widget's
 * trigger; the first pointer over it, focus on it or press of it fetches the widget, which then
 * replaces the placeholder. A press before the widget has arrived is replayed on the widget's
 * trigger once it has, and focus moves with the swap, so nothing is lost and nothing moves.
 *
 * @module
 */

import { type ReactElement, type ReactNode, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { Area } from '../i18n/areas';
import { loadWithAreas } from './lazy-screen';

/** A module fetched once, on demand, with the i18n areas it needs. */
export interface DeferredModule<M> {
  /** The module once it has arrived. */
  current: () => M | undefined;
  /** Fetches it (once; after a failure the next call tries again). */
  load: () => Promise<M>;
  /** Calls `listener` when it arrives; answers the unsubscribe. */
  subscribe: (listener: () => void) => () => void;
}

/** A {@link DeferredModule} of `load` and the texts of `areas` (`SCREEN_AREAS[…]`). */
export function deferredModule<M>(load: () => Promise<M>, areas: readonly Area[] = []): DeferredModule<M> {
  let module: M | undefined;
  let pending: Promise<M> | null = null;
  const listeners = new Set<() => void>();
  return {
    current: () => module,
    load() {
      pending ??= loadWithAreas(load, areas).then(
        (loaded) => {
          module = loaded;
          for (const listener of listeners) listener();
          return loaded;
        },
        (error: unknown) => {
          pending = null;
          throw error;
        },
      );
      return pending;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The module of `deferred`, re-rendering when it arrives (`undefined` until then). */
export function useDeferredModule<M>(deferred: DeferredModule<M>): M | undefined {
  return useSyncExternalStore(deferred.subscribe, deferred.current, deferred.current);
}

// What can be focused or pressed in a widget: its trigger is the first of these.
const TRIGGER = 'button, [role="combobox"], a[href], [tabindex]:not([tabindex="-1"])';

/**
 * `placeholder` until `deferred` has arrived, then `children(module)`. See the module comment.
 * The placeholder must look like the widget's trigger, with the same role and accessible name, and
 * do nothing itself.
 */
export function DeferredWidget<M>({
  deferred,
  placeholder,
  children,
}: {
  deferred: DeferredModule<M>;
  placeholder: ReactElement;
  children: (module: M) => ReactNode;
}) {
  const module = useDeferredModule(deferred);
  // A press in progress on the placeholder: swapping it now would split the press in two.
  const [pressing, setPressing] = useState(false);
  const box = useRef<HTMLSpanElement>(null);
  const pressed = useRef(false);
  const focused = useRef(false);
  const ready = module !== undefined && !pressing;

  useEffect(() => {
    if (!ready) return;
    const trigger = box.current?.querySelector<HTMLElement>(TRIGGER);
    if (pressed.current) {
      trigger?.focus();
      trigger?.click();
    } else if (focused.current) {
      trigger?.focus();
    }
    pressed.current = false;
    focused.current = false;
  }, [ready]);

  const fetch = () => {
    deferred.load().catch((error: unknown) => console.error('A widget could not be loaded', error));
  };

  if (ready) {
    return (
      <span ref={box} style={{ display: 'contents' }}>
        {children(module)}
      </span>
    );
  }
  return (
    <span
      ref={box}
      style={{ display: 'contents' }}
      onPointerOver={fetch}
      onFocus={() => {
        focused.current = true;
        fetch();
      }}
      onBlur={() => {
        focused.current = false;
      }}
      onPointerDown={() => {
        setPressing(true);
        fetch();
        // The press ends with the click (below) or, released elsewhere, without one.
        window.addEventListener('pointerup', () => setTimeout(() => setPressing(false)), { once: true });
      }}
      onClick={() => {
        pressed.current = true;
        setPressing(false);
        fetch();
      }}
    >
      {placeholder}
    </span>
  );
}
