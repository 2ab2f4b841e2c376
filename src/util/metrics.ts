// Counters, gauges and histograms rendered in the Prometheus text exposition format 0.0.4
// (docs/design/remote.md §1.12). Label values come from fixed sets given at construction, so
// nothing a client sends (query, token, subject, URL) can ever become a label or a new series.

/** The content type of the text exposition format. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** Default histogram bucket bounds, in seconds (request and provider durations). */
export const DURATION_BUCKETS_SECONDS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

interface Metric {
  render(): string;
}

/** A monotonically increasing count, with at most one label whose values are fixed. */
export class Counter implements Metric {
  readonly #name: string;
  readonly #help: string;
  readonly #label: string | undefined;
  readonly #allowed: ReadonlySet<string> | undefined;
  readonly #counts = new Map<string, number>();

  /**
   * @param name The metric name (`…_total`).
   * @param help One line of help text.
   * @param label The label name and its allowed values; absent for an unlabelled counter.
   */
  constructor(name: string, help: string, label?: { readonly name: string; readonly values: readonly string[] }) {
    this.#name = name;
    this.#help = help;
    this.#label = label?.name;
    this.#allowed = label === undefined ? undefined : new Set(label.values);
    if (label === undefined) this.#counts.set('', 0);
  }

  /**
   * Adds one (or `by`).
   *
   * @param value The label value; must be one of the fixed values (a programmer error otherwise).
   * @throws {RangeError} When `value` is not an allowed label value.
   */
  inc(value = '', by = 1): void {
    if (this.#allowed !== undefined && !this.#allowed.has(value)) throw new RangeError(`${this.#name}: label value outside the fixed set.`);
    this.#counts.set(value, (this.#counts.get(value) ?? 0) + by);
  }

  /** The current count for a label value (0 when never counted). */
  get(value = ''): number {
    return this.#counts.get(value) ?? 0;
  }

  render(): string {
    const lines = [`# HELP ${this.#name} ${this.#help}`, `# TYPE ${this.#name} counter`];
    for (const [value, count] of this.#counts) {
      lines.push(`${this.#name}${this.#label === undefined ? '' : `{${this.#label}="${value}"}`} ${count}`);
    }
    return lines.join('\n');
  }
}

/** A value read when scraped (in-flight requests, cache entries). */
export class Gauge implements Metric {
  readonly #name: string;
  readonly #help: string;
  readonly #read: () => number;
  readonly #labels: string;

  /**
   * @param read Called on every scrape.
   * @param labels Fixed labels (configuration facts such as the version, never request data).
   */
  constructor(name: string, help: string, read: () => number, labels: Readonly<Record<string, string>> = {}) {
    this.#name = name;
    this.#help = help;
    this.#read = read;
    const pairs = Object.entries(labels).map(([key, value]) => `${key}="${escapeLabelValue(value)}"`);
    this.#labels = pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
  }

  render(): string {
    return [`# HELP ${this.#name} ${this.#help}`, `# TYPE ${this.#name} gauge`, `${this.#name}${this.#labels} ${this.#read()}`].join('\n');
  }
}

/** Observations counted into fixed buckets (cumulative on render). */
export class Histogram implements Metric {
  readonly #name: string;
  readonly #help: string;
  readonly #bounds: readonly number[];
  readonly #counts: number[];
  #sum = 0;
  #count = 0;

  /** @param bounds Upper bounds in ascending order, in seconds; `+Inf` is implied. */
  constructor(name: string, help: string, bounds: readonly number[] = DURATION_BUCKETS_SECONDS) {
    this.#name = name;
    this.#help = help;
    this.#bounds = bounds;
    this.#counts = bounds.map(() => 0);
  }

  /** Records one observation, in seconds. */
  observe(seconds: number): void {
    const index = this.#bounds.findIndex((bound) => seconds <= bound);
    if (index !== -1) this.#counts[index] = (this.#counts[index] ?? 0) + 1;
    this.#sum += seconds;
    this.#count += 1;
  }

  /** Observations so far. */
  get count(): number {
    return this.#count;
  }

  render(): string {
    const lines = [`# HELP ${this.#name} ${this.#help}`, `# TYPE ${this.#name} histogram`];
    let cumulative = 0;
    this.#bounds.forEach((bound, index) => {
      cumulative += this.#counts[index] ?? 0;
      lines.push(`${this.#name}_bucket{le="${bound}"} ${cumulative}`);
    });
    lines.push(`${this.#name}_bucket{le="+Inf"} ${this.#count}`, `${this.#name}_sum ${this.#sum}`, `${this.#name}_count ${this.#count}`);
    return lines.join('\n');
  }
}

/** The metrics of one process, in registration order. */
export class MetricsRegistry {
  readonly #metrics: Metric[] = [];

  /** Adds a metric and returns it. */
  register<T extends Metric>(metric: T): T {
    this.#metrics.push(metric);
    return metric;
  }

  /**
   * Renders every metric.
   *
   * @returns The exposition text, ending with a newline.
   * @see https://prometheus.io/docs/instrumenting/exposition_formats/
   */
  render(): string {
    return `${this.#metrics.map((metric) => metric.render()).join('\n')}\n`;
  }
}

// Exposition format: backslash, double quote and line feed are escaped in label values.
function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}
