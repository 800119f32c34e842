import { MESSAGES } from '@reelsmith/contracts';
import { useEffect, useRef, useState } from 'react';
import { toast } from '../toaster.js';
import { useNavigate } from 'react-router';
import { errorMessage } from '../api/api-client.js';
import { useAnalytics, useAuth } from '../services.js';
import { initGoogleIdentity, isButtonSelection, type GoogleCredentialResponse } from '../auth/google-identity.js';
import { useGoogleClientId } from './google-client-id.js';

export { useGoogleClientId };

type GoogleAccountsId = Awaited<ReturnType<typeof initGoogleIdentity>>;

export interface GoogleIdentityOptions {
  oneTap: boolean;
  /** Runs after a One Tap sign-in has succeeded and its welcome toast is up. */
  onOneTapSignedIn?: () => void;
}

/**
 * Loads Google Identity Services when a client id exists, signs in with each credential it hands
 * back, and shows One Tap to a signed-out viewer when `oneTap` is set.
 */
export function useGoogleIdentity({ oneTap, onOneTapSignedIn }: GoogleIdentityOptions): GoogleAccountsId | null {
  const clientId = useGoogleClientId();
  const googleLogin = useAuth((s) => s.googleLogin);
  const isAuthenticated = useAuth((s) => s.isAuthenticated);
  const analytics = useAnalytics();
  const navigate = useNavigate();
  const [gis, setGis] = useState<GoogleAccountsId | null>(null);
  const handlerRef = useRef<(response: GoogleCredentialResponse) => void>(() => undefined);

  handlerRef.current = (response) => {
    const fromButton = isButtonSelection(response);
    googleLogin(response.credential)
      .then((user) => {
        analytics.track({ type: 'login', method: 'google' });
        if (fromButton) {
          // Same destination as the e-mail sign-in: the studio.
          void navigate('/');
        } else {
          toast.success(MESSAGES.oneTapSuccess(user.name));
          onOneTapSignedIn?.();
        }
      })
      .catch((error: unknown) => {
        toast.error(errorMessage(error, fromButton ? MESSAGES.googleLoginFailed : MESSAGES.oneTapFailed));
      });
  };

  useEffect(() => {
    if (!clientId) return;
    let cancelled = false;
    initGoogleIdentity(clientId, (response) => handlerRef.current(response))
      .then((id) => {
        if (!cancelled) setGis(id);
      })
      .catch((error: unknown) => console.error('Google sign-in is unavailable', error));
    return () => {
      cancelled = true;
    };
  }, [clientId]);

  useEffect(() => {
    if (!gis || !oneTap || isAuthenticated) return;
    gis.prompt();
    return () => gis.cancel();
  }, [gis, oneTap, isAuthenticated]);

  return gis;
}

/** A rendered "Continue with Google" / "Sign up with Google" button. */
export function GoogleButton({ gis, text }: { gis: GoogleAccountsId; text: 'continue_with' | 'signup_with' }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!container.current) return;
    try {
      gis.renderButton(container.current, {
        type: 'standard',
        theme: 'outline',
        size: 'large',
        shape: 'pill',
        text,
        width: 320,
        logo_alignment: 'center',
      });
    } catch (error) {
      // A Google button failure is logged to the console only: e-mail sign-in still works.
      console.error('Rendering the Google button failed', error);
    }
  }, [gis, text]);
  return <div className="rs-google-button" ref={container} />;
}
