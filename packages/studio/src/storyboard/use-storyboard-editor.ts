import { isActiveJobStatus, MUSIC_VOLUME_DEFAULT, storyboardConflictSchema, type Storyboard, type VideoJob } from '@reelsmith/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../api/api-client.js';
import { videoListQueryKey } from '../shared/jobs/video-queries.js';
import { useJobService, useJobStore } from '../shared/jobs/jobs-context.js';
import { usePlatform } from '../platform.js';
import { useApi, useAuth } from '../services.js';
import { toast } from '../toaster.js';
import { versionsQueryKey } from '../shared/videos/version-menu.js';
import type { FieldErrors } from './scene-card.js';
import {
  adoptSceneIds,
  budgetExcess,
  draftFrom,
  keepKnownSceneIds,
  toUpdateBody,
  updateScene,
  type StoryboardDraft,
} from './storyboard-model.js';
import { clearLocalDraft, readLocalDraft, writeLocalDraft } from './local-draft.js';
import { storyboardQueryKey } from './storyboard-queries.js';
import { uploadFile } from '../shared/upload-file.js';

/** Edits pause this long before the draft is saved, so typing sends one request, not one per key. */
export const AUTOSAVE_DELAY_MS = 1000;

/** After a 429 the draft is sent again by itself this long later (the server allows 20 writes in 10 s per video). */
export const RATE_LIMITED_RETRY_MS = 5000;

/**
 * Where the draft stands against the server: `pending` is an edit waiting for its save; `failed` a
 * save that may work if tried again; `invalid` a draft the server cannot take as it is (trying again
 * cannot help, `invalidText` says what to fix); `conflict` a storyboard changed elsewhere since.
 */
export type SaveStatus = 'saved' | 'pending' | 'saving' | 'failed' | 'invalid' | 'conflict';

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
  /** Why it failed: `retry` (the network, the server) may pass next time; `fix` (a 4xx about the draft) cannot. */
  const [failure, setFailure] = useState<'retry' | 'fix'>('retry');
  const [saving, setSaving] = useState(false);
  /** The storyboard as another tab saved it, while the creator has not chosen between it and their draft. */
  const [conflict, setConflict] = useState<Storyboard | null>(null);
  const draftRef = useRef<StoryboardDraft | null>(null);
  /** The ETag of the version this draft edits; every save names it in If-Match. */
  const revision = useRef<string | null>(null);
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
    revision.current = board.revision;
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
      revision.current = result.data.revision;
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
        const saved = await api.call('updateStoryboard', {
          params: { id },
          body: sent,
          ...(revision.current ? { ifMatch: `"${revision.current}"` } : {}),
        });
        revision.current = saved.revision;
        queryClient.setQueryData(storyboardQueryKey(id), saved);
        // Scenes added since the last save now have server ids; the draft keeps every later keystroke.
        const ids = new Map(snapshot.scenes.map((scene, index) => [scene.key, saved.scenes[index]?.id]));
        setSavedBody(JSON.stringify(toUpdateBody(adoptSceneIds(snapshot, ids))));
        setDraft((before) => (before ? adoptSceneIds(before, ids) : before));
        setFailedBody(null);
        return true;
      } catch (error) {
        const changedElsewhere = error instanceof ApiError && error.status === 412 ? storyboardConflictSchema.safeParse(error.body) : null;
        if (changedElsewhere?.success) {
          // Autosave stops here: sending the draft again would overwrite the other tab's work unseen.
          setConflict(changedElsewhere.data.storyboard);
          return false;
        }
        setFailedBody(JSON.stringify(sent));
        if (error instanceof ApiError && error.status === 429) {
          // Too many saves of this video in a row: waiting is the whole remedy, so it is sent again by itself.
          setFailure('retry');
          setTimeout(() => setFailedBody((failed) => (failed === JSON.stringify(sent) ? null : failed)), RATE_LIMITED_RETRY_MS);
          return false;
        }
        setFailure(error instanceof ApiError && error.fromServer && error.status >= 400 && error.status < 500 ? 'fix' : 'retry');
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

  const excess = draft && board ? budgetExcess(draft, board.durationSeconds) : 0;

  useEffect(() => {
    // A draft over the word budget is not sent: the server would refuse it, and saying so before is clearer.
    if (!dirty || saving || locked || body === failedBody || conflict !== null || excess > 0) return;
    const timer = setTimeout(() => void save(), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [dirty, saving, locked, body, failedBody, conflict, excess, save]);

  const saveStatus: SaveStatus =
    conflict !== null
      ? 'conflict'
      : saving
        ? 'saving'
        : !dirty
          ? 'saved'
          : excess > 0
            ? 'invalid'
            : body === failedBody
              ? failure === 'fix'
                ? 'invalid'
                : 'failed'
              : 'pending';
  const invalidText = excess > 0 ? `cut ${excess} ${excess === 1 ? 'word' : 'words'}` : 'fix what is marked';

  /** "Reload": the other tab's storyboard replaces this draft. */
  const takeTheirs = () => {
    if (!conflict) return;
    revision.current = conflict.revision;
    queryClient.setQueryData(storyboardQueryKey(id), conflict);
    const fresh = draftFrom(conflict);
    setSavedBody(JSON.stringify(toUpdateBody(fresh)));
    setDraft(fresh);
    setFailedBody(null);
    setErrors({});
    setFormError(null);
    setConflict(null);
    clearLocalDraft(storage, id);
  };

  /** "Keep yours": this draft is saved over the version the other tab made, now that the creator has seen it. */
  const keepMine = async (): Promise<boolean> => {
    if (!conflict) return false;
    revision.current = conflict.revision;
    // Scenes the other tab deleted cannot be named by id any more; they are saved as new scenes.
    const known = new Set(conflict.scenes.map((scene) => scene.id));
    setDraft((before) => (before ? keepKnownSceneIds(before, known) : before));
    if (draftRef.current) draftRef.current = keepKnownSceneIds(draftRef.current, known);
    setConflict(null);
    return save();
  };

  const render = async () => {
    if (conflict) return;
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
    invalidText,
    conflict,
    takeTheirs,
    keepMine: () => void keepMine(),
    edit,
    retrySave: () => void save(),
    render,
    uploadPicture,
    uploadMusic,
  };
}
