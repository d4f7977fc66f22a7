// Lint for server, SDK, web, load tools and tests: typescript-eslint's recommended rules plus the
// project's own walls (pure rules; no client id looked up in a plain object by accident).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const FOCUSED_TESTS = [
  {
    selector: "CallExpression[callee.object.name='describe'][callee.property.name=/^(only|skip)$/]",
    message: 'No focused or skipped tests.',
  },
  {
    selector: "CallExpression[callee.object.name='it'][callee.property.name=/^(only|skip)$/]",
    message: 'No focused or skipped tests.',
  },
];

// The one door to Colyseus (docs/architecture.md): what reaches past the documented API of colyseus,
// @colyseus/*, ws or colyseus.js lives in server/colyseus/, where each file names the version it was
// written for and what breaks, and server/colyseus/versions.ts refuses other versions at start.
// Chosen from the inventory of issue 33: private members, the Redis names, the error texts.
const door = (what, where) =>
  `${what}: only behind the one door, server/colyseus/${where ? ` (${where})` : ''}; use or add a function there (docs/architecture.md).`;
const PRIVATE_MEMBERS = [
  ...['$changes', '$filterState', '$indexes', '_definition', 'tryEncodeTypeId', '_serializer'],
  ...['_reconnectionToken', 'reservedSeats', 'reservedSeatTimeouts', '_onLeave', '_reserveSeat', '_decrementClientCount'],
  ...['_autoDisposeTimeout', '_internalState', 'onMessageHandlers', 'onleave', 'pingCount', '_client', '_socket', '_receiver'],
];
const PRIVATE_NAME = `/^(${PRIVATE_MEMBERS.map((name) => name.replace('$', '\\$')).join('|')})$/`;
const BEHIND_THE_DOOR = [
  { selector: `MemberExpression[property.name=${PRIVATE_NAME}]`, message: door('A private member of the library') },
  { selector: `MemberExpression[computed=true][property.value=${PRIVATE_NAME}]`, message: door('A private member of the library') },
  {
    selector:
      "MemberExpression[property.name='ws']:matches([object.property.name='transport'], [object.expression.property.name='transport'])",
    message: door("colyseus.js's socket", 'client.ts: rawSocketOf'),
  },
  {
    selector:
      "MemberExpression[property.name='state']:matches([object.property.name='serializer'], [object.expression.property.name='serializer'])",
    message: door("colyseus.js's decoded state", 'client.ts'),
  },
  {
    selector: "MemberExpression[property.name='save']:matches([object.name='listing'], [object.property.name='listing'])",
    message: door('Re-publishing a listing', 'matchmaker.ts: republishListing'),
  },
  {
    selector: "MemberExpression[object.name='matchMaker'][property.name=/^(driver|stats)$/]",
    message: door("The matchmaker's driver and stats", 'matchmaker.ts, stats.ts'),
  },
  {
    selector: "MemberExpression[property.name=/^(local|fetchAll)$/]:matches([object.name='stats'], [object.property.name='stats'])",
    message: door("Colyseus's load figures", 'stats.ts'),
  },
  {
    selector: "CallExpression[callee.property.name='removeAllListeners'][arguments.0.value='request']",
    message: door("Taking the HTTP server's requests from Colyseus", 'matchmaker.ts: takeOverRequests'),
  },
  { selector: 'Literal[value=/^(roomcount|roomcaches|colyseus:nodes)$/]', message: door("Colyseus's Redis names", 'redisKeys.ts') },
  {
    selector: 'Literal[regex.pattern=/is locked|already full|timed out|is not available|ipc_timeout|with args/]',
    message: door("Colyseus's error texts", 'errorTexts.ts, client.ts'),
  },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'build/', 'data/', 'test-artifacts/', 'web/art/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-constant-condition': ['error', { checkLoops: false }],
      eqeqeq: ['error', 'always'],
      'no-restricted-syntax': ['error', ...FOCUSED_TESTS, ...BEHIND_THE_DOOR],
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: '@colyseus/monitor', message: door('It patches Room.prototype on import', 'monitor.ts') }],
          patterns: [
            {
              group: ['colyseus/*', '@colyseus/*/*', 'colyseus.js/*', '!colyseus.js/package.json'],
              message: door("A library's own files"),
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/colyseus/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...FOCUSED_TESTS], 'no-restricted-imports': 'off' },
  },
  {
    // Tests that must reach the internals they check or fake. The door's own tests: test/colyseus/
    // (the patch writer, the lean filter state) and test/transport/ (heartbeat, write coalescing:
    // fake and real ws sockets). Elsewhere: the room's handler table (dispatch), a listing whose
    // save fails (lobby), heartbeat's fake sockets (ticking), the TCP socket under a ws to stall or
    // cut it (pings, sdk/support), the driver's connection replaced by a fake (ops/cluster),
    // Colyseus's error texts as they reach the logs (ops/logs), a listing whose save never answers
    // (ops/resync), a seat reserved as the matchmaker
    // does (support/identity), the options' schema definition (views/options).
    files: [
      'test/colyseus/**/*.ts',
      'test/transport/**/*.ts',
      'test/room/dispatch.test.ts',
      'test/room/lobby.test.ts',
      'test/room/ticking.test.ts',
      'test/http/pings.test.ts',
      'test/sdk/support.ts',
      'test/ops/cluster.test.ts',
      'test/ops/logs.test.ts',
      'test/ops/resync.test.ts',
      'test/support/identity.ts',
      'test/views/options.test.ts',
    ],
    rules: { 'no-restricted-syntax': ['error', ...FOCUSED_TESTS] },
  },

  {
    // A room looked up by a client-given id through matchMaker.getRoomById (a plain object) answers
    // `__proto__` with Object.prototype: server/colyseus/localRoom.ts is the one guarded lookup.
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'matchMaker',
          property: 'getRoomById',
          message: 'Use localRoom() (server/colyseus/localRoom.ts): ids can be "__proto__".',
        },
      ],
    },
  },
  {
    // The rules are pure: no clock, no Math.random, no Colyseus.
    files: ['server/rules/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'Every random choice goes through the game’s seeded PRNG.' },
        { object: 'Date', property: 'now', message: 'The rules have no clock.' },
      ],
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['colyseus', '@colyseus/*', 'node:*'], message: 'The rules import nothing from Colyseus or Node.' }] },
      ],
    },
  },
  {
    // Tests read untyped JSON replies and decoded messages field by field.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['web/src/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
