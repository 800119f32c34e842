/**
 * The offline pictures of a fixed list of topics: the subject each scene of a five-scene story
 * shows, and the time each 1080x1920 picture takes (wall clock and this process's CPU time, which
 * other work on a shared machine does not inflate). Part of `npm run bench:quality`; alone with
 * `npm run bench:quality -- --pictures`.
 */
import { VISUAL_STYLES } from '@reelsmith/contracts';
import { composeStory } from '../src/story/offline-story-provider.js';
import { renderOfflineScene } from '../src/images/offline-image-provider.js';

export const PICTURE_TOPICS = [
  { topic: 'The history of the bicycle', language: 'en' },
  { topic: 'Why honeybees dance', language: 'en' },
  // Issue 37's cases: the lighthouse (a painted one), the volcano with nothing unrelated beside it, the named landmark.
  { topic: 'How lighthouses guided ships before GPS', language: 'en' },
  { topic: 'The life of a lighthouse keeper', language: 'en' },
  { topic: 'How volcanoes work', language: 'en' },
  { topic: 'The Eiffel Tower', language: 'en' },
  { topic: '🐝 dance', language: 'en' },
  { topic: 'Warum Katzen schnurren', language: 'de' },
  { topic: 'La vida secreta de los pulpos', language: 'es' },
  { topic: 'Les baleines chantent', language: 'fr' },
  { topic: 'A história do café', language: 'pt' },
  { topic: 'हिमालय कैसे बना', language: 'hi' },
  { topic: 'साइकिल का इतिहास', language: 'hi' },
  { topic: '桜の歴史', language: 'ja' },
  { topic: '自転車の歴史', language: 'ja' },
] as const;

const SCENES = 5;
const STYLE_PICTURES = 10;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export async function benchPictures(log: (line: string) => void = console.log): Promise<{ medianMs: number; medianCpuMs: number }> {
  const wall: number[] = [];
  const cpu: number[] = [];
  let first: { wall: number; cpu: number } | null = null;
  log('offline pictures, 1080x1920, five scenes per topic (subject per scene)');
  for (const { topic, language } of PICTURE_TOPICS) {
    const story = composeStory({
      topic,
      style: 'educational',
      language,
      durationSeconds: 30,
      visualStyle: 'cinematic',
      customPrompt: '',
      sceneCount: SCENES,
      targetWords: 75,
    });
    const subjects: string[] = [];
    let previous: string | undefined;
    for (const [index, scene] of story.scenes.entries()) {
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      const picture = await renderOfflineScene({
        prompt: scene.imagePrompt,
        narration: scene.narration,
        topic,
        language,
        visualStyle: 'cinematic',
        width: 1080,
        height: 1920,
        sceneIndex: index,
        ...(previous ? { previousSubject: previous } : {}),
      });
      const used = process.cpuUsage(cpuStarted);
      const sample = { wall: performance.now() - started, cpu: (used.user + used.system) / 1000 };
      // The first picture of a process also reads the annotations and builds the word index.
      if (!first) first = sample;
      else {
        wall.push(sample.wall);
        cpu.push(sample.cpu);
      }
      previous = picture.subject ?? undefined;
      subjects.push(picture.subject ?? '(landscape)');
    }
    log(`  ${`${topic} [${language}]`.padEnd(34)} ${subjects.join(' / ')}`);
  }
  // The visual styles cost differently (the painting's brush strokes and the photograph's depth of
  // field most): ten pictures of each after one that lays whatever a style keeps for the process.
  const styles: string[] = [];
  for (const visualStyle of VISUAL_STYLES) {
    const styleWall: number[] = [];
    const styleCpu: number[] = [];
    for (let index = 0; index <= STYLE_PICTURES; index++) {
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      await renderOfflineScene({
        prompt: 'a road through the hills at dawn',
        topic: 'The history of the bicycle',
        language: 'en',
        visualStyle,
        width: 1080,
        height: 1920,
        sceneIndex: index,
      });
      const used = process.cpuUsage(cpuStarted);
      if (index === 0) continue;
      styleWall.push(performance.now() - started);
      styleCpu.push((used.user + used.system) / 1000);
    }
    styles.push(`${visualStyle} ${median(styleWall).toFixed(0)} ms (CPU ${median(styleCpu).toFixed(0)})`);
  }
  const result = { medianMs: median(wall), medianCpuMs: median(cpu) };
  log(
    `  time per picture: median ${result.medianMs.toFixed(0)} ms (CPU ${result.medianCpuMs.toFixed(0)} ms), slowest ${Math.max(...wall).toFixed(0)} ms, ` +
      `first of the process ${first!.wall.toFixed(0)} ms; target ≤ 150 ms`,
  );
  log(`  per visual style (median of ${STYLE_PICTURES} after a first): ${styles.join(', ')}`);
  return result;
}
