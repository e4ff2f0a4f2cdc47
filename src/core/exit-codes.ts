/** The exit-code table of PRODUCT.md, in one place. The README repeats it for users. */
export const ExitCode = {
  /** Success; for `plan --detailed-exitcode`, no changes. */
  Ok: 0,
  /** Bad usage, invalid files, unreachable or refusing tenant, failed apply. */
  Error: 1,
  /** `plan --detailed-exitcode`: changes present. */
  Changes: 2,
  /** `test`: the run completed and some tests failed. */
  TestsFailed: 3,
  /** Refused by a guard: stale saved plan, `max_deletes` exceeded, protected role. */
  Refused: 4,
  /** `drift --detailed-exitcode`: a Role drifted (changed on the tenant since roleflow last applied it) or in conflict. */
  Drifted: 5,
  /** Interrupted (SIGINT/SIGTERM): what finished is reported, reports are written. */
  Interrupted: 130,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
