// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { MESSAGES } from '@reelsmith/contracts';
import { cleanup, configure, screen, waitFor } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GoogleCredentialResponse } from '../auth/google-identity.js';
import { renderStudio, testApiKey, testApiKeyListed, testPlatform, testUser, type FakeHandler } from '../testing/render-studio.js';

// The studio's first render loads its routes lazily; a busy machine (the whole studio suite at once) needs more than the default 1 s.
configure({ asyncUtilTimeout: 4000 });

afterEach(() => {
  cleanup();
  toast.remove();
  delete window.google;
});

/** A stand-in for Google Identity Services whose One Tap prompt answers with a credential at once. */
function fakeGoogleIdentity(selectBy: string) {
  let callback: ((response: GoogleCredentialResponse) => void) | null = null;
  window.google = {
    accounts: {
      id: {
        initialize: (config) => {
          callback = config.callback;
        },
        prompt: () => callback?.({ credential: 'google-credential', select_by: selectBy }),
        cancel: () => undefined,
        renderButton: () => undefined,
      },
    },
  };
}

// Each test uses its own client id: GIS is initialised once per client id for the whole page.
const server =
  (clientId: string, google: { status?: number; body: unknown }): FakeHandler =>
  ({ path }) => {
    if (path === '/auth/config') return { body: { googleClientId: clientId } };
    if (path === '/auth/google') return google;
    if (path === '/auth/api-keys') return { body: { api_keys: [testApiKeyListed] } };
    if (path === '/payments/subscription') return { body: { subscription: null, usage: { videosThisMonth: 0 } } };
    if (path === '/api/analytics/events') return { body: { accepted: 1 } };
    if (path === '/api/videos') return { body: { jobs: [] } };
    return undefined;
  };

describe('visitor One Tap in the studio', () => {
  it('welcomes the user and reloads the page after a One Tap sign-in', async () => {
    fakeGoogleIdentity('user_1tap');
    const reload = vi.fn();
    const platform = testPlatform({ googleSignIn: true, navigation: { openTab: () => undefined, reload } });
    const google = { body: { token: 'g-token', user: testUser, api_key: testApiKey, session_id: 's1', message: 'Signed in' } };
    const rendered = renderStudio({ path: '/', platform, handler: server('client-success', google) });

    expect(await screen.findByText(MESSAGES.oneTapSuccess(testUser.name))).toBeInTheDocument();
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(rendered.services.authStore.getState().isAuthenticated).toBe(true);
  });

  it('stays on the page and reports a failed One Tap sign-in', async () => {
    fakeGoogleIdentity('user_1tap');
    const reload = vi.fn();
    const platform = testPlatform({ googleSignIn: true, navigation: { openTab: () => undefined, reload } });
    renderStudio({
      path: '/',
      platform,
      handler: server('client-failure', { status: 500, body: { statusCode: 500, error: 'Internal Server Error', message: '' } }),
    });

    expect(await screen.findByText(MESSAGES.oneTapFailed)).toBeInTheDocument();
    expect(reload).not.toHaveBeenCalled();
  });
});
