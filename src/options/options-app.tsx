import { useEffect, useState, type FormEvent } from 'react';
import { BUILD_API_BASE_URL, readApiBaseUrl } from '../extension-host/api-origin.js';
import { saveApiOrigin } from './api-origin-settings.js';
import './options.css';

/** The extension's options page: which Reelsmith server it talks to. */
export function OptionsApp() {
  const [current, setCurrent] = useState<string | null>(null);
  const [value, setValue] = useState('');
  const [status, setStatus] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    void readApiBaseUrl(chrome.storage.local).then((origin) => {
      setCurrent(origin);
      setValue(origin);
    });
  }, []);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (current === null) return;
    setSaving(true);
    setStatus(null);
    const result = await saveApiOrigin(
      {
        storage: chrome.storage.local,
        permissions: chrome.permissions,
        notifyWorker: (request) => chrome.runtime.sendMessage(request),
        buildOrigin: new URL(BUILD_API_BASE_URL).origin,
      },
      value,
      current,
    );
    setSaving(false);
    if (!result.ok) {
      setStatus({ tone: 'error', text: result.error });
      return;
    }
    setCurrent(result.origin);
    setValue(result.origin);
    setStatus({
      tone: 'ok',
      text: result.changed ? `Saved. The extension now uses ${result.origin}; sign in again from the toolbar.` : 'Nothing changed.',
    });
  };

  return (
    <main className="rs-options__body">
      <header className="rs-options__brand">
        <img src="/store-assets/icons/icon-48.png" width={40} height={40} alt="" />
        <div>
          <h1>Reelsmith options</h1>
          <p>AI Video Platform</p>
        </div>
      </header>
      <form className="rs-options__card" onSubmit={save} aria-label="Server address">
        <label htmlFor="api-origin">Server address</label>
        <p className="rs-options__hint">
          The Reelsmith server this extension signs in to and generates videos with. Default: {BUILD_API_BASE_URL}
        </p>
        <input
          id="api-origin"
          name="api-origin"
          type="url"
          value={value}
          onChange={(e) => {
            // The status spoke of the address that was there; an edited one has none yet.
            setStatus(null);
            setValue(e.target.value);
          }}
          // The browser's own URL check stops the save before onSubmit: the earlier status no longer applies.
          onInvalid={() => setStatus(null)}
          placeholder="https://api.example.com"
          required
        />
        <div className="rs-options__actions">
          <button type="submit" className="rs-button rs-button--primary" disabled={saving || current === null}>
            {saving ? 'Saving…' : 'Save'}
          </button>
          <button
            type="button"
            className="rs-button rs-button--ghost"
            onClick={() => {
              setStatus(null);
              setValue(BUILD_API_BASE_URL);
            }}
          >
            Use default
          </button>
        </div>
        {status ? (
          <p role={status.tone === 'error' ? 'alert' : 'status'} className={`rs-options__status rs-options__status--${status.tone}`}>
            {status.text}
          </p>
        ) : null}
      </form>
    </main>
  );
}
