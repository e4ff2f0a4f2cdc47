import { describe, expect, it } from 'vitest';
import { parseFlowTestFile } from '../../../src/core/flows/index.js';
import { indentationMistake } from '../../../src/core/flows/yaml/indentation.js';
import { loadSchema } from '../../../src/files/package-root.js';

const lines = (...l: string[]) => `${l.join('\n')}\n`;
const problems = (text: string) => {
  const r = parseFlowTestFile(text, 'flows/t.yaml', loadSchema('flow-test'));
  return r.ok ? [] : r.issues.map((i) => `${i.file}:${i.line}:${i.col}: ${i.message}`);
};

describe('a misindented flow test file', () => {
  it('gets one line at the misindented line, saying what would fit, instead of the YAML library at another line', () => {
    // The library says "Nested mappings are not allowed in compact mappings" at 1:7.
    expect(problems(lines('flow: greet', '  tests:', '  - name: a'))).toEqual([
      'flows/t.yaml:2:3: bad indentation: "tests:" is indented under line 1, which holds a value and so opens no block: start it at column 1, like the lines before it',
    ]);
    // The library says it at line 8, the item before.
    expect(problems(lines('flow: greet', 'tests:', '  - name: a', '    expect:', '      outputs:', '        - path: x', '          equals: 1', '        - path: y', '           equals: 2'))).toEqual([
      'flows/t.yaml:9:12: bad indentation: "equals: 2" is indented under line 8, which holds a value and so opens no block: start it at column 11, like the lines before it',
    ]);
  });

  it('names a key at the column of the list items, a line between two blocks, a stray text and a tab', () => {
    expect(indentationMistake(lines('flow: greet', 'tests:', '  - name: a', '    inputs: { name: A }', '  expect:', '    steps: { count: 2 }'))).toEqual({
      line: 5,
      col: 3,
      message: 'bad indentation: "expect:" is at the column of the list items ("- " on line 3): indent it to column 5 to belong to the item above, or start a new item with "- "',
    });
    expect(indentationMistake(lines('flow: greet', 'tests:', '  - name: a', '    inputs:', '      name: A', '   expect: {}'))).toEqual({
      line: 6,
      col: 4,
      message: 'bad indentation: "expect: {}" starts at column 4, where no block around it does: the lines near it start at column 5 (line 4) or column 3 (line 3)',
    });
    expect(indentationMistake(lines('flow: greet', 'tests:', '  - name: a', '    inputs:', '      text: hello', '    there'))?.message).toBe(
      'bad indentation: "there" is among the keys of line 4 but is not a key (key: value): indent it deeper to go on with the value above, or add the ":"',
    );
    expect(indentationMistake(lines('flow: greet', 'tests:', '  - name: a', '\texpect: {}'))).toEqual({ line: 4, col: 1, message: 'a tab in the indentation: YAML indents with spaces only' });
  });

  it('finds nothing wrong in well-indented YAML: lists at their key\'s column, block scalars, flow collections and values over several lines', () => {
    const fine = lines(
      'flow: greet   # a comment',
      'tags: [a,',
      '  b]',
      'tests:',
      '- name: a',
      '  inputs:',
      '    text: |',
      '      line one',
      '        deeper',
      '    other: a plain value',
      '      that goes on',
      '  expect:',
      '    outputs:',
      '    - { path: x, equals: 1 }',
      '    - path: y',
      '      equals: 2',
      '- name: b',
      '  skip: true',
      'defaults:',
      '  repeat: 2',
    );
    expect(indentationMistake(fine)).toBeUndefined();
  });
});
