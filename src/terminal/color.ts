/**
 * Whether to colour what goes to a stream: on a TTY, never with `--no-color` (`flag` false) or
 * NO_COLOR, always with `--color` (`flag` true) or FORCE_COLOR — as Node and chalk read it, set
 * means on and `0` or `false` means off (a CI log that renders colour) — and not for TERM=dumb.
 */
export function useColor(env: Record<string, string | undefined>, isTTY: boolean, flag?: boolean): boolean {
  if (flag === false) return false;
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  if (flag === true) return true;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env['TERM'] === 'dumb') return false;
  return isTTY;
}
