#!/usr/bin/env node
// `coffer` command: runs the TypeScript CLI through tsx, so it works right after `npm ci`.
import { register } from 'tsx/esm/api';

register();
await import('../cli.ts');
