/** How the admin pages name the pipeline's steps (the throughput table, the crashed jobs). */
export const STEP_NAMES: Record<string, string> = { setup: 'Setup', story: 'Story', voice: 'Voice', images: 'Pictures', video: 'Render' };

/** "Story step" for a stored step name; an unknown one is shown as it is stored. */
export const stepName = (step: string): string => STEP_NAMES[step] ?? step;
