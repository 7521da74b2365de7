import type { ContainerInfo } from '../../../engine/types.js';
import { fail, type NativeCall } from '../respond.js';
import { deleteObject, getObject, postObject, putObject } from './object.js';
import { deleteManifest, getManifest, putManifest } from './slo.js';

const RESERVED_SLO_HEADER =
  'X-Static-Large-Object is a reserved header. To create a static large object add query param multipart-manifest=put.';

/**
 * One object operation, once access is granted: the plain handlers, or the SLO ones that
 * `?multipart-manifest=put|get|delete` asks for (§6.3, §6.5, §10.1). A DLO is a plain PUT with
 * `X-Object-Manifest`, and every GET assembles large objects, so neither needs a route here.
 */
export async function objectRequest(call: NativeCall, c: ContainerInfo, name: string): Promise<void> {
  const { x } = call;
  const manifest = x.param('multipart-manifest');
  switch (x.method) {
    case 'GET':
    case 'HEAD':
      return manifest === 'get' ? getManifest(call, c, name) : getObject(call, c, name);
    case 'PUT':
      if (manifest === 'put') return putManifest(call, c, name);
      if (manifest !== undefined) return fail(x, 400, 'multipart-manifest must be "put" on a PUT');
      if (x.header('x-static-large-object') !== undefined) return fail(x, 400, RESERVED_SLO_HEADER);
      return putObject(call, c, name);
    case 'POST':
      if (x.header('x-static-large-object') !== undefined) return fail(x, 400, RESERVED_SLO_HEADER);
      return postObject(call, c, name);
    case 'DELETE':
      return manifest === 'delete' ? deleteManifest(call, c, name) : deleteObject(call, c, name);
    default:
      // RFC 9110 15.5.6: a 405 says what is allowed.
      return fail(x, 405, null, { Allow: 'COPY, DELETE, GET, HEAD, POST, PUT' });
  }
}
