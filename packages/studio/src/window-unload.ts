// Its own module: the extension groups shared code by module, and only the views that edit need it.
/** The browser's own "Leave site?" question over a window's beforeunload, for hosts to hand in as `guardUnload`. */
export function guardWindowUnload(target: Pick<Window, 'addEventListener' | 'removeEventListener'>): () => void {
  const ask = (event: BeforeUnloadEvent) => {
    event.preventDefault();
    // Chromium before 119 asks only when returnValue is set.
    event.returnValue = '';
  };
  target.addEventListener('beforeunload', ask);
  return () => target.removeEventListener('beforeunload', ask);
}
