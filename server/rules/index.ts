// The pure rules of Cockroach Poker: no network, no clock; every random draw comes from the seeded PRNG.
export * from './kinds';
export * from './errors';
export * from './options';
export * from './rng';
export * from './types';
export * from './setup';
export * from './queries';
export * from './danger';
export * from './check';
export * from './apply';
export * from './timeout';
export * from './legal';
export * from './visibility';
export * from './view';
export * from './result';
export * from './replay';
export * from './match';
