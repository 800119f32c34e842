import { WEBHOOK_EVENT_TYPES, createApiKeyBodySchema, createWebhookBodySchema, type WebhookEventType } from '@reelsmith/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { toast } from '../toaster.js';
import { errorMessage } from '../api/api-client.js';
import { useConfirm } from '../ui/confirm-dialog.js';
import { TextField } from '../ui/form-fields.js';
import { useApi } from '../services.js';
import './developer-tab.css';

const keysQueryKey = ['developer', 'api-keys'] as const;
const webhooksQueryKey = ['developer', 'webhooks'] as const;

const formatDate = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'Never');

/** Shows a secret once, with a copy button, until dismissed. */
function SecretOnce({ label, secret, onDone }: { label: string; secret: string; onDone(): void }) {
  return (
    <div className="rs-developer__secret" role="status">
      <p>
        <strong>{label}</strong> Copy it now: it is not shown again.
      </p>
      <code className="rs-developer__code">{secret}</code>
      <div className="rs-developer__row">
        <button
          type="button"
          className="rs-button rs-button--ghost"
          onClick={() => void navigator.clipboard?.writeText(secret).then(() => toast.success('Copied'))}
        >
          Copy
        </button>
        <button type="button" className="rs-button rs-button--ghost" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

function ApiKeysSection() {
  const api = useApi();
  const queryClient = useQueryClient();
  const keys = useQuery({ queryKey: keysQueryKey, queryFn: () => api.call('apiKeys') });
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [created, setCreated] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: { name: string }) => api.call('createApiKey', { body }),
    onSuccess: (key) => {
      setCreated(key.key);
      setName('');
      void queryClient.invalidateQueries({ queryKey: keysQueryKey });
    },
    onError: (e) => toast.error(errorMessage(e, 'Creating the key failed')),
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api.call('revokeApiKey', { params: { id } }),
    onSuccess: () => {
      toast.success('Key revoked');
      void queryClient.invalidateQueries({ queryKey: keysQueryKey });
    },
    onError: (e) => toast.error(errorMessage(e, 'Revoking the key failed')),
  });
  const confirm = useConfirm();
  const askRevoke = async (key: { id: string; name: string }) => {
    const yes = await confirm.ask({
      title: `Revoke “${key.name}”?`,
      description: 'Anything using this key stops working at once. This cannot be undone.',
      confirmLabel: 'Revoke key',
      destructive: true,
    });
    if (yes) revoke.mutate(key.id);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createApiKeyBodySchema.safeParse({ name });
    setError(parsed.success ? undefined : parsed.error.issues[0]?.message);
    if (parsed.success) create.mutate(parsed.data);
  };

  return (
    <section className="rs-card rs-developer__section" aria-labelledby="rs-developer-keys">
      <h2 id="rs-developer-keys" className="rs-developer__title">
        API keys
      </h2>
      <p className="rs-developer__hint">
        Send a key in the <code>x-api-key</code> header from your server. Never put one in a web page.
      </p>
      {created ? <SecretOnce label="Your new API key." secret={created} onDone={() => setCreated(null)} /> : null}
      <form className="rs-developer__form" onSubmit={submit} noValidate aria-label="New API key">
        <TextField
          label="Key name"
          name="keyName"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={error}
          placeholder="e.g. Production server"
        />
        <button type="submit" className="rs-button rs-button--primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create key'}
        </button>
      </form>
      <table className="rs-developer__table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Key</th>
            <th>Created</th>
            <th>Last used</th>
            <th aria-label="Actions" />
          </tr>
        </thead>
        <tbody>
          {(keys.data?.api_keys ?? []).map((key) => (
            <tr key={key.id}>
              <td>
                {key.name}
                {key.studio ? <span className="rs-chip rs-developer__chip">Studio</span> : null}
              </td>
              <td>
                <code>{key.prefix}…</code>
              </td>
              <td>{formatDate(key.created_at)}</td>
              <td>{formatDate(key.last_used_at)}</td>
              <td>
                <button type="button" className="rs-link-button" disabled={revoke.isPending} onClick={() => void askRevoke(key)}>
                  Revoke
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {keys.isError ? <p className="rs-field__error">{errorMessage(keys.error, 'Loading the keys failed')}</p> : null}
      {confirm.dialog}
    </section>
  );
}

function Deliveries({ webhookId }: { webhookId: string }) {
  const api = useApi();
  const deliveries = useQuery({
    queryKey: [...webhooksQueryKey, webhookId, 'deliveries'],
    queryFn: () => api.call('webhookDeliveries', { params: { id: webhookId } }),
    refetchInterval: 10_000,
  });
  const list = deliveries.data?.deliveries ?? [];
  if (list.length === 0) return <p className="rs-developer__hint">No deliveries yet.</p>;
  return (
    <ul className="rs-developer__deliveries">
      {list.slice(0, 10).map((delivery) => {
        const last = delivery.attempts[delivery.attempts.length - 1];
        return (
          <li key={delivery.id}>
            <span className={`rs-chip rs-developer__status rs-developer__status--${delivery.status}`}>{delivery.status}</span>{' '}
            {delivery.type} · {delivery.attempts.length} attempt{delivery.attempts.length === 1 ? '' : 's'}
            {last ? ` · last ${last.statusCode ?? last.error ?? ''}` : ''}
            {delivery.nextAttemptAt ? ` · next ${formatDate(delivery.nextAttemptAt)}` : ''}
          </li>
        );
      })}
    </ul>
  );
}

function WebhooksSection() {
  const api = useApi();
  const queryClient = useQueryClient();
  const webhooks = useQuery({ queryKey: webhooksQueryKey, queryFn: () => api.call('webhooks') });
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([...WEBHOOK_EVENT_TYPES]);
  const [error, setError] = useState<string | undefined>();
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: { url: string; events: WebhookEventType[] }) => api.call('createWebhook', { body }),
    onSuccess: (hook) => {
      setSecret(hook.secret);
      setUrl('');
      void queryClient.invalidateQueries({ queryKey: webhooksQueryKey });
    },
    onError: (e) => setError(errorMessage(e, 'Adding the webhook failed')),
  });
  const remove = useMutation({
    mutationFn: (id: string) => api.call('deleteWebhook', { params: { id } }),
    onSuccess: () => {
      toast.success('Webhook deleted');
      void queryClient.invalidateQueries({ queryKey: webhooksQueryKey });
    },
    onError: (e) => toast.error(errorMessage(e, 'Deleting the webhook failed')),
  });
  const confirm = useConfirm();
  const askDelete = async (hook: { id: string; url: string }) => {
    const yes = await confirm.ask({
      title: 'Delete this webhook?',
      description: `${hook.url} receives no more events; deliveries still waiting are not retried.`,
      confirmLabel: 'Delete webhook',
      destructive: true,
    });
    if (yes) remove.mutate(hook.id);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createWebhookBodySchema.safeParse({ url, events });
    setError(parsed.success ? undefined : parsed.error.issues[0]?.message);
    if (parsed.success) create.mutate({ url: parsed.data.url, events: parsed.data.events });
  };
  const toggle = (type: WebhookEventType, on: boolean) =>
    setEvents((current) => (on ? [...new Set([...current, type])] : current.filter((t) => t !== type)));

  return (
    <section className="rs-card rs-developer__section" aria-labelledby="rs-developer-webhooks">
      <h2 id="rs-developer-webhooks" className="rs-developer__title">
        Webhooks
      </h2>
      <p className="rs-developer__hint">
        We POST <code>{'{ id, type, createdAt, data }'}</code> with a <code>Reelsmith-Signature</code> header, and retry for about a day
        until your endpoint answers 2xx.
      </p>
      {secret ? <SecretOnce label="Your signing secret." secret={secret} onDone={() => setSecret(null)} /> : null}
      <form className="rs-developer__form" onSubmit={submit} noValidate aria-label="New webhook">
        <TextField
          label="Endpoint URL"
          name="webhookUrl"
          type="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          error={error}
          placeholder="https://example.com/reelsmith"
        />
        <fieldset className="rs-developer__events">
          <legend className="rs-field__label">Events</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="rs-developer__event">
              <input type="checkbox" checked={events.includes(type)} onChange={(e) => toggle(type, e.target.checked)} /> {type}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="rs-button rs-button--primary" disabled={create.isPending}>
          {create.isPending ? 'Adding…' : 'Add webhook'}
        </button>
      </form>
      <ul className="rs-developer__hooks">
        {(webhooks.data?.webhooks ?? []).map((hook) => (
          <li key={hook.id}>
            <div className="rs-developer__row">
              <code className="rs-developer__url">{hook.url}</code>
              <span className="rs-developer__hint">{hook.events.join(', ')}</span>
              <button type="button" className="rs-link-button" onClick={() => setOpen(open === hook.id ? null : hook.id)}>
                {open === hook.id ? 'Hide deliveries' : 'Deliveries'}
              </button>
              <button
                type="button"
                className="rs-link-button"
                disabled={remove.isPending}
                onClick={() => void askDelete(hook)}
                aria-label={`Delete webhook ${hook.url}`}
              >
                Delete
              </button>
            </div>
            {open === hook.id ? <Deliveries webhookId={hook.id} /> : null}
          </li>
        ))}
      </ul>
      {confirm.dialog}
    </section>
  );
}

/** Settings → Developer: API keys and webhooks. */
export function DeveloperTab() {
  return (
    <div className="rs-developer">
      <ApiKeysSection />
      <WebhooksSection />
      <p className="rs-developer__hint">
        Reference:{' '}
        <a href="/api/docs" target="_blank" rel="noreferrer">
          API docs
        </a>{' '}
        ·{' '}
        <a href="/api/openapi.json" target="_blank" rel="noreferrer">
          openapi.json
        </a>
      </p>
    </div>
  );
}
