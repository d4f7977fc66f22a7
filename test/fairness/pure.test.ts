import assert from 'node:assert/strict';
import { build } from 'esbuild';

describe('fairness: the checker is pure (runs in a browser or React Native)', () => {
  it('bundles for a neutral platform with no node: module, no clock and no Math.random', async function () {
    this.timeout(20000);
    const out = await build({
      entryPoints: ['server/fairness/index.ts'],
      bundle: true,
      platform: 'neutral',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    const code = out.outputFiles[0].text;
    assert.ok(code.includes('verifyRecord') && code.includes('deriveSeed'));
    for (const banned of ['require(', 'node:', 'process.', 'Math.random', 'Date.now', 'new Date()']) {
      assert.ok(!code.includes(banned), `the bundle uses ${banned}`);
    }
  });
});
