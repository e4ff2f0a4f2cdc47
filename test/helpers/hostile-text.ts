/**
 * Hostile text for the tests that check roleflow neutralises what it does not control: a raw
 * control character in anything printed, and a flow-test file whose test name, WebSocket frame
 * (the echoed input) and skip reason all carry `attack` (YAML double-quoted escapes).
 */

/** A character that must never reach a terminal, a log or a report raw. */
export const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069\ufeff]/;

/** Three echo tests over WebSocket: a failing one named with `attack`, one echoing it, one skipped for it. */
export function hostileFlows(attack: string): string {
  return `flow: echo
transport: ws
tests:
  - name: "name ${attack}"
    inputs: { greeting: hello }
    until: { messages: 1 }
    expect:
      outputs:
        - { path: "results[0].greeting", equals: goodbye }
  - name: frame
    inputs: { greeting: "frame ${attack}" }
    until: { messages: 1 }
    expect:
      outputs:
        - { path: "results[0].greeting", equals: hello }
  - name: skipped
    skip: "reason ${attack}"
    inputs: {}
    expect: { steps: { count: 1 } }
`;
}
