import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ContainerTag, LifecycleRuleChange, LifecycleView, TagsView } from '../../src-shared/model/container-settings';
import { api } from '../api/client';
import { errorCode } from '../app/errors';
import { queryKeys } from './keys';
import { useCapabilities } from './use-object-ops';

/** A container's lifecycle rules, where the connection has them (never asked otherwise: the capabilities say why). */
export function useLifecycle(account: string, container: string) {
  const caps = useCapabilities(account).data;
  const query = useQuery({
    queryKey: queryKeys.lifecycle(account, container),
    queryFn: () => api.containers.lifecycle({ account, container }),
    enabled: caps?.lifecycle === true,
  });
  return { caps, query };
}

export function useContainerTags(account: string, container: string) {
  const caps = useCapabilities(account).data;
  const query = useQuery({
    queryKey: queryKeys.containerTags(account, container),
    queryFn: () => api.containers.tags({ account, container }),
    enabled: caps?.containerTags === true,
  });
  return { caps, query };
}

/**
 * A save shows what the server answered; a save refused because the configuration changed
 * elsewhere (PreconditionFailed) reads it again, so what is shown is what is there.
 */
function useSave<A, V>(key: readonly unknown[], save: (a: A) => Promise<V>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: save,
    onSuccess: (view) => qc.setQueryData(key, view),
    onError: (err) => {
      if (errorCode(err) === 'PreconditionFailed') void qc.invalidateQueries({ queryKey: key });
    },
  });
}

export function useSetLifecycle(account: string, container: string) {
  return useSave<{ basis: string; rules: LifecycleRuleChange[] }, LifecycleView>(queryKeys.lifecycle(account, container), (a) =>
    api.containers.setLifecycle({ account, container, ...a }),
  );
}

export function useSetContainerTags(account: string, container: string) {
  return useSave<{ basis: string; tags: ContainerTag[] }, TagsView>(queryKeys.containerTags(account, container), (a) => api.containers.setTags({ account, container, ...a }));
}
