import { z } from './zod.js';

/** C0 and C1 control characters; multi-line fields may keep tab, line feed and carriage return. */
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
const CONTROL_MULTILINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** A high surrogate not followed by a low one, or a low one without its high one: text that is not valid UTF-16. */
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text people type (topics, titles, narration, names): refuses control characters (a NUL breaks
 * the Japanese reading step, ffmpeg's caption files and logs) and unpaired surrogates with a
 * message naming the field, and stores the NFC form so the same words always compare equal.
 */
export function humanText(schema: z.ZodMiniType<string, string>, label: string, { multiline = false } = {}) {
  return z.pipe(
    schema.check(
      z.refine(
        (value: string) => !(multiline ? CONTROL_MULTILINE : CONTROL).test(value),
        `${label} contains control characters; remove them`,
      ),
      z.refine((value: string) => !UNPAIRED_SURROGATE.test(value), `${label} contains broken Unicode (an unpaired surrogate); retype it`),
    ),
    z.transform((value: string) => value.normalize('NFC')),
  );
}
