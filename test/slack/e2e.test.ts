/**
 * End to end with the real Answerer (`createAnswerer()` from src/answer/index.ts) over the demo cluster
 * (manifests/demo through FileSource, as QUOTA_DOCTOR_STATE would), behind the real Bolt receiver.
 * Skipped, saying why, when the Answerer is not there.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Answerer } from '../../src/answer/answerer.ts';
import { FileSource } from '../../src/cluster/file-source.ts';
import { CHANNEL_A, CHANNEL_B, messageEvent, startHarness, type Harness } from './harness.ts';

const ANSWERER = fileURLToPath(new URL('../../src/answer/index.ts', import.meta.url));
const DEMO = fileURLToPath(new URL('../../manifests/demo', import.meta.url));
const ready = existsSync(ANSWERER) && existsSync(DEMO);

const PASTE =
  'Error creating: pods "worker-5d8c7b9f4-glpms" is forbidden: exceeded quota: team-quota, requested: pods=1, used: pods=10, limited: pods=10';

describe.skipIf(!ready)(
  `end to end: real Answerer over manifests/demo${ready ? '' : ' (skipped: src/answer/index.ts or manifests/demo is missing)'}`,
  () => {
    let h: Harness;
    beforeAll(async () => {
      const mod = (await import(ANSWERER)) as { createAnswerer?: () => Answerer };
      if (typeof mod.createAnswerer !== 'function')
        throw new Error('src/answer/index.ts does not export createAnswerer()');
      h = await startHarness({ answerer: mod.createAnswerer(), source: new FileSource(DEMO), deadlineMs: 15_000 });
    });
    afterAll(async () => {
      await h?.stop(); // also fails if any payload broke a Slack limit
    });

    it('a pasted "exceeded quota" in #team-a → one threaded diagnosis naming the quota', async () => {
      await h.event(messageEvent(PASTE, { channel: CHANNEL_A, ts: '1700009000.000100' }), { eventId: 'Ev0E2E1' });
      await h.event(messageEvent(PASTE, { channel: CHANNEL_A, ts: '1700009000.000100' }), {
        eventId: 'Ev0E2E1',
        retryNum: 1,
      });
      await h.fake.waitFor(() => h.fake.callsTo('chat.postMessage').length >= 1, 10_000);
      await h.handle.idle();
      const posts = h.fake.callsTo('chat.postMessage');
      expect(posts).toHaveLength(1);
      expect(posts[0]!.params.thread_ts).toBe('1700009000.000100');
      const header = (posts[0]!.params.blocks as { type: string; text: { text: string } }[])[0]!;
      expect(header.type).toBe('header');
      expect(header.text.text).toContain('team-quota');
    });

    it('/quota team-a → acked fast, then headroom via response_url', async () => {
      const r = await h.command('team-a', { channel: CHANNEL_A });
      expect(r.status).toBe(200);
      expect(r.ms).toBeLessThan(3000);
      await h.fake.waitFor(() => h.fake.respondsTo(r.id).length === 1, 10_000);
      const body = h.fake.respondsTo(r.id)[0]!.body;
      expect(body.response_type).toBe('in_channel');
      expect(String(body.text)).toMatch(/^📊 team-a — 1 ResourceQuota, 1 LimitRange/);
      expect(JSON.stringify(body.blocks)).toContain('▰');
    });

    it('the paste with its `kubectl -n team-a` line in #team-b (which may see only team-b) → a refusal that leaks nothing of team-a', async () => {
      const before = h.fake.callsTo('chat.postMessage').length;
      await h.event(
        messageEvent(`$ kubectl -n team-a scale deploy/worker --replicas=3\n${PASTE}`, {
          channel: CHANNEL_B,
          ts: '1700009100.000100',
        }),
      );
      await h.fake.waitFor(() => h.fake.callsTo('chat.postMessage').length === before + 1, 10_000);
      const post = h.fake.callsTo('chat.postMessage')[before]!;
      expect(String(post.params.text)).toMatch(/^🔒 /);
      const shown = JSON.stringify(post.params);
      for (const leak of ['team-a', 'team-quota', 'worker', 'pods=10', 'general-']) expect(shown).not.toContain(leak);
    });

    it('/quota team-a from #team-b → refused in the ack, nothing read', async () => {
      const r = await h.command('team-a', { channel: CHANNEL_B });
      expect((r.ack as { text: string }).text).toMatch(/^🔒 /);
      expect(JSON.stringify(r.ack)).not.toContain('team-a');
    });

    it('an @mention what-if in #team-a → one threaded answer', async () => {
      const before = h.fake.callsTo('chat.postMessage').length;
      const text = '<@UBOT> what if web scales to 8 in team-a?';
      await Promise.all([
        h.event({ type: 'app_mention', channel: CHANNEL_A, user: 'U0BOB', text, ts: '1700009200.000100' }),
        h.event(messageEvent(text, { channel: CHANNEL_A, ts: '1700009200.000100' })),
      ]);
      await h.fake.waitFor(() => h.fake.callsTo('chat.postMessage').length === before + 1, 10_000);
      await h.handle.idle();
      expect(h.fake.callsTo('chat.postMessage')).toHaveLength(before + 1);
      const post = h.fake.callsTo('chat.postMessage')[before]!;
      expect(post.params.thread_ts).toBe('1700009200.000100');
      expect(String(post.params.text)).toContain('web');
    });
  },
);
