import { WEB_SHELL, type WebShellBootRequests } from '@reelsmith/contracts';

function headerValue(init: RequestInit | undefined, name: string): string | null {
  if (!init?.headers) return null;
  return new Headers(init.headers).get(name);
}

/**
 * The page's fetch, except that the app's first session check (GET /auth/profile with the stored
 * token) is answered by the request index.html's boot script already started for it, once. Any
 * other request, or a check with another token, goes out as usual.
 */
export function fetchWithBootRequests(boot: WebShellBootRequests | undefined, fetchImpl: typeof fetch): typeof fetch {
  let profile = boot?.profile ?? null;
  return (input, init) => {
    if (
      profile &&
      input === WEB_SHELL.bootProfilePath &&
      (init?.method ?? 'GET').toUpperCase() === 'GET' &&
      headerValue(init, 'authorization') === `Bearer ${profile.token}`
    ) {
      const { response } = profile;
      profile = null;
      return response;
    }
    return fetchImpl(input, init);
  };
}
