import {
  ADMIN_GRANT_MAX_DAYS,
  PLAN_IDS,
  type AdminUser,
  type AdminUserDetail,
  type PlanId,
  type Role,
} from '@reelsmith/contracts';
import { useEffect, useId, useState } from 'react';
import { toast } from '../toaster.js';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../api/api-client.js';
import { PageHeader } from '../ui/page-header.js';
import { useAuth } from '../services.js';
import { AdminActionDialog } from './admin-action-dialog.js';
import { useAdminDeleteVideo, useAdminUser, useAdminUserAction, useAdminUsers, type AdminUserAction, type UserListQuery } from './admin-users-queries.js';
import './admin.css';
import './admin-users.css';

export const PLAN_LABELS: Record<PlanId | 'free', string> = {
  free: 'Free',
  essentials_plan: 'Essentials',
  starter_plan: 'Starter',
  basic_plan: 'Basic',
  pro_plan: 'Pro',
};

const SORT_OPTIONS: Array<[string, string]> = [
  ['-createdAt', 'Newest'],
  ['createdAt', 'Oldest'],
  ['-lastSignInAt', 'Last sign-in'],
  ['name', 'Name'],
  ['email', 'E-mail'],
  ['-totalVideos', 'Most videos'],
  ['-videosThisMonth', 'Most this month'],
];

export const formatDate = (iso: string | null): string =>
  iso ? new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }) : 'Never';
export const formatDateTime = (iso: string | null): string =>
  iso ? new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' }) + ' UTC' : 'Never';

function StatusChip({ status }: { status: AdminUser['status'] }) {
  return (
    <span className={`rs-chip rs-admin-status rs-admin-status--${status === 'active' ? 'healthy' : 'error'}`} data-status={status}>
      {status === 'active' ? 'Active' : 'Suspended'}
    </span>
  );
}

function PlanLabel({ user }: { user: Pick<AdminUser, 'plan' | 'planComp'> }) {
  return (
    <span>
      {PLAN_LABELS[user.plan]}
      {user.planComp ? <span className="rs-chip rs-admin-users__comp">Comp</span> : null}
    </span>
  );
}

function Select({ label, value, onChange, options }: { label: string; value: string; onChange(value: string): void; options: Array<[string, string]> }) {
  const id = useId();
  return (
    <div className="rs-admin-users__filter">
      <label htmlFor={id} className="rs-field__label">
        {label}
      </label>
      <select id={id} className="rs-field__input rs-select" value={value} onChange={(event) => onChange(event.target.value)}>
        {options.map(([optionValue, text]) => (
          <option key={optionValue} value={optionValue}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Typing pauses this long before the list is searched. */
const SEARCH_DEBOUNCE_MS = 300;

/** /admin/users: find users, open one (?user=<id>) to see their videos, plan, payments and sessions, and act. */
export function UserManagementPage() {
  const [params, setParams] = useSearchParams();
  const selected = params.get('user');
  const [search, setSearch] = useState(params.get('search') ?? '');
  const [query, setQuery] = useState<UserListQuery>({ search: params.get('search') ?? '', role: undefined, plan: undefined, status: undefined, page: 1, sort: '-createdAt' });
  const searchId = useId();

  useEffect(() => {
    const timer = setTimeout(() => setQuery((current) => (current.search === search ? current : { ...current, search, page: 1 })), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const users = useAdminUsers(query);
  const total = users.data?.total ?? 0;
  const pageSize = users.data?.pageSize ?? 20;
  const page = query.page;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const update = (patch: Partial<UserListQuery>) => setQuery((current) => ({ ...current, ...patch, page: 1 }));
  const open = (id: string | null) => {
    const next = new URLSearchParams(params);
    if (id) next.set('user', id);
    else next.delete('user');
    setParams(next);
  };

  if (selected) return <UserDetailView id={selected} onBack={() => open(null)} />;

  return (
    <div className="rs-page rs-admin rs-admin-users">
      <PageHeader title="User Management" subtitle="Find a creator, see their plan and videos, and act on their account." actions={<Link className="rs-button rs-button--ghost" to="/admin/audit">Audit log</Link>} />
      <section className="rs-card rs-admin-users__filters" aria-label="Find users">
        <div className="rs-admin-users__filter rs-admin-users__filter--search">
          <label htmlFor={searchId} className="rs-field__label">
            Search
          </label>
          <input id={searchId} type="search" className="rs-field__input" placeholder="Name or e-mail" value={search} onChange={(event) => setSearch(event.target.value)} />
        </div>
        <Select label="Role" value={query.role ?? ''} onChange={(role) => update({ role: (role || undefined) as Role | undefined })} options={[['', 'All roles'], ['user', 'User'], ['admin', 'Admin']]} />
        <Select
          label="Plan"
          value={query.plan ?? ''}
          onChange={(plan) => update({ plan: (plan || undefined) as PlanId | 'free' | undefined })}
          options={[['', 'All plans'], ['free', 'Free'], ...PLAN_IDS.map((id): [string, string] => [id, PLAN_LABELS[id]])]}
        />
        <Select label="Status" value={query.status ?? ''} onChange={(status) => update({ status: (status || undefined) as 'active' | 'suspended' | undefined })} options={[['', 'All'], ['active', 'Active'], ['suspended', 'Suspended']]} />
        <Select label="Sort" value={query.sort} onChange={(sort) => update({ sort })} options={SORT_OPTIONS} />
      </section>

      {users.isError ? (
        <p className="rs-alert rs-alert--error" role="alert">
          {errorMessage(users.error, 'Failed to load users')}
        </p>
      ) : null}

      <section className="rs-card rs-admin-table-card rs-admin-users__list" aria-label="Users">
        <p className="rs-admin-users__count" aria-live="polite">
          {users.data ? `${total} user${total === 1 ? '' : 's'}` : 'Loading users…'}
        </p>
        <table className="rs-admin-table rs-admin-users__table">
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Plan</th>
              <th scope="col">This month</th>
              <th scope="col">Total</th>
              <th scope="col">Signed up</th>
              <th scope="col">Last sign-in</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {users.data?.users.length === 0 ? (
              <tr>
                <td colSpan={7}>No user matches these filters.</td>
              </tr>
            ) : null}
            {users.data?.users.map((user) => (
              <tr key={user.id}>
                <td className="rs-admin-users__who">
                  <button type="button" className="rs-link-button" onClick={() => open(user.id)} aria-label={`Open ${user.name} (${user.email})`}>
                    {user.name}
                  </button>
                  <span className="rs-admin-users__email">{user.email}</span>
                  {user.role === 'admin' ? <span className="rs-chip">Admin</span> : null}
                </td>
                <td data-label="Plan">
                  <PlanLabel user={user} />
                </td>
                <td data-label="This month">{user.videosThisMonth}</td>
                <td data-label="Total">{user.totalVideos}</td>
                <td data-label="Signed up">{formatDate(user.createdAt)}</td>
                <td data-label="Last sign-in">{formatDate(user.lastSignInAt)}</td>
                <td data-label="Status">
                  <StatusChip status={user.status} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <nav className="rs-admin-users__pager" aria-label="Pages">
          <button type="button" className="rs-button rs-button--ghost" disabled={page <= 1} onClick={() => setQuery((current) => ({ ...current, page: page - 1 }))}>
            Previous
          </button>
          <span>
            Page {page} of {pages}
          </span>
          <button type="button" className="rs-button rs-button--ghost" disabled={page >= pages} onClick={() => setQuery((current) => ({ ...current, page: page + 1 }))}>
            Next
          </button>
        </nav>
      </section>
    </div>
  );
}

type PendingAction = { kind: 'suspend' | 'reactivate' | 'role' | 'grant' | 'reset' } | { kind: 'delete-video'; videoId: string; label: string };

function UserDetailView({ id, onBack }: { id: string; onBack(): void }) {
  const detail = useAdminUser(id);
  const me = useAuth((state) => state.user?.id ?? null);
  const action = useAdminUserAction();
  const deleteVideo = useAdminDeleteVideo();
  const [pending, setPending] = useState<PendingAction | null>(null);
  const [role, setRole] = useState<Role>('admin');
  const [planId, setPlanId] = useState<PlanId>('pro_plan');
  const [days, setDays] = useState('30');
  const roleId = useId();
  const planFieldId = useId();
  const daysId = useId();

  const data = detail.data;
  const user = data?.user;
  const self = user?.id === me;

  const run = async (name: AdminUserAction, body: Record<string, unknown>) => {
    try {
      const result = await action.mutateAsync({ action: name, id, body: body as never });
      toast.success(result.message);
      setPending(null);
    } catch (error) {
      toast.error(errorMessage(error, 'The action failed'));
      throw error;
    }
  };

  const confirm = async (reason: string) => {
    if (!pending) return;
    switch (pending.kind) {
      case 'suspend':
        return run('adminSuspendUser', { reason });
      case 'reactivate':
        return run('adminReactivateUser', { reason });
      case 'role':
        return run('adminChangeRole', { role, reason });
      case 'grant':
        return run('adminGrantPlan', { planId, days: Number(days), reason });
      case 'reset':
        return run('adminResetUsage', { reason });
      case 'delete-video':
        try {
          const result = await deleteVideo.mutateAsync({ id, videoId: pending.videoId, reason });
          toast.success(result.message);
          setPending(null);
        } catch (error) {
          toast.error(errorMessage(error, 'The video could not be deleted'));
          throw error;
        }
    }
  };

  const dialog = pending && user ? dialogText(pending, user) : null;

  return (
    <div className="rs-page rs-admin rs-admin-users">
      <PageHeader
        title={user ? user.name : 'User'}
        subtitle={user ? user.email : undefined}
        actions={
          <button type="button" className="rs-button rs-button--ghost" onClick={onBack}>
            ← All users
          </button>
        }
      />
      {detail.isError ? (
        <p className="rs-alert rs-alert--error" role="alert">
          {errorMessage(detail.error, 'Failed to load this user')}
        </p>
      ) : null}
      {!data || !user ? (
        detail.isError ? null : <p>Loading…</p>
      ) : (
        <>
          <section className="rs-card rs-admin-users__summary" aria-label="Account">
            <dl className="rs-admin-stats">
              <div className="rs-admin-stats__item">
                <dt>Status</dt>
                <dd>
                  <StatusChip status={user.status} />
                </dd>
                {user.suspensionReason ? <dd className="rs-admin-stats__hint">Reason: {user.suspensionReason}</dd> : null}
              </div>
              <div className="rs-admin-stats__item">
                <dt>Role</dt>
                <dd>{user.role === 'admin' ? 'Admin' : 'User'}</dd>
              </div>
              <div className="rs-admin-stats__item">
                <dt>Plan</dt>
                <dd>
                  <PlanLabel user={user} />
                </dd>
                {data.subscription ? <dd className="rs-admin-stats__hint">Until {formatDate(data.subscription.endDate)}</dd> : null}
              </div>
              <div className="rs-admin-stats__item">
                <dt>Videos this month</dt>
                <dd>{user.videosThisMonth}</dd>
                <dd className="rs-admin-stats__hint">{user.totalVideos} in total</dd>
              </div>
              <div className="rs-admin-stats__item">
                <dt>Signed up</dt>
                <dd className="rs-admin-users__date">{formatDate(user.createdAt)}</dd>
                <dd className="rs-admin-stats__hint">Last sign-in {formatDateTime(user.lastSignInAt)}</dd>
              </div>
            </dl>
            <div className="rs-admin-users__actions" role="group" aria-label="Actions">
              {user.status === 'active' ? (
                <button type="button" className="rs-button rs-button--danger" disabled={self} title={self ? 'You cannot suspend your own account' : undefined} onClick={() => setPending({ kind: 'suspend' })}>
                  Suspend
                </button>
              ) : (
                <button type="button" className="rs-button rs-button--primary" onClick={() => setPending({ kind: 'reactivate' })}>
                  Reactivate
                </button>
              )}
              <button
                type="button"
                className="rs-button rs-button--ghost"
                disabled={self}
                title={self ? 'You cannot change your own role' : undefined}
                onClick={() => {
                  setRole(user.role === 'admin' ? 'user' : 'admin');
                  setPending({ kind: 'role' });
                }}
              >
                Change role
              </button>
              <button type="button" className="rs-button rs-button--ghost" onClick={() => setPending({ kind: 'grant' })}>
                Grant plan
              </button>
              <button type="button" className="rs-button rs-button--ghost" onClick={() => setPending({ kind: 'reset' })}>
                Reset month's usage
              </button>
            </div>
          </section>

          <VideosCard videos={data.videos} onDelete={(videoId, label) => setPending({ kind: 'delete-video', videoId, label })} />
          <div className="rs-admin-grid">
            <PaymentsCard payments={data.payments} subscription={data.subscription} />
            <SessionsCard sessions={data.sessions} apiKeys={user.apiKeys} />
          </div>
        </>
      )}

      {dialog ? (
        <AdminActionDialog
          open
          title={dialog.title}
          description={dialog.description}
          confirmLabel={dialog.confirm}
          danger={dialog.danger}
          busy={action.isPending || deleteVideo.isPending}
          onCancel={() => setPending(null)}
          onConfirm={confirm}
        >
          {pending?.kind === 'role' ? (
            <div className="rs-field">
              <label htmlFor={roleId} className="rs-field__label">
                New role
              </label>
              <select id={roleId} className="rs-field__input rs-select" value={role} onChange={(event) => setRole(event.target.value as Role)}>
                <option value="user">User</option>
                <option value="admin">Admin</option>
              </select>
            </div>
          ) : null}
          {pending?.kind === 'grant' ? (
            <div className="rs-admin-users__grant">
              <div className="rs-field">
                <label htmlFor={planFieldId} className="rs-field__label">
                  Plan
                </label>
                <select id={planFieldId} className="rs-field__input rs-select" value={planId} onChange={(event) => setPlanId(event.target.value as PlanId)}>
                  {PLAN_IDS.map((plan) => (
                    <option key={plan} value={plan}>
                      {PLAN_LABELS[plan]}
                    </option>
                  ))}
                </select>
              </div>
              <div className="rs-field">
                <label htmlFor={daysId} className="rs-field__label">
                  Days
                </label>
                <input id={daysId} type="number" min={1} max={ADMIN_GRANT_MAX_DAYS} className="rs-field__input" value={days} onChange={(event) => setDays(event.target.value)} />
              </div>
            </div>
          ) : null}
        </AdminActionDialog>
      ) : null}
    </div>
  );
}

function dialogText(pending: PendingAction, user: AdminUserDetail['user']): { title: string; description: string; confirm: string; danger: boolean } {
  switch (pending.kind) {
    case 'suspend':
      return { title: `Suspend ${user.name}?`, description: `${user.email} is signed out everywhere at once: every session, open studio and API key stops working, and signing in is refused until you reactivate the account.`, confirm: 'Suspend', danger: true };
    case 'reactivate':
      return { title: `Reactivate ${user.name}?`, description: `${user.email} can sign in again and their API keys work again.`, confirm: 'Reactivate', danger: false };
    case 'role':
      return { title: `Change ${user.name}'s role?`, description: 'An admin sees every admin page and can act on any account. The role you set here is kept at every sign-in.', confirm: 'Change role', danger: false };
    case 'grant':
      return { title: `Grant ${user.name} a plan?`, description: 'The plan starts now and is marked as a comp (not paid for). It replaces the plan they hold now.', confirm: 'Grant plan', danger: false };
    case 'reset':
      return { title: `Reset ${user.name}'s usage?`, description: "This month's plan usage starts again from 0; videos already made stay.", confirm: 'Reset usage', danger: false };
    case 'delete-video':
      return { title: 'Delete this video?', description: `"${pending.label}" is deleted for good (a running one is cancelled). The creator is not told.`, confirm: 'Delete video', danger: true };
  }
}

function VideosCard({ videos, onDelete }: { videos: AdminUserDetail['videos']; onDelete(videoId: string, label: string): void }) {
  return (
    <section className="rs-card rs-admin-table-card" aria-label="Videos">
      <h2 className="rs-admin-subtitle">Videos</h2>
      <table className="rs-admin-table rs-admin-users__videos">
        <thead>
          <tr>
            <th scope="col">Video</th>
            <th scope="col">Status</th>
            <th scope="col">Made</th>
            <th scope="col">
              <span className="rs-visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {videos.length === 0 ? (
            <tr>
              <td colSpan={4}>No videos yet.</td>
            </tr>
          ) : null}
          {videos.map((video) => {
            const label = video.title ?? video.topic;
            return (
              <tr key={video.id}>
                <td className="rs-admin-table__details">{label}</td>
                <td>{video.status}</td>
                <td>{formatDate(video.createdAt)}</td>
                <td className="rs-admin-users__row-actions">
                  {video.videoUrl ? (
                    <a className="rs-link-button" href={video.videoUrl} target="_blank" rel="noreferrer">
                      Open
                    </a>
                  ) : null}
                  <button type="button" className="rs-link-button rs-admin-users__danger-link" onClick={() => onDelete(video.id, label)}>
                    Delete
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

function PaymentsCard({ payments, subscription }: { payments: AdminUserDetail['payments']; subscription: AdminUserDetail['subscription'] }) {
  return (
    <section className="rs-card rs-admin-table-card" aria-label="Subscription and payments">
      <h2 className="rs-admin-subtitle">Subscription and payments</h2>
      <p className="rs-admin-users__line">
        {subscription
          ? `${PLAN_LABELS[subscription.planId]} · ${subscription.status}${subscription.comp ? ' · comp' : ''} · ${formatDate(subscription.startDate)} – ${formatDate(subscription.endDate)}`
          : 'No subscription: free tier.'}
      </p>
      {payments.length === 0 ? (
        <p className="rs-admin-note">No payments.</p>
      ) : (
        <ul className="rs-admin-users__plain-list">
          {payments.map((payment) => (
            <li key={payment.id}>
              {PLAN_LABELS[payment.planId]} · {(payment.amount / 100).toFixed(2)} {payment.currency} · {payment.status}
              {payment.provider === 'test' ? ' (test mode)' : ''} · {formatDate(payment.paidAt ?? payment.createdAt)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function SessionsCard({ sessions, apiKeys }: { sessions: AdminUserDetail['sessions']; apiKeys: number }) {
  const active = sessions.filter((session) => session.active);
  return (
    <section className="rs-card rs-admin-table-card" aria-label="Sessions">
      <h2 className="rs-admin-subtitle">Sessions</h2>
      <p className="rs-admin-users__line">
        {active.length} active session{active.length === 1 ? '' : 's'} · {apiKeys} API key{apiKeys === 1 ? '' : 's'}
      </p>
      <ul className="rs-admin-users__plain-list">
        {sessions.slice(0, 8).map((session) => (
          <li key={session.id}>
            {session.active ? 'Active' : session.revokedAt ? 'Ended' : 'Expired'} · started {formatDateTime(session.createdAt)}
            {session.userAgent ? <span className="rs-admin-users__agent"> · {session.userAgent.slice(0, 60)}</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
