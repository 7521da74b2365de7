// The marker of a listing with versions: a name and, within it, the last version listed. One
// opaque string crosses the contract; only the backend that made it reads it back.

export interface VersionMarker {
  key: string;
  /** Absent after a folder (a common prefix) or when the listing ended a name. */
  versionId?: string;
}

export function encodeVersionMarker(m: VersionMarker): string {
  return JSON.stringify(m.versionId === undefined ? [m.key] : [m.key, m.versionId]);
}

/** A marker as a caller hands it back; a bare name (not one of ours) continues after that name. */
export function decodeVersionMarker(marker: string | undefined): VersionMarker | undefined {
  if (marker === undefined || marker === '') return undefined;
  try {
    const v = JSON.parse(marker) as unknown;
    if (Array.isArray(v) && typeof v[0] === 'string' && (v[1] === undefined || typeof v[1] === 'string')) {
      return v[1] === undefined ? { key: v[0] } : { key: v[0], versionId: v[1] };
    }
  } catch {
    // Not JSON: a plain name.
  }
  return { key: marker };
}
