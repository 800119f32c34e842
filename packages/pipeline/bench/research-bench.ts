/**
 * Research telling benchmark: does a researched video answer the topic? For each held-out topic of
 * bench/research-articles (articles written for this bench in five languages, each with the key
 * facts of the answer written down before the telling was tuned) it tells the article as a 30 s and
 * a 60 s video would, and prints the key facts the narration says, the scene changes that fall inside
 * a sentence, and the same for the lead baseline (the article's first 90 words).
 *
 *   npm run bench:research            (add --verbose for each narration, scene by scene)
 *
 * A benchmark: it prints, it does not fail (src/story/research-benchmark.test.ts holds the result).
 */
import { evaluateResearch, LEAD_WORDS, researchBudget } from './research-test-bench.js';

const verbose = process.argv.includes('--verbose');

for (const duration of [30, 60]) {
  const rows = evaluateResearch(duration);
  const started = performance.now();
  evaluateResearch(duration);
  const perTopicMs = (performance.now() - started) / rows.length;
  console.log(
    `\n${duration} s video, the extract as the Wikipedia client keeps it (${researchBudget(duration, 'en').targetWords} English words; lead = first ${LEAD_WORDS} words), ${rows.length} topics, telling ${perTopicMs.toFixed(1)} ms a topic`,
  );
  console.log('  topic          lang  facts  narration found  cuts  scenes  words | lead found  cuts');
  for (const row of rows) {
    console.log(
      `  ${row.slug.padEnd(14)} ${row.language.padEnd(5)} ${String(row.facts).padStart(5)}  ${String(row.narration.found).padStart(15)}  ${String(row.narration.cuts).padStart(4)}  ${String(row.narration.scenes).padStart(6)}  ${String(row.narration.words).padStart(5)} | ${String(row.lead.found).padStart(10)}  ${String(row.lead.cuts).padStart(4)}`,
    );
    if (verbose) {
      row.story.scenes.forEach((scene, index) => console.log(`      ${index + 1}. ${scene.narration}`));
      if (row.narration.missed.length) console.log(`      missed: ${row.narration.missed.join('; ')}`);
    }
  }
  const sum = (pick: (row: (typeof rows)[number]) => number) => rows.reduce((total, row) => total + pick(row), 0);
  console.log(
    `  mean: narration ${(sum((row) => row.narration.found) / rows.length).toFixed(2)} of ${(sum((row) => row.facts) / rows.length).toFixed(2)} facts, ${sum((row) => row.narration.cuts)} cuts in all; lead ${(sum((row) => row.lead.found) / rows.length).toFixed(2)} facts, ${sum((row) => row.lead.cuts)} cuts; topics missing more than one fact: ${rows.filter((row) => row.facts - row.narration.found > 1).length}`,
  );
}
