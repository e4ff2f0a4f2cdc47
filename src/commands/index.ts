import type { CommandClass } from 'clipanion';
import type { RoleflowContext } from './base.js';
import { ServeCommand } from './serve.js';

/** Every roleflow command, in the order `--help` lists them. */
export const commandClasses: CommandClass<RoleflowContext>[] = [ServeCommand];
