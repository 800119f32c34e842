import { PLAN_IDS, type PlanId, type Role } from '@reelsmith/contracts';
import { useEffect, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../ui/page-header.js';
import { LoadFailure } from './load-failure.js';
import { formatDate } from '../ui/date-format.js';
import { PLAN_LABELS } from '../shared/billing/plan-labels.js';
import { useAdminUsers, type UserListQuery } from './admin-users-queries.js';
import { PlanLabel, StatusChip } from './user-badges.js';
import { UserDetailView } from './user-detail-view.js';
import './admin.css';
import './admin-users.css';

const SORT_OPTIONS: Array<[string, string]> = [
  ['-createdAt', 'Newest'],
  ['createdAt', 'Oldest'],
  ['-lastSignInAt', 'Last sign-in'],
  ['name', 'Name'],
  ['email', 'E-mail'],
  ['-totalVideos', 'Most videos'],
  ['-videosThisMonth', 'Most this month'],
];

function Select({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange(value: string): void;
  options: Array<[string, string]>;
}) {
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
  const [query, setQuery] = useState<UserListQuery>({
    search: params.get('search') ?? '',
    role: undefined,
    plan: undefined,
    status: undefined,
    page: 1,
    sort: '-createdAt',
  });
  const searchId = useId();

  useEffect(() => {
    const timer = setTimeout(
      () => setQuery((current) => (current.search === search ? current : { ...current, search, page: 1 })),
      SEARCH_DEBOUNCE_MS,
    );
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
      <PageHeader
        title="User Management"
        subtitle="Find a creator, see their plan and videos, and act on their account."
        actions={
          <Link className="rs-button rs-button--ghost" to="/admin/audit">
            Audit log
          </Link>
        }
      />
      <section className="rs-card rs-admin-users__filters" aria-label="Find users">
        <div className="rs-admin-users__filter rs-admin-users__filter--search">
          <label htmlFor={searchId} className="rs-field__label">
            Search
          </label>
          <input
            id={searchId}
            type="search"
            className="rs-field__input"
            placeholder="Name or e-mail"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
        </div>
        <Select
          label="Role"
          value={query.role ?? ''}
          onChange={(role) => update({ role: (role || undefined) as Role | undefined })}
          options={[
            ['', 'All roles'],
            ['user', 'User'],
            ['admin', 'Admin'],
          ]}
        />
        <Select
          label="Plan"
          value={query.plan ?? ''}
          onChange={(plan) => update({ plan: (plan || undefined) as PlanId | 'free' | undefined })}
          options={[['', 'All plans'], ['free', 'Free'], ...PLAN_IDS.map((id): [string, string] => [id, PLAN_LABELS[id]])]}
        />
        <Select
          label="Status"
          value={query.status ?? ''}
          onChange={(status) => update({ status: (status || undefined) as 'active' | 'suspended' | undefined })}
          options={[
            ['', 'All'],
            ['active', 'Active'],
            ['suspended', 'Suspended'],
          ]}
        />
        <Select label="Sort" value={query.sort} onChange={(sort) => update({ sort })} options={SORT_OPTIONS} />
      </section>

      <LoadFailure query={users} fallback="Failed to load users" />

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
                  <button
                    type="button"
                    className="rs-link-button"
                    onClick={() => open(user.id)}
                    aria-label={`Open ${user.name} (${user.email})`}
                  >
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
          <button
            type="button"
            className="rs-button rs-button--ghost"
            disabled={page <= 1}
            onClick={() => setQuery((current) => ({ ...current, page: page - 1 }))}
          >
            Previous
          </button>
          <span>
            Page {page} of {pages}
          </span>
          <button
            type="button"
            className="rs-button rs-button--ghost"
            disabled={page >= pages}
            onClick={() => setQuery((current) => ({ ...current, page: page + 1 }))}
          >
            Next
          </button>
        </nav>
      </section>
    </div>
  );
}
