import type { AdminUser } from '@reelsmith/contracts';
import { PLAN_LABELS } from '../shared/billing/plan-labels.js';

export function StatusChip({ status }: { status: AdminUser['status'] }) {
  return (
    <span className={`rs-chip rs-admin-status rs-admin-status--${status === 'active' ? 'healthy' : 'error'}`} data-status={status}>
      {status === 'active' ? 'Active' : 'Suspended'}
    </span>
  );
}

export function PlanLabel({ user }: { user: Pick<AdminUser, 'plan' | 'planComp'> }) {
  return (
    <span>
      {PLAN_LABELS[user.plan]}
      {user.planComp ? <span className="rs-chip rs-admin-users__comp">Comp</span> : null}
    </span>
  );
}
