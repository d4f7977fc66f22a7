import type { IncomingMessage } from 'node:http';
import { normaliseAddress } from './clientAddress';

/**
 * Which web pages may talk to this server from a browser (issue 32, docs/security.md "Browser
 * origins"). A browser names the page that sends a request in `Origin`; the app (React Native)
 * sends none, and `/play` is this server's own origin. A page of any other origin is refused
 * outright, before anything is counted: otherwise every visitor of a stranger's page becomes one
 * more address guessing room codes and spending a school's budgets.
 *
 * `allowed` null: the server's own origin only, as the request reaches it (its Host, behind a
 * trusted proxy the proxy's `X-Forwarded-Host` and `X-Forwarded-Proto`). A list
 * (`ALLOWED_ORIGINS`): exactly those, and nothing else. CORS never allows credentials: the
 * server has no cookies, and a page must not ride on anything a browser would add.
 */
export class OriginPolicy {
  private readonly allowed: ReadonlySet<string> | null;
  private readonly trusted: ReadonlySet<string>;

  constructor(allowed: readonly string[] | null, trustedProxies: readonly string[]) {
    this.allowed = allowed === null ? null : new Set(allowed);
    this.trusted = new Set(trustedProxies);
  }

  /** The request's `Origin` when it has exactly one, else null (no Origin: not a browser page's request). */
  origin(req: IncomingMessage): string | null {
    const origin = req.headers.origin;
    return typeof origin === 'string' ? origin : null;
  }

  /** False for a request a page of a foreign origin sent (the app and non-browser clients send no Origin). */
  allows(req: IncomingMessage): boolean {
    const origin = this.origin(req);
    if (origin === null) return true;
    if (this.allowed !== null) return this.allowed.has(origin);
    return origin === this.ownOrigin(req);
  }

  /**
   * CORS headers for the answer: `Access-Control-Allow-Origin` only for an allowed origin, named
   * exactly (never `*`, never a foreign one), and `Vary: Origin` so no cache hands one page's
   * answer to another.
   */
  cors(req: IncomingMessage, methods: string): Record<string, string> {
    const headers: Record<string, string> = { Vary: 'Origin' };
    const origin = this.origin(req);
    if (origin === null || !this.allows(req)) return headers;
    return {
      ...headers,
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Methods': methods,
      'Access-Control-Allow-Headers': 'Content-Type, Accept, Authorization',
      'Access-Control-Max-Age': '600',
    };
  }

  /** `http(s)://host[:port]` as the browser sees this server, or null when the request does not say. */
  ownOrigin(req: IncomingMessage): string | null {
    const viaProxy = this.trusted.has(normaliseAddress(req.socket.remoteAddress ?? ''));
    const proto = viaProxy ? firstValue(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
    const scheme = proto === 'https' || proto === 'http' ? proto : 'http';
    const host = ((viaProxy ? firstValue(req.headers['x-forwarded-host']) : undefined) ?? req.headers.host ?? '').toLowerCase();
    if (!HOST.test(host)) return null;
    // A browser leaves the scheme's default port out of Origin.
    const port = scheme === 'https' ? ':443' : ':80';
    return `${scheme}://${host.endsWith(port) ? host.slice(0, -port.length) : host}`;
  }
}

/** A Host header's shape: a name or an IPv4 or bracketed IPv6 address, an optional port. */
const HOST = /^(?:[a-z0-9.-]{1,253}|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/;

function firstValue(header: string | string[] | undefined): string | undefined {
  const text = Array.isArray(header) ? header[0] : header;
  const first = text?.split(',')[0]?.trim();
  return first === '' ? undefined : first;
}

/**
 * What a browser page may send without asking first (a "simple" request) is a form or
 * `text/plain` body; every client of ours sends `application/json`. A body of another type, or a
 * body that names none, is refused (415) before it is read.
 */
export function hasJsonBodyOrNone(req: IncomingMessage): boolean {
  const type = req.headers['content-type'];
  if (type === undefined) return !hasBody(req);
  return type.split(';')[0].trim().toLowerCase() === 'application/json';
}

function hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}
