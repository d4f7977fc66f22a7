import type { IncomingMessage, ServerResponse } from 'node:http';
import { matchMaker } from 'colyseus';
import type { EdgeConfig } from '../base/config';
import {
  ErrorCode,
  isOpaqueId,
  isShortName,
  normalizeRoomCode,
  parseRefusalText,
  refusalText,
  ROOM_MESSAGES,
  ROOM_NAME,
} from '../protocol';
import { RULE_MESSAGES } from '../rules';
import { parseJoinOptions } from '../room/joinOptions';
import { holdsSeat, SeatedRoom, seatRefusal, TokenRoom } from '../room/reservations';
import type { Identities } from '../identity/tokens';
import type { Identity } from '../identity/types';
import { attachIdentity } from '../identity/roomAuth';
import { reconnectRefusal, seatBack } from '../room/seats';
import { clientAddress } from './clientAddress';
import { edgeRefused, edgeFailed } from './edgeMetrics';
import { parseBoundedJson } from './boundedJson';
import { CreateTicket, EdgeLimits, LimitCode } from './limits';
import { clusterRefusal, isUnavailable, MatchmakeBudget } from './matchmakeGate';
import { localRoom, ownValue } from '../colyseus/localRoom';
import { listingById } from '../colyseus/matchmaker';
import { isLockedRoom, isRefusedSeat } from '../colyseus/errorTexts';
import { MATCHMAKE_CODES, MATCHMAKE_INVALID_ROOM_ID } from '../colyseus/client';
import { hasJsonBodyOrNone, OriginPolicy } from './origins';

/** Colyseus 0.15's matchmaking error codes (the client library reads them): server/colyseus/client.ts. */
const { INVALID_CRITERIA: MATCHMAKE_INVALID_CRITERIA, EXPIRED: MATCHMAKE_EXPIRED } = MATCHMAKE_CODES;

const CREATING: ReadonlySet<string> = new Set(['create', 'joinOrCreate']);
/** joinById takes a room code as typed (spaces, dashes, percent-encoded): checked by roomIdOf. */
const POST_ROUTE = /^\/matchmake\/(joinOrCreate|create|join|joinById|reconnect)\/([^/?#]{0,192})$/;
/** A room id as Colyseus makes them, or a 6-digit room code. */
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

/** What a matchmaking request may become once counted: joinOrCreate past its creates only joins. */
type Mode = 'create' | 'join' | 'joinById' | 'joinOrCreate' | 'reconnect';

/** A client that went away while its body was being read: nothing to answer. */
const ABORTED = Symbol('aborted');

/**
 * Colyseus 0.15's `/matchmake/` handling, in front of it: the route matched exactly; the bearer
 * token verified and the Identity known before anything else (server/identity/); the limits that
 * count people checked before the body is read; the body bounded (Content-Length and the
 * stream), parsed with caps, and the options validated by `parseJoinOptions` before the
 * matchmaker may build a room or reserve a seat. Only then is the matchmaker called, with the
 * already-parsed options and the Identity (never the token). Replies carry a stable code and a
 * Korean sentence, never an internal error text.
 */
export class MatchmakeGuard {
  private readonly trusted: ReadonlySet<string>;
  readonly limits: EdgeLimits;
  /** Requests in flight: reconnects in a pool of their own (server/http/matchmakeGate.ts). */
  private readonly budget: MatchmakeBudget;
  /** Which browser pages may call (server/http/origins.ts); the guest routes share it. */
  readonly origins: OriginPolicy;
  private listing: { at: number; key: string; body: string } | null = null;

  constructor(
    private readonly edge: EdgeConfig,
    readonly identities: Identities,
  ) {
    this.trusted = new Set(edge.trustedProxies);
    this.limits = new EdgeLimits(edge);
    this.budget = new MatchmakeBudget(edge.maxPendingMatchmakes);
    this.origins = new OriginPolicy(edge.allowedOrigins, edge.trustedProxies);
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    const headers = this.origins.cors(req, 'OPTIONS, POST, GET');
    // A foreign page's request, or a body a page could send without asking (text/plain, a form):
    // refused before anything below counts, reserves or reads it.
    if (req.method === 'POST' && !hasJsonBodyOrNone(req))
      return this.refuse(req, res, headers, { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    if (!this.origins.allows(req)) return this.refuse(req, res, headers, { status: 403, code: 'FORBIDDEN_ORIGIN' });
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
      return void this.listFor(list[1] ?? '', req, res, headers).catch((error: unknown) => {
        edgeFailed('listing', error);
        this.refuse(req, res, headers, { status: 500, code: 'SERVER_ERROR' });
      });
    }
    const route = req.method === 'POST' ? POST_ROUTE.exec(path) : null;
    if (!route) return this.refuse(req, res, headers, { status: req.method === 'POST' ? 404 : 405, code: 'BAD_REQUEST' });
    const method = route[1] as Mode;
    const target = route[2];
    if (method === 'reconnect' ? !isOpaqueId(target) : method !== 'joinById' && target !== ROOM_NAME)
      return this.refuse(req, res, headers, { status: 404, code: 'BAD_REQUEST' });

    const address = clientAddress(req, this.trusted);
    // Redis away: at once, not after ioredis's queue gave up (server/http/matchmakeGate.ts).
    if (clusterRefusal(method, method === 'joinById' ? roomIdOf(target) : target))
      return this.refuse(req, res, headers, { status: 503, code: 'SERVER_BUSY' });
    // No drain check here: a draining process still places creates on the others (server/ops/scale.ts); the room refuses one placed here.
    if (this.budget.full(method)) return this.refuse(req, res, headers, { status: 503, code: 'SERVER_BUSY' });
    const release = this.budget.take(method);
    let settled = false;
    const done = () => {
      if (!settled) {
        settled = true;
        release();
      }
    };
    res.once('close', done);
    this.serve(req, res, method, target, address)
      .then(
        (reply) => send(res, 200, headers, reply),
        (outcome: unknown) => {
          if (outcome === ABORTED) return;
          if (outcome instanceof FixedReply) return send(res, 200, headers, { code: outcome.code, error: outcome.error });
          if (isRefusal(outcome)) return this.refuse(req, res, headers, outcome);
          // Anything else is our failure: answered at once as one, never passed on as a refusal.
          edgeFailed('matchmake', outcome);
          this.refuse(req, res, headers, { status: 500, code: 'SERVER_ERROR' });
        },
      )
      .finally(done);
  }

  /** Who, how many, what: in that order, each step before anything the next one costs. */
  private async serve(req: IncomingMessage, res: ServerResponse, method: Mode, target: string, address: string): Promise<unknown> {
    const verdict = await this.identities.identify(req.headers.authorization, address);
    if (!verdict.ok) throw { status: 401, code: verdict.code } satisfies Refusal;
    const who = verdict.identity;
    attachIdentity(req, who);

    const roomId = method === 'joinById' ? roomIdOf(target) : target;
    const { mode, cannotCreate, joinCharged, ticket } = await this.admit(method, roomId, who);
    try {
      return await this.serveAdmitted(req, res, method, mode, roomId, who, cannotCreate, joinCharged, ticket);
    } finally {
      // Whatever ended the request before the matchmaker made a room: the lobby place is free again.
      ticket?.release();
    }
  }

  private async serveAdmitted(
    req: IncomingMessage,
    res: ServerResponse,
    method: Mode,
    mode: Mode,
    roomId: string | null,
    who: Identity,
    cannotCreate: LimitCode | undefined,
    joinCharged: boolean | undefined,
    ticket: CreateTicket | undefined,
  ): Promise<unknown> {
    if (method === 'joinById' && roomId === null) {
      this.limits.wrongCode(who);
      throw { status: 404, code: 'ROOM_NOT_FOUND' } satisfies Refusal;
    }

    const declared = Number(req.headers['content-length'] ?? 0);
    if (!Number.isFinite(declared) || declared > this.edge.maxBodyBytes) throw { status: 413, code: 'PAYLOAD_TOO_LARGE' } satisfies Refusal;
    const body = await readBody(req, res, this.edge.maxBodyBytes);
    const { options, spectator } = parseOptions(method, body, who);
    // A seat belongs to its identity (the room's side: server/room/seats.ts). A joinById of the
    // identity's own seat is that seat back, a reconnection; a kicked player is refused here.
    if (method === 'joinById') {
      const back = await seatBack(roomId!, options, who).catch(busyWhenUnreachable);
      if (back.kind === 'refused') throw { status: refusedStatus(back.code), code: back.code } satisfies Refusal;
      if (back.kind === 'reclaim') {
        // Only what was charged is given back: a seat taken back past the limit was never counted.
        if (joinCharged) this.limits.refundJoin(who);
        return back.reservation;
      }
    }
    if (method === 'reconnect') {
      const refused = await reconnectRefusal(roomId!, options.reconnectionToken as string, who).catch(busyWhenUnreachable);
      // Another identity's seat: told nothing but "expired".
      if (refused === 'NOT_YOUR_SEAT') throw new FixedReply(MATCHMAKE_EXPIRED, 'reconnection expired');
      if (refused) throw { status: refusedStatus(refused), code: refused } satisfies Refusal;
    }
    return this.matchmake(mode, cannotCreate, roomId!, options, spectator, who, req, ticket);
  }

  /**
   * The limits for this method, checked before the body is read: a refusal here costs nothing
   * and charges nothing. Returns what the request will do (a joinOrCreate past its creates only
   * joins). A reconnection, and an identity taking its seat back, are never refused for rate.
   */
  private async admit(
    method: Mode,
    roomId: string | null,
    who: Identity,
  ): Promise<{ mode: Mode; cannotCreate?: LimitCode; joinCharged?: boolean; ticket?: CreateTicket }> {
    switch (method) {
      case 'reconnect':
        return { mode: method };
      case 'create': {
        const ticket = await this.limits.takeCreate(who);
        if (typeof ticket === 'string') throw { status: 429, code: ticket } satisfies Refusal;
        return { mode: method, ticket };
      }
      case 'joinOrCreate': {
        // joinOrCreate that may create is charged as a create (refunded if it joined after all);
        // past its creates it may still join a room, and nothing else.
        const ticket = await this.limits.takeCreate(who);
        if (typeof ticket !== 'string') return { mode: method, ticket };
        const cannotCreate = ticket;
        const refused = this.limits.joinRefusal(who);
        if (refused) throw { status: 429, code: refused } satisfies Refusal;
        this.limits.chargeJoin(who);
        return { mode: 'join', cannotCreate };
      }
      case 'join': {
        const refused = this.limits.joinRefusal(who);
        if (refused) throw { status: 429, code: refused } satisfies Refusal;
        this.limits.chargeJoin(who);
        return { mode: method };
      }
      case 'joinById': {
        const refused = this.limits.guessRefusal(who) ?? this.limits.joinRefusal(who);
        if (refused && !(roomId !== null && (await this.takesSeatBack(roomId, who))))
          throw { status: 429, code: refused } satisfies Refusal;
        if (!refused) this.limits.chargeJoin(who);
        return { mode: method, joinCharged: !refused };
      }
    }
  }

  private async matchmake(
    mode: Mode,
    cannotCreate: LimitCode | undefined,
    roomId: string,
    options: Record<string, unknown>,
    spectator: boolean,
    who: Identity,
    req: IncomingMessage,
    ticket: CreateTicket | undefined,
  ): Promise<unknown> {
    let reservation: Reservation;
    let created = mode === 'create';
    try {
      // The token stays here: the room class's static onAuth reads the Identity off the request.
      const auth = { token: undefined, request: req };
      if (mode === 'joinOrCreate') ({ reservation, created } = await joinOrCreate(options, auth));
      else {
        const call = matchMaker as unknown as Record<Mode, (target: string, options: unknown, auth: unknown) => Promise<Reservation>>;
        reservation = await call[mode](mode === 'joinById' || mode === 'reconnect' ? roomId : ROOM_NAME, options, auth);
      }
    } catch (error) {
      throw await this.failed(error, mode, cannotCreate, roomId, options, spectator, who);
    }
    if (mode === 'reconnect') return reservation;
    this.limits.reserved(who, reservation);
    // Only a room this request made is a lobby of this person; a joinOrCreate that joined pays a join.
    if (created) ticket?.opened(reservation.room);
    else if (mode === 'joinOrCreate') {
      ticket?.joined();
      this.limits.chargeJoin(who);
    }
    return reservation;
  }

  /** What a failed matchmaker call answers, with the wrong codes counted. */
  private async failed(
    error: unknown,
    mode: Mode,
    cannotCreate: LimitCode | undefined,
    roomId: string,
    options: Record<string, unknown>,
    spectator: boolean,
    who: Identity,
  ): Promise<unknown> {
    if (isUnavailable(error)) return { status: 503, code: 'SERVER_BUSY' } satisfies Refusal;
    const e = error as { code?: unknown; message?: unknown } | null;
    const notFound = e?.code === MATCHMAKE_INVALID_ROOM_ID && !isLockedRoom(error);
    if (mode === 'joinById' && notFound) {
      this.limits.wrongCode(who);
      return { status: 404, code: 'ROOM_NOT_FOUND' } satisfies Refusal;
    }
    if (mode === 'reconnect' && e?.code === MATCHMAKE_EXPIRED) {
      // The room exists but holds no seat for this token. "Expired" only when the room handed the
      // token out (a client whose drop is not noticed yet, or who left: its seat is gone); a
      // made-up token gets the answer for no room at all, so it never tells whether a code is a room.
      if (!(await this.knownToken(roomId, options.reconnectionToken))) return new FixedReply(MATCHMAKE_INVALID_ROOM_ID, 'room not found');
    }
    // A joinOrCreate that could only join found nothing to join: the reason it could not create.
    if (cannotCreate && e?.code === MATCHMAKE_INVALID_CRITERIA) return { status: 429, code: cannotCreate } satisfies Refusal;
    return matchmakerRefusal(error, spectator, mode === 'joinById' ? localSeatRefusal(roomId, options, who) : null);
  }

  /** Did the room (here or on its process) hand out this reconnection token (TokenRoom)? */
  private async knownToken(roomId: string, token: unknown): Promise<boolean> {
    if (typeof token !== 'string') return false;
    const room = localRoom<TokenRoom>(roomId);
    if (room) return room.hasKnownToken(token) === true;
    try {
      return (await matchMaker.remoteRoomCall(roomId, 'hasKnownToken', [token], SEAT_CHECK_TIMEOUT_MS)) === true;
    } catch {
      return false;
    }
  }

  /**
   * Is this identity coming back to a seat it holds in the room (PROTOCOL v3: never refused for
   * rate)? Asked only of a request a limit would refuse. A room elsewhere is looked up in the
   * listing first, so a guesser's random codes cost no call to another process.
   */
  private async takesSeatBack(roomId: string, who: Identity): Promise<boolean> {
    if (who.key === null) return false;
    const room = localRoom<SeatedRoom>(roomId);
    if (room) return holdsSeat(room, who);
    try {
      if (!(await listingById(roomId))) return false;
      const seat = await matchMaker.remoteRoomCall(roomId, 'seatOfIdentity', [who.key], SEAT_CHECK_TIMEOUT_MS);
      return typeof seat === 'string';
    } catch {
      return false;
    }
  }

  /** In app mode the listing is for players too: a valid token, as for matchmaking (guest mode: anyone). */
  private async listFor(roomName: string, req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): Promise<void> {
    if (this.identities.mode === 'app') {
      const verdict = await this.identities.identify(req.headers.authorization, clientAddress(req, this.trusted));
      if (!verdict.ok) return this.refuse(req, res, headers, { status: 401, code: verdict.code });
    }
    return this.list(roomName, req, res, headers);
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
  const field = isShortName(rawField) ? rawField : undefined;
  const body: { code: ErrorCode; message: string; error: string; field?: string } = {
    code,
    message,
    error: refusalText(code, message, field),
  };
  if (field) body.field = field;
  return body;
}

/**
 * The seat checks ask the room's process before anything is reserved. A process that is stalled,
 * dead and not yet buried, or a Redis that does not answer, is a reason to try again (SERVER_BUSY,
 * as the matchmaker's own call would answer a moment later), never a server error.
 */
function busyWhenUnreachable(error: unknown): never {
  if (isUnavailable(error)) throw { status: 503, code: 'SERVER_BUSY' } satisfies Refusal;
  throw error;
}

/**
 * What the matchmaker threw, as a refusal a client may see. The room's own refusals already
 * read "CODE: 한국어"; Colyseus's known outcomes keep their numeric code with a fixed text;
 * anything else is SERVER_ERROR (and counted), whatever its message said.
 */
export function matchmakerRefusal(error: unknown, spectator: boolean, why: ErrorCode | null = null): Refusal | FixedReply {
  // Redis or another process did not answer (server/http/matchmakeGate.ts): retry, not a server error.
  if (isUnavailable(error)) return { status: 503, code: 'SERVER_BUSY' };
  const e = error as { code?: unknown; message?: unknown; name?: unknown };
  const text = typeof e?.message === 'string' ? e.message : '';
  // The room's own refusals, as server/protocol.ts writes them ("CODE: 한국어 (field)").
  const ours = parseRefusalText(text);
  if (ours) return { status: 200, ...ours };
  if (isRefusedSeat(error)) return { status: 200, code: why ?? (spectator ? 'SPECTATORS_FULL' : 'ROOM_FULL') };
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
function localSeatRefusal(roomId: string, options: unknown, who: Identity): ErrorCode | null {
  const room = localRoom<SeatedRoom>(roomId);
  return room ? seatRefusal(room, options, who) : null;
}

/** The room's own refusals before a seat (KICKED): 403, as a refusal the client must not retry. */
function refusedStatus(code: ErrorCode): number {
  return code === 'ALREADY_SEATED' ? 409 : 403;
}

/** How long a seat check may wait on the room's process (only ever for a request a limit would refuse). */
const SEAT_CHECK_TIMEOUT_MS = 500;

/**
 * The room a joinById names: the 6-digit code in any form a child types (spaces, dashes,
 * percent-encoded in the URL), or a Colyseus id as before room codes; null when it names none
 * (empty, spaced, undecodable): that is ROOM_NOT_FOUND, never BAD_REQUEST (PROTOCOL v3).
 */
export function roomIdOf(target: string): string | null {
  let text: string;
  try {
    text = decodeURIComponent(target);
  } catch {
    return null;
  }
  return normalizeRoomCode(text) ?? (isOpaqueId(text) ? text : null);
}

/** Reads the (already size-checked) body, refusing it with 413 as soon as the stream passes `max`. */
function readBody(req: IncomingMessage, res: ServerResponse, max: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (outcome: unknown) => {
      req.removeListener('data', onData);
      reject(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) return fail({ status: 413, code: 'PAYLOAD_TOO_LARGE' } satisfies Refusal);
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks, size).toString('utf8')));
    req.once('error', () => fail(ABORTED));
    res.once('close', () => fail(ABORTED));
  });
}

/** The options the matchmaker is given: parsed with caps, validated, the token's nickname over the client's. */
function parseOptions(method: Mode, body: string, who: Identity): { options: Record<string, unknown>; spectator: boolean } {
  const parsed = parseBoundedJson(body.trim() === '' ? '{}' : body);
  if (!parsed.ok) throw { status: 400, code: parsed.tooBig ? 'PAYLOAD_TOO_LARGE' : 'BAD_OPTIONS' } satisfies Refusal;
  if (!isPlain(parsed.value)) throw { status: 400, code: 'BAD_OPTIONS' } satisfies Refusal;
  const value = parsed.value as Record<string, unknown>;
  if (method === 'reconnect') {
    const token = ownValue(value, 'reconnectionToken');
    if (typeof token !== 'string' || !isOpaqueId(token) || Object.keys(value).length !== 1)
      throw { status: 400, code: 'BAD_REQUEST' } satisfies Refusal;
    return { options: { reconnectionToken: token }, spectator: false };
  }
  // PROTOCOL v3: an app token's nickname is the player's; the join option's is ignored (and may be absent).
  const options = who.nickname !== undefined ? { ...value, nickname: who.nickname } : value;
  const join = parseJoinOptions(options);
  if (!join.ok) throw { status: 400, code: join.code, field: join.field } satisfies Refusal;
  if (CREATING.has(method) && join.join.spectator) throw { status: 400, code: 'SPECTATOR_CANNOT_CREATE' } satisfies Refusal;
  return { options, spectator: join.join.spectator };
}

function isPlain(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

type Reservation = { sessionId: string; room: { roomId: string; processId?: string } };
/** A quick match whose room filled or locked between the listing and the seat looks again this often before it makes one. */
const JOIN_TRIES = 3;

/**
 * Colyseus's joinOrCreate, from its documented `join` and `create`, so the answer says which it
 * did: in Redis mode the reservation's room is a copy (a listing read before the seat, or a
 * remote create's answer), whose client count tells nothing about who made it.
 */
async function joinOrCreate(
  options: Record<string, unknown>,
  auth: matchMaker.AuthOptions,
): Promise<{ reservation: Reservation; created: boolean }> {
  for (let tries = 1; tries <= JOIN_TRIES; tries++) {
    try {
      return { reservation: await matchMaker.join(ROOM_NAME, options, auth), created: false };
    } catch (error) {
      if ((error as { code?: unknown })?.code === MATCHMAKE_INVALID_CRITERIA) break;
      if (!isRefusedSeat(error)) throw error;
    }
  }
  return { reservation: await matchMaker.create(ROOM_NAME, options, auth), created: true };
}
