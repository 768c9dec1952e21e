// Prints what GSD Core's `loop render-hooks POINT` reads besides the project,
// as one JSON document, for gsd's native answer (src/sdk/core/loop_hooks.rs):
// the canonical loop points in order; the capability registry's hooks by
// point (`byLoopPoint`, as the registry holds them); each capability's
// activation key (`null` where it has none); and, for every config key a hook
// or a capability is gated or valued by, the schema slice 1.14.0 resolves it
// with (`type`, `default`, `values`). It fails, rather than print a table gsd
// would misread, if one of those keys is not resolved the federated way (the
// user's value where its type matches the slice, else the slice's default) or
// the default profile would leave a capability uninstalled or unsurfaced.
// gsd checks it in as src/sdk/core/gsd-core-1.14.0-loop-hooks.json;
// tests/sdk_core.rs regenerates it from the installed package.
// Usage: node loop-hooks.mjs PACKAGE_DIR
import { createRequire } from 'node:module';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';

const bin = join(process.argv[2], 'gsd-core', 'bin');
const home = mkdtempSync(join(tmpdir(), 'gsd-loop-hooks-'));
process.env.HOME = home;
process.env.GSD_HOME = home;
delete process.env.CLAUDE_CONFIG_DIR;
delete process.env.GSD_RUNTIME;
const project = join(home, 'project');
mkdirSync(join(project, '.planning'), { recursive: true });
writeFileSync(join(project, '.planning', 'config.json'), '{}\n');
const require = createRequire(join(bin, 'gsd-tools.cjs'));
const lib = (m) => require(join(bin, 'lib', m));
const { CANONICAL_POINTS } = lib('loop-resolver.cjs');
const { loadRegistry } = lib('capability-loader.cjs');
const { loadConfig } = lib('config-loader.cjs');
const { resolveCapabilityRuntimeState } = lib('capability-state.cjs');
const { _getNestedConfigValue } = lib('capability-activation.cjs');

const registry = loadRegistry({ includeInstalled: true, cwd: project, gsdHome: home });
const keys = new Set();
for (const entry of Object.values(registry.byLoopPoint)) {
  for (const kind of ['steps', 'contributions', 'gates']) {
    for (const hook of entry[kind] ?? []) {
      if (typeof hook.when === 'string') keys.add(hook.when);
      if (typeof hook.pointFrom === 'string') keys.add(hook.pointFrom);
      for (const k of Object.values(hook.configValues ?? {})) if (typeof k === 'string') keys.add(k);
    }
  }
}
const activation = {};
for (const [id, cap] of Object.entries(registry.capabilities)) {
  activation[id] = typeof cap.activationKey === 'string' && cap.activationKey.length > 0 ? cap.activationKey : null;
  if (activation[id]) keys.add(activation[id]);
}
const config = loadConfig(project);
const slices = {};
for (const key of [...keys].sort()) {
  const slice = registry.configSchema?.[key];
  if (!slice || !['boolean', 'string', 'number', 'enum'].includes(slice.type) || !('default' in slice)) {
    throw new Error(`${key}: no well-formed schema slice`);
  }
  const level1 = _getNestedConfigValue(config, key);
  if (!level1.found || JSON.stringify(level1.value) !== JSON.stringify(slice.default)) {
    throw new Error(`${key}: not resolved from its slice by loadConfig`);
  }
  slices[key] = { type: slice.type, default: slice.default };
  if (Array.isArray(slice.values)) slices[key].values = slice.values;
}
const state = resolveCapabilityRuntimeState(project, join(home, '.claude'), config);
for (const cap of state.capabilities) {
  if (!cap.enabled) throw new Error(`${cap.id}: not enabled under the default profile`);
}
rmSync(home, { recursive: true, force: true });
const out = { points: CANONICAL_POINTS, byLoopPoint: registry.byLoopPoint, activation, config: slices };
process.stdout.write(JSON.stringify(out, null, 1) + '\n');
