import { useEffect, useState } from 'react';

/**
 * `value` once it has stayed unchanged for `delayMs`; `undefined` until then on first render, so
 * even the first value waits out the delay.
 */
export function useDebouncedValue<T>(value: T, delayMs: number): T | undefined {
  const [debounced, setDebounced] = useState<T | undefined>(undefined);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}
