/**
 * A strict little XML reader for the JUnit reports: it throws on anything not well-formed (tags
 * that do not nest, a bare `&` or `<`, an unquoted or repeated attribute, a character XML 1.0
 * forbids, more than one root) and returns the element tree with entities decoded.
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ILLEGAL = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const ENTITY = /&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;

export function parseXml(xml: string): XmlElement {
  if (ILLEGAL.test(xml)) throw new Error(`illegal XML character U+${xml.codePointAt(xml.search(ILLEGAL))!.toString(16)}`);
  const body = xml.replace(/^<\?xml [^?]*\?>\s*/, '');
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  for (const token of body.match(/<[^>]*>|[^<]+/g) ?? []) {
    if (!token.startsWith('<')) {
      const text = decode(token);
      if (stack.length === 0) {
        if (token.trim() !== '') throw new Error(`text outside the root: ${token}`);
      } else stack.at(-1)!.text += text;
      continue;
    }
    if (token.startsWith('</')) {
      const name = token.slice(2, -1).trim();
      const open = stack.pop();
      if (!open || open.name !== name) throw new Error(`</${name}> closes <${open?.name ?? 'nothing'}>`);
      continue;
    }
    const m = /^<([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.:-]*="[^"<]*")*)\s*(\/?)>$/.exec(token);
    if (!m) throw new Error(`malformed tag: ${token}`);
    const attrs: Record<string, string> = {};
    for (const [, key, value] of m[2]!.matchAll(/([A-Za-z_][\w.:-]*)="([^"<]*)"/g)) {
      if (Object.hasOwn(attrs, key!)) throw new Error(`repeated attribute ${key}`);
      attrs[key!] = decode(value!);
    }
    const element: XmlElement = { name: m[1]!, attrs, children: [], text: '' };
    if (stack.length > 0) stack.at(-1)!.children.push(element);
    else if (root) throw new Error('a second root element');
    else root = element;
    if (m[3] !== '/') stack.push(element);
  }
  if (stack.length > 0) throw new Error(`<${stack.at(-1)!.name}> is never closed`);
  if (!root) throw new Error('no root element');
  return root;
}

/** Every element named `name` below `element`, depth first. */
export function findAll(element: XmlElement, name: string): XmlElement[] {
  return element.children.flatMap((c) => [...(c.name === name ? [c] : []), ...findAll(c, name)]);
}

function decode(text: string): string {
  const bare = text.replace(ENTITY, '');
  if (bare.includes('&')) throw new Error(`bare & in ${JSON.stringify(text)}`);
  return text.replace(ENTITY, (_, e: string) => {
    if (e === 'amp') return '&';
    if (e === 'lt') return '<';
    if (e === 'gt') return '>';
    if (e === 'quot') return '"';
    if (e === 'apos') return "'";
    return String.fromCodePoint(e.startsWith('#x') ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
  });
}
