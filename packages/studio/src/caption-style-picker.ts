// The caption style picker on its own entry: the extension popup shows it only once captions are
// switched on, so it loads it then instead of in its first load (popup JS ≤ 100 KB gzip).
export { CaptionStylePicker } from './ui/caption-style-picker.js';
