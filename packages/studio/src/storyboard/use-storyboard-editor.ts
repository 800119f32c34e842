import { isActiveJobStatus, MUSIC_VOLUME_DEFAULT, type Storyboard, type VideoJob } from '@reelsmith/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../api/api-client.js';
import { videoListQueryKey } from '../jobs/video-queries.js';
import { useJobService, useJobStore } from '../jobs/jobs-context.js';
import { usePlatform } from '../platform.js';
import { useApi, useAuth } from '../services.js';
import { toast } from '../toaster.js';
import { versionsQueryKey } from '../videos/version-menu.js';
import type { FieldErrors } from './scene-card.js';
import { adoptSceneIds, draftFrom, toUpdateBody, updateScene, type StoryboardDraft } from './storyboard-model.js';
import { clearLocalDraft, readLocalDraft, writeLocalDraft } from './local-draft.js';
import { storyboardQueryKey } from './storyboard-queries.js';
import { uploadFile } from './upload-file.js';

/** Edits pause this long before the draft is saved, so typing sends one request, not one per key. */
export const AUTOSAVE_DELAY_MS = 1000;

/** Where the draft stands against the server: `pending` is an edit waiting for its save. */
export type SaveStatus = 'saved' | 'pending' | 'saving' | 'failed';

/**
 * The storyboard editor's state: the server's storyboard and job, the creator's draft, its errors,
 * and the actions (render, uploads). The draft saves itself a moment after each edit; until the
 * server has it, a copy stays on this device and comes back when the storyboard opens again. When a
 * render finishes, the storyboard (timings, pictures) and the versions are read again.
 */
export function useStoryboardEditor(id: string) {
  const api = useApi();
  const { storage } = usePlatform();
  const token = useAuth((s) => s.token);
  const service = useJobService();
  const queryClient = useQueryClient();
  const job = useJobStore((state) => state.jobs[id]);
  const [draft, setDraft] = useState<StoryboardDraft | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'rendering' | null>(null);
  const [musicBusy, setMusicBusy] = useState(false);
  const [expectedVersion, setExpectedVersion] = useState<number | null>(null);
  /** The update body (as JSON) the server last accepted; the draft is saved when it differs. */
  const [savedBody, setSavedBody] = useState<string | null>(null);
  /** The body whose save failed: not tried again by itself until the creator edits or asks. */
  const [failedBody, setFailedBody] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const draftRef = useRef<StoryboardDraft | null>(null);
  const saveChain = useRef<Promise<unknown>>(Promise.resolve());

  const boardQuery = useQuery({
    queryKey: storyboardQueryKey(id),
    queryFn: () => api.call('storyboard', { params: { id } }),
    enabled: id !== '',
    retry: false,
  });
  const detailQuery = useQuery({
    queryKey: ['videos', 'detail', id],
    queryFn: () => api.call('video', { params: { id } }),
    enabled: id !== '',
  });
  const board: Storyboard | undefined = boardQuery.data;
  const current: VideoJob | undefined = job ?? detailQuery.data?.job;
  const rendering = current ? isActiveJobStatus(current.status) : false;

  useEffect(() => {
    draftRef.current = draft;
  }, [draft]);

  useEffect(() => {
    if (!board || draft !== null) return;
    const fresh = draftFrom(board);
    setSavedBody(JSON.stringify(toUpdateBody(fresh)));
    const kept = readLocalDraft(storage, id, board.version);
    if (kept) {
      setDraft(kept);
      toast.success('Your unsaved changes are back');
    } else {
      setDraft(fresh);
    }
  }, [board, draft, storage, id]);

  const finishedVersion = current?.status === 'completed' ? current.result?.version : undefined;
  const lastSeen = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (expectedVersion === null || finishedVersion !== expectedVersion || lastSeen.current === finishedVersion) return;
    lastSeen.current = finishedVersion;
    setExpectedVersion(null);
    toast.success(`Version ${finishedVersion} is ready`);
    void queryClient.invalidateQueries({ queryKey: versionsQueryKey(id) });
    void queryClient.invalidateQueries({ queryKey: videoListQueryKey });
    void boardQuery.refetch().then((result) => {
      if (!result.data) return;
      const fresh = draftFrom(result.data);
      setSavedBody(JSON.stringify(toUpdateBody(fresh)));
      setDraft(fresh);
    });
  }, [expectedVersion, finishedVersion, id, queryClient, boardQuery]);

  const edit = (next: StoryboardDraft) => {
    setDraft(next);
    setErrors({});
    setFormError(null);
  };

  const showError = useCallback((error: unknown, fallback: string) => {
    if (error instanceof ApiError && error.fromServer && error.field && error.field !== 'scenes') {
      setErrors({ [error.field]: error.message });
      setFormError(error.message);
    } else {
      setFormError(errorMessage(error, fallback));
    }
  }, []);

  const body = draft ? JSON.stringify(toUpdateBody(draft)) : null;
  const dirty = body !== null && savedBody !== null && body !== savedBody;

  /** Saves the latest draft; saves run one after another so an older one never lands last. */
  const save = useCallback((): Promise<boolean> => {
    const run = async (): Promise<boolean> => {
      const snapshot = draftRef.current;
      if (!snapshot) return false;
      const sent = toUpdateBody(snapshot);
      setSaving(true);
      try {
        const saved = await api.call('updateStoryboard', { params: { id }, body: sent });
        queryClient.setQueryData(storyboardQueryKey(id), saved);
        // Scenes added since the last save now have server ids; the draft keeps every later keystroke.
        const ids = new Map(snapshot.scenes.map((scene, index) => [scene.key, saved.scenes[index]?.id]));
        setSavedBody(JSON.stringify(toUpdateBody(adoptSceneIds(snapshot, ids))));
        setDraft((before) => (before ? adoptSceneIds(before, ids) : before));
        setFailedBody(null);
        return true;
      } catch (error) {
        setFailedBody(JSON.stringify(sent));
        showError(error, 'The storyboard could not be saved. Try again in a moment.');
        return false;
      } finally {
        setSaving(false);
      }
    };
    const next = saveChain.current.then(run, run);
    saveChain.current = next;
    return next;
  }, [api, id, queryClient, showError]);

  const locked = rendering || busy !== null;

  // The local copy: kept while the server lacks the draft, dropped once it has it.
  useEffect(() => {
    if (!board || !draft || savedBody === null) return;
    if (dirty) writeLocalDraft(storage, id, board.version, draft);
    else clearLocalDraft(storage, id);
  }, [board, draft, dirty, savedBody, storage, id]);

  useEffect(() => {
    if (!dirty || saving || locked || body === failedBody) return;
    const timer = setTimeout(() => void save(), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [dirty, saving, locked, body, failedBody, save]);

  const saveStatus: SaveStatus = saving ? 'saving' : !dirty ? 'saved' : body === failedBody ? 'failed' : 'pending';

  const render = async () => {
    setBusy('rendering');
    try {
      if (!(await save())) return;
      const response = await service.render(id);
      setExpectedVersion(response.version);
      toast.success(`Rendering version ${response.version}`);
    } catch (error) {
      showError(error, 'The render could not be started. Try again in a moment.');
    } finally {
      setBusy(null);
    }
  };

  const uploadPicture = async (index: number, file: File) => {
    try {
      const uploaded = await uploadFile(api, token, file);
      setDraft((before) =>
        before
          ? updateScene(before, index, { imageUploadId: uploaded.id, previewUrl: URL.createObjectURL(file), regenerateImage: false })
          : before,
      );
      setErrors({});
      toast.success(`Picture added to scene ${index + 1}`);
    } catch (error) {
      const message = errorMessage(error, 'The picture could not be uploaded. Try again in a moment.');
      setErrors({ [`scenes.${index}.imageUploadId`]: message });
      toast.error(message);
    }
  };

  const uploadMusic = async (file: File) => {
    setMusicBusy(true);
    try {
      const uploaded = await uploadFile(api, token, file);
      if (uploaded.kind !== 'audio')
        throw new ApiError('That file is a picture. Choose an MP3, WAV or M4A file.', 400, { fromServer: true });
      setDraft((before) =>
        before
          ? {
              ...before,
              music: { uploadId: uploaded.id, volumePercent: before.music?.volumePercent ?? MUSIC_VOLUME_DEFAULT, name: file.name },
            }
          : before,
      );
    } catch (error) {
      const message = errorMessage(error, 'The music could not be uploaded. Try again in a moment.');
      setErrors({ 'music.uploadId': message });
      toast.error(message);
    } finally {
      setMusicBusy(false);
    }
  };

  return {
    boardQuery,
    board,
    job,
    current,
    params: current?.params ?? detailQuery.data?.job.params,
    rendering,
    draft,
    errors,
    formError,
    busy,
    musicBusy,
    locked,
    saveStatus,
    edit,
    retrySave: () => void save(),
    render,
    uploadPicture,
    uploadMusic,
  };
}
