import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeRedactor } from '../../src/core/text/redact.js';
import { escapeControls, jsonText, safeText } from '../../src/core/text/safe-text.js';
import { oneLine } from '../../src/core/redact-messages.js';

describe('makeRedactor: text', () => {
  it('replaces every occurrence of every secret', () => {
    expect(makeRedactor(['abc', 'xyz']).text('token abc then abc again, and xyz')).toBe('token *** then *** again, and ***');
  });

  it('hides a secret that contains another one whole', () => {
    expect(makeRedactor(['abc', 'abcdef']).text('key=abcdef')).toBe('key=***');
  });

  it('skips empty and unset secrets, and leaves text without secrets alone', () => {
    const redactor = makeRedactor(['', undefined, 'zzz']);
    expect(redactor.text('nothing here')).toBe('nothing here');
    expect(makeRedactor(['', undefined]).none).toBe(true);
  });

  it('catches the forms a secret takes in a URL, a JSON string and XML text or attributes', () => {
    const secret = `pa"ss\\wo&rd <'x'>`;
    const redactor = makeRedactor([secret]);
    expect(redactor.text(`?token=${encodeURIComponent(secret)}&a=1`)).toBe('?token=***&a=1');
    expect(redactor.text(JSON.stringify({ inputs: { password: secret } }))).toBe('{"inputs":{"password":"***"}}');
    expect(redactor.text(`<m>pa"ss\\wo&amp;rd &lt;'x'&gt;</m>`)).toBe('<m>***</m>');
    expect(redactor.text(`<m a="pa&quot;ss\\wo&amp;rd &lt;&apos;x&apos;&gt;"/>`)).toBe('<m a="***"/>');
  });
});

describe('makeRedactor: secrets in text shown escaped', () => {
  it('masks a secret holding control characters or backslashes in the escaped form it is shown in', () => {
    const secret = 'tok\u001b[2J\\u0000en';
    const redactor = makeRedactor([secret]);
    expect(redactor.text(safeText(`key ${secret} end`))).toBe('key *** end');
    expect(redactor.text(escapeControls(`key ${secret} end`))).toBe('key *** end');
    expect(redactor.text(oneLine(`key ${secret}\nend`))).toBe('key *** end');
  });
});

describe('oneLine', () => {
  it('folds white space, escapes control characters and never cuts inside an escape', () => {
    expect(oneLine('a\n\tb  \u001b]0;x\u0007')).toBe('a b \\u001b]0;x\\u0007');
    for (let max = 5; max < 40; max++) {
      const line = oneLine('ab\u001b'.repeat(20), max);
      expect(line.length).toBeLessThanOrEqual(max);
      expect(line).toMatch(/^(ab\\u001b)*(ab?)?…$/);
    }
  });
});

describe('makeRedactor: values', () => {
  it('masks string values at any depth and never a key, so the structure stays whatever the secret', () => {
    const value = { summary: { tests: 2, name: 'tests of summary' }, list: ['summary', 3, null, true] };
    expect(makeRedactor(['summary', 'test']).values(value)).toEqual({
      summary: { tests: 2, name: '***s of ***' },
      list: ['***', 3, null, true],
    });
  });

  it('masks keys too when asked, for data whose keys are not ours', () => {
    expect(makeRedactor(['tok3n']).values({ n: 2, 'a-tok3n': 'tok3n' }, { keys: true })).toEqual({ n: 2, 'a-***': '***' });
  });

  it('copies only what changes, keeping the order of keys', () => {
    const clean = { a: 1, b: ['x'] };
    const value = { before: 'clean', list: ['a', 'tok3n', 'b'], after: { n: 2, tok3n: 'tok3n' }, clean };
    const redacted = makeRedactor(['tok3n']).values(value);
    expect(redacted).toEqual({ before: 'clean', list: ['a', '***', 'b'], after: { n: 2, tok3n: '***' }, clean });
    expect(Object.keys(redacted)).toEqual(['before', 'list', 'after', 'clean']);
    expect(redacted.clean).toBe(clean);
    expect(value.list[1]).toBe('tok3n');
    const untouched = { a: 'nothing secret', b: [1, 'x'] };
    expect(makeRedactor(['tok3n']).values(untouched)).toBe(untouched);
  });
});

describe('makeRedactor: mayHoldSecret', () => {
  // Characters that JSON, XML, URLs and the shown-text escapes all treat differently.
  const unit = fc.constantFrom('a', 'b', '"', '\\', '/', '<', '&', "'", ' ', '\n', '\t', '\u0000', '\u001b', '\u007f', '\u0085', '\u2028', '\u202e', 'é', '€', '\ud83d\ude00', '%');
  const secrets = fc.array(fc.string({ unit, minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 3 });
  const text = fc.string({ unit, maxLength: 12 });

  it('is never false for JSON of values that masking would change: serialising them as they are is then exact', () => {
    fc.assert(
      fc.property(secrets, fc.array(fc.tuple(text, fc.nat(2), text), { maxLength: 5 }), fc.constantFrom(undefined, 2), (secretList, parts, indent) => {
        const redactor = makeRedactor(secretList);
        // Values with a secret (or its other forms) spliced in, or not.
        const forms = [secretList[0]!, encodeURIComponent(secretList[0]!.replace(/\p{Cs}/gu, '')), `${secretList.at(-1)}`];
        const value = { items: parts.map(([before, which, after]) => ({ text: before + (which === 0 ? '' : forms[which]!) + after, n: which })) };
        const json = jsonText(value, indent);
        if (!redactor.mayHoldSecret(json)) expect(jsonText(redactor.values(value), indent)).toBe(json);
        // A value that holds the secret itself is always suspected.
        if (parts.some(([, which]) => which === 2)) expect(redactor.mayHoldSecret(json)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('is false for JSON without any secret, and always false with no secret at all', () => {
    const redactor = makeRedactor(['s3cret-token']);
    expect(redactor.mayHoldSecret(jsonText({ a: 'plain', b: ['text', 'with "quotes"'] }, 2))).toBe(false);
    expect(redactor.mayHoldSecret(jsonText({ a: 'x s3cret-token y' }))).toBe(true);
    expect(makeRedactor([]).mayHoldSecret('"s3cret-token"')).toBe(false);
  });
});
