/**
 * No Docker engine runs here, so the Dockerfile is checked by reading it: the properties the Deployment
 * relies on (numeric non-root user, port 3000, `serve` entrypoint, nothing written outside /tmp) and the
 * build-context rules (.dockerignore must keep what the Dockerfile copies, and nothing else).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dockerfile = readFileSync(`${ROOT}/Dockerfile`, 'utf8');
const dockerignore = readFileSync(`${ROOT}/.dockerignore`, 'utf8');

/** Instructions with comments dropped and `\` continuations joined. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));

const stages = instructions.reduce<string[][]>((acc, line) => {
  if (/^FROM\s/i.test(line)) acc.push([]);
  acc.at(-1)?.push(line);
  return acc;
}, []);
const runtime = stages.at(-1) ?? [];

/** `.dockerignore` as Docker reads it: patterns in order, the last match wins, `!` re-includes. */
function sentToBuild(path: string): boolean {
  let included = true;
  for (const raw of dockerignore.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const negate = line.startsWith('!');
    const pattern = (negate ? line.slice(1) : line).replace(/\/$/, '');
    const re = new RegExp(
      '^' +
        pattern
          .split('/')
          .map((seg) => (seg === '**' ? '.*' : seg.replace(/[.+^${}()|[\]]/g, '\\$&').replace(/\*/g, '[^/]*')))
          .join('/')
          .replace(/\.\*\//g, '(.*/)?') +
        '(/.*)?$',
    );
    if (re.test(path)) included = negate;
  }
  return included;
}

describe('Dockerfile', () => {
  it('builds on Node 24 and typechecks in a stage the runtime image depends on', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const s of stages) expect(s[0]).toMatch(/^FROM\s+\S*node(js)?:?24\S*/i);
    const build = stages.find((s) => s.some((l) => /npm run typecheck/.test(l)));
    expect(build?.some((l) => /^RUN npm ci\b(?!.*--omit=dev)/.test(l))).toBe(true);
    const buildName = /\sAS\s+(\S+)/i.exec(build![0]!)?.[1];
    // BuildKit skips stages the final image does not use: the runtime must copy from the typechecked one.
    expect(runtime.some((l) => new RegExp(`^COPY --from=${buildName}\\s`, 'i').test(l))).toBe(true);
    expect(instructions.some((l) => /npm ci --omit=dev --ignore-scripts/.test(l))).toBe(true);
  });

  it('runs as the numeric non-root user 65532, on port 3000, `serve`, without HEALTHCHECK', () => {
    const user = runtime.filter((l) => /^USER\s/i.test(l)).at(-1);
    expect(user).toMatch(/^USER 65532(:65532)?$/);
    expect(runtime).toContain('EXPOSE 3000');
    expect(instructions.some((l) => /^HEALTHCHECK/i.test(l))).toBe(false);
    const entry = runtime.filter((l) => /^ENTRYPOINT\s/i.test(l)).at(-1);
    expect(JSON.parse(entry!.replace(/^ENTRYPOINT\s+/i, ''))).toEqual([expect.stringMatching(/(^|\/)node$/), 'bin/quota-doctor.js', 'serve']);
  });

  it('sets NODE_ENV=production and TSX_DISABLE_CACHE=1 (nothing written outside /tmp)', () => {
    const env = runtime.filter((l) => /^ENV\s/i.test(l)).join(' ');
    expect(env).toMatch(/\bNODE_ENV=production\b/);
    expect(env).toMatch(/\bTSX_DISABLE_CACHE=1\b/);
  });

  it('copies bin/, src/, package*.json and manifests/demo/, and the build context keeps exactly those', () => {
    const fromContext = instructions
      .filter((l) => /^COPY\s/i.test(l) && !/--from=/i.test(l))
      .flatMap((l) => l.split(/\s+/).slice(1, -1).filter((a) => !a.startsWith('--')))
      .map((p) => p.replace(/^\.\//, '').replace(/\/$/, ''));
    expect(new Set(fromContext)).toEqual(new Set(['package.json', 'package-lock.json', 'tsconfig.json', 'bin', 'src', 'manifests/demo']));
    for (const p of fromContext) expect(sentToBuild(p), `${p} is excluded by .dockerignore`).toBe(true);
    for (const p of ['node_modules', '.git', 'test', 'bench', 'coverage', '.ci', 'README.md', 'manifests/base', 'manifests/rbac.yaml', 'src/.env', '.env']) {
      expect(sentToBuild(p), `${p} is sent to the build`).toBe(false);
    }
  });

  it('has the demo state it copies (a missing COPY source fails the image build)', () => {
    expect(existsSync(`${ROOT}/manifests/demo`)).toBe(true);
    expect(readdirSync(`${ROOT}/manifests/demo`).some((f) => /\.(ya?ml|json)$/.test(f))).toBe(true);
  });
});
