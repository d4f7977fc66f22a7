import assert from 'node:assert/strict';
import { DEFAULT_DRAIN_SECONDS, opsConfigFromEnv } from '../../server/ops/config';

describe('ops: configuration from the environment', () => {
  it('defaults to one process: no Redis, no advertised address, monitor off, info logs', () => {
    assert.deepEqual(opsConfigFromEnv(2567, {}), {
      redisUrl: null,
      publicAddress: null,
      drainSeconds: DEFAULT_DRAIN_SECONDS,
      monitor: null,
      logLevel: 'info',
      warnings: [],
    });
  });

  it('with REDIS_URL, advertises PUBLIC_ADDRESS, or 127.0.0.1:PORT with a warning', () => {
    const set = opsConfigFromEnv(3001, { REDIS_URL: 'redis://10.0.0.5:6379/2', PUBLIC_ADDRESS: 'game-1.example.com' });
    assert.equal(set.redisUrl, 'redis://10.0.0.5:6379/2');
    assert.equal(set.publicAddress, 'game-1.example.com');
    assert.deepEqual(set.warnings, []);
    const dflt = opsConfigFromEnv(3001, { REDIS_URL: 'rediss://user:pw@redis:6380' });
    assert.equal(dflt.publicAddress, '127.0.0.1:3001');
    assert.match(dflt.warnings[0], /only clients on this machine/);
    for (const ok of ['10.0.0.7:2567', 'play.example.com/p3', '[::1]:2567', 'host:443/a/b-c']) {
      assert.equal(opsConfigFromEnv(1, { PUBLIC_ADDRESS: ok }).publicAddress, ok);
    }
  });

  it('refuses settings that cannot work, naming the variable', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ REDIS_URL: 'localhost:6379' }, /REDIS_URL/],
      [{ PUBLIC_ADDRESS: 'wss://game.example.com' }, /without a scheme/],
      [{ PUBLIC_ADDRESS: 'game.example.com/' }, /PUBLIC_ADDRESS/],
      [{ PUBLIC_ADDRESS: 'a b' }, /PUBLIC_ADDRESS/],
      [{ DRAIN_SECONDS: '-1' }, /DRAIN_SECONDS/],
      [{ DRAIN_SECONDS: '1.5' }, /DRAIN_SECONDS/],
      [{ MONITOR_USER: 'ops' }, /both MONITOR_USER and MONITOR_PASSWORD/],
      [{ MONITOR_PASSWORD: 'long enough secret' }, /both/],
      [{ MONITOR_USER: 'ops', MONITOR_PASSWORD: 'short' }, /at least 12/],
      [{ MONITOR_USER: 'o:ps', MONITOR_PASSWORD: 'long enough secret' }, /MONITOR_USER/],
      [{ LOG_LEVEL: 'verbose' }, /LOG_LEVEL/],
    ];
    for (const [env, message] of bad) assert.throws(() => opsConfigFromEnv(2567, env), message, JSON.stringify(env));
    assert.throws(() => opsConfigFromEnv(0, { REDIS_URL: 'redis://r:6379' }), /PUBLIC_ADDRESS or a fixed PORT/);
  });

  it('reads the drain time, the monitor credentials and the log level', () => {
    const ops = opsConfigFromEnv(2567, { DRAIN_SECONDS: '0', MONITOR_USER: 'ops', MONITOR_PASSWORD: ' spaces kept: ok ', LOG_LEVEL: 'debug' });
    assert.equal(ops.drainSeconds, 0);
    assert.deepEqual(ops.monitor, { user: 'ops', password: ' spaces kept: ok ' });
    assert.equal(ops.logLevel, 'debug');
  });
});
