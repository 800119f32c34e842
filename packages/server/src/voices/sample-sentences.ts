import type { VoiceLanguage } from '@reelsmith/contracts';

/** The short line every preview sample speaks, in the voice's language (gender-neutral wording). */
export const SAMPLE_SENTENCES: Record<VoiceLanguage, string> = {
  en: 'Hello! This is my voice, ready to narrate your next story.',
  hi: 'नमस्ते! यह मेरी आवाज़ है, जो आपकी अगली कहानी को जीवंत बनाएगी।',
  de: 'Hallo! Das ist meine Stimme, bereit, deine nächste Geschichte zu erzählen.',
  es: '¡Hola! Esta es mi voz, lista para narrar tu próxima historia.',
  ja: 'こんにちは。これが、あなたの次の物語を語る私の声です。',
  fr: 'Bonjour ! Voici ma voix, prête à raconter votre prochaine histoire.',
  pt: 'Olá! Esta é a minha voz, pronta para narrar a sua próxima história.',
  ko: '안녕하세요. 이것이 당신의 다음 이야기를 들려줄 제 목소리입니다.',
  zh: '你好！这就是我的声音，准备好讲述你的下一个故事。',
  it: 'Ciao! Questa è la mia voce, pronta a raccontare la tua prossima storia.',
};
