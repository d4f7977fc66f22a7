import assert from 'node:assert/strict';
import { parseEndpoint } from '../../client-sdk/endpoint';

describe('SDK endpoint: parsed without the platform URL (React Native)', () => {
  it('reads scheme, host, port and path the way colyseus.js would have', () => {
    assert.deepEqual(parseEndpoint('wss://game.example.com'), { hostname: 'game.example.com', port: 443, secure: true, pathname: '' });
    assert.deepEqual(parseEndpoint('ws://127.0.0.1:2567'), { hostname: '127.0.0.1', port: 2567, secure: false, pathname: '' });
    assert.deepEqual(parseEndpoint('https://Game.Example.com:8443/cockroach/'), {
      hostname: 'game.example.com',
      port: 8443,
      secure: true,
      pathname: '/cockroach',
    });
    assert.deepEqual(parseEndpoint(' http://[::1]:2567/ '), { hostname: '[::1]', port: 2567, secure: false, pathname: '' });
    assert.deepEqual(parseEndpoint({ hostname: 'game.example.com', secure: true }), {
      hostname: 'game.example.com',
      port: 443,
      secure: true,
      pathname: '',
    });
  });

  it('refuses what is not a server address at once (a config typo is not "no network")', () => {
    for (const bad of ['game.example.com', 'ftp://x', 'ws://', 'ws://host:99999', 'ws://host:port', 'ws://a b', 'wss://host/path?x=1', ''])
      assert.throws(() => parseEndpoint(bad), TypeError, bad);
  });
});
