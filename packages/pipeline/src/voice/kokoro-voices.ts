import type { Voice, VoiceLanguage } from '@reelsmith/contracts';

/**
 * The natural voices: Kokoro-82M v1.0's voice packs for the languages we narrate that Kokoro phonemises
 * with espeak-ng (its pipeline's codes a/b/e/f/h/i/p). Japanese and Chinese need Kokoro's own G2P
 * (misaki), German and Korean have no Kokoro voice: those keep the espeak voices, and the picker says so.
 */
export interface KokoroVoice extends Voice {
  language: VoiceLanguage;
  /** The voice pack's file name under voices/ in the model repository, without `.bin`. */
  pack: string;
  /** The espeak-ng voice that phonemises for it (as Kokoro's pipeline chooses per language). */
  espeakVoice: string;
}

const voice = (
  pack: string,
  name: string,
  language: VoiceLanguage,
  espeakVoice: string,
  accent: string,
  description: string,
): KokoroVoice => ({
  id: `kokoro-${pack.replace('_', '-')}`,
  name,
  description,
  gender: pack[1] === 'f' ? 'female' : 'male',
  accent,
  age: 'young adult',
  language,
  pack,
  espeakVoice,
});

export const KOKORO_VOICES: readonly KokoroVoice[] = [
  voice('af_heart', 'Heart', 'en', 'en-us', 'American', 'Warm, natural narrator, American accent'),
  voice('am_michael', 'Michael', 'en', 'en-us', 'American', 'Calm, natural storyteller, American accent'),
  voice('af_bella', 'Bella', 'en', 'en-us', 'American', 'Bright, lively narrator, American accent'),
  voice('am_fenrir', 'Fenrir', 'en', 'en-us', 'American', 'Deep, confident narrator, American accent'),
  voice('af_nicole', 'Nicole', 'en', 'en-us', 'American', 'Soft, close-up narrator, American accent'),
  voice('am_puck', 'Puck', 'en', 'en-us', 'American', 'Playful, upbeat narrator, American accent'),
  voice('bf_emma', 'Emma', 'en', 'en-gb', 'British', 'Clear, natural narrator, British accent'),
  voice('bm_george', 'George', 'en', 'en-gb', 'British', 'Measured, natural storyteller, British accent'),
  voice('bf_isabella', 'Isabella', 'en', 'en-gb', 'British', 'Gentle narrator, British accent'),
  voice('bm_fable', 'Fable', 'en', 'en-gb', 'British', 'Lively storyteller, British accent'),
  voice('ef_dora', 'Dora', 'es', 'es', 'Spanish', 'Natural Spanish narrator'),
  voice('em_alex', 'Alex', 'es', 'es', 'Spanish', 'Natural Spanish storyteller'),
  voice('ff_siwis', 'Siwis', 'fr', 'fr-fr', 'French', 'Natural French narrator'),
  voice('hf_alpha', 'Alpha', 'hi', 'hi', 'Indian', 'Natural Hindi narrator'),
  voice('hm_omega', 'Omega', 'hi', 'hi', 'Indian', 'Natural Hindi storyteller'),
  voice('hf_beta', 'Beta', 'hi', 'hi', 'Indian', 'Bright Hindi narrator'),
  voice('hm_psi', 'Psi', 'hi', 'hi', 'Indian', 'Steady Hindi storyteller'),
  voice('if_sara', 'Sara', 'it', 'it', 'Italian', 'Natural Italian narrator'),
  voice('im_nicola', 'Nicola', 'it', 'it', 'Italian', 'Natural Italian storyteller'),
  voice('pf_dora', 'Dora', 'pt', 'pt-br', 'Brazilian', 'Natural Brazilian Portuguese narrator'),
  voice('pm_alex', 'Alex', 'pt', 'pt-br', 'Brazilian', 'Natural Brazilian Portuguese storyteller'),
];

export function getKokoroVoice(id: string): KokoroVoice | undefined {
  return KOKORO_VOICES.find((candidate) => candidate.id === id);
}

export function getKokoroVoices(language: VoiceLanguage | string): KokoroVoice[] {
  return KOKORO_VOICES.filter((candidate) => candidate.language === language.toLowerCase().slice(0, 2));
}

/** Languages with at least one natural voice. */
export function hasNaturalVoices(language: VoiceLanguage | string): boolean {
  return getKokoroVoices(language).length > 0;
}

/** One file of the model, pinned. `sha256: null` means the sum is not known yet (see KOKORO_MANIFEST). */
export interface ModelFile {
  path: string;
  size: number;
  sha256: string | null;
}

export interface ModelManifest {
  /** The ONNX graph among `files`. */
  model: string;
  /** The repository's commit the files are fetched at (default main, which can move). */
  revision?: string;
  files: ModelFile[];
}

const pack = (name: string, sha256: string): ModelFile => ({ path: `voices/${name}.bin`, size: 522_240, sha256 });

/**
 * onnx-community/Kokoro-82M-v1.0-ONNX (Apache-2.0), fp32 graph (326 MB; the q8 graph is smaller but
 * audibly rougher), fetched at commit 1939ad2a…: `main` can move, and a moved file would fail its sum.
 * The voice packs' sums are those of the packs kokoro-js 1.2.1 ships on npm, which are the
 * repository's (kokoro-js reads the same files from it in browsers). The graph's and the tokenizer's
 * sums could not be computed here (only npm and Debian are reachable); they are the ones that
 * several public projects pin for this repository at this commit, which agree with one another and
 * with our voice packs' sums (model.onnx 325,532,232 bytes, 8fbea51e…; tokenizer.json 3,497 bytes,
 * 77a02c8e…). A download whose sum differs is fetched once more, then refused.
 */
export const KOKORO_MANIFEST: ModelManifest = {
  model: 'onnx/model.onnx',
  revision: '1939ad2a8e416c0acfeecc08a694d14ef25f2231',
  files: [
    { path: 'onnx/model.onnx', size: 325_532_232, sha256: '8fbea51ea711f2af382e88c833d9e288c6dc82ce5e98421ea61c058ce21a34cb' },
    { path: 'tokenizer.json', size: 3_497, sha256: '77a02c8e164413299b4b4c403b14f8e0e1c1b727db4d46a09d6327b861060a34' },
    pack('af_heart', 'd583ccff3cdca2f7fae535cb998ac07e9fcb90f09737b9a41fa2734ec44a8f0b'),
    pack('am_michael', '1d1f21dd8da39c30705cd4c75d039d265e9bc4a2a93ed09bc9e1b1225eb95ba1'),
    pack('af_bella', 'f69d836209b78eb8c66e75e3cda491e26ea838a3674257e9d4e5703cbaf55c8b'),
    pack('am_fenrir', 'c27989f741f7ee34d273a39d8a595cc0837d35f5ced9a29b7cc162614616df43'),
    pack('af_nicole', 'cd2191ab31b914ed7b318416b0e4440fdf392ddad9106a060819aa600a64f59a'),
    pack('am_puck', 'fcf73c989033e9233e0b98713eca600c8c74dcc1614b37009d5450ff4a2274a0'),
    pack('bf_emma', '669fe0647f9dd04fcab92f1439a40eeb4c8b4ab1f82e4996fe3d918ce4a63b73'),
    pack('bm_george', 'c4b235a4c1f2cd3b939fed08b899ce9385638b763f7b73a59616c4fc9bd6c9bc'),
    pack('bf_isabella', '3754352c4aaa46d17f27654ab7518d65b62ad6163a0f55a5f4330c2da2c4e94f'),
    pack('bm_fable', 'f889083196807b4adb15e9204252165f503b8d33d3982e681c52443c49d798f1'),
    pack('ef_dora', 'f66ec66bd295acb18372e37008533a9a3228483ccd294e7538d5d9294ac9a532'),
    pack('em_alex', '27809e9eafdcbcfff90a3016c697568676531de2a2c39cee29c96c7bd6b83e95'),
    pack('ff_siwis', 'a35f5675ad08948e326ae75fd0ea16ba5d0042e4f76b5f3d1df77d0a48c54861'),
    pack('hf_alpha', '040be6a4425411cc01fda5fd06693c76bfa78572632852bc8cda9c99232ffb56'),
    pack('hm_omega', 'b02d9222d9ed00ce26b302173a862c2c93f96cc40b5c422b8d14910b9ff34137'),
    pack('hf_beta', 'cd83ae0bb9b2e4e4fb92b4973bd8d1822ca0036d3c498bf4fc89aa8e33917cc7'),
    pack('hm_psi', '644daf88ba8aeb7bd08950bbdcd4453bb280864e49dc4df93fabc6be32e03f37'),
    pack('if_sara', '409b69248798fcdc2542330c76953d230710f19b057e59cb82fdc3c4cf71265c'),
    pack('im_nicola', 'bc578e510d52a96d6940d46f12e96d7b3df00905dbea075113226d100e6e1ab0'),
    pack('pf_dora', '3da7b5b2d91847ebf5646f57631af6ececae3c29a89cd300f06edf9aa6cfe9ee'),
    pack('pm_alex', '0175c753f59c54e7fd5a995bedef0c5ff2fb67e0043dd3dcb2ae74ec2acbeb2a'),
  ],
};

/** The default model host: the public Hugging Face repository. */
export const DEFAULT_VOICE_MODEL_URL = 'https://huggingface.co/onnx-community/Kokoro-82M-v1.0-ONNX';
