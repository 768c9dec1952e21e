// Prints, as JSON, what GSD Core's `loadConfig` fills a project's config
// with: its built-in defaults (`CONFIG_DEFAULTS`, used whole when a project
// has no config.json) and the capability registry's federated keys, in the
// registry's order, each with its type, default and allowed values (the
// overlay `loadConfig` lays over every config). gsd checks it in as
// src/sdk/core/gsd-core-1.14.0-config-defaults.json (its native
// `state.load` answers from it); tests/sdk_core.rs regenerates it from the
// installed package. Usage: node config-defaults.mjs PACKAGE_DIR
import { createRequire } from 'node:module';
import { join } from 'node:path';

const bin = join(process.argv[2], 'gsd-core', 'bin');
const require = createRequire(join(bin, 'gsd-tools.cjs'));
const loader = require(join(bin, 'lib', 'config-loader.cjs'));
const schema = require(join(bin, 'lib', 'config-schema.cjs'));
const registry = require(join(bin, 'lib', 'capability-registry.cjs'));
const TYPES = new Set(['boolean', 'string', 'number', 'enum']);
const federated = [];
for (const [key, slice] of Object.entries(registry.configSchema)) {
  // The slices `mergeFederatedConfig` keeps: well formed, not central.
  if (schema.isCentralConfigKey(key)) continue;
  if (typeof slice !== 'object' || slice === null || Array.isArray(slice)) continue;
  if (!TYPES.has(slice.type) || !Object.prototype.hasOwnProperty.call(slice, 'default')) continue;
  const row = { key, type: slice.type, default: slice.default };
  if (Array.isArray(slice.values) && slice.values.length > 0) row.values = slice.values;
  federated.push(row);
}
process.stdout.write(JSON.stringify({ defaults: loader.CONFIG_DEFAULTS, federated }, null, 1) + '\n');
