import type { Redactor } from '../core/text/redact.js';
import type { RunReport, TestResult } from './model.js';

/**
 * One reporter of a test run, as vitest's reporters are: hooks while the run goes, then the
 * report when it is over. console, json, junit, github and html each implement it
 * (`createReporters` in reporters.ts); their renderers stay functions of the report's data.
 */
export interface Reporter {
  /** An execution starts; `label` names the test, transport and repeat; `done` of `total` are over. */
  onExecutionStart?(label: string, done: number, total: number): void;
  /** An execution ended; `done` of `total` executions are over. */
  onExecutionEnd?(label: string, done: number, total: number): void;
  /** A test × transport has its result (values redacted), in completion order. */
  onTestResult?(result: TestResult): void;
  /** The run is over (or was interrupted): its report (values redacted), written where it goes. */
  onRunEnd(report: RunReport): Promise<void> | void;
}

/** Where reporters write: the command's stdout (secrets masked) and report files. */
export interface ReportSinks {
  cwd: string;
  env: Record<string, string | undefined>;
  /** Human text to stdout, masked once more on its way out. */
  out(text: string): void;
  /**
   * Machine-readable text rendered from `report` to stdout: its values are redacted, the text is
   * not masked again, so its syntax stands whatever the secrets are.
   */
  data(report: RunReport, render: (report: RunReport) => string): void;
  /** Write a report file (folders created; `append`: add to its end); `human` text is masked once more. */
  file(name: string, text: string, kind: 'human' | 'data', append?: boolean): Promise<void>;
  /** The run's secrets. */
  redactor: Redactor;
}

/** The one status line on a terminal (terminal/progress-line.ts `ProgressLine`). */
export interface StatusLine {
  /** The terminal's width. */
  readonly columns: number;
  show(text: string): void;
  clear(): void;
}

/** A reporter of one machine-readable file (json, junit, html): `-` is stdout. */
export function fileReporter(render: (report: RunReport) => string, file: string, sinks: ReportSinks): Reporter {
  return {
    async onRunEnd(report) {
      if (file === '-') sinks.data(report, render);
      else await sinks.file(file, render(report), 'data');
    },
  };
}
