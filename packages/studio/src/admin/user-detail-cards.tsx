import type { AdminUserDetail } from '@reelsmith/contracts';
import { PLAN_LABELS } from '../shared/billing/plan-labels.js';
import { formatDate, formatDateTime } from '../ui/date-format.js';

export function VideosCard({ videos, onDelete }: { videos: AdminUserDetail['videos']; onDelete(videoId: string, label: string): void }) {
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

export function PaymentsCard({
  payments,
  subscription,
}: {
  payments: AdminUserDetail['payments'];
  subscription: AdminUserDetail['subscription'];
}) {
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

export function SessionsCard({ sessions, apiKeys }: { sessions: AdminUserDetail['sessions']; apiKeys: number }) {
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
