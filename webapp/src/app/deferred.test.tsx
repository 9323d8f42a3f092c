import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { DeferredWidget, deferredModule } from './deferred';

/** The real widget: its trigger opens a dialog. */
function Widget() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" aria-haspopup="dialog" data-real="" onClick={() => setOpen((was) => !was)}>
        Options
      </button>
      {open && <div role="dialog" aria-label="Options" />}
    </>
  );
}

/** A widget module whose arrival the test decides. */
function controlledModule() {
  let arrive: () => void = () => {};
  let fetches = 0;
  const deferred = deferredModule(() => {
    fetches += 1;
    return new Promise<{ Widget: typeof Widget }>((resolve) => (arrive = () => resolve({ Widget })));
  });
  const view = render(
    <DeferredWidget deferred={deferred} placeholder={<button type="button" aria-haspopup="dialog">Options</button>}>
      {(m) => <m.Widget />}
    </DeferredWidget>,
  );
  const trigger = () => screen.getByRole('button', { name: 'Options' });
  return { view, trigger, fetches: () => fetches, arrive: () => act(async () => arrive()) };
}

describe('DeferredWidget', () => {
  it('draws the placeholder without fetching, and fetches on the first pointer over it, once', async () => {
    const widget = controlledModule();
    expect(widget.trigger().hasAttribute('data-real')).toBe(false);
    expect(widget.fetches()).toBe(0);
    fireEvent.pointerOver(widget.trigger());
    fireEvent.pointerOver(widget.trigger());
    expect(widget.fetches()).toBe(1);
    await widget.arrive();
    expect(widget.trigger().hasAttribute('data-real')).toBe(true);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('replays a press made before the widget arrived, and keeps the focus', async () => {
    const widget = controlledModule();
    widget.trigger().focus();
    fireEvent.pointerDown(widget.trigger());
    fireEvent.click(widget.trigger());
    expect(screen.queryByRole('dialog')).toBeNull();
    await widget.arrive();
    expect(await screen.findByRole('dialog', { name: 'Options' })).toBeTruthy();
    expect(document.activeElement).toBe(widget.trigger());
    expect(widget.trigger().hasAttribute('data-real')).toBe(true);
  });

  it('moves the focus to the widget when it arrives while the placeholder has it (keyboard users)', async () => {
    const widget = controlledModule();
    act(() => widget.trigger().focus());
    await widget.arrive();
    expect(document.activeElement).toBe(widget.trigger());
    expect(widget.trigger().hasAttribute('data-real')).toBe(true);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('does not swap in the middle of a press: the widget waits for the click, then gets it', async () => {
    const widget = controlledModule();
    const placeholder = widget.trigger();
    fireEvent.pointerDown(placeholder);
    await widget.arrive();
    // Still the element the press started on.
    expect(widget.trigger()).toBe(placeholder);
    fireEvent.pointerUp(placeholder);
    fireEvent.click(placeholder);
    expect(await screen.findByRole('dialog', { name: 'Options' })).toBeTruthy();
    expect(widget.trigger().hasAttribute('data-real')).toBe(true);
  });
});
