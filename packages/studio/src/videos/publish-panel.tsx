import {
  PLATFORM_CONSTRAINTS,
  PLATFORM_NAMES,
  PUBLICATION_STATUSES,
  type Connection,
  type Platform,
  type Publication,
  type PublicationPrivacy,
  type PublishPlatform,
  type VideoJob,
} from '@reelsmith/contracts';
import * as Dialog from '@radix-ui/react-dialog';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../api/api-client.js';
import { useApi } from '../services.js';
import { toast } from '../toaster.js';
import { parseHashtags } from './post-kit-panel.js';
import './publish-panel.css';
import { HeldOnYouTubeActions, heldLine, isHeldOnYouTube, localTime } from '../shared/videos/youtube-hold.js';

export const connectionsQueryKey = ['connections'] as const;
const publicationsKey = (videoId: string) => ['publications', videoId] as const;

const ACTIVE: readonly Publication['status'][] = PUBLICATION_STATUSES.filter((status) =>
  ['queued', 'uploading', 'processing'].includes(status),
);
const STATUS_LABELS: Record<Publication['status'], string> = {
  queued: 'Queued',
  uploading: 'Uploading',
  processing: 'Processing',
  published: 'Published',
  failed: 'Failed',
  cancelled: 'Cancelled',
};
const PRIVACY_LABELS: Record<PublicationPrivacy, string> = { public: 'Public', unlisted: 'Unlisted', private: 'Private' };

const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

function PublicationLine({ publication, videoId }: { publication: Publication; videoId: string }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const name = PLATFORM_NAMES[publication.platform];
  const cancel = useMutation({
    mutationFn: () => api.call('cancelPublication', { params: { id: publication.id } }),
    onSuccess: async () => {
      toast.success(`The ${name} post was cancelled`);
      await queryClient.invalidateQueries({ queryKey: publicationsKey(videoId) });
    },
    onError: (error) => toast.error(errorMessage(error, 'Could not cancel it')),
  });
  const ahead = publication.publishAt !== null && Date.parse(publication.publishAt) > Date.now();
  // YouTube schedules on its side: the video is uploaded now and held private there (cancelled there, not here).
  const youtube = publication.platform === 'youtube';
  const scheduled = publication.status === 'queued' && ahead && !youtube;
  const uploadingForLater = youtube && ahead && ACTIVE.includes(publication.status);
  const held = isHeldOnYouTube(publication);
  return (
    <li className={`rs-publication rs-publication--${publication.status}`} data-platform={publication.platform}>
      <span className="rs-publication__platform">{name}</span>
      <span className="rs-chip rs-publication__status">{held ? 'Uploaded' : STATUS_LABELS[publication.status]}</span>
      {publication.status === 'uploading' ? <span>{publication.progress}%</span> : null}
      {scheduled ? <span>for {localTime(publication.publishAt!)}</span> : null}
      {uploadingForLater ? <span>Uploading now: YouTube will make it public at {localTime(publication.publishAt!)}</span> : null}
      {held ? <span className="rs-publication__held">{heldLine(publication)}</span> : null}
      {publication.status === 'published' && publication.url ? (
        <a href={publication.url} target="_blank" rel="noreferrer" className="rs-publication__link">
          View on {name}
        </a>
      ) : null}
      {publication.error && publication.status !== 'published' ? <span className="rs-publication__error">{publication.error}</span> : null}
      {publication.warning ? <span className="rs-publication__warning">{publication.warning}</span> : null}
      {held ? <HeldOnYouTubeActions publication={publication} /> : null}
      {scheduled ? (
        <button
          type="button"
          className="rs-button rs-button--ghost rs-button--small"
          disabled={cancel.isPending}
          onClick={() => cancel.mutate()}
        >
          Cancel
        </button>
      ) : null}
    </li>
  );
}

interface PlatformDraft {
  selected: boolean;
  title: string;
  description: string;
  hashtags: string;
  privacy: PublicationPrivacy;
  /** TikTok: what others may do with the post (none unless chosen, as TikTok's guidelines ask). */
  allowComments: boolean;
  allowDuet: boolean;
  allowStitch: boolean;
}

/** The privacy settings this connection can post with now (TikTok: Private only until the app is audited). */
const privacyChoices = (connection: Connection | undefined, platform: Platform): readonly PublicationPrivacy[] =>
  connection?.privacyOptions && connection.privacyOptions.length > 0
    ? connection.privacyOptions
    : PLATFORM_CONSTRAINTS[platform].privacyOptions;

/** What the platform will refuse or show badly, said before anything is sent. */
function constraintProblems(platform: Platform, draft: PlatformDraft, job: Pick<VideoJob, 'params'>): string[] {
  const rules = PLATFORM_CONSTRAINTS[platform];
  const problems: string[] = [];
  const text = [platform === 'youtube' ? '' : draft.title, draft.description, draft.hashtags].filter(Boolean).join('\n\n');
  if (rules.titleMaxLength !== null && [...draft.title].length > rules.titleMaxLength)
    problems.push(`Title over ${rules.titleMaxLength} characters`);
  if ([...text].length > rules.textMaxLength) problems.push(`Text over ${rules.textMaxLength} characters`);
  if (parseHashtags(draft.hashtags).length > rules.hashtagsMax) problems.push(`More than ${rules.hashtagsMax} hashtags`);
  if (job.params.duration > rules.maxDurationSeconds) problems.push(`Longer than ${rules.maxDurationSeconds} seconds`);
  const resolution = job.params.resolution ?? '9:16';
  if (!rules.aspectRatios.includes(resolution)) problems.push(`${resolution} is shown with bars (best: ${rules.aspectRatios.join(', ')})`);
  return problems;
}

type PublishableJob = Pick<VideoJob, 'id' | 'result' | 'params'>;

/**
 * The Publish dialog, for one video (its text editable per platform) or a batch (each video goes with
 * its own post kit; platforms, privacy and time are chosen once for all).
 */
function PublishDialog({ jobs, onClose }: { jobs: readonly PublishableJob[]; onClose(): void }) {
  const job = jobs[0]!;
  const batch = jobs.length > 1;
  const api = useApi();
  const queryClient = useQueryClient();
  const ids = { when: useId(), at: useId() };
  const connections = useQuery({ queryKey: connectionsQueryKey, queryFn: () => api.call('connections') });
  const post = job.result?.post;
  const [drafts, setDrafts] = useState<Partial<Record<Platform, PlatformDraft>>>({});
  const [when, setWhen] = useState<'now' | 'later'>('now');
  const [at, setAt] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const all = connections.data?.connections ?? [];
  const draftFor = (platform: Platform): PlatformDraft =>
    drafts[platform] ?? {
      selected: false,
      title: post?.title ?? job.result?.title ?? '',
      description: post?.description ?? '',
      hashtags: (post?.hashtags ?? []).join(' '),
      privacy: privacyChoices(
        all.find((connection) => connection.platform === platform),
        platform,
      )[0]!,
      allowComments: false,
      allowDuet: false,
      allowStitch: false,
    };
  const change = (platform: Platform, next: Partial<PlatformDraft>) =>
    setDrafts((drafted) => ({ ...drafted, [platform]: { ...draftFor(platform), ...next } }));
  const usable = all.filter((connection: Connection) => connection.connected && !connection.needsReconnect && !connection.problem);
  // Connected but unable to post until reconnected (a permission unticked, or withdrawn): said, with where to fix it.
  const blocked = all.filter((connection: Connection) => connection.connected && (connection.needsReconnect || connection.problem));
  const later = when === 'later';
  const laterTime = at && !Number.isNaN(new Date(at).getTime()) ? localTime(new Date(at).toISOString()) : null;
  const chosen = usable.filter((connection) => draftFor(connection.platform).selected);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (chosen.length === 0) return setFailure('Choose at least one platform.');
    let publishAt: string | undefined;
    if (when === 'later') {
      const time = new Date(at);
      if (!at || Number.isNaN(time.getTime())) return setFailure('Choose the date and time to publish at.');
      publishAt = time.toISOString();
    }
    const platforms: PublishPlatform[] = chosen.map((connection) => {
      const { platform } = connection;
      const draft = draftFor(platform);
      const choices = privacyChoices(connection, platform);
      return {
        platform,
        // A batch leaves the text out: each video goes with its own post kit.
        ...(batch ? {} : { title: draft.title.trim(), description: draft.description, hashtags: parseHashtags(draft.hashtags) }),
        // YouTube makes a scheduled video public at its time (uploaded private until then).
        privacy: platform === 'youtube' && publishAt ? 'public' : choices.includes(draft.privacy) ? draft.privacy : choices[0]!,
        ...(platform === 'tiktok'
          ? { allowComments: draft.allowComments, allowDuet: draft.allowDuet, allowStitch: draft.allowStitch }
          : {}),
        ...(publishAt ? { publishAt } : {}),
      };
    });
    setSending(true);
    const refused: string[] = [];
    for (const each of jobs) {
      try {
        await api.call('publishVideo', { params: { id: each.id }, body: { platforms } });
      } catch (error) {
        refused.push(errorMessage(error, 'Could not publish the video'));
      }
      await queryClient.invalidateQueries({ queryKey: publicationsKey(each.id) });
    }
    setSending(false);
    if (refused.length === 0) {
      const what = batch ? `${jobs.length} videos` : 'The video';
      toast.success(
        publishAt ? `${what} scheduled for ${localTime(publishAt)}` : batch ? `Publishing ${jobs.length} videos` : 'Publishing started',
      );
      onClose();
    } else setFailure(batch ? `${jobs.length - refused.length} of ${jobs.length} sent. ${refused[0]}` : refused[0]!);
  };

  return (
    <Dialog.Root open onOpenChange={(open) => (!open && !sending ? onClose() : undefined)}>
      <Dialog.Portal>
        <Dialog.Overlay className="rs-dialog__overlay" />
        <Dialog.Content className="rs-dialog rs-publish-dialog">
          <Dialog.Title className="rs-dialog__title">{batch ? `Publish ${jobs.length} videos` : 'Publish'}</Dialog.Title>
          <Dialog.Description className="rs-dialog__description">
            Posted with your own accounts, marked as AI-generated where the platform asks.
            {batch ? ' Each video goes with its own title, description and hashtags.' : ''}
          </Dialog.Description>
          {connections.isLoading ? <p>Loading your connections…</p> : null}
          {!connections.isLoading && usable.length === 0 ? (
            <p>
              No account is connected yet. <Link to="/settings?tab=connections">Connect one in Settings → Connections</Link>.
            </p>
          ) : null}
          {blocked.length > 0 ? (
            <ul className="rs-publish-dialog__blocked" aria-label="Connections to fix">
              {blocked.map((connection) => (
                <li key={connection.platform}>
                  {connection.problem ?? `Reconnect ${PLATFORM_NAMES[connection.platform]}: its permission ended or was withdrawn.`}{' '}
                  <Link to="/settings?tab=connections">Open Settings → Connections</Link>
                </li>
              ))}
            </ul>
          ) : null}
          <form noValidate onSubmit={(event) => void submit(event)} aria-label="Publish">
            {usable.map((connection) => {
              const { platform, account } = connection;
              const draft = draftFor(platform);
              const rules = PLATFORM_CONSTRAINTS[platform];
              const choices = privacyChoices(connection, platform);
              const heldByYouTube = platform === 'youtube' && later;
              const problems = batch ? [] : constraintProblems(platform, draft, job);
              return (
                <fieldset key={platform} className="rs-publish-dialog__platform">
                  <legend>
                    <label>
                      <input
                        type="checkbox"
                        checked={draft.selected}
                        onChange={(event) => change(platform, { selected: event.target.checked })}
                      />{' '}
                      {PLATFORM_NAMES[platform]}
                      {account ? <span className="rs-publish-dialog__account"> · {account.name}</span> : null}
                    </label>
                  </legend>
                  {draft.selected ? (
                    <div className="rs-publish-dialog__fields">
                      {batch ? null : (
                        <>
                          <label className="rs-field__label">
                            Title
                            <input
                              className="rs-field__input"
                              value={draft.title}
                              maxLength={100}
                              onChange={(event) => change(platform, { title: event.target.value })}
                            />
                          </label>
                          <label className="rs-field__label">
                            {platform === 'youtube' ? 'Description' : 'Caption'}
                            <textarea
                              className="rs-field__input"
                              rows={4}
                              value={draft.description}
                              onChange={(event) => change(platform, { description: event.target.value })}
                            />
                          </label>
                          <label className="rs-field__label">
                            Hashtags
                            <input
                              className="rs-field__input"
                              value={draft.hashtags}
                              onChange={(event) => change(platform, { hashtags: event.target.value })}
                            />
                          </label>
                        </>
                      )}
                      {heldByYouTube ? (
                        // Unlisted or private with a time means nothing on YouTube: it is public at the time.
                        <p className="rs-publish-dialog__held" role="status">
                          YouTube gets it now, private, and it will be public at {laterTime ?? 'the time you choose'}. Until then you can
                          keep it private or delete it from its line under the video.
                        </p>
                      ) : (
                        <label className="rs-field__label">
                          Privacy
                          <select
                            className="rs-field__input rs-select"
                            value={choices.includes(draft.privacy) ? draft.privacy : choices[0]}
                            onChange={(event) => change(platform, { privacy: event.target.value as PublicationPrivacy })}
                          >
                            {choices.map((option) => (
                              <option key={option} value={option}>
                                {PRIVACY_LABELS[option]}
                              </option>
                            ))}
                          </select>
                        </label>
                      )}
                      {platform === 'tiktok' ? (
                        <fieldset className="rs-publish-dialog__interactions">
                          <legend>Others may</legend>
                          {(
                            [
                              ['allowComments', 'Comment'],
                              ['allowDuet', 'Duet'],
                              ['allowStitch', 'Stitch'],
                            ] as const
                          ).map(([key, label]) => (
                            <label key={key} className="rs-publish-dialog__check">
                              <input
                                type="checkbox"
                                checked={draft[key]}
                                onChange={(event) => change(platform, { [key]: event.target.checked })}
                              />{' '}
                              {label}
                            </label>
                          ))}
                        </fieldset>
                      ) : null}
                      <p className="rs-publish-dialog__rules">
                        Up to {rules.maxDurationSeconds} s · {rules.aspectRatios.join(', ')} · text up to {rules.textMaxLength} characters.{' '}
                        {rules.note}
                      </p>
                      {problems.length > 0 ? (
                        <ul className="rs-publish-dialog__problems" aria-label={`${PLATFORM_NAMES[platform]} warnings`}>
                          {problems.map((problem) => (
                            <li key={problem}>{problem}</li>
                          ))}
                        </ul>
                      ) : null}
                    </div>
                  ) : null}
                </fieldset>
              );
            })}
            {usable.length > 0 ? (
              <fieldset className="rs-publish-dialog__when">
                <legend>When</legend>
                <label>
                  <input type="radio" name={ids.when} checked={when === 'now'} onChange={() => setWhen('now')} /> Now
                </label>
                <label>
                  <input type="radio" name={ids.when} checked={when === 'later'} onChange={() => setWhen('later')} /> At a date and time
                </label>
                {when === 'later' ? (
                  <label htmlFor={ids.at} className="rs-field__label">
                    Date and time ({timeZone()})
                    <input
                      id={ids.at}
                      type="datetime-local"
                      className="rs-field__input"
                      value={at}
                      onChange={(event) => setAt(event.target.value)}
                    />
                  </label>
                ) : null}
              </fieldset>
            ) : null}
            {failure ? (
              <p className="rs-field__error" role="alert">
                {failure}
              </p>
            ) : null}
            <div className="rs-dialog__actions">
              <button type="button" className="rs-button rs-button--ghost" onClick={onClose} disabled={sending}>
                Close
              </button>
              {usable.length > 0 ? (
                <button type="submit" className="rs-button rs-button--primary" disabled={sending}>
                  {sending ? 'Sending…' : when === 'later' ? 'Schedule' : 'Publish now'}
                </button>
              ) : null}
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Under a finished video in My Videos: its publications (state, link, cancel a scheduled one) and the Publish dialog. */
export default function PublishPanel({ job, title }: { job: Pick<VideoJob, 'id' | 'result' | 'params'>; title: string }) {
  const api = useApi();
  const [open, setOpen] = useState(false);
  const publications = useQuery({
    queryKey: publicationsKey(job.id),
    queryFn: () => api.call('videoPublications', { params: { id: job.id } }),
    // Followed closely while one is on its way, loosely while they wait for their time.
    refetchInterval: (query) => {
      const active = (query.state.data?.publications ?? []).filter((publication) => ACTIVE.includes(publication.status));
      if (active.length === 0) return false;
      // A scheduled YouTube post is uploaded now (YouTube holds it until its time): followed closely too.
      const waiting = active.every(
        (publication) =>
          publication.platform !== 'youtube' && publication.publishAt && Date.parse(publication.publishAt) > Date.now() + 5_000,
      );
      return waiting ? 30_000 : 2_000;
    },
  });
  const list = publications.data?.publications ?? [];
  return (
    <div className="rs-publish-panel">
      {list.length > 0 ? (
        <ul className="rs-publish-panel__list" aria-label={`Publications of ${title}`}>
          {list.map((publication) => (
            <PublicationLine key={publication.id} publication={publication} videoId={job.id} />
          ))}
        </ul>
      ) : null}
      <button
        type="button"
        className="rs-button rs-button--ghost rs-button--small"
        onClick={() => setOpen(true)}
        aria-label={`Publish ${title}`}
      >
        Publish
      </button>
      {open ? <PublishDialog jobs={[job]} onClose={() => setOpen(false)} /> : null}
    </div>
  );
}

/** My Videos' bulk action: the selected finished videos, published with one choice of platforms and time. */
export function PublishSelectedButton({ jobs }: { jobs: readonly PublishableJob[] }) {
  const [open, setOpen] = useState(false);
  if (jobs.length === 0) return null;
  return (
    <>
      <button type="button" className="rs-button rs-button--ghost rs-button--small" onClick={() => setOpen(true)}>
        Publish selected ({jobs.length})
      </button>
      {open ? <PublishDialog jobs={jobs} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
