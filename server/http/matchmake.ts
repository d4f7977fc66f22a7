import type { IncomingMessage, ServerResponse } from 'node:http';
import { matchMaker } from 'colyseus';
import type { EdgeConfig } from '../ops/config';
import { ErrorCode, ROOM_MESSAGES, ROOM_NAME } from '../protocol';
import { RULE_MESSAGES } from '../rules';
import { parseJoinOptions } from '../room/joinOptions';
import { SeatedRoom, seatRefusal } from '../room/reservations';
import { clientAddress } from './clientAddress';
import { edgeRefused, edgeFailed } from './edgeMetrics';
import { parseBoundedJson } from './boundedJson';
import { LobbyLedger, PendingSeats } from './lobbies';
import { MinuteWindow } from './windows';
import { localRoom, ownValue } from './localRoom';
import { clusterRefusal, isUnavailable, MatchmakeBudget } from '../ops/matchmakeGate';

/** Colyseus 0.15's matchmaking error codes (the client library reads them). */
const MATCHMAKE_INVALID_CRITERIA = 4211;
const MATCHMAKE_INVALID_ROOM_ID = 4212;
const MATCHMAKE_EXPIRED = 4214;

const CORS_HEADERS: Record<string, string> = {
  'Access-Control-Allow-Headers': 'Origin, X-Requested-With, Content-Type, Accept, Authorization',
  'Access-Control-Allow-Methods': 'OPTIONS, POST, GET',
  'Access-Control-Allow-Credentials': 'true',
  'Access-Control-Max-Age': '2592000',
};

const CREATING = new Set(['create', 'joinOrCreate']);
const POST_ROUTE = /^\/matchmake\/(joinOrCreate|create|join|joinById|reconnect)\/([A-Za-z0-9_-]{1,64})$/;
const LIST_ROUTE = /^\/matchmake\/?(?:([A-Za-z0-9_-]{1,64}))?$/;
/** Most rooms one listing answer names: a phone shows a handful; a flood of lobbies cannot make it megabytes. */
export const MAX_LISTED = 50;
const LISTING_CACHE_MS = 500;

/** Is this request Colyseus matchmaking? By its path alone, exactly: never a substring of the URL. */
export function isMatchmakePath(url: string | undefined): boolean {
  const path = pathOf(url);
  return path === '/matchmake' || path.startsWith('/matchmake/');
}

function pathOf(url: string | undefined): string {
  const raw = url ?? '';
  const q = raw.indexOf('?');
  return q < 0 ? raw : raw.slice(0, q);
}

interface Refusal {
  status: number;
  code: ErrorCode;
  field?: string;
}

/** A refusal we built (not anything else a promise may reject with: a thrown Error is a server error). */
function isRefusal(value: unknown): value is Refusal {
  const r = value as Refusal | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    !(r instanceof Error) &&
    Number.isInteger(r.status) &&
    typeof r.code === 'string' &&
    (Object.prototype.hasOwnProperty.call(ROOM_MESSAGES, r.code) || Object.prototype.hasOwnProperty.call(RULE_MESSAGES, r.code))
  );
}

/**
 * Colyseus 0.15's `/matchmake/` handling, in front of it: the route matched exactly, the
 * per-address limits counted before the body is read, the body bounded (Content-Length and
 * the stream), parsed with caps, and the options validated by `parseJoinOptions` before the
 * matchmaker may build a room or reserve a seat. Only then is the matchmaker called, with the
 * already-parsed options. Replies carry a stable code and a Korean sentence, never an internal
 * error text.
 */
export class MatchmakeGuard {
  private readonly creates: MinuteWindow;
  private readonly joins: MinuteWindow;
  private readonly trusted: ReadonlySet<string>;
  readonly lobbies: LobbyLedger;
  readonly pendingSeats: PendingSeats;
  /** Requests in flight: reconnects in a pool of their own (server/ops/matchmakeGate.ts). */
  private readonly budget: MatchmakeBudget;
  private listing: { at: number; key: string; body: string } | null = null;

  constructor(private readonly edge: EdgeConfig) {
    this.creates = new MinuteWindow(edge.createsPerMinute);
    this.joins = new MinuteWindow(edge.joinsPerMinute);
    this.trusted = new Set(edge.trustedProxies);
    this.lobbies = new LobbyLedger(edge.lobbiesPerAddress, edge.idleLobbySeconds * 1000);
    this.pendingSeats = new PendingSeats(edge.pendingSeatsPerAddress, edge.seatReservationSeconds * 1000);
    this.budget = new MatchmakeBudget(edge.maxPendingMatchmakes);
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    const headers: Record<string, string> = { ...CORS_HEADERS, 'Access-Control-Allow-Origin': corsOrigin(req) };
    if (matchMaker.isGracefullyShuttingDown) return this.refuse(req, res, headers, { status: 503, code: 'SERVER_SHUTDOWN' });
    const path = pathOf(req.url);
    if (req.method === 'OPTIONS') {
      res.writeHead(204, headers);
      return void res.end();
    }
    if (req.method === 'GET') {
      const list = LIST_ROUTE.exec(path);
      if (!list) return this.refuse(req, res, headers, { status: 404, code: 'BAD_REQUEST' });
      if (clusterRefusal(null, null)) return this.refuse(req, res, headers, { status: 503, code: 'SERVER_BUSY' });
      return void this.list(list[1] ?? '', req, res, headers);
    }
    const route = req.method === 'POST' ? POST_ROUTE.exec(path) : null;
    if (!route) return this.refuse(req, res, headers, { status: req.method === 'POST' ? 404 : 405, code: 'BAD_REQUEST' });
    const [, method, target] = route;
    if (method !== 'joinById' && method !== 'reconnect' && target !== ROOM_NAME)
      return this.refuse(req, res, headers, { status: 404, code: 'BAD_REQUEST' });

    const address = clientAddress(req, this.trusted);
    // Redis away: at once, not after ioredis's queue gave up (server/ops/matchmakeGate.ts).
    if (clusterRefusal(method, target)) return this.refuse(req, res, headers, { status: 503, code: 'SERVER_BUSY' });
    // No drain check here: a draining process still places creates on the others (server/ops/scale.ts); the room refuses one placed here.
    if (this.budget.full(method)) return this.refuse(req, res, headers, { status: 503, code: 'SERVER_BUSY' });
    if (method === 'create' && !this.creates.take(address))
      return this.refuse(req, res, headers, { status: 429, code: 'TOO_MANY_REQUESTS' });
    if (method !== 'create' && !this.joins.take(address)) return this.refuse(req, res, headers, { status: 429, code: 'TOO_MANY_REQUESTS' });
    if (CREATING.has(method) && !this.lobbies.mayOpen(address))
      return this.refuse(req, res, headers, { status: 429, code: 'TOO_MANY_LOBBIES' });
    // Seats reserved and never used: one address cannot hold more than a few at once.
    if (method !== 'reconnect' && !this.pendingSeats.mayReserve(address))
      return this.refuse(req, res, headers, { status: 429, code: 'TOO_MANY_REQUESTS' });

    const declared = Number(req.headers['content-length'] ?? 0);
    if (!Number.isFinite(declared) || declared > this.edge.maxBodyBytes)
      return this.refuse(req, res, headers, { status: 413, code: 'PAYLOAD_TOO_LARGE' });

    const release = this.budget.take(method);
    let settled = false;
    const done = () => {
      if (!settled) {
        settled = true;
        release();
      }
    };
    res.once('close', done);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > this.edge.maxBodyBytes) {
        done();
        return this.refuse(req, res, headers, { status: 413, code: 'PAYLOAD_TOO_LARGE' });
      }
      chunks.push(chunk);
    });
    req.on('error', done);
    req.on('end', () => {
      if (settled) return;
      const body = Buffer.concat(chunks, size).toString('utf8');
      this.matchmake(method, target, body, address, req)
        .then(
          (reply) => send(res, 200, headers, reply),
          (outcome: unknown) => {
            if (outcome instanceof FixedReply) return send(res, 200, headers, { code: outcome.code, error: outcome.error });
            if (isRefusal(outcome)) return this.refuse(req, res, headers, outcome);
            // Anything else is our failure: answered at once as one, never passed on as a refusal.
            edgeFailed('matchmake', outcome);
            this.refuse(req, res, headers, { status: 500, code: 'SERVER_ERROR' });
          },
        )
        .finally(done);
    });
  }

  private async matchmake(method: string, target: string, body: string, address: string, req: IncomingMessage): Promise<unknown> {
    const parsed = parseBoundedJson(body.trim() === '' ? '{}' : body);
    if (!parsed.ok) throw { status: 400, code: parsed.tooBig ? 'PAYLOAD_TOO_LARGE' : 'BAD_OPTIONS' } satisfies Refusal;
    if (!isPlain(parsed.value)) throw { status: 400, code: 'BAD_OPTIONS' } satisfies Refusal;
    let options: Record<string, unknown>;
    let spectator = false;
    if (method === 'reconnect') {
      const token = isPlain(parsed.value) ? (parsed.value as Record<string, unknown>).reconnectionToken : undefined;
      if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(token) || Object.keys(parsed.value as object).length !== 1)
        throw { status: 400, code: 'BAD_REQUEST' } satisfies Refusal;
      options = { reconnectionToken: token };
    } else {
      const join = parseJoinOptions(parsed.value);
      if (!join.ok) throw { status: 400, code: join.code, field: join.field } satisfies Refusal;
      if (CREATING.has(method) && join.join.spectator) throw { status: 400, code: 'SPECTATOR_CANNOT_CREATE' } satisfies Refusal;
      spectator = join.join.spectator;
      options = parsed.value as Record<string, unknown>;
    }
    const authorization = req.headers.authorization;
    const token = typeof authorization === 'string' && authorization.startsWith('Bearer ') ? authorization.slice(7) : undefined;
    try {
      const reservation = (await (
        matchMaker as unknown as Record<string, (name: string, options: unknown, auth: unknown) => Promise<unknown>>
      )[method](target, options, { token, request: req })) as { sessionId: string; room: { roomId: string; processId?: string } };
      if (method !== 'reconnect') this.pendingSeats.reserved(address, reservation);
      // joinOrCreate that found a room joined it; only a fresh room (its first seat) is this address's lobby.
      if (method === 'create' || (method === 'joinOrCreate' && (reservation.room as { clients?: number }).clients === 1))
        this.lobbies.opened(address, reservation.room);
      return reservation;
    } catch (error) {
      throw matchmakerRefusal(error, spectator, method === 'joinById' ? localSeatRefusal(target, options) : null);
    }
  }

  private async list(roomName: string, req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): Promise<void> {
    const now = Date.now();
    if (this.listing && this.listing.key === roomName && now - this.listing.at < LISTING_CACHE_MS)
      return send(res, 200, headers, this.listing.body);
    try {
      const conditions: Record<string, unknown> = { locked: false, private: false };
      if (roomName) conditions.name = roomName;
      const rooms = (await matchMaker.query(conditions)) as unknown as ListedRoom[];
      // A lobby whose creator never opened the socket has nobody to play with: not listed.
      const shown = rooms
        .filter((r) => !(r.metadata && typeof r.metadata === 'object' && (r.metadata as { seats?: number }).seats === 0))
        .slice(0, MAX_LISTED);
      const body = JSON.stringify(shown.map(listed));
      // Only a long listing is reused for a moment: a short one is cheap and must be fresh.
      this.listing = rooms.length > MAX_LISTED ? { at: now, key: roomName, body } : null;
      send(res, 200, headers, body);
    } catch (error) {
      if (isUnavailable(error)) return this.refuse(req, res, headers, { status: 503, code: 'SERVER_BUSY' });
      edgeFailed('listing', error);
      send(res, 500, headers, refusalBody('SERVER_ERROR'));
    }
  }

  private refuse(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>, refusal: Refusal): void {
    edgeRefused(refusal.code);
    if (res.headersSent || res.writableEnded) return;
    if (refusal.status === 413 || (req.method === 'POST' && !req.readableEnded)) lingeringClose(req, res);
    send(res, refusal.status, headers, refusalBody(refusal.code, refusal.field));
  }
}

/** How long, and how much of, a refused body is still read (and dropped) so the client can read the refusal. */
const LINGER_MS = 2000;
const LINGER_BYTES = 1024 * 1024;

/**
 * Answers with `Connection: close`, then reads and drops whatever the client still sends for up
 * to LINGER_MS before closing: closing on unread data makes the kernel reset the connection,
 * and the client may then never see the 413. Nothing read is kept.
 */
function lingeringClose(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('Connection', 'close');
  const socket = req.socket;
  let dropped = 0;
  req.removeAllListeners('data');
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) socket.destroy(); // a client that keeps sending is not waiting for an answer
  });
  req.resume();
  // Node would destroy the socket once the answer is written: only half-close it (FIN) instead.
  (socket as { destroySoon?: () => void }).destroySoon = () => void socket.end();
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
}

interface ListedRoom {
  roomId: string;
  name: string;
  clients: number;
  maxClients: number;
  metadata?: unknown;
  processId?: string;
  publicAddress?: string;
  createdAt?: unknown;
}

function listed(r: ListedRoom): ListedRoom {
  const out: ListedRoom = {
    roomId: r.roomId,
    name: r.name,
    clients: r.clients,
    maxClients: r.maxClients,
    metadata: r.metadata,
    processId: r.processId,
    createdAt: r.createdAt,
  };
  if (r.publicAddress) out.publicAddress = r.publicAddress;
  return out;
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: unknown): void {
  if (res.headersSent || res.writableEnded) return;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function messageFor(code: ErrorCode): string {
  return (
    ownValue(ROOM_MESSAGES as Record<string, string>, code) ??
    ownValue(RULE_MESSAGES as Record<string, string>, code) ??
    ROOM_MESSAGES.SERVER_ERROR
  );
}

/**
 * `{ code, message, error }`: `error` is what colyseus.js 0.15 turns into its exception text,
 * "CODE: 한국어" (the SDK splits it back, as for refusals from the room).
 */
export function refusalBody(code: ErrorCode, rawField?: string): { code: ErrorCode; message: string; error: string; field?: string } {
  const message = messageFor(code);
  // A field names the client's own key back only when it is short and plain.
  const field = rawField !== undefined && /^[A-Za-z0-9_]{1,32}$/.test(rawField) ? rawField : undefined;
  const body: { code: ErrorCode; message: string; error: string; field?: string } = {
    code,
    message,
    error: field ? `${code}: ${message} (${field})` : `${code}: ${message}`,
  };
  if (field) body.field = field;
  return body;
}

/**
 * What the matchmaker threw, as a refusal a client may see. The room's own refusals already
 * read "CODE: 한국어"; Colyseus's known outcomes keep their numeric code with a fixed text;
 * anything else is SERVER_ERROR (and counted), whatever its message said.
 */
export function matchmakerRefusal(error: unknown, spectator: boolean, why: ErrorCode | null = null): Refusal | FixedReply {
  // Redis or another process did not answer (server/ops/matchmakeGate.ts): retry, not a server error.
  if (isUnavailable(error)) return { status: 503, code: 'SERVER_BUSY' };
  const e = error as { code?: unknown; message?: unknown; name?: unknown };
  const text = typeof e?.message === 'string' ? e.message : '';
  const ours = /^([A-Z][A-Z_]+): /.exec(text);
  if (ours && Object.prototype.hasOwnProperty.call(ROOM_MESSAGES, ours[1])) return { status: 200, code: ours[1] as ErrorCode };
  if (ours && Object.prototype.hasOwnProperty.call(RULE_MESSAGES, ours[1])) {
    const field = /\(([A-Za-z]{1,32})\)$/.exec(text)?.[1];
    return { status: 200, code: ours[1] as ErrorCode, field };
  }
  // Colyseus's SeatReservationError (not exported by the 0.15 package): "<roomId> is already full."
  if (/ is already full\.$/.test(text) || / is locked$/.test(text))
    return { status: 200, code: why ?? (spectator ? 'SPECTATORS_FULL' : 'ROOM_FULL') };
  if (e?.code === MATCHMAKE_INVALID_ROOM_ID) return new FixedReply(MATCHMAKE_INVALID_ROOM_ID, 'room not found');
  if (e?.code === MATCHMAKE_EXPIRED) return new FixedReply(MATCHMAKE_EXPIRED, 'reconnection expired');
  if (e?.code === MATCHMAKE_INVALID_CRITERIA) return new FixedReply(MATCHMAKE_INVALID_CRITERIA, 'no rooms found');
  edgeFailed('matchmake', error);
  return { status: 500, code: 'SERVER_ERROR' };
}

/** Colyseus's own outcomes, answered as Colyseus did (HTTP 200, numeric code) with a fixed text of ours. */
export class FixedReply {
  constructor(
    readonly code: number,
    readonly error: string,
  ) {}
}

/** Why a room of this process refused a seat (LATE_JOIN, ROOM_FULL, ...); null for a room elsewhere. */
function localSeatRefusal(roomId: string, options: unknown): ErrorCode | null {
  const room = localRoom<SeatedRoom>(roomId);
  return room ? seatRefusal(room, options) : null;
}

function corsOrigin(req: IncomingMessage): string {
  const origin = req.headers.origin;
  return typeof origin === 'string' && origin.length < 300 && !/[\r\n]/.test(origin) ? origin : '*';
}

function isPlain(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
