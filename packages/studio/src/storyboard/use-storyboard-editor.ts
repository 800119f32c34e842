import { isActiveJobStatus, MUSIC_VOLUME_DEFAULT, type Storyboard, type VideoJob } from '@reelsmith/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from '../api/api-client.js';
import { videoListQueryKey } from '../jobs/video-queries.js';
import { useJobService, useJobStore } from '../jobs/jobs-context.js';
import { useApi, useAuth } from '../services.js';
import { toast } from '../toaster.js';
import { versionsQueryKey } from '../videos/version-menu.js';
import type { FieldErrors } from './scene-card.js';
import { draftFrom, toUpdateBody, updateScene, type StoryboardDraft } from './storyboard-model.js';
import { storyboardQueryKey } from './storyboard-queries.js';
import { uploadFile } from './upload-file.js';

/**
 * The storyboard editor's state: the server's storyboard and job, the creator's draft, its errors,
 * and the actions (save, render, uploads). When a render finishes, the storyboard (timings,
 * pictures) and the versions are read again.
 */
export function useStoryboardEditor(id: string) {
  const api = useApi();
  const token = useAuth((s) => s.token);
  const service = useJobService();
  const queryClient = useQueryClient();
  const job = useJobStore((state) => state.jobs[id]);
  const [draft, setDraft] = useState<StoryboardDraft | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'saving' | 'rendering' | null>(null);
  const [musicBusy, setMusicBusy] = useState(false);
  const [expectedVersion, setExpectedVersion] = useState<number | null>(null);

  const boardQuery = useQuery({ queryKey: storyboardQueryKey(id), queryFn: () => api.call('storyboard', { params: { id } }), enabled: id !== '', retry: false });
  const detailQuery = useQuery({ queryKey: ['videos', 'detail', id], queryFn: () => api.call('video', { params: { id } }), enabled: id !== '' });
  const board: Storyboard | undefined = boardQuery.data;
  const current: VideoJob | undefined = job ?? detailQuery.data?.job;
  const rendering = current ? isActiveJobStatus(current.status) : false;

  useEffect(() => {
    if (board && draft === null) setDraft(draftFrom(board));
  }, [board, draft]);

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
      if (result.data) setDraft(draftFrom(result.data));
    });
  }, [expectedVersion, finishedVersion, id, queryClient, boardQuery]);

  useEffect(() => {
    if (expectedVersion !== null && current?.status === 'completed' && current.error && current.result?.version !== expectedVersion) {
      toast.error(current.error);
      setExpectedVersion(null);
    }
  }, [expectedVersion, current]);

  const edit = (next: StoryboardDraft) => {
    setDraft(next);
    setErrors({});
    setFormError(null);
  };

  const showError = (error: unknown, fallback: string) => {
    if (error instanceof ApiError && error.fromServer && error.field && error.field !== 'scenes') {
      setErrors({ [error.field]: error.message });
      setFormError(error.message);
    } else {
      setFormError(errorMessage(error, fallback));
    }
  };

  const save = async (): Promise<boolean> => {
    if (!draft) return false;
    try {
      const saved = await api.call('updateStoryboard', { params: { id }, body: toUpdateBody(draft) });
      queryClient.setQueryData(storyboardQueryKey(id), saved);
      // Keep local previews of pictures just uploaded until the render shows the real ones.
      const next = draftFrom(saved);
      next.scenes = next.scenes.map((scene, index) => ({ ...scene, ...(draft.scenes[index]?.previewUrl && scene.imageUploadId ? { previewUrl: draft.scenes[index]!.previewUrl } : {}) }));
      setDraft(next);
      return true;
    } catch (error) {
      showError(error, 'The storyboard could not be saved. Try again in a moment.');
      return false;
    }
  };

  const saveOnly = async () => {
    setBusy('saving');
    if (await save()) toast.success('Storyboard saved');
    setBusy(null);
  };

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
      setDraft((before) => (before ? updateScene(before, index, { imageUploadId: uploaded.id, previewUrl: URL.createObjectURL(file), regenerateImage: false }) : before));
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
      if (uploaded.kind !== 'audio') throw new ApiError('That file is a picture. Choose an MP3, WAV or M4A file.', 400, { fromServer: true });
      setDraft((before) => (before ? { ...before, music: { uploadId: uploaded.id, volumePercent: before.music?.volumePercent ?? MUSIC_VOLUME_DEFAULT, name: file.name } } : before));
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
    locked: rendering || busy !== null,
    edit,
    saveOnly,
    render,
    uploadPicture,
    uploadMusic,
  };
}
