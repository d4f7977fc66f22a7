// The pure rules of Cockroach Poker: no Colyseus, no clock, no Math.random.
export * from './kinds';
export * from './errors';
export * from './options';
export * from './rng';
export * from './types';
export * from './setup';
export * from './queries';
export * from './check';
export * from './apply';
export * from './timeout';
export * from './legal';
export * from './view';
export * from './result';
export * from './replay';
export * from './match';
