#!/usr/bin/env node
/**
 * `npm start`: the compiled server (build/index.js) in this very process, with plain node: no
 * TypeScript loader at run time, and signals (SIGTERM's drain) reach the server itself. Builds
 * first when build/ is missing or stale (scripts/build.js), so `npm ci && npm start` works on a
 * fresh clone. Production can also build once (`npm run build`) and run `node build/index.js`.
 */
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS for plain node, run before anything is compiled */
const path = require('node:path');
const { ensureBuilt, OUT } = require('./build');

try {
  ensureBuilt();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
require(path.join(OUT, 'index.js'));
