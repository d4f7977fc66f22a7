import { Router } from 'express';
import type { Request, Response } from 'express';
import type { Identities } from '../identity/tokens';
import type { EdgeLimits } from './limits';
import { clientAddress } from './clientAddress';
import { edgeRefused } from './edgeMetrics';
import { sendJsonError } from './errors';
import { hasJsonBodyOrNone, OriginPolicy } from './origins';

/** A guest request carries no options: an empty body, or `{}` from clients that always send JSON. */
const MAX_GUEST_BODY = 64;

/**
 * The guest identity routes (PROTOCOL v3, guest mode only; in app mode they do not exist: 404
 * NOT_FOUND):
 * - `POST /api/guest`: `{ "token": "..." }`, a token of the app token's shape signed by this
 *   server's own key, for a player who has no account, valid GUEST_TOKEN_DAYS (30). Issuing is
 *   limited per client address (GUESTS_PER_ADDRESS_PER_HOUR, sized for a school:
 *   docs/security.md), which is what stops a script from minting identities to multiply the
 *   per-identity limits.
 * - `POST /api/guest/renew` with `Authorization: Bearer <guest token>`: a fresh token of the same
 *   identity (so its seats follow it); AUTH_INVALID for a token that no longer passes (expired,
 *   revoked). Limited per address too (GUEST_RENEWALS_PER_ADDRESS_PER_HOUR), generously: a
 *   renewal makes no new identity.
 * Both refuse a foreign web page (403 FORBIDDEN_ORIGIN) and a body that is not JSON (415) before
 * anything is counted (server/http/origins.ts).
 */
export function guestRouter(identities: Identities, limits: EdgeLimits, trustedProxies: readonly string[], origins: OriginPolicy): Router {
  const router = Router();
  const trusted = new Set(trustedProxies);
  if (identities.mode !== 'guest') return router;

  /** The checks both routes make before anything is counted; false when it answered. */
  const admitted = (req: Request, res: Response): boolean => {
    res.set(origins.cors(req, 'OPTIONS, POST'));
    if (!hasJsonBodyOrNone(req)) return refuse(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    if (!origins.allows(req)) return refuse(res, 403, 'FORBIDDEN_ORIGIN');
    const declared = Number(req.headers['content-length'] ?? 0);
    if (!Number.isFinite(declared) || declared > MAX_GUEST_BODY || req.headers['transfer-encoding'] !== undefined)
      return refuse(res, 400, 'BAD_REQUEST');
    return true;
  };

  /** Reads the (tiny) body; it must be empty or `{}`. */
  const emptyBody = (req: Request, res: Response, then: () => void): void => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (body.trim() !== '' && body.trim() !== '{}') return void refuse(res, 400, 'BAD_REQUEST');
      then();
    });
  };

  for (const path of ['/api/guest', '/api/guest/renew'])
    router.options(path, (req, res) => {
      res.set(origins.cors(req, 'OPTIONS, POST'));
      if (!origins.allows(req)) return void refuse(res, 403, 'FORBIDDEN_ORIGIN');
      res.status(204).end();
    });

  router.post('/api/guest', (req, res) => {
    if (!admitted(req, res)) return;
    if (!limits.mayIssueGuest(clientAddress(req, trusted))) return void refuse(res, 429, 'TOO_MANY_REQUESTS');
    emptyBody(req, res, () =>
      identities.issueGuest().then(
        (token) => void res.status(200).set('Cache-Control', 'no-store').json({ token }),
        () => sendJsonError(res, 500, 'SERVER_ERROR'),
      ),
    );
  });

  router.post('/api/guest/renew', (req, res) => {
    if (!admitted(req, res)) return;
    if (!limits.mayRenewGuest(clientAddress(req, trusted))) return void refuse(res, 429, 'TOO_MANY_REQUESTS');
    emptyBody(req, res, () =>
      identities.renewGuest(req.headers.authorization).then(
        (renewal) => {
          if (!renewal.ok) return void refuse(res, 401, renewal.code);
          res.status(200).set('Cache-Control', 'no-store').json({ token: renewal.token });
        },
        () => sendJsonError(res, 500, 'SERVER_ERROR'),
      ),
    );
  });
  return router;
}

function refuse(res: Response, status: number, code: Parameters<typeof sendJsonError>[2]): false {
  res.set('Connection', 'close');
  edgeRefused(code);
  sendJsonError(res, status, code);
  return false;
}
