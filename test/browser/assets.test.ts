/**
 * /play's files over HTTP (no browser; part of `npm test`): compressed once and chosen by
 * Accept-Encoding with `Vary`, revalidated by ETag, no source map unless asked for, and nothing
 * outside the page's own files.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import zlib from 'node:zlib';
import { buildPlay, pickEncoding, sourceMapWanted, warmPlay } from '../../server/http/play';
import { useTestServer } from '../support/server';

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A raw GET (no client that adds or undoes an encoding on its own). */
function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('/play assets over HTTP', function () {
  this.timeout(60000);
  const ts = useTestServer();
  const port = () => ts.server.port;

  it('serves the page with a content security policy, and nothing outside its own files (a JSON 404)', async () => {
    const page = await get(port(), '/play/');
    assert.equal(page.status, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(String(page.headers['content-security-policy']), /default-src 'self'/);
    assert.match(page.body.toString(), /lang="ko"/);
    const art = await get(port(), '/play/art/animals/rat.svg');
    assert.equal(art.status, 200);
    assert.match(String(art.headers['content-type']), /^image\/svg\+xml/);
    for (const bad of [
      '/play/../package.json',
      '/play/art/../../package.json',
      '/play/art/bugs/__proto__',
      '/play/__proto__',
      '/play/art/',
      '/play/src/main.ts',
    ]) {
      const res = await get(port(), bad);
      assert.equal(res.status, 404, bad);
      assert.equal(JSON.parse(res.body.toString()).code, 'NOT_FOUND', `${bad}: the JSON 404 of every path, no error page`);
    }
  });

  it('sends brotli or gzip as Accept-Encoding allows, with Vary, from bytes compressed once at build', async () => {
    const assets = await warmPlay();
    const plain = await get(port(), '/play/play.js');
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers.vary, 'Accept-Encoding', 'a cache must key the plain bytes on Accept-Encoding too');
    assert.ok(plain.body.length > 50_000, 'the whole bundle');

    const br = await get(port(), '/play/play.js', { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(br.headers.vary, 'Accept-Encoding');
    assert.equal(Number(br.headers['content-length']), br.body.length);
    assert.deepEqual(zlib.brotliDecompressSync(br.body), plain.body);
    // The stored variant itself, not a fresh compression per request.
    assert.ok(br.body.equals(assets.files.get('play.js')!.bodies.br!), 'the bytes compressed at build');

    const gz = await get(port(), '/play/play.js', { 'accept-encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.deepEqual(zlib.gunzipSync(gz.body), plain.body);
    assert.ok(gz.body.equals(assets.files.get('play.js')!.bodies.gzip!));

    const refused = await get(port(), '/play/play.js', { 'accept-encoding': 'br;q=0, gzip;q=0.5' });
    assert.equal(refused.headers['content-encoding'], 'gzip', 'q=0 refuses a coding');
    const none = await get(port(), '/play/play.js', { 'accept-encoding': 'identity' });
    assert.equal(none.headers['content-encoding'], undefined);

    for (const name of ['/play/', '/play/styles.css', '/play/art/bugs/rat.svg']) {
      const res = await get(port(), name, { 'accept-encoding': 'br' });
      assert.equal(res.headers['content-encoding'], 'br', name);
      assert.equal(res.headers.vary, 'Accept-Encoding', name);
    }
    const sizes = [plain.body.length, gz.body.length, br.body.length].map((n) => `${(n / 1024).toFixed(1)} KB`);
    console.log(`      play.js: ${sizes[0]} plain, ${sizes[1]} gzip, ${sizes[2]} brotli`);
    assert.ok(br.body.length < plain.body.length / 3, 'brotli at least thirds the bundle');
  });

  it('revalidates by ETag, one per variant, and answers HEAD without a body', async () => {
    const br = await get(port(), '/play/play.js', { 'accept-encoding': 'br' });
    const gz = await get(port(), '/play/play.js', { 'accept-encoding': 'gzip' });
    assert.ok(br.headers.etag && gz.headers.etag);
    assert.notEqual(br.headers.etag, gz.headers.etag, 'each coding is its own representation');
    const again = await get(port(), '/play/play.js', { 'accept-encoding': 'br', 'if-none-match': br.headers.etag });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    assert.equal(again.headers.vary, 'Accept-Encoding');
    const other = await get(port(), '/play/play.js', { 'accept-encoding': 'gzip', 'if-none-match': br.headers.etag });
    assert.equal(other.status, 200, "another coding's ETag does not match");
    assert.equal(br.headers['cache-control'], 'no-cache', 'a deploy changes the bundle under the same name');
    const head = await get(port(), '/play/play.js', { 'accept-encoding': 'br' }, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.equal(head.headers['content-encoding'], 'br');
  });

  it('neither serves nor links a source map unless PLAY_SOURCEMAP=1 asks for one', async () => {
    assert.equal(sourceMapWanted({}), false);
    assert.equal(sourceMapWanted({ PLAY_SOURCEMAP: '1' }), true);
    const js = await get(port(), '/play/play.js');
    assert.doesNotMatch(js.body.toString(), /sourceMappingURL/);
    const map = await get(port(), '/play/play.js.map');
    assert.equal(map.status, 404);
    // Development: the map is built and linked when asked for.
    const dev = await buildPlay({ sourcemap: true });
    assert.match(dev.files.get('play.js')!.bodies.identity.toString(), /\/\/# sourceMappingURL=play\.js\.map\s*$/);
    assert.ok(dev.files.has('play.js.map'));
  });

  it('serves the QR generator as a chunk of its own, loaded on demand and cached for good', async () => {
    const assets = await warmPlay();
    const chunk = [...assets.files.keys()].find((name) => /^chunks\/qr-[A-Za-z0-9]+\.js$/.test(name));
    assert.ok(chunk, `a qr chunk among ${[...assets.files.keys()].filter((n) => !n.startsWith('art/')).join(', ')}`);
    const res = await get(port(), `/play/${chunk}`, { 'accept-encoding': 'br' });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-encoding'], 'br');
    assert.match(String(res.headers['cache-control']), /immutable/, 'a hashed name never changes its bytes');
    assert.match(zlib.brotliDecompressSync(res.body).toString(), /No input text/, "qrcode's encoder is in the chunk");
    const js = (await get(port(), '/play/play.js')).body.toString();
    assert.doesNotMatch(js, /No input text/, 'and not in the bundle every page loads');
    assert.ok(js.includes(`./${chunk}`), 'the bundle imports it by that name when an invite is shown');
  });

  it("keeps an invite link's query across the redirect to /play/", async () => {
    const res = await get(port(), '/play?code=123456');
    assert.equal(res.status, 301);
    assert.equal(res.headers.location, '/play/?code=123456');
    assert.equal((await get(port(), '/play')).headers.location, '/play/');
  });

  it('reads Accept-Encoding as RFC 9110 says', () => {
    const both = new Set(['br', 'gzip', 'identity'] as const);
    assert.equal(pickEncoding(undefined, both), 'identity');
    assert.equal(pickEncoding('', both), 'identity');
    assert.equal(pickEncoding('gzip, deflate, br, zstd', both), 'br');
    assert.equal(pickEncoding('GZIP', both), 'gzip');
    assert.equal(pickEncoding('br;q=0', both), 'identity');
    assert.equal(pickEncoding('*', both), 'br');
    assert.equal(pickEncoding('*;q=0, gzip', both), 'gzip');
    assert.equal(pickEncoding('br ; q=0.001', both), 'br');
    assert.equal(pickEncoding('br;q=abc', both), 'identity', 'a q-value that is not a number accepts nothing');
    assert.equal(pickEncoding('br', new Set(['gzip', 'identity'] as const)), 'identity', 'only variants that exist');
  });
});
