import type { CommandClass } from 'clipanion';
import { ApplyCommand } from './roles/apply.js';
import { HelpCommand } from './help.js';
import { InitCommand } from './init.js';
import { LintCommand } from './lint.js';
import type { RoleflowContext } from './base.js';
import { PlanCommand } from './roles/plan.js';
import { PreviewCommand } from './preview.js';
import { PromoteCommand } from './roles/promote.js';
import { PullCommand } from './roles/pull.js';
import { ReportCompareCommand } from './report/compare.js';
import { ReportMergeCommand } from './report/merge.js';
import { ServeCommand } from './serve.js';
import { TestCommand } from './test.js';
import { ValidateCommand } from './validate.js';
import { DriftCommand } from './history/drift.js';
import { HistoryCommand } from './history/history.js';
import { HistoryShowCommand } from './history/history-show.js';
import { RollbackCommand } from './history/rollback.js';

/** Every roleflow command, in the order `--help` lists them. */
export const commandClasses: CommandClass<RoleflowContext>[] = [InitCommand, ValidateCommand, LintCommand, PlanCommand, ApplyCommand, PromoteCommand, PreviewCommand, PullCommand, HistoryCommand, HistoryShowCommand, RollbackCommand, DriftCommand, ServeCommand, TestCommand, ReportMergeCommand, ReportCompareCommand, HelpCommand];
