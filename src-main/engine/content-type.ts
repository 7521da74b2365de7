import mime from 'mime';

/**
 * The type a name's extension says (as Swift's mimetypes.guess_type does), or undefined. Only a
 * last segment with a dot after its first character has an extension: `mime` alone takes a bare
 * `obj` or `.txt` for the extension itself (model/obj, text/plain).
 */
export function typeFromName(name: string): string | undefined {
  const leaf = name.slice(name.lastIndexOf('/') + 1);
  return (leaf.lastIndexOf('.') > 0 && mime.getType(leaf)) || undefined;
}
