/** User-visible validation and error texts, shared by client and server so they never drift. */
export const VALIDATION_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Invalid email address',
  passwordRequired: 'Password is required',
  nameRequired: 'Name is required',
  nameTooShort: 'Name must be at least 2 characters',
  passwordTooShort: 'Password must be at least 6 characters',
  confirmPasswordRequired: 'Please confirm your password',
  passwordsDoNotMatch: 'Passwords do not match',
  topicRequired: 'Topic is required',
  styleRequired: 'Style is required',
  languageRequired: 'Language is required',
  durationRequired: 'Duration is required',
  customStyleRequired: 'Custom style is required when Custom Style is selected',
  voiceRequired: 'Please select a voice',
  voiceRequiredOnSubmit: 'Please select a voice for your video.',
  voiceHint: 'Please select a voice from either male or female voices above.',
  cancellationReasonRequired: 'Please provide a reason for cancellation',
  freeVideoTooLong: 'Free videos are limited to 30 seconds. Please upgrade for longer videos.',
} as const;

export const MESSAGES = {
  loginFailed: 'Login failed',
  registrationFailed: 'Registration failed',
  googleLoginFailed: 'Google login failed',
  oneTapFailed: 'Failed to sign in with Google',
  oneTapSuccess: (name: string) => `Welcome ${name}! You're now signed in.`,
  accountCreated: 'Account created successfully!',
  invalidCredentials: 'Invalid email or password',
  emailTaken: 'An account with this email already exists',
  submitFailed: 'Failed to start video generation',
  submitSuccess: 'Video generation started! Watch the progress below.',
  generationFailed: 'Video generation failed',
  /**
   * A job's error when the cause is nothing the creator can act on (it is logged). Not the spec's
   * 'Video generation failed': the studio already prefixes job errors with that ("{…}: {error}").
   */
  generationUnexpectedError: 'Something went wrong on our side while making this video. Please try again.',
  subscriptionRequired: 'Subscription required to generate videos',
  videoLimitReached: (limit: number) => `You have used all ${limit} videos of your plan this month. Upgrade your plan for more videos.`,
  canGenerateFailed: 'Please subscribe to generate videos',
  cancelJobFailed: 'Failed to cancel job',
  jobCancelled: 'Job cancelled',
  jobFailedEvent: (error: string) => `Video generation failed: ${error}`,
  voicesLoadFailed: 'Failed to load voices',
  fileNotReady: 'Video file not ready yet or URL not found',
  openingPreview: 'Opening video preview...',
  downloadStarted: 'Download started!',
  invalidDate: 'Invalid date',
  profileUpdated: 'Profile updated successfully',
  profileUpdateFailed: 'Failed to update profile',
  defaultsSaved: 'Video defaults saved',
  defaultsSaveFailed: 'Failed to save defaults',
  subscriptionCancelled: 'Subscription cancelled successfully. You can continue using the product until your current billing period ends.',
  cancelSubscriptionFailed: 'Failed to cancel subscription',
  plansLoadFailed: 'Failed to load pricing plans',
  checkoutUnavailable: 'Payment system is loading. Please try again in a moment.',
  orderFailed: 'Failed to initiate payment. Please try again.',
  verificationFailed: 'Payment verification failed. Please contact support.',
  paymentSuccess: 'Payment successful! Your subscription is now active.',
  subscriptionUpdated: 'Subscription updated successfully!',
  currentPlanChosen: 'This is your current active plan.',
  downgradeNotAllowed: 'Downgrading to a lower plan is not allowed while your current plan is active.',
  previewUnavailable: 'Preview unavailable',
  previewTooltipUnavailable: 'Audio preview not available',
  voiceStatsLoadFailed: 'Failed to load voice sample statistics',
  adminLoadFailed: 'Failed to load admin data',
  providerSwitchFailed: 'Failed to switch provider',
  voiceProviderSwitchFailed: 'Failed to switch voice provider',
  visitorGenerate: 'Please complete signup to generate your free video!',
  authRequired: 'Sign in to continue',
  sessionExpired: 'Your session has expired. Please sign in again.',
  /** Refused sign-in, and the reason a session ended by a suspension gives (the studio explains it to the creator). */
  accountSuspended: 'This account is suspended. Contact support if you think this is a mistake.',
  forbidden: 'You do not have permission to do that',
  notFound: 'Not found',
  rateLimited: 'Too many attempts. Please wait a minute and try again.',
  internalError: 'Something went wrong on our side. Please try again.',
  /** A submit made without a connection fails at once with this; it is never replayed later by itself. */
  offline: 'You are offline. Check your connection and try again.',
} as const;

/**
 * A job's error when a provider (or our link to it) failed: written for the creator. The technical
 * cause ("Could not reach the voice service; check the service address…") stays in the server log
 * and on the admin dashboard's health checks. A failed job is not counted against the plan. Apart from
 * MESSAGES: the server writes them and clients show the job's stored error, so no client bundle carries them.
 */
export const SERVICE_UNAVAILABLE_MESSAGES = {
  voice: 'The voice service is unavailable right now; your video was not counted. Try again in a few minutes.',
  story: 'The story writer is unavailable right now; your video was not counted. Try again in a few minutes.',
  images: 'The picture service is unavailable right now; your video was not counted. Try again in a few minutes.',
  other: 'A service we rely on is unavailable right now; your video was not counted. Try again in a few minutes.',
} as const;
