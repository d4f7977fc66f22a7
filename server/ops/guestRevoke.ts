import type { Request, RequestHandler, Response } from 'express';
import type { Identities } from '../identity/tokens';
import type { GuestFleet } from '../identity/guestFleet';
import { isGuestSub } from '../identity/revocations';
import { hasJsonBodyOrNone } from '../http/origins';
import { sendJsonError } from '../http/errors';
import { log } from '../base/log';

const MAX_BODY = 8192;

/**
 * `POST /guests/revoke` on the ops listener (docs/operations.md "Revoking a guest identity"):
 * `{ "sub": "…" }` or `{ "token": "…" }` (a guest token of this server, expired or not). From the
 * answer on, that identity's tokens are AUTH_INVALID here; with REDIS_URL on every process within
 * a sync (server/identity/guestFleet.ts), which the answer says (`fleet`: "shared", "pending"
 * while Redis is away, "off" without Redis). Its live connections are closed by the revocation's
 * listeners. Nobody else is logged out. 404 in app mode (the app backend revokes its own users).
 */
export function guestRevokeRoute(identities: Identities, fleet: () => GuestFleet | null): RequestHandler {
  return (req: Request, res: Response) => {
    const revocations = identities.revocations;
    if (!revocations) return sendJsonError(res, 404, 'NOT_FOUND');
    if (!hasJsonBodyOrNone(req) || req.headers['content-type'] === undefined) return sendJsonError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY) return sendJsonError(res, 413, 'PAYLOAD_TOO_LARGE');
    let body = '';
    let size = 0;
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      size += chunk.length;
      if (size <= MAX_BODY) body += chunk;
    });
    req.on('end', () => {
      if (size > MAX_BODY) return sendJsonError(res, 413, 'PAYLOAD_TOO_LARGE');
      void revoke(identities, body, fleet()).then(
        (answer) => (answer.ok ? res.status(200).json(answer.body) : sendJsonError(res, 400, answer.code)),
        (error) => {
          log.error('guest.revoke_failed', {}, error);
          sendJsonError(res, 500, 'SERVER_ERROR');
        },
      );
    });
  };
}

type Answer =
  | { ok: true; body: { revoked: true; already: boolean; fleet: 'shared' | 'pending' | 'off' } }
  | { ok: false; code: 'BAD_REQUEST' | 'AUTH_INVALID' };

async function revoke(identities: Identities, text: string, fleet: GuestFleet | null): Promise<Answer> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, code: 'BAD_REQUEST' };
  }
  const request = parsed as { sub?: unknown; token?: unknown } | null;
  if (typeof request !== 'object' || request === null || Array.isArray(request) || Object.keys(request).length !== 1)
    return { ok: false, code: 'BAD_REQUEST' };
  let sub: string | null;
  if (Object.prototype.hasOwnProperty.call(request, 'sub')) sub = isGuestSub(request.sub) ? request.sub : null;
  else if (Object.prototype.hasOwnProperty.call(request, 'token') && typeof request.token === 'string') {
    sub = await identities.guestSubOf(request.token);
    if (sub === null) return { ok: false, code: 'AUTH_INVALID' };
  } else sub = null;
  if (sub === null) return { ok: false, code: 'BAD_REQUEST' };
  const fresh = identities.revocations!.revoke(sub);
  // The sub is not logged: it is the identity's key, which never leaves the server's own state.
  log.info('guest.revoked', { already: !fresh });
  if (!fleet) return { ok: true, body: { revoked: true, already: !fresh, fleet: 'off' } };
  await fleet.settled();
  return { ok: true, body: { revoked: true, already: !fresh, fleet: fleet.holds(sub) ? 'shared' : 'pending' } };
}
