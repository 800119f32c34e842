import type { Throughput } from '@reelsmith/contracts';
import { useEffect, useMemo, useRef } from 'react';
import type uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { errorMessage } from '../api/api-client.js';
import { useThroughput } from './admin-users-queries.js';
import { stepName } from './step-names.js';

const formatSeconds = (seconds: number | null) =>
  seconds === null ? '—' : seconds < 10 ? `${seconds.toFixed(1)} s` : `${Math.round(seconds)} s`;

let uplotModule: Promise<{ default: typeof uPlot }> | null = null;
/** uPlot, imported once for every chart on the page. */
const loadUplot = () => (uplotModule ??= import('uplot'));

/** One uPlot chart over the hourly buckets; uPlot (45 KB) is loaded with this admin-only chunk. */
function HourlyChart({ title, throughput, series }: { title: string; throughput: Throughput; series: Series }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let chart: uPlot | null = null;
    let cancelled = false;
    // Charts follow their column's width (old browsers without ResizeObserver keep the first width).
    const observer =
      typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => chart?.setSize({ width: element.clientWidth, height: 160 }));
    void loadUplot().then(({ default: UPlot }) => {
      if (cancelled) return;
      const times = throughput.buckets.map((bucket) => Date.parse(bucket.start) / 1000 + (throughput.bucketMinutes * 60) / 2);
      // Away from the cursor the legend shows the latest hour's figures, not "Time: --" and "--" for
      // every line until the admin happens to hover the chart.
      const latest = times.length - 1;
      const showLatest = (plot: uPlot) => {
        if (latest >= 0 && (plot.cursor.idx === null || plot.cursor.idx === undefined)) plot.setLegend({ idx: latest }, false);
      };
      chart = new UPlot(
        {
          width: element.clientWidth || 320,
          height: 160,
          legend: { show: true },
          cursor: { drag: { x: false, y: false } },
          hooks: { setCursor: [showLatest] },
          scales: { y: { range: (_u: uPlot, _min: number, max: number): uPlot.Range.MinMax => [0, Math.max(1, max)] } },
          axes: [
            { stroke: '#9ca3af', grid: { stroke: 'rgba(255,255,255,0.06)' } },
            { stroke: '#9ca3af', grid: { stroke: 'rgba(255,255,255,0.06)' }, size: 40 },
          ],
          series: [{}, ...series.map((line) => ({ label: line.label, stroke: line.colour, width: 2, points: { show: true, size: 4 } }))],
        },
        [times, ...series.map((line) => line.values)],
        element,
      );
      showLatest(chart);
      observer?.observe(element);
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [throughput, series]);
  return (
    <figure className="rs-throughput__chart">
      <figcaption>{title}</figcaption>
      <div ref={container} className="rs-throughput__plot" role="img" aria-label={`${title}, last 24 hours`} />
    </figure>
  );
}

/**
 * The System page's throughput: videos per hour, the failure rate and the queue's largest depth in
 * each hour over the last 24 h as charts, the videos completed in the last hour, and each step's median and p95 time (the figures /metrics reports, kept in
 * the database so every API process shows the same).
 */
type Series = Array<{ label: string; values: number[]; colour: string }>;

/** Each chart's lines, made once per answer so a chart is redrawn only when its data changes. */
function chartSeries(data: Throughput): { videos: Series; failures: Series; queue: Series } {
  return {
    videos: [
      { label: 'made', values: data.buckets.map((bucket) => bucket.completed), colour: '#34d399' },
      { label: 'failed', values: data.buckets.map((bucket) => bucket.failed), colour: '#f87171' },
    ],
    failures: [
      {
        label: 'failed, %',
        values: data.buckets.map((bucket) =>
          bucket.completed + bucket.failed === 0 ? 0 : (100 * bucket.failed) / (bucket.completed + bucket.failed),
        ),
        colour: '#fbbf24',
      },
    ],
    queue: [{ label: 'waiting', values: data.buckets.map((bucket) => bucket.queueDepth), colour: '#a78bfa' }],
  };
}

export function ThroughputCharts() {
  const query = useThroughput();
  const data = query.data;
  const series = useMemo(() => (data ? chartSeries(data) : null), [data]);
  if (query.isError) return <p className="rs-alert rs-alert--error">{errorMessage(query.error, 'Failed to load admin data')}</p>;
  if (!data || !series) return <p className="rs-health__nochart">Loading the last 24 hours…</p>;
  return (
    <section className="rs-card rs-admin-card rs-throughput" aria-label="Throughput, last 24 hours">
      <header className="rs-health__header">
        <h2>Throughput, last 24 hours</h2>
        <span className="rs-chip">
          {data.videosPerHour} {data.videosPerHour === 1 ? 'video' : 'videos'} in the last hour · failure rate{' '}
          {data.failureRate === null ? '—' : `${(100 * data.failureRate).toFixed(1)}%`}
        </span>
      </header>
      <div className="rs-throughput__charts">
        <HourlyChart title="Videos per hour" throughput={data} series={series.videos} />
        <HourlyChart title="Failure rate, %" throughput={data} series={series.failures} />
        <HourlyChart title="Largest queue in each hour" throughput={data} series={series.queue} />
      </div>
      <table className="rs-throughput__steps">
        <caption>Time per step</caption>
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Runs</th>
            <th scope="col">Median</th>
            <th scope="col">95th percentile</th>
          </tr>
        </thead>
        <tbody>
          {data.steps.map((step) => (
            <tr key={step.step}>
              <th scope="row">{stepName(step.step)}</th>
              <td>{step.runs}</td>
              <td>{formatSeconds(step.medianSeconds)}</td>
              <td>{formatSeconds(step.p95Seconds)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
