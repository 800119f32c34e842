import { PLATFORM_CONSTRAINTS, PLATFORM_NAMES, type Connection, type Publication } from '@reelsmith/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { errorMessage } from '../api/api-client.js';
import { usePlatform } from '../platform.js';
import { useApi } from '../services.js';
import { toast } from '../toaster.js';
import { useConfirm } from '../ui/confirm-dialog.js';
import { HeldOnYouTubeActions, heldLine, isHeldOnYouTube, localTime } from '../shared/videos/youtube-hold.js';
import { onConnectionsChanged } from './connections-channel.js';
import './connections-tab.css';

export const connectionsQueryKey = ['connections'] as const;
const publicationsQueryKey = ['publications'] as const;

function ConnectionRow({ connection }: { connection: Connection }) {
  const api = useApi();
  const platform = usePlatform();
  const queryClient = useQueryClient();
  const { ask, dialog } = useConfirm();
  const [starting, setStarting] = useState(false);
  const name = PLATFORM_NAMES[connection.platform];

  const connect = async () => {
    // The consent must come back to the browser that started it (a cookie the server sets on the
    // web studio's origin): from the extension, connecting happens in the web studio's Settings.
    if (platform.kind !== 'web') {
      platform.navigation.openTab(`${platform.apiBaseUrl.replace(/\/+$/, '')}/settings?tab=connections`);
      return;
    }
    setStarting(true);
    try {
      const { url } = await api.call('connectionStart', { params: { platform: connection.platform } });
      // The platform's consent page opens beside the studio; its answer lands on Settings, which refreshes this list.
      platform.navigation.openTab(url);
    } catch (error) {
      toast.error(errorMessage(error, `Could not start connecting ${name}`));
    } finally {
      setStarting(false);
    }
  };
  const disconnect = useMutation({
    mutationFn: () => api.call('disconnect', { params: { platform: connection.platform } }),
    onSuccess: async () => {
      toast.success(`${name} disconnected`);
      await queryClient.invalidateQueries({ queryKey: connectionsQueryKey });
    },
    onError: (error) => toast.error(errorMessage(error, `Could not disconnect ${name}`)),
  });
  const askDisconnect = async () => {
    const yes = await ask({
      title: `Disconnect ${name}?`,
      description: `Reelsmith's permission is withdrawn at ${name} and its tokens are deleted here. Scheduled posts to ${name} will fail until you connect again.`,
      confirmLabel: 'Disconnect',
      destructive: true,
    });
    if (yes) disconnect.mutate();
  };

  return (
    <li className="rs-connection" data-platform={connection.platform}>
      <div className="rs-connection__main">
        <h3 className="rs-connection__name">{name}</h3>
        {connection.connected && connection.account ? (
          <p className="rs-connection__account">
            {connection.needsReconnect ? (
              <span className="rs-connection__warning" role="status">
                Reconnect {name}: its permission ended or was withdrawn.
              </span>
            ) : connection.problem ? (
              <span className="rs-connection__warning" role="status">
                {connection.problem}
              </span>
            ) : (
              <>Connected as {connection.account.name}</>
            )}
          </p>
        ) : (
          <p className="rs-connection__account">Not connected</p>
        )}
        <p className="rs-connection__note">{PLATFORM_CONSTRAINTS[connection.platform].note}</p>
        {connection.notice ? <p className="rs-connection__note rs-connection__notice">{connection.notice}</p> : null}
      </div>
      <div className="rs-connection__actions">
        {!connection.connected || connection.needsReconnect || connection.problem ? (
          <button type="button" className="rs-button rs-button--primary" disabled={starting} onClick={() => void connect()}>
            {connection.needsReconnect || connection.problem ? `Reconnect ${name}` : `Connect ${name}`}
          </button>
        ) : null}
        {connection.connected ? (
          <button
            type="button"
            className="rs-button rs-button--ghost rs-button--danger"
            disabled={disconnect.isPending}
            onClick={() => void askDisconnect()}
          >
            Disconnect
          </button>
        ) : null}
      </div>
      {dialog}
    </li>
  );
}

/**
 * The posts waiting for their time, soonest first: the calendar of scheduled posts. A scheduled YouTube
 * video is among them once uploaded (YouTube holds it private until its time), with what can still be done.
 */
function ScheduledPosts() {
  const api = useApi();
  const publications = useQuery({ queryKey: publicationsQueryKey, queryFn: () => api.call('publications') });
  const scheduled = (publications.data?.publications ?? [])
    .filter(
      (publication: Publication) =>
        (['queued', 'uploading', 'processing'].includes(publication.status) &&
          publication.publishAt &&
          Date.parse(publication.publishAt) > Date.now()) ||
        isHeldOnYouTube(publication),
    )
    .sort((a, b) => a.publishAt!.localeCompare(b.publishAt!));
  if (scheduled.length === 0) return null;
  return (
    <section className="rs-card rs-connections__scheduled">
      <h3>Scheduled posts</h3>
      <ol className="rs-connections__calendar">
        {scheduled.map((publication) => (
          <li key={publication.id}>
            <time dateTime={publication.publishAt!}>{localTime(publication.publishAt!)}</time> · {PLATFORM_NAMES[publication.platform]} ·{' '}
            {publication.title}
            {isHeldOnYouTube(publication) ? (
              <span className="rs-connections__held">
                {' '}
                · {heldLine(publication)} <HeldOnYouTubeActions publication={publication} />
              </span>
            ) : publication.platform === 'youtube' ? (
              <span className="rs-connections__held"> · Uploading now; YouTube makes it public then.</span>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Settings → Connections: the creator's YouTube, TikTok and Instagram accounts, and the scheduled posts. */
export default function ConnectionsTab() {
  const api = useApi();
  const queryClient = useQueryClient();
  // Connecting ends in the consent's own tab: this one reloads when that tab says so, or when it is looked at again.
  const connections = useQuery({ queryKey: connectionsQueryKey, queryFn: () => api.call('connections'), refetchOnWindowFocus: 'always' });
  useEffect(
    () =>
      onConnectionsChanged(() => {
        void queryClient.invalidateQueries({ queryKey: connectionsQueryKey });
        void queryClient.invalidateQueries({ queryKey: publicationsQueryKey });
      }),
    [queryClient],
  );
  if (connections.isLoading) return <p className="rs-card">Loading connections…</p>;
  if (connections.isError) return <p className="rs-card">{errorMessage(connections.error, 'Could not load the connections')}</p>;
  const list = connections.data?.connections ?? [];
  return (
    <div className="rs-connections">
      <section className="rs-card">
        <p className="rs-connections__intro">
          Publish finished videos with your own accounts. Reelsmith marks every post as AI-generated where the platform asks.
        </p>
        {list.length === 0 ? (
          <p>Publishing is not set up on this server.</p>
        ) : (
          <ul className="rs-connections__list" aria-label="Connections">
            {list.map((connection) => (
              <ConnectionRow key={connection.platform} connection={connection} />
            ))}
          </ul>
        )}
      </section>
      <ScheduledPosts />
    </div>
  );
}
