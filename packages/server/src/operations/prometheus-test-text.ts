import parsePrometheusTextFormat from 'parse-prometheus-text-format';

/**
 * Reading a scrape in tests: the whole text must parse with a Prometheus text-format parser (it
 * throws on a malformed line), then single series are read by name and labels (that parser merges
 * the series of a labelled histogram, so `_sum`/`_count` lines are read here directly).
 */
export function readScrape(text: string) {
  const families = parsePrometheusTextFormat(text);
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(\{.*\})?\s+(\S+)$/.exec(line);
    if (match) series.set(`${match[1]}${match[2] ?? ''}`, Number(match[3]));
  }
  const key = (name: string, labels: Record<string, string>) => {
    const entries = Object.entries(labels);
    return entries.length === 0 ? name : `${name}{${entries.map(([label, value]) => `${label}="${value}"`).join(',')}}`;
  };
  return {
    families,
    /** The family's type, as the parser read it. */
    typeOf: (name: string) => families.find((family) => family.name === name)?.type,
    /** One series' value; labels in the order the exporter writes them. Undefined when absent. */
    value: (name: string, labels: Record<string, string> = {}) => series.get(key(name, labels)),
    /** The sum of every series of `name` whose labels include `labels`. */
    total(name: string, labels: Record<string, string> = {}): number {
      let sum = 0;
      for (const [series_, value] of series) {
        const [seriesName] = series_.split('{');
        if (seriesName !== name) continue;
        if (Object.entries(labels).every(([label, wanted]) => series_.includes(`${label}="${wanted}"`))) sum += value;
      }
      return sum;
    },
  };
}
