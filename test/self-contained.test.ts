/**
 * The repository is self-contained: nothing in it reads or names a folder beside the checkout, every
 * document it names is in it, and the conformance cases load — and pass — from a clone with nothing beside
 * it, whatever the working directory.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CASES_DIR,
  PUBLIC_CASES,
  UPSTREAM_ADMISSION_CASES,
  UPSTREAM_SCHEDULER_CASES,
  UPSTREAM_ADMISSION_CHAIN_CASES,
  UPSTREAM_VOLUMES_DRA_CASES,
  publicCaseFiles,
  readCases,
  type Case,
} from './support/cases.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'coverage']);

/** The repository's files: `git ls-files` in a checkout, else every file outside the ignored folders. */
function repoFiles(): string[] {
  const git = spawnSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' });
  if (git.status === 0 && git.stdout.length > 0) {
    return git.stdout.split('\0').filter((f) => f && existsSync(join(ROOT, f)));
  }
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
      const path = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) return SKIP_DIRS.has(e.name) ? [] : walk(path);
      return e.isFile() ? [path] : [];
    });
  return walk('');
}

/** Text files only (a NUL byte marks a binary). */
const TEXTS: { file: string; lines: string[] }[] = repoFiles()
  .map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }))
  .filter((f) => !f.text.includes('\0'))
  .map((f) => ({ file: f.file, lines: f.text.split('\n') }));

/** Names of what lived beside the repository; spelled in pieces so this file does not name them itself. */
const OUTSIDE = [
  ['..', 'shared'].join('/'),
  ['shared', 'docs', ''].join('/'),
  ['shared', 'cases'].join('/'),
  ['CONTRACT', 'md'].join('.'),
  ['DESIGN', 'md'].join('.'),
  ['k8s', 'semantics'].join('-'),
];

function matches(re: RegExp): { where: string; match: RegExpExecArray }[] {
  const out: { where: string; match: RegExpExecArray }[] = [];
  for (const { file, lines } of TEXTS) {
    lines.forEach((line, i) => {
      for (const m of line.matchAll(new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`))) {
        out.push({ where: `${file}:${i + 1}`, match: m as RegExpExecArray });
      }
    });
  }
  return out;
}

describe('nothing outside the repository', () => {
  it('reads the repository files', () => {
    const files = TEXTS.map((t) => t.file);
    const docs = ['architecture', 'contract', 'kubernetes-semantics', 'replies'].map((d) => `docs/${d}.md`);
    for (const f of ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', ...docs]) expect(files).toContain(f);
  });

  it.each(OUTSIDE.map((n) => [n]))('no file names %s', (needle) => {
    const hits = TEXTS.flatMap(({ file, lines }) =>
      lines.flatMap((l, i) => (l.includes(needle) ? [`${file}:${i + 1}`] : [])),
    );
    expect(hits).toEqual([]);
  });

  it('every docs/… document a file names exists', () => {
    // Pasted fixtures are other people's text (their URLs name their own docs/ folders).
    const missing = matches(/(?<![\w./-])docs\/(?:decisions\/)?[\w.-]+\.md\b/)
      .filter(({ where }) => !where.startsWith('test/fixtures/'))
      .filter(({ match }) => !existsSync(join(ROOT, match[0])))
      .map(({ where, match }) => `${where}: ${match[0]}`);
    expect(missing).toEqual([]);
  });

  it('every relative link of a Markdown file resolves', () => {
    const broken: string[] = [];
    for (const { file, lines } of TEXTS.filter((t) => t.file.endsWith('.md'))) {
      lines.forEach((line, i) => {
        for (const m of line.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
          const target = m[1]!;
          if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
          if (!existsSync(resolve(ROOT, dirname(file), target))) broken.push(`${file}:${i + 1}: ${target}`);
        }
      });
    }
    expect(broken).toEqual([]);
  });

  it('every §N.M cited next to docs/kubernetes-semantics.md is a section of it', () => {
    const doc = readFileSync(join(ROOT, 'docs/kubernetes-semantics.md'), 'utf8');
    const sections = new Set([...doc.matchAll(/^#{2,3} (\d+(?:\.\d+)?)[. ]/gm)].map((m) => m[1]!));
    expect(sections.size).toBeGreaterThan(40);
    // §8.4 is item 4 of §8 when §8 has no subsections.
    const exists = (ref: string): boolean => {
      if (sections.has(ref)) return true;
      const top = ref.split('.')[0]!;
      return ref.includes('.') && sections.has(top) && ![...sections].some((s) => s.startsWith(`${top}.`));
    };
    const unknown = TEXTS.flatMap(({ file, lines }) =>
      lines.flatMap((l, i) =>
        l.includes('kubernetes-semantics')
          ? [...l.matchAll(/§(\d+(?:\.\d+)?)/g)].filter((m) => !exists(m[1]!)).map((m) => `${file}:${i + 1}: §${m[1]}`)
          : [],
      ),
    );
    expect(unknown).toEqual([]);
  });
});

/** Cases per layer in the repository's own files (a case added or lost changes these on purpose). */
const EXPECTED_COUNTS: Record<string, Record<string, number>> = {
  [PUBLIC_CASES]: { 'api-defaulting': 5, limitrange: 25, quota: 36, scheduler: 20 },
  [UPSTREAM_ADMISSION_CASES]: { limitrange: 37, quota: 29 },
  [UPSTREAM_SCHEDULER_CASES]: { scheduler: 125 },
  [UPSTREAM_ADMISSION_CHAIN_CASES]: { 'api-defaulting': 41, limitrange: 1, quota: 10, scheduler: 2 },
  [UPSTREAM_VOLUMES_DRA_CASES]: { scheduler: 28 },
};
const fromRoot = (f: string): string => relative(ROOT, f).split(sep).join('/');

function countByLayer(cases: { layer: string }[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of cases) out[c.layer] = (out[c.layer] ?? 0) + 1;
  return out;
}

describe('the case loaders read only the repository', () => {
  it('resolves every case file inside test/fixtures/cases/', () => {
    expect(fromRoot(CASES_DIR)).toBe('test/fixtures/cases');
    expect(publicCaseFiles(undefined)).toEqual([PUBLIC_CASES]);
    expect(readdirSync(CASES_DIR).sort()).toEqual([
      'README.md',
      'k8s-cases.jsonl',
      'upstream-admission-chain.jsonl',
      'upstream-admission.jsonl',
      'upstream-scheduler.jsonl',
      'upstream-volumes-dra.jsonl',
    ]);
  });

  const rows = Object.entries(EXPECTED_COUNTS).map(([f, counts]) => [fromRoot(f), counts] as const);
  it.each(rows)('%s has the cases it should', (file, counts) => {
    const cases = readCases<Case>(join(ROOT, file));
    expect(countByLayer(cases)).toEqual(counts);
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
  });

  it('QUOTA_DOCTOR_CASES replaces the public sample: a file, or a folder of .jsonl files in name order', () => {
    const dir = mkdtempSync(join(tmpdir(), 'qd-cases-'));
    try {
      writeFileSync(join(dir, 'b.jsonl'), '{"id":"B","layer":"quota"}\n');
      writeFileSync(join(dir, 'a.jsonl'), '{"id":"A","layer":"quota"}\n\n');
      writeFileSync(join(dir, 'notes.md'), 'not cases');
      expect(publicCaseFiles(dir)).toEqual([join(dir, 'a.jsonl'), join(dir, 'b.jsonl')]);
      expect(publicCaseFiles(join(dir, 'b.jsonl'))).toEqual([join(dir, 'b.jsonl')]);
      expect(readCases(join(dir, 'a.jsonl'))).toEqual([{ id: 'A', layer: 'quota' }]);
      expect(() => readCases(join(dir, 'missing.jsonl'))).toThrow(/ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A child's environment: no QUOTA_DOCTOR_CASES, no VITEST_* of this run. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir() };
  if (process.env.TMPDIR) env.TMPDIR = process.env.TMPDIR;
  return env;
}

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

describe('from anywhere', () => {
  it('loads the cases in a process whose working directory is outside the repository', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'qd-cwd-'));
    temps.push(cwd);
    const probe = join(cwd, 'probe.mjs');
    writeFileSync(
      probe,
      [
        'const m = await import(process.argv[2]);',
        'const layers = (cs) => cs.reduce((o, c) => ({ ...o, [c.layer]: (o[c.layer] ?? 0) + 1 }), {});',
        'process.stdout.write(JSON.stringify({ files: m.publicCaseFiles(), public: layers(m.loadCases()),',
        '  admission: layers(m.readCases(m.UPSTREAM_ADMISSION_CASES)),',
        '  scheduler: layers(m.readCases(m.UPSTREAM_SCHEDULER_CASES)) }));',
      ].join('\n'),
    );
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const loader = pathToFileURL(join(ROOT, 'test/support/cases.ts')).href;
    const out = execFileSync(process.execPath, ['--import', tsx, probe, loader], {
      cwd,
      env: cleanEnv(),
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toEqual({
      files: [PUBLIC_CASES],
      public: EXPECTED_COUNTS[PUBLIC_CASES],
      admission: EXPECTED_COUNTS[UPSTREAM_ADMISSION_CASES],
      scheduler: EXPECTED_COUNTS[UPSTREAM_SCHEDULER_CASES],
    });
  });

  const inGit =
    spawnSync('git', ['rev-parse', '--is-inside-work-tree'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim() === 'true';

  // The clone is of the committed tree (HEAD): it proves what a fresh checkout gets, not uncommitted edits.
  it.skipIf(!inGit)(
    'a clone with nothing beside it passes its conformance tests',
    () => {
      const parent = mkdtempSync(join(tmpdir(), 'qd-clone-'));
      temps.push(parent);
      const clone = join(parent, 'quota-doctor');
      execFileSync('git', ['clone', '--quiet', ROOT, clone], { env: cleanEnv() });
      symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
      expect(readdirSync(parent)).toEqual(['quota-doctor']);

      const files = ['test/engine/admission-cases.test.ts', 'test/engine/scheduler/cases.test.ts'];
      const vitest = join(clone, 'node_modules/vitest/vitest.mjs');
      const run = spawnSync(process.execPath, [vitest, 'run', ...files], {
        cwd: clone,
        env: cleanEnv(),
        encoding: 'utf8',
      });
      expect(run.status, run.stdout + run.stderr).toBe(0);

      // Every case of the clone's own files ran: one test per case, plus one "loads" test per describe.
      const own = (f: string) => readCases<Case>(join(clone, relative(ROOT, f)));
      const all = [
        ...own(PUBLIC_CASES),
        ...own(UPSTREAM_ADMISSION_CASES),
        ...own(UPSTREAM_SCHEDULER_CASES),
        ...own(UPSTREAM_ADMISSION_CHAIN_CASES),
        ...own(UPSTREAM_VOLUMES_DRA_CASES),
      ];
      const admission = all.filter((c) => c.layer !== 'scheduler').length;
      const scheduler = all.filter((c) => c.layer === 'scheduler').length;
      // …and every scheduler case of the public and upstream-scheduler files is also checked to be a pod
      // the API server admits (test/engine/admission-cases.test.ts).
      const admissible = [...own(PUBLIC_CASES), ...own(UPSTREAM_SCHEDULER_CASES)].filter(
        (c) => c.layer === 'scheduler' && c.input.object,
      ).length;
      expect(statSync(join(clone, '.vitest-summary')).isFile()).toBe(true);
      const summary = readFileSync(join(clone, '.vitest-summary'), 'utf8').trim().split('\n').at(-1);
      expect(summary).toBe(`${admission + scheduler + admissible + 4} passed, 0 failed`);
    },
    120_000,
  );
});
