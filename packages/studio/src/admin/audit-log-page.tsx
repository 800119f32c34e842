import type { AuditAction } from '@reelsmith/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '../ui/page-header.js';
import { LoadFailure } from './load-failure.js';
import { useAuditLog } from './admin-users-queries.js';
import { formatDateTime } from '../ui/date-format.js';
import './admin.css';
import './admin-users.css';

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  suspend: 'Suspended',
  reactivate: 'Reactivated',
  role: 'Role changed',
  'grant-plan': 'Plan granted',
  'reset-usage': 'Usage reset',
  'delete-video': 'Video deleted',
};

/** /admin/audit: every admin action on a user — who, what, whom, when and why. */
export function AuditLogPage() {
  const [page, setPage] = useState(1);
  const log = useAuditLog(page);
  const pages = log.data ? Math.max(1, Math.ceil(log.data.total / log.data.pageSize)) : 1;

  return (
    <div className="rs-page rs-admin rs-admin-users">
      <PageHeader
        title="Audit Log"
        subtitle="Every action an admin took on an account, newest first."
        actions={
          <Link className="rs-button rs-button--ghost" to="/admin/users">
            User Management
          </Link>
        }
      />
      <LoadFailure query={log} fallback="Failed to load the audit log" />
      <section className="rs-card rs-admin-table-card" aria-label="Audit log">
        <table className="rs-admin-table rs-admin-audit">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Action</th>
              <th scope="col">User</th>
              <th scope="col">By</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {log.data?.entries.length === 0 ? (
              <tr>
                <td colSpan={5}>No admin action yet.</td>
              </tr>
            ) : null}
            {log.data?.entries.map((entry) => (
              <tr key={entry.id}>
                <td data-label="When">{formatDateTime(entry.createdAt)}</td>
                <td data-label="Action">
                  <strong>{AUDIT_ACTION_LABELS[entry.action]}</strong>
                  <span className="rs-admin-users__email">{entry.details}</span>
                </td>
                <td data-label="User">
                  <Link className="rs-link-button" to={`/admin/users?user=${encodeURIComponent(entry.targetUserId)}`}>
                    {entry.targetEmail}
                  </Link>
                </td>
                <td data-label="By">{entry.adminEmail}</td>
                <td data-label="Reason" className="rs-admin-table__details">
                  {entry.reason}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {pages > 1 ? (
          <nav className="rs-admin-users__pager" aria-label="Pages">
            <button type="button" className="rs-button rs-button--ghost" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Previous
            </button>
            <span>
              Page {page} of {pages}
            </span>
            <button type="button" className="rs-button rs-button--ghost" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              Next
            </button>
          </nav>
        ) : null}
      </section>
    </div>
  );
}
