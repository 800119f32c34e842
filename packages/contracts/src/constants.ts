/** Business constants and limits (plans, quotas, timings) the client and server share. */
export const FREE_VIDEO_MAX_SECONDS = 30;
export const SCENES_PER_DURATION = { 30: 5, 60: 11, 90: 16 } as const;
export const PASSWORD_MIN_LENGTH = 6;
export const NAME_MIN_LENGTH = 2;
export const UNLIMITED_VIDEOS = -1;
export const PLAN_CARD_FEATURE_COUNT = 4;
export const GST_RATE = 0.18;

export const DEFAULT_QUOTA_TOTAL = 560;
export const SAMPLE_COUNT_THRESHOLDS = { success: 560, warning: 280 } as const;
export const SAMPLE_PERCENT_THRESHOLDS = { success: 90, warning: 50 } as const;
export const DEFAULT_PREVIEW_VOICE_PROVIDER = 'elevenlabs';

export const REFRESH_INTERVALS_MS = {
  jobs: 10_000,
  storage: 10_000,
  admin: 30_000,
  voiceSampleStats: 30_000,
} as const;
export const VOICE_FETCH_DEBOUNCE_MS = 300;
export const RECENT_VIDEOS_COUNT = 5;
export const SEE_ALL_THRESHOLD = 3;
export const JOB_LIST_LIMIT = 100;
export const PROGRESS_TOAST_MS = 2000;
export const REGISTRATION_SUCCESS_TOAST_MS = 2000;

export const TOAST_LIMIT = 20;
export const TOAST_DURATIONS_MS = { blank: 4000, error: 4000, success: 2000, general: 3000 } as const;

export const SOCKET_PATH = '/socket.io/';
export const SOCKET_OPTIONS = {
  path: SOCKET_PATH,
  transports: ['websocket', 'polling'] as string[],
  reconnection: true,
  reconnectionAttempts: 5,
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  timeout: 20000,
};

export const QUERY_CLIENT_DEFAULTS = {
  staleTime: 5 * 60 * 1000,
  retry: 1,
  refetchOnWindowFocus: false,
} as const;

export const STORAGE_KEYS = {
  token: 'token',
  videoDefaults: 'videoDefaults',
  authStore: 'reelsmith-auth',
  extensionBannerDismissed: 'reelsmith-extension-banner-dismissed',
} as const;

export const API_KEY_HEADER = 'x-api-key';
