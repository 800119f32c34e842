/**
 * `npm run generate -- --topic "..." --style mysterious --language en --duration 30 --resolution 9:16 --out video.mp4`
 * `npm run generate -- --article-file post.txt --source-title "..." --out video.mp4`
 * Makes one video with the configured providers (offline by default) and prints each step's progress.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { RESEARCH_UNUSED_MESSAGES, generateVideoBodySchema, voiceLanguageSchema } from '@reelsmith/contracts';
import {
  cpuSecondsNow,
  createProviderRegistry,
  formatTimings,
  loadPipelineConfig,
  runGeneration,
  type ProgressUpdate,
  type StepTiming,
} from '../index.js';
import { defaultFfmpegBinaries, ffmpegVersion } from '../assembly/ffmpeg-binary.js';
import { getVoices } from '../voice/provider-catalogues.js';
import { defaultOfflineVoice } from '../voice/voice-catalogue.js';

const USAGE = `Usage: npm run generate -- --topic "..." [options]
       npm run generate -- --script-file FILE | --article-file FILE [options]
  --topic TEXT            what the video is about (required without a script or an article)
  --script-file FILE      narrate this text verbatim, split into scenes at sentence ends
  --article-file FILE     tell this article in the duration with its most central sentences
  --source-title TEXT     the article's title (the video's title and its credit)
  --source-url URL        where the article was published (its credit links to it)
  --wikipedia TITLE       tell the narration language's Wikipedia article of this title
  --no-research           tell a topic without looking it up on Wikipedia
  --style NAME            story style (default mysterious; any text is a custom style)
  --language CODE         en, hi, de, es, ja, fr, pt (default en)
  --duration SECONDS      30, 60 or 90 (default 30)
  --resolution RATIO      9:16, 16:9 or 1:1 (default 9:16)
  --voice ID              voice id (default: the first voice of the language)
  --visual-style NAME     cinematic, dark horror, bright colorful, realistic photography,
                          artistic painting, cartoon animation (default cinematic)
  --no-zoom               still pictures instead of Ken Burns motion
  --zoom-direction DIR    in or out (default in)
  --captions              burn in word-timed captions
  --caption-style NAME    tiktok, instagram, youtube, netflix, minimal, or an animated template:
                          word-pop, bounce, karaoke, box-highlight, one-word, typewriter,
                          keyword, neon-glow (default tiktok)
  --music MOOD            auto (from the style), mysterious, upbeat, calm, dramatic, playful,
                          inspiring or none (default auto)
  --custom-prompt TEXT    extra instructions for the story
  --out FILE              where to write the MP4 (default video.mp4); the poster goes beside it
  --workspace DIR         keep the job's workspace here (re-running resumes from it)
  --timings               print where the seconds went: start-up, each step and its phases`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        topic: { type: 'string' },
        'script-file': { type: 'string' },
        'article-file': { type: 'string' },
        'source-title': { type: 'string' },
        'source-url': { type: 'string' },
        wikipedia: { type: 'string' },
        'no-research': { type: 'boolean', default: false },
        style: { type: 'string', default: 'mysterious' },
        language: { type: 'string', default: 'en' },
        duration: { type: 'string', default: '30' },
        resolution: { type: 'string', default: '9:16' },
        voice: { type: 'string' },
        'visual-style': { type: 'string', default: 'cinematic' },
        zoom: { type: 'boolean', default: true },
        'no-zoom': { type: 'boolean', default: false },
        'zoom-direction': { type: 'string', default: 'in' },
        captions: { type: 'boolean', default: false },
        'caption-style': { type: 'string', default: 'tiktok' },
        'custom-prompt': { type: 'string', default: '' },
        music: { type: 'string', default: 'auto' },
        out: { type: 'string', default: 'video.mp4' },
        workspace: { type: 'string' },
        timings: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }

  const config = (() => {
    try {
      return loadPipelineConfig(process.env);
    } catch (error) {
      return fail((error as Error).message);
    }
  })();
  const registry = createProviderRegistry(config);
  const voiceProvider = registry.voice();
  // The voices on this machine (espeak-ng's, and the natural ones, which espeak-ng speaks for until
  // their model is downloaded) have a default per language; a paid provider's voice is the creator's pick.
  const voice =
    values.voice ??
    (voiceProvider.name === 'offline'
      ? defaultOfflineVoice(values.language)?.id
      : voiceProvider.name === 'neural' && voiceLanguageSchema.safeParse(values.language).success
        ? getVoices('neural', voiceLanguageSchema.parse(values.language))[0]?.id
        : undefined);
  if (!voice) fail(`--voice is required with the ${voiceProvider.name} voice provider.`);

  if ([values['script-file'], values['article-file'], values.wikipedia].filter(Boolean).length > 1)
    fail('Give one of --script-file, --article-file or --wikipedia.');
  const sourceFile = values['script-file'] ?? values['article-file'];
  let sourceText = '';
  if (sourceFile) {
    try {
      sourceText = readFileSync(sourceFile, 'utf8');
    } catch (error) {
      fail(`Cannot read ${sourceFile}: ${(error as Error).message}`);
    }
  }
  const source = values['script-file']
    ? { kind: 'script', text: sourceText }
    : values['article-file']
      ? {
          kind: 'article',
          text: sourceText,
          ...(values['source-title'] ? { title: values['source-title'] } : {}),
          ...(values['source-url'] ? { url: values['source-url'] } : {}),
        }
      : values.wikipedia
        ? { kind: 'wikipedia', title: values.wikipedia }
        : undefined;

  const parsed = generateVideoBodySchema.safeParse({
    ...(values.topic !== undefined ? { topic: values.topic } : {}),
    ...(source ? { source } : {}),
    ...(values['no-research'] ? { research: false } : {}),
    style: values.style,
    language: values.language,
    duration: Number(values.duration),
    voice,
    visualStyle: values['visual-style'],
    resolution: values.resolution,
    customPrompt: values['custom-prompt'],
    enableZoom: values.zoom && !values['no-zoom'],
    zoomDirection: values['zoom-direction'],
    enableCaptions: values.captions,
    captionStyle: values['caption-style'],
    music: values.music,
  });
  if (!parsed.success) {
    fail(
      parsed.error.issues
        .map(
          (issue) =>
            `--${issue.path[0] === 'source' ? (values['script-file'] ? 'script-file' : 'article-file') : String(issue.path[0] ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ${issue.message}`,
        )
        .join('\n'),
    );
  }

  const workspaceDir = values.workspace ? resolve(values.workspace) : mkdtempSync(join(tmpdir(), 'reelsmith-generate-'));
  const controller = new AbortController();
  process.once('SIGINT', () => {
    console.error('\nCancelling…');
    controller.abort();
  });

  const started = Date.now();
  let lastStep = '';
  let lastDecile = -1;
  const line = (update: ProgressUpdate) =>
    `[${update.progress.toString().padStart(3)}%] ${update.step.padEnd(6)} ${update.stepProgress.toString().padStart(3)}%`;
  const onProgress = (update: ProgressUpdate) => {
    const newStep = update.step !== lastStep;
    if (process.stdout.isTTY) {
      if (newStep && lastStep) process.stdout.write('\n');
      process.stdout.write(`\r${line(update)}`);
    } else if (newStep || Math.floor(update.stepProgress / 10) !== lastDecile) {
      // Piped output (CI logs) gets a line per step and per tenth of it, not a carriage-return stream.
      process.stdout.write(`${line(update)}\n`);
    }
    lastStep = update.step;
    lastDecile = Math.floor(update.stepProgress / 10);
  };

  const timings: StepTiming[] = [];
  // This process's clock starts with it (performance.now() is 0 at node's start): the start-up is
  // loading the CLI and its modules, up to the run.
  const runStarted = performance.now() / 1000;
  const startupCpu = cpuSecondsNow();
  timings.push({
    name: 'start-up',
    start: 0,
    seconds: runStarted,
    ...(startupCpu !== null ? { cpuSeconds: startupCpu } : {}),
    reused: false,
  });
  try {
    const output = await runGeneration(
      {
        jobId: 'cli',
        params: parsed.data,
        workspaceDir,
        providers: registry.providersFor(),
        signal: controller.signal,
        onProgress,
      },
      { renderPreset: config.renderPreset, onTiming: (timing) => timings.push(timing) },
    );
    const runEnded = performance.now() / 1000;
    const runEndedCpu = cpuSecondsNow();
    const outPath = resolve(values.out);
    const posterPath = join(
      dirname(outPath),
      `${outPath
        .slice(0, -extname(outPath).length || undefined)
        .split('/')
        .pop()}.jpg`,
    );
    mkdirSync(dirname(outPath), { recursive: true });
    copyFileSync(output.videoPath, outPath);
    copyFileSync(output.posterPath, posterPath);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (source || output.research) {
      // What the narrator says, scene by scene, beside the source sentences it comes from.
      output.scenes?.forEach((scene, index) => console.log(`\nscene ${index + 1}: ${scene.narration}\n  picture: ${scene.imagePrompt}`));
    }
    // Which ffmpeg made it: the system's, or the static build npm installed (slower, older filters).
    const binaries = defaultFfmpegBinaries();
    const renderedWith = `ffmpeg ${await ffmpegVersion(binaries.ffmpegPath)} (${binaries.ffmpegSource}: ${binaries.ffmpegPath})`;
    console.log(
      `\n\n"${output.title}"\n${outPath} (${output.width}x${output.height}, ${output.durationSeconds.toFixed(2)} s, ${(output.sizeBytes / 1e6).toFixed(1)} MB) in ${seconds} s\nposter: ${posterPath}\nrendered with ${renderedWith}`,
    );
    // What it was told from: the Wikipedia article, or why the topic alone (never filler in silence).
    if (output.research) console.log(`told from Wikipedia: "${output.research.title}" (${output.research.url})`);
    else if (output.researchOutcome && !output.researchOutcome.used) {
      const found = output.researchOutcome.articles?.map((article) => `"${article.title}"`).join(', ');
      console.log(
        `note: ${RESEARCH_UNUSED_MESSAGES[output.researchOutcome.reason]}${found ? ` (the search found ${found}: pass --wikipedia "<title>" to tell one)` : ''}`,
      );
    }
    // How it was made, where the creator should know (a natural voice spoken by espeak-ng while its model is missing).
    for (const note of output.notes ?? []) console.log(`note: ${note}`);
    if (!values.workspace) rmSync(workspaceDir, { recursive: true, force: true });
    if (values.timings) {
      const end = performance.now() / 1000;
      const endCpu = cpuSecondsNow();
      timings.push({
        name: 'finish',
        start: runEnded,
        seconds: end - runEnded,
        ...(endCpu !== null && runEndedCpu !== null ? { cpuSeconds: endCpu - runEndedCpu } : {}),
        reused: false,
      });
      console.log(
        `\n${formatTimings(timings, 0, { label: 'total (this process)', seconds: end, ...(endCpu !== null ? { cpuSeconds: endCpu } : {}) })}`,
      );
    }
  } catch (error) {
    console.error(`\n\nGeneration failed: ${(error as Error).message}`);
    // The operator's view: the real cause (missing font, missing filter, ffmpeg's last stderr lines).
    const cause = (error as Error).cause;
    if (cause instanceof Error) {
      console.error(`cause: ${cause.message}`);
      const tail = (cause as { stderrTail?: string }).stderrTail?.trim();
      if (tail) console.error(`ffmpeg stderr (last lines):\n${tail.split('\n').slice(-8).join('\n')}`);
    }
    process.exitCode = 1;
  }
}

await main();
