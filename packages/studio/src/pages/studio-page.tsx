import { StudioView } from '../studio/studio-view.js';

/** The Video Studio route (spec section 2); its parts live in ../studio. */
export function StudioPage() {
  return <StudioView />;
}
