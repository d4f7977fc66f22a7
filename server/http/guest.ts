import { Router } from 'express';
import type { Identities } from '../identity/tokens';
import type { EdgeLimits } from './limits';
import { clientAddress } from './clientAddress';
import { edgeRefused } from './edgeMetrics';
import { sendJsonError } from './errors';

/** A guest request carries no options: an empty body, or `{}` from clients that always send JSON. */
const MAX_GUEST_BODY = 64;

/**
 * `POST /api/guest` (PROTOCOL v3, guest mode only): `{ "token": "..." }`, a token of the app
 * token's shape signed by this server's own key, for a player who has no account. The SDK fetches
 * one once and keeps it. Issuing is limited per client address (GUESTS_PER_ADDRESS_PER_HOUR,
 * sized for a school: docs/security.md), which is what stops a script from minting identities to
 * multiply the per-identity limits. In app mode the route does not exist (404 NOT_FOUND).
 */
export function guestRouter(identities: Identities, limits: EdgeLimits, trustedProxies: readonly string[]): Router {
  const router = Router();
  const trusted = new Set(trustedProxies);
  if (identities.mode !== 'guest') return router;
  router.options('/api/guest', (req, res) => void cors(req, res).status(204).end());
  router.post('/api/guest', (req, res) => {
    cors(req, res);
    const declared = Number(req.headers['content-length'] ?? 0);
    if (!Number.isFinite(declared) || declared > MAX_GUEST_BODY || req.headers['transfer-encoding'] !== undefined) {
      res.set('Connection', 'close');
      edgeRefused('BAD_REQUEST');
      return sendJsonError(res, 400, 'BAD_REQUEST');
    }
    if (!limits.mayIssueGuest(clientAddress(req, trusted))) {
      edgeRefused('TOO_MANY_REQUESTS');
      return sendJsonError(res, 429, 'TOO_MANY_REQUESTS');
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      if (body.trim() !== '' && body.trim() !== '{}') {
        edgeRefused('BAD_REQUEST');
        return sendJsonError(res, 400, 'BAD_REQUEST');
      }
      identities.issueGuest().then(
        (token) => void res.status(200).set('Cache-Control', 'no-store').json({ token }),
        () => sendJsonError(res, 500, 'SERVER_ERROR'),
      );
    });
  });
  return router;
}

function cors(req: { headers: { origin?: string } }, res: import('express').Response): import('express').Response {
  const origin = req.headers.origin;
  res.set({
    'Access-Control-Allow-Origin': typeof origin === 'string' && origin.length < 300 && !/[\r\n]/.test(origin) ? origin : '*',
    'Access-Control-Allow-Methods': 'OPTIONS, POST',
    'Access-Control-Allow-Headers': 'Content-Type, Accept',
    'Access-Control-Max-Age': '2592000',
  });
  return res;
}
