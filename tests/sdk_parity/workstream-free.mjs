// Prints the gsd-sdk query commands whose handler never reads the workstream
// (its source does not name it), one per line, sorted: these answer the same
// on a workstream tree as on any other, so gsd answers them natively there.
// A wrapper that forwards the workstream names it, so a doubt counts as
// workstream-bound. Usage: node workstream-free.mjs PACKAGE_DIR
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const pkg = process.argv[2];
const { createRegistry } = await import(
  pathToFileURL(join(pkg, 'sdk', 'dist', 'query', 'index.js')).href
);
const registry = createRegistry();
const free = [];
for (const command of registry.handlers.keys()) {
  if (command.includes(' ')) continue; // spaced aliases resolve to the dotted names
  if (!/workstream/.test(registry.getHandler(command).toString())) free.push(command);
}
console.log(free.sort().join('\n'));
