// Prints the tables GSD Core's `resolve-model` reads, one row a line, for
// gsd's native answer (src/sdk/core/models.rs): per agent its phase type, its
// tier under each model profile and the effort its default tier gives
// (`agent\tAGENT\tPHASE\tquality\tbalanced\tbudget\tadaptive\tEFFORT`, in
// MODEL_PROFILES' order: the roster init answers check installed agents by); the
// full model id of each tier alias (`id\tALIAS\tID`); the Claude Agent-tool
// aliases (`alias\tALIAS`); the tiers `models.<phase>` may name
// (`tier\tTIER`); the effort of an agent without a default tier
// (`effort\tEFFORT`); the profiles `config-set-model-profile` takes
// (`profile\tPROFILE`, VALID_PROFILES' order). gsd checks it in as
// src/sdk/core/gsd-core-1.14.0-models.txt; tests/sdk_core.rs regenerates it
// from the installed package. Usage: node models.mjs PACKAGE_DIR
import { createRequire } from 'node:module';
import { join } from 'node:path';

const bin = join(process.argv[2], 'gsd-core', 'bin');
const require = createRequire(join(bin, 'gsd-tools.cjs'));
const profiles = require(join(bin, 'lib', 'model-profiles.cjs'));
const catalog = require(join(bin, 'lib', 'model-catalog.cjs'));
const { CONFIG_DEFAULTS } = require(join(bin, 'lib', 'configuration.cjs'));
const effort = CONFIG_DEFAULTS.effort;
const out = [];
for (const agent of Object.keys(profiles.MODEL_PROFILES)) {
  const p = profiles.MODEL_PROFILES[agent];
  const tier = profiles.AGENT_DEFAULT_TIERS[agent];
  const e = effort.agent_overrides[agent] ?? (tier && effort.routing_tier_defaults[tier]) ?? effort.default;
  out.push(['agent', agent, profiles.AGENT_TO_PHASE_TYPE[agent] ?? '-', p.quality, p.balanced, p.budget, p.adaptive, e].join('\t'));
}
for (const [alias, id] of Object.entries(catalog.MODEL_ALIAS_MAP)) out.push(`id\t${alias}\t${id}`);
for (const a of catalog.CLAUDE_AGENT_ALIASES) out.push(`alias\t${a}`);
for (const t of catalog.VALID_TIERS) out.push(`tier\t${t}`);
out.push(`effort\t${effort.default}`);
for (const p of catalog.VALID_PROFILES) out.push(`profile\t${p}`);
process.stdout.write(out.join('\n') + '\n');
