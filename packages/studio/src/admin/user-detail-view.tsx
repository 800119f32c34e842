import { ADMIN_GRANT_MAX_DAYS, PLAN_IDS, type PlanId, type Role } from '@reelsmith/contracts';
import { useId, useState } from 'react';
import { toast } from '../toaster.js';
import { errorMessage } from '../api/api-client.js';
import { PageHeader } from '../ui/page-header.js';
import { LoadFailure } from './load-failure.js';
import { SelectField } from '../ui/select-field.js';
import { formatDate, formatDateTime } from '../ui/date-format.js';
import { PLAN_LABELS } from '../shared/billing/plan-labels.js';
import { useAuth } from '../services.js';
import { AdminActionDialog } from './admin-action-dialog.js';
import { useAdminDeleteVideo, useAdminUser, useAdminUserAction, type AdminUserAction } from './admin-users-queries.js';
import { dialogText, type PendingAction } from './user-action-text.js';
import { PlanLabel, StatusChip } from './user-badges.js';
import { PaymentsCard, SessionsCard, VideosCard } from './user-detail-cards.js';

/** One user at /admin/users?user=<id>: their account, videos, plan, payments and sessions, and the actions on them. */
export function UserDetailView({ id, onBack }: { id: string; onBack(): void }) {
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
      <LoadFailure query={detail} fallback="Failed to load this user" />
      {!data || !user ? (
        detail.isError ? null : (
          <p>Loading…</p>
        )
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
                <button
                  type="button"
                  className="rs-button rs-button--danger"
                  disabled={self}
                  title={self ? 'You cannot suspend your own account' : undefined}
                  onClick={() => setPending({ kind: 'suspend' })}
                >
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
            <SelectField
              id={roleId}
              label="New role"
              value={role}
              options={[
                { value: 'user', label: 'User' },
                { value: 'admin', label: 'Admin' },
              ]}
              onChange={(next) => setRole(next as Role)}
            />
          ) : null}
          {pending?.kind === 'grant' ? (
            <div className="rs-admin-users__grant">
              <SelectField
                id={planFieldId}
                label="Plan"
                value={planId}
                options={PLAN_IDS.map((plan) => ({ value: plan, label: PLAN_LABELS[plan] }))}
                onChange={(plan) => setPlanId(plan as PlanId)}
              />
              <div className="rs-field">
                <label htmlFor={daysId} className="rs-field__label">
                  Days
                </label>
                <input
                  id={daysId}
                  type="number"
                  min={1}
                  max={ADMIN_GRANT_MAX_DAYS}
                  className="rs-field__input"
                  value={days}
                  onChange={(event) => setDays(event.target.value)}
                />
              </div>
            </div>
          ) : null}
        </AdminActionDialog>
      ) : null}
    </div>
  );
}
