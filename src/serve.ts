/**
 * The long-running bot, and the composition root that builds it: configuration → cluster source(s) →
 * answerer → Slack app. The CLI runs it for `quota-doctor serve` and for `npm start` with Slack tokens
 * (src/cli/commands/serve.ts, start.ts); it never imports the CLI back.
 */
import { loadConfig, secretValues, describeConfig, ConfigError } from './config.ts';
import { loadPolicy } from './answer/policy.ts';
import { createAnswerer } from './answer/index.ts';
import { openSource } from './answer/sources.ts';
import { alertApis, leaseApi } from './cluster/lease-api.ts';
import { createSlackApp, createLogger } from './slack/index.ts';

/** Where serve writes the one line that says why it could not start (the CLI's `Io` is one). */
export interface ServeIo {
  stderr: (s: string) => void;
}

export async function serve(io: ServeIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(env);
  } catch (e) {
    io.stderr(`quota-doctor: ${e instanceof ConfigError ? e.message : String(e)}\n`);
    return 2;
  }
  if (config.mode === 'console') {
    io.stderr(
      'quota-doctor: serve needs SLACK_BOT_TOKEN (and SLACK_SIGNING_SECRET or SLACK_APP_TOKEN); without them run `quota-doctor console`.\n',
    );
    return 2;
  }
  const logger = createLogger({ level: config.logLevel, secrets: secretValues(config) });
  const policy = loadPolicy(config.policyPath);
  const handle = createSlackApp({
    config,
    answerer: createAnswerer(),
    policy,
    logger,
    sourceFor: (context?: string) => openSource({ state: config.statePath, context, watch: true }, env),
    leaseApi: () => leaseApi(env),
    alerts: { apis: () => alertApis(env), ...(env.HOSTNAME ? { identity: env.HOSTNAME } : {}) },
  });
  const { port } = await handle.start();
  logger.info({ port, mode: config.mode }, `quota-doctor listening (${describeConfig(config)})`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  await handle.stop();
  return 0;
}
