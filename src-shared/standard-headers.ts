/**
 * The standard headers an object keeps: stored as they were sent with it and returned with it,
 * by the field that names them in the engine and the model, and their HTTP name. The one table
 * for the engine (which keeps no others), both of the store's APIs, the backends and the app.
 * X-Robots-Tag is Swift's alone: S3 neither keeps nor returns it, and the model leaves it out.
 */
export const STANDARD_HEADERS = [
  { field: 'contentEncoding', name: 'Content-Encoding' },
  { field: 'contentDisposition', name: 'Content-Disposition' },
  { field: 'contentLanguage', name: 'Content-Language' },
  { field: 'cacheControl', name: 'Cache-Control' },
  { field: 'expires', name: 'Expires' },
  { field: 'robotsTag', name: 'X-Robots-Tag', swiftOnly: true },
] as const;

type Entry = (typeof STANDARD_HEADERS)[number];
export type StandardHeaderField = Entry['field'];
/** The fields S3 and the app know: all but the Swift-only ones. */
export type CommonHeaderField = Exclude<Entry, { swiftOnly: true }>['field'];

/** Every standard header an object keeps (the engine's record of them). */
export type StandardHeaders = { [K in StandardHeaderField]?: string };
/** The standard headers S3 and the app know (the model's). */
export type StandardHeaderValues = { [K in CommonHeaderField]?: string };

/** The table's entries S3 and the app know, in the table's order. */
export const COMMON_HEADERS = STANDARD_HEADERS.filter((h): h is Extract<Entry, { field: CommonHeaderField }> => !('swiftOnly' in h));

/** The fields of `h` the table names, and no others. */
export function pickStandardHeaders(h: Readonly<Record<string, string | undefined>> | undefined): StandardHeaders {
  const out: StandardHeaders = {};
  if (h) for (const { field } of STANDARD_HEADERS) if (h[field] !== undefined) out[field] = h[field];
  return out;
}

/** The fields of `h` S3 and the app know (an object's headers as the model shows them). */
export function commonHeaders(h: StandardHeaders): StandardHeaderValues {
  const out: StandardHeaderValues = {};
  for (const { field } of COMMON_HEADERS) if (h[field] !== undefined) out[field] = h[field];
  return out;
}
