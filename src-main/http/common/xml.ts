import { XMLBuilder } from 'fast-xml-parser';

/** An element in fast-xml-parser's ordered form, so siblings keep the order they are given in. */
export type XmlNode = Record<string, unknown>;

export function el(name: string, content: XmlNode[] | string | number | boolean, attrs?: Record<string, string>): XmlNode {
  const children = Array.isArray(content) ? content : [{ '#text': String(content) }];
  const node: XmlNode = { [name]: children };
  if (attrs) node[':@'] = Object.fromEntries(Object.entries(attrs).map(([k, v]) => [`@_${k}`, v]));
  return node;
}

const builder = new XMLBuilder({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '@_', suppressEmptyNode: false });

/** A complete document with the UTF-8 declaration. */
export function xmlDocument(root: XmlNode): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build([root]) as string}`;
}
