import { defineConfig } from 'vitest/config';

/**
 * Test files that assert wall-clock bounds (a 1 MB parse in under a second, an answer by a deadline, a
 * reflector's backoff): they run last, one file at a time, with the machine to themselves; every other
 * file runs two at a time (most of them wait on loopback servers, timeouts and retries more than they
 * compute).
 */
const TIMED = [
  'test/cluster/cache-faults.test.ts',
  'test/cluster/kube-client.test.ts',
  'test/cluster/live-source.test.ts',
  'test/hardening/bad-input-slack.test.ts',
  'test/hardening/bad-input.test.ts',
  'test/hardening/cluster-faults.test.ts',
  'test/hardening/load.test.ts',
  'test/parse/fuzz.test.ts',
  'test/parse/manifests.test.ts',
  'test/parse/question-bounds.test.ts',
  'test/parse/question-fuzz.test.ts',
  'test/slack/alerts/e2e.test.ts',
  'test/slack/bad-bodies.test.ts',
  'test/slack/http-routes.test.ts',
  'test/slack/multi-cluster.test.ts',
  'test/slack/quota-command.test.ts',
  'test/slack/replicas.test.ts',
  'test/slack/replicas-processes.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
    globalSetup: ['./test/support/global-tmp.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: TIMED,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'timed', include: TIMED, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
