import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Global setup of the suite: HOME and the XDG base folders point into one temporary folder,
 * removed after the run, so nothing a test runs (in-process, or as a child process, which inherits
 * the environment) reads or writes the user's own. npm, run by install.test.ts, still reads the
 * user's npm config and package cache (it installs with --prefer-offline) and writes its logs
 * into the temporary folder.
 */
export default function setup(): () => void {
  const home = homedir();
  const npm = {
    npm_config_userconfig: process.env['npm_config_userconfig'] ?? join(home, '.npmrc'),
    npm_config_cache: process.env['npm_config_cache'] ?? join(home, '.npm'),
  };
  const root = mkdtempSync(join(tmpdir(), 'roleflow-suite-home-'));
  const folders = {
    HOME: join(root, 'home'),
    XDG_CONFIG_HOME: join(root, 'config'),
    XDG_CACHE_HOME: join(root, 'cache'),
    XDG_DATA_HOME: join(root, 'data'),
    XDG_STATE_HOME: join(root, 'state'),
    npm_config_logs_dir: join(root, 'npm-logs'),
  };
  for (const [name, dir] of Object.entries(folders)) {
    mkdirSync(dir, { mode: 0o700 });
    process.env[name] = dir;
  }
  Object.assign(process.env, npm);
  return () => rmSync(root, { recursive: true, force: true });
}
