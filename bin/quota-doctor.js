#!/usr/bin/env node
// Entry point for `npx quota-doctor` and `kubectl quota-doctor`.
//
// - The published package and the image ship dist/ (compiled by `npm run build`, run by `prepack` and by
//   the Dockerfile's build stage): plain JavaScript, no TypeScript compiler at run time.
// - A checkout straight after `npm ci` has no dist/: the TypeScript sources run through tsx, a
//   devDependency — so this fallback works in a development checkout only, not in a production install.
// - A checkout with a dist/ older than its sources (edited since the last build) also runs the sources,
//   so a stale build never answers for code that changed.
import { existsSync, readdirSync, statSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const compiled = new URL('dist/cli/program.js', root);

/** Newest modification time under a folder (ms), 0 if it is absent. */
function newest(dir) {
  let t = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = new URL(e.name + (e.isDirectory() ? '/' : ''), dir);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

function useCompiled() {
  if (!existsSync(compiled)) return false;
  const src = new URL('src/', root);
  return !existsSync(src) || newest(src) <= statSync(compiled).mtimeMs;
}

let main;
if (useCompiled()) ({ main } = await import(compiled.href));
else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ main } = await import(new URL('src/cli/program.ts', root).href));
}
process.exitCode = await main(process.argv.slice(2));
