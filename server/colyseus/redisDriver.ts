/**
 * @colyseus/redis-driver 0.15.6's `RedisDriver` reached past its API, for server/ops/healingDriver.ts
 * (which decides what the lookups answer). Its connection is `_client` (private); every listing
 * and quick match reads `getRooms(roomName)` (internal, build/index.js ~82), and `joinById`,
 * `reconnect` and room calls read `findOne({ roomId })`; both are replaced on the instance.
 * `createInstance` turns a stored listing back into the driver's own object (with `save`).
 * Breaks if the driver renames these or stops calling `getRooms` from `find`/`findOne`:
 * test/ops/cluster.test.ts ("recovers after a failed read", "leaves rooms of dead processes
 * out", "answers a join by id for a dead owner") fails; the version check (versions.ts) refuses
 * to start on any other version.
 */
import type Redis from 'ioredis';
import type { RedisDriver } from 'colyseus';

/** A listing as the driver keeps it (RoomData: a plain copy of what the owning process saved). */
export interface DriverListing {
  roomId?: string;
  name?: string;
  processId?: string;
}

interface DriverInternals {
  _client: Redis;
  getRooms(roomName?: string): Promise<DriverListing[]>;
  findOne(conditions: Record<string, unknown>): unknown;
  createInstance(initialValues: Record<string, unknown>): DriverListing;
}

const internals = (driver: RedisDriver) => driver as unknown as DriverInternals;

/** The driver's own Redis connection. */
export function driverConnection(driver: RedisDriver): Redis {
  return internals(driver)._client;
}

/** What a replacement may use of the stock driver. */
export interface StockDriver {
  /** The driver's Redis connection, as it was when the lookups were replaced. */
  client: Redis;
  /** The stock `findOne({ roomId })`. */
  findById(roomId: string): Promise<DriverListing | undefined>;
  /** The driver's listing object for one stored listing (its JSON as kept in `roomcaches`). */
  listingFrom(json: string): DriverListing;
}

export interface DriverLookups {
  /** Every listing, or those of one room type: what `query`, `join` and `joinOrCreate` read. */
  rooms(roomName: string | undefined): Promise<DriverListing[]>;
  /** One room by id: what `joinById`, `reconnect` and room calls read. */
  byId(roomId: string): Promise<DriverListing | undefined>;
}

/** Replaces the driver's two lookups on this instance (other `findOne` conditions go through `rooms`). */
export function replaceLookups(driver: RedisDriver, make: (stock: StockDriver) => DriverLookups): void {
  const inner = internals(driver);
  const stockFindOne = inner.findOne.bind(driver);
  const lookups = make({
    client: inner._client,
    findById: async (roomId) => (await stockFindOne({ roomId })) as DriverListing | undefined,
    listingFrom: (json) => inner.createInstance(JSON.parse(json)),
  });
  inner.getRooms = (roomName) => lookups.rooms(roomName);
  inner.findOne = (conditions) => (conditions.roomId === undefined ? stockFindOne(conditions) : lookups.byId(String(conditions.roomId)));
}
