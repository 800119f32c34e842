export const storyboardQueryKey = (videoId: string) => ['storyboard', videoId] as const;
