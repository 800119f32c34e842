/** What marks a field as wrong in the studio's forms: its own aria-invalid, its wrapper, or its message. */
const INVALID = '[aria-invalid="true"], .rs-field--invalid input, .rs-field--invalid select, .rs-field--invalid textarea, .rs-field__error';
/** A field's own controls first (a voice's radio button), its other buttons (a tab, a preview) only after. */
const CONTROLS = 'input:not([disabled]), select:not([disabled]), textarea:not([disabled])';

/**
 * Scrolls the form's first invalid field (in page order) into the middle of its scroller and focuses
 * it, so a refused submit shows what to fix even when the field sits far below (a popup's voice list).
 * A field known only by its message (the voice list) gets its first control focused. Returns the
 * element focused, or null when nothing is marked invalid.
 */
export function focusFirstInvalidField(form: HTMLElement): HTMLElement | null {
  const first = form.querySelector<HTMLElement>(INVALID);
  if (!first) return null;
  let target: HTMLElement | null = first;
  if (first.matches('.rs-field__error')) {
    const field = first.closest<HTMLElement>('.rs-voice-picker, .rs-field') ?? first;
    target = field.querySelector<HTMLElement>(CONTROLS) ?? field.querySelector<HTMLElement>('button:not([disabled])');
    if (!target) {
      // Nothing to focus inside (no voices listed yet): the message itself takes focus, so a screen reader reads it.
      first.tabIndex = -1;
      target = first;
    }
  }
  // jsdom has no scrollIntoView; every browser does.
  target.scrollIntoView?.({ block: 'center' });
  target.focus({ preventScroll: true });
  return target;
}
