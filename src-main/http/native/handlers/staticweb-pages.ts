import type { ListEntry } from '../../../engine/index.js';
import { isoMillis } from '../../common/dates.js';
import { encodePath } from '../../common/url.js';

// The HTML pages of Swift's staticweb (2.30), as it writes them: browsers and the scripts that
// scrape them (its element ids and classes are documented for styling) see the same document.

export interface WebSettings {
  index: string;
  error: string;
  listings: string;
  label: string;
  css: string;
  dirType: string;
}

const DOCTYPE = '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://www.w3.org/TR/html4/loose.dtd">\n';

/** Python's html.escape (quote=True). */
function escape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');
}

/** Python's round(): halves to even. */
function roundHalfEven(v: number): number {
  const r = Math.round(v);
  return Math.abs(v % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** Swift's human_readable: 1023, 1Ki, 5Mi (each step divided by 1024 and rounded). */
export function humanReadable(bytes: number): string {
  const suffixes = 'KMGTPEZY';
  let value = bytes;
  let index = -1;
  while (value >= 1024 && index + 1 < suffixes.length) {
    index++;
    value = roundHalfEven(value / 1024);
  }
  return index === -1 ? String(Math.trunc(value)) : `${roundHalfEven(value)}${suffixes[index]}i`;
}

/** The style sheet's address: as given when absolute, else relative to the listed directory. */
function cssPath(css: string, prefix: string): string {
  if (/^(\/|http:\/\/|https:\/\/)/.test(css)) return encodePath(css).replace(/%3A/g, ':');
  return '../'.repeat(prefix.split('/').length - 1) + encodePath(css);
}

/** The 404 page of a directory without an index where listings are off. */
export function disabledListingPage(label: string, w: WebSettings, prefix: string): string {
  let body = `${DOCTYPE}<html>\n<head>\n<title>Listing of ${escape(label)}</title>\n`;
  body += w.css
    ? `  <link rel="stylesheet" type="text/css" href="${cssPath(w.css, prefix)}" />\n`
    : '  <style type="text/css">\n   h1 {font-size: 1em; font-weight: bold;}\n   p {font-size: 2}\n  </style>\n';
  body +=
    '</head>\n<body>  <h1>Web Listing Disabled</h1>   <p>The owner of this web site has disabled web listing.' +
    '   <p>If you are the owner of this web site, you can enable   web listing by setting X-Container-Meta-Web-Listings.</p>';
  if (w.index) body += `<h1>Index File Not Found</h1> <p>The owner of this web site has set  <b>X-Container-Meta-Web-Index: ${w.index}</b>.  However, this file is not found.</p>`;
  return `${body} </body>\n</html>\n`;
}

const row = (cls: string, href: string, name: string, size: string, date: string) =>
  `   <tr class="${cls}">\n    <td class="colname"><a href="${href}">${name}</a></td>\n    <td class="colsize">${size}</td>\n    <td class="coldate">${date}</td>\n   </tr>\n`;

/** The listing of one directory (`prefix`, '' for the container): its subdirectories, then its objects. */
export function listingPage(label: string, w: WebSettings, prefix: string, entries: ListEntry[]): string {
  let body = `${DOCTYPE}<html>\n <head>\n  <title>Listing of ${escape(label)}</title>\n`;
  body += w.css
    ? `  <link rel="stylesheet" type="text/css" href="${cssPath(w.css, prefix)}" />\n`
    : '  <style type="text/css">\n   h1 {font-size: 1em; font-weight: bold;}\n   th {text-align: left; padding: 0px 1em 0px 1em;}\n   td {padding: 0px 1em 0px 1em;}\n   a {text-decoration: none;}\n  </style>\n';
  body +=
    ` </head>\n <body>\n  <h1 id="title">Listing of ${escape(label)}</h1>\n  <table id="listing">\n   <tr id="heading">\n` +
    '    <th class="colname">Name</th>\n    <th class="colsize">Size</th>\n    <th class="coldate">Date</th>\n   </tr>\n';
  if (prefix) body += '   <tr id="parent" class="item">\n    <td class="colname"><a href="../">../</a></td>\n    <td class="colsize">&nbsp;</td>\n    <td class="coldate">&nbsp;</td>\n   </tr>\n';
  for (const e of entries) {
    if (e.kind !== 'prefix') continue;
    const sub = e.prefix.slice(prefix.length);
    body += row('item subdir', encodePath(sub), escape(sub), '&nbsp;', '&nbsp;');
  }
  for (const e of entries) {
    if (e.kind !== 'object') continue;
    const name = e.name.slice(prefix.length);
    const type = e.object.contentType || 'application/octet-stream';
    const cls = `item ${type.split('/').map((t) => `type-${escape(t.toLowerCase())}`).join(' ')}`;
    const date = escape(isoMillis(e.object.lastModified)).split('.')[0]!.replace('T', ' ');
    body += row(cls, encodePath(name), escape(name), humanReadable(e.object.size), date);
  }
  return `${body}  </table>\n </body>\n</html>\n`;
}
