import assert from 'node:assert/strict';
import { DEFAULT_DRAIN_SECONDS, DEFAULT_EDGE, opsConfigFromEnv } from '../../server/base/config';

describe('ops: configuration from the environment', () => {
  it('defaults to one process: no Redis, no advertised address, monitor off, info logs', () => {
    assert.deepEqual(opsConfigFromEnv(2567, {}), {
      redisUrl: null,
      publicAddress: null,
      drainSeconds: DEFAULT_DRAIN_SECONDS,
      monitor: null,
      logLevel: 'info',
      edge: DEFAULT_EDGE,
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
      [{ CREATES_PER_MINUTE: '-1' }, /CREATES_PER_MINUTE/],
      [{ JOINS_PER_MINUTE: '2.5' }, /JOINS_PER_MINUTE/],
      [{ MATCHMAKE_MAX_BODY_BYTES: '100000000' }, /MATCHMAKE_MAX_BODY_BYTES/],
      [{ MAX_CONNECTIONS: '0' }, /MAX_CONNECTIONS/],
      [{ HEADERS_TIMEOUT_SECONDS: 'soon' }, /HEADERS_TIMEOUT_SECONDS/],
      [{ TRUSTED_PROXY: 'nginx.local' }, /TRUSTED_PROXY/],
      [{ OPS_PORT: '2567' }, /OPS_PORT must differ/],
      [{ OPS_PORT: '70000' }, /OPS_PORT/],
      [{ OPS_HOST: 'everywhere' }, /OPS_HOST/],
      [{ OPS_ON_PUBLIC_PORT: 'yes' }, /OPS_ON_PUBLIC_PORT/],
      [{ RATE_LIMITS: 'none' }, /RATE_LIMITS/],
      [{ GUEST_RENEWALS_PER_ADDRESS_PER_HOUR: 'lots' }, /GUEST_RENEWALS_PER_ADDRESS_PER_HOUR/],
      [{ ALLOWED_ORIGINS: '*' }, /ALLOWED_ORIGINS: "\*" is not an exact origin/],
      [{ ALLOWED_ORIGINS: 'https://app.example.com/' }, /ALLOWED_ORIGINS: "https:\/\/app.example.com\/" is not an exact origin/],
      [{ ALLOWED_ORIGINS: 'https://app.example.com, app.example.com' }, /"app.example.com" is not an exact origin/],
      [{ ALLOWED_ORIGINS: 'https://App.example.com' }, /in lower case/],
      [{ ALLOWED_ORIGINS: 'https://app.example.com/play' }, /without a path/],
      [{ ALLOWED_ORIGINS: 'ftp://files.example.com' }, /ALLOWED_ORIGINS/],
      [{ ALLOWED_ORIGINS: 'null' }, /ALLOWED_ORIGINS/],
      [{ ALLOWED_ORIGINS: ' , ' }, /ALLOWED_ORIGINS is a comma-separated list/],
    ];
    for (const [env, message] of bad) assert.throws(() => opsConfigFromEnv(2567, env), message, JSON.stringify(env));
    assert.throws(() => opsConfigFromEnv(0, { REDIS_URL: 'redis://r:6379' }), /PUBLIC_ADDRESS or a fixed PORT/);
  });

  it('reads the drain time, the monitor credentials and the log level', () => {
    const ops = opsConfigFromEnv(2567, {
      DRAIN_SECONDS: '0',
      MONITOR_USER: 'ops',
      MONITOR_PASSWORD: ' spaces kept: ok ',
      LOG_LEVEL: 'debug',
    });
    assert.equal(ops.drainSeconds, 0);
    assert.deepEqual(ops.monitor, { user: 'ops', password: ' spaces kept: ok ' });
    assert.equal(ops.logLevel, 'debug');
  });

  it('reads the edge limits, the trusted proxies and the ops listener; RATE_LIMITS=off turns the per-address limits off', () => {
    const edge = opsConfigFromEnv(2567, {
      CREATES_PER_MINUTE: '4',
      JOINS_PER_MINUTE: '9',
      LOBBIES_PER_ADDRESS: '2',
      MATCHMAKE_MAX_BODY_BYTES: '1024',
      MAX_CONNECTIONS: '500',
      HEADERS_TIMEOUT_SECONDS: '5',
      REQUEST_TIMEOUT_SECONDS: '8',
      IDLE_TIMEOUT_SECONDS: '20',
      KEEP_ALIVE_TIMEOUT_SECONDS: '3',
      SEAT_RESERVATION_SECONDS: '4',
      TRUSTED_PROXY: '127.0.0.1, ::1',
      OPS_PORT: '9100',
      OPS_HOST: '0.0.0.0',
      PENDING_SEATS_PER_ADDRESS: '2',
      CONNECTIONS_PER_ADDRESS: '20',
      IDLE_LOBBY_SECONDS: '600',
    }).edge;
    assert.deepEqual(
      { ...edge },
      {
        ...DEFAULT_EDGE,
        createsPerMinute: 4,
        joinsPerMinute: 9,
        lobbiesPerAddress: 2,
        maxBodyBytes: 1024,
        maxConnections: 500,
        headersTimeoutMs: 5000,
        requestTimeoutMs: 8000,
        idleTimeoutMs: 20000,
        keepAliveTimeoutMs: 3000,
        seatReservationSeconds: 4,
        trustedProxies: ['127.0.0.1', '::1'],
        opsPort: 9100,
        opsHost: '0.0.0.0',
        pendingSeatsPerAddress: 2,
        connectionsPerAddress: 20,
        idleLobbySeconds: 600,
      },
    );
    const off = opsConfigFromEnv(2567, { RATE_LIMITS: 'off', CREATES_PER_MINUTE: '4' }).edge;
    assert.deepEqual(
      [off.createsPerMinute, off.joinsPerMinute, off.lobbiesPerAddress, off.pendingSeatsPerAddress, off.connectionsPerAddress],
      [0, 0, 0, 0, 0],
    );
    assert.equal(off.maxBodyBytes, DEFAULT_EDGE.maxBodyBytes, 'the body limit stays');
    assert.equal(opsConfigFromEnv(2567, { OPS_ON_PUBLIC_PORT: '1' }).edge.opsOnPublicPort, true);
  });

  it("reads ALLOWED_ORIGINS as exact origins; unset, only the server's own origin (null)", () => {
    assert.equal(DEFAULT_EDGE.allowedOrigins, null);
    assert.deepEqual(opsConfigFromEnv(2567, { ALLOWED_ORIGINS: 'https://app.example.com, http://localhost:8081' }).edge.allowedOrigins, [
      'https://app.example.com',
      'http://localhost:8081',
    ]);
    assert.equal(opsConfigFromEnv(2567, { GUEST_RENEWALS_PER_ADDRESS_PER_HOUR: '50' }).edge.guestRenewalsPerAddressPerHour, 50);
    assert.equal(opsConfigFromEnv(2567, { RATE_LIMITS: 'off' }).edge.guestRenewalsPerAddressPerHour, 0);
  });
});
