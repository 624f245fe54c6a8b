/**
 * Question-grammar benchmark (issue 13: bounded work per message): `parseQuestion` over 40,000-character
 * inputs (Slack's message limit) of the fuzz test's shapes (test/parse/question-shapes.ts), as the bot
 * reads them (the first MAX_QUESTION_CHARS characters) and whole (the cap lifted: the grammar alone is
 * linear). Each input is parsed `RUNS` times after `warmups` untimed runs; figures are the median and the
 * maximum over the runs, and the worst shape of each.
 *
 *   node --import tsx bench/question.ts          prints a table (the 8 slowest shapes, whole)
 *   node --import tsx bench/question.ts --json   prints the summary as JSON
 *
 * `runQuestionBench()` is what `npm run bench` calls.
 */
import { fileURLToPath } from 'node:url';
import { parseQuestion } from '../src/parse/question.ts';
import { adversarialShapes, randomQuestions } from '../test/parse/question-shapes.ts';

export interface QuestionBenchRow {
  shape: string;
  /** As the bot parses it (first MAX_QUESTION_CHARS characters). */
  cappedMedianMs: number;
  cappedMaxMs: number;
  /** The whole 40,000 characters. */
  wholeMedianMs: number;
  wholeMaxMs: number;
}

const RUNS = 5;
const r2 = (x: number) => Math.round(x * 100) / 100;

function times(text: string, maxChars: number | undefined, warmups: number): number[] {
  const opts = maxChars === undefined ? {} : { maxChars };
  for (let i = 0; i < warmups; i++) parseQuestion(text, opts);
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    parseQuestion(text, opts);
    out.push(performance.now() - t);
  }
  return out.sort((a, b) => a - b);
}

/** Every shape (and 100 seeded random questions as one row, their worst), slowest whole first. */
export function runQuestionBench(warmups = 2): QuestionBenchRow[] {
  const rows: QuestionBenchRow[] = [];
  for (const [shape, text] of adversarialShapes()) {
    const c = times(text, undefined, warmups);
    const w = times(text, Infinity, warmups);
    rows.push({
      shape,
      cappedMedianMs: r2(c[RUNS >> 1]!),
      cappedMaxMs: r2(c[RUNS - 1]!),
      wholeMedianMs: r2(w[RUNS >> 1]!),
      wholeMaxMs: r2(w[RUNS - 1]!),
    });
  }
  const random = randomQuestions(42, 100).map((text) => ({
    c: times(text, undefined, 1),
    w: times(text, Infinity, 1),
  }));
  const worst = (xs: number[][], i: number) => r2(Math.max(...xs.map((x) => x[i]!)));
  rows.push({
    shape: '100 random questions (worst)',
    cappedMedianMs: worst(
      random.map((r) => r.c),
      RUNS >> 1,
    ),
    cappedMaxMs: worst(
      random.map((r) => r.c),
      RUNS - 1,
    ),
    wholeMedianMs: worst(
      random.map((r) => r.w),
      RUNS >> 1,
    ),
    wholeMaxMs: worst(
      random.map((r) => r.w),
      RUNS - 1,
    ),
  });
  return rows.sort((a, b) => b.wholeMedianMs - a.wholeMedianMs);
}

/** The table `npm run bench` prints: the worst of every column, then the slowest shapes. */
export function questionBenchTable(rows: QuestionBenchRow[], top = 8): string {
  const max = (k: keyof Omit<QuestionBenchRow, 'shape'>) => Math.max(...rows.map((r) => r[k]));
  const w = Math.max(...rows.slice(0, top).map((r) => r.shape.length));
  const lines = [
    `parseQuestion on 40,000-character inputs, ${rows.length} shapes, warm (ms, ${RUNS} runs each): worst median ${max('cappedMedianMs')} / max ${max('cappedMaxMs')} as the bot reads it; whole text worst median ${max('wholeMedianMs')} / max ${max('wholeMaxMs')}`,
    ...rows
      .slice(0, top)
      .map(
        (r) =>
          `  ${r.shape.padEnd(w)}  as read: median ${String(r.cappedMedianMs).padStart(6)}  max ${String(r.cappedMaxMs).padStart(6)}   whole: median ${String(r.wholeMedianMs).padStart(6)}  max ${String(r.wholeMaxMs).padStart(6)}`,
      ),
  ];
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = runQuestionBench();
  if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify(rows)}\n`);
  else process.stdout.write(questionBenchTable(rows));
}
