export * from './types';
export * from './gameId';
export * from './config';
export * from './open';
export * from './writer';
export * from './retention';
export * from './records';
export * from './health';
