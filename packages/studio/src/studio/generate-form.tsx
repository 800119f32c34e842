import { FREE_VIDEO_MAX_SECONDS, MESSAGES } from '@reelsmith/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import { toast } from '../toaster.js';
import { videoListQueryKey } from '../shared/jobs/video-queries.js';
import { useJobService, useJobStore } from '../shared/jobs/jobs-context.js';
import { usePlatform } from '../platform.js';
import { useAuth } from '../services.js';
import { draftFromSource } from '../shared/generation/source-draft.js';
import { SourceFields } from './source-fields.js';
import { GenerateOptionFields } from '../shared/generation/generate-option-fields.js';
import { validateForm } from '../shared/generation/generation-form-model.js';
import { useGenerationSubmit } from './use-generation-submit.js';
import { useGenerationForm } from '../shared/generation/use-generation-form.js';
import type { GenerationAccess } from '../shared/generation/use-generation-access.js';

export interface GenerateFormProps {
  signedIn: boolean;
  access: GenerationAccess;
  /** Number of the user's jobs still pending, queued or processing. */
  activeJobs: number;
  /** Shows plans when the user may not generate (the pricing dialog or page). */
  openPricing(): void;
}

/** The generate form with its submit rules and messages. */
export function GenerateForm({ signedIn, access, activeJobs, openPricing }: GenerateFormProps) {
  const platform = usePlatform();
  const queryClient = useQueryClient();
  const jobService = useJobService();
  const generating = useJobStore((s) => s.generating);
  const refreshSubscription = useAuth((s) => s.fetchSubscription);
  const form = useGenerationForm();
  const { values, setValues, set, touch, setSubmitAttempted, voiceProvider } = form;

  const idBase = useId();
  const shownError = form.shownErrors(validateForm(values));
  // The extension's context menu (and the embed's set-topic) hand a topic or a source over while the form is open too.
  useEffect(
    () =>
      platform.formRequests?.subscribe((request) =>
        request.kind === 'topic' ? set('topic', request.topic) : set('source', draftFromSource(request)),
      ),
    [platform, set],
  );

  // Saved defaults or a lapsed plan may leave a locked duration chosen (judged once the plan is known).
  useEffect(() => {
    if (access.settled && access.longDurationsLocked && values.duration !== FREE_VIDEO_MAX_SECONDS)
      setValues((current) => ({ ...current, duration: FREE_VIDEO_MAX_SECONDS }));
  }, [access.settled, access.longDurationsLocked, values.duration, setValues]);

  const {
    blocked,
    buttonText,
    submit: submitValues,
  } = useGenerationSubmit({ signedIn, generating, activeJobs, access, send: (params) => jobService.submit(params), refused: openPricing });

  const submit = async () => {
    if (!signedIn) {
      platform.navigation.openTab('/login');
      toast(MESSAGES.visitorGenerate);
      return;
    }
    setSubmitAttempted(true);
    if (blocked) return;
    if (!(await submitValues(values, voiceProvider))) return;
    void queryClient.invalidateQueries({ queryKey: videoListQueryKey });
    // The free video is used up now; the duration lock and plan usage follow.
    void queryClient.invalidateQueries({ queryKey: ['payments', 'can-generate'] });
    void refreshSubscription();
  };

  return (
    <form
      className="rs-card rs-generate"
      aria-label="Generate a video"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <h2 className="rs-section-title">Create a video</h2>
      <SourceFields
        idBase={idBase}
        topic={values.topic}
        source={values.source}
        duration={values.duration}
        topicError={shownError('topic')}
        sourceError={shownError('source')}
        onTopic={(topic) => set('topic', topic)}
        onSource={(source) => set('source', source)}
        onTopicBlur={touch('topic')}
        language={values.language}
        onSourceBlur={touch('source')}
      />

      <GenerateOptionFields idBase={idBase} form={form} shownError={shownError} access={access} />

      <button type="submit" className="rs-button rs-button--primary rs-button--block rs-generate__submit" disabled={blocked}>
        {buttonText}
      </button>
    </form>
  );
}
