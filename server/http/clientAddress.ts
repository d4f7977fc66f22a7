import type { IncomingMessage } from 'node:http';

/** `::ffff:1.2.3.4` and `1.2.3.4` are one client. */
export function normaliseAddress(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/**
 * The client's address: the socket's peer, unless that peer is a trusted proxy; then the
 * right-most X-Forwarded-For entry that is not itself a trusted proxy (entries further left
 * were written by the client and prove nothing).
 */
export function clientAddress(req: IncomingMessage, trustedProxies: ReadonlySet<string>): string {
  const peer = normaliseAddress(req.socket.remoteAddress ?? '');
  if (!trustedProxies.has(peer)) return peer;
  const header = req.headers['x-forwarded-for'];
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  if (text.length > 2000) return peer;
  const hops = text
    .split(',')
    .map((h) => normaliseAddress(h.trim()))
    .filter((h) => h !== '');
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trustedProxies.has(hops[i])) return /^[0-9A-Fa-f.:]{2,45}$/.test(hops[i]) ? hops[i] : peer;
  }
  return peer;
}
