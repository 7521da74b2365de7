// Which preview an object gets, from its content type (or, when that says nothing, its name) and
// its size. Pure, so the rules are read and tested in one place.

export type PreviewKind = 'image' | 'text' | 'json' | 'pdf' | 'audio' | 'video';

export type PreviewPlan = { kind: PreviewKind } | { kind: 'none'; why: 'empty' | 'binary' | 'tooLarge'; type: string };

/** A text preview reads this much of the object, never more. */
export const TEXT_PREVIEW_BYTES = 256 * 1024;
/**
 * Images and PDFs load whole (PDFs mostly: the viewer asks for ranges of linearized ones);
 * above these they say so. Audio and video stream, so they have no limit.
 */
const LOAD_LIMITS: Partial<Record<PreviewKind, number>> = { image: 32 * 1024 * 1024, pdf: 256 * 1024 * 1024 };

const GENERIC = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/binary']);

/** What Chromium draws in an <img>; TIFF, HEIC and RAW formats it does not. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'image/svg+xml', 'image/x-icon', 'image/vnd.microsoft.icon', 'image/apng']);
const TEXT_APPLICATION_TYPES = new Set([
  'application/xml', 'application/javascript', 'application/ecmascript', 'application/typescript', 'application/x-sh', 'application/x-shellscript',
  'application/yaml', 'application/x-yaml', 'application/toml', 'application/sql', 'application/x-python', 'application/x-httpd-php',
  'application/x-tex', 'application/x-latex', 'application/csv', 'application/x-ndjson', 'application/jsonl', 'application/xhtml+xml',
  'application/x-subrip', 'application/x-www-form-urlencoded', 'application/x-ini', 'application/rtf',
]);

const BY_EXTENSION: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', avif: 'image/avif', bmp: 'image/bmp', svg: 'image/svg+xml', ico: 'image/x-icon',
  pdf: 'application/pdf', json: 'application/json', geojson: 'application/json', ipynb: 'application/json',
  mp3: 'audio/mpeg', m4a: 'audio/mp4', aac: 'audio/aac', ogg: 'audio/ogg', oga: 'audio/ogg', opus: 'audio/ogg', wav: 'audio/wav', flac: 'audio/flac', weba: 'audio/webm',
  mp4: 'video/mp4', m4v: 'video/mp4', webm: 'video/webm', ogv: 'video/ogg', mov: 'video/quicktime',
};
const TEXT_EXTENSIONS = new Set(
  ('txt text md markdown rst adoc csv tsv log ini cfg conf config toml yaml yml xml html htm css scss less js mjs cjs ts tsx jsx py rb go rs c h cc cpp hpp cs java kt kts swift scala ' +
    'sh bash zsh fish ps1 bat sql php pl lua r m tex bib properties env gitignore gitattributes editorconfig dockerfile makefile mk cmake gradle tf hcl ' +
    'vue svelte graphql proto diff patch srt vtt ndjson jsonl lock sum mod').split(' '),
);
/** Names without an extension that are text by custom. */
const TEXT_NAMES = new Set(['readme', 'license', 'licence', 'copying', 'authors', 'changelog', 'notice', 'makefile', 'dockerfile', 'procfile', 'gemfile', 'rakefile', 'vagrantfile']);

function typeOf(name: string, contentType: string): string {
  const own = contentType.split(';')[0]!.trim().toLowerCase();
  if (!GENERIC.has(own)) return own;
  const leaf = name.slice(name.lastIndexOf('/') + 1).toLowerCase();
  const dot = leaf.lastIndexOf('.');
  const ext = dot > 0 ? leaf.slice(dot + 1) : '';
  if (BY_EXTENSION[ext]) return BY_EXTENSION[ext];
  if (TEXT_EXTENSIONS.has(ext) || (dot <= 0 && TEXT_NAMES.has(leaf))) return 'text/plain';
  return own || 'application/octet-stream';
}

function kindOf(type: string): PreviewKind | null {
  if (IMAGE_TYPES.has(type)) return 'image';
  if (type === 'application/pdf') return 'pdf';
  if (type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type.startsWith('text/') || TEXT_APPLICATION_TYPES.has(type) || type.endsWith('+xml')) return 'text';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('video/')) return 'video';
  return null;
}

/** The preview an object gets, or why it gets none. */
export function planPreview(name: string, contentType: string, size: number): PreviewPlan {
  const type = typeOf(name, contentType);
  if (size === 0) return { kind: 'none', why: 'empty', type };
  const kind = kindOf(type);
  if (!kind) return { kind: 'none', why: 'binary', type };
  const limit = LOAD_LIMITS[kind];
  if (limit !== undefined && size > limit) return { kind: 'none', why: 'tooLarge', type };
  return { kind };
}
