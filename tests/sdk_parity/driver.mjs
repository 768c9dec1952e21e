// Runs many `gsd-sdk query` calls in one Node process through gsd-sdk's own
// CLI entry (`runQueryCliCommand`, what `gsd-sdk query` calls), so the parity
// harness pays Node's start once per tree instead of once per call.
// stdin: one JSON array per line, [projectDir, ...argv]; stdout: one JSON
// object per line, {stdout, exit}. Usage: node driver.mjs PACKAGE_DIR
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const pkg = process.argv[2];
const { runQueryCliCommand } = await import(
  pathToFileURL(join(pkg, 'sdk', 'dist', 'query', 'query-cli-adapter.js')).href
);
const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  if (!line.trim()) continue;
  const [dir, ...argv] = JSON.parse(line);
  process.chdir(dir);
  const r = await runQueryCliCommand({ projectDir: dir, queryArgv: argv });
  process.stdout.write(JSON.stringify({ stdout: r.stdoutChunks.join(''), exit: r.exitCode }) + '\n');
}
