/**
 * The server's address, parsed here instead of by colyseus.js. Given a string, colyseus.js 0.15
 * parses it with the global `URL` (lib/Client.js), and React Native's `URL` either throws on every
 * accessor (RN 0.73) or answers `hostname: ""` for ws:// and wss:// URLs; given these settings it
 * needs no `URL` at all.
 */
export interface EndpointSettings {
  hostname: string;
  port: number;
  secure: boolean;
  /** The path the server is mounted on, without a trailing slash ('' at the root). */
  pathname: string;
}

/** What an app may give instead of a string (colyseus.js's own settings shape). */
export interface EndpointInput {
  hostname: string;
  secure: boolean;
  port?: number;
  pathname?: string;
}

const ENDPOINT = /^(wss?|https?):\/\/(\[[0-9A-Fa-f:.]+\]|[^/?#:@\s[\]]+)(?::(\d{1,5}))?(\/[^?#\s]*)?$/;

/**
 * `ws://host:port/path`, `wss://…`, `http://…` or `https://…` (a secure scheme defaults to port
 * 443, the others to 80). Throws a TypeError for anything else: a typo in the app's config
 * should fail at start-up, not as "no network" later.
 */
export function parseEndpoint(endpoint: string | EndpointInput): EndpointSettings {
  if (typeof endpoint !== 'string') {
    const secure = Boolean(endpoint.secure);
    return { hostname: endpoint.hostname, secure, port: endpoint.port ?? (secure ? 443 : 80), pathname: trimPath(endpoint.pathname ?? '') };
  }
  const match = ENDPOINT.exec(endpoint.trim());
  const port = match?.[3] === undefined ? undefined : Number(match[3]);
  if (!match || (port !== undefined && (port < 1 || port > 65535)))
    throw new TypeError(`cockroach-poker sdk: not a server address: ${JSON.stringify(endpoint)} (expected e.g. wss://game.example.com)`);
  const secure = match[1] === 'wss' || match[1] === 'https';
  return { hostname: match[2].toLowerCase(), port: port ?? (secure ? 443 : 80), secure, pathname: trimPath(match[4] ?? '') };
}

function trimPath(path: string): string {
  return path.replace(/\/+$/, '');
}
