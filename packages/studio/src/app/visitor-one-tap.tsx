import { useGoogleIdentity } from '../login/use-google-identity.js';
import { usePlatform } from '../platform.js';

/**
 * One Tap for visitors anywhere in the shell (the login screen runs its own, which navigates
 * instead). A sign-in here reloads the page, so every view starts
 * over signed in.
 */
export function VisitorOneTap() {
  const platform = usePlatform();
  useGoogleIdentity({ oneTap: true, onOneTapSignedIn: () => platform.navigation.reload() });
  return null;
}
