// Prints every top-level command GSD Core's gsd-tools.cjs dispatches, one a
// line, sorted: its host routers (HOST_COMMAND_ROUTERS, exported for its own
// tests), its capability families (capability-registry.cjs), and
// `run-with-timeout`, which its main() takes before dispatch. gsd checks in the
// list as src/sdk/core/gsd-core-1.14.0-commands.txt; tests/sdk_core.rs
// regenerates it from the installed package. Usage: node commands.mjs PACKAGE_DIR
import { createRequire } from 'node:module';
import { join } from 'node:path';

const bin = join(process.argv[2], 'gsd-core', 'bin');
const require = createRequire(join(bin, 'gsd-tools.cjs'));
const tools = require(join(bin, 'gsd-tools.cjs'));
const caps = require(join(bin, 'lib', 'capability-registry.cjs'));
const names = new Set([
  ...Object.keys(tools.HOST_COMMAND_ROUTERS),
  ...Object.keys(caps.commandFamilies || {}),
  'run-with-timeout',
]);
process.stdout.write([...names].sort().join('\n') + '\n');
