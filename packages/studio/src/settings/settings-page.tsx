import {
  ACCOUNT_MESSAGES,
  connectionErrorMessage,
  DURATIONS,
  LANGUAGE_NAMES,
  MESSAGES,
  PLATFORM_NAMES,
  platformSchema,
  profileUpdateBodySchema,
  RESOLUTIONS,
  SETTINGS_STORY_STYLES,
  VIDEO_LANGUAGES,
  VISUAL_STYLES,
} from '@reelsmith/contracts';
import * as Tabs from '@radix-ui/react-tabs';
import { lazy, Suspense, useEffect, useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from '../toaster.js';
import { errorMessage } from '../api/api-client.js';
import { FormAlert, TextField } from '../ui/form-fields.js';
import { SelectField } from '../ui/select-field.js';
import { PageHeader } from '../ui/page-header.js';
import { usePlatform } from '../platform.js';
import { useApi, useAuth, useServices } from '../services.js';
import { optionLabel } from '../shared/generation/generation-form-model.js';
import { keyboardOnlyTabFocus } from '../ui/tab-focus.js';
import { BrandTab } from './brand-tab.js';
import { DeveloperTab } from './developer-tab.js';
import { CancelSubscriptionDialog } from './cancel-subscription-dialog.js';
import { PlanSummary } from './plan-summary.js';
import { loadVideoDefaults, RESOLUTION_LABELS, saveVideoDefaults, type VideoDefaults } from '../preferences/video-defaults.js';
import './settings.css';
import { announceConnectionsChanged } from './connections-channel.js';

/** An unverified address: ADMIN_EMAILS and e-mail changes wait for its link, which can be sent again. */
function ResendVerification() {
  const api = useApi();
  const [sending, setSending] = useState(false);
  const resend = async () => {
    setSending(true);
    try {
      toast.success((await api.call('resendVerification')).message, { duration: 8000 });
    } catch (error) {
      toast.error(errorMessage(error, 'Could not send the verification link'));
    } finally {
      setSending(false);
    }
  };
  return (
    <p className="rs-settings__verify">
      E-mail not verified.{' '}
      <button type="button" className="rs-link-button" disabled={sending} onClick={() => void resend()}>
        {sending ? 'Sending…' : 'Send the link again'}
      </button>
    </p>
  );
}

function ProfileTab() {
  const api = useApi();
  const { authStore } = useServices();
  const user = useAuth((s) => s.user);
  const [name, setName] = useState(user?.name ?? '');
  const [email, setEmail] = useState(user?.email ?? '');
  const [errors, setErrors] = useState<{ name?: string; email?: string }>({});
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  if (!user) return null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = profileUpdateBodySchema.safeParse({ name, email });
    if (!parsed.success) {
      const next: { name?: string; email?: string } = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'name' || field === 'email') && !next[field]) next[field] = issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setFailure(null);
    setSaving(true);
    try {
      const { user: updated } = await api.call('updateProfile', { body: parsed.data });
      authStore.setState({ user: updated });
      // A new e-mail takes effect only from the link mailed to it; the field shows the current one meanwhile.
      if (updated.pendingEmail) {
        setEmail(updated.email);
        toast.success(ACCOUNT_MESSAGES.emailChangePending(updated.pendingEmail), { duration: 8000 });
      } else {
        toast.success(MESSAGES.profileUpdated);
      }
    } catch (error) {
      const message = errorMessage(error, MESSAGES.profileUpdateFailed);
      setFailure(message);
      toast.error(message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="rs-settings__grid">
      <section className="rs-card rs-settings__identity">
        <span className="rs-avatar rs-avatar--large" aria-hidden="true">
          {user.name.trim().charAt(0).toUpperCase() || '?'}
        </span>
        <p className="rs-settings__name">{user.name}</p>
        <p className="rs-settings__email">{user.email}</p>
        {user.emailVerified === false ? <ResendVerification /> : null}
        <span className={`rs-chip${user.role === 'admin' ? ' rs-chip--admin' : ''}`}>{user.role === 'admin' ? 'Admin' : 'User'}</span>
      </section>
      <section className="rs-card">
        <FormAlert message={failure} />
        <form noValidate onSubmit={submit} aria-label="Profile">
          <TextField
            label="Full Name"
            name="name"
            autoComplete="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={errors.name}
          />
          <TextField
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={errors.email}
          />
          <button type="submit" className="rs-button rs-button--primary" disabled={saving}>
            {saving ? 'Saving…' : 'Save Profile'}
          </button>
        </form>
      </section>
    </div>
  );
}

function VideoDefaultsTab() {
  const platform = usePlatform();
  const [defaults, setDefaults] = useState<VideoDefaults>(() => loadVideoDefaults(platform.storage));
  const set = <K extends keyof VideoDefaults>(key: K, value: VideoDefaults[K]) => setDefaults((d) => ({ ...d, [key]: value }));

  const save = (event: FormEvent) => {
    event.preventDefault();
    try {
      // Merge with what is stored so the Preferences tab's switches are not overwritten.
      const stored = loadVideoDefaults(platform.storage);
      saveVideoDefaults(platform.storage, { ...stored, ...pickDefaults(defaults) });
      toast.success(MESSAGES.defaultsSaved);
    } catch {
      toast.error(MESSAGES.defaultsSaveFailed);
    }
  };

  return (
    <section className="rs-card">
      <form onSubmit={save} aria-label="Video defaults" className="rs-settings__form-grid">
        <SelectField
          label="Default Style"
          value={defaults.defaultStyle}
          options={SETTINGS_STORY_STYLES.map((style) => ({ value: style, label: optionLabel(style) }))}
          onChange={(v) => set('defaultStyle', v as VideoDefaults['defaultStyle'])}
        />
        <SelectField
          label="Default Language"
          value={defaults.defaultLanguage}
          options={VIDEO_LANGUAGES.map((language) => ({ value: language, label: LANGUAGE_NAMES[language] }))}
          onChange={(v) => set('defaultLanguage', v as VideoDefaults['defaultLanguage'])}
        />
        <SelectField
          label="Default Duration"
          value={defaults.defaultDuration}
          options={DURATIONS.map((duration) => ({ value: duration, label: `${duration} seconds` }))}
          onChange={(v) => set('defaultDuration', Number(v) as VideoDefaults['defaultDuration'])}
        />
        <SelectField
          label="Default Visual Style"
          value={defaults.defaultVisualStyle}
          options={VISUAL_STYLES.map((style) => ({ value: style, label: optionLabel(style) }))}
          onChange={(v) => set('defaultVisualStyle', v as VideoDefaults['defaultVisualStyle'])}
        />
        <SelectField
          label="Default Resolution"
          value={defaults.defaultResolution}
          options={RESOLUTIONS.map((resolution) => ({ value: resolution, label: RESOLUTION_LABELS[resolution] }))}
          onChange={(v) => set('defaultResolution', v as VideoDefaults['defaultResolution'])}
        />
        <div className="rs-settings__actions">
          <button type="submit" className="rs-button rs-button--primary">
            Save Defaults
          </button>
        </div>
      </form>
    </section>
  );
}

function pickDefaults(d: VideoDefaults) {
  const { defaultStyle, defaultLanguage, defaultDuration, defaultVisualStyle, defaultResolution } = d;
  return { defaultStyle, defaultLanguage, defaultDuration, defaultVisualStyle, defaultResolution };
}

function Switch({
  label,
  description,
  checked,
  onChange,
}: {
  label: string;
  description: string;
  checked: boolean;
  onChange(checked: boolean): void;
}) {
  const id = useId();
  return (
    <div className="rs-switch-row">
      <div>
        <label htmlFor={id} className="rs-switch-row__label">
          {label}
        </label>
        <p className="rs-switch-row__description">{description}</p>
      </div>
      <input id={id} type="checkbox" role="switch" className="rs-switch" checked={checked} onChange={(e) => onChange(e.target.checked)} />
    </div>
  );
}

function PreferencesTab() {
  const platform = usePlatform();
  const [prefs, setPrefs] = useState(() => loadVideoDefaults(platform.storage));
  const subscriptionActive = useAuth((s) => s.subscription?.subscription?.status === 'active');

  const update = (key: 'autoDownload' | 'showProgress', value: boolean) => {
    const next = { ...loadVideoDefaults(platform.storage), [key]: value };
    saveVideoDefaults(platform.storage, next);
    setPrefs(next);
  };

  return (
    <div className="rs-settings__stack">
      <section className="rs-card">
        <Switch
          label="Auto-download completed videos"
          description="Download each video as soon as it finishes."
          checked={prefs.autoDownload}
          onChange={(v) => update('autoDownload', v)}
        />
        <Switch
          label="Show detailed progress"
          description="Show each generation step while a video is being made."
          checked={prefs.showProgress}
          onChange={(v) => update('showProgress', v)}
        />
        <p className="rs-settings__note">Preferences are stored locally in this browser.</p>
      </section>
      {subscriptionActive ? (
        <section className="rs-card rs-danger-zone" aria-labelledby="rs-danger-zone-title">
          <h2 id="rs-danger-zone-title">Danger Zone</h2>
          <p>Cancelling stops renewal; you keep access until the end of the current billing period.</p>
          <CancelSubscriptionDialog />
        </section>
      ) : null}
    </div>
  );
}

// Loaded when the tab opens: most visits to Settings never show it.
const ConnectionsTab = lazy(() => import('./connections-tab.js'));

/**
 * A platform's consent ends on /settings?connected=youtube (or ?connectionError=…): the Connections
 * tab opens and says how it went, and the query leaves the address. ?tab=connections opens it too.
 */
function useConnectionOutcome(setTab: (tab: string) => void) {
  const [params, setParams] = useSearchParams();
  const connected = params.get('connected');
  const failure = params.get('connectionError');
  // ?tab=connections: where the extension sends a creator to connect (the consent comes back to this browser).
  const asked = params.get('tab') === 'connections';
  useEffect(() => {
    if (!connected && !failure && !asked) return;
    setTab('connections');
    const platform = platformSchema.safeParse(connected);
    if (platform.success) toast.success(`${PLATFORM_NAMES[platform.data]} connected`);
    // The tab the creator started from (still on Settings) reloads its connections.
    if (platform.success || failure) announceConnectionsChanged();
    // Only our own message for the code: no text from the address is shown on our origin.
    if (failure) toast.error(connectionErrorMessage(failure, params.get('platform')), { duration: 10_000 });
    setParams({}, { replace: true });
  }, [connected, failure, asked, params, setTab, setParams]);
}

/** Settings: Profile, Video Defaults and Preferences tabs, then Brand, Connections and Developer. */
export function SettingsPage() {
  const [tab, setTab] = useState('profile');
  useConnectionOutcome(setTab);
  return (
    <div className="rs-page">
      <PageHeader title="Settings" subtitle="Your profile, video defaults and preferences." />
      <PlanSummary />
      <Tabs.Root value={tab} onValueChange={setTab} className="rs-settings">
        <Tabs.List className="rs-settings__tabs rs-tab-strip" aria-label="Settings sections" {...keyboardOnlyTabFocus}>
          <Tabs.Trigger value="profile" className="rs-settings__tab">
            Profile
          </Tabs.Trigger>
          <Tabs.Trigger value="defaults" className="rs-settings__tab">
            Video Defaults
          </Tabs.Trigger>
          <Tabs.Trigger value="preferences" className="rs-settings__tab">
            Preferences
          </Tabs.Trigger>
          <Tabs.Trigger value="brand" className="rs-settings__tab">
            Brand
          </Tabs.Trigger>
          <Tabs.Trigger value="connections" className="rs-settings__tab">
            Connections
          </Tabs.Trigger>
          <Tabs.Trigger value="developer" className="rs-settings__tab">
            Developer
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="profile">
          <ProfileTab />
        </Tabs.Content>
        <Tabs.Content value="defaults">
          <VideoDefaultsTab />
        </Tabs.Content>
        <Tabs.Content value="preferences">
          <PreferencesTab />
        </Tabs.Content>
        <Tabs.Content value="brand">
          <BrandTab />
        </Tabs.Content>
        <Tabs.Content value="connections">
          <Suspense fallback={<p className="rs-card">Loading connections…</p>}>
            <ConnectionsTab />
          </Suspense>
        </Tabs.Content>
        <Tabs.Content value="developer">
          <DeveloperTab />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}
