import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TAdminConfigEntry } from '../../../../shared/contract/admin';
import { api } from '../../../lib/api';
import { ADMIN_KEY } from './admin-keys';

export const adminConfigQuery = queryOptions({
  queryKey: [...ADMIN_KEY, 'config'],
  queryFn: () => api<TAdminConfigEntry[]>('/api/admin/config'),
});

export function useAdminConfig() {
  return useQuery(adminConfigQuery);
}
