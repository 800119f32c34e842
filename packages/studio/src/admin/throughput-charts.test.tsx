// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import type { Throughput } from '@reelsmith/contracts';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { installMatchMedia } from '../testing/render-studio.js';
import { fakeFetch, renderWithServices } from '../shared/voices/voices-test-harness.js';
import { ThroughputCharts } from './throughput-charts.js';

// jsdom has no canvas: uPlot itself is left out; what is checked is what the page gives it and shows.
type Hook = (plot: unknown) => void;
const plotted = vi.hoisted(
  () =>
    [] as Array<{
      series: Array<{ label?: string }>;
      data: number[][];
      legend: Array<number | undefined>;
      cursor: { idx: number | null };
      setCursor: Hook[];
      plot: unknown;
    }>,
);
vi.mock('uplot', () => ({
  default: class {
    readonly cursor = { idx: null as number | null };
    constructor(options: { series: Array<{ label?: string }>; hooks?: { setCursor?: Hook[] } }, data: number[][]) {
      plotted.push({
        series: options.series,
        data,
        legend: [],
        cursor: this.cursor,
        setCursor: options.hooks?.setCursor ?? [],
        plot: this,
      });
    }
    setLegend(options: { idx?: number }) {
      plotted.find((chart) => chart.plot === this)!.legend.push(options.idx);
    }
    setSize() {}
    destroy() {}
  },
}));

afterEach(cleanup);

const start = Date.parse('2026-11-26T13:00:00.000Z');
const throughput: Throughput = {
  since: new Date(start).toISOString(),
  until: new Date(start + 24 * 3_600_000).toISOString(),
  bucketMinutes: 60,
  buckets: Array.from({ length: 24 }, (_, index) => ({
    start: new Date(start + index * 3_600_000).toISOString(),
    completed: index === 23 ? 9 : 0,
    failed: index === 23 ? 1 : 0,
    queueDepth: index === 22 ? 4 : 0,
  })),
  videosPerHour: 3,
  failureRate: 0.1,
  steps: [
    { step: 'setup', runs: 10, medianSeconds: 0.2, p95Seconds: 0.4 },
    { step: 'story', runs: 10, medianSeconds: 0.5, p95Seconds: 1.1 },
    { step: 'voice', runs: 10, medianSeconds: 3.2, p95Seconds: 5.8 },
    { step: 'images', runs: 10, medianSeconds: 1.4, p95Seconds: 2.2 },
    { step: 'video', runs: 9, medianSeconds: 11.6, p95Seconds: 24 },
  ],
};

describe('ThroughputCharts', () => {
  it('shows the rate, the failure rate, the median and p95 of every step, and charts the hourly figures', async () => {
    installMatchMedia();
    const { fetch } = fakeFetch((url) => (url.pathname === '/api/admin/throughput' ? { body: throughput } : { status: 404, body: {} }));
    renderWithServices(<ThroughputCharts />, { fetch, role: 'admin' });
    const section = await screen.findByRole('region', { name: 'Throughput, last 24 hours' });
    expect(within(section).getByText(/3 videos in the last hour · failure rate 10\.0%/)).toBeInTheDocument();
    const render = within(section).getByRole('row', { name: /Render/ });
    expect(render).toHaveTextContent('9');
    expect(render).toHaveTextContent('12 s');
    expect(render).toHaveTextContent('24 s');
    await vi.waitFor(() => expect(plotted).toHaveLength(3));
    const videos = plotted.find((chart) => chart.series.some((line) => line.label === 'made'))!;
    expect(videos.data[1]![23]).toBe(9);
    expect(videos.data[2]![23]).toBe(1);
    const queue = plotted.find((chart) => chart.series.some((line) => line.label === 'waiting'))!;
    expect(queue.data[1]![22]).toBe(4);
    expect(screen.getAllByRole('img', { name: /last 24 hours/ })).toHaveLength(3);
  });

  it('shows the latest hour\'s figures in each legend, not "Time: --", until hovered and after (issue 49)', async () => {
    plotted.length = 0;
    installMatchMedia();
    const { fetch } = fakeFetch((url) => (url.pathname === '/api/admin/throughput' ? { body: throughput } : { status: 404, body: {} }));
    renderWithServices(<ThroughputCharts />, { fetch, role: 'admin' });
    await vi.waitFor(() => expect(plotted).toHaveLength(3));
    for (const chart of plotted) expect(chart.legend).toEqual([23]);
    const [chart] = plotted;
    // Hovering hour 5 shows hour 5 (uPlot's own legend); leaving the chart goes back to the latest.
    chart!.cursor.idx = 5;
    for (const hook of chart!.setCursor) hook(chart!.plot);
    expect(chart!.legend).toEqual([23]);
    chart!.cursor.idx = null;
    for (const hook of chart!.setCursor) hook(chart!.plot);
    expect(chart!.legend).toEqual([23, 23]);
  });
});
