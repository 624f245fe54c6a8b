/**
 * Runs the CLI in-process (`main(argv, io)` with a capturing Io) or as a real subprocess
 * (`node bin/quota-doctor.js …`, what `npx quota-doctor` runs).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/program.ts';
import { capture } from '../support/capture.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const STATES = 'test/fixtures/states/cli';
export const MANIFESTS = 'test/fixtures/manifests';
export const DEMO = 'manifests/demo';

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `main(argv)` with stdout/stderr captured; `stdin` is what a pipe would deliver (non-TTY). */
export async function run(argv: string[], stdin = ''): Promise<Run> {
  const io = capture({ stdin });
  const cwd = process.cwd();
  process.chdir(ROOT);
  try {
    const code = await main(argv, io);
    return { code, stdout: io.stdoutText, stderr: io.stderrText };
  } finally {
    process.chdir(cwd);
  }
}

/** `node bin/quota-doctor.js …` in the repository root, without Slack or state variables. */
export function runBin(argv: string[], stdin = ''): Run {
  const env = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('SLACK_') || k.startsWith('QUOTA_DOCTOR_')) delete env[k];
  const r = spawnSync(process.execPath, ['bin/quota-doctor.js', ...argv], {
    cwd: ROOT,
    input: stdin,
    encoding: 'utf8',
    env,
    timeout: 30_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** What a stack trace looks like in Node output. */
export const STACK_TRACE = /^\s+at .+(\(|:\d+:\d+)|\bError:.*\n\s+at |node:internal/m;

export function json<T = unknown>(r: Run): T {
  return JSON.parse(r.stdout) as T;
}
