/** An element in fast-xml-parser's ordered form, so siblings keep the order they are given in. */
export type XmlNode = Record<string, unknown>;

export function el(name: string, content: XmlNode[] | string | number | boolean, attrs?: Record<string, string>): XmlNode {
  const children = Array.isArray(content) ? content : [{ '#text': String(content) }];
  const node: XmlNode = { [name]: children };
  if (attrs) node[':@'] = Object.fromEntries(Object.entries(attrs).map(([k, v]) => [`@_${k}`, v]));
  return node;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const HAS_SPECIAL = /[&<>"']/;
const SPECIAL = /[&<>"']/g;

export function escapeXml(s: string): string {
  return HAS_SPECIAL.test(s) ? s.replace(SPECIAL, (c) => ENTITIES[c]!) : s;
}

/** Markup already serialized (escaped by its maker): long, uniform runs such as listing entries. */
export function rawXml(markup: string): XmlNode {
  return { '#raw': markup };
}

/**
 * Serializes the ordered form directly: the same bytes fast-xml-parser's XMLBuilder gives
 * (preserveOrder, attributes `@_`, no empty-node suppression, all five entities escaped), without
 * its per-node overhead, which dominated the cost of a 1,000-entry listing.
 */
function write(nodes: XmlNode[], out: string[]): void {
  for (const node of nodes) {
    if ('#raw' in node) {
      out.push(node['#raw'] as string);
      continue;
    }
    if ('#text' in node) {
      out.push(escapeXml(String(node['#text'])));
      continue;
    }
    for (const tag of Object.keys(node)) {
      if (tag === ':@') continue;
      out.push('<', tag);
      const attrs = node[':@'] as Record<string, unknown> | undefined;
      if (attrs) for (const [k, v] of Object.entries(attrs)) out.push(' ', k.slice(2), '="', escapeXml(String(v)), '"');
      out.push('>');
      write(node[tag] as XmlNode[], out);
      out.push('</', tag, '>');
    }
  }
}

/** One element's markup, without the declaration. */
export function xmlFragment(node: XmlNode): string {
  const out: string[] = [];
  write([node], out);
  return out.join('');
}

/** A complete document with the UTF-8 declaration. */
export function xmlDocument(root: XmlNode): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n'];
  write([root], out);
  return out.join('');
}

/**
 * A complete document in pieces: the declaration with the root's opening tag, then each child's
 * markup, then the closing tag, for answers sent as they are serialized (chunked listings).
 */
export function* xmlDocumentPieces(name: string, children: XmlNode[], attrs?: Record<string, string>): Generator<string> {
  const open: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n<', name];
  if (attrs) for (const [k, v] of Object.entries(attrs)) open.push(' ', k, '="', escapeXml(v), '"');
  open.push('>');
  yield open.join('');
  for (const child of children) yield xmlFragment(child);
  yield `</${name}>`;
}
