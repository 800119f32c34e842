import { createStore } from 'zustand/vanilla';

/**
 * The one preview allowed to sound at a time, shared by every VoicePreview on the page
 * (starting another voice stops the previous one).
 */
export interface AudioCoordinatorState {
  current: { id: string; audio: HTMLAudioElement } | null;
}

export const audioCoordinator = createStore<AudioCoordinatorState>(() => ({ current: null }));

/** Makes `audio` the playing preview, pausing whichever one played before. */
export function claimPlayback(id: string, audio: HTMLAudioElement): void {
  const previous = audioCoordinator.getState().current;
  if (previous && previous.audio !== audio) previous.audio.pause();
  audioCoordinator.setState({ current: { id, audio } });
}

/** Forgets `audio` if it is the current preview (it paused, ended or its control unmounted). */
export function releasePlayback(audio: HTMLAudioElement): void {
  if (audioCoordinator.getState().current?.audio === audio) audioCoordinator.setState({ current: null });
}

export function stopAllPlayback(): void {
  audioCoordinator.getState().current?.audio.pause();
  audioCoordinator.setState({ current: null });
}
