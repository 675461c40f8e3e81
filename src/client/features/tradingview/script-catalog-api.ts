import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PlanType } from '@shared/plans';
import { scriptCatalogSchema, scriptSyncResultSchema, setScriptPlansResultSchema } from '@shared/script-catalog';
import { api } from '@client/lib/api/api-client';

const KEY = ['admin', 'tradingview', 'scripts'] as const;

export function useScriptCatalog() {
  return useQuery({ queryKey: KEY, queryFn: () => api('/api/admin/tradingview/scripts', { schema: scriptCatalogSchema }), retry: false });
}

/** Reads the vendor's scripts from TradingView; answers what changed, in a sentence. */
export function useSyncScripts() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const outcome = await api('/api/admin/tradingview/scripts/sync', { method: 'POST', body: {}, schema: scriptSyncResultSchema });
      const unlisted = outcome.unlisted.length ? ` Not listed by TradingView (kept): ${outcome.unlisted.join(', ')}.` : '';
      return `${outcome.scripts.length} scripts in the catalog: ${outcome.added.length} added, ${outcome.renamed.length} renamed.${unlisted}`;
    },
    onSettled: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

export function useSetScriptPlans() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: { scriptId: string; plans: PlanType[] }) => {
      const { script, resynced } = await api('/api/admin/tradingview/scripts/plans', { body: input, schema: setScriptPlansResultSchema });
      return { message: `${script.name} is now in ${script.plans.length ? script.plans.length : 'no'} plan${script.plans.length === 1 ? '' : 's'}; ${resynced} member${resynced === 1 ? '' : 's'} brought up to date.` };
    },
    onSettled: () => client.invalidateQueries({ queryKey: KEY }),
  });
}
