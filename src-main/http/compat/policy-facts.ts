import type { TLSSocket } from 'node:tls';
import type { ConditionContext, ContainerInfo, PolicyFacts } from '../../engine/index.js';
import type { Exchange } from '../common/exchange.js';
import { POLICY_ACTION, type BucketOpName, type S3Operation } from './operation.js';

/** The condition keys of a request (lower-case names), those AWS fills in for S3 that this server can know. */
function conditionContext(x: Exchange, op: S3Operation, versionId: string | undefined): ConditionContext {
  const now = Date.now();
  const context: ConditionContext = {
    'aws:sourceip': x.req.socket.remoteAddress,
    'aws:referer': x.header('referer'),
    'aws:useragent': x.header('user-agent'),
    'aws:securetransport': (x.req.socket as Partial<TLSSocket>).encrypted ? 'true' : 'false',
    'aws:currenttime': new Date(now).toISOString(),
    'aws:epochtime': String(Math.floor(now / 1000)),
    's3:versionid': versionId,
    's3:x-amz-acl': x.header('x-amz-acl'),
  };
  if ('list' in op) {
    // Present only when the request names them, so IfExists and Null read an absent one as absent.
    context['s3:prefix'] = op.list.prefix;
    context['s3:delimiter'] = op.list.delimiter;
    context['s3:max-keys'] = x.param(op.name === 'ListMultipartUploads' ? 'max-uploads' : 'max-keys');
  }
  return context;
}

/** What a bucket's policy reads of a request: the action as AWS names it, the key, and (when it has a policy) the condition keys. */
export function policyFacts(x: Exchange, op: S3Operation, bucket: ContainerInfo): PolicyFacts {
  const names = POLICY_ACTION[op.name as BucketOpName];
  const versionId = 'versionId' in op ? op.versionId : undefined;
  const action = Array.isArray(names) ? names[versionId !== undefined ? 1 : 0] : names;
  return { action: action ?? '', key: op.address.key, context: bucket.policy ? conditionContext(x, op, versionId) : undefined };
}
