// @ts-check
// ESLint flat config. Layer boundaries follow the table in docs/ARCHITECTURE.md#layers; the engine's
// purity rules follow docs/ARCHITECTURE.md#keeping-the-engine-pure.
import { builtinModules } from 'node:module';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

const LAYERS = ['engine', 'views', 'scenarios', 'store', 'platform', 'ui', 'cli'];

/**
 * Import patterns that reach into a layer folder from anywhere in src/ (relative paths).
 * @param {string} layer
 */
const layerGroup = (layer) => [`**/${layer}`, `**/${layer}/**`];

/**
 * A `no-restricted-imports` rule for files in `from`: `allowed` layers may be imported,
 * `typesOnly` layers only with `import type`, every other layer not at all.
 * @param {string} from
 * @param {{ allowed: string[], typesOnly?: string[], packages?: { regex: string, message: string }[] }} policy
 */
function layerImports(from, { allowed, typesOnly = [], packages = [] }) {
  const forbidden = LAYERS.filter(
    (layer) => !allowed.includes(layer) && !typesOnly.includes(layer),
  );
  /** @type {import('eslint').Linter.RuleEntry} */
  const rule = [
    'error',
    {
      paths: from === 'cli' ? [] : nodeBuiltins(from),
      patterns: [
        ...packages,
        ...forbidden.map((layer) => ({
          group: layerGroup(layer),
          message: `${from}/ must not import ${layer}/ (docs/ARCHITECTURE.md#layers: imports point down only).`,
        })),
        ...typesOnly.map((layer) => ({
          group: layerGroup(layer),
          allowTypeImports: true,
          message: `${from}/ may import only types from ${layer}/ (use \`import type\`; docs/ARCHITECTURE.md#layers).`,
        })),
        ...(from === 'cli'
          ? []
          : [
              {
                group: ['node:*'],
                message: `${from}/ runs in the browser: Node built-ins belong in src/cli/ only.`,
              },
            ]),
      ],
    },
  ];
  return rule;
}

/** @param {string} from */
function nodeBuiltins(from) {
  return builtinModules
    .filter((name) => !name.startsWith('_'))
    .map((name) => ({
      name,
      message: `${from}/ runs in the browser: Node built-ins belong in src/cli/ only.`,
    }));
}

/**
 * Package bans as patterns, so subpaths count too (`react-dom/client`, `zustand/vanilla`).
 * @param {string[]} names @param {string} message
 */
const packageBan = (names, message) => ({
  regex: `^(${names.map((name) => name.replace(/[/.]/g, '\\$&')).join('|')})(/.*)?$`,
  message,
});
const noReact = [
  packageBan(['react', 'react-dom'], 'Only ui/ uses React; this layer is framework-free.'),
  packageBan(['zustand'], 'Only store/ uses zustand; this layer is framework-free.'),
];
const noMermaid = [
  packageBan(['mermaid'], 'Only platform/ loads mermaid (dynamically); views/ emit its text.'),
];

/** Node-only globals, banned in every layer that runs in the browser. */
const nodeGlobals = [
  'process',
  'Buffer',
  'global',
  'require',
  'module',
  '__dirname',
  '__filename',
].map((name) => ({ name, message: 'Browser code: Node globals belong in src/cli/ only.' }));

const clockMessage = "the engine is deterministic: use the engine's virtual clock (ctx.now)";
/** Syntax the engine must not use (its clock is the simulation's). */
const engineSyntax = [
  { selector: "NewExpression[callee.name='Date']", message: clockMessage },
  { selector: "CallExpression[callee.name='Date']", message: clockMessage },
];
/** A raw trace append (`trace.add(time, kind, actor, cause, …)`); Set and Map `add` take one argument. */
const rawTraceAdd = {
  selector: "CallExpression[callee.property.name='add'][arguments.length>=4]",
  message: 'append trace entries with a typed writer from engine/traceWriters (one per entry kind)',
};
/** A raw trace field write after an append (`trace.set(e, { txn })`): the writer takes the field. */
const rawTraceSet = {
  selector:
    "CallExpression[callee.property.name='set'][arguments.length=2][arguments.1.type='ObjectExpression']:matches([callee.object.property.name='trace'], [callee.object.name=/^(t|trace)$/])",
  message: "pass the entry's field to its typed writer from engine/traceWriters, not trace.set",
};
const rngMessage = 'the engine is deterministic: use the seeded rng in engine/core/rng';
const purityMessage = 'the engine is pure: no DOM, storage, network or logging';

export default defineConfig(
  {
    ignores: [
      'dist/**',
      'dist-cli/**',
      'node_modules/**',
      'playwright-report/**',
      'test-results/**',
      'coverage/**',
      'reports/**',
    ],
  },
  tseslint.configs.recommended,
  {
    rules: {
      // TypeScript (and checkJs for the .mjs scripts) reports undefined names better.
      'no-undef': 'off',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'separate-type-imports' },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Where React code may be: ui/ and the .tsx files (the entries, store/LabContext.tsx); every
    // other layer is banned from importing React (below). The recommended set's compiler-based
    // rules run the React Compiler's analysis over each file they see (~86 % of the lint's time
    // over all of src/), to no purpose on a file without a component or a hook.
    files: ['src/ui/**/*.{ts,tsx}', 'src/**/*.tsx'],
    ...reactHooks.configs.flat.recommended,
  },

  // ── Layer boundaries (docs/ARCHITECTURE.md#layers) ──────────────────────────────────────────────────
  {
    files: ['src/engine/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': layerImports('engine', {
        allowed: ['engine'],
        packages: [...noReact, ...noMermaid],
      }),
    },
  },
  ...['views', 'scenarios'].map((layer) => ({
    files: [`src/${layer}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': layerImports(layer, {
        allowed: ['engine', 'views', 'scenarios'],
        packages: [...noReact, ...noMermaid],
      }),
    },
  })),
  {
    files: ['src/store/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': layerImports('store', {
        allowed: ['engine', 'views', 'scenarios', 'store'],
        typesOnly: ['platform'],
        packages: noMermaid,
      }),
    },
  },
  {
    files: ['src/platform/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': layerImports('platform', {
        allowed: ['views', 'scenarios', 'platform'],
        typesOnly: ['engine'],
      }),
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': layerImports('ui', {
        allowed: ['views', 'scenarios', 'store', 'platform', 'ui'],
        typesOnly: ['engine'],
        packages: noMermaid,
      }),
    },
  },
  {
    files: ['src/cli/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': layerImports('cli', {
        allowed: ['engine', 'views', 'scenarios'],
        packages: [...noReact, ...noMermaid],
      }),
    },
  },
  {
    // Everything in src/ except the CLI runs in the browser (the engine in a worker too).
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/cli/**', 'src/engine/**'],
    rules: { 'no-restricted-globals': ['error', ...nodeGlobals] },
  },

  {
    // The CLI runs in Node. (tsconfig.node.json has the DOM lib for the e2e specs' sake.)
    files: ['src/cli/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'navigator', 'location', 'localStorage', 'sessionStorage'].map(
          (name) => ({ name, message: 'src/cli/ runs in Node: there is no DOM here.' }),
        ),
      ],
    },
  },

  // ── Engine purity (docs/ARCHITECTURE.md#keeping-the-engine-pure) ────────────────────────────────────────────────────────────
  {
    files: ['src/engine/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...nodeGlobals,
        { name: 'window', message: purityMessage },
        { name: 'self', message: purityMessage },
        { name: 'document', message: purityMessage },
        { name: 'navigator', message: purityMessage },
        { name: 'location', message: purityMessage },
        { name: 'localStorage', message: `${purityMessage}; persistence lives in platform/` },
        { name: 'sessionStorage', message: `${purityMessage}; persistence lives in platform/` },
        { name: 'indexedDB', message: `${purityMessage}; persistence lives in platform/` },
        { name: 'fetch', message: `${purityMessage}; I/O lives in platform/ or cli/` },
        { name: 'XMLHttpRequest', message: `${purityMessage}; I/O lives in platform/ or cli/` },
        { name: 'WebSocket', message: `${purityMessage}; I/O lives in platform/ or cli/` },
        { name: 'setTimeout', message: `${clockMessage}; schedule an event on the queue instead` },
        { name: 'setInterval', message: `${clockMessage}; schedule an event on the queue instead` },
        {
          name: 'setImmediate',
          message: `${clockMessage}; schedule an event on the queue instead`,
        },
        { name: 'clearTimeout', message: clockMessage },
        { name: 'clearInterval', message: clockMessage },
        { name: 'queueMicrotask', message: clockMessage },
        {
          name: 'requestAnimationFrame',
          message: `${clockMessage}; the frame loop is in platform/`,
        },
        {
          name: 'cancelAnimationFrame',
          message: `${clockMessage}; the frame loop is in platform/`,
        },
        { name: 'performance', message: clockMessage },
        { name: 'crypto', message: `${rngMessage}; ids come from counters in engine/core/ids` },
        {
          name: 'console',
          message: 'the engine must not log: record a trace entry (engine/trace) instead',
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: rngMessage },
        { object: 'Date', property: 'now', message: clockMessage },
        { object: 'performance', property: 'now', message: clockMessage },
        {
          object: 'crypto',
          property: 'randomUUID',
          message: `${rngMessage}; ids come from counters`,
        },
        { object: 'crypto', property: 'getRandomValues', message: rngMessage },
        { object: 'globalThis', message: purityMessage },
      ],
      'no-restricted-syntax': ['error', ...engineSyntax, rawTraceAdd, rawTraceSet],
    },
  },

  {
    // The kernel's message entry: its peer, arrival and transaction are set where the message is
    // routed (World.send, the hot path), after its typed append.
    files: ['src/engine/world.ts'],
    rules: { 'no-restricted-syntax': ['error', ...engineSyntax, rawTraceAdd] },
  },

  {
    // The trace writers are the one place that appends raw entries.
    files: ['src/engine/trace.ts', 'src/engine/traceWriters/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...engineSyntax] },
  },

  {
    // Tests run in Node under Vitest: they may read the environment (FC_SEED) and use timers.
    files: ['src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-globals': 'off',
      'no-restricted-properties': 'off',
      'no-restricted-syntax': 'off',
    },
  },
);
