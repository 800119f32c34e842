/**
 * Google Identity Services, loaded lazily and only when the server has a Google client id
 * (GET /auth/config). One Tap and the "continue with Google" buttons share one initialisation,
 * because GIS keeps a single global callback.
 */

export interface GoogleCredentialResponse {
  credential: string;
  /** 'btn…' when a rendered button was used; 'auto', 'user', 'user_1tap', … for One Tap. */
  select_by?: string;
}

interface GoogleAccountsId {
  initialize(config: {
    client_id: string;
    callback: (response: GoogleCredentialResponse) => void;
    auto_select?: boolean;
    cancel_on_tap_outside?: boolean;
    use_fedcm_for_prompt?: boolean;
  }): void;
  prompt(): void;
  cancel(): void;
  renderButton(parent: HTMLElement, options: Record<string, string | number>): void;
}

declare global {
  interface Window {
    google?: { accounts: { id: GoogleAccountsId } };
  }
}

export const GSI_SCRIPT_URL = 'https://accounts.google.com/gsi/client';

let scriptPromise: Promise<GoogleAccountsId> | null = null;

export function loadGoogleIdentity(): Promise<GoogleAccountsId> {
  if (window.google?.accounts?.id) return Promise.resolve(window.google.accounts.id);
  scriptPromise ??= new Promise<GoogleAccountsId>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GSI_SCRIPT_URL;
    script.async = true;
    script.defer = true;
    script.onload = () =>
      window.google?.accounts?.id ? resolve(window.google.accounts.id) : reject(new Error('Google Identity Services did not load'));
    script.onerror = () => {
      scriptPromise = null;
      reject(new Error('Google Identity Services script failed to load'));
    };
    document.head.appendChild(script);
  });
  return scriptPromise;
}

type CredentialHandler = (response: GoogleCredentialResponse) => void;

let initialisedFor: string | null = null;
let currentHandler: CredentialHandler | null = null;

/** Initialises GIS once per client id; the latest handler receives every credential. */
export async function initGoogleIdentity(clientId: string, handler: CredentialHandler): Promise<GoogleAccountsId> {
  const id = await loadGoogleIdentity();
  currentHandler = handler;
  if (initialisedFor !== clientId) {
    id.initialize({
      client_id: clientId,
      callback: (response) => currentHandler?.(response),
      cancel_on_tap_outside: true,
      use_fedcm_for_prompt: true,
    });
    initialisedFor = clientId;
  }
  return id;
}

export const isButtonSelection = (response: GoogleCredentialResponse): boolean => (response.select_by ?? '').startsWith('btn');
