import { createContext, useContext } from 'react';

/**
 * Starts loading a route's code when the visitor shows intent (a hover, a focus). The app knows
 * which pages load on demand and provides it; the shell only says where the visitor is heading.
 */
export type PreloadRoute = (path: string) => void;

const PreloadRouteContext = createContext<PreloadRoute>(() => undefined);

export const PreloadRouteProvider = PreloadRouteContext.Provider;

export function usePreloadRoute(): PreloadRoute {
  return useContext(PreloadRouteContext);
}
