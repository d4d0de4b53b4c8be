/**
 * Counts the names each package entry point exports (`npx tsx scripts/count-exports.ts`,
 * `--names` to list them). Kept as a script so that the surface can be re-measured after a merge.
 * @module
 */
import { analyseEntry, createSurfaceProgram, readEntryPoints } from './public-surface.js';

const entries = readEntryPoints();
const program = createSurfaceProgram(entries.map((entry) => entry.file));
let total = 0;
for (const entry of entries) {
  const surface = analyseEntry(program, entry);
  total += surface.names.length;
  console.log(`${entry.subpath.padEnd(12)} ${String(surface.names.length).padStart(4)} names (${surface.typeNames.length} usable as types)`);
  if (process.argv.includes('--names')) console.log(`  ${surface.names.join(', ')}`);
}
console.log(`${'total'.padEnd(12)} ${String(total).padStart(4)}`);
