import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CATALOGUE_PATHS, catalogueResponseSchema, moveMembersResponseSchema, publishResponseSchema, type AddPlanRequest, type AddPriceListRequest, type SavePriceListRequest, type SaveSaleRequest, type SetPriceRequest, type UpdatePlanRequest } from '@shared/catalogue-contract';
import { api } from '@client/lib/api/api-client';
import { API_TIMEOUT_MS } from '@client/lib/api/timeouts';

const ROOT = ['admin', 'catalogue'] as const;

export function useCatalogueQuery() {
  return useQuery({ queryKey: ROOT, queryFn: () => api(CATALOGUE_PATHS.catalogue, { schema: catalogueResponseSchema }), retry: false });
}

/** Every edit answers the whole catalogue; the console keeps it as the query's data. */
function useCatalogueChange<T, R>(call: (input: T) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: () => client.invalidateQueries({ queryKey: ROOT }) });
}

const schema = catalogueResponseSchema;
export const useAddPlan = () => useCatalogueChange((body: AddPlanRequest) => api(CATALOGUE_PATHS.plans, { body, schema }));
export const useUpdatePlan = () => useCatalogueChange(({ slug, changes }: { slug: string; changes: UpdatePlanRequest }) => api(CATALOGUE_PATHS.plan(slug), { method: 'PUT', body: changes, schema }));
export const useSetPrice = () => useCatalogueChange(({ slug, ...body }: SetPriceRequest & { slug: string }) => api(CATALOGUE_PATHS.price(slug), { method: 'PUT', body, schema }));
export const useArchivePlan = () => useCatalogueChange((slug: string) => api(CATALOGUE_PATHS.archive(slug), { body: {}, schema }));
/** Moves the members who pay an older price on `list` to the current one at their next renewal; answers who was moved. */
export const useMoveMembers = () => useCatalogueChange(({ slug, list }: { slug: string; list: string }) => api(CATALOGUE_PATHS.moveMembers(slug), { body: { list }, schema: moveMembersResponseSchema }));
export const useSaveSale = () => useCatalogueChange(({ id, sale }: { id: string; sale: SaveSaleRequest }) => api(CATALOGUE_PATHS.sale(id), { method: 'PUT', body: sale, schema }));
export const useRemoveSale = () => useCatalogueChange((id: string) => api(CATALOGUE_PATHS.sale(id), { method: 'DELETE', schema }));
export const useAddPriceList = () => useCatalogueChange((body: AddPriceListRequest) => api(CATALOGUE_PATHS.priceLists, { body, schema }));
export const useSavePriceList = () => useCatalogueChange(({ slug, list }: { slug: string; list: SavePriceListRequest }) => api(CATALOGUE_PATHS.priceList(slug), { method: 'PUT', body: list, schema }));
/** Publishes the catalogue's prices at Stripe (in the sandbox: says what the sandbox charges); changes no plan, price list or sale. */
export const usePublishToStripe = () => useMutation({ mutationFn: () => api(CATALOGUE_PATHS.publish, { body: {}, schema: publishResponseSchema, timeoutMs: API_TIMEOUT_MS.manyCalls }) });
