// webvtt-parser (the W3C validator's parser) ships no types; the caption file tests use this much of it.
declare module 'webvtt-parser' {
  export interface WebVTTCue {
    startTime: number;
    endTime: number;
    text: string;
  }
  export class WebVTTParser {
    parse(input: string, mode?: 'subtitles' | 'chapters' | 'metadata'): { cues: WebVTTCue[]; errors: { message: string; line: number }[] };
  }
}
