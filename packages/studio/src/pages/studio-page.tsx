import { StudioView } from './studio-view.js';

/** The Video Studio route; its parts live in ../studio. */
export function StudioPage() {
  return <StudioView />;
}
