// Pure: what a browser or React Native app needs to check a game (the SDK's verifyGame).
export * from './sha256';
export * from './derive';
export * from './record';
export * from './verify';
export * from './canonical';
