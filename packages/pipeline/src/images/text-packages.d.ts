declare module 'snowball-stemmers' {
  interface Stemmer {
    stem(word: string): string;
  }
  const snowball: {
    newStemmer(algorithm: string): Stemmer;
    algorithms(): string[];
  };
  export default snowball;
}

declare module 'stopword' {
  export const eng: string[];
  export const deu: string[];
  export const spa: string[];
  export const fra: string[];
  export const por: string[];
  export const hin: string[];
  export const jpn: string[];
}
