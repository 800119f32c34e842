import { errorMessage } from '../api/api-client.js';

/** An admin page's alert when its data did not load: the server's message, or `fallback` when it sent none. */
export function LoadFailure({ query, fallback }: { query: { isError: boolean; error: unknown }; fallback: string }) {
  return query.isError ? (
    <p className="rs-alert rs-alert--error" role="alert">
      {errorMessage(query.error, fallback)}
    </p>
  ) : null;
}
