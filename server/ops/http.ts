import { createHash, timingSafeEqual } from 'node:crypto';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { matchMaker } from 'colyseus';
import type { OpsConfig } from '../base/config';
import { isDraining } from '../base/draining';
import { log } from '../base/log';
import { metricsContentType, metricsText } from '../base/metrics';
import { redisState } from './scale';
import { recordsHealth } from '../store/health';
import { MinuteWindow } from '../http/windows';
import type { Identities } from '../identity/tokens';
import type { GuestFleet } from '../identity/guestFleet';
import { guestRevokeRoute } from './guestRevoke';
import { monitorRouter } from '../colyseus/monitor';

/**
 * GET /ready next to /health on the public port: 200 while this process takes new rooms, 503
 * while it drains, (with REDIS_URL) while Redis is away or this process has not yet put its
 * state back into it, or while it cannot keep a finished game's record (server/store/health.ts)
 * (for the load balancer's matchmaking pool; /health stays 200 so running games keep their
 * sockets). `redis`: "up", "down" or "off" (one process, no Redis); `records`: "ok",
 * "file_lost" or "not_durable".
 */
export function mountReady(app: Express, ops: OpsConfig): void {
  app.get('/ready', (_req, res) => {
    const redis = redisState();
    const draining = isDraining();
    const records = recordsHealth();
    const body = {
      ready: !draining && redis !== 'down' && records.ok,
      processId: matchMaker.processId,
      publicAddress: ops.publicAddress,
      redis,
      draining,
      records: records.problem ?? 'ok',
    };
    res.status(body.ready ? 200 : 503).json(body);
  });
}

/** What the guest revocation route needs (server/ops/guestRevoke.ts). */
export interface GuestOps {
  identities: Identities;
  fleet: () => GuestFleet | null;
}

/**
 * The operators' routes, on the internal listener (OPS_PORT), or on the public one only when
 * OPS_ON_PUBLIC_PORT=1:
 * - GET /metrics: Prometheus text format;
 * - POST /guests/revoke: revokes one guest identity (guest mode; behind the monitor's basic auth
 *   too when its credentials are configured);
 * - /colyseus: @colyseus/monitor behind HTTP basic auth, only when credentials are configured
 *   (it shows every room's unfiltered state, hands included, and can call room methods).
 */
export function mountOps(app: Express, ops: OpsConfig, guests?: GuestOps): void {
  app.get('/metrics', (_req, res) => {
    metricsText().then(
      (text) => {
        res.setHeader('Content-Type', metricsContentType());
        res.end(text);
      },
      (error) => {
        log.error('metrics.failed', {}, error);
        res.status(500).type('text/plain').send('metrics failed\n');
      },
    );
  });

  if (guests) {
    const revoke = guestRevokeRoute(guests.identities, guests.fleet);
    if (ops.monitor) app.post('/guests/revoke', basicAuth(ops.monitor.user, ops.monitor.password), revoke);
    else app.post('/guests/revoke', revoke);
  }

  if (ops.monitor) {
    // Loaded only when mounted: the package patches Room.prototype on import (server/colyseus/monitor.ts).
    app.use('/colyseus', basicAuth(ops.monitor.user, ops.monitor.password), monitorRouter());
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

/** Failed monitor logins per client address per minute, then 429 without looking at the password. */
export const MONITOR_FAILURES_PER_MINUTE = 10;
/** Failed logins per minute from all addresses together: a guesser with many addresses is slowed too. */
export const MONITOR_FAILURES_PER_MINUTE_ALL = 60;

/**
 * HTTP basic auth with constant-time comparison: both sides are hashed to equal-length digests
 * first, so neither the content nor the length of the secret leaks through timing. Failures are
 * throttled per address and overall; a throttled request is not checked at all.
 */
export function basicAuth(user: string, password: string, now: () => number = Date.now): RequestHandler {
  const expectedUser = digest(user);
  const expectedPassword = digest(password);
  let lastWarned = 0;
  const perAddress = new MinuteWindow(MONITOR_FAILURES_PER_MINUTE, now);
  const overall = new MinuteWindow(MONITOR_FAILURES_PER_MINUTE_ALL, now);
  return (req: Request, res: Response, next: NextFunction) => {
    const ip = req.socket.remoteAddress ?? '';
    // Until the window has room again no guess is even compared.
    if (!perAddress.peek(ip) || !overall.peek('*'))
      return void res.status(429).set('Retry-After', '60').type('text/plain').send('too many attempts\n');
    const header = req.headers.authorization ?? '';
    const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header);
    const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    const givenUser = colon >= 0 ? decoded.slice(0, colon) : '';
    const givenPassword = colon >= 0 ? decoded.slice(colon + 1) : '';
    // Both comparisons always run: no early exit on a wrong user name.
    const userOk = timingSafeEqual(digest(givenUser), expectedUser);
    const passwordOk = timingSafeEqual(digest(givenPassword), expectedPassword);
    if (colon >= 0 && userOk && passwordOk) return next();
    if (header !== '') {
      perAddress.take(ip);
      overall.take('*');
    }
    if (header !== '' && now() - lastWarned > 10_000) {
      lastWarned = now(); // at most one line per 10 s: a password guesser cannot fill the logs
      log.warn('monitor.auth_failed', { ip });
    }
    res.set('WWW-Authenticate', 'Basic realm="colyseus-monitor", charset="UTF-8"');
    res.status(401).type('text/plain').send('authentication required\n');
  };
}
