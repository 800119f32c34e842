import { PageHeader } from './page-header.js';

/** User Management and System Health are "coming soon" pages in the spec itself. */
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

export const UserManagementPage = () => <ComingSoonPage title="User Management" description="User management is coming soon." />;
export const SystemHealthPage = () => <ComingSoonPage title="System Health" description="Detailed system health monitoring is coming soon." />;
