import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { queryKeys } from './keys';

export function useConnections() {
  return useQuery({ queryKey: queryKeys.connections(), queryFn: () => api.accounts.list({}) });
}
