/**
 * Credentials never reach a log line (issue 23 item 6). The logger (server/base/log.ts) passes
 * every key and every string value through here, whoever wrote the line: our code, an error
 * message from Colyseus or ioredis, Colyseus's own logger. What is a credential here:
 * - a seat's reconnection token: Colyseus puts it in error texts ("remote room (…) timed out,
 *   requesting "checkReconnectionToken with args ["<token>"]"") and in WebSocket URLs
 *   (`?reconnectionToken=`);
 * - an identity token: `Authorization: Bearer <jwt>`, any JWT-shaped string, a `token=` query;
 * - a value under a key that names one (`token`, `authorization`, `password`, …).
 * A redacted value keeps its shape ("[redacted]") so the line still says what happened.
 */
import { REMOTE_CALL_ARGUMENTS } from '../colyseus/errorTexts';

export const REDACTED = '[redacted]';

const SECRET_KEY =
  /^(token|tokens|reconnectiontoken|authorization|auth|password|passwd|secret|cookie|jwt|bearer|accesstoken|idtoken|refreshtoken|apikey)$/i;

const PATTERNS: [RegExp, string][] = [
  // Colyseus's remote-call errors name the call's arguments: a reconnection token, seat options, auth data.
  [REMOTE_CALL_ARGUMENTS, ` with args ${REDACTED}`],
  [/(reconnectionToken|access_token|id_token|token)(["']?\s*[=:]\s*["']?)[^"'&\s,;()[\]{}]+/gi, `$1$2${REDACTED}`],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  [/(authorization["']?\s*[:=]\s*["']?)[^"',}\n]+/gi, `$1${REDACTED}`],
  // A JWT anywhere (header.payload.signature, base64url; the header always starts with "eyJ").
  [/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, REDACTED],
];

/** True for a field name whose value is a credential whatever it looks like. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key.replace(/[_-]/g, ''));
}

export function redact(text: string): string {
  let out = text;
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  return out;
}
