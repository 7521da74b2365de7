import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { queryKeys } from './keys';

export function useLocalStatus() {
  return useQuery({ queryKey: queryKeys.localStatus(), queryFn: () => api.localStore.status({}) });
}

export function useLocalUsers() {
  return useQuery({ queryKey: queryKeys.localUsers(), queryFn: () => api.localStore.users({}) });
}
