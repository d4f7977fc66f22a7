import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import {
  assertWrittenForVersions,
  installedVersion,
  LibraryVersionError,
  VersionReader,
  versionMismatches,
  WRITTEN_FOR,
} from '../../server/colyseus/versions';

const ROOT = path.resolve(__dirname, '../..');

/** The installed versions, except those in `changes` (null: not installed). */
const readerWith =
  (changes: Record<string, string | null>): VersionReader =>
  (name, under) =>
    Object.prototype.hasOwnProperty.call(changes, name) ? changes[name] : installedVersion(name, under);

describe('colyseus: the versions server/colyseus/ was written for', () => {
  it('are the installed ones, the ws copy under @colyseus/ws-transport included', () => {
    assert.deepEqual(versionMismatches(), []);
    assert.equal(installedVersion('ws', '@colyseus/ws-transport'), WRITTEN_FOR.find((e) => e.name === 'ws')!.version);
    assert.doesNotThrow(() => assertWrittenForVersions());
  });

  it('another version refuses, naming the package, the installed and the expected version', () => {
    assert.throws(
      () => assertWrittenForVersions(readerWith({ '@colyseus/schema': '2.0.38' })),
      (error: unknown) =>
        error instanceof LibraryVersionError &&
        error.mismatches.length === 1 &&
        error.message.includes('@colyseus/schema: installed 2.0.38, expected 2.0.37'),
    );
    assert.deepEqual(versionMismatches(readerWith({ ws: '8.18.0' })), [
      'ws (the copy under @colyseus/ws-transport): installed 8.18.0, expected 8.23.0',
    ]);
  });

  it('a missing package refuses; a missing development one (colyseus.js) does not, another version of it does', () => {
    assert.deepEqual(versionMismatches(readerWith({ '@colyseus/redis-driver': null })), [
      '@colyseus/redis-driver: installed nothing, expected 0.15.6',
    ]);
    assert.deepEqual(versionMismatches(readerWith({ 'colyseus.js': null })), []);
    assert.deepEqual(versionMismatches(readerWith({ 'colyseus.js': '0.16.0' })), ['colyseus.js: installed 0.16.0, expected 0.15.28']);
  });

  it('the server (server/index.ts) refuses to start when colyseus reads as another version', async function () {
    this.timeout(30000);
    const preload = path.join(__dirname, 'fixtures', 'fakeColyseusVersion.cjs');
    const child = spawn(process.execPath, ['--require', preload, '--import', 'tsx', path.join('server', 'index.ts')], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', RECORDS: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 1, output);
    assert.match(output, /refusing to start/);
    assert.match(output, /colyseus: installed 0\.15\.99, expected 0\.15\.57/);
    assert.doesNotMatch(output, /"listening"/);
  });
});
