/**
 * The library versions this folder was written for. Everything in server/colyseus/ reaches past
 * a documented API (private fields, replaced methods, Redis key names, error texts, wire numbers)
 * and says what breaks if the library changes; most of those breaks are silent (a crash that comes
 * back, a dead process's rooms left listed, a leak of hidden cards). So the server refuses to
 * start on any other version (`assertWrittenForVersions`, first thing in startServer): upgrading
 * means reading each file of this folder against the new library, then changing the numbers here.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface Expected {
  /** The npm package. */
  name: string;
  version: string;
  /** The package whose copy of `name` is meant (its dependency), when not the top-level one. */
  under?: string;
  /** Not needed at run time (a development dependency): absent is fine, another version is not. */
  optional?: boolean;
}

export const WRITTEN_FOR: readonly Expected[] = [
  { name: 'colyseus', version: '0.15.57' },
  { name: '@colyseus/core', version: '0.15.57', under: 'colyseus' },
  { name: '@colyseus/schema', version: '2.0.37' },
  { name: '@colyseus/ws-transport', version: '0.15.3' },
  { name: '@colyseus/redis-presence', version: '0.15.6' },
  { name: '@colyseus/redis-driver', version: '0.15.6' },
  { name: '@colyseus/monitor', version: '0.15.8' },
  // The copy transport/coalesceWrites.ts and GuardedTransport.ts reach into (ws 8's Sender, _socket, _receiver).
  { name: 'ws', version: '8.23.0', under: '@colyseus/ws-transport' },
  // The SDK, the load tools and the tests; the server never loads it.
  { name: 'colyseus.js', version: '0.15.28', optional: true },
];

/** The installed version of `name` (the copy `under` would load), or null when it is not installed. */
export type VersionReader = (name: string, under?: string) => string | null;

/** Finds a package's package.json as Node's resolution would, without its `exports` (which may hide package.json). */
function packageJsonOf(name: string, from: NodeJS.Require): string | null {
  for (const dir of from.resolve.paths(name) ?? []) {
    const file = path.join(dir, name, 'package.json');
    if (existsSync(file)) return file;
  }
  return null;
}

export const installedVersion: VersionReader = (name, under) => {
  let from: NodeJS.Require = require;
  if (under !== undefined) {
    const parent = packageJsonOf(under, require);
    if (parent === null) return null;
    from = createRequire(parent);
  }
  const file = packageJsonOf(name, from);
  if (file === null) return null;
  const version = (JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown }).version;
  return typeof version === 'string' ? version : null;
};

/** One sentence per package that is not what this folder was written for (empty: all are). */
export function versionMismatches(read: VersionReader = installedVersion, expected: readonly Expected[] = WRITTEN_FOR): string[] {
  const found: string[] = [];
  for (const { name, version, under, optional } of expected) {
    const installed = read(name, under);
    if (installed === version || (installed === null && optional)) continue;
    const which = under === undefined ? name : `${name} (the copy under ${under})`;
    found.push(`${which}: installed ${installed ?? 'nothing'}, expected ${version}`);
  }
  return found;
}

export class LibraryVersionError extends Error {
  constructor(readonly mismatches: string[]) {
    super(
      `refusing to start: server/colyseus/ was written for other library versions: ${mismatches.join('; ')}. ` +
        'Install the expected versions (npm ci), or read server/colyseus/ against the installed ones and update versions.ts.',
    );
    this.name = 'LibraryVersionError';
  }
}

/** Throws LibraryVersionError naming each package, its installed and its expected version, unless all match. */
export function assertWrittenForVersions(read: VersionReader = installedVersion): void {
  const mismatches = versionMismatches(read);
  if (mismatches.length > 0) throw new LibraryVersionError(mismatches);
}
