/**
 * No Docker engine runs here, so the Dockerfile is checked by reading it: the properties the Deployment
 * relies on (numeric non-root user, port 3000, the CLI as ENTRYPOINT with `serve` as CMD, compiled
 * JavaScript with no tsx, nothing written outside /tmp) and the build-context rules (.dockerignore must
 * keep what the Dockerfile copies, and nothing else).
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

/** `npm ci --omit=dev` installs the lockfile entries not marked `dev`: their package names. */
function productionPackages(): Set<string> {
  const lock = JSON.parse(readFileSync(`${ROOT}/package-lock.json`, 'utf8')) as {
    packages: Record<string, { dev?: boolean }>;
  };
  return new Set(
    Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && !p.dev)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)),
  );
}

/** The JSON array of an exec-form instruction (`ENTRYPOINT [...]`, `CMD [...]`), last one wins. */
function execForm(stage: string[], instruction: string): unknown {
  const line = stage.filter((l) => new RegExp(`^${instruction}\\s`, 'i').test(l)).at(-1);
  return line === undefined ? undefined : JSON.parse(line.replace(new RegExp(`^${instruction}\\s+`, 'i'), ''));
}

describe('Dockerfile', () => {
  const stageName = (s: string[]) => /\sAS\s+(\S+)/i.exec(s[0]!)?.[1];

  it('builds on Node 24: a full `npm ci`, then `npm run build`, in a stage the runtime copies dist/ from', () => {
    expect(stages.length).toBeGreaterThanOrEqual(3);
    for (const s of stages) expect(s[0]).toMatch(/^FROM\s+\S*node(js)?:?24\S*/i);
    const build = stages.find((s) => s.some((l) => /^RUN npm run build$/.test(l)));
    expect(build).toBeDefined();
    const ci = build!.findIndex((l) => /^RUN npm ci\b/.test(l));
    expect(build![ci]).not.toMatch(/--omit=dev/);
    expect(ci).toBeLessThan(build!.indexOf('RUN npm run build'));
    // The build copies what `npm run build` reads: both tsconfigs and src/.
    expect(build).toEqual(expect.arrayContaining(['COPY tsconfig.json tsconfig.build.json ./', 'COPY src/ ./src/']));
    // BuildKit skips stages the final image does not use: the runtime must copy the compiled output from it.
    expect(runtime).toContain(`COPY --from=${stageName(build!)} /app/dist ./dist`);
    const tsconfig = JSON.parse(readFileSync(`${ROOT}/tsconfig.build.json`, 'utf8').replace(/^\s*\/\/.*$/gm, '')) as {
      compilerOptions: Record<string, unknown>;
    };
    expect(tsconfig.compilerOptions).toMatchObject({
      rootDir: 'src',
      outDir: 'dist',
      noEmit: false,
      noEmitOnError: true,
      rewriteRelativeImportExtensions: true,
    });
  });

  it('the runtime stage has no TypeScript: no src/, no tsx or esbuild among the production dependencies', () => {
    const prodDeps = stages.find((s) => s.some((l) => /^RUN npm ci --omit=dev --ignore-scripts\b/.test(l)));
    expect(prodDeps).toBeDefined();
    expect(runtime).toContain(`COPY --from=${stageName(prodDeps!)} /app/node_modules ./node_modules`);
    expect(runtime.filter((l) => /^COPY\s/i.test(l) && /\bsrc\b|\.ts\b|tsconfig/.test(l))).toEqual([]);
    expect(runtime.join('\n')).not.toMatch(/tsx|TSX_/i);
    const prod = productionPackages();
    for (const name of ['tsx', 'esbuild', '@esbuild/linux-x64', 'typescript', 'vitest'])
      expect(prod.has(name), `${name} is installed by npm ci --omit=dev`).toBe(false);
    for (const name of ['@kubernetes/client-node', '@slack/bolt', 'commander', 'yaml', 'zod'])
      expect(prod.has(name), `${name} is missing from the production install`).toBe(true);
    const pkg = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as {
      type: string;
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(pkg.type).toBe('module');
    expect(Object.keys(pkg.dependencies)).not.toContain('tsx');
    expect(Object.keys(pkg.devDependencies)).toContain('tsx');
  });

  it('runs as the numeric non-root user 65532, on port 3000, without HEALTHCHECK', () => {
    const user = runtime.filter((l) => /^USER\s/i.test(l)).at(-1);
    expect(user).toMatch(/^USER 65532(:65532)?$/);
    expect(runtime).toContain('EXPOSE 3000');
    expect(instructions.some((l) => /^HEALTHCHECK/i.test(l))).toBe(false);
  });

  it('ENTRYPOINT is the CLI and CMD is `serve`, so `docker run IMAGE check -f /manifests` runs check', () => {
    expect(execForm(runtime, 'ENTRYPOINT')).toEqual(['/nodejs/bin/node', '/app/bin/quota-doctor.js']);
    expect(execForm(runtime, 'CMD')).toEqual(['serve']);
    // The entrypoint's script is in the image, next to the package.json that makes dist/*.js ES modules.
    expect(runtime).toEqual(
      expect.arrayContaining([
        'WORKDIR /app',
        'COPY bin/quota-doctor.js ./bin/',
        expect.stringMatching(/^COPY --from=\S+ \/app\/package\.json \.\/$/),
      ]),
    );
  });

  it('sets NODE_ENV=production (nothing written outside /tmp: compiled JavaScript has no transform cache)', () => {
    const env = runtime.filter((l) => /^ENV\s/i.test(l)).join(' ');
    expect(env).toMatch(/\bNODE_ENV=production\b/);
    expect(env).toMatch(/\bPORT=3000\b/);
  });

  it('copies package*.json, the tsconfigs, src/, the bin and manifests/demo/, and the build context keeps exactly those', () => {
    const fromContext = instructions
      .filter((l) => /^COPY\s/i.test(l) && !/--from=/i.test(l))
      .flatMap((l) =>
        l
          .split(/\s+/)
          .slice(1, -1)
          .filter((a) => !a.startsWith('--')),
      )
      .map((p) => p.replace(/^\.\//, '').replace(/\/$/, ''));
    expect(new Set(fromContext)).toEqual(
      new Set([
        'package.json',
        'package-lock.json',
        'tsconfig.json',
        'tsconfig.build.json',
        'bin/quota-doctor.js',
        'src',
        'manifests/demo',
      ]),
    );
    for (const p of fromContext) expect(sentToBuild(p), `${p} is excluded by .dockerignore`).toBe(true);
    for (const p of [
      'node_modules',
      'dist',
      'dist/cli/program.js',
      '.git',
      'test',
      'bench',
      'bin/action.js',
      'action.yml',
      'examples',
      'coverage',
      '.ci',
      'README.md',
      'manifests/base',
      'manifests/rbac.yaml',
      'src/.env',
      '.env',
    ]) {
      expect(sentToBuild(p), `${p} is sent to the build`).toBe(false);
    }
  });

  it('has the demo state it copies (a missing COPY source fails the image build)', () => {
    expect(existsSync(`${ROOT}/manifests/demo`)).toBe(true);
    expect(readdirSync(`${ROOT}/manifests/demo`).some((f) => /\.(ya?ml|json)$/.test(f))).toBe(true);
  });
});
