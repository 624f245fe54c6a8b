#!/usr/bin/env node
// Entry point for `npx quota-doctor` and `kubectl quota-doctor`: runs the TypeScript sources through tsx,
// so a fresh `npm ci` needs no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/program.ts');
process.exitCode = await main(process.argv.slice(2));
