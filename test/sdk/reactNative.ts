/**
 * A JavaScript context shaped like React Native's (what its InitializeCore sets up), to run a
 * Metro bundle in: WebSocket, XMLHttpRequest and fetch, timers that return numbers, `window` as
 * the global, `navigator.product` 'ReactNative'. Node's globals are absent (no `Buffer`,
 * `process`, `require`, `global`), `crypto` only when asked for (react-native-get-random-values
 * gives `getRandomValues` alone), and `URL` is React Native 0.73's: it keeps the string, and every
 * accessor but `href` throws (react-native#45030).
 */
import http from 'node:http';
import { webcrypto } from 'node:crypto';
import vm from 'node:vm';
import NodeWebSocket from 'ws';

export interface ReactNativeContext {
  context: vm.Context;
  /** URL accessors the bundle tried to read (each threw). */
  urlReads: string[];
  /** Calls of crypto.getRandomValues (when present). */
  randomCalls: number;
  /** Every HTTP request the bundle sent (XMLHttpRequest, fetch included), with the identity it carried. */
  requests: { method: string; path: string; authorization: string | undefined }[];
  /** Closes every open socket abruptly, as a lost network does (no close frame reaches the other side in time). */
  cutSockets(): number;
  /** Clears every timer the bundle left (a numeric id keeps nothing alive in React Native, but it does here). */
  dispose(): void;
}

export function reactNativeContext(options: { crypto: boolean; host: Record<string, unknown> }): ReactNativeContext {
  const timers = new Map<number, NodeJS.Timeout>();
  let nextTimer = 1;
  const sockets = new Set<NodeWebSocket>();
  const rn: ReactNativeContext = {
    context: {} as vm.Context,
    urlReads: [],
    randomCalls: 0,
    requests: [],
    cutSockets: () => {
      const open = [...sockets].filter((ws) => ws.readyState === NodeWebSocket.OPEN);
      for (const ws of open) ws.terminate();
      return open.length;
    },
    dispose: () => {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      for (const ws of sockets) ws.terminate();
    },
  };
  const timer =
    (repeat: boolean) =>
    (fn: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
      const id = nextTimer++;
      const run = () => {
        if (!repeat) timers.delete(id);
        fn(...args);
      };
      timers.set(id, repeat ? setInterval(run, ms) : setTimeout(run, ms));
      return id;
    };
  const clear = (id?: number) => {
    if (id === undefined) return;
    const t = timers.get(id);
    if (t) clearTimeout(t); // clears an interval too
    timers.delete(id);
  };

  const sandbox: Record<string, unknown> = {
    console,
    navigator: { product: 'ReactNative' },
    __host: options.host,
    setTimeout: timer(false),
    setInterval: timer(true),
    clearTimeout: clear,
    clearInterval: clear,
    setImmediate: (fn: () => void) => timer(false)(fn, 0),
    clearImmediate: clear,
    requestAnimationFrame: (fn: (t: number) => void) => timer(false)(() => fn(Date.now()), 16),
    cancelAnimationFrame: clear,
  };
  const context = vm.createContext(sandbox, { name: 'react-native-like' });
  rn.context = context;
  // The context's own constructors, so what the bundle receives is of its realm (as in Hermes).
  const ContextArrayBuffer = vm.runInContext('ArrayBuffer', context) as ArrayBufferConstructor;
  const ContextUint8Array = vm.runInContext('Uint8Array', context) as Uint8ArrayConstructor;
  const toContextBuffer = (data: Buffer) => {
    const out = new ContextArrayBuffer(data.byteLength);
    new ContextUint8Array(out).set(data);
    return out;
  };

  class WebSocket {
    static CONNECTING = 0;
    static OPEN = 1;
    static CLOSING = 2;
    static CLOSED = 3;
    CONNECTING = 0;
    OPEN = 1;
    CLOSING = 2;
    CLOSED = 3;
    binaryType: 'blob' | 'arraybuffer' = 'blob';
    onopen: ((e: unknown) => void) | null = null;
    onmessage: ((e: unknown) => void) | null = null;
    onclose: ((e: unknown) => void) | null = null;
    onerror: ((e: unknown) => void) | null = null;
    private readonly ws: NodeWebSocket;

    // React Native's signature: (url, protocols, options); protocols that are not a string or an array are ignored.
    constructor(
      readonly url: string,
      protocols?: unknown,
      options?: { headers?: Record<string, string> },
    ) {
      const list = typeof protocols === 'string' ? [protocols] : Array.isArray(protocols) ? (protocols as string[]) : undefined;
      this.ws = new NodeWebSocket(url, list, { headers: options?.headers });
      sockets.add(this.ws);
      this.ws.on('open', () => this.onopen?.({ type: 'open' }));
      this.ws.on('message', (data: Buffer | string, isBinary?: boolean) => {
        const binary = typeof data !== 'string' && isBinary !== false;
        if (binary && this.binaryType !== 'arraybuffer') throw new Error('this emulation only does binaryType "arraybuffer"');
        this.onmessage?.({ type: 'message', data: binary ? toContextBuffer(data as Buffer) : data.toString() });
      });
      this.ws.on('error', (error) => this.onerror?.({ type: 'error', message: error.message }));
      this.ws.on('close', (code, reason) => {
        sockets.delete(this.ws);
        this.onclose?.({ type: 'close', code, reason: String(reason ?? ''), wasClean: code === 1000 });
      });
    }

    get readyState(): number {
      return this.ws.readyState;
    }

    send(data: unknown): void {
      if (typeof data === 'string') return this.ws.send(data);
      const isBuffer = Object.prototype.toString.call(data) === '[object ArrayBuffer]';
      if (!isBuffer && !ArrayBuffer.isView(data)) throw new Error('Unsupported data type');
      const view = isBuffer ? new Uint8Array(data as ArrayBuffer) : (data as Uint8Array);
      this.ws.send(Buffer.from(view.buffer, view.byteOffset, view.byteLength));
    }

    close(code?: number, reason?: string): void {
      this.ws.close(code, reason);
    }
  }

  class XMLHttpRequest {
    readyState = 0;
    status = 0;
    statusText = '';
    responseText = '';
    response: unknown = '';
    responseType = '';
    timeout = 0;
    withCredentials = false;
    onload: ((e: unknown) => void) | null = null;
    onerror: ((e: unknown) => void) | null = null;
    ontimeout: ((e: unknown) => void) | null = null;
    onreadystatechange: (() => void) | null = null;
    private method = 'GET';
    private url = '';
    private headers: Record<string, string> = {};
    private responseHeaders: Record<string, string> = {};

    open(method: string, url: string): void {
      this.method = method;
      this.url = String(url);
      this.readyState = 1;
    }

    setRequestHeader(name: string, value: string): void {
      this.headers[name.toLowerCase()] = String(value);
    }

    getAllResponseHeaders(): string {
      return Object.entries(this.responseHeaders)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\r\n');
    }

    getResponseHeader(name: string): string | null {
      return this.responseHeaders[name.toLowerCase()] ?? null;
    }

    send(body?: string | null): void {
      const match = /^(https?):\/\/([^/:]+|\[[^\]]+\])(?::(\d+))?(\/.*)?$/.exec(this.url);
      if (!match || match[1] !== 'http') return void setImmediate(() => this.onerror?.({ type: 'error' }));
      rn.requests.push({
        method: this.method.toUpperCase(),
        path: (match[4] ?? '/').split('?')[0],
        authorization: this.headers.authorization,
      });
      const req = http.request(
        {
          method: this.method,
          host: match[2].replace(/^\[|\]$/g, ''),
          port: Number(match[3] ?? 80),
          path: match[4] ?? '/',
          headers: this.headers,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            this.status = res.statusCode ?? 0;
            this.statusText = res.statusMessage ?? '';
            this.responseHeaders = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)]));
            this.responseText = Buffer.concat(chunks).toString('utf8');
            this.response = this.responseText;
            this.readyState = 4;
            this.onreadystatechange?.();
            this.onload?.({ type: 'load' });
          });
        },
      );
      if (this.timeout) req.setTimeout(this.timeout, () => (req.destroy(), this.ontimeout?.({ type: 'timeout' })));
      req.on('error', () => {
        this.readyState = 4;
        this.onreadystatechange?.();
        this.onerror?.({ type: 'error' });
      });
      req.end(body ?? undefined);
    }

    abort(): void {}
  }

  const reads = rn.urlReads;
  class URL {
    constructor(
      private readonly url: string,
      base?: string,
    ) {
      if (base !== undefined) this.url = String(base).replace(/\/$/, '') + '/' + String(url).replace(/^\//, '');
    }
    get href() {
      return this.url;
    }
    toString() {
      return this.url;
    }
  }
  for (const name of [
    'protocol',
    'hostname',
    'host',
    'port',
    'pathname',
    'search',
    'hash',
    'origin',
    'username',
    'password',
    'searchParams',
  ]) {
    Object.defineProperty(URL.prototype, name, {
      get() {
        reads.push(name);
        throw new Error(`URL.${name} is not implemented`);
      },
    });
  }

  Object.assign(sandbox, { WebSocket, XMLHttpRequest, URL });
  if (options.crypto) {
    sandbox.crypto = {
      getRandomValues: <T extends ArrayBufferView>(array: T) => {
        rn.randomCalls++;
        return webcrypto.getRandomValues(array as unknown as Uint8Array) as unknown as T;
      },
    };
  }
  // React Native's own set-up, in the context's realm: the global is `window`, and fetch rides on XMLHttpRequest.
  vm.runInContext(
    `window = globalThis; self = globalThis;
     fetch = function (url, init) {
       return new Promise(function (resolve, reject) {
         var xhr = new XMLHttpRequest();
         xhr.open((init && init.method) || 'GET', String(url));
         xhr.onload = function () {
           var text = xhr.responseText;
           resolve({ ok: xhr.status >= 200 && xhr.status < 300, status: xhr.status,
                     text: function () { return Promise.resolve(text); },
                     json: function () { return Promise.resolve(JSON.parse(text)); } });
         };
         xhr.onerror = function () { reject(new TypeError('Network request failed')); };
         xhr.send((init && init.body) || null);
       });
     };`,
    context,
  );
  return rn;
}
