/**
 * Invariance of the paste parser under what people add around a message (test/parse/surround-transforms.ts):
 * per transformation, how many labelled pastes that read right still read right once transformed.
 *
 *   node --import tsx bench/surround.ts [--show NAME]
 */
import { holds, subjects, TRANSFORMS } from '../test/parse/surround-transforms.ts';

const show = process.argv.indexOf('--show');
const showName = show >= 0 ? process.argv[show + 1] : undefined;
const subs = subjects();
const t0 = performance.now();
let all = 0;
let allOk = 0;
for (const t of TRANSFORMS) {
  let n = 0;
  let ok = 0;
  let negN = 0;
  let negOk = 0;
  const misses: string[] = [];
  for (const s of subs) {
    const h = holds(s, t);
    if (h === undefined) continue;
    const neg = s.item.expect.length === 0;
    if (neg) {
      negN++;
      if (h) negOk++;
    } else {
      n++;
      if (h) ok++;
    }
    if (!h) misses.push(s.id);
  }
  all += n + negN;
  allOk += ok + negOk;
  const pct = (a: number, b: number) => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`);
  process.stdout.write(
    `${t.name.padEnd(30)} positives ${ok}/${n} (${pct(ok, n)})  negatives ${negOk}/${negN} (${pct(negOk, negN)})\n`,
  );
  if (t.name === showName) process.stdout.write(`  misses: ${misses.join(' ')}\n`);
}
process.stdout.write(`all ${allOk}/${all}; ${subs.length} subjects, ${(performance.now() - t0).toFixed(0)} ms\n`);
