/**
 * @colyseus/monitor 0.15.8, loaded only when mounted: importing it adds methods to colyseus's
 * `Room.prototype` for every room of the process (`getInspectData`, which hands out a room's
 * unfiltered state, hands included; `_forceClientDisconnect`, `_sendMessageToClient`), all
 * callable through `remoteRoomCall`. That is why server/ops/http.ts mounts it only behind basic
 * auth and only when credentials are configured. Breaks if a monitor of another line is
 * installed (it patches a Room it does not match): test/ops/monitor.test.ts fails; the version
 * check (versions.ts) refuses to start on any other version.
 */
import type { Router } from 'express';

/** The monitor's express router (the package is required here, on first use, not at import). */
export function monitorRouter(): Router {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazy load, synchronous on purpose
  const { monitor } = require('@colyseus/monitor') as typeof import('@colyseus/monitor');
  return monitor();
}
