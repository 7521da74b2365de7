// The checks of the tags editor, pure so they are tested without a page.
import { BUCKET_TAG_LIMITS, charCount, type ContainerTag } from '../../../src-shared/model/container-settings';
import { strings } from '../../app/strings';

const s = strings.containerTags;

/** What is wrong with a tag set, as AWS limits a bucket's (the server is asked anyway). */
/** `kept` counts AWS's own tags, which stay beside these. */
export function tagProblems(tags: readonly ContainerTag[], kept = 0): string[] {
  const out: string[] = [];
  if (tags.length + kept > BUCKET_TAG_LIMITS.count) out.push(s.tooMany);
  const seen = new Set<string>();
  tags.forEach((t, i) => {
    const n = String(i + 1);
    if (t.key === '') out.push(s.keyMissing(n));
    else if (charCount(t.key) > BUCKET_TAG_LIMITS.keyChars) out.push(s.keyTooLong(n));
    else if (t.key.toLowerCase().startsWith('aws:')) out.push(s.reserved(n));
    if (charCount(t.value) > BUCKET_TAG_LIMITS.valueChars) out.push(s.valueTooLong(n));
    if (t.key !== '' && seen.has(t.key)) out.push(s.duplicate(t.key));
    seen.add(t.key);
  });
  return out;
}
