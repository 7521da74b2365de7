import type { ContainersService } from '../../src-shared/contract/containers.js';
import type { BackendCall } from './backend-call.js';

/** A container's lifecycle rules and tags, on whichever backend holds it. */
export function createContainersService(on: BackendCall): ContainersService {
  return {
    lifecycle: (a) => on(a.account, (b) => b.lifecycle(a.container)),
    setLifecycle: (a) => on(a.account, (b) => b.setLifecycle(a.container, a.basis, a.rules)),
    tags: (a) => on(a.account, (b) => b.tags(a.container)),
    setTags: (a) => on(a.account, (b) => b.setTags(a.container, a.basis, a.tags)),
  };
}
