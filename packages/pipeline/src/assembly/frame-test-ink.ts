/** Where a colour is drawn in a raw RGB frame (rgb24, rows of `width` pixels): render tests read captions, logos and cards by it. */
export interface InkBox {
  count: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
  /** The mean x of the matching pixels (-1: none match). */
  cx: number;
}

/** The box around the pixels of rows [from, to) that `match`. */
export function inkBox(
  pixels: Uint8Array,
  width: number,
  [from, to]: readonly [number, number],
  match: (r: number, g: number, b: number) => boolean,
): InkBox {
  let count = 0;
  let left = width;
  let right = -1;
  // An empty box's top is the frame's height.
  let top = pixels.length / 3 / width;
  let bottom = -1;
  let sumX = 0;
  for (let y = from; y < to; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      if (!match(pixels[i]!, pixels[i + 1]!, pixels[i + 2]!)) continue;
      count++;
      sumX += x;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
  }
  return { count, left, right, top, bottom, cx: count ? sumX / count : -1 };
}
