import { FREE_VIDEO_MAX_SECONDS, MESSAGES, STORAGE_KEYS } from '@reelsmith/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useState } from 'react';
import { toast } from '../toaster.js';
import { videoListQueryKey } from '../shared/jobs/video-queries.js';
import { useJobService, useJobStore } from '../shared/jobs/jobs-context.js';
import { usePlatform } from '../platform.js';
import { useAuth } from '../services.js';
import { loadVideoDefaults } from '../preferences/video-defaults.js';
import { asVoiceLanguage, useVoices } from '../shared/voices/index.js';
import { draftFromSource } from '../shared/generation/source-draft.js';
import { SourceFields } from './source-fields.js';
import { GenerateOptionFields } from '../shared/generation/generate-option-fields.js';
import { initialFormValues, validateForm, type FormField, type GenerationFormValues } from '../shared/generation/generation-form-model.js';
import { useGenerationSubmit } from './use-generation-submit.js';
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
  const [values, setValues] = useState<GenerationFormValues>(() =>
    initialFormValues(platform.storage.getItem(STORAGE_KEYS.videoDefaults) ? loadVideoDefaults(platform.storage) : null),
  );
  const [touched, setTouched] = useState<Partial<Record<FormField, boolean>>>({});
  const [submitAttempted, setSubmitAttempted] = useState(false);

  const idBase = useId();
  const errors = validateForm(values);
  const shownError = (field: FormField) => (touched[field] || submitAttempted ? errors[field] : undefined);

  const set = useCallback(<K extends FormField>(field: K, value: GenerationFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setTouched((current) => (current[field] ? current : { ...current, [field]: true }));
  }, []);
  const touch = (field: FormField) => () => setTouched((current) => (current[field] ? current : { ...current, [field]: true }));
  // The picker clears a voice the new language lacks; that is not the user touching the field.
  const setVoice = useCallback((voice: string) => setValues((current) => (current.voice === voice ? current : { ...current, voice })), []);
  const chooseVoice = useCallback(
    (voice: string) => {
      setVoice(voice);
      if (voice) setTouched((current) => (current.voice ? current : { ...current, voice: true }));
    },
    [setVoice],
  );
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
  }, [access.settled, access.longDurationsLocked, values.duration]);

  // The voice's provider is whatever the voices list came from (the provider config is admin-only).
  const voices = useVoices(values.language, undefined);
  const voiceProvider = voices.data && voices.data.language === asVoiceLanguage(values.language) ? voices.data.provider : undefined;

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

      <GenerateOptionFields
        idBase={idBase}
        values={values}
        set={set}
        touch={touch}
        shownError={shownError}
        chooseVoice={chooseVoice}
        longDurationsLocked={access.longDurationsLocked}
        isFreeVideo={access.isFreeVideo}
      />

      <button type="submit" className="rs-button rs-button--primary rs-button--block rs-generate__submit" disabled={blocked}>
        {buttonText}
      </button>
    </form>
  );
}
