import { lazy, useState, type ComponentType, type JSX } from 'react';

export interface Preloadable<P extends object> {
  /** Renders the component; suspends (nearest Suspense shows its fallback) only if its code is not here yet. */
  Component: (props: P) => JSX.Element;
  /** Starts fetching the code; every call shares one request, and a failed one may be retried. */
  preload: () => Promise<unknown>;
}

/**
 * A component whose code loads on demand and can be fetched ahead (a link's hover, the splash).
 * React.lazy alone suspends on its first render even when the code has already arrived, which
 * flashes the fallback and moves the page when it is replaced; this renders the loaded component
 * directly instead. The choice is made once per mount, so a later render never swaps the lazy
 * wrapper for the component and throws away the state inside it.
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<{ default: ComponentType<P> }> | null = null;
  const preload = () => {
    pending ??= load().then(
      (component) => {
        loaded = component;
        return { default: component };
      },
      (error: unknown) => {
        pending = null;
        throw error;
      },
    );
    return pending;
  };
  const Lazy = lazy(preload);
  function Component(props: P) {
    const [Loaded] = useState(() => loaded);
    return Loaded ? <Loaded {...props} /> : <Lazy {...props} />;
  }
  return { Component, preload };
}
