/**
 * Article telling benchmark: how well the offline narration of an article says what a person's
 * summary of it says. For each article of bench/summary-articles (short encyclopedic articles
 * written for this benchmark, each with an independently written summary; CC0) it tells the
 * article at the word budget of a 30 s and a 60 s video and prints ROUGE-1, ROUGE-2 and ROUGE-L F1
 * against the summary, beside the article's opening sentences at the same budget (the lead) and the
 * sentences centrality alone (TextRank) picks.
 *
 *   npm run bench:summary
 *
 * A benchmark: it prints, it does not fail (src/story/summary-benchmark.test.ts holds the result).
 */
import { evaluateSummaries, SUMMARY_METHODS, wordBudget, type RougeScores } from './summary-test-bench.js';

const format = (scores: RougeScores) => `R-1 ${scores.rouge1.toFixed(3)}  R-2 ${scores.rouge2.toFixed(3)}  R-L ${scores.rougeL.toFixed(3)}`;

for (const duration of [30, 60]) {
  const { perArticle, mean } = evaluateSummaries(duration);
  console.log(`\n${duration} s video: ${wordBudget(duration).targetWords} words, ${perArticle.length} articles (F1, mean)`);
  for (const method of SUMMARY_METHODS) {
    const words = perArticle.reduce((sum, row) => sum + row.words[method], 0) / perArticle.length;
    console.log(`  ${method.padEnd(11)} ${format(mean[method])}  (${words.toFixed(0)} words)`);
  }
  console.log('  per article, R-1 narration / lead / centrality:');
  for (const row of perArticle)
    console.log(`    ${row.slug.padEnd(20)} ${SUMMARY_METHODS.map((method) => row.scores[method].rouge1.toFixed(3)).join(' / ')}`);
}
