import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const XSD = fileURLToPath(new URL('../fixtures/jenkins-junit-10.xsd', import.meta.url));

/**
 * What `xmllint --schema` (Debian's libxml2-utils) says of a JUnit report against the Jenkins
 * xunit junit-10 XSD: '' when it is valid. The extensions PRODUCT.md keeps because consumers read
 * them — `file` and `line` on testcase, `skipped` and `timestamp` on testsuites — are taken out
 * first (each must be there, so nothing else is taken); every other attribute and element is
 * checked. Throws when xmllint is missing: the test is never skipped.
 */
export function junitXsdProblems(xml: string): string {
  let extensions = 0;
  const stripped = xml
    .replace(/<testcase ([^>]*?) file="[^"]*" line="\d+"/g, (_, before: string) => {
      extensions++;
      return `<testcase ${before}`;
    })
    .replace(/<testsuites ([^>]*)>/, (tag: string) => tag.replace(/ skipped="\d+"/, '').replace(/ timestamp="[^"]*"/, ''));
  const cases = xml.match(/<testcase /g)?.length ?? 0;
  if (extensions !== cases) throw new Error(`${cases - extensions} testcase(s) without file and line`);
  const dir = mkdtempSync(join(tmpdir(), 'roleflow-junit-'));
  try {
    const file = join(dir, 'junit.xml');
    writeFileSync(file, stripped);
    const run = spawnSync('xmllint', ['--noout', '--schema', XSD, file], { encoding: 'utf8' });
    if (run.error) throw new Error(`xmllint: ${run.error.message} (install Debian's libxml2-utils)`);
    return run.status === 0 ? '' : run.stderr.replaceAll(file, 'junit.xml');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
