// S3 API: bucket configuration (issue 26, part 4): lifecycle rules, their refusals and x-amz-expiration.
import type { Req, Row } from '../types.js';
import { DELETE, GET, HEAD, OWN_B, OWN_B_OBJ, PUT, s, S3NS, xmlDoc } from './helpers.js';

const lifecycle = (rules: string) => xmlDoc(`<LifecycleConfiguration xmlns="${S3NS}">${rules}</LifecycleConfiguration>`);
const rule = (inner: string, id = 'r') => `<Rule><ID>${id}</ID>${inner}</Rule>`;
const DAYS = rule('<Filter><Prefix>tmp/</Prefix></Filter><Status>Enabled</Status><Expiration><Days>3</Days></Expiration>');
const EVERY = rule('<Filter><Prefix></Prefix></Filter><Status>Enabled</Status><Expiration><Days>2</Days></Expiration>', 'all');
const put = (body: string): Req => PUT('/{b}?lifecycle', { body: lifecycle(body), md5: true });
const refused = (id: string, body: string): Row => s(`lifecycle.refused.${id}`, put(body), { setup: OWN_B });

export const S3_CONFIG_ROWS: Row[] = [
  s('lifecycle.get', GET('/{b}?lifecycle'), { setup: [...OWN_B, put(DAYS)] }),
  s('lifecycle.get.legacy-prefix', GET('/{b}?lifecycle'), { setup: [...OWN_B, put(rule('<Prefix>logs/</Prefix><Status>Disabled</Status><Expiration><Days>1</Days></Expiration>'))] }),
  s('lifecycle.get.and-prefix', GET('/{b}?lifecycle'), { setup: [...OWN_B, put(rule('<Filter><And><Prefix>a/</Prefix></And></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>'))] }),
  s('lifecycle.get.noncurrent-abort', GET('/{b}?lifecycle'), {
    setup: [...OWN_B, put(rule('<Filter><Prefix></Prefix></Filter><Status>Enabled</Status><NoncurrentVersionExpiration><NoncurrentDays>4</NoncurrentDays></NoncurrentVersionExpiration><AbortIncompleteMultipartUpload><DaysAfterInitiation>2</DaysAfterInitiation></AbortIncompleteMultipartUpload>'))],
  }),
  s('lifecycle.get.delete-marker', GET('/{b}?lifecycle'), { setup: [...OWN_B, put(rule('<Filter><Prefix></Prefix></Filter><Status>Enabled</Status><Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration>'))] }),
  s('lifecycle.get.date', GET('/{b}?lifecycle'), { setup: [...OWN_B, put(rule('<Filter><Prefix></Prefix></Filter><Status>Enabled</Status><Expiration><Date>2030-01-01T00:00:00.000Z</Date></Expiration>'))] }),
  s('lifecycle.get.after-delete', GET('/{b}?lifecycle'), { setup: [...OWN_B, put(DAYS), DELETE('/{b}?lifecycle')] }),
  s('lifecycle.get.other', GET('/{b}?lifecycle', { as: 'other' }), { setup: [...OWN_B, put(DAYS)] }),
  s('lifecycle.put.other', { ...put(DAYS), as: 'other' }, { setup: OWN_B }),
  s('lifecycle.put.replaces', GET('/{b}?lifecycle'), { setup: [...OWN_B, put(DAYS), put(EVERY)] }),
  s('lifecycle.put.missing-bucket', put(DAYS)),
  refused('days-zero', rule('<Filter><Prefix></Prefix></Filter><Status>Enabled</Status><Expiration><Days>0</Days></Expiration>')),
  refused('days-negative', rule('<Filter><Prefix></Prefix></Filter><Status>Enabled</Status><Expiration><Days>-2</Days></Expiration>')),
  refused('date-not-midnight', rule('<Filter><Prefix></Prefix></Filter><Status>Enabled</Status><Expiration><Date>2030-01-01T12:00:00Z</Date></Expiration>')),
  refused('bad-status', rule('<Filter><Prefix></Prefix></Filter><Status>On</Status><Expiration><Days>1</Days></Expiration>')),
  refused('no-status', rule('<Filter><Prefix></Prefix></Filter><Expiration><Days>1</Days></Expiration>')),
  refused('prefix-and-filter', rule('<Prefix>a</Prefix><Filter><Prefix>b</Prefix></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>')),
  refused('no-action', rule('<Filter><Prefix></Prefix></Filter><Status>Enabled</Status>')),
  refused('duplicate-id', DAYS + DAYS),
  refused('long-id', rule('<Filter><Prefix></Prefix></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>', 'i'.repeat(256))),
  refused('noncurrent-zero', rule('<Filter><Prefix></Prefix></Filter><Status>Enabled</Status><NoncurrentVersionExpiration><NoncurrentDays>0</NoncurrentDays></NoncurrentVersionExpiration>')),
  refused('no-rules', ''),
  s('lifecycle.refused.malformed', PUT('/{b}?lifecycle', { body: '<LifecycleConfiguration>', md5: true }), { setup: OWN_B }),
  refused('tag-filter', rule('<Filter><Tag><Key>k</Key><Value>v</Value></Tag></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>')),
  refused('transition', rule('<Filter><Prefix></Prefix></Filter><Status>Enabled</Status><Transition><Days>1</Days><StorageClass>GLACIER</StorageClass></Transition>')),
  // x-amz-expiration: the expiry date (midnight UTC, days after the object's time) and the rule.
  s('lifecycle.expiration.head', HEAD('/{b}/obj'), { setup: [...OWN_B_OBJ, put(EVERY)] }),
  s('lifecycle.expiration.get', GET('/{b}/obj'), { setup: [...OWN_B_OBJ, put(EVERY)] }),
  s('lifecycle.expiration.put', PUT('/{b}/obj2', { body: 'x' }), { setup: [...OWN_B, put(EVERY)] }),
  s('lifecycle.expiration.not-covered', HEAD('/{b}/obj'), { setup: [...OWN_B_OBJ, put(DAYS)] }),
];
