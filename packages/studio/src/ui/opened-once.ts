import { useState } from 'react';

/**
 * False until `open` is first true, then true for good: a dialog whose code loads on demand is
 * rendered (and fetched) from its first opening on, and stays mounted so it can close normally.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  // Set during render (React's pattern for state derived from props): the dialog mounts in this same pass.
  if (open && !opened) setOpened(true);
  return opened || open;
}
