import { STORAGE_KEYS } from '@reelsmith/contracts';
import { useCallback, useState } from 'react';
import { usePlatform } from '../../platform.js';
import { loadVideoDefaults } from '../../preferences/video-defaults.js';
import { asVoiceLanguage, useVoices } from '../voices/index.js';
import { initialFormValues, type FormField, type GenerationFormValues } from './generation-form-model.js';

/**
 * The generate options as the studio's form and the Batch page's shared options both keep them: the
 * values (from the saved defaults), the fields the user touched, whether a submit was tried, and the
 * chosen voice's provider. `onEdit` runs on every change the user makes (a stable callback).
 */
export function useGenerationForm(onEdit?: () => void) {
  const platform = usePlatform();
  const [values, setValues] = useState<GenerationFormValues>(() =>
    initialFormValues(platform.storage.getItem(STORAGE_KEYS.videoDefaults) ? loadVideoDefaults(platform.storage) : null),
  );
  const [touched, setTouched] = useState<Partial<Record<FormField, boolean>>>({});
  const [submitAttempted, setSubmitAttempted] = useState(false);

  const set = useCallback(
    <K extends FormField>(field: K, value: GenerationFormValues[K]) => {
      setValues((current) => ({ ...current, [field]: value }));
      setTouched((current) => (current[field] ? current : { ...current, [field]: true }));
      onEdit?.();
    },
    [onEdit],
  );
  const touch = (field: FormField) => () => setTouched((current) => (current[field] ? current : { ...current, [field]: true }));
  // The picker clears a voice the new language lacks; that is not the user touching the field.
  const chooseVoice = useCallback((voice: string) => {
    setValues((current) => (current.voice === voice ? current : { ...current, voice }));
    if (voice) setTouched((current) => (current.voice ? current : { ...current, voice: true }));
  }, []);
  /** Shows a field's error once the user touched the field or tried to submit. */
  const shownErrors =
    (errors: Partial<Record<FormField, string>>) =>
    (field: FormField): string | undefined =>
      touched[field] || submitAttempted ? errors[field] : undefined;

  // The voice's provider is whatever the voices list came from (the provider config is admin-only).
  const voices = useVoices(values.language, undefined);
  const voiceProvider = voices.data && voices.data.language === asVoiceLanguage(values.language) ? voices.data.provider : undefined;

  return { values, setValues, set, touch, chooseVoice, shownErrors, submitAttempted, setSubmitAttempted, voiceProvider };
}

export type GenerationForm = ReturnType<typeof useGenerationForm>;
