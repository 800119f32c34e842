import type { FocusEvent, KeyboardEvent, PointerEvent } from 'react';

/** The attribute the tab strips' CSS reads to hide the focus ring after a pointer press. */
export const POINTER_FOCUS_ATTRIBUTE = 'data-pointer-focus';

/**
 * Props for a Radix Tabs.List so its focus ring shows for keyboard users only. Radix focuses a
 * tab from script on mousedown, and Chromium then matches :focus-visible as if the keyboard had
 * moved focus, so :focus-visible alone draws the ring on every click. The list marks a pointer
 * press and forgets it on the next key press or when focus leaves the strip, so tabbing back in
 * shows the ring again.
 */
export const keyboardOnlyTabFocus = {
  onPointerDown(event: PointerEvent<HTMLElement>) {
    event.currentTarget.setAttribute(POINTER_FOCUS_ATTRIBUTE, '');
  },
  onKeyDown(event: KeyboardEvent<HTMLElement>) {
    event.currentTarget.removeAttribute(POINTER_FOCUS_ATTRIBUTE);
  },
  onBlur(event: FocusEvent<HTMLElement>) {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) event.currentTarget.removeAttribute(POINTER_FOCUS_ATTRIBUTE);
  },
};
