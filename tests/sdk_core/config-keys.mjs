// Prints the config keys GSD Core's `config-set` accepts by name, one a line,
// sorted, each with the type its capability registry declares for it
// (`boolean`, `number`, `string`, `enum:a|b`) or `-` for a central key the
// registry does not type. gsd checks the list in as
// src/sdk/core/gsd-core-1.14.0-config-keys.txt (its native `config-set`
// answers only these keys); tests/sdk_core.rs regenerates it from the
// installed package. Usage: node config-keys.mjs PACKAGE_DIR
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = join(process.argv[2], 'gsd-core', 'bin');
const require = createRequire(join(bin, 'gsd-tools.cjs'));
const schema = require(join(bin, 'lib', 'config-schema.cjs'));
// A folder with no project: the registry's built-in capabilities only.
const empty = mkdtempSync(join(tmpdir(), 'gsd-keys-'));
const caps = schema.getCapabilityConfigSchema(empty);
rmSync(empty, { recursive: true, force: true });
const rows = new Map();
for (const k of [...schema.VALID_CONFIG_KEYS, ...schema.RUNTIME_STATE_KEYS]) rows.set(k, '-');
for (const [k, def] of Object.entries(caps)) {
  const t = def && typeof def.type === 'string' ? def.type : '-';
  rows.set(k, t === 'enum' && Array.isArray(def.values) ? `enum:${def.values.map(String).join('|')}` : t);
}
process.stdout.write([...rows].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, t]) => `${k}\t${t}`).join('\n') + '\n');
