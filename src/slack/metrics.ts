/**
 * Prometheus metrics for GET /metrics, on a registry of their own (several apps in one process, as in
 * tests, never collide on the global one).
 */
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export interface SlackMetrics {
  registry: Registry;
  events: Counter<'type' | 'name'>;
  duplicates: Counter<'type'>;
  answers: Counter<'entry' | 'kind'>;
  refusals: Counter<'entry'>;
  rateLimited: Counter<'entry' | 'scope'>;
  errors: Counter<'entry' | 'reason'>;
  latency: Histogram<'entry' | 'outcome'>;
}

export function createMetrics(opts: { registry?: Registry; defaultMetrics?: boolean } = {}): SlackMetrics {
  const registry = opts.registry ?? new Registry();
  if (opts.defaultMetrics ?? false) collectDefaultMetrics({ register: registry, prefix: 'quota_doctor_' });
  const registers = [registry];
  return {
    registry,
    events: new Counter({ name: 'quota_doctor_slack_events_total', help: 'Slack requests received, by type (event, command, shortcut) and name', labelNames: ['type', 'name'], registers }),
    duplicates: new Counter({ name: 'quota_doctor_slack_duplicates_total', help: 'Slack redeliveries (same event_id) dropped', labelNames: ['type'], registers }),
    answers: new Counter({ name: 'quota_doctor_answers_total', help: 'Replies sent, by entry point and kind of the first reply', labelNames: ['entry', 'kind'], registers }),
    refusals: new Counter({ name: 'quota_doctor_refusals_total', help: 'Answers refused by the channel access policy', labelNames: ['entry'], registers }),
    rateLimited: new Counter({ name: 'quota_doctor_rate_limited_total', help: 'Requests turned away by a rate limit', labelNames: ['entry', 'scope'], registers }),
    errors: new Counter({ name: 'quota_doctor_errors_total', help: 'Errors: timeout (deadline), exception (answerer), slack_api (posting)', labelNames: ['entry', 'reason'], registers }),
    latency: new Histogram({
      name: 'quota_doctor_answer_duration_seconds',
      help: 'Time from request to answer ready (before posting)',
      labelNames: ['entry', 'outcome'],
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30],
      registers,
    }),
  };
}
