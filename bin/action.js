#!/usr/bin/env node
// Entry point of the GitHub Action (action.yml): `node bin/action.js` in the workspace, inputs in
// INPUT_* variables. Runs dist/action.js (action.yml builds it) when present and not older than src/,
// else src/action.ts through tsx (a checkout with dev dependencies) — the same choice as bin/quota-doctor.js.
import { existsSync, readdirSync, statSync } from 'node:fs';

const root = new URL('../', import.meta.url);
const compiled = new URL('dist/action.js', root);

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = new URL(e.name + (e.isDirectory() ? '/' : ''), dir);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const src = new URL('src/', root);
let runAction;
if (existsSync(compiled) && (!existsSync(src) || newest(src) <= statSync(compiled).mtimeMs))
  ({ runAction } = await import(compiled.href));
else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ runAction } = await import(new URL('src/action.ts', root).href));
}
process.exitCode = await runAction(process.env, process.cwd(), { stdout: (s) => void process.stdout.write(s) });
