import { useVoices } from './voice-queries.js';
import { VoiceLists, type VoicePickerProps } from './voice-lists.js';

export { voiceMeta, type VoicePickerProps } from './voice-lists.js';

/** The voice lists over the studio's cached voice query (GET /voices, 300 ms after the language settles). */
export function VoicePicker({ provider, ...props }: VoicePickerProps) {
  return <VoiceLists {...props} voices={useVoices(props.language, provider)} />;
}
