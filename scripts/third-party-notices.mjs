// THIRD-PARTY-NOTICES.txt of a bundle: the packages esbuild bundled into it (from its metafile),
// each with its licence text, as their licences ask of copies (the bundles keep no licence
// comments). scripts/build.mjs writes the CLI's, action/build.mjs the Action's.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Write the notices of the packages in `metafile`'s inputs (paths relative to `root`, a file URL) to `file`, headed by `what` ("roleflow's CLI (dist/)"). */
export function writeThirdPartyNotices(metafile, root, file, what) {
  const packages = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) packages.add(match[1]);
  }
  const sections = [...packages].sort().map((name) => {
    const dir = fileURLToPath(new URL(`node_modules/${name}/`, root));
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const licence = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
    const text = licence === undefined ? `(no licence file; package.json says ${manifest.license})` : readFileSync(join(dir, licence), 'utf8').trim();
    return `${name}@${manifest.version} (${manifest.license})\n\n${text}\n`;
  });
  writeFileSync(file, `${what} includes these packages.\n\n${sections.join('\n---\n\n')}`);
}
