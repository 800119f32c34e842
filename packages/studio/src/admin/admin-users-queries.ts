import { REFRESH_INTERVALS_MS, type ApiBody, type ApiName, type PlanId, type Role, type UserStatus } from '@reelsmith/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../services.js';
import { adminQueryKey } from './admin-queries.js';

export const adminUsersQueryKeys = {
  users: [...adminQueryKey, 'users'] as const,
  user: (id: string) => [...adminQueryKey, 'users', id] as const,
  audit: [...adminQueryKey, 'audit-log'] as const,
  systemHealth: [...adminQueryKey, 'system-health'] as const,
  throughput: [...adminQueryKey, 'throughput'] as const,
};

/** The User Management page's filters: GET /api/admin/users's query. */
export interface UserListQuery {
  search: string;
  role?: Role | undefined;
  plan?: PlanId | 'free' | undefined;
  status?: UserStatus | undefined;
  page: number;
  sort: string;
}

/** GET /api/admin/users with the page's filters; the previous page stays on screen while the next loads. */
export function useAdminUsers(query: UserListQuery) {
  const api = useApi();
  return useQuery({
    queryKey: [...adminUsersQueryKeys.users, query],
    queryFn: ({ signal }) => api.call('adminUsers', { query: { ...query }, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_INTERVALS_MS.admin,
  });
}

/** GET /api/admin/users/:id. */
export function useAdminUser(id: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: adminUsersQueryKeys.user(id ?? ''),
    queryFn: ({ signal }) => api.call('adminUser', { params: { id: id! }, signal }),
    enabled: id !== null,
  });
}

/** GET /api/admin/audit-log. */
export function useAuditLog(page: number, userId?: string) {
  const api = useApi();
  return useQuery({
    queryKey: [...adminUsersQueryKeys.audit, page, userId ?? null],
    queryFn: ({ signal }) => api.call('adminAuditLog', { query: { page, ...(userId ? { userId } : {}) }, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_INTERVALS_MS.admin,
  });
}

/** GET /api/admin/system-health, refreshed every 30 s like the dashboard. */
export function useSystemHealthDetail() {
  const api = useApi();
  return useQuery({
    queryKey: adminUsersQueryKeys.systemHealth,
    queryFn: ({ signal }) => api.call('systemHealth', { signal }),
    refetchInterval: REFRESH_INTERVALS_MS.admin,
  });
}

/** GET /api/admin/throughput: the last 24 h, refreshed with the System page. */
export function useThroughput() {
  const api = useApi();
  return useQuery({
    queryKey: adminUsersQueryKeys.throughput,
    queryFn: ({ signal }) => api.call('adminThroughput', { signal }),
    refetchInterval: REFRESH_INTERVALS_MS.admin,
  });
}

export type AdminUserAction = Extract<
  ApiName,
  'adminSuspendUser' | 'adminReactivateUser' | 'adminChangeRole' | 'adminGrantPlan' | 'adminResetUsage'
>;

/** One admin action on a user, then every admin read (list, user page, audit log) reloads. */
export function useAdminUserAction() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, id, body }: { action: AdminUserAction; id: string; body: ApiBody<AdminUserAction> }) =>
      api.call<AdminUserAction>(action, { params: { id }, body } as never),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminQueryKey }),
  });
}

/** POST /api/admin/users/:id/videos/:videoId/delete. */
export function useAdminDeleteVideo() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, videoId, reason }: { id: string; videoId: string; reason: string }) =>
      api.call('adminDeleteUserVideo', { params: { id, videoId }, body: { reason } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminQueryKey }),
  });
}
