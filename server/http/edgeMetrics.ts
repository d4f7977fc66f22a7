import { Counter, Gauge } from 'prom-client';
import { socketErrors } from '../colyseus/transport/GuardedTransport';
import { registry } from '../base/metrics';
import { log } from '../base/log';

const refusals = new Counter({
  name: 'cockroach_http_refusals_total',
  help: 'Matchmaking and connection refusals at the network edge, by code (never logged one by one)',
  labelNames: ['code'],
  registers: [registry],
});

const failures = new Counter({
  name: 'cockroach_http_failures_total',
  help: 'Matchmaking requests that failed inside the server (answered SERVER_ERROR), by where',
  labelNames: ['where'],
  registers: [registry],
});

for (const code of ['TOO_MANY_REQUESTS', 'TOO_MANY_LOBBIES', 'SERVER_BUSY', 'PAYLOAD_TOO_LARGE', 'BAD_OPTIONS', 'BAD_NICKNAME'])
  refusals.inc({ code }, 0);

export function edgeRefused(code: string): void {
  refusals.inc({ code });
}

/** Counted always; logged (with the error) through the log's per-event throttle. */
export function edgeFailed(where: string, error: unknown): void {
  failures.inc({ where });
  log.warn('http.failed', { where }, error);
}

new Gauge({
  name: 'cockroach_ws_no_seat',
  help: 'WebSockets refused since start for naming no room or no reserved seat (answered, closed, not logged)',
  registers: [registry],
  collect() {
    this.set(socketErrors.noSeat);
  },
});
