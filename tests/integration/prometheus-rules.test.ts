import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The alerting and recording rules of ops/prometheus, checked and unit-tested by promtool (Debian's
 * `prometheus` package; .ci/run installs it). Without promtool the suite skips on a developer's
 * machine, saying so; in CI (CI set) it fails instead, so the rules are never left untested there.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const rulesDir = join(root, 'ops/prometheus');
const testsDir = join(rulesDir, 'tests');

function promtoolPath(): string | null {
  const found = spawnSync('sh', ['-c', 'command -v promtool'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
}

const promtool = promtoolPath();
const ruleFiles = readdirSync(rulesDir).filter((name) => name.endsWith('.yml'));
const testFiles = readdirSync(testsDir).filter((name) => name.endsWith('.test.yml'));

if (!promtool && !process.env.CI)
  console.warn('prometheus-rules.test.ts: promtool is not installed (apt-get install prometheus): the rule tests are skipped here.');

describe('ops/prometheus rules', () => {
  it('promtool is installed in CI', () => {
    if (process.env.CI) expect(promtool, 'CI must install promtool (Debian package prometheus, .ci/run)').not.toBeNull();
  });

  it.skipIf(!promtool)('every rule file passes promtool check rules', () => {
    expect(ruleFiles.length).toBeGreaterThanOrEqual(2);
    const output = execFileSync(promtool!, ['check', 'rules', ...ruleFiles.map((name) => join(rulesDir, name))], { encoding: 'utf8' });
    expect(output).toContain('SUCCESS');
  });

  it.skipIf(!promtool)('every rule file is unit-tested, and promtool test rules passes', () => {
    const tested = new Set<string>();
    const alertsTested = new Set<string>();
    for (const file of testFiles) {
      const text = readFileSync(join(testsDir, file), 'utf8');
      for (const match of text.matchAll(/^\s*-\s*\.\.\/(\S+\.yml)\s*$/gm)) tested.add(match[1]!);
      for (const match of text.matchAll(/alertname:\s*(\S+)/g)) alertsTested.add(match[1]!);
    }
    expect([...tested].sort()).toEqual([...ruleFiles].sort());
    for (const file of ruleFiles) {
      for (const match of readFileSync(join(rulesDir, file), 'utf8').matchAll(/^\s*-\s*alert:\s*(\S+)/gm))
        expect(alertsTested.has(match[1]!), `${match[1]} has an alert_rule_test`).toBe(true);
    }
    const run = spawnSync(promtool!, ['test', 'rules', ...testFiles.map((name) => join(testsDir, name))], { encoding: 'utf8' });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout).toContain('SUCCESS');
  });
});
